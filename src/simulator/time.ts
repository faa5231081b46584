/**
 * Time at the simulator's edges: company-local wall time <-> instants, request date
 * parsing and response date formatting. Inside, every time is epoch milliseconds.
 */
import { tzOffset } from "@date-fns/tz";

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export type ResponseDateStyle = "local" | "offset" | "localMillis";

const offsetCache = new Map<string, number>();

/** UTC offset of the zone at an instant, in minutes (cached per zone and UTC hour). */
export function offsetMinutes(timeZone: string, instant: number): number {
  const key = `${timeZone}|${Math.floor(instant / HOUR)}`;
  let offset = offsetCache.get(key);
  if (offset === undefined) {
    offset = tzOffset(timeZone, new Date(instant));
    if (offsetCache.size > 200_000) offsetCache.clear();
    offsetCache.set(key, offset);
  }
  return offset;
}

/** The instant at which the zone's wall clock shows the given fields. */
export function localToInstant(
  timeZone: string,
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
  ms = 0,
): number {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const first = asUtc - offsetMinutes(timeZone, asUtc) * MINUTE;
  return asUtc - offsetMinutes(timeZone, first) * MINUTE;
}

/** Calendar day "YYYY-MM-DD" of an instant on the zone's wall clock. */
export function localDayOf(timeZone: string, instant: number): string {
  return new Date(instant + offsetMinutes(timeZone, instant) * MINUTE).toISOString().slice(0, 10);
}

/** Start (local midnight) of the calendar day "YYYY-MM-DD". */
export function startOfLocalDay(timeZone: string, day: string): number {
  const [y, m, d] = day.split("-").map(Number);
  return localToInstant(timeZone, y ?? 1970, m ?? 1, d ?? 1);
}

export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + DAY).toISOString().slice(0, 10);
}

export function previousDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - DAY).toISOString().slice(0, 10);
}

/** Day of week of a calendar day, 0 = Sunday. */
export function weekdayOf(day: string): number {
  return new Date(`${day}T00:00:00Z`).getUTCDay();
}

/** Calendar days touched by [from, to], in order. */
export function localDaysBetween(timeZone: string, from: number, to: number): string[] {
  const days: string[] = [];
  const last = localDayOf(timeZone, to);
  for (let day = localDayOf(timeZone, from); day <= last; day = nextDay(day)) days.push(day);
  return days;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

/** Response date-time of an instant in the company zone, in the configured style. */
export function formatCompanyDate(instant: number, timeZone: string, style: ResponseDateStyle): string {
  const offset = offsetMinutes(timeZone, instant);
  const wall = new Date(instant + offset * MINUTE);
  const base =
    `${wall.getUTCFullYear()}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}` +
    `T${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}`;
  if (style === "local") return base;
  if (style === "localMillis") return `${base}.${pad(wall.getUTCMilliseconds(), 3)}`;
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  return `${base}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * ISO 8601 date-times as System.Text.Json (the real service is .NET) reads them:
 * date only, or date "T" hh:mm[:ss[.fraction 1-7 digits]], optional "Z" or ±hh:mm.
 */
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?)?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * Parses a request date. Without an offset the value is wall time in `zoneWithoutOffset`
 * (company zone for vehicle data, "UTC" for transport add/update). Undefined when unreadable.
 */
export function parseRequestDate(text: string, zoneWithoutOffset: string): number | undefined {
  const m = ISO_DATE_TIME.exec(text);
  if (!m) return undefined;
  const [, ys, mos, ds, hs, mis, ss, fraction, zone] = m;
  const year = Number(ys);
  const month = Number(mos);
  const day = Number(ds);
  const hour = Number(hs ?? 0);
  const minute = Number(mis ?? 0);
  const second = Number(ss ?? 0);
  const ms = fraction ? Math.floor(Number(`0.${fraction}`) * 1000) : 0;
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCDate() !== day) return undefined; // 31 April and friends
  if (zone === undefined) {
    if (zoneWithoutOffset === "UTC") return Date.UTC(year, month - 1, day, hour, minute, second, ms);
    return localToInstant(zoneWithoutOffset, year, month, day, hour, minute, second, ms);
  }
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  if (zone === "Z") return utc;
  const sign = zone.startsWith("-") ? -1 : 1;
  const [oh, om] = zone.slice(1).split(":").map(Number);
  return utc - sign * ((oh ?? 0) * 60 + (om ?? 0)) * MINUTE;
}
