import type { Logger } from "pino";

export const DAY_MS = 86_400_000;
/** Resolved incidents are kept a month: long enough to answer "did that truck break last week?". */
export const RESOLVED_INCIDENT_DAYS = 30;
/** A delivered result's bulk is kept a day (pages turned, a list's buttons), then dropped. */
export const DELIVERED_RESULT_DAYS = 1;
/** The audit trail outlives a tax year's questions (CONTRACT.md: AUDIT_RETENTION_DAYS, 400). */
export const DEFAULT_AUDIT_RETENTION_DAYS = 400;

/** The stores' delete operations retention needs (both the SQLite and any later store implement them). */
export interface RetainedStores {
  tasks: {
    purgeFinishedBefore(instant: number): Promise<number>;
    /** Drops the bulk of results delivered before the instant (the tasks stay). */
    dropResultsDeliveredBefore?(instant: number): Promise<number>;
  };
  alerts: { purge(olderThan: number): Promise<{ mutes: number; incidents: number }> };
  /** The audit trail of transport changes; absent: nothing of it to prune. */
  audit?: { purgeBefore(instant: number): Promise<number> };
}

export interface RetentionOptions {
  stores: RetainedStores;
  /** TASK_RETENTION_DAYS: finished tasks and their results are deleted after this many days. */
  taskRetentionDays: number;
  /** AUDIT_RETENTION_DAYS: audit entries are deleted after this many days (400 unless given). */
  auditRetentionDays?: number;
  now?: () => number;
  logger?: Pick<Logger, "info" | "warn">;
}

export interface RetentionOutcome {
  tasks: number;
  /** Delivered results whose bulk was dropped. */
  results: number;
  incidents: number;
  mutes: number;
  auditEntries: number;
}

/**
 * Deletes what is no longer needed, so the store does not grow for ever: finished tasks (one
 * stops report can hold megabytes of result) after TASK_RETENTION_DAYS, resolved incidents
 * after 30 days, expired mutes at once, audit entries after AUDIT_RETENTION_DAYS. Unfinished tasks and open incidents are never touched.
 */
export class StoreRetention {
  private readonly now: () => number;
  private timer?: NodeJS.Timeout;

  constructor(private readonly options: RetentionOptions) {
    this.now = options.now ?? Date.now;
  }

  /** One pass; safe to run at any time. */
  async run(): Promise<RetentionOutcome> {
    const now = this.now();
    const tasks = await this.options.stores.tasks.purgeFinishedBefore(
      now - this.options.taskRetentionDays * DAY_MS,
    );
    const results =
      (await this.options.stores.tasks.dropResultsDeliveredBefore?.(now - DELIVERED_RESULT_DAYS * DAY_MS)) ??
      0;
    const alerts = await this.options.stores.alerts.purge(now - RESOLVED_INCIDENT_DAYS * DAY_MS);
    const auditEntries =
      (await this.options.stores.audit?.purgeBefore(
        now - (this.options.auditRetentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS) * DAY_MS,
      )) ?? 0;
    const outcome = { tasks, results, incidents: alerts.incidents, mutes: alerts.mutes, auditEntries };
    if (tasks + results + alerts.incidents + auditEntries > 0)
      this.options.logger?.info(outcome, "deleted what the retention period let go");
    return outcome;
  }

  /** Runs now and then every `everyMs` (hourly by default); a failed pass is logged and tried again next time. */
  start(everyMs = 3_600_000): void {
    const pass = () => {
      this.run().catch((error: unknown) => {
        this.options.logger?.warn({ err: error }, "retention pass failed; it runs again later");
      });
    };
    pass();
    this.timer = setInterval(pass, everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
