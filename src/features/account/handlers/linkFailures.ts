import { createHash } from "node:crypto";
import type { SharedState, WindowTake } from "../../../platform/store/sharedState.js";
import type { WorkspaceKey } from "../../../platform/workspaces/workspace.js";

export interface WindowLimit {
  limit: number;
  windowMs: number;
}

export interface LinkFailureLimits {
  /** Failed link logins per fleet user name, whoever tried, in every workspace together. */
  perAccount: WindowLimit;
  /** Failed link logins per fleet user name from one workspace. */
  perWorkspace: WindowLimit;
}

/**
 * Why these numbers. Every link attempt is a real login, made as the named account through that
 * account's gate; the account may belong to another workspace's carrier.
 * - Across all workspaces, 5 failures per 15 minutes. Someone who mistypes needs one to three
 *   tries (and each Slack user gets 3 per 10 minutes anyway); 5 failed logins in 15 minutes are at
 *   most 5 of the account's 30 slots then (one per 30 s), taken only when the account has nothing
 *   of its own waiting (the login runs at background priority), and they stay below the failure
 *   counts at which login services usually lock an account, so strangers cannot lock the carrier
 *   out upstream.
 * - From one workspace, 10 failures per day. The cap above is shared, so one workspace could keep
 *   an account's cap full, and its real users unable to link, for ever; with this one a workspace
 *   holds it for at most two windows a day. It is not forgotten when the workspace uninstalls
 *   fleetbot, or reinstalling would reset it (its keys hold no Slack id and expire within the day).
 */
export const LINK_FAILURE_LIMITS: LinkFailureLimits = {
  perAccount: { limit: 5, windowMs: 15 * 60_000 },
  perWorkspace: { limit: 10, windowMs: 24 * 60 * 60_000 },
};

/**
 * Failed link attempts per fleet user name, counted in a SharedState (this process' memory, or
 * Redis for replicas: every replica sees one count). An attempt takes its place in both windows
 * before its login is sent (so a burst cannot send more logins than the cap while the first are
 * still waiting) and gives it back when the login succeeds or never got the service's verdict:
 * only a refused password stays counted.
 */
export class LinkFailures {
  constructor(
    private readonly counted: SharedState,
    readonly limits: LinkFailureLimits = LINK_FAILURE_LIMITS,
  ) {}

  /**
   * Counts the attempt `attemptId` (the task's id: a retried run counts once) as a failure until
   * told otherwise; or says when the next one is allowed, and then no login may be sent.
   */
  async reserve(workspace: WorkspaceKey, username: string, attemptId: string): Promise<WindowTake> {
    const keys = this.keysOf(workspace, username);
    const { perWorkspace, perAccount } = this.limits;
    const own = await this.counted.takeInWindow(
      keys.workspace,
      perWorkspace.limit,
      perWorkspace.windowMs,
      attemptId,
    );
    if (!own.ok) return own;
    const all = await this.counted.takeInWindow(
      keys.account,
      perAccount.limit,
      perAccount.windowMs,
      attemptId,
    );
    if (!all.ok) await this.counted.giveBackInWindow(keys.workspace, attemptId);
    return all;
  }

  /** The attempt was not a wrong password (it linked, or the service never judged it). */
  async giveBack(workspace: WorkspaceKey, username: string, attemptId: string): Promise<void> {
    const keys = this.keysOf(workspace, username);
    await Promise.all([
      this.counted.giveBackInWindow(keys.account, attemptId),
      this.counted.giveBackInWindow(keys.workspace, attemptId),
    ]);
  }

  /**
   * The user name as the keys hold it: folded to lower case (a service that ignores case must not
   * get a cap per spelling; one that does not only gets a stricter cap) and hashed with the
   * workspace, so the counters hold neither a user name nor a Slack id.
   */
  private keysOf(workspace: WorkspaceKey, username: string) {
    const name = username.trim().toLowerCase();
    return {
      account: `link-failures:account:${digest(name)}`,
      workspace: `link-failures:workspace:${digest(`${workspace}\n${name}`)}`,
    };
  }
}

function digest(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 32);
}
