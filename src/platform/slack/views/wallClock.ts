/**
 * Wall-clock text of an instant in a zone, for the plain-text fallbacks of Slack dates and the
 * "same day?" test of stop lines. The text is exactly what date-fns gives
 * (`format(new TZDate(ms, zone), pattern)`, reports/format.ts `wallText`), read from one cached
 * Intl.DateTimeFormat per zone: about fifty times cheaper, and every answer card formats a few.
 * Pure; instants outside 1970–2199 and offsets that are not whole minutes (no zone has had one
 * since 1972) go to date-fns itself, so the text never differs.
 */
import { wallText } from "../../time/wallText.js";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;
const FIRST_MS = Date.UTC(1970, 0, 1);
const END_MS = Date.UTC(2200, 0, 1);

/**
 * Formatters by zone name. Only names the runtime accepted are kept (at most the IANA list),
 * so arbitrary input cannot grow it.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(zone: string): Intl.DateTimeFormat | undefined {
  const known = formats.get(zone);
  if (known) return known;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
  } catch {
    // An offset name ("+02:00") that this runtime's Intl does not take: date-fns reads it.
    return undefined;
  }
  formats.set(zone, format);
  return format;
}

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** The zone's offset from UTC at that instant, whole minutes. */
  offsetMinutes: number;
}

/** The zone's clock at `ms`, or undefined when date-fns must answer (see the module note). */
function wallOf(ms: number, zone: string): Wall | undefined {
  if (!(ms >= FIRST_MS && ms < END_MS)) return undefined;
  const format = formatOf(zone);
  if (!format) return undefined;
  const fields = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of format.formatToParts(ms)) {
    switch (part.type) {
      case "year":
      case "month":
      case "day":
      case "hour":
      case "minute":
      case "second":
        fields[part.type] = Number(part.value);
    }
  }
  const wallMs = Date.UTC(
    fields.year,
    fields.month - 1,
    fields.day,
    fields.hour,
    fields.minute,
    fields.second,
  );
  const offsetSeconds = (wallMs - Math.floor(ms / 1000) * 1000) / 1000;
  if (!Number.isInteger(offsetSeconds) || offsetSeconds % 60 !== 0) return undefined;
  return { ...fields, offsetMinutes: offsetSeconds / 60 };
}

const two = (n: number) => String(n).padStart(2, "0");

/** "+02:00", "-03:30", "+00:00": date-fns `xxx`. */
function offsetText(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? "-" : "+"}${two(Math.trunc(abs / 60))}:${two(abs % 60)}`;
}

/** "3 Nov 2026 14:05 +02:00": date-fns `d MMM yyyy HH:mm xxx` in `zone`. */
export function wallDateTime(ms: number, zone: string): string {
  const w = wallOf(ms, zone);
  if (!w) return wallText(ms, zone, "d MMM yyyy HH:mm xxx");
  return `${w.day} ${MONTHS[w.month - 1]} ${w.year} ${two(w.hour)}:${two(w.minute)} ${offsetText(w.offsetMinutes)}`;
}

/** "2026-11-03": date-fns `yyyy-MM-dd` in `zone`. */
export function wallDay(ms: number, zone: string): string {
  const w = wallOf(ms, zone);
  if (!w) return wallText(ms, zone, "yyyy-MM-dd");
  return `${w.year}-${two(w.month)}-${two(w.day)}`;
}
