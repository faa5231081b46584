import type { WebClient } from "@slack/web-api";

/**
 * Which workspace a piece of state belongs to. Every stored row that holds Slack ids (a task, a
 * linked account, a subscription, a mute, an alert post) also holds one, because a user, channel
 * or task id means nothing outside its workspace (a Slack Connect channel even has one id in two).
 *
 * - `""` (ONLY_WORKSPACE): the one workspace of single-workspace mode and the sandbox; rows
 *   written before multi-workspace mode existed carry it too, so nothing needs rewriting.
 * - `T:<team>`: a workspace that installed fleetbot through "Add to Slack".
 * - `E:<enterprise>`: an org-wide install on Enterprise Grid; it serves every workspace of the org.
 */
export type WorkspaceKey = string;

export const ONLY_WORKSPACE: WorkspaceKey = "";

/** Which Web API client: answers and lookups (retried by the SDK), or alert posts (see Workspace.client). */
export type ClientKind = "default" | "alerts";

/** The ids Slack puts on a request or an installation. */
export interface WorkspaceIds {
  teamId?: string | null | undefined;
  enterpriseId?: string | null | undefined;
  isEnterpriseInstall?: boolean | undefined;
}

/** The key of an installed workspace (multi-workspace mode); undefined when Slack named none. */
export function workspaceKeyOf(ids: WorkspaceIds): WorkspaceKey | undefined {
  if (ids.isEnterpriseInstall && ids.enterpriseId) return `E:${ids.enterpriseId}`;
  if (ids.teamId) return `T:${ids.teamId}`;
  return undefined;
}

/** The pseudo Slack user a workspace's own fleet account is linked under (`/fleet login workspace`). */
export const WORKSPACE_ACCOUNT_USER = "@workspace";

/**
 * One workspace fleetbot serves, as the parts that act for it see it: its key (which scopes every
 * store read and write), its ids, and its Web API client. Built by the Workspaces registry; never
 * assembled from loose ids elsewhere.
 */
export interface Workspace {
  key: WorkspaceKey;
  teamId?: string;
  enterpriseId?: string;
  /** An org-wide install: one installation serves every workspace of the enterprise. */
  isEnterpriseInstall: boolean;
  /**
   * Who installed fleetbot first (multi-workspace mode): may set a workspace's (`T:`) account and
   * language. Running "Add to Slack" again, by anyone, does not change it.
   */
  installerUserId?: string;
  /**
   * A Web API client with this workspace's bot token, renewed before it expires (token rotation).
   * Rejects with WorkspaceGoneError when the workspace has uninstalled fleetbot. `alerts`: the
   * alert publisher's kind, which hands 429s back at once and never retries (a post must never be
   * repeated; the publisher waits out Retry-After itself).
   */
  client(kind?: ClientKind): Promise<WebClient>;
}

/** The workspace uninstalled fleetbot, or Slack refused its token for good. */
export class WorkspaceGoneError extends Error {
  constructor(readonly key: WorkspaceKey) {
    super(`workspace ${key || "(single)"} is not installed`);
    this.name = "WorkspaceGoneError";
  }
}

/** Web API errors that mean the token is dead for good: handled like an uninstall. */
export const DEAD_TOKEN_ERRORS: ReadonlySet<string> = new Set([
  "invalid_auth",
  "account_inactive",
  "token_revoked",
  "token_expired",
  "not_authed",
]);

/** The Slack error code of a Web API failure (`@slack/web-api` puts it on `data.error`). */
export function slackErrorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const data = (error as { data?: { error?: unknown } }).data;
  return typeof data?.error === "string" ? data.error : undefined;
}
