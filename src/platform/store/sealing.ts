import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { ONLY_WORKSPACE, type WorkspaceKey } from "../workspaces/workspace.js";

/**
 * The sealing of secrets at rest under CREDENTIALS_KEY, shared by both backends (so the
 * migration copies sealed text as it is) and by whoever seals or opens a linked account's
 * password: AES-256-GCM, a random 12-byte IV per value, the full 16-byte tag checked on open,
 * and associated data the caller binds (what the secret belongs to), so a sealed value copied to
 * another record does not open.
 */

/** A secret must be sealed and no CREDENTIALS_KEY is set. */
export class CredentialsKeyMissingError extends Error {
  constructor() {
    super(
      "CREDENTIALS_KEY is not set: fleet passwords cannot be stored. Ask the operator to set it (openssl rand -base64 32).",
    );
    this.name = "CredentialsKeyMissingError";
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
