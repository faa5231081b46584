import type { TransportView } from "../../platform/store/contract/transportView.js";
import type { WorkspaceKey } from "../../platform/workspaces/workspace.js";
import type { IncidentRecord } from "./incidents.js";

/**
 * Where an alert goes: a channel of one workspace (a Slack Connect channel has one id in two
 * workspaces, and each workspace has its own bot token). The subscription's, or the stored
 * post's or group's.
 */
export interface AlertTarget {
  workspace: WorkspaceKey;
  channel: string;
}

/** The key of a target in maps and sets (a channel id alone names nothing across workspaces). */
export const targetKey = (target: AlertTarget): string => `${target.workspace}\u0000${target.channel}`;

/**
 * Where alerts go. The poller stores incident changes first, then calls these; a failure
 * (thrown AlertPublishError or any error) is recorded and the step is retried on the next
 * poll. Each step is recorded when it succeeds, so none is repeated.
 */
export interface AlertPublisher {
  /** Posts the alert of an open incident; returns the message ts. */
  post(target: AlertTarget, incident: IncidentRecord): Promise<{ ts: string }>;
  /** Edits the posted alert to its resolved version (no buttons). */
  markResolved(target: AlertTarget, ts: string, incident: IncidentRecord): Promise<void>;
  /** Replies in the alert's thread: when it was resolved and how long it lasted. */
  replyResolved(target: AlertTarget, threadTs: string, incident: IncidentRecord): Promise<{ ts: string }>;
  /** Posts the daily digest of one channel (optional: without it there is no digest). */
  postDigest?(target: AlertTarget, digest: AlertDigest): Promise<{ ts: string }>;
  /**
   * Grouped alerts (optional: without them every incident is its own alert). A storm of
   * incidents in one channel is one message listing them all (postGroup), edited as members
   * join or resolve (updateGroup); each member's alert with its buttons is a reply in its thread
   * (postInThread).
   */
  postGroup?(target: AlertTarget, group: AlertGroupView): Promise<{ ts: string }>;
  updateGroup?(target: AlertTarget, ts: string, group: AlertGroupView): Promise<void>;
  postInThread?(target: AlertTarget, threadTs: string, incident: IncidentRecord): Promise<{ ts: string }>;
  /**
   * Once per subscription whose link stopped working (the fleet password changed, or its login is
   * refused): a notice in the channel that its alerts are paused, and to the subscriber (if any) a
   * direct message saying to link the account again (optional: without it the channel is silent).
   */
  postPaused?(target: AlertTarget, notice: AlertsPausedNotice): Promise<void>;
}

/** Why a channel gets no alerts of an account until its subscriber links the account again. */
export interface AlertsPausedNotice {
  account: string;
  /** The Slack user whose link the subscription uses; undefined for the workspace's own account. */
  subscriber?: string;
}

/** A grouped alert as the publisher renders it: its members with their current state, in order. */
export interface AlertGroupView {
  id: string;
  incidents: readonly IncidentRecord[];
}

/** What the daily digest of one channel says; the publisher decides how it looks. */
export interface AlertDigest {
  account: string;
  /** Open incidents the channel wants. */
  incidents: readonly IncidentRecord[];
  /** Transports of the sweep the channel wants, by status id. */
  countsByStatus: Readonly<Record<number, number>>;
  /** Transports whose UIT validity ends within a day, soonest first. */
  expiring: readonly TransportView[];
  nowMs: number;
}

/** Kinds of publish failure the poller treats differently. */
export type AlertPublishFailure =
  /** Slack asked to slow down: nothing more is sent in this run; retried on the next. */
  | "ratelimited"
  /** The bot cannot post there (private channel without invitation, archived, unknown). */
  | "channel"
  /** The alert message no longer exists (deleted): its resolution is given up. */
  | "message_gone"
  /** Anything else (network, server): retried on the next run. */
  | "other";

/**
 * What is stored as a post's last error (`/fleet alerts list` shows it, in the reader's
 * language): a code, never words. `<failure>` or `<failure>:<Slack error code>`, e.g.
 * "channel:not_in_channel", "ratelimited", "other:invalid_blocks", "other". The words (and a
 * network error's own message) go to the log.
 */
export function storedFailure(error: unknown): string {
  if (!(error instanceof AlertPublishError)) return "other";
  const code = error.code?.replace(/[^A-Za-z0-9_.-]/g, "").slice(0, 60);
  return code && error.failure !== "ratelimited" && error.failure !== "message_gone"
    ? `${error.failure}:${code}`
    : error.failure;
}

export class AlertPublishError extends Error {
  constructor(
    readonly failure: AlertPublishFailure,
    /** What is stored as the post's last_error: says what to do. */
    message: string,
    /** Slack's error code when there is one. */
    readonly code?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "AlertPublishError";
  }
}
