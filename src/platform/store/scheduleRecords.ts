import { randomInt } from "node:crypto";
import { z } from "zod";
import { LANGUAGES } from "../../i18n/language.js";
import type { NewReportSchedule, ReportSchedule, ScheduleOutcome } from "./contract/schedules.js";

/**
 * What both schedule stores share (scheduleStore.ts, redis/scheduleStore.ts): the short ids people
 * type, and the check of a record before it is written and after it is read.
 *
 * An id is Crockford base32 (no I, L, O, U: nothing to mistake for 1, 0 or V, and no word to
 * spell by chance), 4 characters while the workspace has room for a fresh one, longer after a few
 * collisions. What a person types is read the Crockford way (`scheduleIdOf`): case ignored, O as
 * 0, I and L as 1, spaces and dashes dropped.
 */

export const SCHEDULE_ID_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const SCHEDULE_ID_LENGTH = { min: 4, max: 6 } as const;

/** Collisions tolerated at one length before the next is tried. */
const TRIES_PER_LENGTH = 8;

/** A random id of that many characters. */
export function randomScheduleId(length: number): string {
  let id = "";
  for (let i = 0; i < length; i++) id += SCHEDULE_ID_ALPHABET[randomInt(SCHEDULE_ID_ALPHABET.length)];
  return id;
}

/** Candidate ids for a new schedule, shortest first (the store keeps the first one free). */
export function* scheduleIdCandidates(): Generator<string> {
  for (let length = SCHEDULE_ID_LENGTH.min; length <= SCHEDULE_ID_LENGTH.max; length++)
    for (let i = 0; i < TRIES_PER_LENGTH; i++) yield randomScheduleId(length);
}

/** An id as typed, in its stored form; undefined when it cannot be one. */
export function scheduleIdOf(typed: string): string | undefined {
  const id = typed.replace(/[\s-]/g, "").toUpperCase().replace(/O/g, "0").replace(/[IL]/g, "1");
  if (id.length < SCHEDULE_ID_LENGTH.min || id.length > SCHEDULE_ID_LENGTH.max) return undefined;
  for (const c of id) if (!SCHEDULE_ID_ALPHABET.includes(c)) return undefined;
  return id;
}

const time = z.string().min(1);

export const recurrenceSchema = z.discriminatedUnion("every", [
  z.object({ every: z.literal("day"), time }),
  z.object({ every: z.literal("weekday"), time }),
  z.object({ every: z.literal("week"), weekday: z.number().int().min(0).max(6), time }),
  z.object({ every: z.literal("month"), day: z.number().int().min(1).max(31), time }),
]);

const epochMs = z.number().int();

/** A schedule record as the contract types it (both stores check what they write and read). */
export const reportScheduleSchema = z.object({
  id: z.string().min(1),
  workspace: z.string(),
  channel: z.string().min(1),
  createdBy: z.string().min(1),
  command: z.string(),
  recurrence: recurrenceSchema,
  timeZone: z.string().min(1),
  language: z.enum(LANGUAGES).optional(),
  state: z.enum(["active", "paused"]),
  pausedBecause: z.enum(["user", "unlinked", "left-channel", "bot-not-in-channel", "failures"]).optional(),
  nextRunAt: epochMs,
  lastRunAt: epochMs.optional(),
  lastRunMadeAt: epochMs.optional(),
  lastTaskId: z.string().optional(),
  lastOutcome: z.enum(["ok", "failed", "skipped"]).optional(),
  skippedRuns: z.number().int().min(0).optional(),
  failuresInRow: z.number().int().min(0),
  createdAt: epochMs,
});

/** A checked record with only its present fields (both stores answer records equal field for field). */
export function checkedSchedule(input: unknown): ReportSchedule {
  const parsed = reportScheduleSchema.parse(input);
  const schedule: ReportSchedule = {
    id: parsed.id,
    workspace: parsed.workspace,
    channel: parsed.channel,
    createdBy: parsed.createdBy,
    command: parsed.command,
    recurrence: parsed.recurrence,
    timeZone: parsed.timeZone,
    state: parsed.state,
    nextRunAt: parsed.nextRunAt,
    failuresInRow: parsed.failuresInRow,
    createdAt: parsed.createdAt,
  };
  if (parsed.language !== undefined) schedule.language = parsed.language;
  if (parsed.pausedBecause !== undefined) schedule.pausedBecause = parsed.pausedBecause;
  if (parsed.lastRunAt !== undefined) schedule.lastRunAt = parsed.lastRunAt;
  if (parsed.lastRunMadeAt !== undefined) schedule.lastRunMadeAt = parsed.lastRunMadeAt;
  if (parsed.lastTaskId !== undefined) schedule.lastTaskId = parsed.lastTaskId;
  if (parsed.lastOutcome !== undefined) schedule.lastOutcome = parsed.lastOutcome;
  // None is absent, as in a new schedule (SQLite's column says 0).
  if (parsed.skippedRuns !== undefined && parsed.skippedRuns > 0) schedule.skippedRuns = parsed.skippedRuns;
  return schedule;
}

/** A new active schedule under that id (checked: what is stored can be read back). */
export function newSchedule(input: NewReportSchedule, id: string, now: number): ReportSchedule {
  // Born active: a pause reason given with it means nothing.
  const { createdAt, pausedBecause: _, ...rest } = input;
  return checkedSchedule({ ...rest, id, state: "active", failuresInRow: 0, createdAt: createdAt ?? now });
}

/** The runs a skip outcome stands for (at least one); none for a run made. */
export function runsSkippedBy(outcome: ScheduleOutcome): number {
  return outcome.result === "skipped" ? Math.max(1, outcome.skipped ?? 1) : 0;
}

/** Runs skipped since the last run made, after an outcome: a skip adds its runs, a run made clears them. */
export function skippedAfter(skippedRuns: number | undefined, outcome: ScheduleOutcome): number {
  return outcome.result === "skipped" ? (skippedRuns ?? 0) + runsSkippedBy(outcome) : 0;
}

/** Failures in a row after a run's result: ok resets, failed adds one, skipped leaves them. */
export function failuresAfter(failuresInRow: number, result: "ok" | "failed" | "skipped"): number {
  return result === "ok" ? 0 : result === "failed" ? failuresInRow + 1 : failuresInRow;
}

/** An instant a store writes (epoch ms, whole): what is not one would be stored and never read back. */
export function assertInstant(value: number, what: string): void {
  if (!Number.isSafeInteger(value))
    throw new RangeError(`${what} must be whole epoch milliseconds, not ${value}`);
}
