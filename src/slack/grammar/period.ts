import { assertTimeZone, instantToWall, wallToInstant } from "../../time/zone.js";
import { code, squeeze, withoutDiacritics } from "./text.js";
import {
  DAY_MS,
  formatWallDate,
  formatWallDateTime,
  formatWallWeekday,
  wallDate,
  wallDayStart,
  wallMonthStart,
  wallWeekStart,
} from "./time.js";
import type { GrammarContext, GrammarError, Period, PeriodKind, PeriodResult } from "./types.js";

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
 *   zile`, as Romanian writes 20 and up) = last N days/hours. Labels stay English.
 * - `last month` is the previous calendar month; `day before yesterday` is the day before yesterday.
 * - A period running until now ends at the start of the current minute (never after now), so that
 *   identical asks within one minute are the same request and share one upstream call; a period
 *   younger than a minute (`today` just after midnight) ends at now itself.
 */

export const MAX_DAYS = 366;
export const MAX_HOURS = 8784;

/** An error before the command is known: `fix` is period text that parses OK in the same context. */
export interface PeriodProblem {
  ok: false;
  message: string;
  fix: string;
}

type Core = { ok: true; period: Period } | PeriodProblem;

interface Anchors {
  nowWall: number;
  todayWall: number;
  yesterday: string;
}

function anchors(ctx: GrammarContext): Anchors {
  assertTimeZone(ctx.timeZone);
  const nowWall = instantToWall(ctx.now, ctx.timeZone);
  const todayWall = wallDayStart(nowWall);
  return { nowWall, todayWall, yesterday: formatWallDate(todayWall - DAY_MS) };
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
  ["saptamana trecuta", "last week"],
  ["luna trecuta", "last month"],
]);
/** `ultimele 3 zile`, `ultimele 12 ore`, `ultimele 24 de ore` (Romanian puts `de` after 19). */
const ROMANIAN_LAST_N = /^ultimele ?(\S*?) ?(?:de )?(zile|ore)$/;

/**
 * The English form of normalised period text: Romanian words translated, diacritics dropped from
 * them. Other text comes back as it was, so that messages and `text` keep the user's words.
 */
export function englishPeriodText(normalised: string): string {
  const plain = withoutDiacritics(normalised);
  const word = ROMANIAN_WORDS.get(plain);
  if (word !== undefined) return word;
  const last = ROMANIAN_LAST_N.exec(plain);
  if (last) return `last ${last[1]}${last[2] === "ore" ? "h" : "d"}`;
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
const TIME_SHAPE = /^(\d{1,2}):(\d{2})$/;
/** Things a dispatcher may type meaning a date, in another format. */
export const DATE_LIKE = /^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}$/;
const TIME_LIKE = /^\d{1,2}[:.h]\d{1,2}$|^\d{1,2}:\d*$|^\d{3,4}$/;

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

function problem(message: string, fix: string): PeriodProblem {
  return { ok: false, message, fix };
}

type WallOrProblem = { ok: true; wall: number } | PeriodProblem;

function readDate(text: string, a: Anchors): WallOrProblem {
  const m = DATE_SHAPE.exec(text);
  if (!m) {
    return problem(
      `${code(text)} is not a date. Dates are written YYYY-MM-DD, like ${code(a.yesterday)}.`,
      a.yesterday,
    );
  }
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12) {
    return problem(
      `${code(text)} is not a date: there is no month ${month}. Dates are written YYYY-MM-DD.`,
      a.yesterday,
    );
  }
  const wall = wallDate(year, month, day);
  if (wall === undefined) {
    const days = new Date(Date.UTC(2000, month, 0)).getUTCDate();
    const inYear = month === 2 ? new Date(Date.UTC(year, 2, 0)).getUTCDate() : days;
    return problem(
      `${code(text)} is not a date: ${MONTHS[month - 1]} ${year} has ${inYear} days.`,
      a.yesterday,
    );
  }
  if (year < 2000) return problem(`${code(text)} is too far back.`, a.yesterday);
  return { ok: true, wall };
}

function readTime(text: string, y: string): { ok: true; ms: number } | PeriodProblem {
  const m = TIME_SHAPE.exec(text);
  const hour = Number(m?.[1]);
  const minute = Number(m?.[2]);
  if (!m || hour > 23 || minute > 59) {
    return problem(
      `${code(text)} is not a time. Times are written HH:mm, from 00:00 to 23:59.`,
      `${y} 08:00..${y} 17:00`,
    );
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
    const which = side === "start" ? "a start" : "an end";
    return problem(
      `${code(text || "..")} is not ${which}: write a date, or a date and a time, like ${code(`${a.yesterday} 08:00`)}.`,
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

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}

/** Build a period from wall bounds; refuses future starts and cuts the end at now. */
function finish(
  kind: PeriodKind,
  fromWallMs: number,
  toWallMs: number,
  label: string,
  text: string,
  ctx: GrammarContext,
  a: Anchors,
): Core {
  const from = wallToInstant(fromWallMs, ctx.timeZone);
  let to = wallToInstant(toWallMs, ctx.timeZone);
  if (from.getTime() >= ctx.now.getTime()) {
    return problem(
      `${code(text)} has not started yet: reports cover the past, up to now.`,
      kind === "datetimes" ? `${a.yesterday} 08:00..${a.yesterday} 17:00` : a.yesterday,
    );
  }
  if (to.getTime() <= from.getTime()) {
    // Only when the clocks skipped the whole span (Pacific/Apia skipped 2011-12-30).
    return problem(`${code(text)} does not exist in your time zone: the clocks skipped it.`, a.yesterday);
  }
  let clipped = false;
  if (to.getTime() > ctx.now.getTime()) {
    to = untilNow(from, ctx.now);
    clipped = true;
  }
  return {
    ok: true,
    period: { kind, from, to, label: clipped ? `${label} (until now)` : label, text, clipped },
  };
}

function parseRange(text: string, ctx: GrammarContext, a: Anchors): Core {
  const sides = text.split("..");
  if (sides.length !== 2) {
    return problem(
      `${code(text)} is not a period: a range has one ${code("..")} between its start and its end.`,
      exampleRangeFrom(a),
    );
  }
  const start = readBound(sides[0] ?? "", a, "start");
  if (!start.ok) return start;
  const end = readBound(sides[1] ?? "", a, "end", wallDayStart(start.bound.wall));
  if (!end.ok) return end;
  const fromWallMs = start.bound.wall;
  // A date without a time ends with its whole day.
  const toWallMs = end.bound.timed ? end.bound.wall : end.bound.wall + DAY_MS;
  if (toWallMs <= fromWallMs) {
    return problem(
      `${code(text)} ends before it starts: put the earlier ${start.bound.timed || end.bound.timed ? "time" : "date"} first.`,
      start.bound.timed || end.bound.timed
        ? `${a.yesterday} 08:00..${a.yesterday} 17:00`
        : exampleRangeFrom(a),
    );
  }
  if (toWallMs - fromWallMs > MAX_DAYS * DAY_MS) {
    return problem(
      `${code(text)} is too long: a period can cover at most ${MAX_DAYS} days.`,
      exampleRangeFrom(a),
    );
  }
  const timed = start.bound.timed || end.bound.timed;
  const label = timed
    ? `${formatWallDateTime(fromWallMs)} – ${formatWallDateTime(toWallMs)}`
    : `${formatWallDate(fromWallMs)} – ${formatWallDate(toWallMs - DAY_MS)}`;
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
    const hint = /^\d+$/.test(rawN)
      ? ` Add the unit: ${code(`last ${rawN}h`)} or ${code(`last ${rawN}d`)}.`
      : "";
    return problem(
      `${code(typed)} is not a period.${hint || ` Write ${code("last 12h")} for hours or ${code("last 3d")} for days, with a whole number.`}`,
      "last 3d",
    );
  }
  const n = Number(rawN);
  const hours = unit.startsWith("h");
  const max = hours ? MAX_HOURS : MAX_DAYS;
  if (n < 1 || n > max) {
    const what = hours ? "hours" : "days";
    return problem(
      `${code(typed)}: the number of ${what} must be from 1 to ${max}${hours ? ` (or use days: ${code("last 3d")})` : ""}.`,
      hours ? "last 12h" : "last 3d",
    );
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
      label: `last ${plural(n, hours ? "hour" : "day")}`,
      text: typed,
      clipped: false,
    },
  };
}

/** A period from a start until now (today, this week): not clipped, it is meant to end now. */
function sinceStart(
  kind: PeriodKind,
  fromWall: number,
  label: string,
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
      return sinceStart("today", a.todayWall, "today", text, ctx);
    case "yesterday": {
      const start = a.todayWall - DAY_MS;
      return finish("yesterday", start, a.todayWall, `yesterday (${formatWallDate(start)})`, text, ctx, a);
    }
    case "day before yesterday": {
      const start = a.todayWall - 2 * DAY_MS;
      const label = `day before yesterday (${formatWallDate(start)})`;
      return finish("date", start, start + DAY_MS, label, text, ctx, a);
    }
    case "this week": {
      const monday = wallWeekStart(a.nowWall);
      return sinceStart("this-week", monday, `this week (since Mon ${formatWallDate(monday)})`, text, ctx);
    }
    case "last week": {
      const monday = wallWeekStart(a.nowWall);
      const start = monday - 7 * DAY_MS;
      const label = `last week (Mon ${formatWallDate(start)} – Sun ${formatWallDate(monday - DAY_MS)})`;
      return finish("last-week", start, monday, label, text, ctx, a);
    }
    case "last month": {
      const first = wallMonthStart(a.nowWall);
      const start = wallMonthStart(first - DAY_MS);
      const month = new Date(start);
      const label = `last month (${MONTHS[month.getUTCMonth()]} ${month.getUTCFullYear()})`;
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
  if (parts.length === 1 && (DATE_SHAPE.test(first) || DATE_LIKE.test(first))) {
    const date = readDate(first, a);
    if (!date.ok) return date;
    const label = `${formatWallDate(date.wall)} (${formatWallWeekday(date.wall)})`;
    return finish("date", date.wall, date.wall + DAY_MS, label, text, ctx, a);
  }
  if (parts.length === 2 && (DATE_SHAPE.test(first) || DATE_LIKE.test(first))) {
    const date = readDate(first, a);
    if (!date.ok) return date;
    return problem(
      `${code(text)}: a time needs an end too, like ${code(`${first} ${parts[1]}..${first} 17:00`)}.`,
      `${a.yesterday} 08:00..${a.yesterday} 17:00`,
    );
  }
  return problem(
    `${code(textIn.trim())} is not a period. Use ${code("today")}, ${code("yesterday")}, ${code("last 12h")}, ${code("last 3d")}, ${code("this week")}, ${code("last week")}, ${code("last month")}, a date like ${code(a.yesterday)} or a range like ${code(exampleRangeFrom(a))}.`,
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
    message: result.message,
    example: `${exampleCommand} ${result.fix}`,
  };
  return error;
}

/** Loose recogniser: could this (squeezed, lower-case) text be meant as a period? Used to split it off. */
export function looksLikePeriod(textIn: string): boolean {
  const normalised = normalisePeriodText(textIn);
  const plain = withoutDiacritics(normalised);
  if (ROMANIAN_WORDS.has(plain)) return true;
  if (/^ultimele ?\d\S*( de)?( (zile|ore))?$|^ultimele \S+ (de )?(zile|ore)$/.test(plain)) return true;
  if (/^luna (aceasta|asta)$|^saptamana asta$/.test(plain)) return true;
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
  if (parts.length <= 2 && DATE_LIKE.test(parts[0] ?? "")) {
    return parts.length === 1 || /^\d[\d:.h]*$/.test(parts[1] ?? "");
  }
  return false;
}
