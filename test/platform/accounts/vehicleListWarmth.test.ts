import { afterEach, describe, expect, it } from "vitest";
import { AccountUpkeep } from "../../../src/platform/accounts/accountUpkeep.js";
import type { Vehicle } from "../../../src/platform/fleet/schemas.js";
import { VehicleCache } from "../../../src/platform/vehicles/vehicleCache.js";
import { type FleetHarness, startFleetHarness } from "../../helpers/fleetHarness.js";

let harness: FleetHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const TTL = 15 * 60_000;

async function setup() {
  harness = await startFleetHarness({ sim: { tokenTtlSeconds: 24 * 3600 } });
  const { clock, session, gate } = harness;
  const vehicles = new VehicleCache<Vehicle>({ ttlMs: TTL, now: () => clock.now() });
  const upkeep = new AccountUpkeep({
    gate,
    vehicles,
    sessions: () => [session],
    tokenLeadMs: 5 * 60_000,
    now: () => clock.now(),
  });
  return { ...harness, vehicles, upkeep };
}

describe("the vehicle list of an account in use", () => {
  it("is refreshed before it expires, so a picker or a lookup never finds it expired", async () => {
    const { clock, session, run, vehicles, upkeep } = await setup();
    await run(vehicles.get(session, { priority: "interactive" }));
    const fetchedAt = vehicles.peek("demo")!.fetchedAt;
    await clock.advanceBy(TTL - 60_000);
    vehicles.noteUse("demo"); // a dispatcher types in a picker
    expect(await run(upkeep.tick())).toEqual({ renewed: [], refreshed: ["demo"] });
    expect(vehicles.peek("demo")!.fetchedAt).toBeGreaterThan(fetchedAt);
    expect(vehicles.isStale("demo")).toBe(false);
  });

  it("is left to expire when nobody read it within its time to live (an idle account costs nothing)", async () => {
    const { clock, session, run, vehicles, upkeep } = await setup();
    await run(vehicles.get(session, { priority: "background" }));
    await clock.advanceBy(TTL - 60_000);
    expect(await run(upkeep.tick())).toEqual({ renewed: [], refreshed: [] });
  });

  it("tells a waiting picker about a fetch under way, and forgets it once stored", async () => {
    const { session, run, vehicles } = await setup();
    const fetching = vehicles.get(session, { priority: "interactive" });
    const pending = vehicles.pending("demo");
    expect(pending).toBeDefined();
    await run(fetching);
    expect((await pending)!.vehicles.length).toBeGreaterThan(0);
    expect(vehicles.pending("demo")).toBeUndefined();
  });
});
