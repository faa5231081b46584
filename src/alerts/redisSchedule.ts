import { randomUUID } from "node:crypto";
import { type Job, Queue, Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "pino";

/**
 * ALERTS_CRON (and the digest) with several replicas: a BullMQ job scheduler makes one job per
 * tick, whichever replicas are alive, and exactly one replica's worker takes it. A sweep that
 * outlasts its tick would let the next tick's job start on another replica, so the sweep also
 * holds a Redis lock (SET NX PX, renewed while it runs): a tick that finds it held is skipped,
 * as node-cron's noOverlap does in one process.
 */
export interface AlertScheduleOptions {
  connection: Redis;
  workerConnection: Redis;
  prefix: string;
  cron: string;
  digestCron?: string;
  timeZone?: string;
  sweep(): Promise<unknown>;
  digest(): Promise<unknown>;
  /** How long the sweep lock lives without renewal (a killed replica's lock lapses after this). */
  lockMs: number;
  logger?: Pick<Logger, "info" | "warn" | "error" | "debug">;
}

const QUEUE = "alerts";

export class RedisAlertSchedule {
  private readonly queue: Queue;
  private worker?: Worker;
  private readonly lockKey: string;

  constructor(private readonly options: AlertScheduleOptions) {
    this.queue = new Queue(QUEUE, { connection: options.connection, prefix: options.prefix });
    this.lockKey = `${options.prefix}:alerts:sweep-lock`;
    this.queue.on("error", (error) => options.logger?.debug({ err: error }, "alert queue connection error"));
  }

  async start(): Promise<void> {
    const { options } = this;
    // Every replica upserts the same schedulers: the last writer wins with the same pattern.
    const tz = options.timeZone ? { tz: options.timeZone } : {};
    await this.queue.upsertJobScheduler(
      "alert-sweep",
      { pattern: options.cron, ...tz },
      { name: "sweep", opts: { removeOnComplete: true, removeOnFail: 100 } },
    );
    if (options.digestCron) {
      await this.queue.upsertJobScheduler(
        "alert-digest",
        { pattern: options.digestCron, ...tz },
        { name: "digest", opts: { removeOnComplete: true, removeOnFail: 100 } },
      );
    } else {
      await this.queue.removeJobScheduler("alert-digest");
    }
    this.worker = new Worker(QUEUE, (job: Job) => this.process(job.name), {
      connection: options.workerConnection,
      prefix: options.prefix,
      concurrency: 1,
      lockDuration: options.lockMs,
      stalledInterval: Math.max(500, Math.floor(options.lockMs / 2)),
    });
    this.worker.on("error", (error) => options.logger?.warn({ err: error }, "alert worker error"));
  }

  private async process(name: string): Promise<void> {
    if (name === "digest") {
      await this.options.digest();
      return;
    }
    const token = randomUUID();
    const redis = this.options.connection;
    const taken = await redis.set(this.lockKey, token, "PX", this.options.lockMs, "NX");
    if (taken !== "OK") {
      this.options.logger?.info({}, "alert poll tick skipped: a sweep is still running on some replica");
      return;
    }
    const renew = setInterval(
      () => {
        void redis.pexpire(this.lockKey, this.options.lockMs).catch(() => undefined);
      },
      Math.max(100, Math.floor(this.options.lockMs / 3)),
    );
    try {
      await this.options.sweep();
    } finally {
      clearInterval(renew);
      // Only our own lock is released (it may have lapsed and been taken by another sweep).
      await redis
        .eval(
          "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end",
          1,
          this.lockKey,
          token,
        )
        .catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
  }
}
