import { TZDate } from "@date-fns/tz";
/**
 * Numbers, quantities, durations and dates in the reader's language: one form each per language
 * (docs/ARCHITECTURE.md, Languages). Digits, separators, weekday and month names come from CLDR
 * through the platform's Intl; the layout around them (the unit after a space, the order
 * "weekday day month, hh:mm") is fleetbot's one form, the same in both languages.
 *
 * Every Intl object is made once and kept (a formatter costs tens of microseconds to build,
 * a format call well under one): numbers per (language, fraction digits), dates per
 * (language, time zone). A zone the runtime does not know throws a RangeError (a caller bug:
 * zones are checked where they enter, src/platform/time/zone.ts) and is not kept.
 */
import type { Language } from "./language.js";

/** Locale of each language's Intl objects. en-US for names ("Sep", not en-GB's "Sept"). */
const LOCALE: Readonly<Record<Language, string>> = { en: "en-US", ro: "ro-RO" };

// ---------- numbers ----------

export interface NumberOptions {
  /** At most this many decimals (0–20; default 1). */
  maxFractionDigits?: number;
  /** At least this many decimals (0–20, at most maxFractionDigits; default 0). */
  minFractionDigits?: number;
}

const numberFormats = new Map<number, Intl.NumberFormat>();

function checkDigits(digits: number): number {
  if (!Number.isInteger(digits) || digits < 0 || digits > 20) {
    throw new RangeError(`Fraction digits must be an integer from 0 to 20, not ${digits}`);
  }
  return digits;
}

/** The cached formatter of `lang` with `min`–`max` decimals. */
export function numberFormat(
  lang: Language,
  minFractionDigits: number,
  maxFractionDigits: number,
): Intl.NumberFormat {
  const max = checkDigits(maxFractionDigits);
  const min = Math.min(checkDigits(minFractionDigits), max);
  const key = (lang === "ro" ? 1000 : 0) + min * 32 + max;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE[lang], {
      minimumFractionDigits: min,
      maximumFractionDigits: max,
      // CLDR's own grouping for both languages today (ro has minimumGroupingDigits 1, so
      // "1.234"); pinned so a later CLDR cannot turn the "1.234,5 l" into "1234,5 l".
      useGrouping: "always",
      // No "-0" when a small negative value rounds to zero.
      signDisplay: "negative",
    });
    numberFormats.set(key, format);
  }
  return format;
}

/** "1,234.5" / "1.234,5" (default: up to 1 decimal). */
export function number(lang: Language, n: number, options: NumberOptions = {}): string {
  return numberFormat(lang, options.minFractionDigits ?? 0, options.maxFractionDigits ?? 1).format(n);
}

/** A measured quantity: always one decimal, so columns line up and the precision shows. */
function quantity(lang: Language, n: number, unit: string): string {
  return `${numberFormat(lang, 1, 1).format(n)} ${unit}`;
}

/** "1,234.5 l" / "1.234,5 l" */
export function litres(lang: Language, n: number): string {
  return quantity(lang, n, "l");
}

/** "7.8 l/100 km" / "7,8 l/100 km" */
export function consumption(lang: Language, n: number): string {
  return quantity(lang, n, "l/100 km");
}

/** "1,234.5 km" / "1.234,5 km" */
export function km(lang: Language, n: number): string {
  return quantity(lang, n, "km");
}

/** "-18.5 °C" / "-18,5 °C" (CLDR's minus sign for both languages is the hyphen-minus). */
export function temperature(lang: Language, n: number): string {
  return quantity(lang, n, "°C");
}

// ---------- durations ----------

const SECOND_MS = 1000;
const MINUTE_MS = 60_000;

/**
 * The one duration form, the same in both languages (SI symbols, which Romanian uses too):
 * "45 s" under a minute, "47 min" under an hour, else "17 h 47 min" ("3 h" on the hour).
 * Hours do not roll into days, so totals over a month stay comparable ("212 h 5 min").
 * Rounded to the nearest second under a minute, else to the nearest minute. A negative or
 * non-finite duration reads "0 s".
 */
export function duration(lang: Language, ms: number): string {
  const total = Number.isFinite(ms) && ms > 0 ? ms : 0;
  const seconds = Math.round(total / SECOND_MS);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(total / MINUTE_MS);
  if (minutes < 60) return `${minutes} min`;
  const hours = numberFormat(lang, 0, 0).format(Math.floor(minutes / 60));
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

// ---------- dates ----------

interface DateParts {
  weekday: string;
  day: string;
  month: string;
  year: string;
  hour: string;
  minute: string;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(lang: Language, zone: string): Intl.DateTimeFormat {
  const key = `${lang} ${zone}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(LOCALE[lang], {
      timeZone: zone,
      // Romanian spells the weekday out: its abbreviation "mar." would read as March.
      weekday: lang === "ro" ? "long" : "short",
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    dateFormats.set(key, format);
  }
  return format;
}

function partsOf(lang: Language, ms: number, zone: string): DateParts {
  const out: DateParts = { weekday: "", day: "", month: "", year: "", hour: "", minute: "" };
  for (const part of dateFormat(lang, zone).formatToParts(ms)) {
    switch (part.type) {
      case "weekday":
      case "day":
      case "month":
      case "year":
      case "hour":
      case "minute":
        out[part.type] = part.value;
        break;
      default:
        break;
    }
  }
  return out;
}

export interface DateOptions {
  /**
   * The present instant. When given and the date falls in another calendar year (in `zone`),
   * the year follows the month: "Tue 24 Nov 2026". Without it the year is never shown.
   */
  nowMs?: number;
}

function dayText(lang: Language, p: DateParts, zone: string, options: DateOptions): string {
  // Romanian writes a comma after the weekday ("marți, 24 nov."); English does not ("Tue 24 Nov").
  const base = `${p.weekday}${lang === "ro" ? "," : ""} ${p.day} ${p.month}`;
  if (options.nowMs === undefined) return base;
  return partsOf(lang, options.nowMs, zone).year === p.year ? base : `${base} ${p.year}`;
}

/** "Tue 24 Nov" / "marți, 24 nov." in `zone`. */
export function date(lang: Language, ms: number, zone: string, options: DateOptions = {}): string {
  return dayText(lang, partsOf(lang, ms, zone), zone, options);
}

/** "14:05" in `zone`: 24-hour clock in both languages. */
export function time(lang: Language, ms: number, zone: string): string {
  const p = partsOf(lang, ms, zone);
  return `${p.hour}:${p.minute}`;
}

/** The one date-and-time form: "Tue 24 Nov, 14:05" / "marți, 24 nov., 14:05", in `zone`. */
export function dateTime(lang: Language, ms: number, zone: string, options: DateOptions = {}): string {
  const p = partsOf(lang, ms, zone);
  return `${dayText(lang, p, zone, options)}, ${p.hour}:${p.minute}`;
}

/**
 * A time in a CSV file, as the reader's spreadsheet reads it: English ISO 8601 with the zone's
 * offset ("2026-11-02T06:00:00+02:00"); Romanian "02.11.2026 06:00:00" (Excel and LibreOffice in
 * Romanian keep an ISO time with T and an offset as text), in `zone`.
 */
export function csvDateTime(lang: Language, ms: number, zone: string): string {
  const d = new TZDate(ms, zone);
  if (Number.isNaN(d.getTime())) return "";
  const two = (n: number) => String(n).padStart(2, "0");
  const clock = `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
  if (lang === "ro") return `${two(d.getDate())}.${two(d.getMonth() + 1)}.${d.getFullYear()} ${clock}`;
  const offset = -d.getTimezoneOffset();
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${clock}${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

/**
 * Slack's date token, `<!date^SECONDS^FORMAT|fallback>`: every reader sees the instant in their
 * own Slack time zone. Slack writes the words of `{date_short_pretty}` and `{ago}` in the
 * reader's Slack interface language, which has no Romanian, so Romanian uses only the numeric
 * tokens, `{date_num} {time}` ("2026-11-24 14:05"); English keeps `{date_short_pretty} {time}`
 * ("Nov 24, 2026 2:05 PM", "today …", in the reader's clock preference). The fallback, shown
 * where Slack cannot render the token (notifications, some clients), is `dateTime` (or `date`
 * when `time: false`) in `zone`, the reader's zone when known.
 */
export function slackDate(
  lang: Language,
  ms: number,
  zone: string,
  options: DateOptions & { time?: boolean } = {},
): string {
  const withTime = options.time ?? true;
  const day = lang === "ro" ? "{date_num}" : "{date_short_pretty}";
  const tokens = withTime ? `${day} {time}` : day;
  const text = withTime ? dateTime(lang, ms, zone, options) : date(lang, ms, zone, options);
  return `<!date^${Math.floor(ms / 1000)}^${tokens}|${text.replace(/[|<>^]/g, " ")}>`;
}
