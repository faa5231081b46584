import { z } from "zod";

/**
 * What vehicle watch remembers of an account between sweeps (stored as JSON by the alert store,
 * so a restart or another replica neither re-alerts nor forgets): each vehicle's last position and
 * engine (Towed), since when it idles (Idle), since when each temperature watch saw it out of band
 * (Temperature), and up to when temperatures were read.
 */
export interface VehicleMemory {
  latitude?: number;
  longitude?: number;
  engine?: "on" | "off";
  gpsMs?: number;
  idleSinceMs?: number;
  /** Per temperature watch key: the first reading out of band of the current excursion. */
  tempOutSince?: Record<string, number>;
  /**
   * Per zone id: inside (true) or outside (false) at the last sweep that could tell. A Zone alert
   * is an arrival: only a vehicle seen outside before opens one (not one parked in a zone when the
   * zone or the subscription was made).
   */
  zones?: Record<string, boolean>;
}

export interface WatchState {
  /** The last sweep that read the vehicles. */
  sweptAtMs?: number;
  /** Temperatures were read up to here: the next sweep asks from here on. */
  temperaturesUntilMs?: number;
  /** Vehicles whose temperatures call answered readings (reefers): asked first. */
  sensorVehicles?: number[];
  /** Where the next probe of vehicles not known to have sensors starts (one call may not name them all). */
  probeCursor?: number;
  vehicles: Record<string, VehicleMemory>;
}

const memorySchema = z.object({
  latitude: z.number().finite().optional(),
  longitude: z.number().finite().optional(),
  engine: z.enum(["on", "off"]).optional(),
  gpsMs: z.number().finite().optional(),
  idleSinceMs: z.number().finite().optional(),
  tempOutSince: z.record(z.string(), z.number().finite()).optional(),
  zones: z.record(z.string(), z.boolean()).optional(),
});

const stateSchema = z.object({
  sweptAtMs: z.number().finite().optional(),
  temperaturesUntilMs: z.number().finite().optional(),
  sensorVehicles: z.array(z.number().int()).optional(),
  probeCursor: z.number().int().nonnegative().optional(),
  vehicles: z.record(z.string(), memorySchema),
});

/** The stored state, or an empty one when none was stored or it cannot be read (then nothing is remembered). */
export function readWatchState(text: string | undefined): WatchState {
  if (text === undefined) return { vehicles: {} };
  try {
    const parsed = stateSchema.safeParse(JSON.parse(text));
    return parsed.success ? (parsed.data as WatchState) : { vehicles: {} };
  } catch {
    return { vehicles: {} };
  }
}

export function writeWatchState(state: WatchState): string {
  return JSON.stringify(state);
}
