/**
 * Issue 13: both replicas run ALERTS_CRON every 2 s (a BullMQ job scheduler; each tick is one
 * job, one sweep). A transmission problem forced at the simulator is posted once however many
 * ticks pass, and its recovery edits the alert once and replies in its thread once. The fake
 * Slack's recorded calls are the count.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordedCall } from "../../src/sandbox/fakeSlack/index.js";
import { alertMessagesFor, textOf } from "../helpers/botHarness.js";
import { redisSkipReason } from "../helpers/redisServer.js";
import { CHANNEL, type ReplicaHarness, startReplicaHarness, until } from "../helpers/replicaHarness.js";

/** The incident ids of the main blocks a Web API call carried with this block id prefix. */
function incidentsIn(call: RecordedCall, prefix: string): string[] {
  const blocks = Array.isArray(call.args.blocks) ? call.args.blocks : [];
  return blocks.flatMap((block: unknown) => {
    const id =
      typeof block === "object" && block !== null && "block_id" in block ? String(block.block_id) : "";
    const rest = id.startsWith(prefix) ? id.slice(prefix.length) : "";
    // "alert.resolved.<id>", not its "alert.resolved.facts.<id>" companion.
    return rest && !rest.includes(".") ? [rest] : [];
  });
}

/** How many times each value occurs. */
function tally(values: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

describe.skipIf(redisSkipReason)("alerts with two replicas on ALERTS_CRON every 2 s", () => {
  let h: ReplicaHarness;
  beforeAll(async () => {
    h = await startReplicaHarness({
      intervalMs: 150,
      marginMs: 150,
      env: { ALERTS_CRON: "*/2 * * * * *", ALERTS_CHANNEL: CHANNEL },
      start: { alertPolling: true },
    });
  }, 30_000);
  afterAll(async () => {
    await h?.close();
  });

  const sweeps = () => h.requests().filter((r) => r.endpoint === "load-transports").length;
  /** Waits until the simulator has seen `n` more sweeps than now. */
  const moreSweeps = async (n: number) => {
    const target = sweeps() + n;
    await until(() => sweeps() >= target, 20_000, `${n} more sweeps`);
  };
  const posts = () =>
    h.fake.calls.filter((c) => c.method === "chat.postMessage" && c.ok && c.args.channel === CHANNEL);
  const opened = () => posts().flatMap((c) => incidentsIn(c, "alert.open."));
  const alertFor = (uit: string) => alertMessagesFor(h.fake, CHANNEL, uit);

  it("each incident is posted once and resolved once, whichever replica sweeps", async () => {
    // The first sweeps post the demo fleet's existing problems.
    await moreSweeps(2);
    const broken = h.sim.control.transports().find((t) => t.statusId === 2 && !t.pinnedTransmission)!.codeUit;
    expect(alertFor(broken)).toEqual([]);
    h.sim.control.setTransport(broken, { transmissionStatusCode: "NoGPSCoordinates" });
    await until(() => alertFor(broken).length > 0, 20_000, "the new alert");
    await moreSweeps(3);

    const alert = alertFor(broken);
    expect(alert).toHaveLength(1);
    expect(textOf(alert[0])).toMatch(/NoGPSCoordinates|No GPS/);
    // No incident was posted twice, the new one or the fleet's earlier ones.
    const postedTwice = [...tally(opened())].filter(([, n]) => n > 1);
    expect(postedTwice).toEqual([]);
    const incident = incidentsIn(
      posts().find((c) => JSON.stringify(c.args.blocks).replace(/-/g, "").includes(broken))!,
      "alert.open.",
    )[0]!;
    expect(incident).toBeDefined();

    h.sim.control.setTransport(broken, { transmissionStatusCode: "Active" });
    await until(() => /resolved/i.test(textOf(alertFor(broken)[0])), 20_000, "the alert resolved");
    await moreSweeps(3);

    const ts = alert[0]!.ts;
    // One edit to resolved, one thread reply, and no other message about it.
    const edits = h.fake.calls.filter((c) => c.method === "chat.update" && c.ok && c.args.ts === ts);
    expect(edits).toHaveLength(1);
    expect(incidentsIn(edits[0]!, "alert.resolved.")).toEqual([incident]);
    const replies = h.fake.messages(CHANNEL).filter((m) => m.threadTs === ts);
    expect(replies).toHaveLength(1);
    expect(posts().filter((c) => incidentsIn(c, "alert.reply.").includes(incident))).toHaveLength(1);
    expect(alertFor(broken)).toHaveLength(1);
    // Over every incident: each resolved edit and each reply at most once.
    const resolvedTwice = [
      ...tally(
        h.fake.calls
          .filter((c) => c.method === "chat.update")
          .flatMap((c) => incidentsIn(c, "alert.resolved.")),
      ),
    ].filter(([, n]) => n > 1);
    expect(resolvedTwice).toEqual([]);
    const repliedTwice = [...tally(posts().flatMap((c) => incidentsIn(c, "alert.reply.")))].filter(
      ([, n]) => n > 1,
    );
    expect(repliedTwice).toEqual([]);
    expect(h.spacing().tooClose).toEqual([]);
    expect(h.spacing().rateLimited).toBe(0);
    expect(h.fake.violations).toEqual([]);
  }, 90_000);
});
