/**
 * The zone note every zone-carrying kind's parameters have: whether the task's times are in the
 * company's zone because Slack did not say the user's (tasks/handlers/userZone.ts settles it).
 */
import { z } from "zod";

/** What zone-carrying parameters have besides their own fields. */
export const zoneNoteField = {
  /** True when the zone is the company's because Slack did not say the user's (worded when rendered). */
  zoneGuessed: z.boolean().optional(),
  /** The same, as English words: tasks stored before zoneGuessed. Read, never written. */
  zoneNote: z.string().optional(),
};

/** Whether a task's (stored) parameters say its times are in a guessed zone, as stored now or before. */
export function zoneWasGuessed(params: unknown): boolean {
  if (typeof params !== "object" || params === null) return false;
  const stored = params as { zoneGuessed?: unknown; zoneNote?: unknown };
  return stored.zoneGuessed === true || typeof stored.zoneNote === "string";
}
