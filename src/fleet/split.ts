import { instantToWall, wallToInstant } from "../time/zone.js";
import type { LocationPoint, SensorReading, SensorReadings, StopRecord } from "./schemas.js";
import { sortPoints, sortReadings, sortStops } from "./schemas.js";

/**
 * Cutting a report into the calls the service accepts, and merging the answers. Pure.
 * The service allows one request per 30 s, so the number of calls is what a report costs;
 * cutting happens only where fleet-api.md requires it (or, where it says "not shown",
 * where the choice below says so).
 */

export const DAY_MS = 86_400_000;

/** The reports that may need several calls. */
export type SplittableEndpoint = "way" | "stops" | "consumption" | "temperatures" | "refills";

export interface CallLimits {
  maxVehicles: number;
  maxDays: number;
}

/**
 * Per-call limits. Documented: 10 vehicles for way/stops/consumption, 31 days for
 * way/consumption. Chosen where the doc says "not shown":
 * - stops period: 31 days, like way (the same track data behind it);
 * - temperatures: 10 vehicles and 31 days, like the other vehicle-data calls;
 * - refills: one vehicle per call (its body has a single carrierId) and 31 days.
 */
export const CALL_LIMITS: Readonly<Record<SplittableEndpoint, CallLimits>> = {
  way: { maxVehicles: 10, maxDays: 31 },
  stops: { maxVehicles: 10, maxDays: 31 },
  consumption: { maxVehicles: 10, maxDays: 31 },
  temperatures: { maxVehicles: 10, maxDays: 31 },
  refills: { maxVehicles: 1, maxDays: 31 },
};

/** Consecutive groups of at most `size` ids, in the given order. */
export function chunkVehicles<T>(ids: readonly T[], size = 10): T[][] {
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
 * can say "7/20 requests" before the first one runs.
 */
export function planCalls(
  request: PlanRequest,
  limits: CallLimits = { maxVehicles: 10, maxDays: 31 },
  timeZone?: string,
): PlannedCall[] {
  const spans = splitPeriod(request.from, request.to, limits.maxDays, timeZone);
  return chunkVehicles([...new Set(request.vehicleIds)], limits.maxVehicles).flatMap((vehicleIds) =>
    spans.map((span) => ({ vehicleIds, from: span.from, to: span.to })),
  );
}

/** The calls of one report kind, with that endpoint's limits (CALL_LIMITS). */
export function planReport(
  endpoint: SplittableEndpoint,
  request: PlanRequest,
  timeZone?: string,
): PlannedCall[] {
  return planCalls(request, CALL_LIMITS[endpoint], timeZone);
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
 * Stops of all calls, by vehicle then start. A stop reported identically by two spans
 * (same vehicle, start and end) is kept once; a stop cut by a span boundary stays as the
 * two parts the service returned.
 */
export function mergeStops(parts: readonly (readonly StopRecord[])[]): StopRecord[] {
  const seen = new Set<string>();
  return sortStops(parts.flat()).filter((s) => {
    const key = `${s.vehicleId}|${s.startDate.getTime()}|${s.endDate.getTime()}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
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
