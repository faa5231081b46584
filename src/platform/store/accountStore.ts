import type { WorkspaceKey } from "../workspaces/workspace.js";
import {
  type AccountRepository,
  assertInstalledWorkspace,
  type LinkedAccount,
  LinkedAccountUnreadableError,
  type UnreadableLink,
} from "./contract/accounts.js";
import type { Synchronous } from "./contract/synchronous.js";
import type { Db } from "./database.js";
import { CredentialsKeyMissingError, decryptSecret, encryptSecret, linkAssociatedData } from "./sealing.js";

interface LinkRow {
  workspace: string;
  slack_user: string;
  username: string;
  secret: string;
  linked_at: number;
}

/**
 * Linked fleet accounts in SQLite (the contract: contract/accounts.ts), passwords sealed with
 * CREDENTIALS_KEY (sealing.ts).
 */
export class SqliteAccountStore implements Synchronous<AccountRepository> {
  /** Compiled once: every command reads the invoking user's account. */
  private readonly statements;

  constructor(
    db: Db,
    private readonly key: Buffer | undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.statements = {
      link: db.prepare(
        `INSERT INTO linked_accounts (workspace, slack_user, username, secret, linked_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (workspace, slack_user) DO UPDATE SET username = excluded.username, secret = excluded.secret, linked_at = excluded.linked_at`,
      ),
      unlink: db.prepare("DELETE FROM linked_accounts WHERE workspace = ? AND slack_user = ?"),
      byUser: db.prepare(
        "SELECT workspace, slack_user, username, secret, linked_at FROM linked_accounts WHERE workspace = ? AND slack_user = ?",
      ),
      all: db.prepare(
        "SELECT workspace, slack_user, username, secret, linked_at FROM linked_accounts ORDER BY rowid",
      ),
      ofUsername: db.prepare(
        `SELECT workspace, slack_user, username, secret, linked_at FROM linked_accounts WHERE username = ?
         ORDER BY linked_at DESC, rowid DESC`,
      ),
      anyOfUsername: db.prepare("SELECT 1 FROM linked_accounts WHERE username = ? LIMIT 1"),
      usernameOf: db.prepare("SELECT username FROM linked_accounts WHERE workspace = ? AND slack_user = ?"),
      deleteWorkspace: db.prepare("DELETE FROM linked_accounts WHERE workspace = ?"),
    };
  }

  get canStore(): boolean {
    return this.key !== undefined;
  }

  link(workspace: WorkspaceKey, slackUser: string, username: string, password: string): void {
    if (!this.key) throw new CredentialsKeyMissingError();
    const secret = encryptSecret(this.key, password, linkAssociatedData(workspace, slackUser));
    this.statements.link.run(workspace, slackUser, username, secret, this.now());
  }

  unlink(workspace: WorkspaceKey, slackUser: string): boolean {
    return this.statements.unlink.run(workspace, slackUser).changes > 0;
  }

  /** The user's linked account in that workspace, or undefined; throws if the key cannot open it (key changed). */
  get(workspace: WorkspaceKey, slackUser: string): LinkedAccount | undefined {
    const row = this.statements.byUser.get(workspace, slackUser) as LinkRow | undefined;
    if (!row) return undefined;
    const password = this.open(row);
    if (password === undefined)
      throw new LinkedAccountUnreadableError(row.slack_user, row.username, row.workspace);
    return {
      workspace: row.workspace,
      slackUser: row.slack_user,
      username: row.username,
      password,
      linkedAt: row.linked_at,
    };
  }

  /**
   * The credentials of a fleet account from any link of it this key can open, in any workspace
   * (the most recently linked first): what an alert sweep of a subscribed account logs in with.
   */
  credentialsOf(username: string): { username: string; password: string } | undefined {
    for (const row of this.statements.ofUsername.all(username) as LinkRow[]) {
      const password = this.open(row);
      if (password !== undefined) return { username: row.username, password };
    }
    return undefined;
  }

  /**
   * Linked users whose password this CREDENTIALS_KEY cannot open (all of them when no key is
   * set): checked once at start so the operator reads one line instead of a stream of failures.
   */
  unreadable(): UnreadableLink[] {
    return (this.statements.all.all() as LinkRow[])
      .filter((row) => this.open(row) === undefined)
      .map((row) => ({ workspace: row.workspace, slackUser: row.slack_user, username: row.username }));
  }

  /** Whether any Slack user, in any workspace, still has this fleet account linked. */
  isLinked(username: string): boolean {
    return this.statements.anyOfUsername.get(username) !== undefined;
  }

  /** Username of the user's link in that workspace, without decrypting anything. */
  usernameOf(workspace: WorkspaceKey, slackUser: string): string | undefined {
    const row = this.statements.usernameOf.get(workspace, slackUser) as { username: string } | undefined;
    return row?.username;
  }

  /**
   * Drops every link of a workspace (it uninstalled fleetbot); how many there were. Idempotent.
   * Refuses "" (single-workspace mode's links are never dropped wholesale).
   */
  deleteWorkspace(workspace: WorkspaceKey): number {
    assertInstalledWorkspace(workspace);
    return this.statements.deleteWorkspace.run(workspace).changes;
  }

  /** The password of a row, or undefined when this key (or no key) cannot open it. */
  private open(row: LinkRow): string | undefined {
    if (!this.key) return undefined;
    try {
      return decryptSecret(this.key, row.secret, linkAssociatedData(row.workspace, row.slack_user));
    } catch {
      return undefined;
    }
  }
}
