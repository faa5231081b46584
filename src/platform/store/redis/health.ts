import { Redis, type RedisOptions } from "ioredis";
import { withTimeout } from "../../time/withTimeout.js";
import { HealthMark, type StoreHealthStatus } from "../health.js";

/**
 * Connections of the Redis mode. The store connection fails a command at once while Redis is
 * unreachable (no offline queue, one retry): a user is told "cannot queue requests right now"
 * within the ack instead of waiting for Slack's timeout. BullMQ's workers need connections that
 * wait instead (maxRetriesPerRequest: null); the gate's keep retrying too.
 */
export function openRedis(url: string, role: "store" | "queue" | "worker" | "gate"): Redis {
  const redis = connect(url, role);
  // A lost Redis is reported by RedisHealth (/healthz) and told to users; without a listener
  // ioredis would print every failed reconnect to stderr, outside the log.
  redis.on("error", () => undefined);
  return redis;
}

function connect(url: string, role: "store" | "queue" | "worker" | "gate"): Redis {
  const common: RedisOptions = {
    // Reconnect for ever, at most every 2 s: a restarted Redis is found again by itself.
    retryStrategy: (times) => Math.min(100 * times, 2000),
    connectionName: `fleetbot-${role}`,
    lazyConnect: false,
  };
  if (role === "store") {
    return new Redis(url, {
      ...common,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 5000,
    });
  }
  return new Redis(url, { ...common, maxRetriesPerRequest: null });
}

/** Waits until the connection is ready (the start of a replica), or throws after `timeoutMs`. */
export async function connected(redis: Redis, timeoutMs = 10_000): Promise<void> {
  if (redis.status === "ready") return;
  let onReady = (): void => undefined;
  const ready = new Promise<boolean>((resolve) => {
    onReady = () => resolve(true);
    redis.on("ready", onReady);
  });
  try {
    if (!(await withTimeout(ready, timeoutMs, false)))
      throw new Error(`Redis did not answer within ${timeoutMs} ms`);
  } finally {
    redis.off("ready", onReady);
  }
}

/** ioredis' own failures (connection closed, offline, timed out), as opposed to a script's refusal. */
function isRedisUnavailable(error: unknown, redis: Redis): boolean {
  if (redis.status !== "ready") return true;
  if (!(error instanceof Error)) return false;
  return (
    /Connection is closed|Stream isn't writeable|enableOfflineQueue|Command timed out|ECONNREFUSED|ECONNRESET|MaxRetriesPerRequest/i.test(
      error.message,
    ) || error.name === "MaxRetriesPerRequestError"
  );
}

/**
 * The Redis mode's counterpart of StoreHealth: /healthz says whether this replica reaches Redis;
 * a command that fails because Redis is gone marks it unavailable, and the connection's "ready"
 * event clears the mark (then interrupted work resumes).
 */
export class RedisHealth extends HealthMark {
  /** How this store fails: the server is out of reach (tasks cannot be queued). */
  readonly outage = "unreachable" as const;

  constructor(
    private readonly redis: Redis,
    now: () => number = Date.now,
  ) {
    super(now);
    redis.on("ready", () => this.recover());
    redis.on("close", () => this.mark("Redis connection lost"));
  }

  failed(error: unknown): boolean {
    if (!isRedisUnavailable(error, this.redis)) return false;
    this.mark(`Redis is unreachable (${this.redis.status})`);
    return true;
  }

  check(): StoreHealthStatus {
    if (this.redis.status === "ready") this.recover();
    return this.status();
  }
}
