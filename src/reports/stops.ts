/** Stops of one or more vehicles over a period. */
import type { StopRecord } from "../fleet/schemas.js";
import { toCsv } from "./csv.js";
import { isoWithOffset, round } from "./format.js";
import { type ReportPeriod, type ReportVehicle, unlistedVehicle } from "./types.js";

export interface StopItem {
  startMs: number;
  endMs: number;
  /** From the start and end dates (fleet-api.md gives no unit for stopDuration). */
  durationMinutes: number;
  /** stopDuration exactly as the service sent it (unit not documented). */
  stopDurationRaw?: number;
  /**
   * Minutes stopped with the engine running: the sum of the engineOnStops periods when
   * they carry dates, else stationaryEngineOnTime in the unit stopDuration turned out to
   * have; absent when neither can be read.
   */
  engineOnMinutes?: number;
  address?: string;
  hotSpot?: string;
  latitude?: number;
  longitude?: number;
  /** "First Last" of each driver. */
  drivers: string[];
  /** As sent (litres, presumably; the trip before and the stop itself). */
  fuelConsumption?: number;
  isPrivate: boolean;
}

export interface VehicleStops {
  vehicle: ReportVehicle;
  stops: StopItem[];
  totalStopMinutes: number;
}

export interface StopsReport {
  period: ReportPeriod;
  /** The stationaryMargin the stops were asked with (the service applies it). */
  minMinutes: number;
  vehicles: VehicleStops[];
  totalStops: number;
}

type DurationUnit = "minutes" | "seconds" | "hours";
const UNIT_MINUTES: Record<DurationUnit, number> = { minutes: 1, seconds: 1 / 60, hours: 60 };

/**
 * The unit of stopDuration, found by comparing it with the span between the stop's dates:
 * within 10 % (or one minute) of the span read as minutes, seconds or hours.
 */
export function inferDurationUnit(raw: number | undefined, spanMinutes: number): DurationUnit | undefined {
  if (raw === undefined || !Number.isFinite(raw) || spanMinutes <= 0) return undefined;
  for (const unit of ["minutes", "seconds", "hours"] as const) {
    const asMinutes = raw * UNIT_MINUTES[unit];
    if (Math.abs(asMinutes - spanMinutes) <= Math.max(1, spanMinutes * 0.1)) return unit;
  }
  return undefined;
}

function engineOnMinutes(stop: StopRecord, unit: DurationUnit | undefined): number | undefined {
  const dated = stop.engineOnStops.filter((e) => e.startDate && e.endDate);
  if (dated.length > 0) {
    const ms = dated.reduce((sum, e) => sum + Math.max(0, +(e.endDate as Date) - +(e.startDate as Date)), 0);
    return round(ms / 60_000, 1);
  }
  if (stop.stationaryEngineOnTime === undefined) return undefined;
  if (stop.stationaryEngineOnTime === 0) return 0;
  return unit === undefined ? undefined : round(stop.stationaryEngineOnTime * UNIT_MINUTES[unit], 1);
}

function driverNames(stop: StopRecord): string[] {
  return stop.drivers
    .map((d) =>
      [d.firstName, d.lastName]
        .map((s) => s?.trim())
        .filter(Boolean)
        .join(" "),
    )
    .filter((name) => name !== "");
}

export function stopItem(stop: StopRecord): StopItem {
  const startMs = stop.startDate.getTime();
  const endMs = stop.endDate.getTime();
  const durationMinutes = round(Math.max(0, endMs - startMs) / 60_000, 1);
  const unit = inferDurationUnit(stop.stopDuration, durationMinutes);
  const item: StopItem = {
    startMs,
    endMs,
    durationMinutes,
    drivers: driverNames(stop),
    isPrivate: stop.isPrivate ?? false,
  };
  if (stop.stopDuration !== undefined) item.stopDurationRaw = stop.stopDuration;
  const engineOn = engineOnMinutes(stop, unit);
  if (engineOn !== undefined) item.engineOnMinutes = engineOn;
  const address = stop.address?.trim();
  if (address) item.address = address;
  const hotSpot = stop.hotSpot?.trim();
  if (hotSpot) item.hotSpot = hotSpot;
  if (stop.latitude !== undefined && stop.longitude !== undefined) {
    item.latitude = stop.latitude;
    item.longitude = stop.longitude;
  }
  if (stop.fuelConsumption !== undefined) item.fuelConsumption = stop.fuelConsumption;
  return item;
}

/**
 * Stops grouped per vehicle in the order of `vehicles` (each listed, an empty list when it
 * had no stops); stops of a vehicle not in `vehicles` are kept under "#id" at the end.
 * Stops are not filtered again by minMinutes: the service already applied the margin.
 */
export function stopsReport(
  stops: StopRecord[],
  vehicles: ReportVehicle[],
  period: ReportPeriod,
  minMinutes: number,
): StopsReport {
  const byId = new Map<number, StopRecord[]>();
  for (const stop of stops) {
    const list = byId.get(stop.vehicleId) ?? [];
    list.push(stop);
    byId.set(stop.vehicleId, list);
  }
  const listed = new Set(vehicles.map((v) => v.vehicleId));
  const all = [
    ...vehicles,
    ...[...byId.keys()]
      .filter((id) => !listed.has(id))
      .sort((a, b) => a - b)
      .map(unlistedVehicle),
  ];
  const groups: VehicleStops[] = all.map((vehicle) => {
    const items = (byId.get(vehicle.vehicleId) ?? []).map(stopItem).sort((a, b) => a.startMs - b.startMs);
    return {
      vehicle,
      stops: items,
      totalStopMinutes: round(
        items.reduce((sum, s) => sum + s.durationMinutes, 0),
        1,
      ),
    };
  });
  return {
    period,
    minMinutes,
    vehicles: groups,
    totalStops: groups.reduce((sum, g) => sum + g.stops.length, 0),
  };
}

export function stopsCsv(report: StopsReport): string {
  const tz = report.period.timeZone;
  const rows = report.vehicles.flatMap((g) =>
    g.stops.map((s) => [
      g.vehicle.plate,
      g.vehicle.name,
      isoWithOffset(s.startMs, tz),
      isoWithOffset(s.endMs, tz),
      s.durationMinutes,
      s.engineOnMinutes,
      s.address,
      s.hotSpot,
      s.latitude,
      s.longitude,
      s.drivers.join("; "),
      s.fuelConsumption,
      s.isPrivate,
      s.stopDurationRaw,
    ]),
  );
  return toCsv(
    [
      "plate",
      "vehicle",
      "start",
      "end",
      "duration_min",
      "engine_on_min",
      "address",
      "hotspot",
      "latitude",
      "longitude",
      "drivers",
      "fuel_consumption",
      "private",
      "stop_duration_raw",
    ],
    rows,
  );
}
