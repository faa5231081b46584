import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { ONLY_WORKSPACE, WORKSPACE_ACCOUNT_USER, type WorkspaceKey } from "../workspaces/workspace.js";
import type { Db } from "./database.js";

/**
 * Fleet accounts linked by Slack users, one per (workspace, Slack user): a user id means
 * nothing outside its workspace. The service has no documented refresh endpoint,
 * so the password itself must be kept to log in again: it is stored encrypted with
 * AES-256-GCM under CREDENTIALS_KEY (random 12-byte IV per record, auth tag checked on read).
 * Fleet accounts themselves are shared: two workspaces may link the same username.
 */
export interface LinkedAccount {
  workspace: WorkspaceKey;
  slackUser: string;
  username: string;
  password: string;
  linkedAt: number;
}

export class CredentialsKeyMissingError extends Error {
  constructor() {
    super(
      "CREDENTIALS_KEY is not set: fleet passwords cannot be stored. Ask the operator to set it (openssl rand -base64 32).",
    );
    this.name = "CredentialsKeyMissingError";
  }
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

const VERSION = "v1";
const IV_BYTES = 12;
/** The full GCM tag: without pinning it, Node accepts a tag cut to 4 bytes, which a forger can guess. */
const TAG_BYTES = 16;

/**
 * The associated data a linked account's password is sealed with: the link's identity, so a
 * sealed row copied to another user or another workspace fails to open. The one workspace of
 * single-workspace mode ("") keeps the bare Slack user id, as every row written before
 * workspaces existed was sealed, so those rows open without a rewrite; any other workspace
 * binds `<workspace>/<slackUser>` (Slack ids never hold a "/").
 */
export function linkAssociatedData(workspace: WorkspaceKey, slackUser: string): string {
  return workspace === ONLY_WORKSPACE ? slackUser : `${workspace}/${slackUser}`;
}

export function encryptSecret(key: Buffer, plaintext: string, associated: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  // The caller binds what the secret belongs to (linkAssociatedData for a linked account).
  cipher.setAAD(Buffer.from(associated, "utf8"));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [
    VERSION,
    iv.toString("base64"),
    cipher.getAuthTag().toString("base64"),
    body.toString("base64"),
  ].join(":");
}

/** Opens what encryptSecret sealed; throws on a wrong key or associated data, or a malformed value (short IV or tag). */
export function decryptSecret(key: Buffer, sealed: string, associated: string): string {
  const parts = sealed.split(":");
  const [version, ivText, tagText, body] = parts;
  if (parts.length !== 4 || version !== VERSION || !ivText || !tagText || body === undefined)
    throw new Error("Unknown credential format");
  const iv = Buffer.from(ivText, "base64");
  const tag = Buffer.from(tagText, "base64");
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error("Malformed sealed credential");
  const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(associated, "utf8"));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]).toString("utf8");
}

interface LinkRow {
  workspace: string;
  slack_user: string;
  username: string;
  secret: string;
  linked_at: number;
}

export class AccountStore {
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
  unreadable(): { workspace: WorkspaceKey; slackUser: string; username: string }[] {
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

/** deleteWorkspace and adoptWorkspace act on an installed workspace's rows, never on "" wholesale. */
export function assertInstalledWorkspace(workspace: WorkspaceKey): void {
  if (workspace === ONLY_WORKSPACE)
    throw new Error('The single-workspace links (workspace "") are not removed or moved wholesale');
}
