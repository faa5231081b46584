/**
 * Transport trips: the vehicle of a started transport drives its route, loading place →
 * unloading place, instead of its ordinary day plan. A trip is a pure function of the
 * vehicle and the transport's facts (places, start, pauses, end), so positions, way, stops
 * and company-vehicles all read the same story.
 *
 * Story of one trip, in the company zone: the vehicle leaves its depot (at the start of a
 * local day), drives to the loading place, loads, departs when the transport starts, drives
 * with the breaks a driver must take (45 min after 4.5 h, 11 h rest after 9 h at the wheel),
 * stands still while the transport is paused, waits at the unloading place until the
 * transport ends, then drives back to the depot and stays there until the end of that day.
 * The day plans take over from the next day on.
 */
import type { SimVehicle } from "./fleet.js";
import { Rng } from "./random.js";
import {
  measureRoad,
  nearestTown,
  positionAtKm,
  ROADS,
  type Road,
  registerRoad,
  type Waypoint,
} from "./roads.js";
import type { Drive, Interval, Park, Segment } from "./schedule.js";
import { HOUR, localDayOf, MINUTE, nextDay, startOfLocalDay } from "./time.js";

/** What a trip is made of; the service derives it from a transport record. */
export interface TripFacts {
  /** The transport's uId: keeps the trip's own randomness stable across edits. */
  id: string;
  startLocation: string | null;
  endLocation: string | null;
  /** When the transport was first started: the vehicle departs from the loading place. */
  departAt: number;
  /** When the transport ended (Completed or Auto Completed); null while it runs. */
  endAt: number | null;
  /** Pauses of the transport; the last one may still be open (end null). */
  halts: ReadonlyArray<{ start: number; end: number | null }>;
}

export interface Trip {
  /** [start, end) during which the trip replaces the day plans; end may be +Infinity. */
  window: Interval;
  segments: Segment[];
}

/** Far enough to stand for "until further notice" while keeping segment ends finite. */
const OPEN_END = 400 * 24 * HOUR;

// ---- places -------------------------------------------------------------------------

export interface Place {
  /** Town name as on the road waypoints, e.g. "Sibiu", "Nădlac II", "Budapesta". */
  town: string;
  point: Waypoint;
}

/** Lower case, diacritics off: "Brașov" and "Brasov" are the same place to a dispatcher. */
export function normalisePlace(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** Other names dispatchers use for the towns on the roads. */
const ALIASES: Readonly<Record<string, string>> = {
  cluj: "Cluj-Napoca",
  budapest: "Budapesta",
  "nadlac 2": "Nădlac II",
  bucharest: "București",
};

let gazetteer: Map<string, Place> | undefined;

function places(): Map<string, Place> {
  if (gazetteer) return gazetteer;
  gazetteer = new Map();
  for (const road of Object.values(ROADS)) {
    for (const point of road.points) {
      if (point.town !== undefined) gazetteer.set(normalisePlace(point.town), { town: point.town, point });
    }
  }
  for (const [alias, town] of Object.entries(ALIASES)) {
    const place = gazetteer.get(normalisePlace(town));
    if (place) gazetteer.set(alias, place);
  }
  return gazetteer;
}

/**
 * The known town a free-text location names ("Sibiu, Zona Industrială Vest" → Sibiu): the
 * earliest mention wins, the longer name on a tie ("Nădlac II" over "Nădlac").
 */
export function findPlace(location: string | null): Place | undefined {
  if (location === null) return undefined;
  const text = ` ${normalisePlace(location)} `;
  let best: { at: number; length: number; place: Place } | undefined;
  for (const [name, place] of places()) {
    const at = text.indexOf(` ${name} `);
    if (at < 0) continue;
    if (!best || at < best.at || (at === best.at && name.length > best.length))
      best = { at, length: name.length, place };
  }
  return best?.place;
}

// ---- routes -------------------------------------------------------------------------

interface Edge {
  to: string;
  km: number;
  points: Waypoint[];
  ref: string;
}

let graph: Map<string, Edge[]> | undefined;

/** Towns are nodes; the stretch of road between two consecutive towns is an edge, both ways. */
function roadGraph(): Map<string, Edge[]> {
  if (graph) return graph;
  graph = new Map();
  for (const name of Object.keys(ROADS)) {
    const road = measureRoad(name);
    const towns = road.road.points.flatMap((p, i) => (p.town === undefined ? [] : [i]));
    for (let k = 1; k < towns.length; k++) {
      const i = towns[k - 1]!;
      const j = towns[k]!;
      const a = normalisePlace(road.road.points[i]!.town!);
      const b = normalisePlace(road.road.points[j]!.town!);
      const km = road.km[j]! - road.km[i]!;
      const points = road.road.points.slice(i, j + 1);
      const add = (from: string, edge: Edge) => graph!.set(from, [...(graph!.get(from) ?? []), edge]);
      add(a, { to: b, km, points, ref: road.road.ref });
      add(b, { to: a, km, points: [...points].reverse(), ref: road.road.ref });
    }
  }
  return graph;
}

/** Shortest chain of road stretches between two towns (Dijkstra), or undefined when unlinked. */
function shortestPath(from: string, to: string): Edge[] | undefined {
  const edges = roadGraph();
  const dist = new Map<string, number>([[from, 0]]);
  const via = new Map<string, { prev: string; edge: Edge }>();
  const done = new Set<string>();
  for (;;) {
    let current: string | undefined;
    for (const [node, d] of dist)
      if (!done.has(node) && (current === undefined || d < dist.get(current)!)) current = node;
    if (current === undefined) return undefined;
    if (current === to) break;
    done.add(current);
    for (const edge of edges.get(current) ?? []) {
      const d = dist.get(current)! + edge.km;
      if (d < (dist.get(edge.to) ?? Number.POSITIVE_INFINITY)) {
        dist.set(edge.to, d);
        via.set(edge.to, { prev: current, edge });
      }
    }
  }
  const path: Edge[] = [];
  for (let node = to; node !== from; ) {
    const step = via.get(node)!;
    path.unshift(step.edge);
    node = step.prev;
  }
  return path;
}

/**
 * A drivable route between two places: the road stretches between their towns, or a
 * straight line when no road links them. `startAside`/`endAside` move the ends a little off
 * the town's centre (the warehouse of a loading or unloading), so a loading in the depot's
 * own town is still a short drive away from the depot.
 */
export function routeBetween(
  from: Place,
  to: Place,
  ends: { startAside?: string; endAside?: string } = {},
): { name: string; lengthKm: number } {
  const name = `route:${from.town}>${to.town}|${ends.startAside ?? ""}|${ends.endAside ?? ""}`;
  const path = from.town === to.town ? [] : shortestPath(normalisePlace(from.town), normalisePlace(to.town));
  const points: Waypoint[] = [from.point];
  const refs: string[] = [];
  for (const edge of path ?? []) {
    points.push(...edge.points.slice(1));
    if (!refs.includes(edge.ref)) refs.push(edge.ref);
  }
  if (!path) points.push(to.point);
  if (ends.startAside) points.unshift(aside(from.point, ends.startAside));
  if (ends.endAside) points.push(aside(to.point, ends.endAside));
  const road: Road = { ref: refs.join(", ") || "drum județean", points };
  return { name, lengthKm: registerRoad(name, road).lengthKm };
}

/** A point 2–4 km from a town's centre, named like the town (a warehouse on its outskirts). */
function aside(point: Waypoint, salt: string): Waypoint {
  const rng = new Rng("aside", salt);
  const angle = rng.between(0, 2 * Math.PI);
  const km = rng.between(2, 4);
  const moved: Waypoint = {
    lat: point.lat + (Math.sin(angle) * km) / 111,
    lon: point.lon + (Math.cos(angle) * km) / (111 * Math.cos((point.lat * Math.PI) / 180)),
  };
  if (point.town !== undefined) moved.town = point.town;
  if (point.county !== undefined) moved.county = point.county;
  if (point.abroad) moved.abroad = true;
  return moved;
}

// ---- the trip -----------------------------------------------------------------------

const BREAK_AFTER_DRIVING = 4.5 * HOUR;
const BREAK = 45 * MINUTE;
const DAILY_DRIVING = 9 * HOUR;
const DAILY_REST = 11 * HOUR;

const tripCache = new Map<string, Trip | undefined>();

/** The trip of a vehicle for a transport, or undefined when its places are not known towns. */
export function tripOf(timeZone: string, v: SimVehicle, facts: TripFacts): Trip | undefined {
  const key = JSON.stringify([timeZone, v.vehicleId, facts]);
  if (tripCache.has(key)) return tripCache.get(key);
  const trip = buildTrip(timeZone, v, facts);
  if (tripCache.size > 5_000) tripCache.clear();
  tripCache.set(key, trip);
  return trip;
}

function buildTrip(timeZone: string, v: SimVehicle, facts: TripFacts): Trip | undefined {
  const loading = findPlace(facts.startLocation);
  const unloading = findPlace(facts.endLocation);
  const depot = findPlace(v.depot.town);
  if (!loading || !unloading || !depot || loading.town === unloading.town) return undefined;
  const rng = new Rng("trip", facts.id, v.vehicleId);
  const driver = v.drivers[rng.int(0, v.drivers.length - 1)]!;
  const speedKmh = rng.between(v.cruiseKmh[0], v.cruiseKmh[1]);
  const stepMs = rng.int(60, 120) * 1000;
  const loadSalt = `${facts.id}:load`;
  const unloadSalt = `${facts.id}:unload`;
  const main = routeBetween(loading, unloading, { startAside: loadSalt, endAside: unloadSalt });
  const toLoading = routeBetween(depot, loading, { endAside: loadSalt });
  const home = routeBetween(unloading, depot, { startAside: unloadSalt });
  const halts = facts.halts.map((h) => ({ start: h.start, end: h.end ?? Number.POSITIVE_INFINITY }));
  const loadingMs = rng.int(30, 60) * MINUTE;

  // How long the drive to the loading place takes, to leave the depot in time.
  const toLoadingMs = new Driving(toLoading.name, speedKmh, stepMs, driver, []).run(0, toLoading.lengthKm, 0);
  const leaveDepot = facts.departAt - loadingMs - toLoadingMs;
  const windowStart = startOfLocalDay(timeZone, localDayOf(timeZone, leaveDepot));

  const segments: Segment[] = [];
  const park = (
    start: number,
    end: number,
    at: Waypoint,
    purpose: Park["purpose"],
    address: string,
    engineOn: Interval[] = [],
  ) => {
    if (end <= start) return;
    const p: Park = {
      kind: "park",
      start,
      end,
      lat: round6(at.lat),
      lon: round6(at.lon),
      address,
      hotSpot: purpose === "depot" ? v.depot.hotSpot : null,
      engineOn: engineOn.filter((i) => i.end > i.start),
      isPrivate: false,
      driver,
      purpose,
    };
    if (at.abroad) p.abroad = true;
    segments.push(p);
  };
  const depotPoint = measureRoad(v.depot.roads[0] ?? "").road.points[0]!;
  const loadingPoint = measureRoad(main.name).road.points[0]!;
  const lastMain = measureRoad(main.name).road.points;
  const unloadingPoint = lastMain[lastMain.length - 1]!;

  park(windowStart, leaveDepot, depotPoint, "depot", v.depot.address, [
    { start: leaveDepot - 8 * MINUTE, end: leaveDepot },
  ]);
  const positioning = new Driving(toLoading.name, speedKmh, stepMs, driver, [], segments);
  positioning.run(0, toLoading.lengthKm, Math.max(windowStart, leaveDepot));
  park(
    facts.departAt - loadingMs,
    facts.departAt,
    loadingPoint,
    "loading",
    `Depozit de încărcare, ${loading.town}`,
    [{ start: facts.departAt - 4 * MINUTE, end: facts.departAt }],
  );
  const arrival = new Driving(main.name, speedKmh, stepMs, driver, halts, segments).run(
    0,
    main.lengthKm,
    facts.departAt,
  );
  const unloadMs = rng.int(45, 90) * MINUTE;
  const leaveUnloading =
    facts.endAt === null ? arrival + OPEN_END : Math.max(facts.endAt, arrival + unloadMs);
  park(arrival, leaveUnloading, unloadingPoint, "delivery", `Depozit de descărcare, ${unloading.town}`, [
    { start: arrival, end: arrival + 3 * MINUTE },
    { start: leaveUnloading - 5 * MINUTE, end: leaveUnloading },
  ]);
  if (facts.endAt === null || !Number.isFinite(arrival))
    return { window: { start: windowStart, end: Number.POSITIVE_INFINITY }, segments };
  const back = new Driving(home.name, speedKmh, stepMs, driver, []).run(0, home.lengthKm, leaveUnloading);
  new Driving(home.name, speedKmh, stepMs, driver, [], segments).run(0, home.lengthKm, leaveUnloading);
  const windowEnd = startOfLocalDay(timeZone, nextDay(localDayOf(timeZone, back)));
  park(back, windowEnd, depotPoint, "depot", v.depot.address, [{ start: back, end: back + 5 * MINUTE }]);
  return { window: { start: windowStart, end: windowEnd }, segments };
}

/** Lays a drive along a road out in time, with the driver's breaks and the transport's pauses. */
class Driving {
  private drivenSinceBreak = 0;
  private drivenToday = 0;

  constructor(
    private readonly road: string,
    private readonly speedKmh: number,
    private readonly stepMs: number,
    private readonly driver: SimVehicle["drivers"][number],
    private readonly halts: ReadonlyArray<Interval>,
    private readonly out: Segment[] = [],
  ) {}

  /** Drives fromKm → toKm from `start`; returns the arrival time. */
  run(fromKm: number, toKm: number, start: number): number {
    let t = start;
    let km = fromKm;
    while (toKm - km > 1e-6) {
      const halt = this.halts.find((h) => h.start <= t && t < h.end);
      if (halt) {
        t = this.stand(t, halt.end, km, "break", "Oprit (transport în pauză)");
        if (!Number.isFinite(t)) return t;
        continue;
      }
      if (this.drivenToday >= DAILY_DRIVING) {
        t = this.stand(t, t + DAILY_REST, km, "break", "Repaus zilnic");
        this.drivenToday = 0;
        this.drivenSinceBreak = 0;
        continue;
      }
      if (this.drivenSinceBreak >= BREAK_AFTER_DRIVING) {
        t = this.stand(t, t + BREAK, km, "break", "Pauză");
        this.drivenSinceBreak = 0;
        continue;
      }
      const nextHalt = this.halts
        .filter((h) => h.start > t)
        .reduce((m, h) => Math.min(m, h.start), Number.POSITIVE_INFINITY);
      const budget = Math.min(
        BREAK_AFTER_DRIVING - this.drivenSinceBreak,
        DAILY_DRIVING - this.drivenToday,
        nextHalt - t,
      );
      const needed = ((toKm - km) / this.speedKmh) * HOUR;
      const ms = Math.min(budget, needed);
      const legEnd = ms === needed ? toKm : km + (ms / HOUR) * this.speedKmh;
      const drive: Drive = {
        kind: "drive",
        start: t,
        end: t + ms,
        road: this.road,
        fromKm: km,
        toKm: legEnd,
        speedKmh: this.speedKmh,
        stepMs: this.stepMs,
        isPrivate: false,
        driver: this.driver,
      };
      this.out.push(drive);
      t += ms;
      km = legEnd;
      this.drivenSinceBreak += ms;
      this.drivenToday += ms;
    }
    return t;
  }

  private stand(from: number, to: number, km: number, purpose: Park["purpose"], what: string): number {
    const road = measureRoad(this.road);
    const pos = positionAtKm(road, km);
    const town = nearestTown(road, km);
    const end = Number.isFinite(to) ? to : from + OPEN_END;
    const park: Park = {
      kind: "park",
      start: from,
      end,
      lat: round6(pos.lat),
      lon: round6(pos.lon),
      address: `${what}, ${road.road.ref}, lângă ${town.town}`,
      hotSpot: null,
      engineOn: [],
      isPrivate: false,
      driver: this.driver,
      purpose,
    };
    if (pos.abroad) park.abroad = true;
    this.out.push(park);
    return to;
  }
}

function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/**
 * Segments of the day plans with the trips laid over them: inside a trip's window the trip's
 * segments replace the plan's (a trip overlapping an earlier one of the same vehicle is left out).
 */
export function overlayTrips(base: Segment[], trips: readonly Trip[]): Segment[] {
  const kept: Trip[] = [];
  for (const trip of [...trips].sort((a, b) => a.window.start - b.window.start)) {
    const last = kept[kept.length - 1];
    if (!last || trip.window.start >= last.window.end) kept.push(trip);
  }
  let segments = base;
  for (const trip of kept) {
    const { start, end } = trip.window;
    const outside = segments.flatMap((s): Segment[] => {
      if (s.end <= start || s.start >= end) return [s];
      const parts: Segment[] = [];
      if (s.start < start) parts.push(clip(s, s.start, start));
      if (s.end > end) parts.push(clip(s, end, s.end));
      return parts;
    });
    segments = [...outside, ...trip.segments].sort((a, b) => a.start - b.start);
  }
  return segments;
}

function clip(s: Segment, start: number, end: number): Segment {
  if (s.kind === "park") {
    return {
      ...s,
      start,
      end,
      engineOn: s.engineOn
        .filter((i) => i.end > start && i.start < end)
        .map((i) => ({ start: Math.max(i.start, start), end: Math.min(i.end, end) })),
    };
  }
  const f = (t: number) => s.fromKm + ((s.toKm - s.fromKm) * (t - s.start)) / (s.end - s.start);
  return { ...s, start, end, fromKm: f(start), toKm: f(end) };
}
