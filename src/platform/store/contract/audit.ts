import { z } from "zod";

/**
 * The audit trail of transport changes: who (Slack user, fleet account) created, edited,
 * started, paused, ended or removed which transport (UIT), when, and what the fleet service
 * answered. Kept AUDIT_RETENTION_DAYS, far longer than the tasks that made the changes, because a
 * carrier asked by ANAF about a transport needs the record. It holds no secret: the writers put
 * in names, codes and the service's failure texts only. Implemented by SqliteAuditStore
 * (auditStore.ts) and RedisAuditStore (redis/auditStore.ts).
 */

export const AUDIT_ACTIONS = ["create", "update", "start", "pause", "end", "remove"] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** success / failure: the service's answer; unknown: no usable answer (a timeout, a 5xx), the change may or may not be there. */
export const AUDIT_OUTCOMES = ["success", "failure", "unknown"] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** One entry; both stores check what they record against it. */
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

export interface AuditRepository {
  /** Stores the entries at once; ids already stored are left as they are. How many were new. */
  record(entries: readonly AuditEntry[]): Promise<number>;
  /** The account's entries of one UIT, newest first (at most `limit`), and their total. */
  history(account: string, uit: string, limit: number): Promise<AuditHistory>;
  /** Deletes entries older than the instant (AUDIT_RETENTION_DAYS); how many. */
  purgeBefore(instant: number): Promise<number>;
  /** Every entry, oldest first (ties by id): the whole trail, as the migration copies it. */
  all(): Promise<AuditEntry[]>;
}
