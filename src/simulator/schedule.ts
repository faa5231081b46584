/**
 * Day plans of the synthetic fleet and everything derived from them (track points,
 * stops, fuel, temperatures). A plan is a pure function of (seed, vehicle, calendar day),
 * so any period can be answered without history; each day starts and ends at the depot.
 */
import type { Driver, SimVehicle } from "./fleet.js";
import { hash32, Rng, unit } from "./random.js";
import { measureRoad, nearestTown, positionAtKm } from "./roads.js";
import { DAY, HOUR, localDayOf, MINUTE, nextDay, previousDay, startOfLocalDay, weekdayOf } from "./time.js";
import { overlayTrips, type Trip } from "./trips.js";

export interface Interval {
  start: number;
  end: number;
}

export interface Drive extends Interval {
  kind: "drive";
  road: string;
  fromKm: number;
  toKm: number;
  speedKmh: number;
  /** Time between two track points while moving. */
  stepMs: number;
  isPrivate: boolean;
  driver: Driver;
}

export type ParkPurpose = "depot" | "delivery" | "loading" | "break" | "fuel" | "traffic";

export interface Park extends Interval {
  kind: "park";
  lat: number;
  lon: number;
  address: string;
  hotSpot: string | null;
  engineOn: Interval[];
  isPrivate: boolean;
  driver: Driver;
  purpose: ParkPurpose;
  /** Outside Romania (a transport's trip abroad). */
  abroad?: true;
}

export type Segment = Drive | Park;

export type FuelSource = "primary" | "secondary";

export interface FuelEvent {
  at: number;
  kind: "Fueling" | "PossibleFuelTheft";
  source: FuelSource;
  litres: number;
  location: string;
  isPrivate: boolean;
}

export interface DayPlan {
  day: string;
  start: number;
  end: number;
  segments: Segment[];
  fuelEvents: FuelEvent[];
}

export interface FleetContext {
  seed: number;
  timeZone: string;
  /** Trips of the vehicle's started transports; they replace the day plans while they last. */
  trips?: (v: SimVehicle) => readonly Trip[];
}

const STREETS = [
  "Str. Depozitelor",
  "Str. Industriilor",
  "Calea Națională",
  "Bd. Republicii",
  "Str. Fabricii",
  "Str. Gării",
  "Șos. de Centură",
  "Str. Morii",
  "Str. Mihai Viteazu",
  "Str. Libertății",
];

const FUEL_BRANDS = ["OMV Petrom", "Rompetrol", "MOL", "Lukoil"];

function fleetDayIndex(day: string): number {
  return Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse("2025-01-01T00:00:00Z")) / DAY);
}

const planCache = new Map<string, DayPlan>();

/** The plan of one vehicle for one calendar day of the company zone (memoised; pure). */
export function dayPlan(ctx: FleetContext, vehicle: SimVehicle, day: string): DayPlan {
  const key = `${ctx.seed}|${ctx.timeZone}|${vehicle.vehicleId}|${vehicle.vehicleUId}|${day}`;
  const cached = planCache.get(key);
  if (cached) return cached;
  const plan = buildDayPlan(ctx, vehicle, day);
  if (planCache.size > 50_000) planCache.clear();
  planCache.set(key, plan);
  return plan;
}

/**
 * Whether a vehicle works on a day. Like a real carrier's fleet, fewer vehicles drive at the weekend:
 * about a third of the trucks on Saturdays, a fifth on Sundays, a few vans on Saturdays; the reefers
 * run every day (a cold chain does not stop), so "yesterday" is never an empty fleet. Any vehicle but
 * a reefer takes a day off now and then. The random draws on a weekday are the same as before
 * weekends were worked, so weekday plans did not change.
 */
function worksOn(v: SimVehicle, weekday: number, rng: Rng): boolean {
  const weekendShare = weekday === 6 ? (v.kind === "truck" ? 0.35 : 0.2) : v.kind === "truck" ? 0.2 : 0;
  const onDuty = weekday === 0 || weekday === 6 ? weekendShare > 0 && rng.chance(weekendShare) : true;
  const dayOff = rng.chance(0.07);
  if (v.reefer) return true;
  return onDuty && !dayOff;
}

function buildDayPlan(ctx: FleetContext, v: SimVehicle, day: string): DayPlan {
  const start = startOfLocalDay(ctx.timeZone, day);
  const end = startOfLocalDay(ctx.timeZone, nextDay(day));
  const rng = new Rng("day", ctx.seed, v.vehicleId, day);
  const weekday = weekdayOf(day);
  const isPrivate = v.privateOnSaturdays && weekday === 6;
  const works = isPrivate || worksOn(v, weekday, rng);
  const driver = v.drivers[rng.int(0, v.drivers.length - 1)]!;
  const roadName = rng.pick(v.roads);
  const road = measureRoad(roadName);
  const depotPoint = road.road.points[0]!;
  const segments: Segment[] = [];

  const park = (
    from: number,
    minutes: number,
    atKm: number,
    purpose: ParkPurpose,
    engineOn: Interval[],
    address: string,
  ): number => {
    const to = Math.min(end, from + minutes * MINUTE);
    const pos = atKm === 0 ? depotPoint : positionAtKm(road, atKm);
    segments.push({
      kind: "park",
      start: from,
      end: to,
      lat: round(pos.lat, 6),
      lon: round(pos.lon, 6),
      address,
      hotSpot: purpose === "depot" ? v.depot.hotSpot : null,
      engineOn: engineOn.filter((i) => i.end > i.start),
      isPrivate,
      driver,
      purpose,
    });
    return to;
  };

  if (!works) {
    park(start, (end - start) / MINUTE, 0, "depot", [], v.depot.address);
    return { day, start, end, segments, fuelEvents: [] };
  }

  const towns = road.road.points
    .map((point, i) => ({ point, km: road.km[i]! }))
    .filter(({ point, km }) => point.town !== undefined && km >= 20 && km <= v.maxOneWayKm);
  const farthest = towns.length
    ? towns
    : [{ point: road.road.points[1]!, km: Math.min(road.km[1]!, v.maxOneWayKm) }];
  const turnaround =
    v.kind === "truck" ? farthest[Math.max(0, farthest.length - 1 - rng.int(0, 1))]! : rng.pick(farthest);
  const deliveries = farthest.filter(
    (t) => t.km < turnaround.km && rng.chance(v.kind === "truck" ? 0.25 : 0.6),
  );

  let t = start + (5.5 * HOUR + rng.between(0, 150) * MINUTE);
  let km = 0;
  const stepMs = rng.int(60, 120) * 1000;

  const driveTo = (targetKm: number): void => {
    const legs: number[] = [targetKm];
    if (Math.abs(targetKm - km) > 20 && rng.chance(0.35))
      legs.unshift(km + (targetKm - km) * rng.between(0.2, 0.8));
    for (const legEnd of legs) {
      const speedKmh = rng.between(v.cruiseKmh[0], v.cruiseKmh[1]);
      const duration = (Math.abs(legEnd - km) / speedKmh) * HOUR;
      if (t + duration >= end - MINUTE) return;
      segments.push({
        kind: "drive",
        start: t,
        end: t + duration,
        road: roadName,
        fromKm: km,
        toKm: legEnd,
        speedKmh,
        stepMs,
        isPrivate,
        driver,
      });
      t += duration;
      km = legEnd;
      if (legEnd !== targetKm) {
        // A short stop in traffic or at a toll/weighing point, engine running.
        const minutes = rng.int(1, 4);
        const here = nearestTown(road, km);
        t = park(
          t,
          minutes,
          km,
          "traffic",
          [{ start: t, end: t + minutes * MINUTE }],
          `${road.road.ref}, ${here.town}`,
        );
      }
    }
  };
  const streetAddress = (town: string): string => `${rng.pick(STREETS)} ${rng.int(1, 180)}, ${town}`;

  t = park(start, (t - start) / MINUTE, 0, "depot", [{ start: t - 8 * MINUTE, end: t }], v.depot.address);
  for (const stop of deliveries) {
    driveTo(stop.km);
    const minutes = rng.int(20, 50);
    t = park(
      t,
      minutes,
      km,
      "delivery",
      [
        { start: t, end: t + 3 * MINUTE },
        { start: t + (minutes - 2) * MINUTE, end: t + minutes * MINUTE },
      ],
      streetAddress(stop.point.town ?? ""),
    );
  }
  driveTo(turnaround.km);
  t = park(t, rng.int(45, 120), km, "loading", [], streetAddress(turnaround.point.town ?? ""));
  if (turnaround.km > 150) {
    driveTo(turnaround.km * 0.55);
    const here = nearestTown(road, km);
    t = park(
      t,
      rng.int(30, 45),
      km,
      "break",
      [],
      `Parcare ${road.road.ref} km ${Math.round(km)}, lângă ${here.town}`,
    );
  }
  if (v.kind === "truck" && rng.chance(0.3)) {
    driveTo(turnaround.km * 0.3);
    const here = nearestTown(road, km);
    t = park(
      t,
      rng.int(12, 20),
      km,
      "fuel",
      [],
      `${rng.pick(FUEL_BRANDS)}, ${road.road.ref} km ${Math.round(km)}, ${here.town}`,
    );
  }
  driveTo(0);
  if (km !== 0) {
    // Too late to get home: the rest of the day is spent where the vehicle is (rare).
    park(t, (end - t) / MINUTE, km, "break", [], `${road.road.ref} km ${Math.round(km)}`);
  } else {
    park(t, (end - t) / MINUTE, 0, "depot", [{ start: t, end: t + 5 * MINUTE }], v.depot.address);
  }
  const plan: DayPlan = { day, start, end, segments, fuelEvents: [] };
  plan.fuelEvents = planFuelEvents(ctx, v, plan);
  return plan;
}

/** Refuelling at fuel stops and on the evening return, and a possible theft on some breaks. */
function planFuelEvents(ctx: FleetContext, v: SimVehicle, plan: DayPlan): FuelEvent[] {
  const events: FuelEvent[] = [];
  const sources: FuelSource[] = v.secondaryFuel ? ["primary", "secondary"] : ["primary"];
  for (const segment of plan.segments) {
    if (segment.kind !== "park") continue;
    const rng = new Rng("fuel", ctx.seed, v.vehicleId, segment.start);
    for (const source of sources) {
      const tank = source === "primary" ? v.tankLitres : (v.secondaryFuel?.tankLitres ?? 0);
      if (segment.purpose === "break" && rng.chance(source === "primary" ? 0.1 : 0.05)) {
        const at = segment.start + 15 * MINUTE;
        const level = fuelLevelAt(v, plan, events, at, source);
        const litres = round(Math.min(level * 0.5, rng.between(0.06, 0.12) * tank), 1);
        events.push({
          at,
          kind: "PossibleFuelTheft",
          source,
          litres,
          location: segment.address,
          isPrivate: false,
        });
      }
      if (segment.purpose === "fuel" || (segment.purpose === "depot" && segment.start > plan.start)) {
        const at = segment.start + 4 * MINUTE;
        if (at >= plan.end) continue;
        const litres = round(tank - fuelLevelAt(v, plan, events, at, source), 1);
        if (litres >= 1) {
          events.push({
            at,
            kind: "Fueling",
            source,
            litres,
            location: segment.address,
            isPrivate: segment.isPrivate,
          });
        }
      }
    }
  }
  return events;
}

function overlap(a: Interval, from: number, to: number): number {
  return Math.max(0, Math.min(a.end, to) - Math.max(a.start, from));
}

export interface Usage {
  km: number;
  /** Engine-on time: driving plus idling. */
  engineMs: number;
  litres: number;
}

/** Distance, engine time and fuel of one source within [from, to] of a plan. */
export function usageBetween(
  v: SimVehicle,
  plan: DayPlan,
  from: number,
  to: number,
  source: FuelSource,
): Usage {
  const share = v.secondaryFuel
    ? source === "secondary"
      ? v.secondaryFuel.distanceShare
      : 1 - v.secondaryFuel.distanceShare
    : 1;
  const rate = source === "secondary" ? (v.secondaryFuel?.litresPer100Km ?? 0) : v.litresPer100Km;
  let km = 0;
  let engineMs = 0;
  let idleMs = 0;
  for (const segment of plan.segments) {
    if (segment.end <= from || segment.start >= to) continue;
    if (segment.kind === "drive") {
      const part = overlap(segment, from, to);
      km += (Math.abs(segment.toKm - segment.fromKm) * part) / (segment.end - segment.start);
      engineMs += part;
    } else {
      for (const on of segment.engineOn) idleMs += overlap(on, from, to);
    }
  }
  const idleShare = source === "primary" ? 1 : 0;
  return {
    km: km * share,
    engineMs: engineMs * share + idleMs * idleShare,
    litres: (km * share * rate) / 100 + (idleMs / HOUR) * v.idleLitresPerHour * idleShare,
  };
}

/** Fuel in the tank at an instant: full at the day's start, minus use and thefts, plus refuels. */
export function fuelLevelAt(
  v: SimVehicle,
  plan: DayPlan,
  events: readonly FuelEvent[],
  at: number,
  source: FuelSource,
): number {
  const tank = source === "primary" ? v.tankLitres : (v.secondaryFuel?.tankLitres ?? 0);
  let level = tank - usageBetween(v, plan, plan.start, at, source).litres;
  for (const event of events) {
    if (event.source !== source || event.at > at) continue;
    level += event.kind === "Fueling" ? event.litres : -event.litres;
  }
  return Math.max(0, level);
}

/**
 * Segments covering [from, to] across days, with the overnight parks of consecutive days
 * merged into one stop (clipped to the days generated: the day before `from` to the day after `to`).
 */
export function timeline(ctx: FleetContext, v: SimVehicle, from: number, to: number): Segment[] {
  const days: string[] = [];
  const last = nextDay(localDayOf(ctx.timeZone, to));
  let first = previousDay(localDayOf(ctx.timeZone, from));
  // Rest days are one long park: go back (at most a week) to the evening the park began.
  for (let i = 0; i < 7 && dayPlan(ctx, v, first).segments.length === 1; i++) first = previousDay(first);
  for (let day = first; day <= last; day = nextDay(day)) days.push(day);
  const planned = days.flatMap((day) => dayPlan(ctx, v, day).segments);
  const trips = ctx.trips?.(v) ?? [];
  const spanStart = planned[0]!.start;
  const spanEnd = planned[planned.length - 1]!.end;
  const segments =
    trips.length === 0
      ? planned
      : overlayTrips(planned, trips).filter((s) => s.end > spanStart && s.start < spanEnd);
  const merged: Segment[] = [];
  for (const segment of segments) {
    const prev = merged[merged.length - 1];
    if (
      prev?.kind === "park" &&
      segment.kind === "park" &&
      prev.end === segment.start &&
      prev.lat === segment.lat &&
      prev.lon === segment.lon &&
      prev.purpose === segment.purpose
    ) {
      merged[merged.length - 1] = {
        ...prev,
        end: segment.end,
        engineOn: [...prev.engineOn, ...segment.engineOn],
      };
    } else {
      merged.push(segment);
    }
  }
  return merged;
}

export interface TrackPoint {
  vehicleId: number;
  at: number;
  lat: number;
  lon: number;
  speed: number;
  course: number;
}

function driveKmAt(drive: Drive, at: number): number {
  const f = (at - drive.start) / (drive.end - drive.start);
  return drive.fromKm + (drive.toKm - drive.fromKm) * f;
}

function drivePoint(v: SimVehicle, drive: Drive, at: number, edge: boolean): TrackPoint {
  const road = measureRoad(drive.road);
  const pos = positionAtKm(road, driveKmAt(drive, at));
  const backwards = drive.toKm < drive.fromKm;
  const jitter = (unit("speed", v.vehicleId, at) - 0.5) * 14;
  return {
    vehicleId: v.vehicleId,
    at,
    lat: round(pos.lat, 6),
    lon: round(pos.lon, 6),
    speed: Math.max(0, Math.round(edge ? drive.speedKmh * 0.3 : drive.speedKmh + jitter)),
    course: Math.round(backwards ? (pos.course + 180) % 360 : pos.course),
  };
}

/** Track points of one drive: one every stepMs, plus both ends. */
function drivePoints(v: SimVehicle, drive: Drive): TrackPoint[] {
  const points: TrackPoint[] = [];
  const firstStep = Math.ceil(drive.start / 1000) * 1000;
  points.push(drivePoint(v, drive, firstStep, true));
  for (let at = firstStep + drive.stepMs; at < drive.end - 1000; at += drive.stepMs) {
    points.push(drivePoint(v, drive, at, false));
  }
  points.push(drivePoint(v, drive, Math.floor(drive.end / 1000) * 1000, true));
  return points;
}

/** Track of the vehicle within [from, to] (a point every 1–2 minutes while moving). */
export function trackPoints(ctx: FleetContext, v: SimVehicle, from: number, to: number): TrackPoint[] {
  const points: TrackPoint[] = [];
  for (const segment of timeline(ctx, v, from, to)) {
    if (segment.kind !== "drive" || segment.end < from || segment.start > to) continue;
    for (const point of drivePoints(v, segment)) if (point.at >= from && point.at <= to) points.push(point);
  }
  return points;
}

export interface VehicleState {
  lat: number;
  lon: number;
  speed: number;
  course: number;
  gpsDate: number;
  address: string;
  engineOn: boolean;
  engineEventDate: number;
  engineRpm: number;
  isPrivate: boolean;
  voltage: number;
  /** Outside Romania. */
  abroad: boolean;
}

/**
 * The vehicle's supply voltage at an instant on its own 12/24 V system: charging (about 14/28 V)
 * while the engine runs, the battery's rest voltage (about 12.5/25 V) while it is off.
 */
export function systemVoltage(v: SimVehicle, at: number, engineOn: boolean): number {
  return engineOn
    ? round(v.nominalVoltage * 1.16 + unit("volt", v.vehicleId, at) * 0.3, 1)
    : round(v.nominalVoltage * 1.04 + unit("volt", v.vehicleId, at) * 0.2, 1);
}

/** Where the vehicle is and what it does at an instant (last reported position). */
export function vehicleStateAt(ctx: FleetContext, v: SimVehicle, now: number): VehicleState {
  const segments = timeline(ctx, v, now - DAY, now);
  const index = segments.findIndex((s) => s.start <= now && now < s.end);
  const segment = segments[index] ?? segments[segments.length - 1]!;
  const voltageOn = systemVoltage(v, now, true);
  const voltageOff = systemVoltage(v, now, false);
  if (segment.kind === "drive") {
    const sinceStart = Math.max(0, now - segment.start);
    const at = segment.start + Math.floor(sinceStart / segment.stepMs) * segment.stepMs;
    const point = drivePoint(v, segment, Math.floor(at / 1000) * 1000, at === segment.start);
    const road = measureRoad(segment.road);
    const km = driveKmAt(segment, at);
    const town = nearestTown(road, km);
    return {
      lat: point.lat,
      lon: point.lon,
      speed: point.speed,
      course: point.course,
      gpsDate: point.at,
      address: `${road.road.ref}, lângă ${town.town}, ${town.county ?? ""}`.replace(/, $/, ""),
      engineOn: true,
      engineEventDate: Math.floor(segment.start / 1000) * 1000,
      engineRpm: 1100 + point.speed * 6,
      isPrivate: segment.isPrivate,
      voltage: voltageOn,
      abroad: positionAtKm(road, km).abroad,
    };
  }
  const on = segment.engineOn.find((i) => i.start <= now && now < i.end);
  const lastOff = segment.engineOn
    .filter((i) => i.end <= now)
    .reduce((acc, i) => Math.max(acc, i.end), segment.start);
  const heartbeat = Math.max(segment.start, now - (now % HOUR));
  return {
    lat: segment.lat,
    lon: segment.lon,
    speed: 0,
    course: 0,
    gpsDate: Math.floor(Math.min(now, heartbeat) / 1000) * 1000,
    address: segment.address,
    engineOn: on !== undefined,
    engineEventDate: Math.floor((on ? on.start : lastOff) / 1000) * 1000,
    engineRpm: on ? 650 : 0,
    isPrivate: segment.isPrivate,
    voltage: on ? voltageOn : voltageOff,
    abroad: segment.abroad === true,
  };
}

/** Odometer (km) and engine hours at an instant: a daily allowance plus the day's own use. */
export function indexesAt(ctx: FleetContext, v: SimVehicle, at: number): { km: number; hours: number } {
  const day = localDayOf(ctx.timeZone, at);
  const plan = dayPlan(ctx, v, day);
  const days = fleetDayIndex(day);
  const usage = usageBetween(v, plan, plan.start, at, "primary");
  const secondary = v.secondaryFuel ? usageBetween(v, plan, plan.start, at, "secondary") : undefined;
  const km = v.odometerBaseKm + days * 2 * v.maxOneWayKm + usage.km + (secondary?.km ?? 0);
  const hours = v.odometerBaseKm / 55 + days * 12 + (usage.engineMs + (secondary?.engineMs ?? 0)) / HOUR;
  return { km: round(km, 1), hours: round(hours, 1) };
}

export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Stable small number for a vehicle and a thing (used for per-record variety). */
export function vehicleNoise(v: SimVehicle, ...parts: ReadonlyArray<string | number>): number {
  return hash32(v.vehicleId, ...parts);
}

/** Whether the vehicle is outside Romania at `at` within a segment. */
function abroadIn(segment: Segment, at: number): boolean {
  if (segment.kind === "park") return segment.abroad === true;
  return positionAtKm(measureRoad(segment.road), driveKmAt(segment, at)).abroad;
}

/**
 * Since when the vehicle has been outside Romania without a break, if it is abroad at `now`
 * (looked up to two days back; the border crossing inside a drive is found by bisection).
 */
export function abroadSince(ctx: FleetContext, v: SimVehicle, now: number): number | undefined {
  const segments = timeline(ctx, v, now - 2 * DAY, now);
  let index = segments.findIndex((s) => s.start <= now && now < s.end);
  if (index < 0 || !abroadIn(segments[index]!, now)) return undefined;
  let since = segments[index]!.start;
  for (; index >= 0; index--) {
    const segment = segments[index]!;
    const end = Math.min(segment.end, now);
    if (abroadIn(segment, segment.start)) {
      since = segment.start;
      continue;
    }
    // The crossing lies inside this drive: the first instant abroad.
    let inside = end;
    let outside = segment.start;
    while (inside - outside > 1000) {
      const mid = Math.floor((inside + outside) / 2);
      if (abroadIn(segment, mid)) inside = mid;
      else outside = mid;
    }
    return Math.floor(inside / 1000) * 1000;
  }
  return since;
}
