import type { Logger } from "pino";
import type { ZodType } from "zod";
import type { CallContext, Priority } from "../fleet/seam.js";
import type { AccountGate, GateSchedule } from "../gate/gate.js";
import { CallCancelledError, PRIORITY_RANK } from "../gate/gate.js";
import type { AuditEntry, AuditRepository, TaskRepository } from "../store/contract/index.js";
import { ONLY_WORKSPACE, type WorkspaceKey } from "../workspaces/workspace.js";
import { auditEntries, FOUND_AFTER_INTERRUPTION, type MutationAudit, outcomeOfError } from "./audit.js";
import type { TaskOverhead } from "./callDurations.js";
import { type NewTask, parseParams, type TaskError, type TaskProgress, type TaskRecord } from "./task.js";

/** What a handler gets to do its work: the account's session, its call context, progress, and idempotent mutations. */
export interface TaskContext<P, S> {
  task: TaskRecord;
  params: P;
  session: S;
  /** Pass to every fleet call: priority, cancel signal and task id for the gate. */
  call: CallContext;
  signal: AbortSignal;
  /** Calls done and the total the task needs (known up front for split reports). */
  progress(done: number, total: number): void;
  /**
   * Runs a state-changing call at most once across crashes. The journal records
   * "sending" before the call and the answer after it; a task resumed with a step left
   * in "sending" first asks `alreadyApplied` (e.g. load-transports) whether the service
   * has it, and sends again only if not. `audit` says what the call changes: its outcome per UIT
   * goes to the audit trail once known (an unknown one, a timeout, is recorded as such).
   */
  mutation<T>(
    step: string,
    how: {
      send: () => Promise<T>;
      alreadyApplied: () => Promise<T | undefined>;
      audit: MutationAudit<T>;
    },
  ): Promise<T>;
}

export interface TaskHandler<P, R, S> {
  kind: string;
  params: ZodType<P>;
  /** The handler opens its own session (account linking checks credentials not yet stored). */
  ownSession?: boolean;
  /**
   * What of the parameters is kept once the task ends, whatever the outcome (done, failed,
   * cancelled): secrets a task needed only while it ran (a link attempt's password) are left out.
   */
  scrubParams?(params: P): P;
  /**
   * The calls the task will make, as far as known before it runs (the vehicle list when the
   * cache has none fresh enough, and the report's own calls), the login left out: the runner
   * adds it. Estimates before the handler reports its own total use it; without it, one call.
   */
  plan?(params: P, account: string): number;
  run(ctx: TaskContext<P, S>): Promise<R>;
}

/**
 * A handler of any kind, as the runner holds them: it only parses stored parameters with the
 * handler's own schema and passes them back to the same handler's `run`.
 */
export type AnyTaskHandler<S> = TaskHandler<unknown, unknown, S>;

export interface TaskListener {
  /** A task's place, calls done and estimate changed. */
  progress?(progress: TaskProgress, task: TaskRecord): void;
  /** A task ended (done, failed or cancelled); call `markDelivered` once its answer is out. */
  finished?(task: TaskRecord): void;
}

export interface TaskRunnerOptions<S> {
  store: TaskRepository;
  /** Where each mutation's outcome is recorded (AUDIT_RETENTION_DAYS); absent: not recorded. */
  audit?: AuditRepository;
  gate: AccountGate;
  handlers: AnyTaskHandler<S>[];
  /** The session of the task's fleet account (the caller resolves credentials from the task's account and user). */
  sessionFor(task: TaskRecord): Promise<S>;
  /** Turns any error into what the user and support see. */
  describeError(error: unknown): TaskError;
  /** A write of the task's state failed (disk full, read-only): the caller tracks the store's health. */
  onStoreFailure?(error: unknown): void;
  /**
   * Whether an error a task met was the store's (disk full or read-only, Redis out of reach); the
   * caller may record it. Such a task is left unfinished, not failed: it resumes once the store is back.
   */
  isStoreFailure?(error: unknown): boolean;
  /** Errors worth another attempt (timeouts, 5xx); others fail the task at once. */
  isRetryable?(error: unknown): boolean;
  maxAttempts?: number;
  /**
   * How long one of the account's calls typically takes to answer (see CallDurations): an
   * estimate ends at the last call's answer. Unknown: one slot.
   */
  typicalCallMs?(account: string): number | undefined;
  /** The bot's own time before a task's first call and after its last answer (measured here and at delivery). */
  overhead?: TaskOverhead;
  /** 1 when the account's next call must log in first (no reusable token), else 0. */
  loginCalls?(account: string): number;
  /**
   * Several replicas (Redis mode): tasks are handed to a shared queue (BullMQ) instead of this
   * process's waiting list; whichever replica takes the job calls `runJob`.
   */
  dispatch?: TaskDispatch;
  /** Redis mode: how long a job waits for its answer to reach Slack before it is retried. */
  deliveryWaitMs?: number;
  /** Tasks of one account whose calls may wait in the gate at once; the rest wait here. */
  maxActivePerAccount?: number;
  /**
   * Resolves when a task may start its own work: after the acks of the Slack requests being
   * read (PendingAcks.settled). Default: after this turn's I/O.
   */
  beforeWork?: (task: TaskRecord) => Promise<void>;
  now?: () => number;
  logger?: Pick<Logger, "info" | "warn" | "error" | "debug">;
}

/** Redis mode: how long a job waits for its answer to be delivered before it is tried again. */
const DELIVERY_WAIT_MS = 120_000;

/** The shared queue of the Redis mode (see redisTaskQueue.ts). */
export interface TaskDispatch {
  /** Queues the task's job (idempotent: one job per task id). */
  enqueue(task: TaskRecord): Promise<void>;
  /** Removes the task's job when it has not started anywhere; false when it runs (or ran). */
  removeQueued(taskId: string): Promise<boolean>;
  /**
   * Removes the task's job whatever its state (waiting, delayed, kept after failing): true when
   * no job of the task is left, false when a replica runs it now (the job ends with that run).
   */
  remove(taskId: string): Promise<boolean>;
  /** Asks the replica running the task to cancel it. */
  cancelElsewhere(taskId: string): Promise<void>;
  /**
   * Whether this replica still holds the task's job (checked, and the hold extended, right before
   * a mutation is sent): after a Redis outage longer than the lock another replica may run it now.
   */
  holds(taskId: string): Promise<boolean>;
  /** Claims the delivery of a finished task's answer for `ms` (one replica answers, once). */
  claimDelivery(taskId: string, ms: number): Promise<boolean>;
}

/** This replica lost the task's job to another (its lock lapsed): it stops without ending the task. */
export class TaskLostError extends Error {
  constructor(readonly taskId: string) {
    super(`task ${taskId} is now run by another replica`);
    this.name = "TaskLostError";
  }
}

/** Raised by `runJob` when a task is left unfinished or undelivered: the queue tries the job again later. */
export class TaskNotSettledError extends Error {
  constructor(
    readonly taskId: string,
    why: string,
  ) {
    super(`task ${taskId} ${why}; its job is tried again`);
    this.name = "TaskNotSettledError";
  }
}

interface ActiveTask {
  record: TaskRecord;
  controller: AbortController;
  /** Redis mode: the job went to another replica; this run ends without ending the task. */
  lost?: boolean;
  done: number;
  total: number;
  /** When this run began, and (once known) when its calls could start: the bot's own start time. */
  admittedAt: number;
  callsFrom?: number;
}

/**
 * Runs stored tasks: each task's fleet calls go through the account's gate, so many tasks
 * may be active while the gate decides what is sent when. Tasks beyond the per-account
 * limit wait in priority order. On start, `resume()` picks up what a crash or stop left.
 */
export class TaskRunner<S> {
  private readonly handlers = new Map<string, AnyTaskHandler<S>>();
  private readonly active = new Map<string, ActiveTask>();
  private readonly waiting = new Map<string, TaskRecord[]>();
  private readonly listeners = new Set<TaskListener>();
  private readonly running = new Set<Promise<void>>();
  /** Redis mode: the execution of each task running here (a job taken again joins it, see runJob). */
  private readonly jobRuns = new Map<string, Promise<void>>();
  /**
   * Tasks of an uninstalled workspace still running here while they stop (forgetWorkspace):
   * nothing of theirs reaches the listeners, so nothing goes to the workspace.
   */
  private readonly forgotten = new Set<string>();
  private readonly now: () => number;
  private readonly maxActive: number;
  private readonly maxAttempts: number;
  private stopped = false;

  constructor(private readonly options: TaskRunnerOptions<S>) {
    for (const handler of options.handlers) this.handlers.set(handler.kind, handler);
    this.now = options.now ?? Date.now;
    this.maxActive = options.maxActivePerAccount ?? 25;
    this.maxAttempts = options.maxAttempts ?? 3;
  }

  on(listener: TaskListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Stores the task (before Slack is acknowledged, so nothing is lost) and starts it when
   * its account has room. A pending task with the same dedupe key is returned instead.
   */
  async submit(task: NewTask): Promise<{ task: TaskRecord; created: boolean }> {
    const handler = this.handlers.get(task.kind);
    if (!handler) throw new Error(`No handler for task kind ${task.kind}`);
    const parsed = handler.params.safeParse(task.params);
    if (!parsed.success) throw new Error(`Invalid parameters for ${task.kind}: ${parsed.error.message}`);
    const outcome = await this.options.store.create({ ...task, params: parsed.data });
    if (outcome.created) {
      if (this.options.dispatch) await this.options.dispatch.enqueue(outcome.task);
      else this.enqueue(outcome.task);
    }
    return outcome;
  }

  /** Restarts every unfinished task and re-announces finished ones whose answer never went out. */
  async resume(): Promise<{ resumed: number; undelivered: number }> {
    const dispatch = this.options.dispatch;
    if (dispatch) {
      // Redis mode: the jobs are in the shared queue already; a task without one (migrated from
      // SQLite, or stored while the queue was unreachable) gets it now. Idempotent per task id.
      const unfinished = await this.options.store.unfinished();
      const undelivered = await this.options.store.undelivered();
      for (const task of [...unfinished, ...undelivered]) await dispatch.enqueue(task);
      return { resumed: unfinished.length, undelivered: undelivered.length };
    }
    // Safe to call again (after the store recovers from a full disk): what runs or waits stays put.
    const waiting = new Set([...this.waiting.values()].flatMap((queue) => queue.map((t) => t.id)));
    const unfinished = (await this.options.store.unfinished()).filter(
      (task) => !this.active.has(task.id) && !waiting.has(task.id),
    );
    // One sort for the whole backlog (20,000 tasks resume in one pass, not one re-sort each).
    const byAccount = new Map<string, TaskRecord[]>();
    for (const task of unfinished) {
      const queue = byAccount.get(task.account) ?? this.waiting.get(task.account) ?? [];
      queue.push(task);
      byAccount.set(task.account, queue);
    }
    if (!this.stopped) {
      for (const [account, queue] of byAccount) {
        queue.sort(admissionOrder);
        this.waiting.set(account, queue);
        this.startNext(account);
      }
    }
    const undelivered = await this.options.store.undelivered();
    for (const task of undelivered) this.emitFinished(task);
    if (unfinished.length > 0 || undelivered.length > 0) {
      this.options.logger?.info(
        { resumed: unfinished.length, undelivered: undelivered.length },
        "resumed tasks",
      );
    }
    return { resumed: unfinished.length, undelivered: undelivered.length };
  }

  /** Cancels a task: waiting calls are dropped, a call already sent finishes. */
  async cancel(taskId: string): Promise<boolean> {
    if (this.abortLocal(taskId)) return true;
    const dispatch = this.options.dispatch;
    if (dispatch) {
      const record = await this.options.store.get(taskId);
      if (!record || (record.state !== "queued" && record.state !== "running")) return false;
      if (await dispatch.removeQueued(taskId)) {
        await this.finishAndAnnounce(taskId, "cancelled", this.scrubbed(record));
      } else {
        await dispatch.cancelElsewhere(taskId);
      }
      return true;
    }
    for (const [account, queue] of this.waiting) {
      const index = queue.findIndex((t) => t.id === taskId);
      if (index >= 0) {
        const [removed] = queue.splice(index, 1);
        this.waiting.set(account, queue);
        await this.finishAndAnnounce(taskId, "cancelled", this.scrubbed(removed));
        return true;
      }
    }
    return false;
  }

  /**
   * A workspace uninstalled fleetbot: every task of it stops and goes, answering nothing (no
   * progress, no ending: the workspace is gone). Waiting tasks leave the queue; tasks running
   * here are aborted; the store then deletes every task of the workspace with its journal; in
   * Redis mode their jobs are removed, and a replica running one is asked to stop it (its ending
   * finds no task, so it announces nothing). Returns how many tasks the store deleted. The single
   * workspace ("") is refused: its tasks are never forgotten this way.
   */
  async forgetWorkspace(workspace: WorkspaceKey): Promise<number> {
    if (workspace === ONLY_WORKSPACE) throw new Error("the single workspace's tasks are never forgotten");
    for (const [account, queue] of this.waiting) {
      const kept = queue.filter((task) => task.workspace !== workspace);
      if (kept.length !== queue.length) this.waiting.set(account, kept);
    }
    for (const [taskId, active] of this.active) {
      if (active.record.workspace !== workspace) continue;
      this.forgotten.add(taskId);
      active.controller.abort();
    }
    const { tasks, ids } = await this.options.store.deleteWorkspace(workspace);
    const dispatch = this.options.dispatch;
    if (dispatch) {
      for (const taskId of ids) {
        if (!(await dispatch.remove(taskId))) await dispatch.cancelElsewhere(taskId);
      }
    }
    if (tasks > 0)
      this.options.logger?.info({ workspace, tasks }, "deleted the tasks of a workspace whose data goes");
    return tasks;
  }

  /** Redis mode: this replica lost the task's job (lock renewal failed): its run stops without ending the task. */
  yieldLocal(taskId: string): void {
    const active = this.active.get(taskId);
    if (!active) return;
    active.lost = true;
    active.controller.abort();
  }

  /** Aborts a task running in this process (a cancel from any replica ends here); false when it is not. */
  abortLocal(taskId: string): boolean {
    const active = this.active.get(taskId);
    if (!active) return false;
    active.controller.abort();
    return true;
  }

  /**
   * Redis mode: runs the job of one task on this replica. An unfinished task runs (resuming from
   * its journal when another replica died running it); a finished one whose answer never went out
   * is announced again. Returns once the answer is delivered; throws TaskNotSettledError when the
   * task stays unfinished (shutdown) or undelivered, so the queue tries the job again.
   */
  async runJob(taskId: string): Promise<void> {
    let record = await this.options.store.get(taskId);
    if (
      !record ||
      (record.deliveredAt !== undefined && record.state !== "queued" && record.state !== "running")
    )
      return;
    if (record.state === "queued" || record.state === "running") {
      if (this.stopped) throw new TaskNotSettledError(taskId, "was not started: this replica is stopping");
      // The job came back to this replica while its task still runs here (its lock lapsed while
      // Redis was away): wait for that execution instead of running the task a second time.
      const ongoing = this.jobRuns.get(taskId);
      if (ongoing) await ongoing;
      else {
        const run = this.execute(record);
        this.running.add(run);
        this.jobRuns.set(taskId, run);
        await run.finally(() => {
          this.running.delete(run);
          this.jobRuns.delete(taskId);
        });
      }
      record = await this.options.store.get(taskId);
      // Gone while it ran: its workspace was forgotten, nothing is left to settle.
      if (!record) return;
      if (record.state === "queued" || record.state === "running")
        throw new TaskNotSettledError(taskId, "is unfinished");
    } else if (
      await this.options.dispatch?.claimDelivery(taskId, this.options.deliveryWaitMs ?? DELIVERY_WAIT_MS)
    ) {
      // Finished, its answer never recorded as sent (the replica delivering it died): answer now.
      this.emitFinished(record);
    }
    // The job ends once the store records the answer as delivered, by this replica or the one
    // holding the delivery (checked every 200 ms: a job's end is not on the user's path).
    const deadline = this.now() + (this.options.deliveryWaitMs ?? DELIVERY_WAIT_MS);
    for (;;) {
      const current = await this.options.store.get(taskId);
      // Delivered; or gone (its workspace forgotten): nothing is waited for.
      if (!current || current.deliveredAt !== undefined) break;
      if (this.now() >= deadline) throw new TaskNotSettledError(taskId, "was not delivered in time");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** The task's answer reached Slack; `finishedAt` (its ending) measures the delivery for later estimates. */
  async markDelivered(taskId: string, finishedAt?: number): Promise<void> {
    await this.options.store.markDelivered(taskId);
    if (finishedAt !== undefined) this.options.overhead?.recordDelivery(Math.max(0, this.now() - finishedAt));
  }

  /** Where a task stands now: place in its account's queue, calls done, estimated finish. */
  async progressOf(taskId: string): Promise<TaskProgress | undefined> {
    const record = this.active.get(taskId)?.record ?? (await this.options.store.get(taskId));
    if (!record) return undefined;
    return this.estimate(record);
  }

  /** Resolves when no task is active or waiting (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** Stops taking work; unfinished tasks stay stored and resume at the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.waiting.clear();
  }

  private enqueue(task: TaskRecord): void {
    if (this.stopped) return;
    const queue = this.waiting.get(task.account) ?? [];
    // Kept ordered on insert (binary search): no re-sort of the account's queue per task.
    let lo = 0;
    let hi = queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (admissionOrder(queue[mid]!, task) <= 0) lo = mid + 1;
      else hi = mid;
    }
    queue.splice(lo, 0, task);
    this.waiting.set(task.account, queue);
    this.startNext(task.account);
  }

  private activeCount(account: string, priority?: TaskRecord["priority"]): number {
    let count = 0;
    for (const task of this.active.values())
      if (task.record.account === account && (priority === undefined || task.record.priority === priority))
        count++;
    return count;
  }

  /**
   * Whether the account's next waiting task may start. An interactive one always; a background
   * one (a scheduled report) only when no other of the account's background tasks runs: admitted
   * together, their calls would alternate in the gate and every one of them would end near the
   * last (five runs of 3 calls at 07:30 all posted 10-14 slots late); one at a time, each is late
   * only by the calls of those ahead of it. The others up to maxActivePerAccount.
   */
  private mayStart(account: string, next: TaskRecord): boolean {
    if (next.priority === "interactive") return true;
    if (this.activeCount(account) >= this.maxActive) return false;
    return next.priority !== "background" || this.activeCount(account, "background") === 0;
  }

  /**
   * Admits waiting tasks in priority order (mayStart). The cap bounds how many reports hold calls in the
   * gate; an interactive task (a lookup, a transport action: one or two calls) is admitted at
   * once whatever the cap, so the gate can put its call first: a lookup behind 30 queued
   * reports waits for the one call in flight, not for a report to finish.
   */
  private startNext(account: string): void {
    const queue = this.waiting.get(account);
    while (!this.stopped && queue && queue.length > 0 && this.mayStart(account, queue[0]!)) {
      const record = queue.shift()!;
      const run = this.execute(record).finally(() => {
        this.running.delete(run);
        this.startNext(account);
      });
      this.running.add(run);
    }
  }

  private async execute(initial: TaskRecord): Promise<void> {
    const handler = this.handlers.get(initial.kind);
    const controller = new AbortController();
    const active: ActiveTask = {
      record: initial,
      controller,
      done: initial.progressDone,
      // Until the handler reports its own total, the plan (worked out once, not per estimate).
      total: initial.progressTotal > 0 ? initial.progressTotal : this.plannedTotal(initial),
      admittedAt: this.now(),
    };
    this.active.set(initial.id, active);
    try {
      // The task's own work starts after the acks of the requests that arrived with it: they go
      // out before any of their tasks runs (and posts its answer).
      await (this.options.beforeWork?.(initial) ?? new Promise<void>((resolve) => setImmediate(resolve)));
      if (!handler) throw new Error(`No handler for task kind ${initial.kind}`);
      const attempts = await this.runAttempts(initial, handler, active);
      if (attempts.ended) return;
      await this.endUnfinished(initial, active, attempts.lastError);
    } catch (error) {
      // A store failure: leave the task unfinished; it resumes when the store takes writes again.
      this.options.onStoreFailure?.(error);
      this.options.logger?.error({ taskId: initial.id, err: error }, "task could not be recorded");
    } finally {
      this.active.delete(initial.id);
      this.forgotten.delete(initial.id);
    }
  }

  /**
   * Runs the task's handler, again after a passing failure (isRetryable) up to maxAttempts.
   * `ended`: the task is done, or was forgotten with its workspace; else the error it stopped on.
   */
  private async runAttempts(
    initial: TaskRecord,
    handler: AnyTaskHandler<S>,
    active: ActiveTask,
  ): Promise<{ ended: true } | { ended: false; lastError: unknown }> {
    const store = this.options.store;
    let lastError: unknown = new Error(`gave up after ${initial.attempts} interrupted attempts`);
    for (let attempt = initial.attempts; attempt < this.maxAttempts; attempt++) {
      await store.markRunning(initial.id);
      const current = await store.get(initial.id);
      if (!current) {
        // Deleted with its workspace (forgetWorkspace): it neither runs nor answers.
        this.options.logger?.info({ taskId: initial.id }, "task forgotten with its workspace; not run");
        return { ended: true };
      }
      active.record = current;
      this.emitProgressSafely(active);
      if (active.callsFrom === undefined) {
        active.callsFrom = this.now();
        this.options.overhead?.recordStart(active.callsFrom - active.admittedAt);
      }
      try {
        const session = handler.ownSession ? (undefined as S) : await this.options.sessionFor(active.record);
        const params = handler.params.parse(initial.params);
        const result = await handler.run(this.contextFor(active, params, session));
        await this.finishAndAnnounce(initial.id, "done", { result, ...this.scrubbed(initial) });
        return { ended: true };
      } catch (error) {
        lastError = error;
        // The store (a lost Redis, a full disk) failed under the handler: the task is not at fault.
        // It stays unfinished and resumes once the store is back, instead of being ended as failed
        // by the first write that succeeds again (the outer catch records it).
        if (this.options.isStoreFailure?.(error) === true) throw error;
        if (error instanceof TaskLostError) active.lost = true;
        if (active.lost || active.controller.signal.aborted || error instanceof CallCancelledError) break;
        if (!(this.options.isRetryable?.(error) ?? false)) break;
        this.options.logger?.warn(
          { taskId: initial.id, kind: initial.kind, attempt: attempt + 1 },
          "task attempt failed; retrying",
        );
      }
    }
    return { ended: false, lastError };
  }

  /**
   * A task whose attempts stopped without an answer: taken over by another replica (nothing
   * here), cancelled, left for the next start by a shutdown, or failed with `lastError`.
   */
  private async endUnfinished(initial: TaskRecord, active: ActiveTask, lastError: unknown): Promise<void> {
    if (active.lost) {
      // The replica that runs the job now ends the task and answers; nothing more here.
      this.options.logger?.warn({ taskId: initial.id }, "task taken over by another replica; this run stops");
      return;
    }
    if (active.controller.signal.aborted) {
      await this.finishAndAnnounce(initial.id, "cancelled", this.scrubbed(initial));
      return;
    }
    if (this.stopped) {
      // Interrupted by shutdown (the gate dropped its waiting calls): the task stays
      // unfinished in the store and resumes at the next start.
      this.options.logger?.info({ taskId: initial.id, kind: initial.kind }, "task left for the next start");
      return;
    }
    const error = this.options.describeError(lastError);
    this.options.logger?.warn({ taskId: initial.id, kind: initial.kind, error }, "task failed");
    await this.finishAndAnnounce(initial.id, "failed", { error, ...this.scrubbed(initial) });
  }

  /** Ends the task in the store and, when this ending is the one kept, tells the listeners. */
  private async finishAndAnnounce(
    taskId: string,
    state: "done" | "failed" | "cancelled",
    ending: Parameters<TaskRepository["finish"]>[2],
  ): Promise<void> {
    const store = this.options.store;
    if (!(await store.finish(taskId, state, ending))) return;
    const record = await store.get(taskId);
    // Redis mode: the ending is ours, so the delivery is too; the claim keeps a re-announce elsewhere off it.
    const claimed = this.options.dispatch
      ? await this.options.dispatch
          .claimDelivery(taskId, this.options.deliveryWaitMs ?? DELIVERY_WAIT_MS)
          .catch(() => true)
      : true;
    if (!record || !claimed) return;
    // A result too large to keep is still answered once, from memory: only later reads (a page
    // turned, a re-render after a restart) say it was not kept.
    const fresh =
      record.resultNotKept?.reason === "too-large" && ending.result !== undefined
        ? { ...record, result: ending.result, resultNotKept: undefined }
        : record;
    this.emitFinished(fresh);
  }

  /** The parameters to keep once the task ends (its handler's scrub), written with the ending itself. */
  private scrubbed(task: TaskRecord | undefined): { params?: unknown } {
    const handler = task ? this.handlers.get(task.kind) : undefined;
    if (!task || !handler?.scrubParams) return {};
    const parsed = handler.params.safeParse(task.params);
    // Parameters that no longer parse keep nothing: a secret in them must not stay either.
    return { params: parsed.success ? handler.scrubParams(parsed.data) : {} };
  }

  private contextFor<P>(active: ActiveTask, params: P, session: S): TaskContext<P, S> {
    const store = this.options.store;
    const task = active.record;
    return {
      task,
      params,
      session,
      signal: active.controller.signal,
      call: { priority: task.priority as Priority, signal: active.controller.signal, taskId: task.id },
      progress: (done, total) => {
        active.done = done;
        // A total of 0 is kept: the task needs no call (a lookup answered from a fresh list).
        active.total = Math.max(total, done);
        // Progress is advisory: a failed write is logged, the task goes on.
        store.setProgress(task.id, active.done, active.total).catch((error: unknown) => {
          this.options.onStoreFailure?.(error);
          this.options.logger?.warn({ taskId: task.id, err: error }, "progress could not be recorded");
        });
        this.emitProgressSafely(active);
      },
      mutation: async <T>(
        step: string,
        how: {
          send: () => Promise<T>;
          alreadyApplied: () => Promise<T | undefined>;
          audit: MutationAudit<T>;
        },
      ) => {
        const { audit } = how;
        const recorded = await store.step(task.id, step);
        if (recorded?.state === "done") return recorded.result as T;
        if (recorded?.state === "sending") {
          const applied = await how.alreadyApplied();
          if (applied !== undefined) {
            const outcomes = audit
              .outcomes(applied)
              .map((o) => (o.outcome === "success" ? { ...o, message: FOUND_AFTER_INTERRUPTION } : o));
            await this.recordAudit(auditEntries(task, audit.action, outcomes, this.now()));
            await store.markStepDone(task.id, step, applied);
            return applied;
          }
        }
        // Redis mode: only the replica holding the job may send (a lapsed lock means another one runs it).
        if (this.options.dispatch && !(await this.options.dispatch.holds(task.id)))
          throw new TaskLostError(task.id);
        await store.markStepSending(task.id, step);
        let result: T;
        try {
          result = await how.send();
        } catch (error) {
          const failed = outcomeOfError(error);
          if (failed) {
            const outcomes = audit.uits.map((uit) => ({ uit, ...failed }));
            await this.recordAudit(auditEntries(task, audit.action, outcomes, this.now()));
          }
          throw error;
        }
        await this.recordAudit(auditEntries(task, audit.action, audit.outcomes(result), this.now()));
        await store.markStepDone(task.id, step, result);
        return result;
      },
    };
  }

  /**
   * Writes audit entries. The call they record has happened, so a failed write does not undo its
   * answer to the user: the store is marked failing and the entries go to the log (no secrets in them).
   */
  private async recordAudit(entries: AuditEntry[]): Promise<void> {
    const audit = this.options.audit;
    if (!audit || entries.length === 0) return;
    try {
      await audit.record(entries);
    } catch (error) {
      this.options.onStoreFailure?.(error);
      this.options.logger?.error({ err: error, audit: entries }, "audit entries could not be stored");
    }
  }

  /**
   * Progress of several tasks of one account in one pass: the gate's schedule is read once and
   * the places in the runner's queue indexed once (the /fleet queue of a long backlog).
   */
  async progressOfMany(records: readonly TaskRecord[]): Promise<Map<string, TaskProgress>> {
    const out = new Map<string, TaskProgress>();
    const byAccount = new Map<string, TaskRecord[]>();
    for (const record of records) {
      const list = byAccount.get(record.account) ?? [];
      list.push(record);
      byAccount.set(record.account, list);
    }
    for (const [account, mine] of byAccount) {
      const schedule = await this.options.gate.schedule(account);
      const places = new Map((this.waiting.get(account) ?? []).map((t, index) => [t.id, index]));
      for (const record of mine) {
        const current = this.active.get(record.id)?.record ?? record;
        out.set(record.id, await this.estimate(current, schedule, places));
      }
    }
    return out;
  }

  private async estimate(
    record: TaskRecord,
    known?: GateSchedule,
    placeInQueue?: ReadonlyMap<string, number>,
  ): Promise<TaskProgress> {
    const active = this.active.get(record.id);
    const base: TaskProgress = {
      taskId: record.id,
      state: record.state,
      done: active?.done ?? record.progressDone,
      total: active?.total ?? (record.progressTotal > 0 ? record.progressTotal : this.plannedTotal(record)),
    };
    if (record.state !== "queued" && record.state !== "running") return base;
    const schedule = known ?? (await this.options.gate.schedule(record.account));
    const remaining = base.total - base.done;
    // Nothing left to ask the service (a lookup the cache answers): the answer is due now.
    if (remaining <= 0) {
      this.options.logger?.debug(
        { taskId: record.id, position: 0, done: base.done, total: base.total, etaMs: 0 },
        "task estimate",
      );
      return { ...base, position: 0, expectedFinishAt: this.now(), slotMs: schedule.slotMs };
    }
    const { position, firstStartAt: placed } = this.firstCallOf(record, active, schedule, placeInQueue);
    // A task that has not reached its calls yet cannot make one before the bot's own start time
    // has passed (acks first, store writes): it matters when the slot is free now.
    let firstStartAt = placed;
    const overhead = this.options.overhead;
    if (overhead && active?.callsFrom === undefined) {
      const startedFor = active ? this.now() - active.admittedAt : 0;
      firstStartAt = Math.max(firstStartAt, this.now() + Math.max(0, overhead.startMs() - startedFor));
    }
    const interleaved = this.interleavedCalls(record, schedule, position, remaining);
    // The task ends when its last call answers, not when that call starts: one call in flight
    // with nothing after it ends one answer time after its start.
    const callsAfterFirst = Math.max(0, remaining - 1) + interleaved;
    const lastStartAt = firstStartAt + callsAfterFirst * schedule.slotMs;
    const answerMs = this.options.typicalCallMs?.(record.account) ?? schedule.slotMs;
    // …and the answer reaches Slack one delivery time after that.
    const expectedFinishAt = lastStartAt + answerMs + (overhead?.deliveryMs() ?? 0);
    // What the estimate rests on, for the bench's per-command account of its error (debug only).
    this.options.logger?.debug(
      {
        taskId: record.id,
        position,
        done: base.done,
        total: base.total,
        interleaved,
        answerMs: Math.round(answerMs),
        startMs: Math.round(overhead?.startMs() ?? 0),
        deliveryMs: Math.round(overhead?.deliveryMs() ?? 0),
        etaMs: Math.round(expectedFinishAt - this.now()),
      },
      "task estimate",
    );
    return { ...base, position, expectedFinishAt, slotMs: schedule.slotMs };
  }

  /** The task's place among the account's calls and when its next call starts, by the gate's schedule. */
  private firstCallOf(
    record: TaskRecord,
    active: ActiveTask | undefined,
    schedule: GateSchedule,
    placeInQueue?: ReadonlyMap<string, number>,
  ): { position: number; firstStartAt: number } {
    const mine = schedule.waiting.find((w) => w.taskIds.includes(record.id));
    if (mine) return { position: mine.position, firstStartAt: mine.expectedStartAt };
    if (schedule.running?.taskIds.includes(record.id) ?? false)
      return { position: 0, firstStartAt: schedule.running?.startedAt ?? this.now() };
    // Not in the gate yet (waiting for room here, or between two calls): its call will be served
    // after the waiting calls of its class or a more urgent one, not after every waiting call (a
    // lookup behind thirty queued reports is next, not 26th).
    const rank = PRIORITY_RANK[record.priority];
    const ahead =
      placeInQueue?.get(record.id) ??
      (this.waiting.get(record.account) ?? []).findIndex((t) => t.id === record.id);
    const servedFirst = schedule.waiting.filter((w) => PRIORITY_RANK[w.priority] <= rank).length;
    // Admitted tasks still letting the acks go first (PendingAcks) have no call in the gate yet,
    // but each will put one there before this one: those as urgent, admitted earlier.
    const myAdmission = active?.admittedAt ?? Number.POSITIVE_INFINITY;
    let notYetInGate = 0;
    for (const other of this.active.values()) {
      if (other.record.id === record.id || other.record.account !== record.account) continue;
      if (other.callsFrom !== undefined || PRIORITY_RANK[other.record.priority] > rank) continue;
      if (other.admittedAt <= myAdmission) notYetInGate++;
    }
    const position = servedFirst + notYetInGate + Math.max(0, ahead);
    return { position, firstStartAt: schedule.nextSlotAt + position * schedule.slotMs };
  }

  /**
   * Calls of other active tasks interleave with ours: more urgent ones take all their
   * remaining slots, equally urgent ones one slot per call of ours (round robin). A call
   * of theirs already running or waiting ahead of ours is counted in firstStartAt.
   */
  private interleavedCalls(
    record: TaskRecord,
    schedule: GateSchedule,
    position: number,
    remaining: number,
  ): number {
    const myRank = PRIORITY_RANK[record.priority];
    let interleaved = 0;
    for (const other of this.active.values()) {
      if (other.record.id === record.id || other.record.account !== record.account) continue;
      const theirsAhead =
        (schedule.running?.taskIds.includes(other.record.id) ?? false) ||
        schedule.waiting.some((w) => w.position < position && w.taskIds.includes(other.record.id));
      const theirs = Math.max(0, other.total - other.done - (theirsAhead ? 1 : 0));
      const rank = PRIORITY_RANK[other.record.priority];
      if (rank < myRank) interleaved += theirs;
      else if (rank === myRank) interleaved += Math.min(theirs, remaining - 1);
    }
    return interleaved;
  }

  /**
   * How long a task not yet submitted takes on its own once its first call may start: its planned
   * calls one slot apart, then the last one's answer. A scheduled run is submitted this early, so
   * that its answer lands near the set time.
   */
  durationOf(task: Pick<TaskRecord, "kind" | "params" | "account">): number {
    const calls = this.plannedCalls(task);
    const slot = this.options.gate.slotMs(task.account);
    return Math.max(0, calls - 1) * slot + (this.options.typicalCallMs?.(task.account) ?? slot);
  }

  /** The calls a task not yet submitted plans (its handler's plan plus a login). */
  plannedCalls(task: Pick<TaskRecord, "kind" | "params" | "account">): number {
    return this.plannedTotal(task);
  }

  /** The calls of a task that has not reported its own total: its handler's plan plus a login. */
  private plannedTotal(record: Pick<TaskRecord, "kind" | "params" | "account">): number {
    const handler = this.handlers.get(record.kind);
    if (!handler?.plan) return 1;
    const parsed = parseParams(handler.params, record.params);
    if (!parsed.success) return 1;
    const own = handler.plan(parsed.data, record.account);
    // A task that asks nothing logs in for nothing.
    return own > 0 ? own + (this.options.loginCalls?.(record.account) ?? 0) : 0;
  }

  /** Progress is advisory: an estimate that cannot be made (the gate's Redis closing) is logged, not thrown. */
  private emitProgressSafely(active: ActiveTask): void {
    this.emitProgress(active).catch((error: unknown) => {
      this.options.logger?.warn(
        { taskId: active.record.id, err: error },
        "task progress could not be estimated",
      );
    });
  }

  private async emitProgress(active: ActiveTask): Promise<void> {
    if (this.listeners.size === 0 || this.forgotten.has(active.record.id)) return;
    const progress = await this.estimate(active.record);
    for (const listener of this.listeners) listener.progress?.(progress, active.record);
  }

  private emitFinished(task: TaskRecord): void {
    if (this.forgotten.has(task.id)) return;
    for (const listener of this.listeners) {
      try {
        listener.finished?.(task);
      } catch (error) {
        this.options.logger?.error({ taskId: task.id, err: error }, "task listener failed");
      }
    }
  }
}

/** The runner's waiting order: priority class, then age. */
function admissionOrder(a: TaskRecord, b: TaskRecord): number {
  return PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] || a.createdAt - b.createdAt;
}
