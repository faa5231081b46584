import { z } from "zod";
import type { Db } from "./database.js";

/**
 * The audit trail of transport changes (migration 5): who (Slack user, fleet account) created,
 * edited, started, paused, ended or removed which transport (UIT), when, and what the fleet
 * service answered. Kept AUDIT_RETENTION_DAYS, far longer than the tasks that made the changes,
 * because a carrier asked by ANAF about a transport needs the record. It holds no secret: the
 * writers put in names, codes and the service's failure texts only.
 */

export const AUDIT_ACTIONS = ["create", "update", "start", "pause", "end", "remove"] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** success / failure: the service's answer; unknown: no usable answer (a timeout, a 5xx), the change may or may not be there. */
export const AUDIT_OUTCOMES = ["success", "failure", "unknown"] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export const auditEntrySchema = z.object({
  /** Unique; an entry recorded twice under one id (a resumed task) is kept once. */
  id: z.string().min(1),
  at: z.number(),
  /** The fleet account (username) the change was made as. */
  account: z.string(),
  slackUser: z.string().optional(),
  uit: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  outcome: z.enum(AUDIT_OUTCOMES),
  /** The service's failure code (or the kind of failure), when not a success. */
  code: z.string().optional(),
  /** The service's message, or what is known of an unknown outcome. */
  message: z.string().optional(),
  /** The task that made the call (support can match it with the logs while the task is kept). */
  taskId: z.string().optional(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** A UIT's entries for one account, newest first, and how many there are in all. */
export interface AuditHistory {
  entries: AuditEntry[];
  total: number;
}

const rowSchema = z.object({
  id: z.string(),
  at: z.number(),
  account: z.string(),
  slack_user: z.string().nullable(),
  uit: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  outcome: z.enum(AUDIT_OUTCOMES),
  code: z.string().nullable(),
  message: z.string().nullable(),
  task_id: z.string().nullable(),
});

function fromRow(raw: unknown): AuditEntry {
  const row = rowSchema.parse(raw);
  return {
    id: row.id,
    at: row.at,
    account: row.account,
    ...(row.slack_user === null ? {} : { slackUser: row.slack_user }),
    uit: row.uit,
    action: row.action,
    outcome: row.outcome,
    ...(row.code === null ? {} : { code: row.code }),
    ...(row.message === null ? {} : { message: row.message }),
    ...(row.task_id === null ? {} : { taskId: row.task_id }),
  };
}

const countRow = z.object({ n: z.number() });

export class AuditStore {
  private readonly s;

  constructor(private readonly db: Db) {
    this.s = {
      insert: db.prepare(
        `INSERT OR IGNORE INTO audit_log (id, at, account, slack_user, uit, action, outcome, code, message, task_id)
         VALUES (@id, @at, @account, @slack_user, @uit, @action, @outcome, @code, @message, @task_id)`,
      ),
      history: db.prepare(
        "SELECT * FROM audit_log WHERE account = ? AND uit = ? ORDER BY at DESC, id DESC LIMIT ?",
      ),
      count: db.prepare("SELECT count(*) AS n FROM audit_log WHERE account = ? AND uit = ?"),
      purge: db.prepare("DELETE FROM audit_log WHERE at < ?"),
      all: db.prepare("SELECT * FROM audit_log ORDER BY at, id"),
    };
  }

  /** Stores the entries in one transaction; ids already stored are left as they are. Returns how many were new. */
  record(entries: readonly AuditEntry[]): number {
    const checked = entries.map((entry) => auditEntrySchema.parse(entry));
    const write = this.db.transaction(() => {
      let added = 0;
      for (const e of checked) {
        added += this.s.insert.run({
          id: e.id,
          at: e.at,
          account: e.account,
          slack_user: e.slackUser ?? null,
          uit: e.uit,
          action: e.action,
          outcome: e.outcome,
          code: e.code ?? null,
          message: e.message ?? null,
          task_id: e.taskId ?? null,
        }).changes;
      }
      return added;
    });
    return write();
  }

  /** The account's entries of one UIT, newest first (at most `limit`), and their total. */
  history(account: string, uit: string, limit: number): AuditHistory {
    const entries = this.s.history.all(account, uit, Math.max(0, limit)).map(fromRow);
    const total = countRow.parse(this.s.count.get(account, uit)).n;
    return { entries, total };
  }

  /** Deletes entries older than the instant (AUDIT_RETENTION_DAYS); returns how many. */
  purgeBefore(instant: number): number {
    return this.s.purge.run(instant).changes;
  }

  /** Every entry, oldest first (the migration to Redis). */
  all(): AuditEntry[] {
    return this.s.all.all().map(fromRow);
  }
}
