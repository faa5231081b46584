import { hkdfSync } from "node:crypto";
import type { Redis } from "ioredis";
import { type AcceptedPasswords, passwordDigest } from "../../fleet/passwords.js";
import { LuaScript, RedisStore, type RedisStoreOptions } from "./lua.js";

/**
 * Which password of each fleet account the service accepted last, shared by the replicas, so a
 * password change seen on one (a re-link) cuts the outdated links off on all of them. Key, for a
 * prefix P:
 *   P fleet-password:<account>   hash: current (HMAC of the account and password, keyed from
 *                                CREDENTIALS_KEY: the password cannot be recovered from it),
 *                                at (when the service accepted it), and retired:<digest> for each
 *                                password that was current before; kept 30 days after the last login
 */
const KEEP_MS = 30 * 24 * 3_600_000;

/** KEYS: the hash. ARGV: digest, at, keep ms. A login answered after a newer one changes nothing. */
const ACCEPT = new LuaScript(`
local at = tonumber(redis.call('HGET', KEYS[1], 'at') or '0')
if at > tonumber(ARGV[2]) then return 0 end
local current = redis.call('HGET', KEYS[1], 'current')
if current and current ~= ARGV[1] then redis.call('HSET', KEYS[1], 'retired:' .. current, at) end
redis.call('HDEL', KEYS[1], 'retired:' .. ARGV[1])
redis.call('HSET', KEYS[1], 'current', ARGV[1], 'at', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`);

export class RedisAcceptedPasswords extends RedisStore implements AcceptedPasswords {
  private readonly digestKey: Buffer;

  constructor(redis: Redis, credentialsKey: Buffer, options: RedisStoreOptions = {}) {
    super(redis, options);
    // A key of its own, derived from CREDENTIALS_KEY (never the sealing key itself).
    this.digestKey = Buffer.from(
      hkdfSync("sha256", credentialsKey, Buffer.alloc(0), "fleetbot accepted fleet password", 32),
    );
  }

  private keyOf(account: string): string {
    return `${this.prefix}fleet-password:${account}`;
  }

  async accepted(account: string, password: string, atMs: number): Promise<void> {
    const digest = passwordDigest(this.digestKey, account, password);
    await ACCEPT.run(this.redis, [this.keyOf(account)], [digest, Math.floor(atMs), KEEP_MS]);
  }

  async superseded(account: string, password: string): Promise<boolean> {
    const digest = passwordDigest(this.digestKey, account, password);
    return (await this.redis.hexists(this.keyOf(account), `retired:${digest}`)) === 1;
  }

  async forget(account: string): Promise<void> {
    await this.redis.del(this.keyOf(account));
  }
}
