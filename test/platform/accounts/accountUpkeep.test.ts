import { afterEach, describe, expect, it } from "vitest";
import { AccountUpkeep } from "../../../src/platform/accounts/accountUpkeep.js";
import { FleetAccounts } from "../../../src/platform/accounts/fleetAccounts.js";
import type { Vehicle } from "../../../src/platform/fleet/schemas.js";
import { VehicleCache } from "../../../src/platform/vehicles/vehicleCache.js";
import { type FleetHarness, startFleetHarness } from "../../helpers/fleetHarness.js";

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
    // The first login, then the refused renewal, not retried (repeated refusals can lock the
    // account upstream); nothing after the account was let go.
    expect(sim.control.stats().requests.demo?.login).toBe(2);
  });

  it("never logs in again with credentials the service refused, even when a task opens the account again", async () => {
    harness = await startFleetHarness({ sim: { tokenTtlSeconds: 3600 } });
    const { clock, client, gate, run, sim } = harness;
    const stored = { username: "demo", password: "demo" };
    const fleet = new FleetAccounts({
      client,
      linked: { get: async () => stored, credentialsOf: async () => stored, isLinked: async () => true },
      vehicleCacheTtlMs: 15 * 60_000,
    });
    const actor = { account: "demo", slackUser: "U1" };
    const rejected: string[] = [];
    const upkeep = new AccountUpkeep({
      gate,
      vehicles: fleet.vehicles,
      sessions: () => fleet.sessions(),
      tokenLeadMs: 5 * 60_000,
      now: () => clock.now(),
      // As main.ts wires it.
      onLoginRejected: (account) => {
        rejected.push(account);
        fleet.forget(account);
      },
    });
    await run(fleet.vehiclesOf(actor, { priority: "interactive" }));
    await fetch(`${sim.url}/__control/users`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "demo", password: "changed", vehicleIds: "all" }),
    });
    const logins = () => sim.control.stats().requests.demo?.login ?? 0;
    await clock.advanceBy(56 * 60_000);
    await run(upkeep.tick());
    expect(rejected).toEqual(["demo"]);
    expect(logins()).toBe(2);
    // A task opens the account again with the stored (refused) password; the stale vehicle list
    // and the token due for renewal would each have upkeep log in.
    await run(fleet.sessionFor(actor));
    for (let tick = 0; tick < 3; tick++) {
      await clock.advanceBy(16 * 60_000);
      await run(upkeep.tick());
    }
    expect(logins()).toBe(2);
    // The user re-links with the new password: background work may use those credentials.
    stored.password = "changed";
    const relinked = await fleet.sessionFor(actor);
    await run(relinked.tokens.renew({ priority: "background" }));
    expect(logins()).toBe(3);
  });

  it("a gate whose schedule cannot be read skips the account this tick, without throwing", async () => {
    harness = await startFleetHarness();
    const { clock, session, gate } = harness;
    const vehicles = new VehicleCache<Vehicle>({ ttlMs: 15 * 60_000, now: () => clock.now() });
    const warned: unknown[] = [];
    const closing = Object.create(gate) as typeof gate;
    closing.schedule = () => Promise.reject(new Error("Connection is closed."));
    const upkeep = new AccountUpkeep({
      gate: closing,
      vehicles,
      sessions: () => [session],
      tokenLeadMs: 5 * 60_000,
      now: () => clock.now(),
      logger: { debug: () => undefined, warn: (detail: unknown) => warned.push(detail) },
    });
    await expect(upkeep.tick()).resolves.toEqual({ renewed: [], refreshed: [] });
    expect(warned).toEqual([expect.objectContaining({ account: "demo" })]);
  });
});
