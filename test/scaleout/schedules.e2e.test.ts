/**
 * Scheduled reports on two replicas (issue 34): one redis-server, one simulator, one fake Slack.
 * Both replicas tick at the same instant of the schedules' clock; each run is claimed by one
 * (the store's compare-and-set) and posted once. A scheduled run waits at background priority:
 * lookups typed after it was submitted are served first.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nextRunAfter } from "../../src/features/schedules/index.js";
import { textOf } from "../helpers/botHarness.js";
import { redisSkipReason } from "../helpers/redisServer.js";
import { CHANNEL, type ReplicaHarness, startReplicaHarness, until } from "../helpers/replicaHarness.js";

const USER = "U0DISPATCH";
const ZONE = "Europe/Bucharest";
const DAY = 86_400_000;

describe.skipIf(redisSkipReason)("scheduled reports on two replicas", () => {
  let h: ReplicaHarness;
  // Ten days ago, noon in Bucharest: the reports read periods in the past.
  let clock = Math.floor((Date.now() - 10 * DAY) / DAY) * DAY + 10 * 3_600_000;
  const posts = () => h.fake.messages(CHANNEL).filter((m) => !m.ephemeral && !m.threadTs);
  const scheduled = () => posts().filter((m) => textOf(m).includes("Scheduled by"));

  beforeAll(async () => {
    h = await startReplicaHarness({
      intervalMs: 200,
      heldAnswers: true,
      start: { schedulePolling: false, scheduleClock: () => clock },
    });
  }, 30_000);
  afterAll(async () => {
    await h?.close();
  });

  it("both replicas tick at every run's time: each of 5 days' runs is made once, posted once", async () => {
    const made = await h.command(0, "/fleet", "schedule vehicles every day at 07:30", USER);
    expect(made.ack.status).toBe(200);
    await until(
      () => h.fake.messages(CHANNEL).some((m) => textOf(m).includes("Scheduled `vehicles`")),
      10_000,
      "the answer",
    );
    let due = nextRunAfter({ every: "day", time: "07:30" }, ZONE, clock)!;
    for (let day = 0; day < 5; day++) {
      clock = due;
      const [a, b] = await Promise.all(h.bots.map((bot) => bot.schedules.tick()));
      expect([...a!, ...b!].map((r) => r.scheduledAt)).toEqual([due]);
      await until(() => scheduled().length === day + 1, 15_000, `day ${day + 1}'s post`);
      due = nextRunAfter({ every: "day", time: "07:30" }, ZONE, due)!;
    }
    await h.settle();
    expect(scheduled()).toHaveLength(5);
  });

  it("a scheduled run waits at background priority: lookups typed after it are served first", async () => {
    await h.command(1, "/fleet", "schedule stops all last 60d every day at 09:00", USER);
    await h.settle();
    clock = nextRunAfter({ every: "day", time: "09:00" }, ZONE, clock)!;
    // A list is at the service, its answer held: the account's turn is taken while the rest queue.
    const held = h.held!;
    held.hold("load-transports", "answer");
    const busy = await h.command(0, "/etransport", "list", "U0VIEWER");
    await until(() => held.held() === 1, 15_000, "a list in flight");
    const inFlight = h.requests().length;
    const before = scheduled().length;
    const runs = await h.bots[0]!.schedules.tick();
    expect(runs).toHaveLength(1);
    const runTask = (await h.bots[0]!.tasks.recent("demo", 5, "")).find((t) => t.priority === "background");
    expect(runTask).toBeDefined();
    await until(
      async () => (await h.gateSchedule()).waiting.some((w) => w.taskIds.includes(runTask!.id)),
      15_000,
      "the run's first call in the gate",
    );
    // Two lookups typed on the other replica after the run was submitted.
    const lookups = [
      await h.command(1, "/etransport", "list active", USER),
      await h.command(1, "/etransport", "list all", "U0NEWYORK"),
    ];
    await until(
      async () => (await h.gateSchedule()).waiting.filter((w) => w.priority === "interactive").length === 2,
      15_000,
      "the lookups' calls in the gate",
    );
    const waiting = (await h.gateSchedule()).waiting;
    expect(waiting.map((w) => w.priority)).toEqual(["interactive", "interactive", "background"]);
    held.release();
    await until(() => scheduled().length > before, 30_000, "the scheduled post");
    await h.settle();
    // At the service: the held list, the two lookups' lists, then the run's calls.
    const after = h
      .requests()
      .slice(inFlight - 1)
      .map((r) => r.endpoint)
      .filter((e) => e !== "login");
    expect(after.slice(0, 3)).toEqual(["load-transports", "load-transports", "load-transports"]);
    expect(after.slice(3)).toContain("stops");
    for (const s of [busy, ...lookups]) expect(h.answersTo(s.responseUrl)).toHaveLength(1);
  });
});
