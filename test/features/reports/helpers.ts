import type { ReportPeriod, ReportVehicle } from "../../../src/features/reports/index.js";
import { fleetSchemas } from "../../../src/platform/fleet/schemas.js";

export const ZONE = "Europe/Bucharest";
export const schemas = fleetSchemas(ZONE);

/** 3 Nov 2026 00:00 – 4 Nov 2026 00:00 in Bucharest (UTC+2). */
export const PERIOD: ReportPeriod = {
  fromMs: Date.UTC(2026, 10, 2, 22, 0),
  toMs: Date.UTC(2026, 10, 3, 22, 0),
  label: "3 Nov 2026",
  timeZone: ZONE,
};

export const TRUCK: ReportVehicle = { vehicleId: 101, plate: "B-123-ABC", name: "Volvo FH 500" };
export const LPG_CAR: ReportVehicle = { vehicleId: 102, plate: "CJ-07-XYZ", name: "Dacia Dokker LPG" };

/** Reads the PNG width and height from the IHDR chunk. */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
