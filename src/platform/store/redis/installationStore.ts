import type { Installation, InstallationQuery } from "@slack/bolt";
import type { Redis } from "ioredis";
import { z } from "zod";
import {
  candidateKeys,
  describeQuery,
  exactKey,
  InstallationNotFoundError,
  type InstallationRecord,
  type InstallationRef,
  type InstallationRepository,
  type RotatedBotToken,
} from "../contract/installations.js";
import {
  bodyUserOf,
  FetchedMarks,
  isReadable,
  openInstallation,
  recordOf,
  refOf,
  type SealedInstallation,
  sealInstallation,
  withRotatedBotToken,
} from "../installationSealing.js";
import { CredentialsKeyMissingError } from "../sealing.js";
import { LuaScript, RedisStore, type RedisStoreOptions, storedNumber } from "./lua.js";

/**
 * Slack installations in Redis, sealed exactly as in SQLite (installationSealing.ts), each change
 * one Lua script.
 *
 * Keys (after the prefix):
 *   installation:<E:ent|T:team>   hash: key, teamId?, enterpriseId?, isEnterpriseInstall, body, secrets, installedAt, updatedAt,
 *                                 installedBy?, authorizedAt?, authorizedBy? (absent in hashes written before
 *                                 they existed: the first install's, read from installedAt and the body)
 *   installations                 set of every installation key
 */

const hashSchema = z.object({
  key: z.string(),
  teamId: z.string().optional(),
  enterpriseId: z.string().optional(),
  isEnterpriseInstall: z.enum(["0", "1"]),
  body: z.string(),
  secrets: z.string(),
  installedAt: storedNumber,
  updatedAt: storedNumber,
  installedBy: z.string().optional(),
  authorizedAt: storedNumber.optional(),
  authorizedBy: z.string().optional(),
});

function fromHash(hash: Record<string, string>): SealedInstallation {
  const parsed = hashSchema.parse(hash);
  return {
    ...parsed,
    teamId: parsed.teamId,
    enterpriseId: parsed.enterpriseId,
    isEnterpriseInstall: parsed.isEnterpriseInstall === "1",
    installedBy: parsed.installedBy ?? bodyUserOf(parsed.body),
    authorizedAt: parsed.authorizedAt ?? parsed.installedAt,
    authorizedBy: parsed.authorizedBy ?? bodyUserOf(parsed.body),
  };
}

/**
 * ARGV: prefix, key, '1' to keep an existing one, then field/value pairs → 1 written, 0 kept.
 * Without '1' an existing installation is replaced (a re-authorization), keeping who installed it
 * first and when (installedBy of a hash from before it existed: the user in its body).
 */
const STORE = new LuaScript(`
local p, key = ARGV[1], ARGV[2]
local name = p .. 'installation:' .. key
local installedAt = redis.call('HGET', name, 'installedAt')
if ARGV[3] == '1' and installedAt then return 0 end
local installedBy = redis.call('HGET', name, 'installedBy')
if installedAt and not installedBy then
  local ok, body = pcall(cjson.decode, redis.call('HGET', name, 'body') or '')
  if ok and type(body) == 'table' and type(body.user) == 'table' and type(body.user.id) == 'string' then
    installedBy = body.user.id
  end
end
redis.call('DEL', name)
local fields = {}
for i = 4, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', name, unpack(fields))
if installedAt then
  redis.call('HSET', name, 'installedAt', installedAt)
  if installedBy then redis.call('HSET', name, 'installedBy', installedBy) else redis.call('HDEL', name, 'installedBy') end
end
redis.call('SADD', p .. 'installations', key)
return 1
`);

/**
 * ARGV: prefix, key, expected authorizedAt, body, secrets, updatedAt → 1 replaced, 0 not the same
 * authorization (a hash without authorizedAt was authorized at its installedAt).
 */
const REPLACE_IF_SAME = new LuaScript(`
local name = ARGV[1] .. 'installation:' .. ARGV[2]
local authorizedAt = redis.call('HGET', name, 'authorizedAt') or redis.call('HGET', name, 'installedAt')
if authorizedAt ~= ARGV[3] then return 0 end
redis.call('HSET', name, 'body', ARGV[4], 'secrets', ARGV[5], 'updatedAt', ARGV[6])
return 1
`);

/** ARGV: prefix, key, and an event time ('' for none) → 1 deleted, 0 kept (authorized after it) or none. */
const DELETE = new LuaScript(`
local p, key = ARGV[1], ARGV[2]
local name = p .. 'installation:' .. key
local installedAt = redis.call('HGET', name, 'installedAt')
if not installedAt then return 0 end
local authorizedAt = redis.call('HGET', name, 'authorizedAt') or installedAt
if ARGV[3] ~= '' and tonumber(authorizedAt) > tonumber(ARGV[3]) then return 0 end
redis.call('DEL', name)
redis.call('SREM', p .. 'installations', key)
return 1
`);

/**
 * Writes a sealed installation (a fresh install or a re-authorization, or the migration's copy);
 * with `keepExisting`, one already stored under its key stays → whether it was written.
 */
export async function writeSealedInstallation(
  redis: Redis,
  prefix: string,
  s: SealedInstallation,
  keepExisting: boolean,
): Promise<boolean> {
  const fields: string[] = [
    "key",
    s.key,
    "isEnterpriseInstall",
    s.isEnterpriseInstall ? "1" : "0",
    "body",
    s.body,
    "secrets",
    s.secrets,
    "installedAt",
    String(s.installedAt),
    "updatedAt",
    String(s.updatedAt),
    "authorizedAt",
    String(s.authorizedAt),
    ...(s.installedBy !== undefined ? ["installedBy", s.installedBy] : []),
    ...(s.authorizedBy !== undefined ? ["authorizedBy", s.authorizedBy] : []),
    ...(s.teamId !== undefined ? ["teamId", s.teamId] : []),
    ...(s.enterpriseId !== undefined ? ["enterpriseId", s.enterpriseId] : []),
  ];
  return (await STORE.run(redis, [], [prefix, s.key, keepExisting ? "1" : "0", ...fields])) === 1;
}

export class RedisInstallationStore extends RedisStore implements InstallationRepository {
  private readonly key: Buffer | undefined;
  private readonly marks = new FetchedMarks();

  constructor(redis: Redis, options: RedisStoreOptions & { key: Buffer | undefined }) {
    super(redis, options);
    this.key = options.key;
  }

  get canStore(): boolean {
    return this.key !== undefined;
  }

  private async sealedByKey(key: string): Promise<SealedInstallation | undefined> {
    const hash = await this.redis.hgetall(`${this.prefix}installation:${key}`);
    return Object.keys(hash).length === 0 ? undefined : fromHash(hash);
  }

  private async serving(query: InstallationQuery<boolean>): Promise<SealedInstallation | undefined> {
    for (const key of candidateKeys(query)) {
      const found = await this.sealedByKey(key);
      if (found) return found;
    }
    return undefined;
  }

  private async replaceIfSame(sealed: SealedInstallation, expectedInstalledAt: number): Promise<boolean> {
    const replaced = await REPLACE_IF_SAME.run(
      this.redis,
      [],
      [
        this.prefix,
        sealed.key,
        String(expectedInstalledAt),
        sealed.body,
        sealed.secrets,
        String(sealed.updatedAt),
      ],
    );
    return replaced === 1;
  }

  async storeInstallation<AuthVersion extends "v1" | "v2">(
    installation: Installation<AuthVersion, boolean>,
  ): Promise<void> {
    if (!this.key) throw new CredentialsKeyMissingError();
    const now = this.now();
    const origin = this.marks.origin(installation);
    if (origin) {
      // A token refresh of the installation fetched: replace it only if it is still the one stored.
      const sealed = sealInstallation(this.key, installation, {
        installedAt: origin.installedAt,
        installedBy: origin.installedBy,
        authorizedAt: origin.authorizedAt,
        updatedAt: now,
      });
      await this.replaceIfSame(sealed, origin.authorizedAt);
      return;
    }
    const sealed = sealInstallation(this.key, installation, { installedAt: now, updatedAt: now });
    await writeSealedInstallation(this.redis, this.prefix, sealed, false);
  }

  async fetchInstallation(query: InstallationQuery<boolean>): Promise<Installation<"v1" | "v2", boolean>> {
    const sealed = await this.serving(query);
    if (!sealed) throw new InstallationNotFoundError(describeQuery(query));
    const installation = openInstallation(this.key, sealed);
    this.marks.mark(installation, sealed);
    return installation;
  }

  async deleteInstallation(query: InstallationQuery<boolean>): Promise<void> {
    const key = exactKey(query);
    if (key) await DELETE.run(this.redis, [], [this.prefix, key, ""]);
  }

  async installedAt(query: InstallationQuery<boolean>): Promise<number | undefined> {
    return (await this.serving(query))?.installedAt;
  }

  async record(query: InstallationQuery<boolean>): Promise<InstallationRecord | undefined> {
    const sealed = await this.serving(query);
    return sealed ? recordOf(sealed) : undefined;
  }

  private async allSealed(): Promise<SealedInstallation[]> {
    const keys = (await this.redis.smembers(`${this.prefix}installations`)).sort();
    const found: SealedInstallation[] = [];
    for (const key of keys) {
      const sealed = await this.sealedByKey(key);
      if (sealed) found.push(sealed);
    }
    return found;
  }

  async all(): Promise<InstallationRef[]> {
    return (await this.allSealed()).map(refOf);
  }

  async deleteIfInstalledBefore(query: InstallationQuery<boolean>, eventTimeMs: number): Promise<boolean> {
    const key = exactKey(query);
    if (!key) return false;
    return (await DELETE.run(this.redis, [], [this.prefix, key, String(eventTimeMs)])) === 1;
  }

  async updateBotToken(
    key: string,
    tokens: RotatedBotToken,
    options: { authorizedAt?: number } = {},
  ): Promise<boolean> {
    if (!this.key) throw new CredentialsKeyMissingError();
    const sealed = await this.sealedByKey(key);
    if (!sealed || (options.authorizedAt !== undefined && sealed.authorizedAt !== options.authorizedAt))
      return false;
    const rotated = withRotatedBotToken(this.key, sealed, tokens, this.now());
    if (!rotated) return false;
    return await this.replaceIfSame(rotated, sealed.authorizedAt);
  }

  async unreadable(): Promise<InstallationRef[]> {
    return (await this.allSealed()).filter((sealed) => !isReadable(this.key, sealed)).map(refOf);
  }
}
