/** Fuel consumption per vehicle and for the fleet, by fleet-api.md's totals rule. */
import { consumptionTotals, vehicleConsumptionTotals } from "../../platform/fleet/consumption.js";
import type { ConsumptionRecord, ConsumptionSource } from "../../platform/fleet/schemas.js";
import { formatDurationHours } from "../../platform/fleet/time.js";
import { compareText, normalizePlate, round } from "./format.js";
import type { ReportPeriod, ReportVehicle } from "./types.js";

export interface FuelFigures {
  distanceKm: number;
  /** Operating time "hours:minutes:seconds", hours unbounded. */
  hoursText: string;
  hoursSeconds: number;
  litres: number;
  /** l/100 km */
  l100: number;
}

export interface FuelRow {
  /** The vehicle the record was matched to; absent when no listed vehicle matched. */
  vehicleId?: number;
  plate: string;
  name: string;
  primary: FuelFigures;
  /** The secondary source (LPG), only when it has data. */
  secondary?: FuelFigures;
  /** By the rule: sums, and for two sources the mean of the two averages. */
  total: FuelFigures;
}

export interface FuelReport {
  period: ReportPeriod;
  /** Sorted by plate. */
  rows: FuelRow[];
  /** consumptionTotals over all rows (distance-weighted l/100 km). */
  fleet: FuelFigures;
  /** Whether any row has a secondary source. */
  hasSecondary: boolean;
  /** Asked-for vehicles the service returned no record for. */
  withoutData: ReportVehicle[];
}

function figures(source: {
  distance: number;
  hoursSeconds: number;
  consumptionValue: number;
  averageConsumption100Km: number;
}): FuelFigures {
  return {
    distanceKm: round(source.distance, 2),
    hoursText: formatDurationHours(source.hoursSeconds),
    hoursSeconds: source.hoursSeconds,
    litres: round(source.consumptionValue, 2),
    l100: round(source.averageConsumption100Km, 2),
  };
}

/**
 * Consumption records carry no vehicleId (fleet-api.md), only plate and name: a record is
 * matched by vehicleId when a service version sends it, else by plate (spaces and dashes
 * ignored), else by name (case-insensitive). Each vehicle is matched at most once.
 */
function matchVehicle(record: ConsumptionRecord, vehicles: ReportVehicle[], taken: Set<number>) {
  const free = vehicles.filter((v) => !taken.has(v.vehicleId));
  if (record.vehicleId !== undefined) {
    const byId = free.find((v) => v.vehicleId === record.vehicleId);
    if (byId) return byId;
  }
  const plate = normalizePlate(record.licensePlate ?? "");
  if (plate) {
    const byPlate = free.find((v) => normalizePlate(v.plate) === plate);
    if (byPlate) return byPlate;
  }
  const name = record.vehicleName?.trim().toLowerCase();
  if (name) return free.find((v) => v.name.trim().toLowerCase() === name);
  return undefined;
}

export function fuelReport(
  records: ConsumptionRecord[],
  vehicles: ReportVehicle[],
  period: ReportPeriod,
): FuelReport {
  const taken = new Set<number>();
  const rows: FuelRow[] = records.map((record) => {
    const vehicle = matchVehicle(record, vehicles, taken);
    if (vehicle) taken.add(vehicle.vehicleId);
    const secondary: ConsumptionSource | undefined = record.secondarySource;
    const row: FuelRow = {
      plate: vehicle?.plate || record.licensePlate || "",
      name: vehicle?.name || record.vehicleName || "",
      primary: figures(record),
      total: figures(vehicleConsumptionTotals(record)),
    };
    if (vehicle) row.vehicleId = vehicle.vehicleId;
    if (secondary) row.secondary = figures(secondary);
    return row;
  });
  rows.sort(
    (a, b) => compareText(normalizePlate(a.plate), normalizePlate(b.plate)) || compareText(a.name, b.name),
  );
  return {
    period,
    rows,
    fleet: figures(consumptionTotals(records)),
    hasSecondary: rows.some((r) => r.secondary !== undefined),
    withoutData: vehicles.filter((v) => !taken.has(v.vehicleId)),
  };
}
