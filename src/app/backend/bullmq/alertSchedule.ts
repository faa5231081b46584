import { type Job, Queue, Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { cronZone } from "../../../platform/time/cronZone.js";
import { SweepLock } from "./sweepLock.js";

/**
 * ALERTS_CRON (and the digest) with several replicas: a BullMQ job scheduler makes one job per
 * tick, whichever replicas are alive, and exactly one replica's worker takes it. A sweep that
 * outlasts its tick would let the next tick's job start on another replica, so the sweep also
 * holds a Redis lock (`SweepLock`: renewed by its holder only; a sweep that loses it is
 * aborted): a tick that finds it held is skipped, as node-cron's noOverlap does in one process.
 *
 * The schedulers live in Redis, so a Redis restart without AOF or a FLUSHALL loses them: every
 * replica registers them again (an idempotent upsert) on each reconnect and every few minutes.
 */
export interface AlertScheduleOptions {
  connection: Redis;
  workerConnection: Redis;
  prefix: string;
  cron: string;
  digestCron?: string;
  timeZone?: string;
  /** One sweep; `signal` aborts when this replica loses the sweep lock. */
  sweep(signal: AbortSignal): Promise<unknown>;
  digest(): Promise<unknown>;
  /** How long the sweep lock lives without renewal (a killed replica's lock lapses after this). */
  lockMs: number;
  /** Between two re-registrations of the schedulers (default 5 minutes). */
  reregisterEveryMs?: number;
  now?: () => number;
  logger?: Pick<Logger, "info" | "warn" | "error" | "debug">;
}

const QUEUE = "alerts";
const REREGISTER_EVERY_MS = 5 * 60_000;

export class RedisAlertSchedule {
  private readonly queue: Queue;
  private worker?: Worker;
  private readonly lock: SweepLock;
  private readonly lastSweepKey: string;
  private readonly now: () => number;
  private reregisterTimer?: NodeJS.Timeout;
  /** The latest completed sweep this replica knows of (its own, or one read from Redis). */
  private lastSweepSeen?: number;
  private readonly onReady = () => void this.registerOrWarn("Redis connection ready again");

  constructor(private readonly options: AlertScheduleOptions) {
    this.queue = new Queue(QUEUE, { connection: options.connection, prefix: options.prefix });
    this.lock = new SweepLock({
      redis: options.connection,
      key: `${options.prefix}:alerts:sweep-lock`,
      lockMs: options.lockMs,
    });
    this.lastSweepKey = `${options.prefix}:alerts:last-sweep`;
    this.now = options.now ?? Date.now;
    this.queue.on("error", (error) => options.logger?.debug({ err: error }, "alert queue connection error"));
  }

  async start(): Promise<void> {
    const { options } = this;
    await this.register();
    // A restarted Redis (without AOF) comes back empty; a FLUSHALL keeps the connection, hence the timer too.
    options.connection.on("ready", this.onReady);
    this.reregisterTimer = setInterval(
      () => void this.registerOrWarn("periodic check"),
      options.reregisterEveryMs ?? REREGISTER_EVERY_MS,
    );
    this.reregisterTimer.unref();
    this.worker = new Worker(QUEUE, (job: Job) => this.process(job.name), {
      connection: options.workerConnection,
      prefix: options.prefix,
      concurrency: 1,
      lockDuration: options.lockMs,
      stalledInterval: Math.max(500, Math.floor(options.lockMs / 2)),
    });
    this.worker.on("error", (error) => options.logger?.warn({ err: error }, "alert worker error"));
  }

  /** Upserts the schedulers: every replica writes the same patterns, so the last writer changes nothing. */
  async register(): Promise<void> {
    const { options } = this;
    // As node-cron (cronZone): an expression that names no hour or day runs in UTC.
    const tzOf = (pattern: string) => {
      const zone = cronZone(pattern, options.timeZone);
      return zone ? { tz: zone } : {};
    };
    await this.queue.upsertJobScheduler(
      "alert-sweep",
      { pattern: options.cron, ...tzOf(options.cron) },
      { name: "sweep", opts: { removeOnComplete: true, removeOnFail: 100 } },
    );
    if (options.digestCron) {
      await this.queue.upsertJobScheduler(
        "alert-digest",
        { pattern: options.digestCron, ...tzOf(options.digestCron) },
        { name: "digest", opts: { removeOnComplete: true, removeOnFail: 100 } },
      );
    } else {
      await this.queue.removeJobScheduler("alert-digest");
    }
  }

  private async registerOrWarn(why: string): Promise<void> {
    try {
      await this.register();
    } catch (error) {
      this.options.logger?.warn(
        { err: error, why },
        "the alert schedule could not be registered; tried again later",
      );
    }
  }

  /** When the last sweep on any replica completed (epoch ms), or undefined when none is known. */
  async lastSweepAt(): Promise<number | undefined> {
    const stored = await this.options.connection.get(this.lastSweepKey).catch(() => null);
    const at = stored === null ? Number.NaN : Number(stored);
    if (Number.isFinite(at)) this.lastSweepSeen = Math.max(this.lastSweepSeen ?? 0, at);
    return this.lastSweepSeen;
  }

  private async process(name: string): Promise<void> {
    if (name === "digest") {
      await this.options.digest();
      return;
    }
    const held = await this.lock.acquire();
    if (!held) {
      this.options.logger?.info({}, "alert poll tick skipped: a sweep is still running on some replica");
      return;
    }
    try {
      await this.options.sweep(held.signal);
      if (held.signal.aborted) {
        this.options.logger?.warn({}, "alert sweep stopped: its lock was lost to another sweep");
        return;
      }
      const at = this.now();
      this.lastSweepSeen = Math.max(this.lastSweepSeen ?? 0, at);
      await this.options.connection.set(this.lastSweepKey, String(at)).catch(() => undefined);
    } finally {
      await held.release();
    }
  }

  async close(): Promise<void> {
    if (this.reregisterTimer) clearInterval(this.reregisterTimer);
    this.options.connection.off("ready", this.onReady);
    await this.worker?.close();
    await this.queue.close();
  }
}
