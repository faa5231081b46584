import { describe, expect, it } from "vitest";
import type { IncidentChange } from "../../../../src/features/alerts/incidents.js";
import type { TransportView } from "../../../../src/features/etransport/types.js";
import { VEHICLE_INCIDENT_KINDS } from "../../../../src/platform/store/contract/incidentRecords.js";
import type {
  IncidentFacts,
  VehicleFacts,
  VehicleWatchOptions,
} from "../../../../src/platform/store/contract/index.js";
import { describeContract, NOW, type StoreSet } from "./backends.js";

const facts: TransportView = {
  uId: "t-1",
  codeUit: "Y45R577UN544GY4S",
  statusId: 2,
  carrierCode: "B-123-ABC",
};
type OpenChange = Extract<IncidentChange, { type: "open" }>;
const open = (overrides: Partial<OpenChange> = {}): OpenChange => ({
  type: "open",
  account: "demo",
  transportUId: "t-1",
  codeUit: facts.codeUit,
  kind: "transmission",
  code: "Error",
  at: NOW,
  state: "open",
  facts,
  ...overrides,
});
const resolve = (id: string, at = NOW + 1): IncidentChange => ({
  type: "resolve",
  id,
  at,
  reason: "recovered",
  wasOpen: true,
});

async function openOne(s: StoreSet, overrides: Partial<OpenChange> = {}): Promise<string> {
  const [incident] = await s.alerts.applyChanges([open(overrides)]);
  return incident!.id;
}

describeContract("AlertRepository", (backend, name) => {
  describe("subscriptions", () => {
    it("keeps stale= (default 30, 0 for off) and reads the old 'every code' list as no filter", async () => {
      const s = await backend.open();
      const off = await s.alerts.upsertSubscription({ channel: "C7", account: "demo", staleMinutes: 0 });
      expect(off.subscription.staleMinutes).toBe(0);
      const every = [
        "Error",
        "OldData",
        "NoGPSCoordinates",
        "NotInRomania",
        "MissingETransportConfiguration",
        "WithoutTransmission",
        "expiry",
        "changerequest",
      ];
      const legacy = await s.alerts.upsertSubscription({ channel: "C8", account: "demo", codes: every });
      expect(legacy.subscription).toMatchObject({ codes: [], staleMinutes: 30 });
      expect((await s.alerts.subscription("C7", "demo"))?.staleMinutes).toBe(0);
    });

    it("keeps lang= (none: the workspace default); an upsert sets or clears it like the other filters", async () => {
      const s = await backend.open();
      const none = await s.alerts.upsertSubscription({ channel: "C7", account: "demo" });
      expect(none.subscription.language).toBeUndefined();
      expect("language" in none.subscription).toBe(false);
      const ro = await s.alerts.upsertSubscription({ channel: "C7", account: "demo", language: "ro" });
      expect(ro).toMatchObject({ created: false, subscription: { language: "ro" } });
      expect((await s.alerts.subscription("C7", "demo"))?.language).toBe("ro");
      expect((await s.alerts.subscriptions({ channel: "C7" }))[0]?.language).toBe("ro");
      const en = await s.alerts.upsertSubscription({ channel: "C7", account: "demo", language: "en" });
      expect(en.subscription.language).toBe("en");
      const cleared = await s.alerts.upsertSubscription({ channel: "C7", account: "demo" });
      expect(cleared.subscription.language).toBeUndefined();
    });

    it("keeps the vehicle watch's options as given ({} when none); an upsert replaces them like the other filters", async () => {
      const s = await backend.open();
      const none = await s.alerts.upsertSubscription({ channel: "C7", account: "demo" });
      expect(none.subscription.watch).toEqual({});
      const watch: VehicleWatchOptions = {
        volts: 11.5,
        zones: ["Depou Cluj", "Baza Arad"],
        idleMinutes: 20,
        speedKmh: 90,
        offlineMinutes: 120,
        hours: "22:00-05:00",
        tempMin: -20,
        tempMax: -15,
        tempForMinutes: 10,
      };
      const all = await s.alerts.upsertSubscription({ channel: "C7", account: "demo", watch });
      expect(all).toMatchObject({ created: false, subscription: { watch } });
      expect((await s.alerts.subscription("C7", "demo"))?.watch).toEqual(watch);
      expect((await s.alerts.subscriptions({ account: "demo" }))[0]?.watch).toEqual(watch);
      // Stored as given: the store checks nothing in them (a zone list may be empty).
      const some = await s.alerts.upsertSubscription({
        channel: "C7",
        account: "demo",
        watch: { speedKmh: 0, zones: [] },
      });
      expect(some.subscription.watch).toEqual({ speedKmh: 0, zones: [] });
      const cleared = await s.alerts.upsertSubscription({ channel: "C7", account: "demo" });
      expect(cleared.subscription.watch).toEqual({});
      expect((await s.alerts.subscription("C7", "demo"))?.watch).toEqual({});
    });

    it("remembers each account's vehicle-watch memory as the text written, replaced whole", async () => {
      const s = await backend.open();
      expect(await s.alerts.watchState("demo")).toBeUndefined();
      const state = JSON.stringify({ vehicles: { "17": { lat: 46.77, lon: 23.62, at: NOW } } });
      await s.alerts.replaceWatchState("demo", state);
      await s.alerts.replaceWatchState("other", "{}");
      expect(await s.alerts.watchState("demo")).toBe(state);
      // Kept as is, whatever it holds: the alerts feature reads it.
      await s.alerts.replaceWatchState("demo", "not json ✓");
      expect(await s.alerts.watchState("demo")).toBe("not json ✓");
      expect(await s.alerts.watchState("other")).toBe("{}");
      expect(await s.replica().alerts.watchState("demo")).toBe("not json ✓");
    });

    it("remembers the transports of the last complete sweep per account, replaced whole", async () => {
      const s = await backend.open();
      const t = (uId: string) => ({ uId, codeUit: `UIT-${uId}`, statusId: 2, carrierCode: "B-1-ABC" });
      expect(await s.alerts.listedTransports("demo")).toEqual([]);
      await s.alerts.replaceListed("demo", [t("a"), t("b")]);
      await s.alerts.replaceListed("other", [t("c")]);
      const uids = async (account: string) =>
        (await s.alerts.listedTransports(account)).map((x) => x.uId).sort();
      expect(await uids("demo")).toEqual(["a", "b"]);
      await s.alerts.replaceListed("demo", [t("b")]);
      expect(await uids("demo")).toEqual(["b"]);
      expect(await uids("other")).toEqual(["c"]);
      expect((await s.alerts.listedTransports("demo"))[0]).toMatchObject(t("b"));
      await s.alerts.replaceListed("demo", []);
      expect(await uids("demo")).toEqual([]);
    });

    it("subscribes, replaces, lists, filters and unsubscribes; one per channel and account", async () => {
      const s = await backend.open();
      const a = await s.alerts.upsertSubscription({
        channel: "C1",
        account: "demo",
        createdBy: "U1",
        codes: [" Error", "OldData", "Error", ""],
        minDurationMinutes: 10.7,
      });
      expect(a).toEqual({
        created: true,
        subscription: {
          id: expect.any(String),
          workspace: "",
          channel: "C1",
          account: "demo",
          createdBy: "U1",
          codes: ["Error", "OldData"],
          excludeCodes: [],
          vehicles: [],
          minDurationMinutes: 10,
          staleMinutes: 30,
          watch: {},
          createdAt: NOW,
        },
      });
      s.clock.now = NOW + 5;
      const b = await s.alerts.upsertSubscription({
        channel: "C1",
        account: "demo",
        vehicles: ["B-123-ABC"],
        excludeCodes: ["expiry"],
        minDurationMinutes: -3,
      });
      // Replaced in place: same id and creation time; no creator now (the workspace's).
      expect(b).toEqual({
        created: false,
        subscription: {
          id: a.subscription.id,
          workspace: "",
          channel: "C1",
          account: "demo",
          codes: [],
          excludeCodes: ["expiry"],
          vehicles: ["B-123-ABC"],
          minDurationMinutes: 0,
          staleMinutes: 30,
          watch: {},
          createdAt: NOW,
        },
      });
      expect(await s.alerts.subscription("C1", "demo")).toEqual(b.subscription);
      expect(await s.alerts.subscription("C1", "other")).toBeUndefined();

      s.clock.now = NOW - 10;
      await s.alerts.upsertSubscription({ channel: "C2", account: "other", createdBy: "U3" });
      s.clock.now = NOW + 20;
      await s.alerts.upsertSubscription({ channel: "C2", account: "demo", createdBy: "U1" });
      await s.alerts.upsertSubscription({ channel: "C3", account: "Zeta", createdBy: "U1" });
      const key = (list: { channel: string; account: string }[]) =>
        list.map((x) => `${x.channel}/${x.account}`);
      expect(key(await s.alerts.subscriptions())).toEqual(["C2/other", "C1/demo", "C2/demo", "C3/Zeta"]);
      expect(key(await s.alerts.subscriptions({ channel: "C2" }))).toEqual(["C2/other", "C2/demo"]);
      expect(key(await s.alerts.subscriptions({ account: "demo" }))).toEqual(["C1/demo", "C2/demo"]);
      expect(key(await s.alerts.subscriptions({ account: "demo", channel: "C2" }))).toEqual(["C2/demo"]);
      // Byte order, as SQL's ORDER BY: capitals first.
      expect(await s.alerts.subscribedAccounts()).toEqual(["Zeta", "demo", "other"]);

      expect(await s.alerts.removeSubscription("C2", "other")).toBe(1);
      expect(await s.alerts.removeSubscription("C2", "other")).toBe(0);
      await s.alerts.upsertSubscription({ channel: "C1", account: "other" });
      expect(await s.alerts.removeSubscription("C1")).toBe(2);
      expect(await s.alerts.removeSubscription("C1")).toBe(0);
      expect(key(await s.alerts.subscriptions())).toEqual(["C2/demo", "C3/Zeta"]);
      expect(await s.alerts.subscribedAccounts()).toEqual(["Zeta", "demo"]);
      // A channel subscribed again is a new subscription.
      const again = await s.alerts.upsertSubscription({ channel: "C1", account: "demo" });
      expect(again.created).toBe(true);
      expect(again.subscription.id).not.toBe(a.subscription.id);
    });

    it("concurrent subscriptions of one channel and account from two replicas make one", async () => {
      const s = await backend.open();
      const other = s.replica();
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? other : s).alerts.upsertSubscription({
            channel: "C1",
            account: "demo",
            createdBy: `U${i}`,
          }),
        ),
      );
      expect(outcomes.filter((o) => o.created)).toHaveLength(1);
      expect(new Set(outcomes.map((o) => o.subscription.id)).size).toBe(1);
      expect(await s.alerts.subscriptions()).toHaveLength(1);
    });
  });

  describe("incidents", () => {
    it("stores incidents with their facts; still, confirm and resolve change them as the sweep says", async () => {
      const s = await backend.open();
      const [pending] = await s.alerts.applyChanges([open({ state: "pending" })]);
      expect(pending).toEqual({
        id: expect.any(String),
        account: "demo",
        transportUId: "t-1",
        codeUit: facts.codeUit,
        kind: "transmission",
        code: "Error",
        firstSeenAt: NOW,
        state: "pending",
        lastSeenAt: NOW,
        facts,
      });
      const id = pending!.id;
      expect(await s.alerts.applyChanges([{ type: "still", id, at: NOW + 5 }])).toEqual([]);
      expect((await s.alerts.incident(id))?.lastSeenAt).toBe(NOW + 5);
      // An older sighting does not move lastSeenAt back.
      await s.alerts.applyChanges([{ type: "still", id, at: NOW + 2 }]);
      expect((await s.alerts.incident(id))?.lastSeenAt).toBe(NOW + 5);
      expect(await s.alerts.openIncidents()).toEqual([]);

      const [confirmed] = await s.alerts.applyChanges([
        { type: "confirm", id, at: NOW + 10, facts: { ...facts, lastGpsMs: NOW } },
      ]);
      expect(confirmed).toMatchObject({
        state: "open",
        openedAt: NOW + 10,
        lastSeenAt: NOW + 10,
        facts: { ...facts, lastGpsMs: NOW },
      });
      // Confirming an open incident changes nothing (and still returns it).
      const [same] = await s.alerts.applyChanges([{ type: "confirm", id, at: NOW + 50, facts }]);
      expect(same).toEqual(confirmed);
      expect((await s.alerts.openIncidents()).map((i) => i.id)).toEqual([id]);

      const [resolved] = await s.alerts.applyChanges([
        { type: "resolve", id, at: NOW + 20, reason: "gone", wasOpen: true },
      ]);
      expect(resolved).toMatchObject({ state: "resolved", resolvedAt: NOW + 20, resolveReason: "gone" });
      // Resolving again, or a still of a resolved one, changes nothing.
      await s.alerts.applyChanges([resolve(id, NOW + 30), { type: "still", id, at: NOW + 40 }]);
      expect(await s.alerts.incident(id)).toEqual(resolved);
      expect(await s.alerts.activeIncidents("demo")).toEqual([]);
      expect(await s.alerts.openIncidents()).toEqual([]);
      expect((await s.alerts.incidents("demo")).map((i) => i.state)).toEqual(["resolved"]);
      expect(await s.alerts.incident("no-such-incident")).toBeUndefined();
    });

    it("stores every vehicle kind with its vehicle's evidence, read back as written", async () => {
      const s = await backend.open();
      const vehicleFacts = (kind: string, i: number): IncidentFacts => {
        const vehicle: VehicleFacts = {
          vehicleId: 100 + i,
          watch: `${kind}:1`,
          plate: `CJ-${10 + i}-ABC`,
          name: "Duba 7",
          gpsMs: NOW - 60_000,
          latitude: 46.7712,
          longitude: 23.6236,
          address: "Str. Fabricii 3, Cluj-Napoca",
          speedKmh: 97.5,
          peakSpeedKmh: 112,
          volts: 0.4,
          engine: "off",
          sinceMs: NOW - 600_000,
          threshold: 90,
          hours: "22:00-05:00",
          zoneId: "z-1",
          zoneName: "Depou Cluj",
          zoneWorkspace: "T:ALPHA",
          movedMeters: 850,
          temperature: -11.5,
          tempMin: -20,
          tempMax: -15,
          sensor: 2,
          transportCodeUit: facts.codeUit,
        };
        return {
          uId: `vehicle:${100 + i}|${kind}:1`,
          codeUit: `CJ-${10 + i}-ABC`,
          statusId: 0,
          vehicle,
        };
      };
      const changes = VEHICLE_INCIDENT_KINDS.map((kind, i) => {
        const f = vehicleFacts(kind, i);
        return open({ kind, transportUId: f.uId, codeUit: f.codeUit, code: kind, facts: f });
      });
      const stored = await s.alerts.applyChanges(changes);
      expect(stored.map((i) => i.kind)).toEqual([...VEHICLE_INCIDENT_KINDS]);
      for (const [i, incident] of stored.entries()) {
        expect(incident.facts).toEqual(changes[i]!.facts);
        expect(await s.alerts.incident(incident.id)).toEqual(incident);
      }
      expect((await s.alerts.activeIncidents("demo")).map((i) => i.kind)).toEqual([
        ...VEHICLE_INCIDENT_KINDS,
      ]);
      // Private mode: no position kept, and none read back.
      const [hidden] = await s.alerts.applyChanges([
        open({
          kind: "offline",
          transportUId: "vehicle:7|offline:60",
          codeUit: "B-7-XYZ",
          facts: {
            uId: "vehicle:7|offline:60",
            codeUit: "B-7-XYZ",
            statusId: 0,
            vehicle: { vehicleId: 7, watch: "offline:60", private: true },
          },
        }),
      ]);
      expect((await s.alerts.incident(hidden!.id))?.facts.vehicle).toEqual({
        vehicleId: 7,
        watch: "offline:60",
        private: true,
      });
    });

    it("a still with facts replaces the stored facts; a still without keeps them", async () => {
      const s = await backend.open();
      const first: IncidentFacts = {
        uId: "vehicle:9|speeding:90",
        codeUit: "B-9-XYZ",
        statusId: 0,
        vehicle: { vehicleId: 9, watch: "speeding:90", speedKmh: 95, peakSpeedKmh: 95 },
      };
      const id = await openOne(s, {
        kind: "speeding",
        transportUId: first.uId,
        codeUit: first.codeUit,
        code: "speeding",
        facts: first,
      });
      const faster: IncidentFacts = {
        ...first,
        vehicle: { vehicleId: 9, watch: "speeding:90", speedKmh: 118, peakSpeedKmh: 118 },
      };
      expect(await s.alerts.applyChanges([{ type: "still", id, at: NOW + 5, facts: faster }])).toEqual([]);
      expect(await s.alerts.incident(id)).toMatchObject({ lastSeenAt: NOW + 5, facts: faster });
      // An older sighting with facts: the facts are replaced, lastSeenAt does not move back.
      const older: IncidentFacts = { ...first, vehicle: { ...faster.vehicle!, speedKmh: 100 } };
      await s.alerts.applyChanges([{ type: "still", id, at: NOW + 2, facts: older }]);
      expect(await s.alerts.incident(id)).toMatchObject({ lastSeenAt: NOW + 5, facts: older });
      await s.alerts.applyChanges([{ type: "still", id, at: NOW + 9 }]);
      expect(await s.alerts.incident(id)).toMatchObject({ lastSeenAt: NOW + 9, facts: older });
      // A resolved incident keeps its facts whatever a late still carries.
      await s.alerts.applyChanges([resolve(id, NOW + 10)]);
      await s.alerts.applyChanges([{ type: "still", id, at: NOW + 20, facts: first }]);
      expect(await s.alerts.incident(id)).toMatchObject({
        state: "resolved",
        lastSeenAt: NOW + 9,
        facts: older,
      });
    });

    it("keeps the service's date of a fault's end when the resolution carries one, and none otherwise", async () => {
      const s = await backend.open();
      const withEvidence = await openOne(s);
      const without = await openOne(s, { transportUId: "t-2" });
      await s.alerts.applyChanges([
        {
          type: "resolve",
          id: withEvidence,
          at: NOW + 60_000,
          reason: "recovered",
          wasOpen: true,
          endEvidenceMs: NOW + 20_000,
        },
        resolve(without, NOW + 60_000),
      ]);
      expect(await s.alerts.incident(withEvidence)).toMatchObject({
        state: "resolved",
        resolvedAt: NOW + 60_000,
        endEvidenceMs: NOW + 20_000,
      });
      expect(await s.alerts.incident(without)).not.toHaveProperty("endEvidenceMs");
    });

    it("lists by first sighting, then by insertion; active ones per account, open ones of all accounts", async () => {
      const s = await backend.open();
      const [late, early, pend, other] = await s.alerts.applyChanges([
        open({ at: NOW + 100, transportUId: "t-1" }),
        open({ at: NOW, transportUId: "t-2" }),
        open({ at: NOW, transportUId: "t-3", state: "pending" }),
        open({ at: NOW + 50, account: "other" }),
      ]);
      const ids = (list: { id: string }[]) => list.map((i) => i.id);
      expect(ids(await s.alerts.activeIncidents("demo"))).toEqual([early!.id, pend!.id, late!.id]);
      expect(ids(await s.alerts.openIncidents())).toEqual([early!.id, other!.id, late!.id]);
      await s.alerts.applyChanges([resolve(early!.id)]);
      expect(ids(await s.alerts.activeIncidents("demo"))).toEqual([pend!.id, late!.id]);
      expect(ids(await s.alerts.incidents("demo"))).toEqual([early!.id, pend!.id, late!.id]);
      expect(ids(await s.alerts.activeIncidents("other"))).toEqual([other!.id]);
    });

    it("one active incident per account, transport and kind; any number of resolved ones", async () => {
      const s = await backend.open();
      const first = await openOne(s);
      await expect(s.alerts.applyChanges([open({ at: NOW + 1 })])).rejects.toThrow(/UNIQUE/);
      await s.alerts.applyChanges([resolve(first, NOW + 2)]);
      await s.alerts.applyChanges([open({ at: NOW + 3 })]);
      await s.alerts.applyChanges([open({ at: NOW + 3, kind: "expiry" })]);
      await s.alerts.applyChanges([open({ at: NOW + 3, account: "other" })]);
      expect((await s.alerts.incidents("demo")).map((i) => `${i.kind}:${i.state}`)).toEqual([
        "transmission:resolved",
        "transmission:open",
        "expiry:open",
      ]);
    });

    it("a batch is applied whole or not at all: a refused batch leaves everything as it was", async () => {
      const s = await backend.open();
      const first = await openOne(s, { state: "pending" });
      // Resolve then open in one batch is fine.
      const touched = await s.alerts.applyChanges([resolve(first, NOW + 20), open({ at: NOW + 20 })]);
      expect(touched.map((i) => i.state)).toEqual(["resolved", "open"]);
      const active = touched[1]!;
      const before = {
        incidents: await s.alerts.incidents("demo"),
        open: await s.alerts.openIncidents(),
      };
      await expect(
        s.alerts.applyChanges([
          resolve(active.id, NOW + 30),
          { type: "still", id: active.id, at: NOW + 31 },
          open({ at: NOW + 30, kind: "expiry" }),
          open({ at: NOW + 30 }),
          open({ at: NOW + 30 }),
        ]),
      ).rejects.toThrow(/UNIQUE/);
      expect(await s.alerts.incidents("demo")).toEqual(before.incidents);
      expect(await s.alerts.openIncidents()).toEqual(before.open);
      // A confirm or resolve of an incident that is not there is refused the same way.
      await expect(
        s.alerts.applyChanges([open({ at: NOW + 40, kind: "expiry" }), resolve("no-such-incident")]),
      ).rejects.toThrow();
      expect(await s.alerts.incidents("demo")).toEqual(before.incidents);
      expect(await s.alerts.applyChanges([])).toEqual([]);
    });

    it("two replicas opening the same incident at once: one stores it, the other is refused", async () => {
      const s = await backend.open();
      const other = s.replica();
      const outcomes = await Promise.allSettled([
        s.alerts.applyChanges([open()]),
        other.alerts.applyChanges([open({ at: NOW + 1 })]),
      ]);
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      expect(await s.alerts.activeIncidents("demo")).toHaveLength(1);
    });
  });

  describe("posts", () => {
    it("records posts: failure, success (once), mute, the resolution's steps", async () => {
      const s = await backend.open();
      const id = await openOne(s);
      expect(await s.alerts.post(id, "C1")).toBeUndefined();
      expect(await s.alerts.ensurePost(id, "C1")).toEqual({
        incidentId: id,
        workspace: "",
        channel: "C1",
        attempts: 0,
      });
      await s.alerts.recordFailure(id, "C1", `ratelimited ${"x".repeat(600)}`);
      const failed = await s.alerts.post(id, "C1");
      expect(failed).toMatchObject({ attempts: 1 });
      expect(failed?.lastError).toHaveLength(500);
      expect(failed?.ts).toBeUndefined();
      // Ensuring again keeps the row as it is.
      expect(await s.alerts.ensurePost(id, "C1")).toEqual(failed);
      await s.alerts.recordMuted(id, "C1", NOW + 3600_000);
      expect((await s.alerts.post(id, "C1"))?.mutedUntil).toBe(NOW + 3600_000);

      s.clock.now = NOW + 1000;
      await s.alerts.recordPosted(id, "C1", "1.0001");
      s.clock.now = NOW + 2000;
      await s.alerts.recordPosted(id, "C1", "2.0002");
      expect(await s.alerts.post(id, "C1")).toEqual({
        incidentId: id,
        workspace: "",
        channel: "C1",
        ts: "1.0001",
        postedAt: NOW + 1000,
        attempts: 2,
      });

      await s.alerts.applyChanges([resolve(id, NOW + 3000)]);
      expect((await s.alerts.unresolvedPosts("demo")).map((p) => p.channel)).toEqual(["C1"]);
      s.clock.now = NOW + 4000;
      await s.alerts.recordFailure(id, "C1", "edit failed");
      await s.alerts.recordResolvedUpdate(id, "C1");
      await s.alerts.recordResolvedReply(id, "C1", "3.0003");
      await s.alerts.recordResolvedReply(id, "C1", "4.0004");
      expect(await s.alerts.unresolvedPosts("demo")).toHaveLength(1);
      s.clock.now = NOW + 5000;
      await s.alerts.recordResolutionDone(id, "C1");
      expect(await s.alerts.unresolvedPosts("demo")).toEqual([]);
      expect(await s.alerts.post(id, "C1")).toEqual({
        incidentId: id,
        workspace: "",
        channel: "C1",
        ts: "1.0001",
        postedAt: NOW + 1000,
        resolvedUpdatedAt: NOW + 4000,
        replyTs: "3.0003",
        resolvedPostedAt: NOW + 5000,
        attempts: 3,
      });
    });

    it("a post belongs to a stored incident; steps of a post that is not there store nothing", async () => {
      const s = await backend.open();
      await expect(s.alerts.ensurePost("no-such-incident", "C1")).rejects.toThrow(/FOREIGN KEY/);
      const id = await openOne(s);
      await s.alerts.recordPosted(id, "C9", "1.1");
      await s.alerts.recordFailure(id, "C9", "x");
      await s.alerts.recordMuted(id, "C9", NOW);
      await s.alerts.recordResolvedUpdate(id, "C9");
      await s.alerts.recordResolvedReply(id, "C9", "1.2");
      await s.alerts.recordResolutionDone(id, "C9");
      expect(await s.alerts.post(id, "C9")).toBeUndefined();
      expect(await s.alerts.posts(id)).toEqual([]);
      expect(await s.alerts.lastFailure("C9")).toBeUndefined();
      expect(await s.alerts.hasPostFor("C9", facts.codeUit, "demo")).toBe(false);
    });

    it("posts of an incident by channel; hasPostFor by channel, UIT and account", async () => {
      const s = await backend.open();
      const id = await openOne(s);
      for (const channel of ["C3", "C1", "c2", "C2"]) await s.alerts.ensurePost(id, channel);
      expect((await s.alerts.posts(id)).map((p) => p.channel)).toEqual(["C1", "C2", "C3", "c2"]);
      expect(await s.alerts.hasPostFor("C1", facts.codeUit, "demo")).toBe(true);
      expect(await s.alerts.hasPostFor("C1", facts.codeUit, "other")).toBe(false);
      expect(await s.alerts.hasPostFor("C1", "OTHERUIT00000000", "demo")).toBe(false);
      expect(await s.alerts.hasPostFor("C4", facts.codeUit, "demo")).toBe(false);
      // Still true once the incident is resolved: the post was made.
      await s.alerts.applyChanges([resolve(id)]);
      expect(await s.alerts.hasPostFor("C3", facts.codeUit, "demo")).toBe(true);
    });

    it("lastFailure: the channel's latest failed post, gone when that post succeeds", async () => {
      const s = await backend.open();
      const a = await openOne(s, { transportUId: "t-a", codeUit: "AAAAAAAAAAAAAAAA" });
      const b = await openOne(s, { transportUId: "t-b", codeUit: "BBBBBBBBBBBBBBBB" });
      await s.alerts.ensurePost(a, "C1");
      await s.alerts.ensurePost(b, "C1");
      await s.alerts.ensurePost(b, "C2");
      expect(await s.alerts.lastFailure("C1")).toBeUndefined();
      await s.alerts.recordFailure(b, "C1", "channel_not_found");
      await s.alerts.recordFailure(a, "C1", "ratelimited");
      await s.alerts.recordFailure(a, "C1", "ratelimited again");
      await s.alerts.recordFailure(b, "C2", "not_in_channel");
      // The latest post row with an error (rows in the order they were made), not the latest failure.
      expect(await s.alerts.lastFailure("C1")).toEqual({
        codeUit: "BBBBBBBBBBBBBBBB",
        error: "channel_not_found",
        attempts: 1,
      });
      await s.alerts.recordPosted(b, "C1", "9.9");
      expect(await s.alerts.lastFailure("C1")).toEqual({
        codeUit: "AAAAAAAAAAAAAAAA",
        error: "ratelimited again",
        attempts: 2,
      });
      expect(await s.alerts.lastFailure("C2")).toMatchObject({ error: "not_in_channel" });
    });

    it("unresolvedPosts: posts of the account's resolved incidents not done, by resolution time then post order", async () => {
      const s = await backend.open();
      const a = await openOne(s, { transportUId: "t-a" });
      const b = await openOne(s, { transportUId: "t-b" });
      const c = await openOne(s, { transportUId: "t-c", account: "other" });
      await s.alerts.ensurePost(a, "C2");
      await s.alerts.ensurePost(b, "C1");
      await s.alerts.ensurePost(a, "C1");
      await s.alerts.ensurePost(c, "C1");
      await s.alerts.recordPosted(a, "C2", "1.1");
      await s.alerts.applyChanges([resolve(b, NOW + 10), resolve(a, NOW + 20), resolve(c, NOW + 5)]);
      // A post made after the resolution (a channel that subscribed late) is owed one too.
      await s.alerts.ensurePost(b, "C3");
      const list = async () =>
        (await s.alerts.unresolvedPosts("demo")).map((p) => `${p.incidentId}/${p.channel}`);
      expect(await list()).toEqual([`${b}/C1`, `${b}/C3`, `${a}/C2`, `${a}/C1`]);
      await s.alerts.recordResolutionDone(b, "C1");
      await s.alerts.recordResolutionDone(a, "C1");
      expect(await list()).toEqual([`${b}/C3`, `${a}/C2`]);
      expect((await s.alerts.unresolvedPosts("other")).map((p) => p.channel)).toEqual(["C1"]);
    });
  });

  describe("mutes", () => {
    it("mutes a UIT in a channel until a time; muting again moves it; unmute says whether there was one", async () => {
      const s = await backend.open();
      expect(await s.alerts.mute("C1", "UIT1", NOW + 1000)).toEqual({
        workspace: "",
        channel: "C1",
        codeUit: "UIT1",
        until: NOW + 1000,
      });
      expect(await s.alerts.mutedUntil("C1", "UIT1")).toBe(NOW + 1000);
      expect(await s.alerts.mutedUntil("C2", "UIT1")).toBeUndefined();
      expect(await s.alerts.mutedUntil("C1", "UIT2")).toBeUndefined();
      expect(await s.alerts.mutedUntil("C1", "UIT1", NOW + 999)).toBe(NOW + 1000);
      expect(await s.alerts.mutedUntil("C1", "UIT1", NOW + 1000)).toBeUndefined();
      await s.alerts.mute("C1", "UIT1", NOW + 5000);
      expect(await s.alerts.mutedUntil("C1", "UIT1")).toBe(NOW + 5000);
      s.clock.now = NOW + 5000;
      expect(await s.alerts.mutedUntil("C1", "UIT1")).toBeUndefined();
      expect(await s.alerts.unmute("C1", "UIT1")).toBe(true);
      expect(await s.alerts.unmute("C1", "UIT1")).toBe(false);
    });
  });

  describe("purge", () => {
    it("drops ended mutes, and resolved incidents older than the limit unless a resolution is still owed", async () => {
      const s = await backend.open();
      await s.alerts.mute("C1", "UIT1", NOW + 1000);
      await s.alerts.mute("C1", "UIT2", NOW + 2000);
      await s.alerts.mute("C2", "UIT1", NOW + 3000);

      const done = await openOne(s, { transportUId: "t-done", codeUit: "DONEDONEDONEDONE" });
      const owed = await openOne(s, { transportUId: "t-owed" });
      const neverPosted = await openOne(s, { transportUId: "t-never" });
      const recent = await openOne(s, { transportUId: "t-recent" });
      const stillOpen = await openOne(s, { transportUId: "t-open", at: NOW - 90 * 86_400_000 });
      for (const id of [done, owed, neverPosted]) await s.alerts.ensurePost(id, "C1");
      await s.alerts.recordPosted(done, "C1", "1.1");
      await s.alerts.recordPosted(owed, "C1", "1.2");
      await s.alerts.recordFailure(done, "C1", "edit failed");
      await s.alerts.applyChanges([
        resolve(done, NOW + 10),
        resolve(owed, NOW + 10),
        resolve(neverPosted, NOW + 10),
        resolve(recent, NOW + 500),
      ]);
      await s.alerts.recordResolutionDone(done, "C1");

      s.clock.now = NOW + 2000;
      expect(await s.alerts.purge(NOW + 100)).toEqual({ mutes: 2, incidents: 2 });
      expect(await s.alerts.incident(done)).toBeUndefined();
      expect(await s.alerts.incident(neverPosted)).toBeUndefined();
      expect(await s.alerts.posts(done)).toEqual([]);
      expect(await s.alerts.post(done, "C1")).toBeUndefined();
      expect(await s.alerts.hasPostFor("C1", "DONEDONEDONEDONE", "demo")).toBe(false);
      expect(await s.alerts.hasPostFor("C1", facts.codeUit, "demo")).toBe(true);
      expect(await s.alerts.lastFailure("C1")).toBeUndefined();
      expect((await s.alerts.incidents("demo")).map((i) => i.id)).toEqual([stillOpen, owed, recent]);
      expect(await s.alerts.unresolvedPosts("demo")).toHaveLength(1);
      expect(await s.alerts.mutedUntil("C2", "UIT1")).toBe(NOW + 3000);
      expect(await s.alerts.unmute("C1", "UIT1")).toBe(false);

      // Once the owed resolution is done, it goes too; an open incident never does.
      await s.alerts.recordResolutionDone(owed, "C1");
      expect(await s.alerts.purge(NOW + 1000)).toEqual({ mutes: 0, incidents: 2 });
      expect((await s.alerts.incidents("demo")).map((i) => i.id)).toEqual([stillOpen]);
      expect(await s.alerts.purge(NOW + 10 * 86_400_000)).toEqual({ mutes: 0, incidents: 0 });
      // The transport can have a new active incident of the purged kind.
      await s.alerts.applyChanges([open({ transportUId: "t-done" })]);
    });
  });
  describe("workspaces", () => {
    // The same channel id in two workspaces: a Slack Connect channel, or two workspaces' ids that happen to match.
    const A = "T:ALPHA";
    const B = "T:BRAVO";

    it("the same channel and account in two workspaces are two subscriptions; the poller's accounts are one list", async () => {
      const s = await backend.open();
      const single = await s.alerts.upsertSubscription({ channel: "C1", account: "demo" });
      s.clock.now = NOW + 1;
      const a = await s.alerts.upsertSubscription({
        workspace: A,
        channel: "C1",
        account: "demo",
        createdBy: "U1",
      });
      s.clock.now = NOW + 2;
      const b = await s.alerts.upsertSubscription({
        workspace: B,
        channel: "C1",
        account: "demo",
        createdBy: "U1",
        codes: ["Error"],
      });
      expect([single.created, a.created, b.created]).toEqual([true, true, true]);
      expect(new Set([single, a, b].map((x) => x.subscription.id)).size).toBe(3);
      expect(single.subscription.workspace).toBe("");
      expect(a.subscription).toMatchObject({ workspace: A, channel: "C1", account: "demo", codes: [] });
      expect(b.subscription).toMatchObject({ workspace: B, codes: ["Error"] });
      // Replacing one leaves the others as they are.
      const again = await s.alerts.upsertSubscription({
        workspace: A,
        channel: "C1",
        account: "demo",
        vehicles: ["B-1"],
      });
      expect(again).toMatchObject({
        created: false,
        subscription: { id: a.subscription.id, vehicles: ["B-1"] },
      });
      expect((await s.alerts.subscription("C1", "demo", B))?.vehicles).toEqual([]);
      expect((await s.alerts.subscription("C1", "demo"))?.id).toBe(single.subscription.id);
      expect(await s.alerts.subscription("C1", "demo", "T:OTHER")).toBeUndefined();

      const key = (list: { workspace: string; channel: string }[]) =>
        list.map((x) => `${x.workspace}/${x.channel}`);
      expect(key(await s.alerts.subscriptions())).toEqual(["/C1", `${A}/C1`, `${B}/C1`]);
      expect(key(await s.alerts.subscriptions({ channel: "C1" }))).toEqual(["/C1", `${A}/C1`, `${B}/C1`]);
      expect(key(await s.alerts.subscriptions({ workspace: A }))).toEqual([`${A}/C1`]);
      expect(key(await s.alerts.subscriptions({ workspace: "" }))).toEqual(["/C1"]);
      expect(key(await s.alerts.subscriptions({ account: "demo", channel: "C1", workspace: B }))).toEqual([
        `${B}/C1`,
      ]);
      // One sweep of the account, whatever number of workspaces subscribe to it.
      expect(await s.alerts.subscribedAccounts()).toEqual(["demo"]);

      expect(await s.alerts.removeSubscription("C1", "demo", A)).toBe(1);
      expect(await s.alerts.removeSubscription("C1", "demo", A)).toBe(0);
      expect(await s.alerts.removeSubscription("C1", undefined, "T:OTHER")).toBe(0);
      expect(key(await s.alerts.subscriptions())).toEqual(["/C1", `${B}/C1`]);
      expect(await s.alerts.removeSubscription("C1")).toBe(1);
      expect(key(await s.alerts.subscriptions())).toEqual([`${B}/C1`]);
    });

    it("one incident has a post per workspace and channel, each with its own steps, failures and mutes", async () => {
      const s = await backend.open();
      const id = await openOne(s);
      expect(await s.alerts.ensurePost(id, "C1", B)).toEqual({
        incidentId: id,
        workspace: B,
        channel: "C1",
        attempts: 0,
      });
      await s.alerts.ensurePost(id, "C1", A);
      await s.alerts.ensurePost(id, "C1");
      await s.alerts.ensurePost(id, "C0", B);
      expect((await s.alerts.posts(id)).map((p) => `${p.workspace}/${p.channel}`)).toEqual([
        "/C1",
        `${A}/C1`,
        `${B}/C0`,
        `${B}/C1`,
      ]);
      await s.alerts.recordPosted(id, "C1", "1.0001", A);
      await s.alerts.recordFailure(id, "C1", "not_in_channel", B);
      await s.alerts.recordMuted(id, "C0", NOW + 60_000, B);
      expect(await s.alerts.post(id, "C1", A)).toMatchObject({ ts: "1.0001", attempts: 1 });
      expect(await s.alerts.post(id, "C1", B)).toMatchObject({ attempts: 1, lastError: "not_in_channel" });
      expect((await s.alerts.post(id, "C1", B))?.ts).toBeUndefined();
      expect(await s.alerts.post(id, "C1")).toEqual({
        incidentId: id,
        workspace: "",
        channel: "C1",
        attempts: 0,
      });
      expect((await s.alerts.post(id, "C0", B))?.mutedUntil).toBe(NOW + 60_000);
      expect(await s.alerts.post(id, "C0", A)).toBeUndefined();
      expect(await s.alerts.lastFailure("C1", B)).toMatchObject({
        error: "not_in_channel",
        codeUit: facts.codeUit,
      });
      expect(await s.alerts.lastFailure("C1", A)).toBeUndefined();
      expect(await s.alerts.lastFailure("C1")).toBeUndefined();
      expect(await s.alerts.hasPostFor("C0", facts.codeUit, "demo", B)).toBe(true);
      expect(await s.alerts.hasPostFor("C0", facts.codeUit, "demo", A)).toBe(false);
      expect(await s.alerts.hasPostFor("C0", facts.codeUit, "demo")).toBe(false);

      // Resolved: every workspace's post owes its resolution, done one by one.
      await s.alerts.applyChanges([resolve(id, NOW + 10)]);
      const owed = async () =>
        (await s.alerts.unresolvedPosts("demo")).map((p) => `${p.workspace}/${p.channel}`);
      expect((await owed()).sort()).toEqual(["/C1", `${A}/C1`, `${B}/C0`, `${B}/C1`]);
      await s.alerts.recordResolvedUpdate(id, "C1", A);
      await s.alerts.recordResolvedReply(id, "C1", "2.0001", A);
      await s.alerts.recordResolutionDone(id, "C1", A);
      expect(await s.alerts.post(id, "C1", A)).toMatchObject({ replyTs: "2.0001", resolvedPostedAt: NOW });
      expect((await s.alerts.post(id, "C1", B))?.resolvedPostedAt).toBeUndefined();
      expect((await owed()).sort()).toEqual(["/C1", `${B}/C0`, `${B}/C1`]);

      // Mutes: (workspace, channel, UIT).
      expect(await s.alerts.mute("C1", "UIT1", NOW + 1000, A)).toEqual({
        workspace: A,
        channel: "C1",
        codeUit: "UIT1",
        until: NOW + 1000,
      });
      expect(await s.alerts.mutedUntil("C1", "UIT1", undefined, A)).toBe(NOW + 1000);
      expect(await s.alerts.mutedUntil("C1", "UIT1", undefined, B)).toBeUndefined();
      expect(await s.alerts.mutedUntil("C1", "UIT1")).toBeUndefined();
      await s.alerts.mute("C1", "UIT1", NOW + 2000, B);
      await s.alerts.mute("C1", "UIT1", NOW + 3000);
      expect(await s.alerts.unmute("C1", "UIT1", A)).toBe(true);
      expect(await s.alerts.unmute("C1", "UIT1", A)).toBe(false);
      expect(await s.alerts.mutedUntil("C1", "UIT1", undefined, B)).toBe(NOW + 2000);
      expect(await s.alerts.mutedUntil("C1", "UIT1")).toBe(NOW + 3000);
    });

    it("deleteWorkspace removes that workspace's rows only, and the incidents only it still needed", async () => {
      const s = await backend.open();
      // demo: subscribed in A and B. solo: only in A. kept: only in "" (A posted about it once).
      await s.alerts.upsertSubscription({ workspace: A, channel: "C1", account: "demo" });
      await s.alerts.upsertSubscription({ workspace: A, channel: "C2", account: "solo" });
      await s.alerts.upsertSubscription({ workspace: B, channel: "C1", account: "demo" });
      await s.alerts.upsertSubscription({ channel: "C1", account: "kept" });
      const demo = await openOne(s);
      const solo = await openOne(s, { account: "solo" });
      const soloResolved = await openOne(s, { account: "solo", transportUId: "t-2" });
      await s.alerts.applyChanges([resolve(soloResolved)]);
      const kept = await openOne(s, { account: "kept" });
      await s.alerts.replaceListed("solo", [facts]);
      await s.alerts.replaceListed("demo", [facts]);
      for (const w of [A, B]) {
        await s.alerts.ensurePost(demo, "C1", w);
        await s.alerts.recordPosted(demo, "C1", `1.${w}`, w);
      }
      await s.alerts.ensurePost(solo, "C2", A);
      await s.alerts.recordFailure(solo, "C2", "not_in_channel", A);
      await s.alerts.ensurePost(kept, "C1", A);
      await s.alerts.ensurePost(kept, "C1");
      await s.alerts.mute("C1", "UIT1", NOW + 1000, A);
      await s.alerts.mute("C1", "UIT2", NOW + 1000, A);
      await s.alerts.mute("C1", "UIT1", NOW + 1000, B);
      const groupA = await s.alerts.createGroup("demo", "C3", [demo], A);
      const groupB = await s.alerts.createGroup("demo", "C3", [demo], B);

      await expect(s.alerts.deleteWorkspace("")).rejects.toThrow();
      expect(await s.alerts.deleteWorkspace(A)).toEqual({
        subscriptions: 2,
        // demo in C1 and C3 (the group's), solo in C2, kept in C1.
        posts: 4,
        mutes: 2,
        groups: 1,
        // solo's two: no workspace subscribes to it any more.
        incidents: 2,
      });
      expect(
        (await s.alerts.subscriptions()).map((x) => `${x.workspace}/${x.channel}/${x.account}`).sort(),
      ).toEqual(["/C1/kept", `${B}/C1/demo`]);
      expect(await s.alerts.subscribedAccounts()).toEqual(["demo", "kept"]);
      // demo is still B's: its incident and B's posts stay; A's are gone.
      expect(await s.alerts.incident(demo)).toBeDefined();
      expect((await s.alerts.posts(demo)).map((p) => `${p.workspace}/${p.channel}`)).toEqual([
        `${B}/C1`,
        `${B}/C3`,
      ]);
      expect(await s.alerts.hasPostFor("C1", facts.codeUit, "demo", A)).toBe(false);
      expect(await s.alerts.hasPostFor("C1", facts.codeUit, "demo", B)).toBe(true);
      expect(await s.alerts.group(groupA.id)).toBeUndefined();
      expect((await s.alerts.groupMembers(groupB.id)).map((m) => m.incident.id)).toEqual([demo]);
      expect(await s.alerts.listedTransports("demo")).toHaveLength(1);
      // solo: nobody subscribes any more: its incidents and last sweep go.
      expect(await s.alerts.incidents("solo")).toEqual([]);
      expect(await s.alerts.incident(solo)).toBeUndefined();
      expect(await s.alerts.listedTransports("solo")).toEqual([]);
      expect(await s.alerts.lastFailure("C2", A)).toBeUndefined();
      // kept: the single workspace still subscribes.
      expect((await s.alerts.posts(kept)).map((p) => `${p.workspace}/${p.channel}`)).toEqual(["/C1"]);
      expect(await s.alerts.mutedUntil("C1", "UIT1", undefined, A)).toBeUndefined();
      expect(await s.alerts.mutedUntil("C1", "UIT1", undefined, B)).toBe(NOW + 1000);
      expect(await s.alerts.activeIncidents("demo")).toHaveLength(1);
      expect(await s.alerts.activeIncidents("kept")).toHaveLength(1);
      if (name === "redis") expect(await s.rawContains(A)).toBe(false);

      // Idempotent: nothing left to delete.
      expect(await s.alerts.deleteWorkspace(A)).toEqual({
        subscriptions: 0,
        posts: 0,
        mutes: 0,
        groups: 0,
        incidents: 0,
      });
      // The last workspace of demo goes: demo's incident goes with its posts and group.
      await s.alerts.mute("C1", "UIT9", NOW + 10, B);
      s.clock.now = NOW + 20;
      expect((await s.alerts.purge(0)).mutes).toBe(1);
      expect(await s.alerts.deleteWorkspace(B)).toEqual({
        subscriptions: 1,
        posts: 2,
        mutes: 1,
        groups: 1,
        incidents: 1,
      });
      expect(await s.alerts.incidents("demo")).toEqual([]);
      expect(await s.alerts.listedTransports("demo")).toEqual([]);
      expect(await s.alerts.incidents("kept")).toHaveLength(1);
      if (name === "redis") expect(await s.rawContains(B)).toBe(false);
    });

    it("deleteWorkspace forgets an account's watch memory with its last sweep: only when no subscription uses it", async () => {
      const s = await backend.open();
      await s.alerts.upsertSubscription({ workspace: A, channel: "C1", account: "demo" });
      await s.alerts.upsertSubscription({ workspace: B, channel: "C1", account: "demo" });
      await s.alerts.upsertSubscription({ workspace: A, channel: "C2", account: "solo" });
      await s.alerts.upsertSubscription({ channel: "C1", account: "kept" });
      for (const account of ["demo", "solo", "kept"]) {
        await s.alerts.replaceWatchState(account, `{"account":"${account}"}`);
        await s.alerts.replaceListed(account, [facts]);
      }
      await s.alerts.deleteWorkspace(A);
      // solo: no workspace subscribes any more. demo: still B's.
      expect(await s.alerts.watchState("solo")).toBeUndefined();
      expect(await s.alerts.listedTransports("solo")).toEqual([]);
      expect(await s.alerts.watchState("demo")).toBe('{"account":"demo"}');
      expect(await s.alerts.watchState("kept")).toBe('{"account":"kept"}');
      await s.alerts.deleteWorkspace(B);
      expect(await s.alerts.watchState("demo")).toBeUndefined();
      expect(await s.alerts.listedTransports("demo")).toEqual([]);
      expect(await s.alerts.watchState("kept")).toBe('{"account":"kept"}');
      if (name === "redis") expect(await s.rawContains('{"account":"demo"}')).toBe(false);
    });
  });
});
