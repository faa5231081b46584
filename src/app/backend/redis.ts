import { hostname } from "node:os";
import type { Redis } from "ioredis";
import { createRedisFleetGate } from "../../platform/gate/redisFleetGate.js";
import type { Logger } from "../../platform/log.js";
import { StoreError } from "../../platform/store/database.js";
import { RedisAcceptedPasswords } from "../../platform/store/redis/acceptedPasswords.js";
import { connected, openRedis, RedisHealth } from "../../platform/store/redis/health.js";
import { createRedisRepositories } from "../../platform/store/redis/index.js";
import { RedisRenewalLock } from "../../platform/store/redis/renewalLock.js";
import {
  observeRedisMemory,
  readRedisDurability,
  readRedisMemory,
} from "../../platform/store/redis/serverInfo.js";
import { RedisSharedState } from "../../platform/store/redis/sharedState.js";
import { RedisSharedTokens } from "../../platform/store/redis/sharedTokens.js";
import type { Config } from "../config.js";
import type {
  AlertScheduleHooks,
  Backend,
  BackendReport,
  SharedAlertSchedule,
  SharedTaskQueue,
  TaskQueueHooks,
} from "./backend.js";
import { RedisAlertSchedule } from "./bullmq/alertSchedule.js";
import { RedisTaskQueue } from "./bullmq/taskQueue.js";
import { retentionOf, warnUnreadable } from "./retention.js";

/** Key prefix of everything fleetbot keeps in Redis. */
const PREFIX = "fleetbot:";

/**
 * Replicas (REDIS_URL): every piece of shared state in one Redis, SQLite not opened; the gate,
 * the task queue (BullMQ) and the alert schedule (a BullMQ job scheduler) shared by all. This
 * module is imported only in this mode: ioredis, BullMQ and the Redis stores add about 25 MB of
 * resident memory that one process has no use for. A replica that cannot reach Redis at start
 * stops with one line; later losses are reported by /healthz and told to users, and it recovers
 * by itself.
 */
export async function openRedisBackend(config: Config, url: string, logger: Logger): Promise<Backend> {
  const store = openRedis(url, "store");
  try {
    await connected(store);
  } catch (error) {
    store.disconnect();
    throw new StoreError(`REDIS_URL: ${error instanceof Error ? error.message : String(error)}`);
  }
  // Commands of the gate (its waits retry; the stores' fail at once), the queues and the workers.
  const gateConnection = openRedis(url, "gate");
  const queueConnection = openRedis(url, "queue");
  const workerConnection = openRedis(url, "worker");
  const replicaId = `${hostname()}-${process.pid}`;
  // The gate's turn lease and the jobs' lock scale with the account's slot.
  const leaseMs = Math.min(30_000, Math.max(1_000, config.fleet.minIntervalMs));
  const lockMs = Math.min(30_000, Math.max(2_000, 4 * config.fleet.minIntervalMs));
  // Settings of the server that lose data (appendonly no, an evicting policy), read at start.
  const unsafe = (await readRedisDurability(store)).unsafe;
  for (const warning of unsafe) logger.warn({ redis: "config" }, `Redis is not durable: ${warning}`);
  const repositories = createRedisRepositories(store, { prefix: PREFIX, key: config.credentialsKey });
  await warnUnreadable(config, repositories.accounts, logger);
  const { tasks, accounts, alerts, audit, settings, zones, schedules, limits, installations } = repositories;
  const key = config.credentialsKey;
  return {
    tasks,
    accounts,
    alerts,
    audit,
    settings,
    zones,
    schedules,
    installations,
    renewalLock: new RedisRenewalLock(store, { prefix: PREFIX }),
    learnedLimits: async (service) => {
      // Read once at start; a lesson is written through for every replica's next start.
      const known = await limits.load(service).catch(() => ({}));
      return {
        load: () => known,
        save: (svc, endpoint, limit) => {
          limits.save(svc, endpoint, limit).catch((error: unknown) => {
            logger.warn({ err: error }, "a learned call limit could not be stored in Redis");
          });
        },
      };
    },
    health: new RedisHealth(store),
    // On the fail-fast connection: the guard, login attempts and response_url counts never wait for a lost Redis.
    sharedState: new RedisSharedState(store, { prefix: PREFIX }),
    // Sealed with CREDENTIALS_KEY like the passwords; without a key each replica keeps its own.
    ...(key
      ? {
          sharedTokens: new RedisSharedTokens(store, key, { prefix: PREFIX }),
          acceptedPasswords: new RedisAcceptedPasswords(store, key, { prefix: PREFIX }),
        }
      : {}),
    retention: retentionOf(config, { tasks, alerts, audit }, logger),
    gate: (options) =>
      createRedisFleetGate({
        ...options,
        redis: gateConnection,
        replicaId,
        keyPrefix: `${PREFIX}gate`,
        leaseMs,
      }),
    ...sharedWork({ queueConnection, workerConnection, lockMs }),
    report: backendReport(unsafe, queueConnection),
    async close() {
      for (const connection of [gateConnection, queueConnection, workerConnection, store])
        await connection.quit().catch(() => connection.disconnect());
    },
  };
}

/** The task queue and the alert schedule every replica shares (BullMQ on Redis). */
function sharedWork(redis: { queueConnection: Redis; workerConnection: Redis; lockMs: number }) {
  const { queueConnection, workerConnection, lockMs } = redis;
  return {
    taskQueue: (hooks: TaskQueueHooks): SharedTaskQueue =>
      new RedisTaskQueue({
        connection: queueConnection,
        workerConnection,
        prefix: `${PREFIX}bull`,
        run: hooks.run,
        abortLocal: hooks.abortLocal,
        yieldLocal: hooks.yieldLocal,
        workspaceRemoved: hooks.workspaceRemoved,
        lockMs,
        retryDelayMs: hooks.retryDelayMs,
        logger: hooks.logger,
      }),
    alertSchedule: (hooks: AlertScheduleHooks): SharedAlertSchedule =>
      new RedisAlertSchedule({
        connection: queueConnection,
        workerConnection,
        prefix: `${PREFIX}bull`,
        cron: hooks.cron,
        ...(hooks.digestCron ? { digestCron: hooks.digestCron } : {}),
        timeZone: hooks.timeZone,
        sweep: hooks.sweep,
        digest: hooks.digest,
        lockMs,
        logger: hooks.logger,
      }),
  };
}

/** What /healthz and /metrics add in this mode: whether Redis is reached, its unsafe settings, its memory. */
function backendReport(unsafe: string[], connection: Redis): BackendReport {
  return {
    // Whether this replica reaches Redis (its tasks, gate and queue live there).
    healthFields: (check) => ({
      redis: check.ok ? "ok" : check.reason,
      ...(unsafe.length > 0 ? { redisConfig: unsafe } : {}),
    }),
    degraded: () => (unsafe.length > 0 ? ["redis-config"] : []),
    // Read on each scrape: a full Redis with noeviction refuses every write.
    observe: (metrics) => observeRedisMemory(metrics.registry, () => readRedisMemory(connection)),
  };
}
