import { TZDate } from "@date-fns/tz";
import type { Recurrence } from "../../platform/store/contract/schedules.js";

/**
 * When a scheduled report runs next (pure). Times are wall-clock times in the author's zone, so a
 * run at 07:30 Europe/Bucharest stays at 07:30 across daylight saving (its UTC instant moves). A
 * time the clocks skip (03:30 on the spring-forward night) runs at the first minute after the
 * gap; a time they repeat (autumn) runs once, at the first of the two. `month on 31` runs on the
 * month's last day in shorter months.
 */

const DAY_MS = 86_400_000;
/** Far enough for any recurrence (a month is at most 31 days), short enough to stop a bad input. */
const MAX_DAYS = 400;

function parseTime(time: string): { hour: number; minute: number } | undefined {
  const m = /^(\d{2}):(\d{2})$/.exec(time);
  if (!m) return undefined;
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  return hour < 24 && minute < 60 ? { hour, minute } : undefined;
}

function lastDayOfMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** Whether the recurrence runs on this calendar day (in the zone). */
function runsOn(r: Recurrence, year: number, month: number, day: number, weekday: number): boolean {
  switch (r.every) {
    case "day":
      return true;
    case "weekday":
      return weekday >= 1 && weekday <= 5;
    case "week":
      return weekday === r.weekday;
    case "month":
      return day === Math.min(r.day, lastDayOfMonth(year, month));
  }
}

/**
 * The wall time on a calendar day as an instant: the first instant whose wall clock in the zone
 * reads it, or, inside a spring-forward gap, the first instant after the gap.
 */
function wallInstant(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  zone: string,
): number {
  const guess = new TZDate(year, month, day, hour, minute, zone).getTime();
  // TZDate resolves a repeated time to one of its two instants: take the earlier when an hour
  // earlier reads the same wall time.
  const earlier = guess - 3_600_000;
  const e = new TZDate(earlier, zone);
  if (e.getHours() === hour && e.getMinutes() === minute && e.getDate() === day) return earlier;
  return guess;
}

/** The first run strictly after `afterMs`; undefined when the recurrence cannot be read. */
export function nextRunAfter(r: Recurrence, timeZone: string, afterMs: number): number | undefined {
  const time = parseTime(r.time);
  if (!time) return undefined;
  if (r.every === "week" && !(Number.isInteger(r.weekday) && r.weekday >= 0 && r.weekday <= 6))
    return undefined;
  if (r.every === "month" && !(Number.isInteger(r.day) && r.day >= 1 && r.day <= 31)) return undefined;
  const start = new TZDate(afterMs, timeZone);
  for (let i = 0; i < MAX_DAYS; i++) {
    // Calendar days in the zone, by noon: a day's noon is never in a DST gap.
    const noon = new TZDate(start.getFullYear(), start.getMonth(), start.getDate() + i, 12, 0, timeZone);
    const [year, month, day] = [noon.getFullYear(), noon.getMonth(), noon.getDate()];
    if (!runsOn(r, year, month, day, noon.getDay())) continue;
    const at = wallInstant(year, month, day, time.hour, time.minute, timeZone);
    if (at > afterMs) return at;
  }
  return undefined;
}

/**
 * The runs missed between `lastMs` (exclusive) and `nowMs` (inclusive), oldest first, at most
 * `limit`: fleetbot was down. The newest within `lateWithinMs` of now is made late; older ones
 * are skipped and said in the next post.
 */
export function missedRuns(
  r: Recurrence,
  timeZone: string,
  lastMs: number,
  nowMs: number,
  limit = 100,
): number[] {
  const out: number[] = [];
  let at = nextRunAfter(r, timeZone, lastMs);
  while (at !== undefined && at <= nowMs && out.length < limit) {
    out.push(at);
    at = nextRunAfter(r, timeZone, at);
  }
  return out;
}

/** A missed run is still made when fleetbot is back within this long of it (CONTRACT.md). */
export const LATE_RUN_WITHIN_MS = 12 * 3600_000;

export { DAY_MS };
