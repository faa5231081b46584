import { describe, expect, it } from "vitest";
import type { NewZone } from "../../../../src/platform/store/contract/index.js";
import { describeContract, NOW } from "./backends.js";

const A = "T:ALPHA";
const B = "E:BRAVO";

const depot = (overrides: Partial<NewZone> = {}): NewZone => ({
  workspace: A,
  name: "Depou Cluj",
  nameKey: "depou cluj",
  latitude: 46.7712,
  longitude: 23.6236,
  radiusMeters: 500,
  createdBy: "U1",
  ...overrides,
});

describeContract("ZoneRepository", (backend, name) => {
  describe("zones", () => {
    it("adds a zone with a new id and the time; lists the workspace's by name key", async () => {
      const s = await backend.open();
      expect(await s.zones.zones(A)).toEqual([]);
      const added = await s.zones.addZone(depot());
      expect(added).toEqual({
        added: true,
        zone: {
          id: expect.any(String),
          workspace: A,
          name: "Depou Cluj",
          nameKey: "depou cluj",
          latitude: 46.7712,
          longitude: 23.6236,
          radiusMeters: 500,
          createdBy: "U1",
          createdAt: NOW,
        },
      });
      // fleetbot's own zone: no author, its own time.
      const own = await s.zones.addZone(
        depot({ name: "Baza Arad", nameKey: "baza arad", createdBy: undefined, createdAt: NOW - 5 }),
      );
      expect(own.added).toBe(true);
      if (own.added) {
        expect("createdBy" in own.zone).toBe(false);
        expect(own.zone.createdAt).toBe(NOW - 5);
      }
      const zones = await s.zones.zones(A);
      expect(zones.map((z) => z.nameKey)).toEqual(["baza arad", "depou cluj"]);
      expect(zones[1]).toEqual(added.added ? added.zone : undefined);
      expect("createdBy" in zones[0]!).toBe(false);
    });

    it("a name key is unique in its workspace: the second add answers the first zone, unchanged", async () => {
      const s = await backend.open();
      const first = await s.zones.addZone(depot());
      s.clock.now = NOW + 1;
      const again = await s.zones.addZone(
        depot({ name: "DEPOU  Cluj", latitude: 45, longitude: 25, radiusMeters: 900, createdBy: "U2" }),
      );
      expect(first.added).toBe(true);
      expect(again).toEqual({ added: false, existing: first.added ? first.zone : undefined });
      expect(await s.zones.zones(A)).toHaveLength(1);
    });

    it("the same name in two workspaces is two zones, each its workspace's", async () => {
      const s = await backend.open();
      const a = await s.zones.addZone(depot());
      const b = await s.zones.addZone(depot({ workspace: B, latitude: 44.43 }));
      const single = await s.zones.addZone(depot({ workspace: "" }));
      expect([a.added, b.added, single.added]).toEqual([true, true, true]);
      const ids = new Set([a, b, single].map((r) => (r.added ? r.zone.id : "")));
      expect(ids.size).toBe(3);
      expect((await s.zones.zones(B)).map((z) => [z.workspace, z.latitude])).toEqual([[B, 44.43]]);
      expect((await s.zones.zones("")).map((z) => z.workspace)).toEqual([""]);
    });

    it("zonesOf: several workspaces at once, a workspace without zones absent", async () => {
      const s = await backend.open();
      await s.zones.addZone(depot());
      await s.zones.addZone(depot({ name: "Arad", nameKey: "arad" }));
      await s.zones.addZone(depot({ workspace: B }));
      const found = await s.zones.zonesOf([A, B, "T:EMPTY", A]);
      expect([...found.keys()].sort()).toEqual([B, A].sort());
      expect(found.get(A)?.map((z) => z.nameKey)).toEqual(["arad", "depou cluj"]);
      expect(found.get(B)?.map((z) => z.workspace)).toEqual([B]);
      expect(found.has("T:EMPTY")).toBe(false);
      expect((await s.zones.zonesOf([])).size).toBe(0);
    });

    it("removes a zone by name key, answering it; the name can be added again as another zone", async () => {
      const s = await backend.open();
      const added = await s.zones.addZone(depot());
      await s.zones.addZone(depot({ workspace: B }));
      const removed = await s.zones.removeZone(A, "depou cluj");
      expect(removed).toEqual(added.added ? added.zone : undefined);
      expect(await s.zones.removeZone(A, "depou cluj")).toBeUndefined();
      expect(await s.zones.zones(A)).toEqual([]);
      expect(await s.zones.zones(B)).toHaveLength(1);
      const again = await s.zones.addZone(depot());
      expect(again.added && added.added && again.zone.id !== added.zone.id).toBe(true);
    });

    it("deleteWorkspace drops that workspace's zones only and says how many; a second call finds none", async () => {
      const s = await backend.open();
      await s.zones.addZone(depot());
      await s.zones.addZone(depot({ name: "Arad", nameKey: "arad" }));
      await s.zones.addZone(depot({ workspace: B }));
      await s.zones.addZone(depot({ workspace: "" }));
      expect(await s.zones.deleteWorkspace(A)).toBe(2);
      expect(await s.zones.deleteWorkspace(A)).toBe(0);
      expect(await s.zones.zones(A)).toEqual([]);
      expect(await s.zones.zones(B)).toHaveLength(1);
      expect(await s.zones.zones("")).toHaveLength(1);
      if (name === "redis") expect(await s.rawContains(A)).toBe(false);
      // The single workspace's too, when asked.
      expect(await s.zones.deleteWorkspace("")).toBe(1);
    });

    it("two replicas adding the same name at once make one zone", async () => {
      const s = await backend.open();
      const other = s.replica();
      const results = await Promise.all([
        s.zones.addZone(depot({ latitude: 1 })),
        other.zones.addZone(depot({ latitude: 2 })),
      ]);
      expect(results.filter((r) => r.added)).toHaveLength(1);
      const [zone] = await s.zones.zones(A);
      for (const r of results) expect(r.added ? r.zone : r.existing).toEqual(zone);
    });
  });
});
