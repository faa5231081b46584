import { randomUUID } from "node:crypto";
import { z } from "zod";
import {
  type NewTask,
  type ReplyTarget,
  type TaskError,
  type TaskRecord,
  type TaskState,
  taskRecordSchema,
} from "../tasks/task.js";
import { ONLY_WORKSPACE, type WorkspaceKey } from "../workspaces/workspace.js";
import type { Synchronous } from "./contract/synchronous.js";
import { assertPurgeable, type StepState, type TaskRepository } from "./contract/tasks.js";
import type { Db } from "./database.js";
import {
  DEFAULT_RESULT_LIMITS,
  decodeResult,
  encodeResultSync,
  NOT_KEPT_PREFIX,
  type ResultLimits,
} from "./resultCodec.js";

const rowSchema = z.object({
  id: z.string(),
  kind: z.string(),
  params: z.string(),
  account: z.string(),
  workspace: z.string(),
  slack_user: z.string().nullable(),
  reply: z.string(),
  priority: z.string(),
  state: z.string(),
  dedupe_key: z.string().nullable(),
  progress_done: z.number(),
  progress_total: z.number(),
  result: z.string().nullable(),
  error: z.string().nullable(),
  attempts: z.number(),
  created_at: z.number(),
  updated_at: z.number(),
  finished_at: z.number().nullable(),
  delivered_at: z.number().nullable(),
});

/** A row as a task; the reply target and error are checked once, by taskRecordSchema. */
function fromRow(raw: unknown): TaskRecord {
  const row = rowSchema.parse(raw);
  return taskRecordSchema.parse({
    id: row.id,
    kind: row.kind,
    params: JSON.parse(row.params),
    account: row.account,
    workspace: row.workspace,
    slackUser: row.slack_user ?? undefined,
    reply: JSON.parse(row.reply),
    priority: row.priority,
    state: row.state,
    dedupeKey: row.dedupe_key ?? undefined,
    progressDone: row.progress_done,
    progressTotal: row.progress_total,
    // Plain JSON, or the marker of a result no longer kept (resultCodec.ts).
    ...(row.result === null ? {} : decodeResult(row.result)),
    error: row.error === null ? undefined : JSON.parse(row.error),
    attempts: row.attempts,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at ?? undefined,
    deliveredAt: row.delivered_at ?? undefined,
  });
}

/** A task's row: storing it, reading it back, the pending one with a dedupe key. */
function recordStatements(db: Db) {
  return {
    insert: db.prepare(
      `INSERT INTO tasks (id, kind, params, account, workspace, slack_user, reply, priority, state, dedupe_key,
           progress_done, progress_total, attempts, created_at, updated_at)
         VALUES (@id, @kind, @params, @account, @workspace, @slack_user, @reply, @priority, 'queued', @dedupe_key, 0, 0, 0, @now, @now)`,
    ),
    byId: db.prepare("SELECT * FROM tasks WHERE id = ?"),
    pendingByDedupe: db.prepare(
      "SELECT * FROM tasks WHERE workspace = ? AND dedupe_key = ? AND state IN ('queued','running') LIMIT 1",
    ),
  };
}

/** The queued and running tasks, listed or counted: all, of an account, of a workspace, or both. */
function unfinishedStatements(db: Db) {
  return {
    unfinished: db.prepare(
      "SELECT * FROM tasks WHERE state IN ('queued','running') ORDER BY created_at, rowid",
    ),
    unfinishedOfAccount: db.prepare(
      "SELECT * FROM tasks WHERE account = ? AND state IN ('queued','running') ORDER BY created_at, rowid LIMIT ?",
    ),
    unfinishedOfWorkspace: db.prepare(
      "SELECT * FROM tasks WHERE workspace = ? AND state IN ('queued','running') ORDER BY created_at, rowid LIMIT ?",
    ),
    unfinishedOfAccountInWorkspace: db.prepare(
      "SELECT * FROM tasks WHERE account = ? AND workspace = ? AND state IN ('queued','running') ORDER BY created_at, rowid LIMIT ?",
    ),
    countUnfinished: db.prepare("SELECT count(*) AS n FROM tasks WHERE state IN ('queued','running')"),
    countUnfinishedOfAccount: db.prepare(
      "SELECT count(*) AS n FROM tasks WHERE account = ? AND state IN ('queued','running')",
    ),
    countUnfinishedOfWorkspace: db.prepare(
      "SELECT count(*) AS n FROM tasks WHERE workspace = ? AND state IN ('queued','running')",
    ),
    countUnfinishedOfAccountInWorkspace: db.prepare(
      "SELECT count(*) AS n FROM tasks WHERE account = ? AND workspace = ? AND state IN ('queued','running')",
    ),
  };
}

/** A task's changes while it runs and after: state, outcome, progress, reply target, result, parameters. */
function lifecycleStatements(db: Db) {
  return {
    setState: db.prepare("UPDATE tasks SET state = @state, updated_at = @now WHERE id = @id"),
    start: db.prepare(
      "UPDATE tasks SET state = 'running', attempts = attempts + 1, updated_at = @now WHERE id = @id AND state IN ('queued','running')",
    ),
    finish: db.prepare(
      `UPDATE tasks SET state = @state, result = @result, error = @error, updated_at = @now, finished_at = @now,
           params = COALESCE(@params, params)
         WHERE id = @id AND state IN ('queued','running')`,
    ),
    progress: db.prepare(
      "UPDATE tasks SET progress_done = @done, progress_total = @total, updated_at = @now WHERE id = @id",
    ),
    reply: db.prepare("UPDATE tasks SET reply = @reply, updated_at = @now WHERE id = @id"),
    result: db.prepare("UPDATE tasks SET result = ?, updated_at = ? WHERE id = ?"),
    params: db.prepare("UPDATE tasks SET params = ?, updated_at = ? WHERE id = ?"),
  };
}

/** The mutation journal, one row per (task, step). */
function stepStatements(db: Db) {
  return {
    step: db.prepare("SELECT state, result FROM task_steps WHERE task_id = ? AND step = ?"),
    upsertStep: db.prepare(
      `INSERT INTO task_steps (task_id, step, state, result, updated_at) VALUES (@task_id, @step, @state, @result, @now)
         ON CONFLICT (task_id, step) DO UPDATE SET state = excluded.state, result = excluded.result, updated_at = excluded.updated_at`,
    ),
  };
}

/** Finished tasks and whether their answer went out. */
function deliveryStatements(db: Db) {
  return {
    undelivered: db.prepare(
      "SELECT * FROM tasks WHERE delivered_at IS NULL AND state IN ('done','failed','cancelled') ORDER BY finished_at",
    ),
    delivered: db.prepare("UPDATE tasks SET delivered_at = @now WHERE id = @id"),
  };
}

/** An account's tasks, newest first. */
function recentStatements(db: Db) {
  return {
    recentOfAccount: db.prepare(
      "SELECT * FROM tasks WHERE account = ? ORDER BY created_at DESC, rowid DESC LIMIT ?",
    ),
    recentOfAccountInWorkspace: db.prepare(
      "SELECT * FROM tasks WHERE account = ? AND workspace = ? ORDER BY created_at DESC, rowid DESC LIMIT ?",
    ),
  };
}

/** An uninstalled workspace's tasks and their journal. */
function workspaceDeletionStatements(db: Db) {
  return {
    idsOfWorkspace: db.prepare("SELECT id FROM tasks WHERE workspace = ? ORDER BY created_at, rowid"),
    // The journal goes with its task (task_steps' foreign key cascades; said here as well, so
    // the purge does not rest on the connection's foreign_keys setting).
    deleteStepsOfWorkspace: db.prepare(
      "DELETE FROM task_steps WHERE task_id IN (SELECT id FROM tasks WHERE workspace = ?)",
    ),
    deleteOfWorkspace: db.prepare("DELETE FROM tasks WHERE workspace = ?"),
  };
}

/** Retention: old finished tasks, and the bulk results of delivered ones. */
function retentionStatements(db: Db) {
  return {
    purge: db.prepare("DELETE FROM tasks WHERE finished_at IS NOT NULL AND finished_at < ?"),
    // The marker keeps the size; SQLite compresses nothing, so bulk is plain JSON above the threshold.
    dropDeliveredBulk: db.prepare(
      `UPDATE tasks SET result = @marker || '{"reason":"expired","bytes":' || length(CAST(result AS BLOB)) || '}'
         WHERE delivered_at IS NOT NULL AND delivered_at < @instant AND result IS NOT NULL
           AND substr(result, 1, length(@marker)) <> @marker AND length(CAST(result AS BLOB)) > @bulk`,
    ),
  };
}

/**
 * Tasks and their mutation journal in SQLite (the contract: contract/tasks.ts). Every write is
 * one statement or one transaction, so a crash leaves either the old or the new state, never half
 * of it.
 */
export class SqliteTaskStore implements Synchronous<TaskRepository> {
  private readonly statements;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
    private readonly resultLimits: ResultLimits = DEFAULT_RESULT_LIMITS,
  ) {
    this.statements = {
      ...recordStatements(db),
      ...unfinishedStatements(db),
      ...lifecycleStatements(db),
      ...stepStatements(db),
      ...deliveryStatements(db),
      ...recentStatements(db),
      ...workspaceDeletionStatements(db),
      ...retentionStatements(db),
    };
  }

  /**
   * Stores a new task, or returns the pending one with the same dedupe key (a double
   * submission runs once). `created` says which.
   */
  create(task: NewTask): { task: TaskRecord; created: boolean } {
    const workspace = task.workspace ?? ONLY_WORKSPACE;
    const run = this.db.transaction((): { task: TaskRecord; created: boolean } => {
      if (task.dedupeKey) {
        const existing = this.statements.pendingByDedupe.get(workspace, task.dedupeKey);
        if (existing) return { task: fromRow(existing), created: false };
      }
      const id = randomUUID();
      const params = JSON.stringify(task.params ?? null);
      const reply = JSON.stringify(task.reply);
      const now = this.now();
      this.statements.insert.run({
        id,
        kind: task.kind,
        params,
        account: task.account,
        workspace,
        slack_user: task.slackUser ?? null,
        reply,
        priority: task.priority,
        dedupe_key: task.dedupeKey ?? null,
        now,
      });
      // The record as a read would give it (parameters and reply through JSON, as stored), without
      // reading the row back and parsing it: this runs on every slash command's ack.
      const created: TaskRecord = {
        id,
        kind: task.kind,
        params: JSON.parse(params),
        account: task.account,
        workspace,
        reply: JSON.parse(reply),
        // "alert" is a gate priority, never a task's: refused here as a read would refuse it.
        priority: taskRecordSchema.shape.priority.parse(task.priority),
        state: "queued",
        progressDone: 0,
        progressTotal: 0,
        attempts: 0,
        createdAt: now,
        updatedAt: now,
      };
      if (task.slackUser !== undefined) created.slackUser = task.slackUser;
      if (task.dedupeKey !== undefined) created.dedupeKey = task.dedupeKey;
      return { task: created, created: true };
    });
    return run.immediate();
  }

  get(id: string): TaskRecord | undefined {
    const row = this.statements.byId.get(id);
    return row ? fromRow(row) : undefined;
  }

  /**
   * Unfinished tasks, oldest first; of one account and/or one workspace, at most `limit` of them.
   * Without a workspace, every workspace's (the runner resumes them all at start); with one, only
   * that workspace's: one workspace's queue never shows another's tasks, even of the same account.
   */
  unfinished(account?: string, limit = -1, workspace?: WorkspaceKey): TaskRecord[] {
    const s = this.statements;
    const rows =
      workspace === undefined
        ? account
          ? s.unfinishedOfAccount.all(account, limit)
          : s.unfinished.all()
        : account
          ? s.unfinishedOfAccountInWorkspace.all(account, workspace, limit)
          : s.unfinishedOfWorkspace.all(workspace, limit);
    return rows.map(fromRow);
  }

  /**
   * How many tasks are queued or running, of one account and/or one workspace when given
   * (counted by SQL: /healthz must not parse 20,000 rows).
   */
  countUnfinished(account?: string, workspace?: WorkspaceKey): number {
    const s = this.statements;
    const row = (
      workspace === undefined
        ? account
          ? s.countUnfinishedOfAccount.get(account)
          : s.countUnfinished.get()
        : account
          ? s.countUnfinishedOfAccountInWorkspace.get(account, workspace)
          : s.countUnfinishedOfWorkspace.get(workspace)
    ) as { n: number };
    return row.n;
  }

  markRunning(id: string): void {
    this.statements.start.run({ id, now: this.now() });
  }

  /**
   * Ends a task; a task already ended keeps its first ending (cancel racing completion).
   * `params`, when given, replaces the stored parameters in the same write (secrets scrubbed).
   */
  finish(
    id: string,
    state: Extract<TaskState, "done" | "failed" | "cancelled">,
    outcome: { result?: unknown; error?: TaskError; params?: unknown },
  ): boolean {
    const info = this.statements.finish.run({
      id,
      state,
      params: outcome.params === undefined ? null : JSON.stringify(outcome.params),
      result: encodeResultSync(outcome.result, this.resultLimits) ?? null,
      error: outcome.error === undefined ? null : JSON.stringify(outcome.error),
      now: this.now(),
    });
    return info.changes > 0;
  }

  /** Replaces a finished task's result (a list kept current after actions on its cards). */
  updateResult(id: string, result: unknown): void {
    this.statements.result.run(encodeResultSync(result ?? null, this.resultLimits), this.now(), id);
  }

  /** Replaces a task's parameters (its user's zone, settled when the task runs). */
  updateParams(id: string, params: unknown): void {
    this.statements.params.run(JSON.stringify(params), this.now(), id);
  }

  setProgress(id: string, done: number, total: number): void {
    this.statements.progress.run({ id, done, total, now: this.now() });
  }

  setReply(id: string, reply: ReplyTarget): void {
    this.statements.reply.run({ id, reply: JSON.stringify(reply), now: this.now() });
  }

  step(taskId: string, step: string): StepState | undefined {
    const row = this.statements.step.get(taskId, step) as
      | { state: string; result: string | null }
      | undefined;
    if (!row) return undefined;
    if (row.state === "sending") return { state: "sending" };
    return { state: "done", result: row.result === null ? undefined : JSON.parse(row.result) };
  }

  /** Written (and synced by SQLite) before the mutation is sent: after a crash we know it may have reached the service. */
  markStepSending(taskId: string, step: string): void {
    this.statements.upsertStep.run({
      task_id: taskId,
      step,
      state: "sending",
      result: null,
      now: this.now(),
    });
  }

  markStepDone(taskId: string, step: string, result: unknown): void {
    this.statements.upsertStep.run({
      task_id: taskId,
      step,
      state: "done",
      result: result === undefined ? null : JSON.stringify(result),
      now: this.now(),
    });
  }

  /** Finished tasks whose answer has not reached Slack yet (a crash between the two). */
  undelivered(): TaskRecord[] {
    return this.statements.undelivered.all().map(fromRow);
  }

  markDelivered(id: string): void {
    this.statements.delivered.run({ id, now: this.now() });
  }

  /** The account's tasks, newest first, finished ones included; of one workspace when given. */
  recent(account: string, limit: number, workspace?: WorkspaceKey): TaskRecord[] {
    const rows =
      workspace === undefined
        ? this.statements.recentOfAccount.all(account, limit)
        : this.statements.recentOfAccountInWorkspace.all(account, workspace, limit);
    return rows.map(fromRow);
  }

  /**
   * Deletes every task of an uninstalled workspace, whatever its state, with its journal; returns
   * how many and their ids (the caller removes their queue jobs). The single workspace ("") is
   * never purged this way.
   */
  deleteWorkspace(workspace: WorkspaceKey): { tasks: number; ids: string[] } {
    assertPurgeable(workspace);
    const run = this.db.transaction((): { tasks: number; ids: string[] } => {
      const ids = (this.statements.idsOfWorkspace.all(workspace) as { id: string }[]).map((row) => row.id);
      this.statements.deleteStepsOfWorkspace.run(workspace);
      const tasks = this.statements.deleteOfWorkspace.run(workspace).changes;
      return { tasks, ids };
    });
    return run.immediate();
  }

  /** Replaces the bulk results of tasks delivered before the instant by an "expired" marker; returns how many. */
  dropResultsDeliveredBefore(instant: number): number {
    return this.statements.dropDeliveredBulk.run({
      instant,
      marker: NOT_KEPT_PREFIX,
      bulk: this.resultLimits.compressAboveBytes,
    }).changes;
  }

  /** Deletes tasks finished before the given instant; returns how many. */
  purgeFinishedBefore(instant: number): number {
    return this.statements.purge.run(instant).changes;
  }
}
