import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { RedisTaskQueue } from "../../../src/app/backend/bullmq/taskQueue.js";
import type { CallContext } from "../../../src/platform/fleet/seam.js";
import { MemoryGate } from "../../../src/platform/gate/memoryGate.js";
import { VirtualClock } from "../../../src/platform/gate/virtualClock.js";
import { openDatabase } from "../../../src/platform/store/database.js";
import { promised } from "../../../src/platform/store/promised.js";
import { SqliteTaskStore } from "../../../src/platform/store/taskStore.js";
import { type TaskDispatch, type TaskHandler, TaskRunner } from "../../../src/platform/tasks/runner.js";
import type { NewTask, TaskProgress, TaskRecord } from "../../../src/platform/tasks/task.js";
import { redisForTests, redisSkipReason } from "../../helpers/redisServer.js";

/**
 * A workspace uninstalled fleetbot (TaskRunner.forgetWorkspace): its tasks stop and go without a
 * word to it, while the other workspaces' tasks, even of the same fleet account, run on.
 */
const INTERVAL = 30_000;

/** A stand-in fleet session of one account: each call goes through the real gate and is recorded. */
class RecordingSession {
  readonly sent: string[] = [];
  constructor(
    private readonly gate: MemoryGate,
    private readonly account: string,
  ) {}
  call(name: string, ctx: CallContext): Promise<string> {
    return this.gate.run({ account: this.account, endpoint: "stops", context: ctx }, async () => {
      this.sent.push(name);
      return name;
    });
  }
}

/** Calls named after the task's `tag`, so the test sees whose calls went out. */
const reportHandler: TaskHandler<{ tag: string; calls: number }, string[], RecordingSession> = {
  kind: "report",
  params: z.object({ tag: z.string(), calls: z.number().int().min(1) }),
  async run(ctx) {
    const results: string[] = [];
    ctx.progress(0, ctx.params.calls);
    for (let i = 0; i < ctx.params.calls; i++) {
      results.push(await ctx.session.call(`${ctx.params.tag}-${i}`, ctx.call));
      ctx.progress(i + 1, ctx.params.calls);
    }
    return results;
  },
};

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup(options: { dispatch?: TaskDispatch } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "fleetbot-forget-"));
  dirs.push(dir);
  const clock = new VirtualClock();
  const gate = new MemoryGate({ minIntervalMs: INTERVAL, clock, rateLimitDelay: () => undefined });
  const db = openDatabase(dir);
  const store = new SqliteTaskStore(db, () => clock.now());
  const sessions = new Map(["demo", "acme"].map((account) => [account, new RecordingSession(gate, account)]));
  const finished: TaskRecord[] = [];
  const progress: { progress: TaskProgress; task: TaskRecord }[] = [];
  const runner = new TaskRunner<RecordingSession>({
    store: promised(store),
    gate,
    handlers: [reportHandler],
    sessionFor: async (task) => sessions.get(task.account)!,
    describeError: (error) => ({ kind: "test", message: (error as Error).message }),
    // One report of an account at a time: the next one waits in the runner's queue.
    maxActivePerAccount: 1,
    now: () => clock.now(),
    ...(options.dispatch ? { dispatch: options.dispatch, deliveryWaitMs: 200 } : {}),
  });
  runner.on({
    finished: (task) => {
      finished.push(task);
      void runner.markDelivered(task.id);
    },
    progress: (p, task) => progress.push({ progress: p, task }),
  });
  const sent = () => [...sessions.values()].flatMap((session) => session.sent);
  return { db, clock, store, runner, finished, progress, sent };
}

const report = (workspace: string | undefined, tag: string, calls: number, account = "demo"): NewTask => ({
  kind: "report",
  params: { tag, calls },
  account,
  ...(workspace === undefined ? {} : { workspace }),
  slackUser: "U1",
  reply: { channel: "C1" },
  priority: "report",
});

describe("TaskRunner.forgetWorkspace (in-process queue)", () => {
  it("drops a queued task of the uninstalled workspace before it runs; another workspace's task runs on", async () => {
    const { db, clock, store, runner, finished, progress, sent } = setup();
    const b = (await runner.submit(report("T:B", "b", 3))).task;
    // Same fleet account, so it waits behind T:B's report (one active report per account).
    const aQueued = (await runner.submit(report("T:A", "a-queued", 2))).task;
    // Its own account: it runs at once, and is stopped mid-way.
    const aRunning = (await runner.submit(report("T:A", "a-running", 4, "acme"))).task;
    store.markStepSending(aRunning.id, "start:UIT1");
    await clock.advanceBy(INTERVAL * 1.5);
    expect(store.get(aQueued.id)?.state).toBe("queued");
    expect(store.get(aRunning.id)?.state).toBe("running");
    const sentByRunningBefore = sent().filter((name) => name.startsWith("a-running")).length;
    expect(sentByRunningBefore).toBeGreaterThan(0);
    const progressBefore = progress.length;

    expect(await runner.forgetWorkspace("T:A")).toBe(2);
    await clock.runAll();
    await runner.idle();

    // T:B's report ran to the end and was answered; nothing of T:A was.
    expect(store.get(b.id)).toMatchObject({ state: "done", workspace: "T:B", result: ["b-0", "b-1", "b-2"] });
    expect(finished.map((t) => t.id)).toEqual([b.id]);
    expect(progress.slice(progressBefore).every((p) => p.task.workspace === "T:B")).toBe(true);
    // The queued task never sent a call; the running one sent no call after it was forgotten.
    expect(sent().filter((name) => name.startsWith("a-queued"))).toEqual([]);
    expect(sent().filter((name) => name.startsWith("a-running"))).toHaveLength(sentByRunningBefore);
    // Both are gone from the store, with their journal.
    expect(store.get(aQueued.id)).toBeUndefined();
    expect(store.get(aRunning.id)).toBeUndefined();
    expect(store.step(aRunning.id, "start:UIT1")).toBeUndefined();
    expect(store.unfinished()).toEqual([]);
    // Nothing left: a second uninstall forgets nothing.
    expect(await runner.forgetWorkspace("T:A")).toBe(0);
    db.close();
  });

  it("refuses the single workspace and leaves its tasks running", async () => {
    const { db, clock, store, runner, finished } = setup();
    const single = (await runner.submit(report(undefined, "s", 1))).task;
    await expect(runner.forgetWorkspace("")).rejects.toThrow(/single workspace/);
    await clock.runAll();
    await runner.idle();
    expect(store.get(single.id)).toMatchObject({ state: "done", workspace: "" });
    expect(finished.map((t) => t.id)).toEqual([single.id]);
    db.close();
  });
});

describe("TaskRunner.forgetWorkspace (Redis mode, the queue seen through its dispatch)", () => {
  it("removes the workspace's jobs, asks the replica running one to stop it, and a job left over ends quietly", async () => {
    const enqueued: string[] = [];
    const removed: string[] = [];
    const cancelled: string[] = [];
    let running: string | undefined;
    const { db, store, runner, finished, sent } = setup({
      dispatch: {
        enqueue: async (task) => void enqueued.push(task.id),
        removeQueued: async () => false,
        // The job of `running` is held by another replica: BullMQ will not remove it.
        remove: async (taskId) => {
          removed.push(taskId);
          return taskId !== running;
        },
        cancelElsewhere: async (taskId) => void cancelled.push(taskId),
        holds: async () => true,
        claimDelivery: async () => true,
      },
    });
    const a1 = (await runner.submit(report("T:A", "a1", 1))).task;
    const a2 = (await runner.submit(report("T:A", "a2", 1, "acme"))).task;
    const b = (await runner.submit(report("T:B", "b", 1))).task;
    expect(enqueued).toEqual([a1.id, a2.id, b.id]);
    running = a2.id;

    expect(await runner.forgetWorkspace("T:A")).toBe(2);
    expect([...removed].sort()).toEqual([a1.id, a2.id].sort());
    expect(cancelled).toEqual([a2.id]);
    expect(store.get(a1.id)).toBeUndefined();

    // A job of a forgotten task that a worker still takes ends at once: nothing runs, nothing is said.
    await runner.runJob(a1.id);
    expect(sent()).toEqual([]);
    // T:B's job runs as before.
    await runner.runJob(b.id);
    expect(sent()).toEqual(["b-0"]);
    expect(finished.map((t) => t.id)).toEqual([b.id]);
    db.close();
  });
});

describe.skipIf(redisSkipReason !== undefined)("RedisTaskQueue.remove (a real redis-server)", () => {
  const redis = redisForTests({ maxRetriesPerRequest: null });

  it("removes a waiting job, and says so when the task has none", async () => {
    const connection = redis.connect();
    const queue = new RedisTaskQueue({
      connection,
      workerConnection: redis.connect(),
      prefix: `forget-${randomBytes(4).toString("hex")}`,
      run: async () => undefined,
      abortLocal: () => false,
      yieldLocal: () => undefined,
      lockMs: 5_000,
      retryDelayMs: 1_000,
    });
    try {
      const record = {
        id: "task-a",
        kind: "report",
        params: {},
        account: "demo",
        workspace: "T:A",
        reply: {},
        priority: "report",
        state: "queued",
        progressDone: 0,
        progressTotal: 0,
        attempts: 0,
        createdAt: 0,
        updatedAt: 0,
      } satisfies TaskRecord;
      await queue.enqueue(record);
      await queue.enqueue({ ...record, id: "task-b", priority: "interactive" });
      expect(await queue.counts()).toEqual({ interactive: 1, work: 1 });
      expect(await queue.remove("task-a")).toBe(true);
      expect(await queue.counts()).toEqual({ interactive: 1, work: 0 });
      expect(await queue.remove("task-b")).toBe(true);
      expect(await queue.remove("task-b")).toBe(true);
      expect(await queue.counts()).toEqual({ interactive: 0, work: 0 });
    } finally {
      await queue.close();
    }
  });
});
