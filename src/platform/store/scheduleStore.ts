import { z } from "zod";
import type { WorkspaceKey } from "../workspaces/workspace.js";
import type {
  NewReportSchedule,
  ReportSchedule,
  ScheduleOutcome,
  SchedulePause,
  ScheduleRepository,
} from "./contract/schedules.js";
import type { Synchronous } from "./contract/synchronous.js";
import type { Db } from "./database.js";
import { StoreError } from "./database.js";
import {
  assertInstant,
  checkedSchedule,
  failuresAfter,
  newSchedule,
  scheduleIdCandidates,
  scheduleIdOf,
  skippedAfter,
} from "./scheduleRecords.js";

/**
 * Scheduled reports in SQLite (the contract: contract/schedules.ts; the table of migration 17).
 * The id is unique in its workspace by the primary key; a run is claimed by one UPDATE that
 * moves next_run_at only while it still holds the run's instant and the schedule is active, so
 * of two processes on one file (or two callers in one) exactly one sees its change.
 * Ids are read as typed (scheduleRecords.ts scheduleIdOf: `7k2q` finds 7K2Q).
 */

const scheduleRow = z.object({
  workspace: z.string(),
  id: z.string(),
  channel: z.string(),
  created_by: z.string(),
  command: z.string(),
  recurrence: z.string(),
  time_zone: z.string(),
  language: z.string().nullable(),
  state: z.string(),
  paused_because: z.string().nullable(),
  next_run_at: z.number(),
  last_run_at: z.number().nullable(),
  last_run_made_at: z.number().nullable(),
  last_task_id: z.string().nullable(),
  last_outcome: z.string().nullable(),
  skipped_runs: z.number(),
  failures_in_row: z.number(),
  created_at: z.number(),
});

const orUndefined = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

/** A stored row as the record (the migrator reads every schedule through it too). */
export function toSchedule(raw: unknown): ReportSchedule {
  const row = scheduleRow.parse(raw);
  return checkedSchedule({
    id: row.id,
    workspace: row.workspace,
    channel: row.channel,
    createdBy: row.created_by,
    command: row.command,
    recurrence: JSON.parse(row.recurrence),
    timeZone: row.time_zone,
    language: orUndefined(row.language),
    state: row.state,
    pausedBecause: orUndefined(row.paused_because),
    nextRunAt: row.next_run_at,
    lastRunAt: orUndefined(row.last_run_at),
    lastRunMadeAt: orUndefined(row.last_run_made_at),
    lastTaskId: orUndefined(row.last_task_id),
    lastOutcome: orUndefined(row.last_outcome),
    skippedRuns: row.skipped_runs,
    failuresInRow: row.failures_in_row,
    createdAt: row.created_at,
  });
}

/** Every schedule of every workspace, each workspace's oldest first (the migrator's read). */
export function readSchedules(db: Db): ReportSchedule[] {
  return db
    .prepare("SELECT * FROM report_schedules ORDER BY workspace, created_at, rowid")
    .all()
    .map(toSchedule);
}

export class SqliteScheduleStore implements Synchronous<ScheduleRepository> {
  private readonly s;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.s = {
      insert: db.prepare(
        `INSERT INTO report_schedules (workspace, id, channel, created_by, command, recurrence, time_zone,
             language, state, next_run_at, failures_in_row, created_at)
           VALUES (@workspace, @id, @channel, @created_by, @command, @recurrence, @time_zone,
             @language, 'active', @next_run_at, 0, @created_at)
           ON CONFLICT (workspace, id) DO NOTHING`,
      ),
      get: db.prepare("SELECT * FROM report_schedules WHERE workspace = ? AND id = ?"),
      list: db.prepare(
        `SELECT * FROM report_schedules WHERE workspace = @workspace
             AND (@channel IS NULL OR channel = @channel) AND (@created_by IS NULL OR created_by = @created_by)
           ORDER BY created_at, rowid`,
      ),
      count: db.prepare("SELECT count(*) AS n FROM report_schedules WHERE workspace = ?"),
      due: db.prepare(
        `SELECT * FROM report_schedules WHERE state = 'active' AND next_run_at <= ?
           ORDER BY next_run_at, workspace, id LIMIT ?`,
      ),
      claim: db.prepare(
        `UPDATE report_schedules SET next_run_at = @next, last_run_at = @expected, last_run_made_at = @made_at
           WHERE workspace = @workspace AND id = @id AND next_run_at = @expected AND state = 'active'`,
      ),
      outcome: db.prepare(
        `UPDATE report_schedules SET last_task_id = @task_id, last_outcome = @outcome, failures_in_row = @failures,
             skipped_runs = @skipped
           WHERE workspace = @workspace AND id = @id`,
      ),
      pause: db.prepare(
        `UPDATE report_schedules SET state = 'paused', paused_because = @because
           WHERE workspace = @workspace AND id = @id`,
      ),
      resume: db.prepare(
        `UPDATE report_schedules SET state = 'active', paused_because = NULL, next_run_at = @next, failures_in_row = 0
           WHERE workspace = @workspace AND id = @id`,
      ),
      remove: db.prepare("DELETE FROM report_schedules WHERE workspace = ? AND id = ?"),
      removeAll: db.prepare("DELETE FROM report_schedules WHERE workspace = ?"),
    };
  }

  /** Stores a new active schedule under the first free id of scheduleIdCandidates(). */
  add(input: NewReportSchedule): ReportSchedule {
    const run = this.db.transaction((): ReportSchedule => {
      for (const id of scheduleIdCandidates()) {
        const schedule = newSchedule(input, id, this.now());
        const inserted = this.s.insert.run({
          workspace: schedule.workspace,
          id: schedule.id,
          channel: schedule.channel,
          created_by: schedule.createdBy,
          command: schedule.command,
          recurrence: JSON.stringify(schedule.recurrence),
          time_zone: schedule.timeZone,
          language: schedule.language ?? null,
          next_run_at: schedule.nextRunAt,
          created_at: schedule.createdAt,
        });
        if (inserted.changes > 0) return schedule;
      }
      throw new StoreError(`no free schedule id in workspace ${JSON.stringify(input.workspace)}`);
    });
    return run.immediate();
  }

  get(workspace: WorkspaceKey, id: string): ReportSchedule | undefined {
    const stored = scheduleIdOf(id);
    if (stored === undefined) return undefined;
    const row = this.s.get.get(workspace, stored);
    return row === undefined ? undefined : toSchedule(row);
  }

  list(workspace: WorkspaceKey, filter: { channel?: string; createdBy?: string } = {}): ReportSchedule[] {
    return this.s.list
      .all({ workspace, channel: filter.channel ?? null, created_by: filter.createdBy ?? null })
      .map(toSchedule);
  }

  count(workspace: WorkspaceKey): number {
    return z.object({ n: z.number() }).parse(this.s.count.get(workspace)).n;
  }

  due(at: number, limit: number): ReportSchedule[] {
    if (limit <= 0) return [];
    return this.s.due.all(at, Math.floor(limit)).map(toSchedule);
  }

  claimRun(
    workspace: WorkspaceKey,
    id: string,
    expectedNextRunAt: number,
    next: { nextRunAt: number; madeAt: number },
  ): boolean {
    assertInstant(next.nextRunAt, "nextRunAt");
    assertInstant(next.madeAt, "madeAt");
    const stored = scheduleIdOf(id);
    if (stored === undefined) return false;
    const changed = this.s.claim.run({
      workspace,
      id: stored,
      expected: expectedNextRunAt,
      next: next.nextRunAt,
      made_at: next.madeAt,
    });
    return changed.changes === 1;
  }

  recordOutcome(workspace: WorkspaceKey, id: string, outcome: ScheduleOutcome): ReportSchedule | undefined {
    const run = this.db.transaction(() => {
      const current = this.get(workspace, id);
      if (current === undefined) return undefined;
      this.s.outcome.run({
        workspace,
        id: current.id,
        task_id: outcome.result === "skipped" ? null : (outcome.taskId ?? null),
        outcome: outcome.result,
        failures: failuresAfter(current.failuresInRow, outcome.result),
        skipped: skippedAfter(current.skippedRuns, outcome),
      });
      return this.get(workspace, current.id);
    });
    return run.immediate();
  }

  setState(
    workspace: WorkspaceKey,
    id: string,
    change: { state: "paused"; because: SchedulePause } | { state: "active"; nextRunAt: number },
  ): ReportSchedule | undefined {
    if (change.state === "active") assertInstant(change.nextRunAt, "nextRunAt");
    const stored = scheduleIdOf(id);
    if (stored === undefined) return undefined;
    const run = this.db.transaction(() => {
      const key = { workspace, id: stored };
      const changed =
        change.state === "paused"
          ? this.s.pause.run({ ...key, because: change.because })
          : this.s.resume.run({ ...key, next: change.nextRunAt });
      return changed.changes === 0 ? undefined : this.get(workspace, stored);
    });
    return run.immediate();
  }

  remove(workspace: WorkspaceKey, id: string): boolean {
    const stored = scheduleIdOf(id);
    return stored !== undefined && this.s.remove.run(workspace, stored).changes > 0;
  }

  deleteWorkspace(workspace: WorkspaceKey): number {
    return this.s.removeAll.run(workspace).changes;
  }
}
