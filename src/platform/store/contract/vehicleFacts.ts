import { z } from "zod";
import { compact, parseTransportView, type TransportView } from "./transportView.js";

/**
 * What a vehicle incident keeps of its evidence (JSON-safe, instants in epoch ms): the reading
 * that opened it (refreshed while it lasts) and what its resolution tells (peak speed, since
 * when). A vehicle in private mode keeps no position.
 */
export interface VehicleFacts {
  vehicleId: number;
  /** The watch the incident belongs to (kind and thresholds, e.g. `speeding:90`, `zone:<zone id>`). */
  watch: string;
  plate?: string;
  name?: string;
  /** The position's own time (`gpsDate`), not the sweep's. */
  gpsMs?: number;
  latitude?: number;
  longitude?: number;
  address?: string;
  speedKmh?: number;
  /** The highest speed seen while the incident lasted (Speeding). */
  peakSpeedKmh?: number;
  volts?: number;
  engine?: "on" | "off";
  /** The vehicle was in private mode: no position is kept or shown. */
  private?: boolean;
  /** Since when the condition holds, by the evidence (e.g. the idling's start, the first reading out of band). */
  sinceMs?: number;
  /** The threshold that applies (volts, km/h or minutes, by kind). */
  threshold?: number;
  /** `HH:MM-HH:MM` (AfterHours). */
  hours?: string;
  /** The zone (Zone): its id, its name when the incident opened, its workspace. */
  zoneId?: string;
  zoneName?: string;
  zoneWorkspace?: string;
  /** Metres moved between two sweeps with the engine off (Towed). */
  movedMeters?: number;
  /** The reading out of band and the band (Temperature). */
  temperature?: number;
  tempMin?: number;
  tempMax?: number;
  sensor?: number;
  /** The UIT of the transport In Progress on the vehicle when seen, if any (PowerCut is then red). */
  transportCodeUit?: string;
}

/** An incident's facts: the transport, and for a vehicle kind the vehicle's evidence besides. */
export type IncidentFacts = TransportView & { vehicle?: VehicleFacts };

const optNumber = z.number().finite().optional();
const optString = z.string().optional();

const vehicleFactsSchema = z.object({
  vehicleId: z.number().int(),
  watch: z.string(),
  plate: optString,
  name: optString,
  gpsMs: optNumber,
  latitude: optNumber,
  longitude: optNumber,
  address: optString,
  speedKmh: optNumber,
  peakSpeedKmh: optNumber,
  volts: optNumber,
  engine: z.enum(["on", "off"]).optional(),
  private: z.boolean().optional(),
  sinceMs: optNumber,
  threshold: optNumber,
  hours: optString,
  zoneId: optString,
  zoneName: optString,
  zoneWorkspace: optString,
  movedMeters: optNumber,
  temperature: optNumber,
  tempMin: optNumber,
  tempMax: optNumber,
  sensor: optNumber,
  transportCodeUit: optString,
});

/** Reads an incident's stored facts back: undefined when they are not a transport view. */
export function parseIncidentFacts(value: unknown): IncidentFacts | undefined {
  const transport = parseTransportView(value);
  if (!transport) return undefined;
  const raw =
    typeof value === "object" && value !== null ? (value as { vehicle?: unknown }).vehicle : undefined;
  if (raw === undefined) return transport;
  const vehicle = vehicleFactsSchema.safeParse(raw);
  return vehicle.success ? { ...transport, vehicle: compact(vehicle.data as VehicleFacts) } : transport;
}
