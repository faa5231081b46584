import { ONLY_WORKSPACE, WORKSPACE_ACCOUNT_USER, type WorkspaceKey } from "../../workspaces/workspace.js";

export { CredentialsKeyMissingError } from "../sealing.js";

/**
 * Fleet accounts linked by Slack users, one per (workspace, Slack user): a user id means
 * nothing outside its workspace. The service has no documented refresh endpoint, so the password
 * itself is kept to log in again, sealed under CREDENTIALS_KEY (src/platform/store/sealing.ts). Fleet
 * accounts themselves are shared: two workspaces may link the same username. Implemented by
 * SqliteAccountStore (accountStore.ts) and RedisAccountStore (redis/accountStore.ts).
 */

/** A linked account, its password opened. */
export interface LinkedAccount {
  workspace: WorkspaceKey;
  slackUser: string;
  username: string;
  password: string;
  linkedAt: number;
}

/** A link whose password this CREDENTIALS_KEY cannot open. */
export interface UnreadableLink {
  workspace: WorkspaceKey;
  slackUser: string;
  username: string;
}

export interface AccountRepository {
  /** Whether passwords can be sealed (a CREDENTIALS_KEY is set). */
  readonly canStore: boolean;
  /** Links (or re-links) the user's fleet account in that workspace; throws CredentialsKeyMissingError without a key. */
  link(workspace: WorkspaceKey, slackUser: string, username: string, password: string): Promise<void>;
  /** Drops the user's link in that workspace; whether there was one. */
  unlink(workspace: WorkspaceKey, slackUser: string): Promise<boolean>;
  /** The user's linked account in that workspace; throws LinkedAccountUnreadableError when the key cannot open it. */
  get(workspace: WorkspaceKey, slackUser: string): Promise<LinkedAccount | undefined>;
  /**
   * The credentials of a fleet account from any link of it this key can open, in any workspace,
   * the most recently linked first (what an alert sweep of a subscribed account logs in with).
   */
  credentialsOf(username: string): Promise<{ username: string; password: string } | undefined>;
  /** Links this key cannot open (all of them without a key): told once at start. */
  unreadable(): Promise<UnreadableLink[]>;
  /** Whether any Slack user, in any workspace, still has this fleet account linked. */
  isLinked(username: string): Promise<boolean>;
  /** The username of the user's link in that workspace, nothing opened. */
  usernameOf(workspace: WorkspaceKey, slackUser: string): Promise<string | undefined>;
  /** Drops every link of an uninstalled workspace; how many. Refuses the single workspace (""). */
  deleteWorkspace(workspace: WorkspaceKey): Promise<number>;
}

/**
 * A linked account whose stored password this CREDENTIALS_KEY cannot open (the key was changed
 * or removed). Only the user can fix it, by linking again (the `credentials` failure tells them how).
 */
export class LinkedAccountUnreadableError extends Error {
  constructor(
    readonly slackUser: string,
    readonly username: string,
    readonly workspace: WorkspaceKey = ONLY_WORKSPACE,
  ) {
    // For the operator's log; the user reads the `credentials` failure in their language.
    super(
      `linked fleet account ${username} of ${slackUser === WORKSPACE_ACCOUNT_USER ? "the workspace" : slackUser} cannot be opened with this CREDENTIALS_KEY: it must be linked again`,
    );
    this.name = "LinkedAccountUnreadableError";
  }
}

/** deleteWorkspace and adoptWorkspace act on an installed workspace's rows, never on "" wholesale. */
export function assertInstalledWorkspace(workspace: WorkspaceKey): void {
  if (workspace === ONLY_WORKSPACE)
    throw new Error('The single-workspace links (workspace "") are not removed or moved wholesale');
}
