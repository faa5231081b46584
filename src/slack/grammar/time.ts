import { tzOffset } from "@date-fns/tz";

/**
 * Wall-clock arithmetic for periods. A "wall" value is the wall clock of a zone written as
 * if it were UTC milliseconds (so `Date.UTC(2026, 10, 3)` is 3 November 00:00 on the wall);
 * calendar arithmetic happens there and is converted to a real instant at the end, which is
 * what makes DST days 23 or 25 hours long.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

const validZones = new Map<string, boolean>();

/** Throws a RangeError for a zone the runtime does not know: that is a caller bug, not a user error. */
export function assertTimeZone(timeZone: string): void {
  let valid = validZones.get(timeZone);
  if (valid === undefined) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone }).format(0);
      valid = true;
    } catch {
      valid = false;
    }
    validZones.set(timeZone, valid);
  }
  if (!valid) throw new RangeError(`Unknown time zone: ${timeZone}`);
}

function offsetMs(timeZone: string, instantMs: number): number {
  return tzOffset(timeZone, new Date(instantMs)) * MINUTE_MS;
}

/** The wall clock of `timeZone` at `instant`, as wall milliseconds. */
export function toWall(instant: Date, timeZone: string): number {
  return instant.getTime() + offsetMs(timeZone, instant.getTime());
}

/**
 * The instant at which the clocks of `timeZone` show `wall`. A wall time inside a spring-forward
 * gap moves forward by the gap (03:30 on a Bucharest switch day is 04:30 EEST); a wall time that
 * occurs twice (fall back) takes the earlier instant. This is Temporal's "compatible" rule.
 */
export function fromWall(wall: number, timeZone: string): Date {
  const before = offsetMs(timeZone, wall - 12 * HOUR_MS);
  const after = offsetMs(timeZone, wall + 12 * HOUR_MS);
  const candidates = [wall - before, wall - after].filter((t) => offsetMs(timeZone, t) === wall - t);
  if (candidates.length === 0) return new Date(wall - before);
  return new Date(Math.min(...candidates));
}

/** True when the wall time does not exist in the zone (it falls in a spring-forward gap). */
export function isInGap(wall: number, timeZone: string): boolean {
  const instant = fromWall(wall, timeZone);
  return toWall(instant, timeZone) !== wall;
}

/** Midnight (wall) of the day that contains `wall`. */
export function wallDayStart(wall: number): number {
  return Math.floor(wall / DAY_MS) * DAY_MS;
}

/** Monday (wall midnight) of the ISO week that contains `wall`. */
export function wallWeekStart(wall: number): number {
  const day = wallDayStart(wall);
  const weekday = new Date(day).getUTCDay(); // 0 = Sunday
  const sinceMonday = (weekday + 6) % 7;
  return day - sinceMonday * DAY_MS;
}

/** The wall time for a calendar date, or undefined when the date does not exist (2026-02-30). */
export function wallDate(year: number, month: number, day: number, hour = 0, minute = 0): number | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0 || minute > 59) {
    return undefined;
  }
  const d = new Date(Date.UTC(2000, month - 1, day, hour, minute));
  d.setUTCFullYear(year);
  if (d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return undefined;
  return d.getTime();
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/** `2026-11-03` for a wall value. */
export function formatWallDate(wall: number): string {
  const d = new Date(wall);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** `2026-11-03 14:05` for a wall value. */
export function formatWallDateTime(wall: number): string {
  const d = new Date(wall);
  return `${formatWallDate(wall)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** `Tue 3 Nov` style short weekday label for a wall value. */
export function formatWallWeekday(wall: number): string {
  return ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][new Date(wall).getUTCDay()] ?? "";
}
