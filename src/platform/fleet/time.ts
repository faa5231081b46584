import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { wallToInstant } from "../time/zone.js";

/**
 * Date conversion at the fleet boundary. Inside the bot every time is an instant (Date);
 * the service speaks company-local wall time without offset for vehicle data, and UTC
 * for transport create/update (fleet-api.md, Versioning).
 */

/** Wall-clock time in `timeZone`, no offset: what vehicle-data requests send ("2026-11-03T14:05:00"). */
export function formatCompanyLocal(date: Date, timeZone: string): string {
  return format(new TZDate(date.getTime(), timeZone), "yyyy-MM-dd'T'HH:mm:ss");
}

/** UTC ISO 8601 with milliseconds and Z: what transport create/update requests send. */
export function formatUtcIso(date: Date): string {
  return date.toISOString();
}

const MINUTE_MS = 60_000;

// yyyy-MM-dd, T or space, HH:mm, optional :ss, optional fraction of 1–7 digits (.NET), optional Z or offset.
const ISO_LIKE =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,7}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
// dd.MM.yyyy HH:mm(:ss): a format Romanian tools print; accepted where the doc leaves the format open.
const DOTTED = /^(\d{1,2})\.(\d{1,2})\.(\d{4})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/;

interface DateFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  offset: string | undefined;
}

function toInstant(f: DateFields, timeZone: string): Date | undefined {
  if (
    f.month < 1 ||
    f.month > 12 ||
    f.day < 1 ||
    f.day > 31 ||
    f.hour > 23 ||
    f.minute > 59 ||
    f.second > 59
  ) {
    return undefined;
  }
  const wall = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second, f.millisecond);
  // Date.UTC rolls 31 February over into March; refuse such dates instead.
  if (new Date(wall).getUTCDate() !== f.day) return undefined;
  if (f.offset === undefined) return wallToInstant(wall, timeZone);
  if (f.offset.toUpperCase() === "Z") return new Date(wall);
  const sign = f.offset.startsWith("-") ? -1 : 1;
  const digits = f.offset.slice(1).replace(":", "");
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || "0");
  return new Date(wall - sign * minutes * MINUTE_MS);
}

/**
 * Parses a date of the service into an instant. A bare value ("2024-09-09T08:52:55.005",
 * 0–7 fractional digits, T or space) is wall time in `timeZone`; a value with Z or an
 * offset is taken as given. Returns undefined when the text is not a date it knows.
 */
export function parseServiceDate(text: string, timeZone: string): Date | undefined {
  const s = text.trim();
  const iso = ISO_LIKE.exec(s);
  if (iso) {
    const [, y, mo, d, h, mi, sec, frac, offset] = iso;
    return toInstant(
      {
        year: Number(y),
        month: Number(mo),
        day: Number(d),
        hour: Number(h),
        minute: Number(mi),
        second: Number(sec ?? "0"),
        // Beyond milliseconds the digits are dropped (truncated, as Date cannot hold them).
        millisecond: Number((frac ?? "").padEnd(3, "0").slice(0, 3)),
        offset,
      },
      timeZone,
    );
  }
  return undefined;
}

/**
 * Like parseServiceDate, and also "dd.MM.yyyy HH:mm(:ss)": for fields whose format the
 * doc does not show (the refill event date).
 */
export function parseLooseServiceDate(text: string, timeZone: string): Date | undefined {
  const strict = parseServiceDate(text, timeZone);
  if (strict) return strict;
  const dotted = DOTTED.exec(text.trim());
  if (!dotted) return undefined;
  const [, d, mo, y, h, mi, sec] = dotted;
  return toInstant(
    {
      year: Number(y),
      month: Number(mo),
      day: Number(d),
      hour: Number(h),
      minute: Number(mi),
      second: Number(sec ?? "0"),
      millisecond: 0,
      offset: undefined,
    },
    timeZone,
  );
}

// "hours:minutes:seconds" as the doc says, and .NET TimeSpan's "d.hh:mm:ss(.fffffff)" for a day or more.
const DURATION = /^(-)?(?:(\d+)\.)?(\d+):(\d{1,2})(?::(\d{1,2})(?:\.\d+)?)?$/;

/** Seconds in an operating-time text ("12:30:05", "1.02:00:00"); undefined when not a duration. */
export function parseDurationSeconds(text: string): number | undefined {
  const m = DURATION.exec(text.trim());
  if (!m) return undefined;
  const [, minus, days, hours, minutes, seconds] = m;
  const total =
    Number(days ?? "0") * 86_400 + Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds ?? "0");
  return minus ? -total : total;
}

/** Seconds as "hours:minutes:seconds" with hours unbounded ("49:05:00"), the service's own notation. */
export function formatDurationHours(totalSeconds: number): string {
  const sign = totalSeconds < 0 ? "-" : "";
  const s = Math.round(Math.abs(totalSeconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = s % 60;
  return `${sign}${hours}:${String(minutes).padStart(2, "0")}:${String(seconds).padStart(2, "0")}`;
}
