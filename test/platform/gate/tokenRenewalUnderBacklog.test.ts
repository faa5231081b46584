import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FleetClient, type FleetSession } from "../../../src/platform/fleet/client.js";
import type { UpstreamCall } from "../../../src/platform/fleet/seam.js";
import { createFleetGate } from "../../../src/platform/gate/fleetGate.js";
import type { GateObserver } from "../../../src/platform/gate/gate.js";
import { createRedisFleetGate } from "../../../src/platform/gate/redisFleetGate.js";
import { runUntilSettled, VirtualClock } from "../../../src/platform/gate/virtualClock.js";
import { type RunningSimulator, startSimulator } from "../../../src/simulator/index.js";
import { COMPANY_ZONE, HARNESS_START } from "../../helpers/fleetHarness.js";
import { type RedisServer, redisSkipReason, startRedisServer } from "../../helpers/redisServer.js";

/**
 * Issue 22: a token that comes due while a backlog of one account waits must be renewed by the
 * next call to be sent, in its own slot, so the old token never expires under the queued calls:
 * no call is refused, no slot passes without a request, and the queue keeps its order.
 */

const DAY = 86_400_000;
const BACKLOG = 30;

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Gate starts seen by the observer: each must carry exactly one upstream request. */
function countingObserver(): { observer: GateObserver; starts: UpstreamCall[] } {
  const starts: UpstreamCall[] = [];
  return { observer: { callStarted: (call) => starts.push(call) }, starts };
}

/** BACKLOG distinct one-day stops reports, all queued at once; answers in the order they finish. */
function queueBacklog(session: FleetSession, vehicleId: number, now: number) {
  const finished: number[] = [];
  const calls = Array.from({ length: BACKLOG }, (_, i) =>
    session
      .stops(
        {
          vehicleIds: [vehicleId],
          from: new Date(now - (i + 2) * DAY),
          to: new Date(now - (i + 1) * DAY),
          stationaryMarginMinutes: 5,
        },
        { priority: "report" },
      )
      .then((stops) => {
        finished.push(i);
        return stops;
      }),
  );
  /** The day each stops request asked for, in arrival order at the service (newest day first = queued first). */
  const startDates = (sim: RunningSimulator) =>
    accountRequests(sim)
      .filter((r) => r.endpoint === "stops")
      .map((r) => String((r.body as { startDate?: unknown } | null)?.startDate));
  return { all: Promise.all(calls), finished, startDates };
}

function accountRequests(sim: RunningSimulator) {
  return sim.control
    .requests(500)
    .filter((r) => r.username === "demo" && r.endpoint !== null)
    .map((r) => ({ ...r, atMs: Date.parse(r.at) }));
}

describe("a token that comes due under a backlog (MemoryGate, virtual time)", () => {
  const INTERVAL = 30_000;
  const MARGIN = 250;
  const SLOT = INTERVAL + MARGIN;
  const TOKEN_S = 300;
  const RENEW_BEFORE_MS = 60_000;

  it("is renewed in the next slot past its renewal time: no refusal, no lost slot, order kept", async () => {
    const clock = new VirtualClock(HARNESS_START);
    const sim = await startSimulator({
      port: 0,
      minIntervalMs: INTERVAL,
      tokenTtlSeconds: TOKEN_S,
      control: true,
      drift: false,
      now: () => clock.now(),
    });
    const { observer, starts } = countingObserver();
    const gate = createFleetGate({ minIntervalMs: INTERVAL, safetyMarginMs: MARGIN, clock, observer });
    closers.push(
      () => sim.close(),
      () => gate.close(),
    );
    const client = new FleetClient({
      baseUrl: sim.url,
      apiVersion: "2.0",
      timeZone: COMPANY_ZONE,
      gate,
      refreshMarginMs: RENEW_BEFORE_MS,
      now: () => clock.now(),
    });
    const session = client.session({ username: "demo", password: "demo" });
    const run = <T>(work: Promise<T>) => runUntilSettled(clock, work, () => gate.inFlight() > 0);

    const vehicles = await run(session.vehicles({ priority: "interactive" })); // login + list
    const backlog = queueBacklog(session, vehicles[0]!.vehicleId, clock.now());
    const answers = await run(backlog.all);
    expect(answers.every(Array.isArray)).toBe(true);

    const requests = accountRequests(sim);
    // Nothing refused: no 401 for an expired token, no 429.
    expect(requests.filter((r) => r.status !== 200)).toEqual([]);
    // Every gate start carried a request: no slot spent on a refusal inside the bot.
    expect(starts).toHaveLength(requests.length);
    // Start to start, every gap is one slot, logins included.
    const gaps = requests.slice(1).map((r, i) => r.atMs - requests[i]!.atMs);
    expect(new Set(gaps)).toEqual(new Set([SLOT]));
    // Each renewal is the first request at or past the token's renewal time.
    const logins = requests.flatMap((r, i) => (r.endpoint === "login" ? [i] : []));
    expect(logins.length).toBeGreaterThanOrEqual(3); // the first one and two renewals at least
    for (const [n, index] of logins.slice(1).entries()) {
      const renewAt = requests[logins[n]!]!.atMs + TOKEN_S * 1000 - RENEW_BEFORE_MS;
      expect(requests[index]!.atMs).toBeGreaterThanOrEqual(renewAt);
      expect(requests[index - 1]!.atMs).toBeLessThan(renewAt);
    }
    // The queue kept its order: sent and answered as queued.
    const sentDays = backlog.startDates(sim);
    expect(sentDays).toHaveLength(BACKLOG);
    expect([...sentDays].sort().reverse()).toEqual(sentDays);
    expect(backlog.finished).toEqual(Array.from({ length: BACKLOG }, (_, i) => i));
  });
});

let server: RedisServer | undefined;
beforeAll(async () => {
  if (!redisSkipReason) server = await startRedisServer();
});
afterAll(async () => {
  await server?.stop();
});

describe.skipIf(redisSkipReason)("a token that comes due under a backlog (RedisGate, scaled time)", () => {
  // Real time, scaled down: a 200 ms slot, a 3 s token renewed 1 s before it expires, so the
  // backlog of 30 (about 6 s) outlives the token twice. The margin is as wide as the interval,
  // as in redisGateAgainstSimulator.test.ts: the simulator judges arrival on this event loop.
  const INTERVAL = 100;
  const MARGIN = 100;

  it("is renewed in the slot of the call at the head: no refusal, no lost slot, order kept", async () => {
    const sim = await startSimulator({
      port: 0,
      minIntervalMs: INTERVAL,
      tokenTtlSeconds: 3,
      control: true,
      drift: false,
    });
    const redis = new Redis(server!.url);
    const { observer, starts } = countingObserver();
    const gate = createRedisFleetGate({
      redis,
      replicaId: "a",
      keyPrefix: `renewal:${randomUUID()}`,
      minIntervalMs: INTERVAL,
      safetyMarginMs: MARGIN,
      leaseMs: 500,
      observer,
    });
    closers.push(
      () => sim.close(),
      () => redis.disconnect(),
      () => gate.close(),
    );
    const client = new FleetClient({
      baseUrl: sim.url,
      apiVersion: "2.0",
      timeZone: COMPANY_ZONE,
      gate,
      refreshMarginMs: 1000,
    });
    const session = client.session({ username: "demo", password: "demo" });
    const vehicles = await session.vehicles({ priority: "interactive" });
    const backlog = queueBacklog(session, vehicles[0]!.vehicleId, Date.now());
    const answers = await backlog.all;
    expect(answers.every(Array.isArray)).toBe(true);

    const requests = accountRequests(sim);
    expect(requests.filter((r) => r.status !== 200)).toEqual([]);
    expect(starts).toHaveLength(requests.length);
    // The token was renewed under the backlog, never by a second login for the same renewal.
    const logins = requests.filter((r) => r.endpoint === "login").length;
    expect(logins).toBeGreaterThanOrEqual(2);
    expect(logins).toBeLessThanOrEqual(4);
    const sentDays = backlog.startDates(sim);
    expect(sentDays).toHaveLength(BACKLOG);
    expect([...sentDays].sort().reverse()).toEqual(sentDays);
    expect(backlog.finished).toEqual(Array.from({ length: BACKLOG }, (_, i) => i));
  });
});
