/**
 * A store that fails under a running task (Redis away for a moment, a full disk) is not the task's
 * fault: the task stays unfinished and resumes when the store is back, never ends as "failed"
 * because the first write after the outage happened to succeed (seen once in redisRestart.e2e).
 */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { MemoryGate } from "../../../src/platform/gate/memoryGate.js";
import { type Db, openDatabase } from "../../../src/platform/store/database.js";
import { promised } from "../../../src/platform/store/promised.js";
import { SqliteTaskStore } from "../../../src/platform/store/taskStore.js";
import { type TaskHandler, TaskRunner } from "../../../src/platform/tasks/runner.js";

let db: Db | undefined;
afterEach(() => db?.close());

class StoreGone extends Error {}

function runnerWith(failure: Error) {
  db = openDatabase(":memory:");
  const storeFailures: unknown[] = [];
  const handler: TaskHandler<Record<string, never>, string, undefined> = {
    kind: "lookup",
    params: z.object({}),
    ownSession: true,
    run: async () => {
      throw failure;
    },
  };
  const tasks = promised(new SqliteTaskStore(db));
  const runner = new TaskRunner<undefined>({
    store: tasks,
    gate: new MemoryGate({ minIntervalMs: 1 }),
    handlers: [handler],
    sessionFor: async () => undefined,
    describeError: (error) => ({ kind: "test", message: (error as Error).message }),
    onStoreFailure: (error) => storeFailures.push(error),
    // As StoreHealth.failed and RedisHealth.failed answer (the root passes those).
    isStoreFailure: (error) => error instanceof StoreGone,
  });
  const submit = async () => {
    const { task } = await runner.submit({
      kind: "lookup",
      params: {},
      account: "demo",
      slackUser: "U0DISPATCH",
      reply: {},
      priority: "interactive",
    });
    await runner.idle();
    return (await tasks.get(task.id))!;
  };
  return { submit, storeFailures };
}

describe("a store failure under a running task", () => {
  it("leaves the task unfinished (it resumes when the store is back) and reports the store", async () => {
    const s = runnerWith(new StoreGone("Connection is closed."));
    const task = await s.submit();
    expect(task.state).toBe("running");
    expect(task.error).toBeUndefined();
    expect(s.storeFailures).toEqual([expect.any(StoreGone)]);
  });

  it("any other error still fails the task, with its reason", async () => {
    const s = runnerWith(new Error("the service said no"));
    const task = await s.submit();
    expect(task.state).toBe("failed");
    expect(task.error).toMatchObject({ message: "the service said no" });
    expect(s.storeFailures).toEqual([]);
  });
});
