import cron from "node-cron";
import { cronZone } from "../../platform/time/cronZone.js";

/**
 * Whether the alert sweeps still run, for /healthz. A schedule can stop without an error (in
 * Redis mode a FLUSHALL or a restart without AOF takes the job scheduler with it), so the
 * time of the last completed sweep is what tells: older than three ticks of ALERTS_CRON, the
 * alerts are "late".
 */

/** Ticks a sweep may miss before the alerts count as late. */
export const LATE_AFTER_TICKS = 3;

/**
 * The length of one tick of a cron expression: the longest gap among its next few fire
 * times (an irregular expression, e.g. business hours only, is judged by its longer gaps).
 */
export function cronTickMs(expression: string, timeZone?: string): number {
  const zone = cronZone(expression, timeZone);
  const task = cron.createTask(expression, () => undefined, zone ? { timezone: zone } : {});
  try {
    const runs = task.getNextRuns(6).map((date) => date.getTime());
    let longest = 0;
    for (let i = 1; i < runs.length; i++) longest = Math.max(longest, runs[i]! - runs[i - 1]!);
    return longest;
  } finally {
    void task.destroy();
  }
}

/** The next fire time of a cron expression after now (epoch ms), for a schedule kept elsewhere (Redis mode). */
export function nextCronRunMs(expression: string, timeZone?: string): number | undefined {
  const zone = cronZone(expression, timeZone);
  const task = cron.createTask(expression, () => undefined, zone ? { timezone: zone } : {});
  try {
    // getNextRun() answers null for a task not started (node-cron 4.6): the first of its next runs.
    return task.getNextRuns(1)[0]?.getTime();
  } finally {
    void task.destroy();
  }
}

export interface SweepHealth {
  /** ISO time of the last completed sweep, or null when none completed yet. */
  lastSweep: string | null;
  /** "late": no sweep completed within three ticks (since the last one, or since the start). */
  state: "ok" | "late";
}

/** Pure: the alerts' health from the last sweep, the schedule's start and its tick. */
export function sweepHealth(parts: {
  lastSweepAt: number | undefined;
  startedAt: number;
  tickMs: number;
  now: number;
}): SweepHealth {
  const since = Math.max(parts.lastSweepAt ?? 0, parts.startedAt);
  const late = parts.now - since > LATE_AFTER_TICKS * parts.tickMs;
  return {
    lastSweep: parts.lastSweepAt === undefined ? null : new Date(parts.lastSweepAt).toISOString(),
    state: late ? "late" : "ok",
  };
}
