import { offsetMs } from "./zone.js";

/**
 * The zone to read a cron expression in. An expression that names no hour, day, month or weekday
 * ("every 2 seconds", "every minute") fires at the same instants in every zone whose offsets are
 * whole hours, so it is read in UTC: node-cron 4.6 read in Europe/Bucharest schedules its next run
 * one hour late during the first pass of the repeated hour on the last Sunday of October (found
 * by the calendar run, test/calendar/runAt.sh), which left an hour without alert checks once a
 * year. An expression with hours or days keeps the company zone (a digest at 08:00 means 08:00
 * there); those fire outside the 03:00–04:00 switch hours unless they name them.
 */
export function cronZone(expression: string, timeZone: string | undefined): string | undefined {
  if (timeZone === undefined) return undefined;
  const fields = expression.trim().split(/\s+/);
  // node-cron: 5 fields (minute first) or 6 (second first).
  const calendarFields = fields.length === 6 ? fields.slice(2) : fields.length === 5 ? fields.slice(1) : [];
  if (calendarFields.length !== 4 || calendarFields.some((field) => field !== "*")) return timeZone;
  return wholeHourOffsets(timeZone) ? "UTC" : timeZone;
}

/** Whether the zone's offset is a whole number of hours in winter and in summer (not India's +5:30). */
function wholeHourOffsets(timeZone: string): boolean {
  const year = new Date().getUTCFullYear();
  return [Date.UTC(year, 0, 15), Date.UTC(year, 6, 15)].every(
    (at) => offsetMs(timeZone, at) % 3_600_000 === 0,
  );
}
