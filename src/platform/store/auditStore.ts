import { z } from "zod";
import {
  AUDIT_ACTIONS,
  AUDIT_OUTCOMES,
  type AuditEntry,
  type AuditHistory,
  type AuditRepository,
  auditEntrySchema,
} from "./contract/audit.js";
import type { Synchronous } from "./contract/synchronous.js";
import type { Db } from "./database.js";

/**
 * The audit trail of transport changes in SQLite (the contract and its records:
 * contract/audit.ts; the table of migration 5).
 */

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

export class SqliteAuditStore implements Synchronous<AuditRepository> {
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

  /** Every entry, oldest first (ties by id). */
  all(): AuditEntry[] {
    return this.s.all.all().map(fromRow);
  }
}
