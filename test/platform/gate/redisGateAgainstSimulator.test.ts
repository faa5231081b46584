import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FleetClient } from "../../../src/platform/fleet/client.js";
import { createRedisFleetGate } from "../../../src/platform/gate/redisFleetGate.js";
import type { RedisGate } from "../../../src/platform/gate/redisGate.js";
import { type RunningSimulator, startSimulator } from "../../../src/simulator/index.js";
import { type RedisServer, redisSkipReason, startRedisServer } from "../../helpers/redisServer.js";

/**
 * Two replicas, each with its own Redis connection, RedisGate and fleet client, against one
 * simulator that enforces the interval itself (real time, scaled down): the simulator's
 * request log is the independent judge of spacing and sharing.
 */

const INTERVAL = 100;
// The simulator judges arrival on the test's own event loop: under a loaded machine a request
// can reach its handler tens of ms after the gate let it start. The margin is what absorbs
// that (in production 250 ms against 30 s), so here it is as wide as the interval.
const MARGIN = 100;
const DAY = 86_400_000;

let server: RedisServer;
let sim: RunningSimulator | undefined;
const closers: (() => unknown)[] = [];

beforeAll(async () => {
  if (!redisSkipReason) server = await startRedisServer();
});
afterAll(async () => {
  await server?.stop();
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await sim?.close();
  sim = undefined;
});

function replicaOf(simulator: RunningSimulator, name: string, prefix: string) {
  const redis = new Redis(server.url);
  const gate: RedisGate = createRedisFleetGate({
    redis,
    replicaId: name,
    keyPrefix: prefix,
    minIntervalMs: INTERVAL,
    safetyMarginMs: MARGIN,
    leaseMs: 500,
  });
  closers.push(
    () => redis.disconnect(),
    () => gate.close(),
  );
  const client = new FleetClient({
    baseUrl: simulator.url,
    apiVersion: "2.0",
    timeZone: "Europe/Bucharest",
    gate,
  });
  return { gate, session: client.session({ username: "demo", password: "demo" }) };
}

function containsDate(value: unknown): boolean {
  if (value instanceof Date) return true;
  if (Array.isArray(value)) return value.some(containsDate);
  if (typeof value === "object" && value !== null) return Object.values(value).some(containsDate);
  return false;
}

describe.skipIf(redisSkipReason)("RedisGate with the real fleet client against the simulator", () => {
  it("two replicas calling alternately: no 429 at the service, every gap at least the interval", async () => {
    const simulator = await startSimulator({ port: 0, minIntervalMs: INTERVAL, drift: false });
    sim = simulator;
    const prefix = `sim:${randomUUID()}`;
    const a = replicaOf(simulator, "a", prefix);
    const b = replicaOf(simulator, "b", prefix);
    const vehicles = await a.session.vehicles({ priority: "interactive" });
    const ids = vehicles.slice(0, 8).map((v) => v.vehicleId);
    const now = Date.now();
    const work = ids.map((vehicleId, i) => {
      const on = i % 2 === 0 ? a : b;
      return i % 3 === 0
        ? on.session.vehicles({ priority: "interactive" })
        : on.session.stops(
            {
              vehicleIds: [vehicleId],
              from: new Date(now - (i + 2) * DAY),
              to: new Date(now - (i + 1) * DAY),
              stationaryMarginMinutes: 5,
            },
            { priority: "report" },
          );
    });
    const answers = await Promise.all(work);
    expect(answers.every(Array.isArray)).toBe(true);
    const stats = simulator.control.stats();
    expect(stats.rateLimited.demo ?? 0).toBe(0);
    // Both replicas logged in (each keeps its own token), and every call reached the service.
    expect(stats.requests.demo?.login).toBe(2);
    expect(stats.minGapMs.demo).toBeGreaterThanOrEqual(INTERVAL);
  });

  it("the same report asked on both replicas is one request; both get equal answers with Dates", async () => {
    const simulator = await startSimulator({ port: 0, minIntervalMs: INTERVAL, drift: false });
    sim = simulator;
    const prefix = `sim:${randomUUID()}`;
    const a = replicaOf(simulator, "a", prefix);
    const b = replicaOf(simulator, "b", prefix);
    // Both replicas log in first, so the identical calls below wait side by side.
    const vehicles = await a.session.vehicles({ priority: "interactive" });
    await b.session.vehicles({ priority: "interactive" });
    const vehicleIds = vehicles.slice(0, 3).map((v) => v.vehicleId);
    const now = Date.now();
    const params = {
      vehicleIds,
      from: new Date(now - 2 * DAY),
      to: new Date(now - DAY),
      stationaryMarginMinutes: 5,
    };
    // A call ahead on A keeps the account busy while A and B queue the identical report.
    const ahead = a.session.vehicles({ priority: "report" });
    const onA = a.session.stops(params, { priority: "report" });
    const onB = b.session.stops(params, { priority: "report" });
    const [fromA, fromB] = await Promise.all([onA, onB]);
    await ahead;
    expect(fromB).toEqual(fromA);
    expect(fromA.length).toBeGreaterThan(0);
    expect(containsDate(fromB)).toBe(true);
    const stopsRequests = () => simulator.control.requests().filter((r) => r.endpoint === "stops").length;
    expect(stopsRequests()).toBe(1);
    // Asked again within a slot on B: the answer of that call, no request.
    const again = await b.session.stops(params, { priority: "report" });
    expect(again).toEqual(fromA);
    expect(stopsRequests()).toBe(1);
    expect(simulator.control.stats().rateLimited.demo ?? 0).toBe(0);
  });
});
