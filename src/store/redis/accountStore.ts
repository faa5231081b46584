import type { Redis } from "ioredis";
import { z } from "zod";
import {
  CredentialsKeyMissingError,
  decryptSecret,
  encryptSecret,
  type LinkedAccount,
  LinkedAccountUnreadableError,
} from "../accountStore.js";
import type { AccountRepository } from "../repositories.js";
import { LuaScript, RedisStore, type RedisStoreOptions, rangeHashes, storedNumber } from "./lua.js";

/**
 * Linked fleet accounts in Redis, sealed exactly as in SQLite (AES-256-GCM under
 * CREDENTIALS_KEY, the Slack user bound as associated data), so the migration copies the
 * sealed text as it is and never needs the key.
 *
 * Keys (after the prefix):
 *   account:<slackUser>          hash: slackUser, username, secret (sealed), linkedAt
 *   accounts                     zset seq → slackUser: every linked user, in the order linked
 *   accounts:seq                 counter
 *   accounts:of:<username>       set of the Slack users who linked that fleet account
 */

/** A linked account as stored: the password still sealed. */
export interface SealedAccount {
  slackUser: string;
  username: string;
  secret: string;
  linkedAt: number;
}

const accountHashSchema = z.object({
  slackUser: z.string(),
  username: z.string(),
  secret: z.string(),
  linkedAt: storedNumber,
});

/** ARGV: prefix, slackUser, username, secret, linkedAt, '1' to keep an existing row → 1 written, 0 kept. */
const LINK = new LuaScript(`
local p, user, username = ARGV[1], ARGV[2], ARGV[3]
local key = p .. 'account:' .. user
local previous = redis.call('HGET', key, 'username')
if previous and ARGV[6] == '1' then return 0 end
if previous and previous ~= username then redis.call('SREM', p .. 'accounts:of:' .. previous, user) end
redis.call('HSET', key, 'slackUser', user, 'username', username, 'secret', ARGV[4], 'linkedAt', ARGV[5])
redis.call('SADD', p .. 'accounts:of:' .. username, user)
if not redis.call('ZSCORE', p .. 'accounts', user) then
  redis.call('ZADD', p .. 'accounts', redis.call('INCR', p .. 'accounts:seq'), user)
end
return 1
`);

/** ARGV: prefix, slackUser → 1 removed, 0 none. */
const UNLINK = new LuaScript(`
local p, user = ARGV[1], ARGV[2]
local key = p .. 'account:' .. user
local username = redis.call('HGET', key, 'username')
if not username then return 0 end
redis.call('DEL', key)
redis.call('ZREM', p .. 'accounts', user)
redis.call('SREM', p .. 'accounts:of:' .. username, user)
return 1
`);

export class RedisAccountStore extends RedisStore implements AccountRepository {
  private readonly key: Buffer | undefined;

  constructor(redis: Redis, options: RedisStoreOptions & { key: Buffer | undefined }) {
    super(redis, options);
    this.key = options.key;
  }

  get canStore(): boolean {
    return this.key !== undefined;
  }

  private async write(account: SealedAccount, keepExisting: boolean): Promise<boolean> {
    const written = await LINK.run(
      this.redis,
      [],
      [
        this.prefix,
        account.slackUser,
        account.username,
        account.secret,
        String(account.linkedAt),
        keepExisting ? "1" : "0",
      ],
    );
    return written === 1;
  }

  async link(slackUser: string, username: string, password: string): Promise<void> {
    if (!this.key) throw new CredentialsKeyMissingError();
    const secret = encryptSecret(this.key, password, slackUser);
    await this.write({ slackUser, username, secret, linkedAt: this.now() }, false);
  }

  async unlink(slackUser: string): Promise<boolean> {
    return (await UNLINK.run(this.redis, [], [this.prefix, slackUser])) === 1;
  }

  private async sealed(slackUser: string): Promise<SealedAccount | undefined> {
    const hash = await this.redis.hgetall(`${this.prefix}account:${slackUser}`);
    return Object.keys(hash).length === 0 ? undefined : accountHashSchema.parse(hash);
  }

  async get(slackUser: string): Promise<LinkedAccount | undefined> {
    const row = await this.sealed(slackUser);
    if (!row) return undefined;
    if (!this.key) throw new LinkedAccountUnreadableError(row.slackUser, row.username);
    let password: string;
    try {
      password = decryptSecret(this.key, row.secret, row.slackUser);
    } catch {
      throw new LinkedAccountUnreadableError(row.slackUser, row.username);
    }
    return { slackUser: row.slackUser, username: row.username, password, linkedAt: row.linkedAt };
  }

  async unreadable(): Promise<{ slackUser: string; username: string }[]> {
    return (await this.sealedAccounts())
      .filter((row) => {
        if (!this.key) return true;
        try {
          decryptSecret(this.key, row.secret, row.slackUser);
          return false;
        } catch {
          return true;
        }
      })
      .map((row) => ({ slackUser: row.slackUser, username: row.username }));
  }

  async isLinked(username: string): Promise<boolean> {
    return (await this.redis.scard(`${this.prefix}accounts:of:${username}`)) > 0;
  }

  async usernameOf(slackUser: string): Promise<string | undefined> {
    return (await this.redis.hget(`${this.prefix}account:${slackUser}`, "username")) ?? undefined;
  }

  /** Every linked account, password still sealed, in the order linked. */
  async sealedAccounts(): Promise<SealedAccount[]> {
    const hashes = await rangeHashes(this.redis, `${this.prefix}accounts`, `${this.prefix}account:`, {
      member: "raw",
    });
    return hashes.map((hash) => accountHashSchema.parse(hash));
  }

  /** Copies a sealed account as it is (the migration: no key needed). A user already linked here keeps theirs: false. */
  async importSealed(account: SealedAccount): Promise<boolean> {
    return await this.write(account, true);
  }
}
