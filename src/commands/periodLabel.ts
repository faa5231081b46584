/**
 * A period's label as data: what the reader asked for ("yesterday", "last 3 days", a range), with
 * no words in it. The Slack side writes it in the reader's language (src/i18n/periodText.ts).
 *
 * Dates are WALL values (src/platform/time/zone.ts: the user's wall clock written as if it were UTC
 * milliseconds, at the time of parsing), so the label reads the same whatever zone renders it.
 * A day is the wall midnight of that day; a range of days names its first and LAST day; a range
 * of times names its start and its (exclusive) end. `year` is the current year when the label was
 * made: a date of another year shows its year. `untilNow`: the period was cut at now.
 *
 * Tasks store labels (SQLite JSON): a task stored before labels were data holds the English words
 * as a string, which `periodLabelSchema` still accepts and which is shown as it is.
 */
import { z } from "zod";

const wall = z.number();
const common = { untilNow: z.boolean().optional(), year: z.number().int().optional() };

const periodLabelCodeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("today"), ...common }),
  z.object({ kind: z.literal("yesterday"), day: wall, ...common }),
  z.object({ kind: z.literal("dayBeforeYesterday"), day: wall, ...common }),
  z.object({ kind: z.literal("lastHours"), count: z.number().int(), ...common }),
  z.object({ kind: z.literal("lastDays"), count: z.number().int(), ...common }),
  z.object({ kind: z.literal("thisWeek"), monday: wall, ...common }),
  z.object({ kind: z.literal("lastWeek"), monday: wall, sunday: wall, ...common }),
  z.object({ kind: z.literal("thisMonth"), first: wall, ...common }),
  z.object({ kind: z.literal("lastMonth"), first: wall, last: wall, ...common }),
  z.object({ kind: z.literal("date"), day: wall, ...common }),
  z.object({ kind: z.literal("dates"), first: wall, last: wall, ...common }),
  z.object({ kind: z.literal("datetimes"), from: wall, to: wall, ...common }),
]);

/** A period's label as data (see the file comment). */
export type PeriodLabelCode = z.infer<typeof periodLabelCodeSchema>;

/** A stored label: the code, or (tasks stored before labels were data) the old English words. */
export const periodLabelSchema = z.union([periodLabelCodeSchema, z.string()]);

/** A period's label: a code, or a legacy English string from an older stored task. */
export type PeriodLabel = z.infer<typeof periodLabelSchema>;
