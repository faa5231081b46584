import type { Redis } from "ioredis";
import { z } from "zod";
import { ONLY_WORKSPACE, type WorkspaceKey } from "../../workspaces/workspace.js";
import {
  type AccountRepository,
  assertInstalledWorkspace,
  type LinkedAccount,
  LinkedAccountUnreadableError,
  type UnreadableLink,
} from "../contract/accounts.js";
import { CredentialsKeyMissingError, decryptSecret, encryptSecret, linkAssociatedData } from "../sealing.js";
import { LuaScript, RedisStore, type RedisStoreOptions, rangeHashes, storedNumber } from "./lua.js";

/**
 * Linked fleet accounts in Redis, sealed exactly as in SQLite (AES-256-GCM under
 * CREDENTIALS_KEY, the link's identity bound as associated data: linkAssociatedData), so the
 * migration copies the sealed text as it is and never needs the key.
 *
 * A link is named by its id: the Slack user in the single workspace ("", so the keys written
 * before workspaces existed stay as they are), else `<workspace>/<slackUser>`.
 *
 * Keys (after the prefix):
 *   account:<id>                 hash: workspace, slackUser, username, secret (sealed), linkedAt
 *                                (no workspace field: written before workspaces, so "")
 *   accounts                     zset seq → id: every link, in the order linked
 *   accounts:seq                 counter
 *   accounts:of:<username>       set of the ids of the links to that fleet account (any workspace)
 *   accounts:in:<workspace>      set of the ids of an installed workspace's links (not kept for "")
 */

/** A linked account as stored: the password still sealed. */
export interface SealedAccount {
  workspace: WorkspaceKey;
  slackUser: string;
  username: string;
  secret: string;
  linkedAt: number;
}

const accountHashSchema = z.object({
  workspace: z.string().default(ONLY_WORKSPACE),
  slackUser: z.string(),
  username: z.string(),
  secret: z.string(),
  linkedAt: storedNumber,
});

/** The id a link is kept under (the same text as its associated data, by construction). */
export function linkId(workspace: WorkspaceKey, slackUser: string): string {
  return workspace === ONLY_WORKSPACE ? slackUser : `${workspace}/${slackUser}`;
}

/**
 * ARGV: prefix, id, username, secret, linkedAt, '1' to keep an existing row, workspace, slackUser
 * → 1 written, 0 kept.
 */
const LINK = new LuaScript(`
local p, id, username, workspace = ARGV[1], ARGV[2], ARGV[3], ARGV[7]
local key = p .. 'account:' .. id
local previous = redis.call('HGET', key, 'username')
if previous and ARGV[6] == '1' then return 0 end
if previous and previous ~= username then redis.call('SREM', p .. 'accounts:of:' .. previous, id) end
redis.call('HSET', key, 'workspace', workspace, 'slackUser', ARGV[8], 'username', username,
  'secret', ARGV[4], 'linkedAt', ARGV[5])
redis.call('SADD', p .. 'accounts:of:' .. username, id)
if workspace ~= '' then redis.call('SADD', p .. 'accounts:in:' .. workspace, id) end
if not redis.call('ZSCORE', p .. 'accounts', id) then
  redis.call('ZADD', p .. 'accounts', redis.call('INCR', p .. 'accounts:seq'), id)
end
return 1
`);

/** ARGV: prefix, id, workspace → 1 removed, 0 none. */
const UNLINK = new LuaScript(`
local p, id, workspace = ARGV[1], ARGV[2], ARGV[3]
local key = p .. 'account:' .. id
local username = redis.call('HGET', key, 'username')
if not username then return 0 end
redis.call('DEL', key)
redis.call('ZREM', p .. 'accounts', id)
redis.call('SREM', p .. 'accounts:of:' .. username, id)
if workspace ~= '' then redis.call('SREM', p .. 'accounts:in:' .. workspace, id) end
return 1
`);

/** ARGV: prefix, workspace (never '') → how many links were removed. */
const DELETE_WORKSPACE = new LuaScript(`
local p, workspace = ARGV[1], ARGV[2]
local index = p .. 'accounts:in:' .. workspace
local removed = 0
for _, id in ipairs(redis.call('SMEMBERS', index)) do
  local key = p .. 'account:' .. id
  local username = redis.call('HGET', key, 'username')
  if username then
    redis.call('DEL', key)
    redis.call('ZREM', p .. 'accounts', id)
    redis.call('SREM', p .. 'accounts:of:' .. username, id)
    removed = removed + 1
  end
end
redis.call('DEL', index)
return removed
`);

/**
 * Writes a sealed link as it is (a user's link, or the migration's copy); with `keepExisting`, a
 * link already stored for that user stays → whether it was written.
 */
export async function writeSealedAccount(
  redis: Redis,
  prefix: string,
  account: SealedAccount,
  keepExisting: boolean,
): Promise<boolean> {
  const written = await LINK.run(
    redis,
    [],
    [
      prefix,
      linkId(account.workspace, account.slackUser),
      account.username,
      account.secret,
      String(account.linkedAt),
      keepExisting ? "1" : "0",
      account.workspace,
      account.slackUser,
    ],
  );
  return written === 1;
}

/** Every linked account, password still sealed, in the order linked. */
export async function readSealedAccounts(redis: Redis, prefix: string): Promise<SealedAccount[]> {
  const hashes = await rangeHashes(redis, `${prefix}accounts`, `${prefix}account:`, { member: "raw" });
  return hashes.map((hash) => accountHashSchema.parse(hash));
}

export class RedisAccountStore extends RedisStore implements AccountRepository {
  private readonly key: Buffer | undefined;

  constructor(redis: Redis, options: RedisStoreOptions & { key: Buffer | undefined }) {
    super(redis, options);
    this.key = options.key;
  }

  get canStore(): boolean {
    return this.key !== undefined;
  }

  async link(workspace: WorkspaceKey, slackUser: string, username: string, password: string): Promise<void> {
    if (!this.key) throw new CredentialsKeyMissingError();
    const secret = encryptSecret(this.key, password, linkAssociatedData(workspace, slackUser));
    await writeSealedAccount(
      this.redis,
      this.prefix,
      { workspace, slackUser, username, secret, linkedAt: this.now() },
      false,
    );
  }

  async unlink(workspace: WorkspaceKey, slackUser: string): Promise<boolean> {
    return (await UNLINK.run(this.redis, [], [this.prefix, linkId(workspace, slackUser), workspace])) === 1;
  }

  private async sealed(id: string): Promise<SealedAccount | undefined> {
    const hash = await this.redis.hgetall(`${this.prefix}account:${id}`);
    return Object.keys(hash).length === 0 ? undefined : accountHashSchema.parse(hash);
  }

  /** The password of a row, or undefined when this key (or no key) cannot open it. */
  private open(row: SealedAccount): string | undefined {
    if (!this.key) return undefined;
    try {
      return decryptSecret(this.key, row.secret, linkAssociatedData(row.workspace, row.slackUser));
    } catch {
      return undefined;
    }
  }

  async get(workspace: WorkspaceKey, slackUser: string): Promise<LinkedAccount | undefined> {
    const row = await this.sealed(linkId(workspace, slackUser));
    if (!row) return undefined;
    const password = this.open(row);
    if (password === undefined)
      throw new LinkedAccountUnreadableError(row.slackUser, row.username, row.workspace);
    return {
      workspace: row.workspace,
      slackUser: row.slackUser,
      username: row.username,
      password,
      linkedAt: row.linkedAt,
    };
  }

  async credentialsOf(username: string): Promise<{ username: string; password: string } | undefined> {
    const ids = await this.redis.smembers(`${this.prefix}accounts:of:${username}`);
    const rows = (await Promise.all(ids.map((id) => this.sealed(id))))
      .filter((row): row is SealedAccount => row !== undefined && row.username === username)
      // The most recently linked first, as in SQLite.
      .sort((a, b) => b.linkedAt - a.linkedAt);
    for (const row of rows) {
      const password = this.open(row);
      if (password !== undefined) return { username: row.username, password };
    }
    return undefined;
  }

  async unreadable(): Promise<UnreadableLink[]> {
    return (await readSealedAccounts(this.redis, this.prefix))
      .filter((row) => this.open(row) === undefined)
      .map((row) => ({ workspace: row.workspace, slackUser: row.slackUser, username: row.username }));
  }

  async isLinked(username: string): Promise<boolean> {
    return (await this.redis.scard(`${this.prefix}accounts:of:${username}`)) > 0;
  }

  async usernameOf(workspace: WorkspaceKey, slackUser: string): Promise<string | undefined> {
    return (
      (await this.redis.hget(`${this.prefix}account:${linkId(workspace, slackUser)}`, "username")) ??
      undefined
    );
  }

  async deleteWorkspace(workspace: WorkspaceKey): Promise<number> {
    assertInstalledWorkspace(workspace);
    return Number(await DELETE_WORKSPACE.run(this.redis, [], [this.prefix, workspace]));
  }
}
