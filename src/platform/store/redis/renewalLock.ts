import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { RenewalLock } from "../../workspaces/registry.js";
import type { WorkspaceKey } from "../../workspaces/workspace.js";

/** KEYS: lock. ARGV: token → 1 released, 0 not ours (it lapsed and another holder took it). */
const RELEASE_IF_OURS =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";

/**
 * One token renewal per workspace across replicas (SET NX PX, a random token per holder). Slack
 * rotates the refresh token on every renewal: two replicas renewing at once would each get an
 * answer, and the one stored last may be the token Slack already retired (node-slack-sdk #2504).
 * A waiter polls until the holder is done, then reads the installation again (registry.ts).
 */
export class RedisRenewalLock implements RenewalLock {
  constructor(
    private readonly redis: Redis,
    private readonly options: { prefix: string; lockMs?: number; waitMs?: number; pollMs?: number },
  ) {}

  async run<T>(key: WorkspaceKey, work: () => Promise<T>): Promise<T> {
    const lockKey = `${this.options.prefix}token-renewal:${key}`;
    const token = randomUUID();
    const deadline = Date.now() + (this.options.waitMs ?? 20_000);
    while ((await this.redis.set(lockKey, token, "PX", this.options.lockMs ?? 15_000, "NX")) !== "OK") {
      if (Date.now() > deadline) throw new Error(`the token renewal of ${key} is held by another replica`);
      await new Promise((resolve) => setTimeout(resolve, this.options.pollMs ?? 50));
    }
    try {
      return await work();
    } finally {
      await this.redis.eval(RELEASE_IF_OURS, 1, lockKey, token).catch(() => undefined);
    }
  }
}
