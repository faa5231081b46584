import { instantToWall, wallToInstant } from "../time/zone.js";
import type { LocationPoint, SensorReading, SensorReadings, StopRecord } from "./schemas.js";
import { sortPoints, sortReadings, sortStops } from "./schemas.js";

/**
 * Cutting a report into the calls the service accepts, and merging the answers. Pure.
 * The service allows one request per 30 s, so the number of calls is what a report costs:
 * a report is cut only where a limit is known. Limits fleet-api.md states are hard; limits
 * it leaves open ("not shown") are not guessed up front but learned from the service's
 * refusals (limits.ts), so a service that accepts more costs fewer calls.
 */

export const DAY_MS = 86_400_000;

/** The reports that may need several calls. */
export type SplittableEndpoint = "way" | "stops" | "consumption" | "temperatures" | "refills";

export const SPLITTABLE_ENDPOINTS: readonly SplittableEndpoint[] = [
  "way",
  "stops",
  "consumption",
  "temperatures",
  "refills",
];

/** Per-call limits of one endpoint; an absent field means no limit is known (one call covers it). */
export interface CallLimits {
  maxVehicles?: number;
  maxDays?: number;
}

/**
 * What fleet-api.md states, and nothing more (Limits table and each endpoint's body):
 * - way, consumption: at most 10 vehicles and 31 days;
 * - stops: at most 10 vehicles; "Maximum period: not shown";
 * - refills: one vehicle (the body has a single carrierId); "Maximum period: not shown";
 * - temperatures: "Maximum vehicles and maximum period: not shown".
 * The open ones are learned (limits.ts) when the service refuses a request as too large.
 */
export const DOCUMENTED_LIMITS: Readonly<Record<SplittableEndpoint, Readonly<CallLimits>>> = {
  way: { maxVehicles: 10, maxDays: 31 },
  stops: { maxVehicles: 10 },
  consumption: { maxVehicles: 10, maxDays: 31 },
  temperatures: {},
  refills: { maxVehicles: 1 },
};

const tighter = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined ? b : b === undefined ? a : Math.min(a, b);

/** The stricter of two sets of limits, field by field. */
export function combineLimits(a: Readonly<CallLimits>, b: Readonly<CallLimits>): CallLimits {
  const limits: CallLimits = {};
  const maxVehicles = tighter(a.maxVehicles, b.maxVehicles);
  const maxDays = tighter(a.maxDays, b.maxDays);
  if (maxVehicles !== undefined) limits.maxVehicles = maxVehicles;
  if (maxDays !== undefined) limits.maxDays = maxDays;
  return limits;
}

/** Consecutive groups of at most `size` ids, in the given order (one group when size is Infinity). */
export function chunkVehicles<T>(ids: readonly T[], size = 10): T[][] {
  if (size === Number.POSITIVE_INFINITY) return ids.length > 0 ? [[...ids]] : [];
  if (!Number.isInteger(size) || size < 1)
    throw new RangeError(`chunk size must be a positive integer, got ${size}`);
  const chunks: T[][] = [];
  for (let i = 0; i < ids.length; i += size) chunks.push(ids.slice(i, i + size));
  return chunks;
}

export interface PeriodSpan {
  from: Date;
  to: Date;
}

/**
 * True when [from, to] is at most `maxDays` long both as elapsed time and, with a time
 * zone, as wall-clock time there. The service reads the bare local dates it is sent, so
 * across a spring-forward night 31 elapsed days are 31 days and 1 hour on its clock;
 * checking both keeps a span acceptable whichever way the service measures.
 */
export function periodWithinDays(from: Date, to: Date, maxDays: number, timeZone?: string): boolean {
  const limit = maxDays * DAY_MS;
  if (to.getTime() - from.getTime() > limit) return false;
  if (timeZone === undefined) return true;
  return instantToWall(to, timeZone) - instantToWall(from, timeZone) <= limit;
}

function spanEnd(start: Date, maxDays: number, timeZone: string | undefined): number {
  const elapsed = start.getTime() + maxDays * DAY_MS;
  if (timeZone === undefined) return elapsed;
  const wall = wallToInstant(instantToWall(start, timeZone) + maxDays * DAY_MS, timeZone, "before").getTime();
  return Math.min(elapsed, wall);
}

/**
 * Consecutive spans covering exactly [from, to]: the first starts at `from`, each starts
 * where the previous ends (the boundary instant is shared, nothing else), the last ends at
 * `to`, and each satisfies periodWithinDays. from = to gives one empty span.
 */
export function splitPeriod(from: Date, to: Date, maxDays = 31, timeZone?: string): PeriodSpan[] {
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) throw new RangeError("invalid date");
  if (to.getTime() < from.getTime()) throw new RangeError("period ends before it starts");
  if (!(maxDays > 0)) throw new RangeError(`maxDays must be positive, got ${maxDays}`);
  if (maxDays === Number.POSITIVE_INFINITY) return [{ from, to }];
  const spans: PeriodSpan[] = [];
  let start = from;
  do {
    const end = new Date(Math.min(to.getTime(), spanEnd(start, maxDays, timeZone)));
    spans.push({ from: start, to: end });
    start = end;
  } while (start.getTime() < to.getTime());
  return spans;
}

export interface PlannedCall {
  vehicleIds: number[];
  from: Date;
  to: Date;
}

export interface PlanRequest {
  vehicleIds: readonly number[];
  from: Date;
  to: Date;
}

/**
 * Every (vehicle group × period span) call a report needs, group by group, so the queue
 * can say "7/20 requests" before the first one runs. A limit that is not known does not cut.
 */
export function planCalls(
  request: PlanRequest,
  limits: Readonly<CallLimits>,
  timeZone?: string,
): PlannedCall[] {
  const spans = splitPeriod(request.from, request.to, limits.maxDays ?? Number.POSITIVE_INFINITY, timeZone);
  const groups = chunkVehicles(
    [...new Set(request.vehicleIds)],
    limits.maxVehicles ?? Number.POSITIVE_INFINITY,
  );
  return groups.flatMap((vehicleIds) => spans.map((span) => ({ vehicleIds, from: span.from, to: span.to })));
}

/** The calls of one report kind with the documented limits only (the client adds learned ones). */
export function planReport(
  endpoint: SplittableEndpoint,
  request: PlanRequest,
  timeZone?: string,
  limits: Readonly<CallLimits> = DOCUMENTED_LIMITS[endpoint],
): PlannedCall[] {
  return planCalls(request, limits, timeZone);
}

// ---------- merging answers of several calls ----------

/** Points of all calls, by vehicle then time; a point on a shared span boundary is kept once. */
export function mergeWay(parts: readonly (readonly LocationPoint[])[]): LocationPoint[] {
  const sorted = sortPoints(parts.flat());
  return sorted.filter(
    (p, i) =>
      i === 0 ||
      sorted[i - 1]?.vehicleId !== p.vehicleId ||
      sorted[i - 1]?.gpsDate.getTime() !== p.gpsDate.getTime(),
  );
}

/**
 * Stops of all calls, by vehicle then start. A stop seen by two spans (same vehicle and
 * start) is kept once, as the longest record: the service ends a stop still going on at a
 * span's end there, and the next span returns it whole (as one call over both spans would).
 */
export function mergeStops(parts: readonly (readonly StopRecord[])[]): StopRecord[] {
  const longest = new Map<string, StopRecord>();
  for (const stop of parts.flat()) {
    const key = `${stop.vehicleId}|${stop.startDate.getTime()}`;
    const seen = longest.get(key);
    if (!seen || stop.endDate.getTime() > seen.endDate.getTime()) longest.set(key, stop);
  }
  return sortStops([...longest.values()]);
}

function dedupeReadings(readings: SensorReading[]): SensorReading[] {
  const seen = new Set<string>();
  return sortReadings(readings).filter((r) => {
    const key = `${r.vehicleId}|${r.sensorNumber ?? ""}|${r.date.getTime()}|${r.value}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Readings of all calls together; a reading on a shared boundary is kept once. */
export function mergeTemperatures(parts: readonly SensorReadings[]): SensorReadings {
  return {
    temperature: dedupeReadings(parts.flatMap((p) => p.temperature)),
    humidity: dedupeReadings(parts.flatMap((p) => p.humidity)),
  };
}
