/** Where the vehicles are: one card per vehicle, and the filtered fleet list. */

import type { Vehicle } from "../../platform/fleet/schemas.js";
import { engineFromEvent } from "../../platform/vehicles/engine.js";
import { openStreetMapUrl } from "../../platform/vehicles/openStreetMap.js";
import { compareText, normalizePlate, round } from "./format.js";
import { positionWithoutPlace } from "./privacy.js";
import { toReportVehicle } from "./types.js";

export type { EngineState, PositionReport, VehicleListReport } from "./records.js";
export { ENGINE_STATES } from "./records.js";

import type { EngineState, PositionReport, VehicleListReport } from "./records.js";

/**
 * fleet-api.md leaves engineEvent undocumented ("units and value ranges … not shown").
 * Public clients of the service disagree: 1 = ignition on, and 0 or 2 = off. We map
 * 1 → on, 0/2 → off, and anything else (or nothing) → unknown, never a guess.
 */
export function engineState(engineEvent: number | undefined): EngineState {
  return engineFromEvent(engineEvent) ?? "unknown";
}

export { openStreetMapUrl };

const hasPosition = (v: Vehicle): boolean =>
  v.latitude !== undefined &&
  v.longitude !== undefined &&
  Number.isFinite(v.latitude) &&
  Number.isFinite(v.longitude) &&
  // 0,0 is what trackers send before their first fix, not a place a Romanian truck goes.
  !(v.latitude === 0 && v.longitude === 0);

export function positionReport(vehicle: Vehicle, nowMs: number): PositionReport {
  const report: PositionReport = {
    vehicle: toReportVehicle(vehicle),
    engine: engineState(vehicle.engineEvent),
    isPrivate: vehicle.isPrivate ?? false,
  };
  if (hasPosition(vehicle)) {
    const latitude = vehicle.latitude as number;
    const longitude = vehicle.longitude as number;
    report.latitude = latitude;
    report.longitude = longitude;
    report.mapUrl = openStreetMapUrl(latitude, longitude);
  }
  const address = vehicle.address?.trim();
  if (address) report.address = address;
  if (vehicle.speed !== undefined) report.speedKmh = round(vehicle.speed, 1);
  if (vehicle.course !== undefined) report.courseDeg = round(vehicle.course, 0);
  if (vehicle.gpsDate) {
    report.gpsAtMs = vehicle.gpsDate.getTime();
    report.ageMinutes = Math.max(0, Math.floor((nowMs - report.gpsAtMs) / 60_000));
  }
  const vin = vehicle.vehicleIdentificationNumber?.trim();
  if (vin) report.vin = vin;
  const model = modelText(vehicle.vehicleManufacturer, vehicle.vehicleModel);
  if (model) report.model = model;
  // A vehicle in private mode: no place leaves the domain (privacy.ts), nor is it filtered on.
  return positionWithoutPlace(report);
}

/** "Volvo" + "FH 500" → "Volvo FH 500"; "Volvo" + "Volvo FH" stays "Volvo FH". */
function modelText(manufacturer: string | undefined, model: string | undefined): string | undefined {
  const make = manufacturer?.trim() ?? "";
  const name = model?.trim() ?? "";
  if (!make) return name || undefined;
  if (!name) return make;
  return name.toLowerCase().startsWith(make.toLowerCase()) ? name : `${make} ${name}`;
}

/** Does the vehicle match what the reader typed? Plate without spaces/dashes, name and address as substrings. */
export function matchesVehicleFilter(report: PositionReport, filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  if (needle === "") return true;
  const plateNeedle = normalizePlate(filter);
  if (plateNeedle !== "" && normalizePlate(report.vehicle.plate).includes(plateNeedle)) return true;
  if (report.vehicle.name.toLowerCase().includes(needle)) return true;
  return (report.address ?? "").toLowerCase().includes(needle);
}

export function vehicleListReport(
  vehicles: Vehicle[],
  filter: string | undefined,
  nowMs: number,
): VehicleListReport {
  const trimmed = filter?.trim() || undefined;
  const items = vehicles
    .map((v) => positionReport(v, nowMs))
    .filter((r) => trimmed === undefined || matchesVehicleFilter(r, trimmed))
    .sort(
      (a, b) =>
        compareText(normalizePlate(a.vehicle.plate), normalizePlate(b.vehicle.plate)) ||
        a.vehicle.vehicleId - b.vehicle.vehicleId,
    );
  const report: VehicleListReport = { total: items.length, fleetTotal: vehicles.length, atMs: nowMs, items };
  if (trimmed !== undefined) report.filter = trimmed;
  return report;
}
