import { type Job, Queue, Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { PRIORITY_RANK } from "../../../platform/gate/gate.js";
import type { TaskDispatch } from "../../../platform/tasks/runner.js";
import type { TaskRecord } from "../../../platform/tasks/task.js";

/**
 * The Redis mode's task queue: every task is a BullMQ job (job id = task id) in one of two
 * queues, and every replica runs a worker on both. Interactive tasks (a lookup, a transport
 * action) have their own queue and workers, so thirty queued reports never hold the worker
 * slot a lookup needs; within a queue, BullMQ's priority keeps the class order.
 *
 * BullMQ gives the durability: a job is locked by the replica running it and the lock is
 * renewed while it runs; a replica killed mid-task stops renewing, BullMQ's stalled-job check
 * on any live replica moves the job back, and another replica's `runJob` resumes the task
 * from its journal. The job completes only once the answer is delivered.
 */
export interface RedisTaskQueueOptions {
  /** A connection for the queues (commands). */
  connection: Redis;
  /** Workers need their own blocking connections; BullMQ duplicates this one (maxRetriesPerRequest: null). */
  workerConnection: Redis;
  /** BullMQ key prefix. */
  prefix: string;
  /** Runs one task's job on this replica (TaskRunner.runJob). */
  run(taskId: string): Promise<void>;
  /** A cancel from another replica for a task this one runs. */
  abortLocal(taskId: string): boolean;
  /** This replica's hold on a job lapsed (Redis was away longer than the lock): its run must stop. */
  yieldLocal(taskId: string): void;
  /**
   * A workspace was removed (uninstalled) on some replica, this one included, after its links went:
   * this replica lets go of what it keeps in memory for fleet accounts nobody links any more.
   */
  workspaceRemoved?(workspace: string): Promise<unknown>;
  /**
   * How long a job's lock lasts without renewal: a killed replica's task is picked up by another
   * within about this long (plus half of it for the stalled check).
   */
  lockMs: number;
  /** Jobs of one queue running at once on this replica. */
  concurrency?: { interactive: number; work: number };
  /** Pause before a job whose task was left unsettled is tried again. */
  retryDelayMs: number;
  logger?: Pick<Logger, "info" | "warn" | "error" | "debug">;
}

const QUEUES = { interactive: "tasks-interactive", work: "tasks" } as const;

export class RedisTaskQueue implements TaskDispatch {
  private readonly queues: { interactive: Queue; work: Queue };
  private readonly workers: Worker[] = [];
  /** Jobs running on this replica: their lock token (a mutation is sent only while it still holds). */
  private readonly held = new Map<string, { job: Job<{ taskId: string }>; token: string }>();
  private subscriber?: Redis;
  private readonly cancelChannel: string;
  private readonly removedChannel: string;

  constructor(private readonly options: RedisTaskQueueOptions) {
    const common = { connection: options.connection, prefix: options.prefix };
    this.queues = {
      interactive: new Queue(QUEUES.interactive, common),
      work: new Queue(QUEUES.work, common),
    };
    this.cancelChannel = `${options.prefix}:cancel`;
    this.removedChannel = `${options.prefix}:workspace-removed`;
    // A lost Redis is reported by /healthz; each failed reconnect is a debug line, not stderr.
    for (const queue of Object.values(this.queues))
      queue.on("error", (error) => options.logger?.debug({ err: error }, "task queue connection error"));
  }

  /** Starts this replica's workers and its ear for cancels. */
  async start(): Promise<void> {
    const { options } = this;
    for (const [kind, name] of Object.entries(QUEUES) as [keyof typeof QUEUES, string][]) {
      const processor = async (job: Job<{ taskId: string }>, token?: string) => {
        if (token) this.held.set(job.data.taskId, { job, token });
        try {
          await options.run(job.data.taskId);
        } finally {
          if (this.held.get(job.data.taskId)?.token === token) this.held.delete(job.data.taskId);
        }
      };
      const worker = new Worker(name, processor, {
        connection: options.workerConnection,
        prefix: options.prefix,
        concurrency: options.concurrency?.[kind] ?? (kind === "interactive" ? 20 : 25),
        lockDuration: options.lockMs,
        stalledInterval: Math.max(500, Math.floor(options.lockMs / 2)),
        // A task is picked up again however often its replicas die; the journal keeps it safe.
        maxStalledCount: 1000,
      });
      worker.on("failed", (job, error) => {
        options.logger?.warn({ taskId: job?.data.taskId, err: error }, "task job left unsettled; retried");
      });
      worker.on("error", (error) => options.logger?.warn({ err: error }, "task worker error"));
      worker.on("lockRenewalFailed", (jobIds: string[]) => {
        for (const jobId of jobIds) {
          options.logger?.warn({ taskId: jobId }, "lost the task's job lock; another replica runs it");
          options.yieldLocal(jobId);
        }
      });
      this.workers.push(worker);
    }
    this.subscriber = options.connection.duplicate();
    this.subscriber.on("error", (error) => options.logger?.debug({ err: error }, "cancel listener error"));
    await this.subscriber.subscribe(this.cancelChannel, this.removedChannel);
    this.subscriber.on("message", (channel: string, message: string) => {
      if (channel === this.removedChannel) {
        options.workspaceRemoved?.(message).catch((error: unknown) => {
          options.logger?.warn(
            { err: error, workspace: message },
            "a removed workspace's accounts were not let go of",
          );
        });
        return;
      }
      if (options.abortLocal(message))
        options.logger?.info({ taskId: message }, "cancelled at another replica's request");
    });
  }

  async enqueue(task: TaskRecord): Promise<void> {
    const queue = task.priority === "interactive" ? this.queues.interactive : this.queues.work;
    await queue.add(
      task.kind,
      { taskId: task.id },
      {
        jobId: task.id,
        // BullMQ: 1 is the highest priority (0 would mean none).
        priority: PRIORITY_RANK[task.priority] + 1,
        attempts: 1000,
        backoff: { type: "fixed", delay: this.options.retryDelayMs },
        removeOnComplete: true,
        removeOnFail: 1000,
      },
    );
  }

  async removeQueued(taskId: string): Promise<boolean> {
    for (const queue of Object.values(this.queues)) {
      const job = await queue.getJob(taskId);
      if (!job) continue;
      const state = await job.getState();
      if (state !== "waiting" && state !== "prioritized" && state !== "delayed") return false;
      try {
        await job.remove();
        return true;
      } catch {
        // Taken by a worker between the two calls: it runs; the cancel goes to that replica.
        return false;
      }
    }
    return false;
  }

  /**
   * Removes the task's job in any state but running (waiting, delayed for a retry, kept after
   * failing): true when no job of the task is left; false when a replica holds it now (BullMQ
   * refuses to remove a locked job; it ends with that run).
   */
  async remove(taskId: string): Promise<boolean> {
    for (const queue of Object.values(this.queues)) {
      const job = await queue.getJob(taskId);
      if (!job) continue;
      try {
        await job.remove();
      } catch {
        return false;
      }
    }
    await this.options.connection.del(`${this.options.prefix}:delivery:${taskId}`);
    return true;
  }

  async holds(taskId: string): Promise<boolean> {
    const held = this.held.get(taskId);
    if (!held) return false;
    try {
      // Checks the token and extends the lock in one script: true only while the job is still ours.
      return (await held.job.extendLock(held.token, this.options.lockMs)) === 1;
    } catch {
      return false;
    }
  }

  async claimDelivery(taskId: string, ms: number): Promise<boolean> {
    const key = `${this.options.prefix}:delivery:${taskId}`;
    return (await this.options.connection.set(key, "1", "PX", ms, "NX")) === "OK";
  }

  async cancelElsewhere(taskId: string): Promise<void> {
    await this.options.connection.publish(this.cancelChannel, taskId);
  }

  /** Tells every replica (this one too) that a workspace's links are gone: see `workspaceRemoved`. */
  async announceRemoval(workspace: string): Promise<void> {
    await this.options.connection.publish(this.removedChannel, workspace);
  }

  /** Jobs waiting or running, over every replica (for /healthz and /metrics). */
  async counts(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const [kind, queue] of Object.entries(this.queues)) {
      const counts = await queue.getJobCounts("waiting", "prioritized", "active", "delayed");
      out[kind] = Object.values(counts).reduce((a, b) => a + b, 0);
    }
    return out;
  }

  /**
   * Stops this replica's workers. `force`: jobs running here are not waited for; their locks lapse
   * and another replica resumes them (a rolling deploy does not wait for a 40-call report).
   */
  async close(force = true): Promise<void> {
    await Promise.allSettled(this.workers.map((worker) => worker.close(force)));
    await this.subscriber?.quit().catch(() => undefined);
    await Promise.allSettled(Object.values(this.queues).map((queue) => queue.close()));
  }
}
