/**
 * Issue 13, two replicas behind a "load balancer" (the test picks the driver): commands sent
 * alternately to each keep the account's spacing at the simulator (its arrival log is the
 * judge), every task is answered exactly once, and a lookup typed on one replica goes before
 * the reports queued on the other.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ONLY_WORKSPACE } from "../../src/platform/workspaces/workspace.js";
import { textOf } from "../helpers/botHarness.js";
import { redisSkipReason } from "../helpers/redisServer.js";
import { CHANNEL, type ReplicaHarness, startReplicaHarness, until } from "../helpers/replicaHarness.js";

const USERS = ["U0DISPATCH", "U0NEWYORK", "U0VIEWER"] as const;

describe.skipIf(redisSkipReason)("two replicas, commands alternately to each", () => {
  let h: ReplicaHarness;
  const plates = () => h.sim.vehicles.map((v) => v.plate);

  beforeAll(async () => {
    // A margin as wide as the interval: the simulator judges arrivals on this busy event loop.
    h = await startReplicaHarness({ intervalMs: 150, marginMs: 150, heldAnswers: true });
  }, 30_000);
  afterAll(async () => {
    await h?.close();
  });

  it("a mix of lookups, multi-call reports and transport lists: spacing kept, each answered once", async () => {
    const p = plates();
    const typed: { command: "/fleet" | "/etransport"; text: string }[] = [
      { command: "/fleet", text: `where ${p[0]}` },
      { command: "/fleet", text: `fuel ${p[1]},${p[2]},${p[3]} last 70d` }, // 3 calls (31 days each)
      { command: "/etransport", text: "list" },
      { command: "/fleet", text: `where ${p[4]}` },
      { command: "/fleet", text: `stops ${p[0]},${p[1]} last 40d` },
      { command: "/fleet", text: `route ${p[5]} last 40d` }, // 2 calls
      { command: "/etransport", text: "list active" },
      { command: "/fleet", text: `where ${p[6]}` },
      { command: "/fleet", text: "vehicles" },
    ];
    const sent: (Awaited<ReturnType<ReplicaHarness["command"]>> & { text: string })[] = [];
    for (const [i, { command, text }] of typed.entries()) {
      const replica = i % 2;
      const userId = USERS[i % USERS.length]!;
      const result = await h.command(replica, command, text, userId);
      expect(result.ack.status, text).toBe(200);
      expect(result.taskId, `${text}: queued with a Cancel button`).toBeDefined();
      sent.push({ ...result, text });
    }
    await until(() => sent.every((s) => h.answersTo(s.responseUrl).length > 0), 30_000, "every answer");
    await h.settle();

    // Each task answered once, in place of its ack message (which shows the answer).
    for (const s of sent) {
      const answers = h.answersTo(s.responseUrl);
      expect(answers, s.text).toHaveLength(1);
      const shown = h.fake.messages(CHANNEL).find((m) => m.ts === s.ack.posted?.ts);
      expect(textOf(shown), s.text).not.toContain(":hourglass_flowing_sand:");
      expect(await h.bots[0]!.tasks.get(s.taskId!)).toMatchObject({ state: "done" });
    }
    // No second copy anywhere: nothing posted beside the response_url answers, each file once.
    expect(h.fake.calls.filter((c) => c.method === "chat.postMessage")).toEqual([]);
    const uploads = h.fake.calls
      .filter((c) => c.method === "files.completeUploadExternal")
      .map((c) => `${String(c.args.channel_id)} ${JSON.stringify(c.args.files)}`);
    expect(new Set(uploads).size).toBe(uploads.length);
    const titles = h.fake.files.map((f) => `${f.channels.join(",")}: ${f.title}`);
    expect(titles.filter((t) => t.startsWith("D0NEWYORK: Fuel"))).toHaveLength(1);
    expect(titles.filter((t) => t.startsWith("D0NEWYORK: Stops"))).toHaveLength(1);
    expect(titles.filter((t) => t.startsWith("D0VIEWER: Route"))).toHaveLength(2); // GPX and CSV
    expect(h.fake.files.length).toBe(4);

    // The simulator saw the reports' several calls, never two of the account closer than the interval.
    const asked = h.requests().map((r) => r.endpoint);
    expect(asked.filter((e) => e === "consumption")).toHaveLength(3);
    expect(asked.filter((e) => e === "way")).toHaveLength(2);
    const spacing = h.spacing();
    expect(spacing.tooClose).toEqual([]);
    expect(spacing.rateLimited).toBe(0);
    expect(h.fake.violations).toEqual([]);
  }, 60_000);

  it("a lookup typed on A goes before the reports queued on B, after the call in flight", async () => {
    const p = plates();
    // Both replicas hold a vehicle list younger than its time to live, so the reports below make
    // only report calls and the lookup's fresh list is the one company-vehicles call.
    // Each replica fills its own (a queued task may run on either replica: sending commands to
    // both did not make both run one when the machine was busy).
    for (const bot of h.bots) await bot.slack.context.warmVehicles("demo", "U0DISPATCH", ONLY_WORKSPACE);
    await h.settle();
    expect(h.bots.map((b) => b.vehicles.isStale("demo"))).toEqual([false, false]);
    const held = h.held!;
    held.hold("consumption", "answer");
    const fuelLong = await h.command(1, "/fleet", `fuel ${p[0]},${p[1]},${p[2]} last 70d`, "U0NEWYORK");
    const fuelShort = await h.command(1, "/fleet", `fuel ${p[3]},${p[4]} last 40d`, "U0VIEWER");
    // One report call is at the service (its answer held): the account's turn is taken.
    await until(() => held.held() === 1, 15_000, "a report call in flight");
    const inFlight = h.requests().length;
    const lookup = await h.command(0, "/fleet", `where ${p[7]}`, "U0DISPATCH");
    expect(lookup.taskId).toBeDefined();
    // The lookup's call waits in the shared gate beside the reports' next calls.
    await until(
      async () => (await h.gateSchedule()).waiting.some((w) => w.taskIds.includes(lookup.taskId!)),
      15_000,
      "the lookup's call in the gate",
    );
    const schedule = await h.gateSchedule();
    expect(schedule.waiting.some((w) => w.priority === "report")).toBe(true);
    expect(schedule.waiting[0]?.taskIds).toContain(lookup.taskId);
    expect(held.held()).toBe(1);
    held.release();

    await until(
      () => [fuelLong, fuelShort, lookup].every((s) => h.answersTo(s.responseUrl).length > 0),
      30_000,
      "the three answers",
    );
    await h.settle();
    // At the service: the held report call, then the lookup's list, then the reports' other calls.
    const after = h
      .requests()
      .slice(inFlight - 1)
      .map((r) => r.endpoint);
    expect(after[0]).toBe("consumption");
    expect(after[1]).toBe("company-vehicles");
    expect(after.slice(2).filter((e) => e === "consumption")).toHaveLength(4);
    expect(after.filter((e) => e === "company-vehicles")).toHaveLength(1);
    for (const s of [fuelLong, fuelShort, lookup]) expect(h.answersTo(s.responseUrl)).toHaveLength(1);
    expect(JSON.stringify(h.answersTo(lookup.responseUrl)[0]?.body)).toContain("openstreetmap.org");
    const spacing = h.spacing();
    expect(spacing.tooClose).toEqual([]);
    expect(spacing.rateLimited).toBe(0);
    expect(h.fake.violations).toEqual([]);
  }, 60_000);
});
