/**
 * A unit's `engineEvent`, as far as it can be read: fleet-api.md does not define its values, so
 * only the one public client reading known is used (1 ignition on, 0 or 2 off); anything else, or
 * nothing, is undefined: never a guess. Vehicle watch reads `engineRpm` first (readings.ts).
 */
export function engineFromEvent(engineEvent: number | undefined): "on" | "off" | undefined {
  if (engineEvent === 1) return "on";
  if (engineEvent === 0 || engineEvent === 2) return "off";
  return undefined;
}
