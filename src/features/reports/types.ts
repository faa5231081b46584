/**
 * Shared shapes of the report layer. Every report is JSON-safe: numbers, strings,
 * booleans, arrays and plain objects only, every instant as epoch ms. A task stores a
 * report in SQLite and a view renders it later, perhaps after a restart.
 */

import type { PeriodLabel } from "../../commands/periodLabel.js";
import type { Vehicle } from "../../platform/fleet/schemas.js";

/** Which vehicle a report is about, as a reader knows it. */
export interface ReportVehicle {
  vehicleId: number;
  plate: string;
  name: string;
  /**
   * The vehicle list (company-vehicles) marked it in private mode when the report was built: the
   * report carries no place of it (src/features/reports/privacy.ts). Absent when not private.
   */
  isPrivate?: true;
}

/** The period a report covers. */
export interface ReportPeriod {
  fromMs: number;
  toMs: number;
  /** What the reader asked for, as data (src/commands/periodLabel.ts; a legacy string shown as-is). */
  label: PeriodLabel;
  /** reader's IANA zone, for text */
  timeZone: string;
}

/** The ReportVehicle of a fleet vehicle (plate and name empty when the service left them out). */
export function toReportVehicle(vehicle: Vehicle): ReportVehicle {
  const report: ReportVehicle = {
    vehicleId: vehicle.vehicleId,
    plate: vehicle.vehicleRegistrationNumber ?? "",
    name: vehicle.vehicleName ?? "",
  };
  if (vehicle.isPrivate === true) report.isPrivate = true;
  return report;
}

/** A stand-in for data about a vehicle the caller did not list (kept, never dropped). */
export function unlistedVehicle(vehicleId: number): ReportVehicle {
  return { vehicleId, plate: `#${vehicleId}`, name: "" };
}
