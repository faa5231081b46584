import { z } from "zod";
import type { VehicleWatchOptions } from "./contract/alerts.js";
import { compact } from "./contract/transportView.js";

/**
 * A subscription's vehicle-watch options as both stores keep them: JSON text. The store checks
 * nothing in them (src/features/alerts/vehicleWatch/ applies them), but reads them back through
 * this schema, so a value no version wrote (or a later version's shape) cannot reach a sweep as
 * anything but "each kind's default".
 */
const watchOptionsSchema = z.object({
  volts: z.number().finite().optional(),
  zones: z.array(z.string()).optional(),
  idleMinutes: z.number().finite().optional(),
  speedKmh: z.number().finite().optional(),
  offlineMinutes: z.number().finite().optional(),
  hours: z.string().optional(),
  tempMin: z.number().finite().optional(),
  tempMax: z.number().finite().optional(),
  tempForMinutes: z.number().finite().optional(),
}) satisfies z.ZodType<VehicleWatchOptions>;

/** The stored text of a subscription's options ({} when none). */
export function watchText(watch: VehicleWatchOptions | undefined): string {
  return JSON.stringify(compact(watch ?? {}));
}

/** Stored options read back; absent or unreadable text reads as {} (each kind's default). */
export function parseWatchOptions(text: string | undefined): VehicleWatchOptions {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {};
  }
  const parsed = watchOptionsSchema.safeParse(value);
  return parsed.success ? compact(parsed.data) : {};
}
