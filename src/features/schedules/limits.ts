/**
 * How many schedules fleetbot takes (pure). A workspace keeps at most MAX_SCHEDULES_PER_WORKSPACE;
 * and the schedules run as one fleet account may take at most half of that account's daily slots
 * (one request per FLEET_MIN_INTERVAL_MS), so that people's lookups always have the other half.
 * The count is for the busiest day: every schedule of the account is counted as if all ran on the
 * same day (a weekly and a monthly one may well meet), each run with the calls its report plans.
 */
export const MAX_SCHEDULES_PER_WORKSPACE = 50;

const DAY_MS = 24 * 60 * 60_000;

/** The slots of one account in a day, and the half schedules may take. */
export function dailySlots(slotMs: number): { day: number; forSchedules: number } {
  const day = Math.floor(DAY_MS / Math.max(1, slotMs));
  return { day, forSchedules: Math.floor(day / 2) };
}

export type ScheduleLimit =
  | { ok: true }
  | { ok: false; limit: "workspace"; count: number; max: number }
  | {
      ok: false;
      limit: "account";
      /** Calls a day the account's schedules already plan. */
      used: number;
      /** Calls a day the new one would add. */
      adding: number;
      /** Half the account's daily slots. */
      max: number;
    };

/** Whether one more schedule fits: the workspace's count first, then the account's daily calls. */
export function checkScheduleLimits(input: {
  workspaceCount: number;
  /** Planned calls per run of each schedule already run as the account. */
  accountCalls: readonly number[];
  /** Planned calls per run of the new one. */
  newCalls: number;
  slotMs: number;
}): ScheduleLimit {
  if (input.workspaceCount >= MAX_SCHEDULES_PER_WORKSPACE)
    return { ok: false, limit: "workspace", count: input.workspaceCount, max: MAX_SCHEDULES_PER_WORKSPACE };
  const used = input.accountCalls.reduce((sum, calls) => sum + calls, 0);
  const { forSchedules } = dailySlots(input.slotMs);
  if (used + input.newCalls > forSchedules)
    return { ok: false, limit: "account", used, adding: input.newCalls, max: forSchedules };
  return { ok: true };
}
