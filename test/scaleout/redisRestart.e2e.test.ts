/**
 * Issue 13: Redis restarted in the middle of a run (kill -9, then started again on its AOF,
 * appendfsync always). Tasks queued before are answered after it, once each; while Redis is
 * down /healthz says so (503) and a command is told "fleetbot cannot queue requests right now";
 * afterwards every replica is healthy again by itself.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { textOf } from "../helpers/botHarness.js";
import { redisSkipReason } from "../helpers/redisServer.js";
import { type ReplicaHarness, startReplicaHarness, until } from "../helpers/replicaHarness.js";

/** The replicas' job lock at a 150 ms interval (main.ts: 4 intervals, at least 2 s). */
const JOB_LOCK_MS = 2_000;

describe.skipIf(redisSkipReason)("Redis restarted mid-run", () => {
  let h: ReplicaHarness;
  beforeEach(async () => {
    h = await startReplicaHarness({ intervalMs: 150, marginMs: 150, heldAnswers: true });
  }, 30_000);
  afterEach(async () => {
    await h?.close();
  });

  it.each([
    { outage: "a brief outage", downMs: 0 },
    // The running jobs' locks lapse meanwhile: BullMQ hands them out again after the restart.
    { outage: "an outage longer than a job's lock", downMs: 2 * JOB_LOCK_MS },
  ])(
    "$outage: nothing queued is lost, nothing is answered twice, the replicas recover by themselves",
    async ({ downMs }) => {
      const p = h.sim.vehicles.map((v) => v.plate);
      for (const replica of [0, 1]) expect((await h.healthz(replica)).status).toBe(200);
      const held = h.held!;
      // The first report call stays in flight (its answer held), so every task below is unfinished
      // when Redis goes away: one running, the others' calls waiting in the gate.
      held.hold("consumption", "answer");
      const queued = [await h.command(0, "/fleet", `fuel ${p[0]},${p[1]},${p[2]} last 70d`, "U0NEWYORK")];
      await until(() => held.held() === 1, 15_000, "a report call in flight");
      queued.push(
        await h.command(1, "/fleet", `stops ${p[3]},${p[4]} last 40d`, "U0VIEWER"),
        await h.command(0, "/fleet", `where ${p[5]}`, "U0DISPATCH"),
        await h.command(1, "/fleet", `route ${p[6]} last 40d`, "U0DISPATCH"),
      );
      for (const q of queued) expect(q.taskId).toBeDefined();
      const before = h.requests().length;

      await h.redis.kill();
      for (const replica of [0, 1]) {
        await until(async () => (await h.healthz(replica)).status === 503, 15_000, `replica ${replica} 503`);
        const health = await h.healthz(replica);
        expect(health.body.redis).not.toBe("ok");
        expect(health.body.ok).toBe(false);
      }
      const refused = await h.command(1, "/fleet", `where ${p[7]}`, "U0VIEWER");
      expect(refused.ack.status).toBe(200);
      expect(textOf(refused.ack.posted)).toContain("fleetbot cannot queue requests right now");
      expect(refused.taskId).toBeUndefined();
      // The held answer goes out while Redis is down: the report goes on as far as it can.
      held.release();
      await until(() => held.held() === 0, 5_000, "the held answer sent");

      await new Promise((resolve) => setTimeout(resolve, downMs));
      await h.redis.restart();
      for (const replica of [0, 1])
        await until(async () => (await h.healthz(replica)).status === 200, 20_000, `replica ${replica} 200`);
      await until(
        () => queued.every((q) => h.answersTo(q.responseUrl).length > 0),
        60_000,
        "answers to the tasks queued before the restart",
      );
      await h.settle(60_000);

      // After an outage longer than a job's lock BullMQ hands the running jobs out again, so a task
      // may run on a second replica too (reads only: a mutation is sent only by the job's holder);
      // its answer is still delivered once (one replica claims each delivery).
      const once = downMs === 0;
      for (const q of queued) {
        expect(h.answersTo(q.responseUrl).length, q.taskId).toBe(1);
        expect(await h.bots[0]!.tasks.get(q.taskId!)).toMatchObject({ state: "done" });
      }
      // Each report's files (once after a brief outage); the refused command queued nothing.
      const titles = h.fake.files.map((f) => `${f.channels.join(",")}: ${f.title}`);
      const expected: [string, number][] = [
        ["D0NEWYORK: Fuel", 1],
        ["D0VIEWER: Stops", 1],
        ["D0DISPATCH: Route", 2],
      ];
      for (const [title, count] of expected) {
        const sent = titles.filter((t) => t.startsWith(title)).length;
        expect(sent, title).toBe(count);
      }
      if (once) expect(h.fake.calls.filter((c) => c.method === "chat.postMessage")).toEqual([]);
      expect(h.responsesTo(refused.responseUrl)).toEqual([]);
      // The service got the reports' calls after the restart, spaced as ever. After a long outage a
      // task whose job went to the other replica may run there a second time (see the report), so
      // the exact count is checked after a brief one only.
      const asked = h.requests().map((r) => r.endpoint);
      if (downMs === 0) {
        expect(asked.slice(before).filter((e) => e === "consumption")).toHaveLength(2);
        expect(asked.filter((e) => e === "way")).toHaveLength(2);
      }
      expect(h.spacing().tooClose).toEqual([]);
      expect(h.spacing().rateLimited).toBe(0);
      expect(h.fake.violations).toEqual([]);
    },
    120_000,
  );
});
