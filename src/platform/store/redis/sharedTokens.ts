import { createHash, createHmac, hkdfSync } from "node:crypto";
import type { Redis } from "ioredis";
import { z } from "zod";
import type { SharedToken, SharedTokens } from "../../fleet/tokens.js";
import { decryptSecret, encryptSecret } from "../sealing.js";
import { LuaScript, RedisStore, type RedisStoreOptions } from "./lua.js";

/**
 * Each fleet account's access token, shared by the replicas. Key, for a prefix P:
 *   P fleet-token:<account>   hash: sealed (the token, AES-256-GCM with CREDENTIALS_KEY; bound
 *                             as associated data: the account and a keyed digest of the password
 *                             it was obtained with), digest (SHA-256 of the token, for the
 *                             compare-and-drop), obtained_at, expires_in, scope;
 *                             it expires with the token.
 * A token authorises every call of the account, so it is kept sealed like the passwords: Redis
 * alone (a dump, a replica of it) does not hand it out. Binding the password means a session
 * still built with an old password (a password changed to revoke access) cannot open the token
 * a session with the current one obtained: it must log in, and the service refuses it. The
 * password's digest is only in the associated data, never stored.
 */

/** KEYS: the token's hash. ARGV: the digest of the refused token. Drops it only when it is still that one. */
const DROP_IF_SAME = new LuaScript(`
if redis.call('HGET', KEYS[1], 'digest') == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`);

const storedToken = z.object({
  sealed: z.string(),
  obtained_at: z.coerce.number(),
  expires_in: z.coerce.number(),
  scope: z.string().optional(),
});

const digestOf = (value: string) => createHash("sha256").update(value).digest("hex");

/** A key of its own for the password digests, derived from CREDENTIALS_KEY (never the sealing key itself). */
function passwordBindingKey(credentialsKey: Buffer): Buffer {
  return Buffer.from(
    hkdfSync("sha256", credentialsKey, Buffer.alloc(0), "fleetbot fleet-token password binding", 32),
  );
}

export class RedisSharedTokens extends RedisStore implements SharedTokens {
  private readonly bindingKey: Buffer;

  constructor(
    redis: Redis,
    private readonly key: Buffer,
    options: RedisStoreOptions = {},
  ) {
    super(redis, options);
    this.bindingKey = passwordBindingKey(key);
  }

  private keyOf(account: string): string {
    return `${this.prefix}fleet-token:${account}`;
  }

  /** The account and a keyed digest (HMAC) of the password: a token opens only for the same credentials. */
  private associated(account: string, password: string): string {
    const binding = createHmac("sha256", this.bindingKey).update(password, "utf8").digest("base64");
    return `fleet-token:${account}:${binding}`;
  }

  async load(account: string, password: string): Promise<SharedToken | undefined> {
    const parsed = storedToken.safeParse(await this.redis.hgetall(this.keyOf(account)));
    if (!parsed.success) return undefined;
    let value: string;
    try {
      value = decryptSecret(this.key, parsed.data.sealed, this.associated(account, password));
    } catch {
      // Obtained with another password (this session's is outdated, or newer), or sealed with
      // another CREDENTIALS_KEY (a replica not yet restarted with the new one): log in.
      return undefined;
    }
    return {
      value,
      obtainedAtMs: parsed.data.obtained_at,
      expiresInSeconds: parsed.data.expires_in,
      ...(parsed.data.scope ? { scope: parsed.data.scope } : {}),
    };
  }

  async save(account: string, password: string, token: SharedToken): Promise<void> {
    const lifeMs = Math.floor(token.obtainedAtMs + token.expiresInSeconds * 1000 - this.now());
    if (lifeMs <= 0) return;
    const key = this.keyOf(account);
    await this.redis
      .multi()
      .del(key)
      .hset(key, {
        sealed: encryptSecret(this.key, token.value, this.associated(account, password)),
        digest: digestOf(token.value),
        obtained_at: String(token.obtainedAtMs),
        expires_in: String(token.expiresInSeconds),
        ...(token.scope ? { scope: token.scope } : {}),
      })
      .pexpire(key, lifeMs)
      .exec();
  }

  async drop(account: string, value: string): Promise<void> {
    await DROP_IF_SAME.run(this.redis, [this.keyOf(account)], [digestOf(value)]);
  }

  async forget(account: string): Promise<void> {
    await this.redis.del(this.keyOf(account));
  }
}
