import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { transportActionHandler } from "../../../src/features/etransport/handlers/transportActions.js";
import { vehicleReportHandler } from "../../../src/features/reports/handler.js";
import type { VehicleReportParams } from "../../../src/features/reports/kind.js";
import type { FleetSession } from "../../../src/platform/fleet/client.js";
import type { Vehicle } from "../../../src/platform/fleet/schemas.js";
import type { CallContext } from "../../../src/platform/fleet/seam.js";
import { MemoryGate } from "../../../src/platform/gate/memoryGate.js";
import { VirtualClock } from "../../../src/platform/gate/virtualClock.js";
import { progressMessage } from "../../../src/platform/slack/views/progress.js";
import { openDatabase } from "../../../src/platform/store/database.js";
import { promised } from "../../../src/platform/store/promised.js";
import { SqliteTaskStore } from "../../../src/platform/store/taskStore.js";
import { CallDurations, TaskOverhead } from "../../../src/platform/tasks/callDurations.js";
import { type TaskContext, type TaskHandler, TaskRunner } from "../../../src/platform/tasks/runner.js";
import type { TaskRecord } from "../../../src/platform/tasks/task.js";
import { VehicleCache } from "../../../src/platform/vehicles/vehicleCache.js";
import { type FleetHarness, startFleetHarness } from "../../helpers/fleetHarness.js";

const INTERVAL = 30_000;
const ANSWER_MS = 4_000;

const dirs: string[] = [];
const harnesses: FleetHarness[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  for (const h of harnesses.splice(0)) await h.close();
});

/** A session whose every call takes ANSWER_MS to answer, through the real gate. */
class SlowSession {
  constructor(
    private readonly gate: MemoryGate,
    private readonly clock: VirtualClock,
  ) {}
  call(ctx: CallContext): Promise<void> {
    return this.gate.run({ account: "demo", endpoint: "stops", context: ctx }, () => {
      return new Promise<void>((resolve) => this.clock.setTimeout(resolve, ANSWER_MS));
    });
  }
}

const callsHandler: TaskHandler<{ calls: number }, number, SlowSession> = {
  kind: "calls",
  params: z.object({ calls: z.number().int().min(0) }),
  plan: (p) => p.calls,
  async run(ctx) {
    ctx.progress(0, ctx.params.calls);
    for (let i = 0; i < ctx.params.calls; i++) {
      await ctx.session.call(ctx.call);
      ctx.progress(i + 1, ctx.params.calls);
    }
    return ctx.params.calls;
  },
};

function runnerSetup(
  options: { loginNeeded?: () => number; beforeWork?: () => Promise<void>; overhead?: TaskOverhead } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), "fleetbot-estimate-"));
  dirs.push(dir);
  const clock = new VirtualClock();
  const durations = new CallDurations();
  const gate = new MemoryGate({
    minIntervalMs: INTERVAL,
    clock,
    rateLimitDelay: () => undefined,
    observer: durations.observer(),
  });
  const store = new SqliteTaskStore(openDatabase(dir), () => clock.now());
  const session = new SlowSession(gate, clock);
  const runner = new TaskRunner<SlowSession>({
    store: promised(store),
    gate,
    handlers: [callsHandler],
    sessionFor: async () => session,
    describeError: (error) => ({ kind: "test", message: String(error) }),
    now: () => clock.now(),
    typicalCallMs: (account) => durations.typicalMs(account),
    loginCalls: options.loginNeeded,
    beforeWork: options.beforeWork,
    overhead: options.overhead,
  });
  const submit = async (calls: number) =>
    (
      await runner.submit({
        kind: "calls",
        params: { calls },
        account: "demo",
        reply: { channel: "C1" },
        priority: "interactive",
      })
    ).task;
  return { clock, runner, store, submit };
}

describe("estimates end at the answer of the last call", () => {
  it("a one-call task next in line is due when its call answers, not when it starts", async () => {
    const { clock, runner, store, submit } = runnerSetup();
    // A first task teaches the runner how long an answer takes.
    await submit(1);
    await clock.runAll();
    await runner.idle();
    const task = await submit(1);
    const estimate = await runner.progressOf(task.id);
    await clock.runAll();
    await runner.idle();
    const finishedAt = store.get(task.id)!.finishedAt!;
    expect(Math.abs(finishedAt - estimate!.expectedFinishAt!)).toBeLessThanOrEqual(500);
  });

  it("adds the bot's own start and delivery time, measured: a call with a free slot is due when its answer reaches Slack", async () => {
    const START_MS = 300; // the acks let go first, store writes
    const DELIVERY_MS = 200; // rendering and the response_url post
    const { clock, runner, submit } = runnerSetup({
      beforeWork: () => new Promise<void>((resolve) => clock.setTimeout(resolve, START_MS)),
      overhead: new TaskOverhead(),
    });
    const delivered = new Map<string, number>();
    runner.on({
      finished: (task) => {
        clock.setTimeout(() => {
          delivered.set(task.id, clock.now());
          void runner.markDelivered(task.id, task.finishedAt);
        }, DELIVERY_MS);
      },
    });
    // A first task teaches the runner the answer, start and delivery times.
    await submit(1);
    await clock.runAll();
    await runner.idle();
    await clock.runAll();
    await clock.advanceBy(INTERVAL); // the slot is free when the next one is asked
    const task = await submit(1);
    const estimate = await runner.progressOf(task.id);
    await clock.runAll();
    await runner.idle();
    await clock.runAll();
    const answeredAt = delivered.get(task.id)!;
    // Without the two, the estimate would be 500 ms short of a 4.5 s wait.
    expect(Math.abs(answeredAt - estimate!.expectedFinishAt!)).toBeLessThanOrEqual(50);
  });

  it("tasks still letting the acks go first count ahead of a later one, though none is in the gate yet", async () => {
    let letGo!: () => void;
    const acksSent = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    const { clock, runner, submit } = runnerSetup({ beforeWork: () => acksSent });
    await submit(1);
    await submit(1);
    const third = await submit(1);
    const progress = await runner.progressOf(third.id);
    expect(progress?.position).toBe(2);
    expect(progress!.expectedFinishAt! - clock.now()).toBeGreaterThanOrEqual(2 * INTERVAL);
    letGo();
    await clock.runAll();
    await runner.idle();
  });

  it("a three-call task is estimated within a second of its real finish", async () => {
    const { clock, runner, store, submit } = runnerSetup();
    await submit(1);
    await clock.runAll();
    await runner.idle();
    const task = await submit(3);
    const estimate = await runner.progressOf(task.id);
    expect(estimate?.slotMs).toBeGreaterThanOrEqual(INTERVAL);
    await clock.runAll();
    await runner.idle();
    expect(Math.abs(store.get(task.id)!.finishedAt! - estimate!.expectedFinishAt!)).toBeLessThanOrEqual(1000);
  });

  it("before the handler runs, the plan and the login it needs are counted", async () => {
    let login = 1;
    const { runner, submit } = runnerSetup({ loginNeeded: () => login });
    const withLogin = await runner.progressOf((await submit(2)).id);
    expect(withLogin?.total).toBe(3);
    login = 0;
    const tokenValid = await runner.progressOf((await submit(2)).id);
    expect(tokenValid?.total).toBe(2);
  });

  it("a task with no call to make is due now and logs in for nothing", async () => {
    const { clock, runner, submit } = runnerSetup({ loginNeeded: () => 1 });
    const progress = await runner.progressOf((await submit(0)).id);
    expect(progress?.total).toBe(0);
    expect(progress?.expectedFinishAt).toBe(clock.now());
    const message = progressMessage("Where is B-1-ABC", progress!, clock.now(), "en");
    expect(message.text).not.toMatch(/about/);
    expect(message.text).toContain("answering now");
  });
});

describe("the wait is explained with the configured interval", () => {
  const base = {
    taskId: "t1",
    state: "queued" as const,
    done: 0,
    total: 2,
    position: 0,
    expectedFinishAt: 64_000,
  };
  const note = (slotMs: number | undefined) =>
    JSON.stringify(progressMessage("Stops", { ...base, slotMs }, 0, "en").blocks);
  it("says 2 seconds for a 2-s interval, 30 for the default", () => {
    expect(note(2_250)).toContain("one request every 2 seconds per account");
    expect(note(30_250)).toContain("one request every 30 seconds per account");
    expect(note(2_000)).not.toContain("30 seconds");
  });
  it('words a wait below one second as a bound, not as "about 1 s"', () => {
    const wait = (ms: number) =>
      progressMessage("Where is B-1-ABC", { ...base, expectedFinishAt: ms }, 0, "en").text;
    expect(wait(40)).toContain("next in line, under a second");
    expect(wait(999)).toContain("under a second");
    expect(wait(1_400)).toContain("next in line, about 1 s");
    expect(wait(64_000)).toContain("about 1 min");
  });
});

/** Runs a handler as the runner would, recording every progress report. */
function contextFor<P>(session: FleetSession, params: P) {
  const reports: Array<[number, number]> = [];
  const controller = new AbortController();
  const ctx: TaskContext<P, FleetSession> = {
    task: { id: "task-1" } as TaskRecord,
    params,
    session,
    call: { priority: "interactive", signal: controller.signal, taskId: "task-1" },
    signal: controller.signal,
    progress: (done, total) => reports.push([done, total]),
    mutation: (_step, how) => how.send(),
  };
  return { ctx, reports };
}

describe("handlers plan every call: the login and the vehicle list", () => {
  async function harness() {
    const h = await startFleetHarness();
    harnesses.push(h);
    const vehicles = new VehicleCache<Vehicle>({ ttlMs: 10 * 60_000, now: () => h.clock.now() });
    const handler = vehicleReportHandler({
      client: h.client,
      vehicles,
      intervalMs: 30_000,
      now: () => h.clock.now(),
    });
    return { h, vehicles, handler };
  }
  const whereParams = (plate: string): VehicleReportParams => ({
    report: "where",
    refs: [{ type: "plate", raw: plate, normalised: plate.replace(/-/g, "") }],
    timeZone: "Europe/Bucharest",
  });

  it("a first `where` counts the login and the list; a repeat from a fresh list counts nothing", async () => {
    const { h, handler } = await harness();
    const sim = await h.run(h.session.vehicles());
    // That call logged in: forget the token so the next run starts without one.
    h.client.forget("demo");
    const session = h.client.session({ username: "demo", password: "demo" });
    expect(session.loginCalls()).toBe(1);
    const plate = sim[0]!.vehicleRegistrationNumber ?? "";
    const first = contextFor(session, whereParams(plate));
    await h.run(handler.run(first.ctx));
    expect(first.reports[0]).toEqual([0, 2]);
    expect(first.reports.at(-1)).toEqual([2, 2]);
    expect(session.loginCalls()).toBe(0);
    expect(handler.plan?.(whereParams(plate), "demo")).toBe(0);
    const again = contextFor(session, whereParams(plate));
    await h.run(handler.run(again.ctx));
    expect(again.reports).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });

  it("a week of stops for all vehicles plans the calls for every vehicle the cached list knows", async () => {
    const { h, handler, vehicles } = await harness();
    const session = h.client.session({ username: "demo", password: "demo" });
    const listed = await h.run(vehicles.get(session, {}));
    const from = h.clock.now() - 7 * 86_400_000;
    const params: VehicleReportParams = {
      report: "stops",
      refs: [{ type: "all", raw: "all", normalised: "ALL" }],
      period: { fromMs: from, toMs: h.clock.now(), label: "last 7 days" },
      timeZone: "Europe/Bucharest",
    };
    const planned = handler.plan?.(params, "demo") ?? 0;
    const oneVehicle =
      handler.plan?.(
        {
          ...params,
          refs: [{ type: "id", raw: "x", normalised: "x", vehicleId: listed.vehicles[0]!.vehicleId }],
        },
        "demo",
      ) ?? 0;
    expect(listed.vehicles.length).toBeGreaterThan(1);
    expect(planned).toBeGreaterThan(oneVehicle);
    const run = contextFor(session, params);
    await h.run(handler.run(run.ctx));
    // The plan before the run is what the run took: no list (fresh), no login (token valid).
    const [, plannedTotal] = run.reports[0]!;
    expect(plannedTotal).toBe(planned);
    expect(run.reports.at(-1)).toEqual([planned, planned]);
  });

  it("a Start without a token counts its login: two calls, not one", async () => {
    const h = await startFleetHarness();
    harnesses.push(h);
    const session = h.client.session({ username: "demo", password: "demo" });
    const params = transportActionHandler.params.parse({ action: "start", uits: ["AB12CD34EF56GH78"] });
    const run = contextFor(session, params);
    await h.run(handler(run.ctx));
    expect(run.reports[0]).toEqual([0, 2]);
    expect(run.reports.at(-1)).toEqual([2, 2]);
    const second = contextFor(session, params);
    await h.run(handler(second.ctx));
    expect(second.reports[0]).toEqual([0, 1]);
    function handler(ctx: TaskContext<typeof params, FleetSession>) {
      return transportActionHandler.run(ctx);
    }
  });
});
