import {
  ApplicationFailureError,
  BadRequestError,
  describeFailureReasons,
  type FailureReason,
  isFleetError,
  isUpstreamTransportError,
  UnauthorizedError,
} from "../fleet/errors.js";
import { CallCancelledError } from "../gate/gate.js";
import type { AuditAction, AuditEntry, AuditOutcome } from "../store/contract/index.js";
import type { TaskRecord } from "./task.js";

/**
 * What a state-changing call says for the audit trail: which transports it acts on and how to
 * read the service's answer per UIT. Every `ctx.mutation` carries one, so the runner records the
 * outcome of each call where it is known, and no handler can leave a change out.
 */
export interface MutationAudit<T> {
  action: AuditAction;
  /** The transports the call acts on, by UIT (a create: the new UIT). */
  uits: readonly string[];
  /** Each UIT's outcome in the service's answer. */
  outcomes(answer: T): UitOutcome[];
}

export interface UitOutcome {
  uit: string;
  outcome: Exclude<AuditOutcome, "unknown">;
  code?: string;
  message?: string;
}

/** The outcome of a call that threw, for every UIT it named; undefined when the call never left fleetbot. */
export type ErrorOutcome = { outcome: AuditOutcome; code?: string; message?: string };

/** Said of a change a resumed task found already made (the answer to the first send was lost). */
export const FOUND_AFTER_INTERRUPTION = "found made when the task resumed after an interruption";

/** The service's own failure reasons, on the errors that carry them. */
const reasonsOf = (error: unknown): FailureReason[] =>
  error instanceof ApplicationFailureError ||
  error instanceof BadRequestError ||
  error instanceof UnauthorizedError
    ? error.failureReasons
    : [];

/**
 * How a thrown call reads in the audit trail. A refusal of the service (its failure codes, a 400,
 * a 401, a 429) is a failure; no usable answer (timeout, connection, 5xx, an answer fleetbot
 * cannot read) leaves the change unknown; a call the gate dropped before sending, or a request
 * rule that stopped it, reached nobody and is not an attempt.
 */
export function outcomeOfError(error: unknown): ErrorOutcome | undefined {
  if (error instanceof CallCancelledError) return undefined;
  if (!isFleetError(error))
    return { outcome: "unknown", code: error instanceof Error ? error.name : "error" };
  const status = error.status === undefined ? undefined : `HTTP ${error.status}`;
  const correlation = error.correlationId ? `correlation id ${error.correlationId}` : undefined;
  if (error.kind === "rule") return undefined;
  if (isUpstreamTransportError(error))
    return { outcome: "unknown", code: error.failure === "http" ? (status ?? "http") : error.failure };
  const reasons = reasonsOf(error);
  const message = [describeFailureReasons(reasons), correlation].filter((part) => part).join("; ");
  return {
    outcome: "failure",
    code: reasons[0]?.errorCode ?? status ?? error.kind,
    ...(message ? { message } : {}),
  };
}

/** Entries of one call's outcome: one per UIT, as the task's Slack user and fleet account. */
export function auditEntries(
  task: Pick<TaskRecord, "id" | "account" | "slackUser">,
  action: AuditAction,
  outcomes: readonly (UitOutcome | ({ uit: string } & ErrorOutcome))[],
  at: number,
): AuditEntry[] {
  return outcomes.map((o) => ({
    // A definite answer has one entry per task, action and UIT (a resumed task recording it again
    // changes nothing); each attempt whose outcome is unknown is an entry of its own.
    id: `${task.id}:${action}:${o.uit}${o.outcome === "unknown" ? `:${at}` : ""}`,
    at,
    account: task.account,
    ...(task.slackUser ? { slackUser: task.slackUser } : {}),
    uit: o.uit,
    action,
    outcome: o.outcome,
    ...(o.code ? { code: o.code } : {}),
    ...(o.message ? { message: o.message } : {}),
    taskId: task.id,
  }));
}

/** Every UIT of the call with the same answer (a boolean answer covers all of them). */
export function sameForAll(uits: readonly string[], success: boolean, failure: string): UitOutcome[] {
  return uits.map((uit) =>
    success ? { uit, outcome: "success" } : { uit, outcome: "failure", message: failure },
  );
}
