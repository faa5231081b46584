/**
 * kill -9 of a replica in the middle of a task (issue 13): real fleetbot processes on one
 * redis-server, driven through signed Slack requests. The simulator's request log is the
 * oracle for what reached the fleet service; each replica's own proxy tells which replica
 * sent a request, so the test kills the replica that is actually running the task (BullMQ
 * hands a job to any replica's worker, not necessarily the one Slack's request reached).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTIONS } from "../../src/platform/slack/actionIds.js";
import type { ResponseRecord } from "../../src/sandbox/fakeSlack/index.js";
import { buttonsOf, textOf } from "../helpers/botHarness.js";
import {
  type ProcessReplicas,
  type ReplicaProcess,
  startProcessReplicas,
} from "../helpers/processReplicas.js";
import { redisSkipReason } from "../helpers/redisServer.js";

const USER = "U0DISPATCH";
const CHANNEL = "C0GENERAL";
const INTERVAL_MS = 500;

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const bodyText = (body: unknown): string =>
  typeof body === "object" && body !== null && "text" in body && typeof body.text === "string"
    ? body.text
    : typeof body === "string"
      ? body
      : "";
const isProgress = (r: ResponseRecord) => bodyText(r.body).startsWith(":hourglass");

describe.skipIf(redisSkipReason)("kill -9 of the replica running a task", () => {
  let h: ProcessReplicas;
  const explain = () =>
    h.replicas
      .map((r) => `--- replica ${r.name} (${r.alive() ? "alive" : "dead"})\n${r.logTail()}`)
      .join("\n");

  beforeAll(async () => {
    h = await startProcessReplicas({ replicas: 2, intervalMs: INTERVAL_MS });
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  }, 60_000);

  const requestsTo = (endpoint: string) =>
    h.sim.control.requests(1000).filter((r) => r.endpoint === endpoint);
  const rateLimited = () => Object.values(h.sim.control.stats().rateLimited).reduce((a, b) => a + b, 0);
  const live = () => h.replicas.filter((r) => r.alive());
  /** The one live replica whose proxy saw this endpoint since `since`: the one running the task. */
  const runnerOf = async (suffix: string, since: number): Promise<ReplicaProcess> => {
    const senders = await until(`a replica calling ${suffix}`, () => {
      const found = h.sentBy(suffix, since);
      return found.length > 0 && found;
    });
    expect(senders, "one replica runs the task").toHaveLength(1);
    return senders[0]!;
  };

  it("a multi-call report whose replica dies finishes on the other one and is answered once", async () => {
    const plates = h.sim.vehicles.slice(0, 3).map((v) => v.plate);
    // Warm the account (login, vehicle list) so the report's own calls are what the kill interrupts.
    const where = await live()[0]!.driver.slashCommand({
      text: `where ${plates[0]}`,
      userId: USER,
      channelId: CHANNEL,
    });
    await until("the warm-up answer", () =>
      h.fake.responses.find((r) => r.url === where.payload.response_url && !isProgress(r)),
    );
    // Fuel over 300 days for 3 vehicles: 31-day windows, 10 consumption calls.
    const since = Date.now();
    const filesBefore = h.fake.files.length;
    const postsBefore = h.fake.calls.filter((c) => c.method === "chat.postMessage").length;
    const sent = await live()[0]!.driver.slashCommand({
      text: `fuel ${plates.join(", ")} last 300d`,
      userId: USER,
      channelId: CHANNEL,
    });
    expect(sent.status).toBe(200);
    const responseUrl = sent.payload.response_url!;
    const victim = await runnerOf("carriers/consumption", since);
    const survivor = live().find((r) => r !== victim)!;
    await victim.kill();
    const killedAt = Date.now();
    const callsBeforeKill = requestsTo("consumption").length;
    expect(callsBeforeKill).toBeLessThan(10);

    const answer = await until(
      "the report's answer",
      () => h.fake.responses.find((r) => r.url === responseUrl && !isProgress(r)),
      90_000,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${explain()}`);
    });
    expect(bodyText(answer.body)).not.toMatch(/could not|failed/i);
    // The survivor made the calls after the kill: the report went on there.
    expect(survivor.upstream.some((u) => u.at > killedAt && u.path.endsWith("/carriers/consumption"))).toBe(
      true,
    );
    // Answered once: one answer on the response_url, one CSV, no fallback post; and it stays so
    // (the job completed once delivered, so no replica delivers it again).
    await new Promise((r) => setTimeout(r, 4 * INTERVAL_MS + 2_000));
    expect(h.fake.responses.filter((r) => r.url === responseUrl && !isProgress(r))).toHaveLength(1);
    const csv = h.fake.files.slice(filesBefore).filter((f) => f.name === "fuel.csv");
    expect(csv).toHaveLength(1);
    const rows = csv[0]!.bytes?.toString("utf8") ?? "";
    for (const plate of plates) expect(rows).toContain(plate);
    expect(h.fake.calls.filter((c) => c.method === "chat.postMessage")).toHaveLength(postsBefore);
    // The dead replica's turn lapsed before the next call: no 429 at the service.
    expect(rateLimited()).toBe(0);
    expect(h.fake.violations).toEqual([]);
  }, 180_000);

  it("a Pause clicked while the request is at the service, its replica killed: one request, answered by the other", async () => {
    // The first test killed one replica; a fresh one takes its place (as an orchestrator would).
    if (live().length < 2) await h.startReplica();
    const transport = h.sim.control.transports().find((t) => t.statusId === 2)!;
    expect(transport, "an In Progress transport").toBeDefined();
    const entry = live()[0]!;
    const list = await entry.driver.slashCommand({
      command: "/etransport",
      text: `list active ${transport.codeUit}`,
      userId: USER,
      channelId: CHANNEL,
    });
    const listAnswer = await until("the transport list", () =>
      h.fake.responses.find((r) => r.url === list.payload.response_url && !isProgress(r) && r.ts),
    );
    const card = h.fake.messages(CHANNEL).find((m) => m.ts === listAnswer.ts)!;
    const pause = buttonsOf(card, ACTIONS.transportPause)[0];
    expect(pause, "the card's Pause button").toBeDefined();

    // The service applies the pause and holds its answer: the replica dies waiting for it.
    h.sim.control.addFault({ kind: "delayAnswer", endpoint: "pause-transports", count: 1, delayMs: 15_000 });
    const pausesBefore = requestsTo("pause-transports").length;
    const since = Date.now();
    const click = await entry.driver.blockAction({
      userId: USER,
      channelId: CHANNEL,
      messageTs: card.ts,
      actionId: ACTIONS.transportPause,
      value: pause!.value,
    });
    expect(click.status).toBe(200);
    await until("the pause at the service", () => requestsTo("pause-transports").length > pausesBefore);
    const victim = await runnerOf("eTransport/pause-transports", since);
    await victim.kill();
    const killedAt = Date.now();
    // Applied at the service, its answer never heard by the replica that sent it.
    expect(h.sim.control.transports().find((t) => t.codeUit === transport.codeUit)!.statusId).toBe(6);

    // The other replica resumes the task from its journal: it looks the transport up, finds it
    // paused, and does not send the pause again; the card in the list shows it.
    await until(
      "the card updated by the other replica",
      () => {
        const now = h.fake.messages(CHANNEL).find((m) => m.ts === card.ts);
        return now && /Paused/.test(textOf(now)) && !/Pausing/.test(textOf(now));
      },
      90_000,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${explain()}`);
    });
    // One pause at the service, before and after the dust settles (no replica sends it again).
    expect(requestsTo("pause-transports")).toHaveLength(pausesBefore + 1);
    await new Promise((r) => setTimeout(r, 4 * INTERVAL_MS + 2_000));
    expect(requestsTo("pause-transports")).toHaveLength(pausesBefore + 1);
    // The answer came from the replica still alive: it checked with the service after the kill.
    const checkedBy = h.sentBy("eTransport/load-transports", killedAt);
    expect(checkedBy.map((r) => r.name)).not.toContain(victim.name);
    expect(checkedBy.length).toBeGreaterThan(0);
    const finalCard = textOf(h.fake.messages(CHANNEL).find((m) => m.ts === card.ts));
    expect(finalCard).not.toContain("❌");
    expect(rateLimited()).toBe(0);
    expect(h.fake.violations).toEqual([]);
  }, 180_000);
});
