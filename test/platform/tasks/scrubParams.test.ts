/**
 * A handler's scrubParams: secrets a task needed while it ran are gone from the stored row as
 * soon as it ends, whether done, failed or cancelled (issue 11: a link attempt's sealed password).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { MemoryGate } from "../../../src/platform/gate/memoryGate.js";
import { VirtualClock } from "../../../src/platform/gate/virtualClock.js";
import { type Db, openDatabase } from "../../../src/platform/store/database.js";
import { promised } from "../../../src/platform/store/promised.js";
import { SqliteTaskStore } from "../../../src/platform/store/taskStore.js";
import { type TaskHandler, TaskRunner } from "../../../src/platform/tasks/runner.js";

interface SecretParams {
  user: string;
  secret?: string;
  outcome: "done" | "fail" | "wait";
}

/** Logs in through the gate (like the link check) and ends as its parameters say. */
const secretHandler: TaskHandler<SecretParams, string, undefined> = {
  kind: "secret",
  params: z.object({
    user: z.string(),
    secret: z.string().optional(),
    outcome: z.enum(["done", "fail", "wait"]),
  }),
  ownSession: true,
  scrubParams: ({ user, outcome }) => ({ user, outcome }),
  async run(ctx) {
    return gate.run({ account: "acct", endpoint: "login", context: ctx.call }, async () => {
      if (ctx.params.outcome === "fail") throw new Error("refused");
      return `ok ${ctx.params.user}`;
    });
  },
};

let gate: MemoryGate;
const dirs: string[] = [];
const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup() {
  const dir = mkdtempSync(join(tmpdir(), "fleetbot-scrub-"));
  dirs.push(dir);
  const clock = new VirtualClock();
  gate = new MemoryGate({ minIntervalMs: 30_000, clock, rateLimitDelay: () => undefined });
  const db = openDatabase(dir);
  dbs.push(db);
  const store = new SqliteTaskStore(db, () => clock.now());
  const runner = new TaskRunner<undefined>({
    store: promised(store),
    gate,
    handlers: [secretHandler],
    sessionFor: async () => undefined,
    describeError: (error) => ({ kind: "test", message: String(error) }),
    now: () => clock.now(),
    maxActivePerAccount: 1,
  });
  const submit = async (outcome: SecretParams["outcome"]) =>
    (
      await runner.submit({
        kind: "secret",
        params: { user: "ana", secret: "sealed-XYZ", outcome },
        account: "acct",
        reply: { channel: "C1" },
        priority: "interactive",
      })
    ).task.id;
  /** The stored row's params as SQLite holds them. */
  const rawParams = (id: string) =>
    (db.prepare("SELECT params FROM tasks WHERE id = ?").get(id) as { params: string }).params;
  return { clock, store, runner, submit, rawParams };
}

describe("scrubParams", () => {
  it("keeps the secret while the task waits, and deletes it when the task is done, failed or cancelled", async () => {
    const { clock, store, runner, submit, rawParams } = setup();
    const done = await submit("done");
    const failed = await submit("fail");
    const cancelled = await submit("wait");
    expect(rawParams(cancelled)).toContain("sealed-XYZ");
    expect(await runner.cancel(cancelled)).toBe(true);
    await clock.runAll();
    await runner.idle();
    expect(store.get(done)?.state).toBe("done");
    expect(store.get(failed)?.state).toBe("failed");
    expect(store.get(cancelled)?.state).toBe("cancelled");
    for (const id of [done, failed, cancelled]) {
      expect(rawParams(id)).not.toContain("sealed-XYZ");
      expect(store.get(id)?.params).toMatchObject({ user: "ana" });
    }
  });
});
