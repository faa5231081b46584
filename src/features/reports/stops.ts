/** Stops of one or more vehicles over a period. */
import type { StopRecord } from "../../platform/fleet/schemas.js";
import { round } from "./format.js";
import { stopsWithoutPrivatePlaces, stopWithoutPlace } from "./privacy.js";
import { type ReportPeriod, type ReportVehicle, unlistedVehicle } from "./types.js";

export type { StopItem, StopsReport, VehicleStops } from "./records.js";

import type { StopItem, StopsReport, VehicleStops } from "./records.js";

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

/** The instants a report counts: the period, or everything when no period is given. */
interface Window {
  fromMs: number;
  toMs: number;
}
const EVERYTHING: Window = { fromMs: -Infinity, toMs: Infinity };

/** Milliseconds of [startMs, endMs] that lie inside the window. */
function msInside(startMs: number, endMs: number, window: Window): number {
  return Math.max(0, Math.min(endMs, window.toMs) - Math.max(startMs, window.fromMs));
}

function engineOnMinutes(
  stop: StopRecord,
  unit: DurationUnit | undefined,
  window: Window,
  stopMinutesInside: number,
): number | undefined {
  const dated = stop.engineOnStops.flatMap((e) =>
    e.startDate && e.endDate ? [{ startMs: e.startDate.getTime(), endMs: e.endDate.getTime() }] : [],
  );
  if (dated.length > 0) {
    const ms = dated.reduce((sum, e) => sum + msInside(e.startMs, e.endMs, window), 0);
    return round(ms / 60_000, 1);
  }
  if (stop.stationaryEngineOnTime === undefined) return undefined;
  if (stop.stationaryEngineOnTime === 0) return 0;
  if (unit === undefined) return undefined;
  return round(Math.min(stop.stationaryEngineOnTime * UNIT_MINUTES[unit], stopMinutesInside), 1);
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

/**
 * One stop as the report shows it. With `period`, its duration (and engine-on time) counts
 * only the part inside the period, and the flags say which end was cut.
 */
export function stopItem(stop: StopRecord, period?: Pick<ReportPeriod, "fromMs" | "toMs">): StopItem {
  const window = period ?? EVERYTHING;
  const startMs = stop.startDate.getTime();
  const endMs = stop.endDate.getTime();
  const fullMinutes = round(Math.max(0, endMs - startMs) / 60_000, 1);
  const durationMinutes = round(msInside(startMs, endMs, window) / 60_000, 1);
  // The unit is read from the whole stop: stopDuration describes the stop, not the period.
  const unit = inferDurationUnit(stop.stopDuration, fullMinutes);
  const item: StopItem = {
    startMs,
    endMs,
    durationMinutes,
    drivers: driverNames(stop),
    isPrivate: stop.isPrivate ?? false,
  };
  if (startMs < window.fromMs) item.beganBeforePeriod = true;
  if (endMs >= window.toMs) item.lastedToPeriodEnd = true;
  if (stop.stopDuration !== undefined) item.stopDurationRaw = stop.stopDuration;
  const engineOn = engineOnMinutes(stop, unit, window, durationMinutes);
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
  // A private stop keeps its times and durations, never its place (privacy.ts).
  return item.isPrivate ? stopWithoutPlace(item) : item;
}

/** True when some of the stop lies inside the period (a stop inside it may last 0 min). */
function overlapsPeriod(stop: StopRecord, period: ReportPeriod): boolean {
  const startMs = stop.startDate.getTime();
  const endMs = stop.endDate.getTime();
  if (startMs >= period.fromMs && endMs <= period.toMs) return true;
  return msInside(startMs, endMs, period) > 0;
}

/**
 * Stops grouped per vehicle in the order of `vehicles` (each listed, an empty list when it
 * had no stops); stops of a vehicle not in `vehicles` are kept under "#id" at the end.
 * Durations and totals count only time inside the period, so a vehicle parked since before
 * it never totals more than the period; a stop with no time inside it is left out.
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
    if (!overlapsPeriod(stop, period)) continue;
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
    const items = (byId.get(vehicle.vehicleId) ?? [])
      .map((stop) => stopItem(stop, period))
      .sort((a, b) => a.startMs - b.startMs);
    return {
      vehicle,
      stops: items,
      totalStopMinutes: round(
        items.reduce((sum, s) => sum + s.durationMinutes, 0),
        1,
      ),
    };
  });
  // Every stop of a vehicle in private mode without its place too (privacy.ts).
  return stopsWithoutPrivatePlaces({
    period,
    minMinutes,
    vehicles: groups,
    totalStops: groups.reduce((sum, g) => sum + g.stops.length, 0),
  });
}
