/** Reefer temperatures and humidity: statistics per sensor, a downsampled series (its chart: src/features/reports/slack/files). */
import type { SensorReading, SensorReadings } from "../../platform/fleet/schemas.js";
import { round } from "./format.js";
import { type ReportPeriod, type ReportVehicle, unlistedVehicle } from "./types.js";

export type SensorKind = "temperature" | "humidity";

export interface TemperatureRange {
  min?: number;
  max?: number;
}

export interface SensorSummary {
  sensorNumber: number;
  kind: SensorKind;
  min: number;
  /** min, avg and max rounded to 0.01. */
  avg: number;
  max: number;
  count: number;
  firstAtMs: number;
  lastAtMs: number;
  /** Runs of consecutive readings outside `range`; only when a range was given. */
  excursions?: number;
  range?: TemperatureRange;
}

export interface SensorSeries {
  sensorNumber: number;
  kind: SensorKind;
  /** [atMs, value], time order, at most MAX_SERIES_POINTS (min/max preserving). */
  points: [number, number][];
}

export interface VehicleTemperatures {
  vehicle: ReportVehicle;
  /** Temperature sensors first, then humidity, each by sensor number. */
  sensors: SensorSummary[];
  series: SensorSeries[];
}

export interface TemperatureReport {
  period: ReportPeriod;
  vehicles: VehicleTemperatures[];
}

export interface TemperatureOptions {
  /** Allowed temperature range for every vehicle (counts excursions). */
  range?: TemperatureRange;
  /** Per-vehicle ranges (by vehicleId), winning over `range`. */
  ranges?: Record<number, TemperatureRange>;
}

export const MAX_SERIES_POINTS = 300;

/**
 * At most `max` points keeping the shape: the series is cut into max/2 buckets and each
 * bucket keeps its lowest and highest reading (in time order), so a 40-minute excursion
 * survives a month of readings. Shorter series are returned whole.
 */
export function downsampleMinMax(
  points: readonly [number, number][],
  max = MAX_SERIES_POINTS,
): [number, number][] {
  if (points.length <= max) return points.map(([t, v]) => [t, v]);
  const buckets = Math.max(1, Math.floor(max / 2));
  const out: [number, number][] = [];
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor((b * points.length) / buckets);
    const to = Math.floor(((b + 1) * points.length) / buckets);
    let lo = from;
    let hi = from;
    for (let i = from; i < to; i++) {
      if ((points[i] as [number, number])[1] < (points[lo] as [number, number])[1]) lo = i;
      if ((points[i] as [number, number])[1] > (points[hi] as [number, number])[1]) hi = i;
    }
    for (const i of lo === hi ? [lo] : [Math.min(lo, hi), Math.max(lo, hi)]) {
      const p = points[i] as [number, number];
      out.push([p[0], p[1]]);
    }
  }
  return out;
}

function countExcursions(values: readonly number[], range: TemperatureRange): number {
  let runs = 0;
  let outside = false;
  for (const v of values) {
    const out = (range.min !== undefined && v < range.min) || (range.max !== undefined && v > range.max);
    if (out && !outside) runs += 1;
    outside = out;
  }
  return runs;
}

function summarize(
  kind: SensorKind,
  sensorNumber: number,
  readings: readonly SensorReading[],
  range: TemperatureRange | undefined,
): { summary: SensorSummary; series: SensorSeries } {
  const sorted = [...readings].sort((a, b) => +a.date - +b.date);
  const values = sorted.map((r) => r.value);
  const summary: SensorSummary = {
    sensorNumber,
    kind,
    min: round(
      values.reduce((m, v) => Math.min(m, v), Number.POSITIVE_INFINITY),
      2,
    ),
    avg: round(values.reduce((s, v) => s + v, 0) / values.length, 2),
    max: round(
      values.reduce((m, v) => Math.max(m, v), Number.NEGATIVE_INFINITY),
      2,
    ),
    count: values.length,
    firstAtMs: (sorted[0] as SensorReading).date.getTime(),
    lastAtMs: (sorted[sorted.length - 1] as SensorReading).date.getTime(),
  };
  if (kind === "temperature" && range && (range.min !== undefined || range.max !== undefined)) {
    summary.excursions = countExcursions(values, range);
    summary.range = { ...range };
  }
  const points = downsampleMinMax(sorted.map((r) => [r.date.getTime(), r.value] as [number, number]));
  return { summary, series: { sensorNumber, kind, points } };
}

/**
 * Vehicles in the order of `vehicles`, each listed even without readings; readings of a
 * vehicle not in the list are kept under "#id". A reading without a sensor number counts
 * as sensor 0.
 */
export function temperatureReport(
  readings: SensorReadings,
  vehicles: ReportVehicle[],
  period: ReportPeriod,
  options: TemperatureOptions = {},
): TemperatureReport {
  const groups = new Map<string, SensorReading[]>();
  const ids = new Set<number>();
  for (const kind of ["temperature", "humidity"] as const) {
    for (const r of readings[kind]) {
      if (!Number.isFinite(r.value)) continue;
      ids.add(r.vehicleId);
      const key = `${r.vehicleId}|${kind}|${r.sensorNumber ?? 0}`;
      const list = groups.get(key) ?? [];
      list.push(r);
      groups.set(key, list);
    }
  }
  const listed = new Set(vehicles.map((v) => v.vehicleId));
  const all = [
    ...vehicles,
    ...[...ids]
      .filter((id) => !listed.has(id))
      .sort((a, b) => a - b)
      .map(unlistedVehicle),
  ];
  return {
    period,
    vehicles: all.map((vehicle) => {
      const range = options.ranges?.[vehicle.vehicleId] ?? options.range;
      const sensors: SensorSummary[] = [];
      const series: SensorSeries[] = [];
      for (const kind of ["temperature", "humidity"] as const) {
        const numbers = [...groups.keys()]
          .map((k) => k.split("|"))
          .filter(([id, k]) => Number(id) === vehicle.vehicleId && k === kind)
          .map(([, , n]) => Number(n))
          .sort((a, b) => a - b);
        for (const n of numbers) {
          const r = summarize(kind, n, groups.get(`${vehicle.vehicleId}|${kind}|${n}`) ?? [], range);
          sensors.push(r.summary);
          series.push(r.series);
        }
      }
      return { vehicle, sensors, series };
    }),
  };
}
