import { afterEach, describe, expect, it } from "vitest";
import type { Vehicle } from "../../src/fleet/schemas.js";
import { AccountUpkeep } from "../../src/tasks/accountUpkeep.js";
import { VehicleCache } from "../../src/tasks/vehicleCache.js";
import { type FleetHarness, startFleetHarness } from "../helpers/fleetHarness.js";

let harness: FleetHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("AccountUpkeep", () => {
  it("renews a token ahead of expiry and refreshes a stale vehicle list, only while the gate is idle", async () => {
    harness = await startFleetHarness({ sim: { tokenTtlSeconds: 3600 } });
    const { clock, session, gate, run, sim } = harness;
    const vehicles = new VehicleCache<Vehicle>({
      ttlMs: 15 * 60_000,
      now: () => clock.now(),
    });
    const upkeep = new AccountUpkeep({
      gate,
      vehicles,
      sessions: () => [session],
      tokenLeadMs: 5 * 60_000,
      now: () => clock.now(),
    });
    await run(vehicles.get(session, { priority: "interactive" })); // login + company-vehicles
    expect(await upkeep.tick()).toEqual({ renewed: [], refreshed: [] });

    await clock.advanceBy(16 * 60_000);
    const refresh = await run(upkeep.tick());
    expect(refresh).toEqual({ renewed: [], refreshed: ["demo"] });

    // 3600 s token, renewed by the manager 60 s before expiry, by upkeep 5 min before that.
    await clock.advanceBy(40 * 60_000);
    const busy = session.stops(
      {
        vehicleIds: [sim.vehicles[0]!.vehicleId],
        from: new Date(clock.now() - 3_600_000),
        to: new Date(clock.now()),
        stationaryMarginMinutes: 5,
      },
      { priority: "report" },
    );
    const blocked = session.stops(
      {
        vehicleIds: [sim.vehicles[1]!.vehicleId],
        from: new Date(clock.now() - 3_600_000),
        to: new Date(clock.now()),
        stationaryMarginMinutes: 5,
      },
      { priority: "report" },
    );
    await clock.advanceBy(0);
    expect(await upkeep.tick()).toEqual({ renewed: [], refreshed: [] }); // gate busy: nothing
    await run(Promise.all([busy, blocked]));
    const expiresBefore = session.tokens.expiresAt()!.getTime();
    await clock.advanceBy(15 * 60_000);
    expect((await run(upkeep.tick())).renewed).toEqual(["demo"]);
    expect(session.tokens.expiresAt()!.getTime()).toBeGreaterThan(expiresBefore);
    const stats = sim.control.stats();
    expect(stats.requests.demo?.login).toBe(2);
    expect(stats.rateLimited.demo ?? 0).toBe(0);
  });

  it("stops keeping an account whose login the service refuses (password changed), instead of retrying every tick", async () => {
    harness = await startFleetHarness({ sim: { tokenTtlSeconds: 3600 } });
    const { clock, session, gate, run, sim } = harness;
    const vehicles = new VehicleCache<Vehicle>({
      ttlMs: 15 * 60_000,
      now: () => clock.now(),
    });
    const kept = new Set([session]);
    const rejected: string[] = [];
    const upkeep = new AccountUpkeep({
      gate,
      vehicles,
      sessions: () => kept,
      tokenLeadMs: 5 * 60_000,
      now: () => clock.now(),
      onLoginRejected: (account) => {
        rejected.push(account);
        kept.clear();
      },
    });
    await run(vehicles.get(session, { priority: "interactive" }));
    // The user changed the password at the fleet service.
    await fetch(`${sim.url}/__control/users`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "demo", password: "changed", vehicleIds: "all" }),
    });
    await clock.advanceBy(56 * 60_000);
    await run(upkeep.tick());
    expect(rejected).toEqual(["demo"]);
    await clock.advanceBy(60_000);
    expect(await run(upkeep.tick())).toEqual({ renewed: [], refreshed: [] });
    // The first login, then the refused renewal and its one retry (a passing 401 is tried twice);
    // nothing after the account was let go.
    expect(sim.control.stats().requests.demo?.login).toBe(3);
  });
});
