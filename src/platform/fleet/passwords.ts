import { createHmac, randomBytes } from "node:crypto";

/**
 * Which password of each fleet account the service accepted last. A fleet account has one
 * password; once the service accepts a new one (someone linked the account again after changing
 * it), every link still holding another is cut off at once, in every workspace, even while that
 * link's token has not expired: the carrier's lever against a workspace it no longer trusts is to
 * change the password, and it must work within a request, not within the token's hour.
 *
 * Digests only, keyed (an HMAC, never a plain hash a dump could be matched against); the
 * passwords themselves stay with the token managers. With replicas the record lives in Redis
 * (`store/redis/acceptedPasswords.ts`), so a change seen on one replica cuts the others off too.
 */
export interface AcceptedPasswords {
  /** The service accepted `password` for `account` (a login answered with a token) at `atMs`. */
  accepted(account: string, password: string, atMs: number): Promise<void>;
  /**
   * True when this password was the account's accepted one and the service has accepted another
   * since: it is outdated, and no call may be made or answered with it. A password never accepted
   * here (someone offering new credentials, a changed FLEET_PASSWORD) is not superseded: its own
   * login decides.
   */
  superseded(account: string, password: string): Promise<boolean>;
  /** Forgets the account (nobody here uses it any more). */
  forget(account: string): Promise<void>;
}

interface Record {
  current: string;
  atMs: number;
  /** Digests that were current before a newer one was accepted. */
  retired: Set<string>;
}

/** One process: the record is kept in memory, under a key made for this process. */
export class MemoryAcceptedPasswords implements AcceptedPasswords {
  readonly #key = randomBytes(32);
  readonly #records = new Map<string, Record>();

  async accepted(account: string, password: string, atMs: number): Promise<void> {
    const digest = passwordDigest(this.#key, account, password);
    const known = this.#records.get(account);
    if (!known) {
      this.#records.set(account, { current: digest, atMs, retired: new Set() });
      return;
    }
    // A slow login answered after a newer one must not bring an older password back.
    if (known.atMs > atMs) return;
    if (known.current !== digest) known.retired.add(known.current);
    known.retired.delete(digest);
    known.current = digest;
    known.atMs = atMs;
  }

  async superseded(account: string, password: string): Promise<boolean> {
    return this.#records.get(account)?.retired.has(passwordDigest(this.#key, account, password)) ?? false;
  }

  async forget(account: string): Promise<void> {
    this.#records.delete(account);
  }
}

/** The keyed digest of one account's password (the account is bound in, so equal passwords differ). */
export function passwordDigest(key: Buffer, account: string, password: string): string {
  return createHmac("sha256", key).update(account).update("\u0000").update(password).digest("hex");
}
