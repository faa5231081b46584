import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { z } from "zod";
import { checkPositiveInteger, type SharedState, type WindowTake } from "../sharedState.js";
import { LuaScript, RedisStore, type RedisStoreOptions } from "./lua.js";

/**
 * SharedState in Redis, for replicas behind one balancer. Keys, for a prefix P:
 *   P shared:once:<key>     string: remembered until its ttl ends (a repeat may lengthen it)
 *   P shared:mark:<key>     string, SET PX: a mark others wait on, deleted by unmark
 *   P shared:window:<key>   zset of counted uses (score: Redis time in ms), expires with its newest use
 * Windows read the time with Redis `TIME` inside the script, so replicas' clocks never
 * disagree about who is in a window; the ttls are Redis' own expiry.
 */

/**
 * KEYS: the window's zset. ARGV: limit, windowMs, a member unique to this use (the caller's id
 * when it names the use). Returns {1, now} when the use was counted (or was already, under the
 * same member, and is still in the window), {0, retryAt} when the window is full.
 */
const TAKE_IN_WINDOW = new LuaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
-- A use counts while it is younger than the window.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZSCORE', KEYS[1], ARGV[3]) then return {1, now} end
if redis.call('ZCARD', KEYS[1]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, tonumber(oldest[2]) + window}
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return {1, now}
`);

/**
 * KEYS: the key. ARGV: ttl ms. 1 when it was new; else 0, and its ttl is raised to ARGV[1] when
 * shorter (Slack's retry of a request, with a later timestamp, keeps the memory to its own window).
 */
const FIRST_SEEN = new LuaScript(`
if redis.call('SET', KEYS[1], '1', 'PX', ARGV[1], 'NX') then return 1 end
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return 0
`);

const takeReply = z.tuple([z.union([z.literal(0), z.literal(1)]), z.number()]);

export class RedisSharedState extends RedisStore implements SharedState {
  /** `redis`: a client without ioredis' keyPrefix (the prefix is an option here, as for the stores). */
  constructor(redis: Redis, options: Pick<RedisStoreOptions, "prefix"> = {}) {
    super(redis, options);
  }

  async firstSeen(key: string, ttlMs: number): Promise<boolean> {
    checkPositiveInteger("ttlMs", ttlMs);
    const first = await FIRST_SEEN.run(this.redis, [`${this.prefix}shared:once:${key}`], [ttlMs]);
    return first === 1;
  }

  async mark(key: string, ttlMs: number): Promise<void> {
    checkPositiveInteger("ttlMs", ttlMs);
    await this.redis.set(`${this.prefix}shared:mark:${key}`, "1", "PX", ttlMs);
  }

  async unmark(key: string): Promise<void> {
    await this.redis.del(`${this.prefix}shared:mark:${key}`);
  }

  async isMarked(key: string): Promise<boolean> {
    return (await this.redis.exists(`${this.prefix}shared:mark:${key}`)) === 1;
  }

  async forgetWindows(prefix: string): Promise<number> {
    // Glob characters in the prefix are taken literally.
    const pattern = `${this.prefix}shared:window:${prefix.replace(/[*?[\]\\]/g, "\\$&")}*`;
    let cursor = "0";
    let deleted = 0;
    do {
      const [next, keys] = await this.redis.scan(cursor, "MATCH", pattern, "COUNT", 500);
      cursor = next;
      if (keys.length > 0) deleted += await this.redis.del(...keys);
    } while (cursor !== "0");
    return deleted;
  }

  async takeInWindow(key: string, limit: number, windowMs: number, id?: string): Promise<WindowTake> {
    checkPositiveInteger("limit", limit);
    checkPositiveInteger("windowMs", windowMs);
    const [counted, at] = takeReply.parse(
      await TAKE_IN_WINDOW.run(
        this.redis,
        [`${this.prefix}shared:window:${key}`],
        [limit, windowMs, id === undefined ? randomUUID() : `id:${id}`],
      ),
    );
    return counted === 1 ? { ok: true } : { ok: false, retryAt: at };
  }

  async giveBackInWindow(key: string, id: string): Promise<boolean> {
    return (await this.redis.zrem(`${this.prefix}shared:window:${key}`, `id:${id}`)) === 1;
  }
}
