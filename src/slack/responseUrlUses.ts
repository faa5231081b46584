import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

/**
 * Slack accepts five uses of a response_url. With one process the count kept on the task is
 * enough; with several replicas a progress update on one and a cancel notice on another could
 * both read "3 used" and spend the answer's use, so the Redis mode counts uses atomically.
 */
export interface ResponseUrlUses {
  /** Takes one use of the URL when fewer than `limit` were taken; false when none is left. */
  take(url: string, limit: number): Promise<boolean>;
}

/** INCR with expiry in one script; a use over the limit is given back at once. */
const TAKE = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if n > tonumber(ARGV[1]) then
  redis.call('DECR', KEYS[1])
  return 0
end
return 1`;

export class RedisResponseUrlUses implements ResponseUrlUses {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** Slack's URLs live 30 minutes; the count outlives them a little. */
    private readonly ttlMs = 31 * 60_000,
  ) {}

  async take(url: string, limit: number): Promise<boolean> {
    // The URL is a credential of sorts: only its hash is kept.
    const key = `${this.prefix}response-url:${createHash("sha256").update(url).digest("hex")}`;
    const taken = await this.redis.eval(TAKE, 1, key, String(limit), String(this.ttlMs));
    return taken === 1;
  }
}
