/** Answers of the vehicle-data endpoints, built from the day plans. Pure functions. */
import type { SimVehicle } from "./fleet.js";
import { unit } from "./random.js";
import {
  dayPlan,
  type FleetContext,
  type FuelEvent,
  type FuelSource,
  fuelLevelAt,
  indexesAt,
  type Park,
  round,
  timeline,
  trackPoints,
  usageBetween,
  type VehicleState,
  vehicleStateAt,
} from "./schedule.js";
import { HOUR, localDaysBetween, MINUTE } from "./time.js";
import { ALARM_READING_MS, type ForcedTemperature } from "./vehicleControl.js";

/** Formats an instant as a response date (company zone, configured style). */
export type DateFormatter = (instant: number) => string;

/** Durations of stop records are reported in this unit (the document does not say). */
export type DurationUnit = "minutes" | "seconds";

function duration(ms: number, unitName: DurationUnit): number {
  return unitName === "minutes" ? round(ms / MINUTE, 2) : Math.round(ms / 1000);
}

/** A company-vehicles element; `state` is the day plans' unless an override changed it. */
export function companyVehicle(
  ctx: FleetContext,
  v: SimVehicle,
  now: number,
  fmt: DateFormatter,
  state: VehicleState = vehicleStateAt(ctx, v, now),
) {
  return {
    vehicleId: v.vehicleId,
    vehicleUId: v.vehicleUId,
    vehicleName: v.name,
    vehicleRegistrationNumber: v.plate,
    latitude: state.lat,
    longitude: state.lon,
    gpsDate: fmt(state.gpsDate),
    address: state.address,
    speed: state.speed,
    course: state.course,
    engineEvent: state.engineOn ? 1 : 2,
    engineRpm: state.engineRpm,
    engineEventDate: fmt(state.engineEventDate),
    serverDate: fmt(now),
    isPrivate: state.isPrivate,
    vehicleIdentificationNumber: v.vin,
    externalPowerVoltage: state.voltage,
    vehicleManufacturer: v.manufacturer,
    vehicleModel: v.model,
    manufactureYear: v.year,
  };
}

export function wayPoints(ctx: FleetContext, v: SimVehicle, from: number, to: number, fmt: DateFormatter) {
  return trackPoints(ctx, v, from, to).map((p) => ({
    vehicleId: p.vehicleId,
    gpsDate: fmt(p.at),
    latitude: p.lat,
    longitude: p.lon,
    speed: p.speed,
    course: p.course,
  }));
}

/**
 * Stops of at least `marginMinutes` overlapping [from, to]; shorter parks count as part of
 * the trip before the next reported stop. An ongoing stop ends at `to` (never past now).
 */
export function stopRecords(
  ctx: FleetContext,
  v: SimVehicle,
  from: number,
  to: number,
  marginMinutes: number,
  fmt: DateFormatter,
  unitName: DurationUnit,
) {
  const records = [];
  let trip = { km: 0, engineMs: 0, maxSpeed: 0, movingMs: 0, points: 0, litres: 0 };
  for (const segment of timeline(ctx, v, from, to)) {
    if (segment.start > to) break;
    if (segment.kind === "drive") {
      const km = Math.abs(segment.toKm - segment.fromKm);
      const ms = segment.end - segment.start;
      trip.km += km;
      trip.engineMs += ms;
      trip.movingMs += ms;
      trip.maxSpeed = Math.max(trip.maxSpeed, Math.round(segment.speedKmh + 7));
      trip.points += Math.max(2, Math.ceil(ms / segment.stepMs) + 1);
      trip.litres += (km * v.litresPer100Km) / 100;
      continue;
    }
    const end = Math.min(segment.end, to);
    const parkMs = end - segment.start;
    const engineOn = segment.engineOn
      .filter((i) => i.start < end)
      .map((i) => ({ ...i, end: Math.min(i.end, end) }));
    const idleMs = engineOn.reduce((sum, i) => sum + (i.end - i.start), 0);
    const idleLitres = (idleMs / HOUR) * v.idleLitresPerHour;
    if (parkMs < marginMinutes * MINUTE) {
      trip.engineMs += idleMs;
      trip.litres += idleLitres;
      continue;
    }
    if (segment.end >= from) {
      records.push(stopRecord(ctx, v, segment, end, engineOn, idleMs, idleLitres, trip, fmt, unitName));
    }
    trip = { km: 0, engineMs: 0, maxSpeed: 0, movingMs: 0, points: 0, litres: 0 };
  }
  return records;
}

function stopRecord(
  ctx: FleetContext,
  v: SimVehicle,
  park: Park,
  end: number,
  engineOn: { start: number; end: number }[],
  idleMs: number,
  idleLitres: number,
  trip: { km: number; engineMs: number; maxSpeed: number; movingMs: number; points: number; litres: number },
  fmt: DateFormatter,
  unitName: DurationUnit,
) {
  const indexes = indexesAt(ctx, v, park.start);
  return {
    vehicleId: v.vehicleId,
    startDate: fmt(park.start),
    endDate: fmt(end),
    latitude: park.lat,
    longitude: park.lon,
    stationaryEngineOnTime: duration(idleMs, unitName),
    distance: round(trip.km, 2),
    maxSpeed: trip.maxSpeed,
    averageSpeed: trip.movingMs > 0 ? round(trip.km / (trip.movingMs / HOUR), 1) : 0,
    speedCount: trip.points,
    indexKm: indexes.km,
    indexHours: indexes.hours,
    address: park.address,
    stopDuration: duration(end - park.start, unitName),
    engineOnStops: engineOn.map((i) => ({
      startDate: fmt(i.start),
      endDate: fmt(i.end),
      duration: duration(i.end - i.start, unitName),
    })),
    hotSpot: park.hotSpot,
    functioningTime: duration(trip.engineMs + idleMs, unitName),
    isPrivate: park.isPrivate,
    drivers: [{ firstName: park.driver.firstName, lastName: park.driver.lastName }],
    fuelConsumption: round(trip.litres + idleLitres, 2),
  };
}

/** "hh:mm:ss"; hours may exceed 24. */
export function hoursText(ms: number): string {
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
}

function sourceUsage(ctx: FleetContext, v: SimVehicle, from: number, to: number, source: FuelSource) {
  let km = 0;
  let engineMs = 0;
  let litres = 0;
  for (const day of localDaysBetween(ctx.timeZone, from, to)) {
    const usage = usageBetween(v, dayPlan(ctx, v, day), from, to, source);
    km += usage.km;
    engineMs += usage.engineMs;
    litres += usage.litres;
  }
  const distance = round(km, 2);
  const consumptionValue = round(litres, 2);
  return {
    distance,
    engineMs: Math.round(engineMs / 1000) * 1000,
    consumptionValue,
    averageConsumption100Km: distance > 0 ? round((consumptionValue / distance) * 100, 2) : 0,
  };
}

/**
 * Consumption over [from, to]. The top-level fields are the primary source; a vehicle with a
 * secondary source (LPG) carries it in secondarySource, and the consumer applies the
 * document's totals rule (sum, time sum, mean of averages). Without one, secondarySource is null.
 */
export function consumptionRecord(ctx: FleetContext, v: SimVehicle, from: number, to: number) {
  const primary = sourceUsage(ctx, v, from, to, "primary");
  if (!v.secondaryFuel) {
    return {
      vehicleName: v.name,
      licensePlate: v.plate,
      distance: primary.distance,
      hours: hoursText(primary.engineMs),
      consumptionValue: primary.consumptionValue,
      averageConsumption100Km: primary.averageConsumption100Km,
      secondarySource: null,
    };
  }
  const secondary = sourceUsage(ctx, v, from, to, "secondary");
  return {
    vehicleName: v.name,
    licensePlate: v.plate,
    distance: primary.distance,
    hours: hoursText(primary.engineMs),
    consumptionValue: primary.consumptionValue,
    averageConsumption100Km: primary.averageConsumption100Km,
    secondarySource: {
      distance: secondary.distance,
      hours: hoursText(secondary.engineMs),
      consumptionValue: secondary.consumptionValue,
      averageConsumption100Km: secondary.averageConsumption100Km,
    },
  };
}

function levelAt(ctx: FleetContext, v: SimVehicle, at: number, source: FuelSource): number {
  const [day] = localDaysBetween(ctx.timeZone, at, at);
  const plan = dayPlan(ctx, v, day!);
  return fuelLevelAt(v, plan, plan.fuelEvents, at, source);
}

function locationAt(ctx: FleetContext, v: SimVehicle, at: number): string {
  return vehicleStateAt(ctx, v, at).address;
}

/**
 * Refill events over [from, to]: FuelStart, each Fueling and PossibleFuelTheft, then the
 * totals (TotalRefill, TotalPossibleTheft, RemainingFuel, TotalFuelConsumption), for each
 * source. Totals are consistent: consumption = start + refills − thefts − remaining.
 */
export function refillEvents(ctx: FleetContext, v: SimVehicle, from: number, to: number, fmt: DateFormatter) {
  const sources: FuelSource[] = v.secondaryFuel ? ["primary", "secondary"] : ["primary"];
  const events: { date: string; event: string; location: string; estimation: number; isPrivate: boolean }[] =
    [];
  const inPeriod: FuelEvent[] = [];
  for (const day of localDaysBetween(ctx.timeZone, from, to)) {
    for (const e of dayPlan(ctx, v, day).fuelEvents) if (e.at >= from && e.at <= to) inPeriod.push(e);
  }
  for (const source of sources) {
    const suffix = source === "secondary" ? "SecondarySource" : "";
    const start = round(levelAt(ctx, v, from, source), 1);
    const remaining = round(levelAt(ctx, v, to, source), 1);
    events.push({
      date: fmt(from),
      event: `FuelStart${suffix}`,
      location: locationAt(ctx, v, from),
      estimation: start,
      isPrivate: false,
    });
    let refills = 0;
    let thefts = 0;
    for (const e of inPeriod) {
      if (e.source !== source) continue;
      if (e.kind === "Fueling") refills += e.litres;
      else thefts += e.litres;
      events.push({
        date: fmt(e.at),
        event: `${e.kind}${suffix}`,
        location: e.location,
        estimation: e.litres,
        isPrivate: e.isPrivate,
      });
    }
    const end = fmt(to);
    const total = (event: string, estimation: number, location = "") => ({
      date: end,
      event: `${event}${suffix}`,
      location,
      estimation: round(estimation, 1),
      isPrivate: false,
    });
    events.push(total("TotalRefill", refills));
    events.push(total("TotalPossibleTheft", thefts));
    events.push(total("RemainingFuel", remaining, locationAt(ctx, v, to)));
    events.push(total("TotalFuelConsumption", Math.max(0, start + refills - thefts - remaining)));
  }
  return events;
}

const SENSOR_STEP = 10 * MINUTE;

/**
 * Reefer readings every 10 minutes: temperature around the set point (±1.2 °C), with an
 * excursion of +5…+7 °C during the first delivery or loading of some days (doors open).
 */
/**
 * Instants of the sensor readings in [from, to]: every 10 min; from a forced temperature on, the
 * unit is in alarm and also reports at the control (to the second) and every minute after it.
 */
function readingTimes(from: number, to: number, forced: ForcedTemperature | undefined): number[] {
  const times = new Set<number>();
  for (let at = Math.ceil(from / SENSOR_STEP) * SENSOR_STEP; at <= to; at += SENSOR_STEP) times.add(at);
  if (forced) {
    const first = Math.floor(forced.since / 1000) * 1000;
    if (first >= from && first <= to) times.add(first);
    const start = Math.max(from, first + 1);
    for (let at = Math.ceil(start / ALARM_READING_MS) * ALARM_READING_MS; at <= to; at += ALARM_READING_MS)
      times.add(at);
  }
  return [...times].sort((a, b) => a - b);
}

export function sensorReadings(
  ctx: FleetContext,
  v: SimVehicle,
  from: number,
  to: number,
  fmt: DateFormatter,
  forced?: ForcedTemperature,
) {
  const reefer = v.reefer;
  if (!reefer) return undefined;
  const excursions: { start: number; end: number }[] = [];
  for (const day of localDaysBetween(ctx.timeZone, from, to)) {
    if (unit("excursion", ctx.seed, v.vehicleId, day) > 0.35) continue;
    const open = dayPlan(ctx, v, day).segments.find(
      (s) => s.kind === "park" && (s.purpose === "delivery" || s.purpose === "loading"),
    );
    if (open) excursions.push({ start: open.start, end: open.start + 40 * MINUTE });
  }
  const temperature = [];
  const humidity = [];
  for (const at of readingTimes(from, to, forced)) {
    const excursion = excursions.find((e) => at >= e.start && at < e.end);
    const rise = excursion
      ? (reefer.setPointC < 0 ? 7 : 5) * Math.sin((Math.PI * (at - excursion.start)) / (40 * MINUTE))
      : 0;
    // From the reading at the control (dated to the second, as every response date) on.
    const warmed = forced !== undefined && at >= Math.floor(forced.since / 1000) * 1000;
    for (let sensor = 1; sensor <= reefer.temperatureSensors; sensor++) {
      const wave = Math.sin((2 * Math.PI * at) / (3 * HOUR) + sensor) * 0.9;
      const noise = (unit("t", v.vehicleId, sensor, at) - 0.5) * 0.6;
      temperature.push({
        vehicleId: v.vehicleId,
        date: fmt(at),
        // A forced temperature (control) is what every sensor reads, exactly.
        value: warmed ? forced.valueC : round(reefer.setPointC + wave + noise + rise, 1),
        sensorNumber: sensor,
      });
    }
    for (let sensor = 1; sensor <= reefer.humiditySensors; sensor++) {
      const noise = (unit("h", v.vehicleId, sensor, at) - 0.5) * 6;
      humidity.push({
        vehicleId: v.vehicleId,
        date: fmt(at),
        value: round(82 + noise - rise, 1),
        sensorNumber: sensor,
      });
    }
  }
  return { temperature, humidity };
}
