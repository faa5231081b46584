/**
 * Calendar arithmetic on wall values for periods (see src/platform/time/zone.ts: a wall value is a zone's
 * wall clock written as if it were UTC milliseconds; converting to and from instants happens there).
 */

export const DAY_MS = 86_400_000;

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

/** The first day (wall midnight) of the month that contains `wall`. */
export function wallMonthStart(wall: number): number {
  const d = new Date(wall);
  d.setUTCDate(1);
  return wallDayStart(d.getTime());
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
