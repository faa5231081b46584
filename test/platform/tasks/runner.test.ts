import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { CallContext } from "../../../src/platform/fleet/seam.js";
import { MemoryGate } from "../../../src/platform/gate/memoryGate.js";
import { VirtualClock } from "../../../src/platform/gate/virtualClock.js";
import { openDatabase } from "../../../src/platform/store/database.js";
import { promised } from "../../../src/platform/store/promised.js";
import type { ResultLimits } from "../../../src/platform/store/resultCodec.js";
import { SqliteTaskStore } from "../../../src/platform/store/taskStore.js";
import { type TaskHandler, TaskRunner } from "../../../src/platform/tasks/runner.js";
import type { TaskProgress, TaskRecord } from "../../../src/platform/tasks/task.js";

const INTERVAL = 30_000;

/** A stand-in fleet session: each call goes through the real gate and is recorded. */
class RecordingSession {
  readonly sent: string[] = [];
  failNext = 0;
  constructor(
    private readonly gate: MemoryGate,
    private readonly account: string,
  ) {}
  call(name: string, ctx: CallContext): Promise<string> {
    return this.gate.run({ account: this.account, endpoint: "stops", context: ctx }, async () => {
      if (this.failNext > 0) {
        this.failNext--;
        throw Object.assign(new Error("upstream 503"), { retryable: true });
      }
      this.sent.push(name);
      return name;
    });
  }
}

const reportHandler: TaskHandler<{ calls: number }, string[], RecordingSession> = {
  kind: "report",
  params: z.object({ calls: z.number().int().min(1) }),
  async run(ctx) {
    const results: string[] = [];
    ctx.progress(0, ctx.params.calls);
    for (let i = 0; i < ctx.params.calls; i++) {
      results.push(await ctx.session.call(`${ctx.task.id.slice(0, 4)}-${i}`, ctx.call));
      ctx.progress(i + 1, ctx.params.calls);
    }
    return results;
  },
};

const startHandler: TaskHandler<{ uit: string }, string, RecordingSession> = {
  kind: "start",
  params: z.object({ uit: z.string() }),
  async run(ctx) {
    return ctx.mutation(`start:${ctx.params.uit}`, {
      alreadyApplied: async () =>
        ctx.session.sent.includes(`start ${ctx.params.uit}`) ? "already" : undefined,
      send: () => ctx.session.call(`start ${ctx.params.uit}`, ctx.call),
      audit: { action: "start", uits: [ctx.params.uit], outcomes: () => [] },
    });
  },
};

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup(dataDir?: string, resultLimits?: ResultLimits) {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), "fleetbot-tasks-"));
  if (!dataDir) dirs.push(dir);
  const clock = new VirtualClock();
  const gate = new MemoryGate({
    minIntervalMs: INTERVAL,
    clock,
    rateLimitDelay: () => undefined,
  });
  const db = openDatabase(dir);
  const store = new SqliteTaskStore(db, () => clock.now(), resultLimits);
  const session = new RecordingSession(gate, "demo");
  const finished: TaskRecord[] = [];
  const progress: TaskProgress[] = [];
  const runner = new TaskRunner<RecordingSession>({
    store: promised(store),
    gate,
    handlers: [reportHandler, startHandler],
    sessionFor: async () => session,
    describeError: (error) => ({ kind: "test", message: (error as Error).message }),
    isRetryable: (error) => (error as { retryable?: boolean }).retryable === true,
    now: () => clock.now(),
  });
  runner.on({ finished: (t) => finished.push(t), progress: (p) => progress.push(p) });
  return { dir, clock, gate, db, store, session, runner, finished, progress };
}

const reply = { channel: "C1" };

describe("TaskRunner, background tasks of one account (scheduled reports)", () => {
  it("run one after another, so each finishes as early as its place allows; a lookup still goes first", async () => {
    const { clock, runner, session, finished } = setup();
    const runs = [];
    for (let i = 0; i < 3; i++)
      runs.push(
        (
          await runner.submit({
            kind: "report",
            params: { calls: 3 },
            account: "demo",
            reply,
            priority: "background",
          })
        ).task,
      );
    const lookup = (
      await runner.submit({
        kind: "start",
        params: { uit: "U1" },
        account: "demo",
        reply,
        priority: "interactive",
      })
    ).task;
    await clock.runAll();
    await runner.idle();
    // Each run's three calls together, in submission order; the lookup's call before the second run's.
    const prefix = (t: TaskRecord) => t.id.slice(0, 4);
    const [a, b, c] = runs.map(prefix);
    expect(session.sent).toEqual([
      `${a}-0`,
      "start U1",
      `${a}-1`,
      `${a}-2`,
      `${b}-0`,
      `${b}-1`,
      `${b}-2`,
      `${c}-0`,
      `${c}-1`,
      `${c}-2`,
    ]);
    expect(finished.map((t) => t.id)).toEqual([lookup.id, ...runs.map((t) => t.id)]);
  });
});

describe("TaskRunner", () => {
  it("stores the task before running it and records the result", async () => {
    const { clock, runner, store, finished } = setup();
    const { task, created } = await runner.submit({
      kind: "report",
      params: { calls: 3 },
      account: "demo",
      reply,
      priority: "report",
    });
    expect(created).toBe(true);
    expect(store.get(task.id)?.state).toMatch(/queued|running/);
    await clock.runAll();
    await runner.idle();
    expect(store.get(task.id)?.state).toBe("done");
    expect(store.get(task.id)?.result).toHaveLength(3);
    expect(finished.map((t) => t.id)).toEqual([task.id]);
    expect(store.get(task.id)?.progressDone).toBe(3);
  });

  it("progress that cannot be estimated (the gate's schedule failing) is skipped; the task still ends done", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const { clock, gate, runner, store, finished } = setup();
      gate.schedule = () => Promise.reject(new Error("Connection is closed."));
      const { task } = await runner.submit({
        kind: "report",
        params: { calls: 3 },
        account: "demo",
        reply,
        priority: "report",
      });
      await clock.runAll();
      await runner.idle();
      await new Promise((r) => setImmediate(r));
      expect(store.get(task.id)?.state).toBe("done");
      expect(finished.map((t) => t.id)).toEqual([task.id]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("a result too large to keep is still answered once in full; the store keeps the marker", async () => {
    const { clock, runner, store, finished } = setup(undefined, {
      compressAboveBytes: 8,
      maxStoredBytes: 10,
    });
    const { task } = await runner.submit({
      kind: "report",
      params: { calls: 3 },
      account: "demo",
      reply,
      priority: "report",
    });
    await clock.runAll();
    await runner.idle();
    expect(store.get(task.id)?.resultNotKept?.reason).toBe("too-large");
    expect(finished).toHaveLength(1);
    expect(finished[0]!.result).toHaveLength(3);
    expect(finished[0]!.resultNotKept).toBeUndefined();
  });

  it("admits a lookup past the active-task cap: behind 30 queued reports it waits for the one call in flight", async () => {
    const { clock, runner, session, store } = setup();
    for (let i = 0; i < 30; i++) {
      clock.advanceBy(1); // distinct ages
      await runner.submit({
        kind: "report",
        params: { calls: 3 },
        account: "demo",
        reply,
        priority: "report",
      });
    }
    expect(store.countUnfinished("demo")).toBe(30);
    await new Promise((resolve) => setImmediate(resolve)); // the admitted reports' calls wait in the gate
    const lookup = await runner.submit({
      kind: "start",
      params: { uit: "LOOKUP" },
      account: "demo",
      reply,
      priority: "interactive",
    });
    // What the ack says, before the lookup's call reached the gate: next in line, not behind the reports.
    expect((await runner.progressOf(lookup.task.id))?.position).toBeLessThanOrEqual(1);
    await clock.runAll();
    await runner.idle();
    expect(store.get(lookup.task.id)?.state).toBe("done");
    // The first report call was already sent when the lookup arrived; the lookup's goes next.
    expect(session.sent.indexOf("start LOOKUP")).toBe(1);
    expect(session.sent).toHaveLength(91);
  });

  it("estimates many tasks in one pass exactly as one by one", async () => {
    const { clock, runner, store } = setup();
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      clock.advanceBy(1);
      const priority = i % 7 === 0 ? "interactive" : "report";
      ids.push(
        (await runner.submit({ kind: "report", params: { calls: 2 }, account: "demo", reply, priority })).task
          .id,
      );
    }
    // Let the admitted tasks reach the gate, then read both ways at the same instant.
    await new Promise((resolve) => setImmediate(resolve));
    const records = ids.map((id) => store.get(id)!);
    const [many, one] = await Promise.all([
      runner.progressOfMany(records),
      Promise.all(ids.map((id) => runner.progressOf(id))),
    ]);
    expect(ids.map((id) => many.get(id))).toEqual(one);
    expect(one.filter((p) => p?.position !== undefined)).toHaveLength(40);
    await clock.runAll();
    await runner.idle();
  });

  it("resumes a backlog in priority then age order", async () => {
    const first = setup();
    for (let i = 0; i < 40; i++) {
      first.clock.advanceBy(1);
      await first.runner.submit({
        kind: "report",
        params: { calls: 1 },
        account: "demo",
        reply,
        priority: i % 5 === 0 ? "interactive" : "report",
      });
    }
    await first.runner.stop();
    first.db.close();
    const second = setup(first.dir);
    await second.runner.resume();
    await second.clock.runAll();
    await second.runner.idle();
    const done = second.store.recent("demo", 100).filter((t) => t.state === "done");
    expect(done).toHaveLength(40);
    // The interactive ones were all sent before the 26th report (cap 25): none waits behind the cap.
    const sentOrder = second.session.sent;
    const interactiveIds = done.filter((t) => t.priority === "interactive").map((t) => t.id.slice(0, 4));
    const lastInteractive = Math.max(
      ...interactiveIds.map((p) => sentOrder.findIndex((s) => s.startsWith(p))),
    );
    expect(lastInteractive).toBeLessThan(25);
  });

  it("runs a double submission of the same mutation once", async () => {
    const { clock, runner, session } = setup();
    const first = await runner.submit({
      kind: "start",
      params: { uit: "U1" },
      account: "demo",
      reply,
      priority: "interactive",
      dedupeKey: "start:U1",
    });
    const second = await runner.submit({
      kind: "start",
      params: { uit: "U1" },
      account: "demo",
      reply,
      priority: "interactive",
      dedupeKey: "start:U1",
    });
    expect(second.created).toBe(false);
    expect(second.task.id).toBe(first.task.id);
    await clock.runAll();
    await runner.idle();
    expect(session.sent).toEqual(["start U1"]);
  });

  it("cancel drops the remaining calls; a call already sent finishes", async () => {
    const { clock, runner, store, session } = setup();
    const { task } = await runner.submit({
      kind: "report",
      params: { calls: 6 },
      account: "demo",
      reply,
      priority: "report",
    });
    await clock.advanceBy(INTERVAL * 1.5); // two calls have been sent
    expect(await runner.cancel(task.id)).toBe(true);
    await clock.runAll();
    await runner.idle();
    expect(store.get(task.id)?.state).toBe("cancelled");
    expect(session.sent).toHaveLength(2);
  });

  it("estimates the finish within one interval of the real finish, with a competing report", async () => {
    const { clock, runner, store } = setup();
    const other = await runner.submit({
      kind: "report",
      params: { calls: 3 },
      account: "demo",
      reply,
      priority: "report",
    });
    const { task } = await runner.submit({
      kind: "report",
      params: { calls: 5 },
      account: "demo",
      reply,
      priority: "report",
    });
    await clock.advanceBy(1);
    const estimate = await runner.progressOf(task.id);
    expect(estimate?.expectedFinishAt).toBeDefined();
    expect(estimate?.position).toBeGreaterThanOrEqual(0);
    await clock.runAll();
    await runner.idle();
    const finishedAt = store.get(task.id)!.finishedAt!;
    expect(store.get(other.task.id)?.state).toBe("done");
    expect(Math.abs(finishedAt - estimate!.expectedFinishAt!)).toBeLessThanOrEqual(INTERVAL);
  });

  it("retries an attempt that failed for a passing reason", async () => {
    const { clock, runner, store, session } = setup();
    session.failNext = 1;
    const { task } = await runner.submit({
      kind: "report",
      params: { calls: 2 },
      account: "demo",
      reply,
      priority: "report",
    });
    await clock.runAll();
    await runner.idle();
    expect(store.get(task.id)?.state).toBe("done");
    expect(store.get(task.id)?.attempts).toBe(2);
  });

  it("resumes unfinished tasks on a new runner and does not resend a mutation that reached the service", async () => {
    const first = setup();
    // A crash between sending and recording: the journal says "sending", the service has it.
    const { task } = first.store.create({
      kind: "start",
      params: { uit: "U9" },
      account: "demo",
      reply,
      priority: "interactive",
    });
    first.store.markRunning(task.id);
    first.store.markStepSending(task.id, "start:U9");
    const queued = first.store.create({
      kind: "report",
      params: { calls: 1 },
      account: "demo",
      reply,
      priority: "report",
    });
    first.db.close();

    const second = setup(first.dir);
    second.session.sent.push("start U9"); // what the service already has
    expect((await second.runner.resume()).resumed).toBe(2);
    await second.clock.runAll();
    await second.runner.idle();
    expect(second.store.get(task.id)?.state).toBe("done");
    expect(second.store.get(task.id)?.result).toBe("already");
    expect(second.session.sent.filter((s) => s === "start U9")).toHaveLength(1);
    expect(second.store.get(queued.task.id)?.state).toBe("done");
    second.db.close();
  });

  it("re-announces a finished task whose answer never reached Slack", async () => {
    const first = setup();
    const { task } = await first.runner.submit({
      kind: "report",
      params: { calls: 1 },
      account: "demo",
      reply,
      priority: "report",
    });
    await first.clock.runAll();
    await first.runner.idle();
    first.db.close();
    const second = setup(first.dir);
    expect((await second.runner.resume()).undelivered).toBe(1);
    expect(second.finished.map((t) => t.id)).toEqual([task.id]);
    second.runner.markDelivered(task.id);
    expect(second.store.undelivered()).toEqual([]);
    second.db.close();
  });

  it("a shutdown in the middle of a task leaves it unfinished, and the next start finishes it", async () => {
    const first = setup();
    const { task } = await first.runner.submit({
      kind: "report",
      params: { calls: 4 },
      account: "demo",
      reply,
      priority: "report",
    });
    await first.clock.advanceBy(INTERVAL * 1.5); // two calls sent, the third waits in the gate
    await first.runner.stop();
    await first.gate.close();
    await first.runner.idle();
    expect(first.store.get(task.id)?.state).toBe("running");
    expect(first.finished).toEqual([]);
    first.db.close();

    const second = setup(first.dir);
    expect((await second.runner.resume()).resumed).toBe(1);
    await second.clock.runAll();
    await second.runner.idle();
    expect(second.store.get(task.id)?.state).toBe("done");
    second.db.close();
  });
});
