import type { Recurrence } from "../../platform/store/contract/schedules.js";
import { LATE_RUN_WITHIN_MS, nextRunAfter } from "./recurrence.js";

/**
 * What a due schedule does now (pure): its run at `nextRunAt`, or, when fleetbot was down past it,
 * the latest missed run if it is within LATE_RUN_WITHIN_MS (made once, marked late) and the older
 * ones skipped (counted, and said in the next post); then the run after now.
 */
export interface RunDecision {
  /** The scheduled instant of the run to make now, if any. */
  run?: { scheduledAt: number; late: boolean };
  /** Missed runs not made (older than the late window, or older than the one made). */
  skipped: number;
  /** The next run, strictly after now; undefined when the recurrence cannot be read. */
  nextRunAt: number | undefined;
}

/** A run this close after its time is on time, not late (the ticker wakes once a minute). */
export const ON_TIME_MS = 2 * 60_000;

export function decideRun(
  schedule: { recurrence: Recurrence; timeZone: string; nextRunAt: number },
  nowMs: number,
): RunDecision {
  const nextRunAt = nextRunAfter(schedule.recurrence, schedule.timeZone, nowMs);
  if (schedule.nextRunAt > nowMs) return { skipped: 0, nextRunAt: schedule.nextRunAt };
  // Every run due by now: the stored next one and those after it up to now.
  const due: number[] = [schedule.nextRunAt];
  for (
    let at = nextRunAfter(schedule.recurrence, schedule.timeZone, schedule.nextRunAt);
    at !== undefined && at <= nowMs;
    at = nextRunAfter(schedule.recurrence, schedule.timeZone, at)
  ) {
    due.push(at);
    if (due.length > 1000) break;
  }
  const latest = due[due.length - 1] as number;
  if (nowMs - latest > LATE_RUN_WITHIN_MS) return { skipped: due.length, nextRunAt };
  return {
    run: { scheduledAt: latest, late: nowMs - latest > ON_TIME_MS },
    skipped: due.length - 1,
    nextRunAt,
  };
}
