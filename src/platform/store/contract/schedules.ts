import type { Language } from "../../../i18n/language.js";
import type { WorkspaceKey } from "../../workspaces/workspace.js";

/**
 * Scheduled reports (`/fleet schedule <report> every day at 07:30`): a report command posted into
 * a channel on a recurrence. A schedule belongs to its workspace (deleted on uninstall, copied by
 * `migrate --to-redis`). Each run is claimed once, across restarts and replicas, by moving
 * `nextRunAt` with a compare-and-set (`claimRun`): the replica whose claim succeeds makes the run.
 * Implemented by SqliteScheduleStore (scheduleStore.ts) and RedisScheduleStore (redis/scheduleStore.ts).
 */

/** When a schedule runs, in its author's time zone (`timeZone`), kept across daylight saving. */
export type Recurrence =
  | { every: "day"; time: string }
  | { every: "weekday"; time: string }
  /** 0 Sunday … 6 Saturday. */
  | { every: "week"; weekday: number; time: string }
  /** 1–31; a month without that day runs on its last day. */
  | { every: "month"; day: number; time: string };

export type ScheduleState = "active" | "paused";

/** Why a schedule paused by itself (the author is told); `user` when someone pressed Pause. */
export type SchedulePause = "user" | "unlinked" | "left-channel" | "bot-not-in-channel" | "failures";

export interface ReportSchedule {
  /** Short id people type (`/fleet schedule remove 7K2Q`): unique in its workspace. */
  id: string;
  workspace: WorkspaceKey;
  channel: string;
  /** The Slack user who made it: runs as their fleet account, or the workspace's. */
  createdBy: string;
  /** The report command as typed after `/fleet` (`fuel all yesterday`), its period read at each run. */
  command: string;
  recurrence: Recurrence;
  /** The author's IANA zone when it was made. */
  timeZone: string;
  /** The language of its posts (the author's when made); undefined: resolved at run time. */
  language?: Language;
  state: ScheduleState;
  pausedBecause?: SchedulePause;
  /** The next run's scheduled instant (epoch ms). */
  nextRunAt: number;
  /** The last run claimed: its scheduled instant, and when it was made (a late run differs). */
  lastRunAt?: number;
  lastRunMadeAt?: number;
  /** The last run's outcome: a task id and whether it succeeded. */
  lastTaskId?: string;
  lastOutcome?: "ok" | "failed" | "skipped";
  /**
   * Runs skipped since the last run made (fleetbot down past the late window), said in the next
   * post; absent when none. A run made (ok or failed) clears it.
   */
  skippedRuns?: number;
  /** Failed runs in a row (3 pause the schedule). */
  failuresInRow: number;
  createdAt: number;
}

/** What a claimed run came to: a task's result, or missed runs skipped (how many). */
export type ScheduleOutcome =
  | { taskId?: string; result: "ok" | "failed" }
  | { result: "skipped"; skipped?: number };

export type NewReportSchedule = Omit<
  ReportSchedule,
  | "id"
  | "state"
  | "failuresInRow"
  | "createdAt"
  | "lastRunAt"
  | "lastRunMadeAt"
  | "lastTaskId"
  | "lastOutcome"
  | "skippedRuns"
> & { createdAt?: number };

export interface ScheduleRepository {
  /** Stores a new active schedule with a fresh short id (unique in its workspace). */
  add(input: NewReportSchedule): Promise<ReportSchedule>;
  get(workspace: WorkspaceKey, id: string): Promise<ReportSchedule | undefined>;
  /** A workspace's schedules (of a channel, and/or of an author), oldest first. */
  list(workspace: WorkspaceKey, filter?: { channel?: string; createdBy?: string }): Promise<ReportSchedule[]>;
  /** How many schedules a workspace has. */
  count(workspace: WorkspaceKey): Promise<number>;
  /** Active schedules of every workspace whose next run is at or before `at`, soonest first (at most `limit`). */
  due(at: number, limit: number): Promise<ReportSchedule[]>;
  /**
   * Claims the run scheduled at `expectedNextRunAt`: moves the schedule to `nextRunAt`, records the
   * claimed run (`lastRunAt` = expectedNextRunAt, `lastRunMadeAt` = `madeAt`), only while it is
   * active and still due at `expectedNextRunAt`. True for exactly one caller per run.
   */
  claimRun(
    workspace: WorkspaceKey,
    id: string,
    expectedNextRunAt: number,
    next: { nextRunAt: number; madeAt: number },
  ): Promise<boolean>;
  /**
   * A claimed run's result: ok resets `failuresInRow`, failed adds one. A skip adds `skipped`
   * (default 1) to `skippedRuns`; a run made clears them.
   */
  recordOutcome(
    workspace: WorkspaceKey,
    id: string,
    outcome: ScheduleOutcome,
  ): Promise<ReportSchedule | undefined>;
  /** Pauses (with why) or resumes (with the next run) a schedule; undefined: no such schedule. */
  setState(
    workspace: WorkspaceKey,
    id: string,
    change: { state: "paused"; because: SchedulePause } | { state: "active"; nextRunAt: number },
  ): Promise<ReportSchedule | undefined>;
  /** Removes one; whether it existed. */
  remove(workspace: WorkspaceKey, id: string): Promise<boolean>;
  /** Drops every schedule of an uninstalled workspace; how many. */
  deleteWorkspace(workspace: WorkspaceKey): Promise<number>;
}
