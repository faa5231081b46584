import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { Db } from "./database.js";

/**
 * Fleet accounts linked by Slack users. The service has no documented refresh endpoint,
 * so the password itself must be kept to log in again: it is stored encrypted with
 * AES-256-GCM under CREDENTIALS_KEY (random 12-byte IV per record, auth tag checked on read).
 */
export interface LinkedAccount {
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
 * or removed). Only the user can fix it, by linking again; the message tells them how.
 */
export class LinkedAccountUnreadableError extends Error {
  constructor(
    readonly slackUser: string,
    readonly username: string,
  ) {
    super(
      `Your linked fleet account ${username} can no longer be read: fleetbot's credentials key was changed. ` +
        "Link it again with /fleet login (or /fleet logout to use the workspace account).",
    );
    this.name = "LinkedAccountUnreadableError";
  }
}

const VERSION = "v1";
const IV_BYTES = 12;
/** The full GCM tag: without pinning it, Node accepts a tag cut to 4 bytes, which a forger can guess. */
const TAG_BYTES = 16;

export function encryptSecret(key: Buffer, plaintext: string, associated: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  // The Slack user id is bound as associated data: a row copied to another user fails to decrypt.
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
        `INSERT INTO linked_accounts (slack_user, username, secret, linked_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (slack_user) DO UPDATE SET username = excluded.username, secret = excluded.secret, linked_at = excluded.linked_at`,
      ),
      unlink: db.prepare("DELETE FROM linked_accounts WHERE slack_user = ?"),
      byUser: db.prepare(
        "SELECT slack_user, username, secret, linked_at FROM linked_accounts WHERE slack_user = ?",
      ),
      all: db.prepare("SELECT slack_user, username, secret FROM linked_accounts"),
      anyOfUsername: db.prepare("SELECT 1 FROM linked_accounts WHERE username = ? LIMIT 1"),
      usernameOf: db.prepare("SELECT username FROM linked_accounts WHERE slack_user = ?"),
    };
  }

  get canStore(): boolean {
    return this.key !== undefined;
  }

  link(slackUser: string, username: string, password: string): void {
    if (!this.key) throw new CredentialsKeyMissingError();
    const secret = encryptSecret(this.key, password, slackUser);
    this.statements.link.run(slackUser, username, secret, this.now());
  }

  unlink(slackUser: string): boolean {
    return this.statements.unlink.run(slackUser).changes > 0;
  }

  /** The user's linked account, or undefined; throws if the key cannot open it (key changed). */
  get(slackUser: string): LinkedAccount | undefined {
    const row = this.statements.byUser.get(slackUser) as
      | { slack_user: string; username: string; secret: string; linked_at: number }
      | undefined;
    if (!row) return undefined;
    if (!this.key) throw new LinkedAccountUnreadableError(row.slack_user, row.username);
    let password: string;
    try {
      password = decryptSecret(this.key, row.secret, row.slack_user);
    } catch {
      throw new LinkedAccountUnreadableError(row.slack_user, row.username);
    }
    return { slackUser: row.slack_user, username: row.username, password, linkedAt: row.linked_at };
  }

  /**
   * Linked users whose password this CREDENTIALS_KEY cannot open (all of them when no key is
   * set): checked once at start so the operator reads one line instead of a stream of failures.
   */
  unreadable(): { slackUser: string; username: string }[] {
    const rows = this.statements.all.all() as {
      slack_user: string;
      username: string;
      secret: string;
    }[];
    return rows
      .filter((row) => {
        if (!this.key) return true;
        try {
          decryptSecret(this.key, row.secret, row.slack_user);
          return false;
        } catch {
          return true;
        }
      })
      .map((row) => ({ slackUser: row.slack_user, username: row.username }));
  }

  /** Whether any Slack user still has this fleet account linked. */
  isLinked(username: string): boolean {
    return this.statements.anyOfUsername.get(username) !== undefined;
  }

  /** Username of every linked user, without decrypting anything. */
  usernameOf(slackUser: string): string | undefined {
    const row = this.statements.usernameOf.get(slackUser) as { username: string } | undefined;
    return row?.username;
  }
}
