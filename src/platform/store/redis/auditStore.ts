import { z } from "zod";
import {
  type AuditEntry,
  type AuditHistory,
  type AuditRepository,
  auditEntrySchema,
} from "../contract/audit.js";
import { binaryCompare, LuaScript, RedisStore, storedJson } from "./lua.js";

/**
 * The audit trail in Redis. One fleet account's history of one UIT is one key pair, read in one
 * script:
 *   audit:<account length>:<account>:<uit>     zset: entry id, score = when
 *   audit:<account length>:<account>:<uit>:e   hash: entry id → the entry as JSON
 *   audit:oldest                               zset: each UIT key, score = its oldest entry
 * so retention visits only the keys holding something older than AUDIT_RETENTION_DAYS.
 */

/** KEYS: the index. ARGV: count, then per entry: its zset key, id, at, JSON. An id already stored is kept as it is. */
const RECORD = new LuaScript(`
local added = 0
local n = tonumber(ARGV[1])
for i = 0, n - 1 do
  local key = ARGV[2 + i * 4]
  local id = ARGV[3 + i * 4]
  local at = ARGV[4 + i * 4]
  if redis.call('HSETNX', key .. ':e', id, ARGV[5 + i * 4]) == 1 then
    redis.call('ZADD', key, at, id)
    redis.call('ZADD', KEYS[1], 'LT', at, key)
    added = added + 1
  end
end
return added
`);

/** KEYS: the UIT's zset and hash. ARGV: how many. Returns the total, then the entries' JSON, newest first. */
const HISTORY = new LuaScript(`
local out = { redis.call('ZCARD', KEYS[1]) }
local limit = tonumber(ARGV[1])
if limit > 0 then
  local ids = redis.call('ZREVRANGE', KEYS[1], 0, limit - 1)
  for _, id in ipairs(ids) do
    local json = redis.call('HGET', KEYS[2], id)
    if json then out[#out + 1] = json end
  end
end
return out
`);

/** KEYS: the index. ARGV: the cut-off (entries strictly older go), how many UIT keys in this pass. Returns entries deleted, keys visited. */
const PURGE = new LuaScript(`
local cutoff = '(' .. ARGV[1]
local keys = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', cutoff, 'LIMIT', 0, tonumber(ARGV[2]))
local deleted = 0
for _, key in ipairs(keys) do
  local ids = redis.call('ZRANGEBYSCORE', key, '-inf', cutoff)
  for _, id in ipairs(ids) do redis.call('HDEL', key .. ':e', id) end
  deleted = deleted + redis.call('ZREMRANGEBYSCORE', key, '-inf', cutoff)
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  if #oldest == 0 then
    redis.call('ZREM', KEYS[1], key)
    redis.call('DEL', key .. ':e')
  else
    redis.call('ZADD', KEYS[1], oldest[2], key)
  end
end
return { deleted, #keys }
`);

const historyReply = z.tuple([z.number()]).rest(z.string());
const purgeReply = z.tuple([z.number(), z.number()]);
const PURGE_KEYS_PER_PASS = 200;

function parseEntry(json: string): AuditEntry {
  return auditEntrySchema.parse(storedJson.parse(json));
}

/** Newest first, ties by id descending: the order of SQLite's `ORDER BY at DESC, id DESC`. */
const newestFirst = (a: AuditEntry, b: AuditEntry) => b.at - a.at || binaryCompare(b.id, a.id);

export class RedisAuditStore extends RedisStore implements AuditRepository {
  private get index(): string {
    return `${this.prefix}audit:oldest`;
  }

  /** The length keeps an account holding ':' from reading as another account's key. */
  private uitKey(account: string, uit: string): string {
    return `${this.prefix}audit:${account.length}:${account}:${uit}`;
  }

  async record(entries: readonly AuditEntry[]): Promise<number> {
    if (entries.length === 0) return 0;
    const args: (string | number)[] = [entries.length];
    for (const entry of entries) {
      const e = auditEntrySchema.parse(entry);
      args.push(this.uitKey(e.account, e.uit), e.id, e.at, JSON.stringify(e));
    }
    return z.number().parse(await RECORD.run(this.redis, [this.index], args));
  }

  async history(account: string, uit: string, limit: number): Promise<AuditHistory> {
    const key = this.uitKey(account, uit);
    const [total, ...jsons] = historyReply.parse(
      await HISTORY.run(this.redis, [key, `${key}:e`], [Math.max(0, Math.floor(limit))]),
    );
    return { entries: jsons.map(parseEntry), total };
  }

  async purgeBefore(instant: number): Promise<number> {
    let deleted = 0;
    // A pass per batch of keys keeps each script short (other clients wait while one runs).
    for (;;) {
      const [removed, visited] = purgeReply.parse(
        await PURGE.run(this.redis, [this.index], [instant, PURGE_KEYS_PER_PASS]),
      );
      deleted += removed;
      if (visited < PURGE_KEYS_PER_PASS) return deleted;
    }
  }

  async all(): Promise<AuditEntry[]> {
    const out: AuditEntry[] = [];
    for (const key of await this.redis.zrange(this.index, 0, -1)) {
      for (const json of Object.values(await this.redis.hgetall(`${key}:e`))) out.push(parseEntry(json));
    }
    return out.sort((a, b) => newestFirst(b, a));
  }
}
