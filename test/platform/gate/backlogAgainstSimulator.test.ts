import { afterEach, describe, expect, it } from "vitest";
import { type FleetHarness, startFleetHarness } from "../../helpers/fleetHarness.js";

let harness: FleetHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const DAY = 86_400_000;

describe("a backlog through the real gate, client and simulator (virtual time)", () => {
  it("survives token expiry in the middle: one new login, every call answered, no 429, spacing kept", async () => {
    harness = await startFleetHarness({ sim: { tokenTtlSeconds: 3600 } });
    const { session, sim, clock, run } = harness;
    const vehicles = sim.vehicles.slice(0, 10).map((v) => v.vehicleId);
    const calls = vehicles.map((vehicleId, i) =>
      session.stops(
        {
          vehicleIds: [vehicleId],
          from: new Date(clock.now() - (i + 2) * DAY),
          to: new Date(clock.now() - (i + 1) * DAY),
          stationaryMarginMinutes: 5,
        },
        { priority: "report" },
      ),
    );
    // Let four calls through, then the service forgets every token.
    await run(calls[3]!);
    await fetch(`${sim.url}/__control/expire-tokens`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const answers = await run(Promise.all(calls));
    expect(answers.every((stops) => Array.isArray(stops))).toBe(true);
    const stats = sim.control.stats();
    expect(stats.requests.demo?.login).toBe(2);
    expect(stats.rateLimited.demo ?? 0).toBe(0);
    expect(stats.minGapMs.demo).toBeGreaterThanOrEqual(30_000);
  });

  it("a 429 from another client on the same account is retried after the pushed-back slot", async () => {
    harness = await startFleetHarness();
    const { session, sim, run, clock } = harness;
    await run(session.vehicles({ priority: "interactive" }));
    await clock.advanceBy(31_000);
    // Another client used the account a moment ago: the service answers 429 once.
    await fetch(`${sim.url}/__control/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        kind: "rateLimit",
        count: 1,
        retryAfterSeconds: 20,
        endpoint: "company-vehicles",
      }),
    });
    const before = clock.now();
    const vehicles = await run(session.vehicles({ priority: "interactive" }));
    expect(vehicles.length).toBeGreaterThan(0);
    expect(clock.now() - before).toBeGreaterThanOrEqual(30_000);
    expect(harness.gate.slotMs("demo")).toBeGreaterThan(30_250);
  });
});

describe("a token the service stops accepting early", () => {
  it("calls queued behind the first 401 log in again too, instead of reporting missing access", async () => {
    harness = await startFleetHarness();
    const { session, sim, run, clock } = harness;
    await run(session.vehicles({ priority: "interactive" })); // a valid token
    await clock.advanceBy(31_000);
    // The service revokes the token (no WWW-Authenticate hint): the next two requests get 401.
    await fetch(`${sim.url}/__control/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ kind: "http401", count: 2 }),
    });
    const ids = sim.vehicles.slice(0, 2).map((v) => v.vehicleId);
    const day = { from: new Date(clock.now() - 86_400_000), to: new Date(clock.now()) };
    const both = Promise.all(
      ids.map((id) =>
        session.stops({ vehicleIds: [id], ...day, stationaryMarginMinutes: 5 }, { priority: "report" }),
      ),
    );
    const answers = await run(both);
    expect(answers.every(Array.isArray)).toBe(true);
    expect(sim.control.stats().requests.demo?.login).toBeGreaterThanOrEqual(2);
  });
});
