import { describe, expect, it } from "vitest";
import type { CallContext } from "../../../src/platform/fleet/seam.js";
import { MemoryGate } from "../../../src/platform/gate/memoryGate.js";
import { VirtualClock } from "../../../src/platform/gate/virtualClock.js";
import { VehicleCache } from "../../../src/platform/vehicles/vehicleCache.js";

const INTERVAL = 30_000;

function setup() {
  const clock = new VirtualClock();
  const gate = new MemoryGate({ minIntervalMs: INTERVAL, clock });
  let calls = 0;
  const cache = new VehicleCache<{ vehicleId: number }>({ ttlMs: 15 * 60_000, now: () => clock.now() });
  const demo = {
    account: "demo",
    credentialsId: {},
    assertUsable: async () => undefined,
    vehicles: (ctx: CallContext) =>
      gate.run(
        { account: "demo", endpoint: "company-vehicles", shareKey: "company-vehicles", context: ctx },
        async () => {
          calls++;
          return [{ vehicleId: calls }];
        },
      ),
  };
  return { clock, cache, demo, calls: () => calls };
}

describe("VehicleCache", () => {
  it("answers a list only to the credentials that fetched it: another password fetches (and logs in) itself", async () => {
    const { clock, cache, demo, calls } = setup();
    const first = cache.get(demo, {});
    await clock.runAll();
    await first;
    const otherPassword = { ...demo, credentialsId: {} };
    expect(cache.peekFor("demo", demo.credentialsId)).toBeDefined();
    expect(cache.peekFor("demo", otherPassword.credentialsId)).toBeUndefined();
    const second = cache.get(otherPassword, {});
    await clock.runAll();
    expect((await second).vehicles[0]?.vehicleId).toBe(2);
    expect(calls()).toBe(2);
    // The list now belongs to the credentials that fetched it last.
    expect(cache.peekFor("demo", demo.credentialsId)).toBeUndefined();
  });

  it("answers nothing from the cache to credentials the service has replaced", async () => {
    const { clock, cache, demo, calls } = setup();
    const first = cache.get(demo, {});
    await clock.runAll();
    await first;
    const outdated = {
      ...demo,
      assertUsable: async () => {
        throw new Error("password changed");
      },
    };
    await expect(cache.get(outdated, {})).rejects.toThrow("password changed");
    expect(calls()).toBe(1);
  });

  it("ten people asking where the trucks are at once cost one call", async () => {
    const { clock, cache, demo, calls } = setup();
    const answers = Promise.all(
      Array.from({ length: 10 }, () => cache.get(demo, { priority: "interactive" }, INTERVAL)),
    );
    await clock.runAll();
    const lists = await answers;
    expect(calls()).toBe(1);
    expect(new Set(lists.map((l) => l.vehicles[0]?.vehicleId))).toEqual(new Set([1]));
  });

  it("reuses a position answer younger than one interval and fetches an older one", async () => {
    const { clock, cache, demo, calls } = setup();
    const first = cache.get(demo, {}, INTERVAL);
    await clock.runAll();
    await first;
    await clock.advanceBy(INTERVAL - 1);
    await cache.get(demo, {}, INTERVAL);
    expect(calls()).toBe(1);
    await clock.advanceBy(2);
    const again = cache.get(demo, {}, INTERVAL);
    await clock.runAll();
    expect((await again).vehicles[0]?.vehicleId).toBe(2);
  });

  it("serves plate lookups from the list until its time to live, without any call", async () => {
    const { clock, cache, demo, calls } = setup();
    const first = cache.get(demo, {});
    await clock.runAll();
    await first;
    await clock.advanceBy(10 * 60_000);
    expect(cache.isStale("demo")).toBe(false);
    await cache.get(demo, {});
    expect(calls()).toBe(1);
    expect(cache.peek("demo")?.vehicles).toHaveLength(1);
    await clock.advanceBy(6 * 60_000);
    expect(cache.isStale("demo")).toBe(true);
  });

  it("an interactive read does not wait behind a background refresh's low priority", async () => {
    const { clock, cache, demo, calls } = setup();
    const background = cache.get(demo, { priority: "background" }, 0);
    const interactive = cache.get(demo, { priority: "interactive" }, 0);
    await clock.runAll();
    expect(await interactive).toEqual(await background);
    expect(calls()).toBe(1);
  });
});
