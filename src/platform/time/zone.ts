import { tzOffset } from "@date-fns/tz";

/**
 * Time-zone arithmetic, in one place for the whole bot (fleet dates, periods, config, people).
 *
 * A "wall" value is the wall clock of a zone written as if it were UTC milliseconds (so
 * `Date.UTC(2026, 10, 3)` is 3 November 00:00 on the wall): calendar arithmetic happens there
 * and is converted to a real instant at the end, which is what makes DST days 23 or 25 hours long.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** Zones the runtime accepted. Only valid names are kept, so arbitrary input cannot grow it past the IANA list. */
const knownZones = new Set<string>();

/** True when the runtime knows `zone` as an IANA time zone (Europe/Bucharest, UTC). */
export function isTimeZone(zone: string): boolean {
  if (knownZones.has(zone)) return true;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
  } catch {
    return false;
  }
  knownZones.add(zone);
  return true;
}

/** Throws a RangeError for a zone the runtime does not know: that is a caller bug, not a user error. */
export function assertTimeZone(zone: string): void {
  if (!isTimeZone(zone)) throw new RangeError(`Unknown time zone: ${zone}`);
}

/** The offset of `timeZone` from UTC at an instant, in milliseconds (east positive). */
export function offsetMs(timeZone: string, instantMs: number): number {
  return tzOffset(timeZone, new Date(instantMs)) * MINUTE_MS;
}

/** The wall clock of `timeZone` at `instant`, as wall milliseconds. */
export function instantToWall(instant: Date, timeZone: string): number {
  return instant.getTime() + offsetMs(timeZone, instant.getTime());
}

/**
 * The instant at which the clocks of `timeZone` show `wall`.
 * A wall time inside a spring-forward gap resolves forward with the offset before the gap, so
 * 03:30 on a Bucharest switch day is 04:30 EEST; a wall time that occurs twice (fall back) takes
 * the earlier instant. This is the "compatible" rule of Temporal and of most calendars.
 * With `gap: "before"` a wall time in a gap resolves to an instant before the gap instead
 * (for limits: the result never shows a later wall time than asked).
 */
export function wallToInstant(wall: number, timeZone: string, gap: "after" | "before" = "after"): Date {
  const before = offsetMs(timeZone, wall - 12 * HOUR_MS);
  const after = offsetMs(timeZone, wall + 12 * HOUR_MS);
  const candidates = [wall - before, wall - after].filter((t) => offsetMs(timeZone, t) === wall - t);
  if (candidates.length === 0) return new Date(wall - (gap === "after" ? before : after));
  return new Date(Math.min(...candidates));
}
