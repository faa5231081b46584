/**
 * Issue 13: a report queued through replica A and cancelled with its Cancel button through
 * replica B. The report runs on A (the only replica when it was typed), its call waits in the
 * shared gate behind a call in flight; B's click reaches A over Redis, and the report never
 * reaches the service.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTIONS } from "../../src/platform/slack/actionIds.js";
import { textOf } from "../helpers/botHarness.js";
import { redisSkipReason } from "../helpers/redisServer.js";
import { CHANNEL, type ReplicaHarness, startReplicaHarness, until } from "../helpers/replicaHarness.js";

const USER = "U0DISPATCH";

describe.skipIf(redisSkipReason)("cancel across replicas", () => {
  let h: ReplicaHarness;
  beforeAll(async () => {
    h = await startReplicaHarness({ replicas: 1, intervalMs: 150, marginMs: 150, heldAnswers: true });
  }, 30_000);
  afterAll(async () => {
    await h?.close();
  });

  it("Cancel clicked on B stops a report running on A before any of its calls is sent", async () => {
    const p = h.sim.vehicles.map((v) => v.plate);
    const held = h.held!;
    held.hold("consumption", "answer");
    const blocker = await h.command(0, "/fleet", `fuel ${p[0]},${p[1]} last 40d`, "U0NEWYORK");
    await until(() => held.held() === 1, 15_000, "the blocker's call in flight");
    const report = await h.command(0, "/fleet", `route ${p[5]} last 40d`, USER);
    const taskId = report.taskId!;
    expect(taskId).toBeDefined();
    await until(
      async () => (await h.gateSchedule()).waiting.some((w) => w.taskIds.includes(taskId)),
      15_000,
      "the report's call in the gate",
    );

    // Replica B joins (a rolling deploy, a second pod) and the click lands there.
    await h.startReplica();
    const click = await h.drivers[1]!.blockAction({
      userId: USER,
      channelId: CHANNEL,
      messageTs: report.ack.posted!.ts,
      actionId: ACTIONS.cancelTask,
      value: taskId,
    });
    expect(click.status).toBe(200);
    await until(
      async () => (await h.bots[1]!.tasks.get(taskId))?.state === "cancelled",
      15_000,
      "the report cancelled",
    );
    // Its waiting call left the gate while the blocker's call was still in flight.
    expect((await h.gateSchedule()).waiting.some((w) => w.taskIds.includes(taskId))).toBe(false);
    expect(held.held()).toBe(1);

    held.release();
    await until(() => h.answersTo(blocker.responseUrl).length > 0, 15_000, "the blocker's answer");
    await h.settle();
    // The report never reached the service; the blocker's calls all did.
    const asked = h.requests().map((r) => r.endpoint);
    expect(asked).not.toContain("way");
    expect(asked.filter((e) => e === "consumption")).toHaveLength(2);
    expect(await h.bots[0]!.tasks.get(taskId)).toMatchObject({ state: "cancelled" });
    // Its message says who cancelled it, once, with no Cancel button left; no file was sent.
    const shown = h.fake.messages(CHANNEL).find((m) => m.ts === report.ack.posted!.ts);
    expect(textOf(shown)).toContain(`cancelled by <@${USER}>`);
    expect(JSON.stringify(shown?.blocks ?? [])).not.toContain(ACTIONS.cancelTask);
    expect(h.answersTo(report.responseUrl).length).toBeLessThanOrEqual(1);
    expect(h.fake.files.filter((f) => f.title.startsWith("Route"))).toEqual([]);
    expect(h.answersTo(blocker.responseUrl)).toHaveLength(1);
    expect(h.spacing().tooClose).toEqual([]);
    expect(h.fake.violations).toEqual([]);
  }, 60_000);
});
