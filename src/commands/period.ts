import { assertTimeZone, instantToWall, wallToInstant } from "../platform/time/zone.js";
import { squeeze, withoutDiacritics } from "./text.js";
import { DAY_MS, formatWallDate, wallDate, wallDayStart, wallMonthStart, wallWeekStart } from "./time.js";
import type {
  GrammarContext,
  GrammarError,
  GrammarProblem,
  Period,
  PeriodKind,
  PeriodLabelCode,
  PeriodResult,
} from "./types.js";

/**
 * Periods, read in the invoking user's zone. Rules where the contract is silent:
 * - `to` is exclusive: a whole day ends at the first instant of the next day (DST-safe: 23 or 25 h).
 * - A period reaching past `now` is cut at `now` (`clipped`); a period starting at or after `now` is refused.
 * - `last <N>h` is N real hours; `last <N>d` is N calendar days (same wall time N days ago).
 * - N from 1 to 366 days or 8784 hours; ranges longer than 366 days are refused.
 * - Ranges: `<date>..<date>` (both days whole), `<date> <time>..<date> <time>`, mixed
 *   (`<date> <time>..<date>` ends with that whole day; `<date>..<date> <time>` starts at midnight),
 *   and `<date> <time>..<time>` (same day). `...` and `…` are accepted for `..`, spaces around it too.
 * - Times are `H:mm` or `HH:mm`, 00:00–23:59. A wall time skipped by a DST change is read as the
 *   same time after the change (03:30 on a spring-forward day = 04:30); a repeated one takes the first.
 * - Units accepted after N: h, hr, hrs, hour, hours, d, day, days (with or without a space).
 * - Romanian words mean the English periods, with or without diacritics (ș/ş, ț/ţ alike): `azi`/`astăzi`
 *   = today, `ieri` = yesterday, `alaltăieri` = the day before yesterday, `săptămâna aceasta`/`trecută`
 *   = this/last week, `luna trecută` = last month, `ultimele <N> zile`/`ore` (also `ultimele <N> de
 *   zile`, as Romanian writes 20 and up; `ultimele 24h`, `3z`) = last N days/hours, `ultima zi`/`oră` =
 *   the last day/hour; `săptămâna asta`, `luna aceasta`/`asta` = this week/month; `ultima
 *   săptămână`/`lună` = the last 7/30 days (the span behind us; the calendar ones are `trecută`).
 * - Dates are ISO (`2026-11-03`) or day-first dotted (`03.11.2026`; `03.11` is the last such day up
 *   to today). After a whole-day start, `..03.12` is a date; after a timed one, a bare `17.30` is
 *   that day's time.
 * - A period's label is data (src/commands/periodLabel.ts), written in the reader's language by
 *   src/i18n/periodText.ts.
 * - `this month` runs from the 1st until now; `last month` is the previous calendar month; `day before yesterday` is the day before yesterday.
 * - A period running until now ends at the start of the current minute (never after now), so that
 *   identical asks within one minute are the same request and share one upstream call; a period
 *   younger than a minute (`today` just after midnight) ends at now itself.
 */

export const MAX_DAYS = 366;
export const MAX_HOURS = 8784;

/** An error before the command is known: `fix` is period text that parses OK in the same context. */
export interface PeriodProblem {
  ok: false;
  problem: GrammarProblem;
  fix: string;
}

type Core = { ok: true; period: Period } | PeriodProblem;

interface Anchors {
  nowWall: number;
  todayWall: number;
  yesterday: string;
  /** The current year in the user's zone: a label's date of another year shows its year. */
  year: number;
}

function anchors(ctx: GrammarContext): Anchors {
  assertTimeZone(ctx.timeZone);
  const nowWall = instantToWall(ctx.now, ctx.timeZone);
  const todayWall = wallDayStart(nowWall);
  return {
    nowWall,
    todayWall,
    yesterday: formatWallDate(todayWall - DAY_MS),
    year: new Date(nowWall).getUTCFullYear(),
  };
}

const RANGE_SEPARATOR = /\s*(?:\.{2,3}|…)\s*/g;
const MINUTE_MS = 60_000;

/** Lower-case, squeezed, with range separators written `..`. */
export function normalisePeriodText(text: string): string {
  return squeeze(text).toLowerCase().replace(RANGE_SEPARATOR, "..");
}

export { withoutDiacritics };

/** Romanian period words (without diacritics) and the English period each one means. */
const ROMANIAN_WORDS: ReadonlyMap<string, string> = new Map([
  ["azi", "today"],
  ["astazi", "today"],
  ["ieri", "yesterday"],
  ["alaltaieri", "day before yesterday"],
  ["saptamana aceasta", "this week"],
  ["saptamana asta", "this week"],
  ["saptamana trecuta", "last week"],
  ["luna aceasta", "this month"],
  ["luna asta", "this month"],
  ["luna trecuta", "last month"],
  // "The last week/month" in Romanian is the span just behind us, not the calendar one (that is
  // `săptămâna trecută`, `luna trecută`): the last 7 and 30 days.
  ["ultima saptamana", "last 7d"],
  ["ultima luna", "last 30d"],
]);
/** `ultimele 3 zile`, `ultimele 12 ore`, `ultimele 24 de ore` (Romanian puts `de` after 19). */
const ROMANIAN_LAST_N = /^ultimele ?(\S*?) ?(?:de )?(zile|ore|z|h|d)$/;
/** `ultima zi`, `ultima oră`: how a Romanian label writes 1 (periodText), read back too. */
const ROMANIAN_LAST_ONE: ReadonlyMap<string, string> = new Map([
  ["ultima zi", "last 1d"],
  ["ultima ora", "last 1h"],
]);

/**
 * The English form of normalised period text: Romanian words translated, diacritics dropped from
 * them. Other text comes back as it was, so that messages and `text` keep the user's words.
 */
export function englishPeriodText(normalised: string): string {
  const plain = withoutDiacritics(normalised);
  const word = ROMANIAN_WORDS.get(plain);
  if (word !== undefined) return word;
  const last = ROMANIAN_LAST_N.exec(plain);
  if (last) return `last ${last[1]}${last[2] === "ore" || last[2] === "h" ? "h" : "d"}`;
  const one = ROMANIAN_LAST_ONE.get(plain);
  if (one !== undefined) return one;
  return normalised;
}

/**
 * The end of a period that runs until now: the start of the current minute, so that identical asks
 * within a minute make identical requests; `now` itself when that would not be after `from`.
 */
function untilNow(from: Date, now: Date): Date {
  const minute = Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS;
  return new Date(minute > from.getTime() ? minute : now.getTime());
}

const DATE_SHAPE = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
/** A day-first dotted date, as Romanians write it: `24.11.2026`, or `24.11` (the last such day up to today). */
const DOTTED_DATE = /^(\d{1,2})\.(\d{1,2})(?:\.(\d{4}))?$/;
/** A word meant as a date: ISO, dotted, or another date-like shape (read, or refused, by readDate). */
const isDateWord = (word: string) => DATE_LIKE.test(word) || DOTTED_DATE.test(word);
const TIME_SHAPE = /^(\d{1,2}):(\d{2})$/;
/** Things a dispatcher may type meaning a date, in another format. */
export const DATE_LIKE = /^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}$/;
const TIME_LIKE = /^\d{1,2}[:.h]\d{1,2}$|^\d{1,2}:\d*$|^\d{3,4}$/;

function problem(what: GrammarProblem, fix: string): PeriodProblem {
  return { ok: false, problem: what, fix };
}

type WallOrProblem = { ok: true; wall: number } | PeriodProblem;

/** A dotted date written the ISO way (`24.11` in the current year, or the last one when that is ahead). */
function isoOfDotted(text: string, a: Anchors): string | undefined {
  const m = DOTTED_DATE.exec(text);
  if (!m) return undefined;
  const day = m[1]?.padStart(2, "0");
  const month = m[2]?.padStart(2, "0");
  if (m[3] !== undefined) return `${m[3]}-${month}-${day}`;
  const thisYear = wallDate(a.year, Number(month), Number(day));
  const year = thisYear !== undefined && thisYear > a.todayWall ? a.year - 1 : a.year;
  return `${year}-${month}-${day}`;
}

function readDate(typed: string, a: Anchors): WallOrProblem {
  const text = isoOfDotted(typed, a) ?? typed;
  const m = DATE_SHAPE.exec(text);
  if (!m) {
    return problem({ code: "notADate", given: typed, example: a.yesterday }, a.yesterday);
  }
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12) {
    return problem({ code: "noSuchMonth", given: typed, month }, a.yesterday);
  }
  const wall = wallDate(year, month, day);
  if (wall === undefined) {
    const days = new Date(Date.UTC(2000, month, 0)).getUTCDate();
    const inYear = month === 2 ? new Date(Date.UTC(year, 2, 0)).getUTCDate() : days;
    return problem({ code: "noSuchDay", given: typed, month, year, days: inYear }, a.yesterday);
  }
  if (year < 2000) return problem({ code: "tooFarBack", given: text }, a.yesterday);
  return { ok: true, wall };
}

function readTime(text: string, y: string): { ok: true; ms: number } | PeriodProblem {
  const m = TIME_SHAPE.exec(text);
  const hour = Number(m?.[1]);
  const minute = Number(m?.[2]);
  if (!m || hour > 23 || minute > 59) {
    return problem({ code: "notATime", given: text }, `${y} 08:00..${y} 17:00`);
  }
  return { ok: true, ms: (hour * 60 + minute) * 60_000 };
}

interface Bound {
  wall: number;
  /** True when a time was given; otherwise the bound is a whole day. */
  timed: boolean;
  text: string;
}

function readBound(
  text: string,
  a: Anchors,
  side: "start" | "end",
  sameDayAs?: number,
): { ok: true; bound: Bound } | PeriodProblem {
  const parts = text.split(" ");
  if (
    parts.length === 1 &&
    sameDayAs !== undefined &&
    TIME_LIKE.test(parts[0] ?? "") &&
    !DATE_LIKE.test(text)
  ) {
    const time = readTime(parts[0] ?? "", a.yesterday);
    if (!time.ok) return time;
    return { ok: true, bound: { wall: sameDayAs + time.ms, timed: true, text } };
  }
  if (parts.length > 2 || parts.length === 0 || text === "") {
    return problem(
      {
        code: side === "start" ? "notAStart" : "notAnEnd",
        given: text || "..",
        example: `${a.yesterday} 08:00`,
      },
      `${a.yesterday} 08:00..${a.yesterday} 17:00`,
    );
  }
  const date = readDate(parts[0] ?? "", a);
  if (!date.ok) return date;
  if (parts.length === 1) return { ok: true, bound: { wall: date.wall, timed: false, text } };
  const time = readTime(parts[1] ?? "", a.yesterday);
  if (!time.ok) return time;
  return { ok: true, bound: { wall: date.wall + time.ms, timed: true, text } };
}

/** Build a period from wall bounds; refuses future starts and cuts the end at now. */
function finish(
  kind: PeriodKind,
  fromWallMs: number,
  toWallMs: number,
  label: PeriodLabelCode,
  text: string,
  ctx: GrammarContext,
  a: Anchors,
): Core {
  const from = wallToInstant(fromWallMs, ctx.timeZone);
  let to = wallToInstant(toWallMs, ctx.timeZone);
  if (from.getTime() >= ctx.now.getTime()) {
    return problem(
      { code: "notStarted", given: text },
      kind === "datetimes" ? `${a.yesterday} 08:00..${a.yesterday} 17:00` : a.yesterday,
    );
  }
  if (to.getTime() <= from.getTime()) {
    // Only when the clocks skipped the whole span (Pacific/Apia skipped 2011-12-30).
    return problem({ code: "skippedByClocks", given: text }, a.yesterday);
  }
  let clipped = false;
  if (to.getTime() > ctx.now.getTime()) {
    to = untilNow(from, ctx.now);
    clipped = true;
  }
  return {
    ok: true,
    period: { kind, from, to, label: clipped ? { ...label, untilNow: true } : label, text, clipped },
  };
}

function parseRange(text: string, ctx: GrammarContext, a: Anchors): Core {
  const sides = text.split("..");
  if (sides.length !== 2) {
    return problem({ code: "rangeSeparator", given: text }, exampleRangeFrom(a));
  }
  const start = readBound(sides[0] ?? "", a, "start");
  if (!start.ok) return start;
  // A bare time after a timed start is that day's (`24.11 08:00..17.30`); after a whole day,
  // `25.11` is the next date.
  const end = readBound(
    sides[1] ?? "",
    a,
    "end",
    start.bound.timed ? wallDayStart(start.bound.wall) : undefined,
  );
  if (!end.ok) return end;
  const fromWallMs = start.bound.wall;
  // A date without a time ends with its whole day.
  const toWallMs = end.bound.timed ? end.bound.wall : end.bound.wall + DAY_MS;
  if (toWallMs <= fromWallMs) {
    return problem(
      { code: "endsBeforeStart", given: text, timed: start.bound.timed || end.bound.timed },
      start.bound.timed || end.bound.timed
        ? `${a.yesterday} 08:00..${a.yesterday} 17:00`
        : exampleRangeFrom(a),
    );
  }
  if (toWallMs - fromWallMs > MAX_DAYS * DAY_MS) {
    return problem({ code: "tooLong", given: text, maxDays: MAX_DAYS }, exampleRangeFrom(a));
  }
  const timed = start.bound.timed || end.bound.timed;
  const label: PeriodLabelCode = timed
    ? { kind: "datetimes", from: fromWallMs, to: toWallMs, year: a.year }
    : { kind: "dates", first: fromWallMs, last: toWallMs - DAY_MS, year: a.year };
  return finish(timed ? "datetimes" : "dates", fromWallMs, toWallMs, label, text, ctx, a);
}

function exampleRangeFrom(a: Anchors): string {
  return `${formatWallDate(a.todayWall - 3 * DAY_MS)}..${a.yesterday}`;
}

const LAST_N = /^last ?(\S*?) ?(h|hr|hrs|hour|hours|d|day|days)?$/;

/** `last <N>h` / `last <N>d` (`key`, in English); messages quote `typed`, the words as the user wrote them. */
function parseLast(key: string, typed: string, ctx: GrammarContext): Core {
  const m = LAST_N.exec(key);
  const rawN = m?.[1] ?? "";
  const unit = m?.[2];
  if (!m || !/^\d+$/.test(rawN) || unit === undefined) {
    // `last 3`, `last 1.5h`, `last three days`
    return problem(
      /^\d+$/.test(rawN)
        ? { code: "lastNeedsUnit", given: typed, count: Number(rawN) }
        : { code: "lastNotANumber", given: typed },
      "last 3d",
    );
  }
  const n = Number(rawN);
  const hours = unit.startsWith("h");
  const max = hours ? MAX_HOURS : MAX_DAYS;
  if (n < 1 || n > max) {
    return problem({ code: "countOutOfRange", given: typed, hours, max }, hours ? "last 12h" : "last 3d");
  }
  // Counted back from the rounded end, so that asks within the same minute are the same period.
  const to = untilNow(new Date(0), ctx.now);
  const from = hours
    ? new Date(to.getTime() - n * 3_600_000)
    : wallToInstant(instantToWall(to, ctx.timeZone) - n * DAY_MS, ctx.timeZone);
  return {
    ok: true,
    period: {
      kind: hours ? "hours" : "days",
      from,
      to,
      label: { kind: hours ? "lastHours" : "lastDays", count: n },
      text: typed,
      clipped: false,
    },
  };
}

/** A period from a start until now (today, this week): not clipped, it is meant to end now. */
function sinceStart(
  kind: PeriodKind,
  fromWall: number,
  label: PeriodLabelCode,
  text: string,
  ctx: GrammarContext,
): Core {
  const from = wallToInstant(fromWall, ctx.timeZone);
  return { ok: true, period: { kind, from, to: untilNow(from, ctx.now), label, text, clipped: false } };
}

/** The named periods (`today`, `last week`…, in English); undefined for any other text. */
function parseNamed(key: string, text: string, ctx: GrammarContext, a: Anchors): Core | undefined {
  switch (key) {
    case "":
    case "today":
      return sinceStart("today", a.todayWall, { kind: "today" }, text, ctx);
    case "yesterday": {
      const start = a.todayWall - DAY_MS;
      return finish(
        "yesterday",
        start,
        a.todayWall,
        { kind: "yesterday", day: start, year: a.year },
        text,
        ctx,
        a,
      );
    }
    case "day before yesterday": {
      const start = a.todayWall - 2 * DAY_MS;
      const label: PeriodLabelCode = { kind: "dayBeforeYesterday", day: start, year: a.year };
      return finish("date", start, start + DAY_MS, label, text, ctx, a);
    }
    case "this week": {
      const monday = wallWeekStart(a.nowWall);
      return sinceStart("this-week", monday, { kind: "thisWeek", monday, year: a.year }, text, ctx);
    }
    case "last week": {
      const monday = wallWeekStart(a.nowWall);
      const start = monday - 7 * DAY_MS;
      const label: PeriodLabelCode = {
        kind: "lastWeek",
        monday: start,
        sunday: monday - DAY_MS,
        year: a.year,
      };
      return finish("last-week", start, monday, label, text, ctx, a);
    }
    case "this month": {
      const first = wallMonthStart(a.nowWall);
      return sinceStart("this-month", first, { kind: "thisMonth", first, year: a.year }, text, ctx);
    }
    case "last month": {
      const first = wallMonthStart(a.nowWall);
      const start = wallMonthStart(first - DAY_MS);
      const label: PeriodLabelCode = { kind: "lastMonth", first: start, last: first - DAY_MS, year: a.year };
      return finish("last-month", start, first, label, text, ctx, a);
    }
    default:
      return undefined;
  }
}

function parse(textIn: string, ctx: GrammarContext): Core {
  const a = anchors(ctx);
  const text = normalisePeriodText(textIn);
  const key = englishPeriodText(text);
  const named = parseNamed(key, text, ctx, a);
  if (named) return named;
  if (key.startsWith("last")) return parseLast(key, text, ctx);
  if (text.includes("..")) return parseRange(text, ctx, a);
  const parts = text.split(" ");
  const first = parts[0] ?? "";
  if (parts.length === 1 && isDateWord(first)) {
    const date = readDate(first, a);
    if (!date.ok) return date;
    const label: PeriodLabelCode = { kind: "date", day: date.wall, year: a.year };
    return finish("date", date.wall, date.wall + DAY_MS, label, text, ctx, a);
  }
  if (parts.length === 2 && isDateWord(first)) {
    const date = readDate(first, a);
    if (!date.ok) return date;
    return problem(
      { code: "timeNeedsEnd", given: text, example: `${first} ${parts[1]}..${first} 17:00` },
      `${a.yesterday} 08:00..${a.yesterday} 17:00`,
    );
  }
  return problem(
    { code: "notAPeriod", given: textIn.trim(), yesterday: a.yesterday, range: exampleRangeFrom(a) },
    "yesterday",
  );
}

/** Period parse with a bare fix (period text) instead of a full example; used by the command parsers. */
export function parsePeriodCore(text: string, ctx: GrammarContext): Core {
  const result = parse(text, ctx);
  // A fix built from dates near now can name a day the clocks skipped (Samoa, 2011-12-30):
  // an example must always work, and today always exists.
  if (!result.ok && !parse(result.fix, ctx).ok) return { ...result, fix: "today" };
  return result;
}

/**
 * Parse a period typed by the user (empty text = `today`). Errors carry an example command made of
 * `exampleCommand` followed by a period that works.
 */
export function parsePeriod(
  text: string,
  ctx: GrammarContext,
  exampleCommand = "/fleet stops all",
): PeriodResult {
  const result = parsePeriodCore(text, ctx);
  if (result.ok) return { ok: true, kind: "period", period: result.period };
  const error: GrammarError = {
    ok: false,
    kind: "error",
    problem: result.problem,
    example: `${exampleCommand} ${result.fix}`,
  };
  return error;
}

/** Loose recogniser: could this (squeezed, lower-case) text be meant as a period? Used to split it off. */
export function looksLikePeriod(textIn: string): boolean {
  const normalised = normalisePeriodText(textIn);
  const plain = withoutDiacritics(normalised);
  if (ROMANIAN_WORDS.has(plain) || ROMANIAN_LAST_ONE.has(plain)) return true;
  if (/^ultimele ?\d\S*( de)?( (zile|ore|z|h|d))?$|^ultimele \S+ (de )?(zile|ore)$/.test(plain)) return true;

  const text = englishPeriodText(normalised);
  if (/^(today|yesterday|day before yesterday|now|this week|last week|this month|last month)$/.test(text))
    return true;
  if (/^last ?\d\S*( (h|hr|hrs|hour|hours|d|day|days))?$/.test(text)) return true;
  if (/^last (hour|hours|day|days)$/.test(text)) return true;
  const parts = text.split(" ");
  if (text.includes("..")) {
    const sides = text.split("..");
    if (sides.length !== 2) return false;
    const [start = "", end = ""] = sides;
    const startParts = start.split(" ");
    const endParts = end.split(" ");
    const startOk =
      startParts.length <= 2 &&
      /^\d[\d\-/.]*$/.test(startParts[0] ?? "") &&
      (startParts.length === 1 || /^\d[\d:.]*$/.test(startParts[1] ?? ""));
    const endOk =
      end === "" ||
      (endParts.length <= 2 &&
        /^\d[\d\-/.:]*$/.test(endParts[0] ?? "") &&
        (endParts.length === 1 || /^\d[\d:.]*$/.test(endParts[1] ?? "")));
    return startOk && endOk;
  }
  if (parts.length <= 2 && isDateWord(parts[0] ?? "")) {
    return parts.length === 1 || /^\d[\d:.h]*$/.test(parts[1] ?? "");
  }
  return false;
}
