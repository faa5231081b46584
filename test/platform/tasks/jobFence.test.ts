import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { MemoryGate } from "../../../src/platform/gate/memoryGate.js";
import { openDatabase } from "../../../src/platform/store/database.js";
import { promised } from "../../../src/platform/store/promised.js";
import { SqliteTaskStore } from "../../../src/platform/store/taskStore.js";
import { type TaskDispatch, type TaskHandler, TaskRunner } from "../../../src/platform/tasks/runner.js";
import type { TaskRecord } from "../../../src/platform/tasks/task.js";

/**
 * The Redis mode's fence, with the queue replaced by a dispatch whose answers the test sets:
 * a replica that no longer holds a task's job never sends its mutation and never ends the task,
 * and only the replica that claims a delivery announces the answer.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup(dispatch: TaskDispatch) {
  const dir = mkdtempSync(join(tmpdir(), "fleetbot-fence-"));
  dirs.push(dir);
  const store = promised(new SqliteTaskStore(openDatabase(dir)));
  const sent: string[] = [];
  const endHandler: TaskHandler<{ uit: string }, string, undefined> = {
    kind: "end",
    params: z.object({ uit: z.string() }),
    ownSession: true,
    run: (ctx) =>
      ctx.mutation(`end:${ctx.params.uit}`, {
        alreadyApplied: async () => undefined,
        send: async () => {
          sent.push(`end ${ctx.params.uit}`);
          return "ended";
        },
        audit: { action: "end", uits: [ctx.params.uit], outcomes: () => [] },
      }),
  };
  const finished: TaskRecord[] = [];
  const runner = new TaskRunner<undefined>({
    store,
    gate: new MemoryGate({ minIntervalMs: 1 }),
    handlers: [endHandler],
    sessionFor: async () => undefined,
    describeError: (error) => ({ kind: "test", message: String(error) }),
    dispatch,
    deliveryWaitMs: 200,
  });
  runner.on({
    finished: (task) => {
      finished.push(task);
      void runner.markDelivered(task.id);
    },
  });
  return { runner, store, sent, finished };
}

const newTask = {
  kind: "end",
  params: { uit: "UIT1" },
  account: "demo",
  reply: { channel: "C1" },
  priority: "interactive",
} as const;

describe("a task's run is fenced by its job (Redis mode)", () => {
  it("a replica that lost the job sends nothing and leaves the task to the holder", async () => {
    const queued: string[] = [];
    const { runner, store, sent, finished } = setup({
      enqueue: async (task) => void queued.push(task.id),
      removeQueued: async () => false,
      remove: async () => true,
      cancelElsewhere: async () => undefined,
      holds: async () => false,
      claimDelivery: async () => true,
    });
    const { task } = await runner.submit(newTask);
    expect(queued).toEqual([task.id]);
    await expect(runner.runJob(task.id)).rejects.toThrow(/unfinished/);
    expect(sent).toEqual([]);
    expect(finished).toEqual([]);
    expect((await store.get(task.id))?.state).toBe("running");
  });

  it("the holder sends once and answers; a second replica's job for the finished task announces nothing", async () => {
    let claims = 0;
    const dispatch: TaskDispatch = {
      enqueue: async () => undefined,
      removeQueued: async () => false,
      remove: async () => true,
      cancelElsewhere: async () => undefined,
      holds: async () => true,
      // One replica claims the delivery; later claims are refused while it lasts.
      claimDelivery: async () => ++claims === 1,
    };
    const a = setup(dispatch);
    const { task } = await a.runner.submit(newTask);
    await a.runner.runJob(task.id);
    expect(a.sent).toEqual(["end UIT1"]);
    expect(a.finished.map((t) => t.id)).toEqual([task.id]);
  });

  it("a finished task whose answer is not recorded: announced only by the replica that claims the delivery", async () => {
    let claimed = false;
    const { runner, store, finished } = setup({
      enqueue: async () => undefined,
      removeQueued: async () => false,
      remove: async () => true,
      cancelElsewhere: async () => undefined,
      holds: async () => true,
      claimDelivery: async () => claimed,
    });
    const { task } = await store.create(newTask);
    await store.finish(task.id, "done", { result: "ended" });
    // Another replica holds the delivery: this job only waits until the store says it was delivered.
    setTimeout(() => void store.markDelivered(task.id), 50);
    await runner.runJob(task.id);
    expect(finished).toEqual([]);
    // The delivering replica died before recording it: the claim lapses, the next job announces it once.
    const second = await store.create({ ...newTask, params: { uit: "UIT2" } });
    await store.finish(second.task.id, "done", { result: "ended" });
    claimed = true;
    await runner.runJob(second.task.id);
    expect(finished.map((t) => t.id)).toEqual([second.task.id]);
  });
});
