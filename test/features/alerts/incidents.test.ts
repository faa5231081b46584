import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  applyIncidentChanges,
  BAD_TRANSMISSION_CODES,
  canonicalAlertCode,
  conditionsOf,
  confirmAfterMs,
  evaluateSweep,
  type IncidentChange,
  type IncidentRecord,
  STALLED_CODE,
  type SubscriptionFilter,
  staleAfterMs,
  staleEnoughFor,
  stalledSinceMs,
  subscriptionMatches,
  vanishedChanges,
} from "../../../src/features/alerts/incidents.js";
import type { TransportView } from "../../../src/features/etransport/types.js";

const NOW = Date.UTC(2026, 10, 3, 8, 0, 0);
const H = 3600_000;
const MIN = 60_000;

function transport(overrides: Partial<TransportView> = {}): TransportView {
  return {
    uId: "t-1",
    codeUit: "Y45R577UN544GY4S",
    statusId: 2,
    carrierCode: "B-123-ABC",
    carrierUId: "veh-1",
    transmissionStatusCode: "Active",
    validityEndMs: NOW + 4 * 24 * H,
    ...overrides,
  };
}

const ALL: SubscriptionFilter = { codes: [], excludeCodes: [], vehicles: [], minDurationMinutes: 0 };

let ids = 0;
const newId = () => `i${++ids}`;

/** Runs sweeps in order, applying changes like the store does. */
function runSweeps(
  sweeps: { at: number; transports: TransportView[] }[],
  subs: SubscriptionFilter[] = [ALL],
): { incidents: IncidentRecord[]; changes: IncidentChange[][] } {
  let incidents: IncidentRecord[] = [];
  const changes: IncidentChange[][] = [];
  for (const sweep of sweeps) {
    const c = evaluateSweep("demo", incidents, sweep.transports, sweep.at, {}, subs);
    changes.push(c);
    incidents = applyIncidentChanges(incidents, c, newId);
  }
  return { incidents, changes };
}

describe("conditionsOf", () => {
  const cases: [string, Partial<TransportView>, string[]][] = [
    ["active in progress: nothing", {}, []],
    ...BAD_TRANSMISSION_CODES.map(
      (code) =>
        [`${code} in progress`, { transmissionStatusCode: code }, [`transmission:${code}`]] as [
          string,
          Partial<TransportView>,
          string[],
        ],
    ),
    ["Error while Paused: not a transmission incident", { statusId: 6, transmissionStatusCode: "Error" }, []],
    [
      "WithoutTransmission while Paused: normal",
      { statusId: 6, transmissionStatusCode: "WithoutTransmission" },
      [],
    ],
    ["NotStarted in progress: not bad", { transmissionStatusCode: "NotStarted" }, []],
    ["unknown code: not bad", { transmissionStatusCode: "Mystery" }, []],
    [
      "change request ResponseError",
      { changeRequestStatusCode: "ResponseError" },
      ["changerequest:ResponseError"],
    ],
    [
      "change request RequestErrorSent while paused",
      {
        statusId: 6,
        transmissionStatusCode: "WithoutTransmission",
        changeRequestStatusCode: "RequestErrorSent",
      },
      ["changerequest:RequestErrorSent"],
    ],
    ["change request ResponseSuccess", { changeRequestStatusCode: "ResponseSuccess" }, []],
    ["validity ends in 8 h", { validityEndMs: NOW + 8 * H }, ["expiry:ValidityEnding"]],
    ["validity ends in exactly 12 h", { validityEndMs: NOW + 12 * H }, ["expiry:ValidityEnding"]],
    ["validity ends in 13 h", { validityEndMs: NOW + 13 * H }, []],
    ["validity ending but completed", { statusId: 3, validityEndMs: NOW + H }, []],
    [
      "pending past its start",
      { statusId: 1, transmissionStatusCode: "NotStarted", startMs: NOW - 20 * MIN },
      ["notstarted:NotStarted"],
    ],
    [
      "pending within the grace",
      { statusId: 1, transmissionStatusCode: "NotStarted", startMs: NOW - 5 * MIN },
      [],
    ],
    ["pending without a planned start", { statusId: 1, transmissionStatusCode: "NotStarted" }, []],
    [
      "several at once",
      { transmissionStatusCode: "OldData", changeRequestStatusCode: "ResponseError", validityEndMs: NOW + H },
      ["transmission:OldData", "changerequest:ResponseError", "expiry:ValidityEnding"],
    ],
  ];
  it.each(cases)("%s", (_name, overrides, expected) => {
    expect(conditionsOf(transport(overrides), NOW).map((c) => `${c.kind}:${c.code}`)).toEqual(expected);
  });

  it("honours a custom expiry lead and grace", () => {
    expect(
      conditionsOf(transport({ validityEndMs: NOW + 20 * H }), NOW, { expiryLeadMs: 24 * H }),
    ).toHaveLength(1);
    const pending = transport({ statusId: 1, startMs: NOW - 2 * MIN });
    expect(conditionsOf(pending, NOW, { notStartedGraceMs: MIN })).toHaveLength(1);
  });
});

describe("subscriptionMatches", () => {
  const incident = { kind: "transmission" as const, code: "Error", facts: transport() };
  it.each([
    ["no filter", ALL, true],
    ["code included", { ...ALL, codes: ["Error"] }, true],
    ["code case-insensitive", { ...ALL, codes: ["error"] }, true],
    ["kind included", { ...ALL, codes: ["transmission"] }, true],
    ["other code only", { ...ALL, codes: ["OldData"] }, false],
    ["code excluded", { ...ALL, excludeCodes: ["Error"] }, false],
    ["kind excluded", { ...ALL, excludeCodes: ["transmission"] }, false],
    ["plate matches without dashes", { ...ALL, vehicles: ["b123abc"] }, true],
    ["vehicle id matches", { ...ALL, vehicles: ["VEH-1"] }, true],
    ["other vehicle", { ...ALL, vehicles: ["CJ-07-XYZ"] }, false],
  ] as [string, SubscriptionFilter, boolean][])("%s", (_name, sub, expected) => {
    expect(subscriptionMatches(sub, incident)).toBe(expected);
  });

  it("waits for the smallest minimum duration of the subscriptions that want it", () => {
    const subs = [
      { ...ALL, minDurationMinutes: 15 },
      { ...ALL, minDurationMinutes: 5, codes: ["OldData"] },
      { ...ALL, minDurationMinutes: 10, vehicles: ["B-123-ABC"] },
    ];
    expect(confirmAfterMs(subs, incident)).toBe(10 * MIN);
    expect(confirmAfterMs([], incident)).toBe(0);
  });

  it("knows the filter words", () => {
    expect(canonicalAlertCode("olddata")).toBe("OldData");
    expect(canonicalAlertCode("EXPIRY")).toBe("expiry");
    expect(canonicalAlertCode("Active")).toBeUndefined();
  });
});

describe("evaluateSweep", () => {
  it("opens once, stays quiet while the state lasts, resolves when Active again", () => {
    const bad = transport({ transmissionStatusCode: "NoGPSCoordinates" });
    const { incidents, changes } = runSweeps([
      { at: NOW, transports: [transport()] },
      { at: NOW + 5 * MIN, transports: [bad] },
      { at: NOW + 10 * MIN, transports: [bad] },
      { at: NOW + 15 * MIN, transports: [bad] },
      { at: NOW + 20 * MIN, transports: [bad] },
      { at: NOW + 25 * MIN, transports: [transport()] },
    ]);
    expect(changes.map((c) => c.map((x) => x.type))).toEqual([
      [],
      ["open"],
      ["still"],
      ["still"],
      ["still"],
      ["resolve"],
    ]);
    expect(changes[1]![0]).toMatchObject({
      type: "open",
      state: "open",
      kind: "transmission",
      code: "NoGPSCoordinates",
    });
    expect(changes[5]![0]).toMatchObject({ type: "resolve", reason: "recovered", wasOpen: true });
    expect(incidents).toHaveLength(1);
    expect(incidents[0]).toMatchObject({
      state: "resolved",
      firstSeenAt: NOW + 5 * MIN,
      resolvedAt: NOW + 25 * MIN,
      lastSeenAt: NOW + 20 * MIN,
    });
  });

  it("opens a new incident for a bad code after recovery", () => {
    const { incidents } = runSweeps([
      { at: NOW, transports: [transport({ transmissionStatusCode: "Error" })] },
      { at: NOW + MIN, transports: [transport()] },
      { at: NOW + 2 * MIN, transports: [transport({ transmissionStatusCode: "Error" })] },
    ]);
    expect(incidents.map((i) => i.state)).toEqual(["resolved", "open"]);
  });

  it("resolves and reopens when the bad code changes (one active incident per kind)", () => {
    const { incidents, changes } = runSweeps([
      { at: NOW, transports: [transport({ transmissionStatusCode: "Error" })] },
      { at: NOW + MIN, transports: [transport({ transmissionStatusCode: "OldData" })] },
    ]);
    expect(changes[1]!.map((c) => c.type)).toEqual(["resolve", "open"]);
    expect(changes[1]![0]).toMatchObject({ reason: "changed" });
    expect(incidents.filter((i) => i.state !== "resolved").map((i) => i.code)).toEqual(["OldData"]);
  });

  it("resolves by status when the transport is paused; one that leaves the sweep stays open (only the service can say why)", () => {
    const { changes } = runSweeps([
      {
        at: NOW,
        transports: [
          transport({ transmissionStatusCode: "Error" }),
          transport({ uId: "t-2", codeUit: "T2", transmissionStatusCode: "OldData" }),
        ],
      },
      {
        at: NOW + MIN,
        transports: [transport({ statusId: 6, transmissionStatusCode: "WithoutTransmission" })],
      },
    ]);
    expect(changes[1]!.map((c) => (c.type === "resolve" ? c.reason : c.type)).sort()).toEqual([
      "status",
      "still",
    ]);
  });

  it("does not resolve missing transports as gone when the sweep is incomplete", () => {
    const first = evaluateSweep("demo", [], [transport({ transmissionStatusCode: "Error" })], NOW, {}, [ALL]);
    const incidents = applyIncidentChanges([], first, newId);
    const second = evaluateSweep("demo", incidents, [], NOW + MIN, { complete: false }, [ALL]);
    expect(second.map((c) => c.type)).toEqual(["still"]);
  });

  it("keeps a short problem pending under the minimum duration and never opens it (flapping)", () => {
    const subs = [{ ...ALL, minDurationMinutes: 10 }];
    const bad = transport({ transmissionStatusCode: "WithoutTransmission" });
    const { incidents, changes } = runSweeps(
      [
        { at: NOW, transports: [bad] },
        { at: NOW + 5 * MIN, transports: [transport()] },
        { at: NOW + 6 * MIN, transports: [bad] },
        { at: NOW + 11 * MIN, transports: [transport()] },
      ],
      subs,
    );
    expect(changes[0]![0]).toMatchObject({ type: "open", state: "pending" });
    expect(changes[1]![0]).toMatchObject({ type: "resolve", wasOpen: false });
    expect(incidents.every((i) => i.openedAt === undefined)).toBe(true);
  });

  it("confirms a pending problem once it lasted the minimum duration", () => {
    const subs = [{ ...ALL, minDurationMinutes: 10 }];
    const bad = transport({ transmissionStatusCode: "Error" });
    const { incidents, changes } = runSweeps(
      [
        { at: NOW, transports: [bad] },
        { at: NOW + 5 * MIN, transports: [bad] },
        { at: NOW + 10 * MIN, transports: [bad] },
        { at: NOW + 15 * MIN, transports: [bad] },
      ],
      subs,
    );
    expect(changes.map((c) => c[0]?.type)).toEqual(["open", "still", "confirm", "still"]);
    expect(incidents[0]).toMatchObject({ state: "open", openedAt: NOW + 10 * MIN, firstSeenAt: NOW });
  });

  it("treats a new change request after a failed one as a new incident", () => {
    const { changes } = runSweeps([
      {
        at: NOW,
        transports: [
          transport({ changeRequestStatusCode: "ResponseError", changeRequestCreatedMs: NOW - H }),
        ],
      },
      {
        at: NOW + MIN,
        transports: [transport({ changeRequestStatusCode: "ResponseError", changeRequestCreatedMs: NOW })],
      },
    ]);
    expect(changes[1]!.map((c) => c.type)).toEqual(["resolve", "open"]);
  });

  it("resolves an expiry warning when the validity is extended, and a not-started one when started", () => {
    const { changes } = runSweeps([
      {
        at: NOW,
        transports: [
          transport({ validityEndMs: NOW + 2 * H }),
          transport({
            uId: "t-2",
            codeUit: "T2",
            statusId: 1,
            startMs: NOW - H,
            transmissionStatusCode: "NotStarted",
          }),
        ],
      },
      {
        at: NOW + MIN,
        transports: [
          transport({ validityEndMs: NOW + 5 * 24 * H }),
          transport({ uId: "t-2", codeUit: "T2", startMs: NOW - H }),
        ],
      },
    ]);
    expect(changes[0]!.map((c) => (c.type === "open" ? c.kind : c.type)).sort()).toEqual([
      "expiry",
      "notstarted",
    ]);
    expect(changes[1]!.map((c) => (c.type === "resolve" ? c.reason : c.type))).toEqual([
      "recovered",
      "recovered",
    ]);
  });

  it("deduplicates transports listed twice and ignores other accounts' incidents", () => {
    const bad = transport({ transmissionStatusCode: "Error" });
    const changes = evaluateSweep("demo", [], [bad, bad], NOW, {}, [ALL]);
    expect(changes).toHaveLength(1);
    const foreign: IncidentRecord = {
      id: "x",
      account: "other",
      transportUId: "t-9",
      codeUit: "X",
      kind: "transmission",
      code: "Error",
      firstSeenAt: NOW,
      state: "open",
      lastSeenAt: NOW,
      facts: transport({ uId: "t-9" }),
    };
    expect(evaluateSweep("demo", [foreign], [], NOW, {}, [ALL])).toEqual([]);
  });

  it("orders resolves before opens", () => {
    const { changes } = runSweeps([
      { at: NOW, transports: [transport({ transmissionStatusCode: "Error" })] },
      {
        at: NOW + MIN,
        transports: [
          transport({ uId: "t-0", codeUit: "T0", transmissionStatusCode: "OldData" }),
          transport({ transmissionStatusCode: "NotInRomania" }),
        ],
      },
    ]);
    const types = changes[1]!.map((c) => c.type);
    expect(types.lastIndexOf("resolve")).toBeLessThan(types.indexOf("open"));
  });
});

describe("evaluateSweep properties", () => {
  const TX = ["Active", "Error", "OldData", "NoGPSCoordinates", "WithoutTransmission", "NotStarted"] as const;
  const uids = ["a", "b", "c"];
  const transportState = fc.record({
    present: fc.boolean(),
    statusId: fc.constantFrom(1, 2, 2, 2, 6),
    tx: fc.constantFrom(...TX),
    cr: fc.constantFrom(undefined, "ResponseError", "ResponseSuccess", "RequestErrorSent"),
    validityInH: fc.integer({ min: 1, max: 48 }),
  });
  const sweep = fc.record({
    stepMin: fc.integer({ min: 1, max: 30 }),
    states: fc.tuple(transportState, transportState, transportState),
    complete: fc.boolean(),
  });
  const subsArb = fc.array(
    fc.record({
      codes: fc.subarray(["Error", "OldData", "expiry", "changerequest"]),
      excludeCodes: fc.subarray(["NoGPSCoordinates", "notstarted"]),
      vehicles: fc.constant([] as string[]),
      minDurationMinutes: fc.constantFrom(0, 5, 15),
    }),
    { maxLength: 3 },
  );

  it("never has two active incidents for one transport and kind, and resolves every transmission incident once Active", () => {
    fc.assert(
      fc.property(fc.array(sweep, { minLength: 1, maxLength: 25 }), subsArb, (sweeps, subs) => {
        let incidents: IncidentRecord[] = [];
        let at = NOW;
        for (const s of sweeps) {
          at += s.stepMin * MIN;
          const transports = s.states.flatMap((st, i) =>
            st.present
              ? [
                  transport({
                    uId: uids[i]!,
                    codeUit: `UIT${i}`,
                    statusId: st.statusId,
                    transmissionStatusCode: st.tx,
                    ...(st.cr ? { changeRequestStatusCode: st.cr } : {}),
                    validityEndMs: at + st.validityInH * H,
                  }),
                ]
              : [],
          );
          const changes = evaluateSweep("demo", incidents, transports, at, { complete: s.complete }, subs);
          incidents = applyIncidentChanges(incidents, changes, newId);
          const active = incidents.filter((i) => i.state !== "resolved");
          const keys = active.map((i) => `${i.transportUId}/${i.kind}`);
          expect(new Set(keys).size).toBe(keys.length);
          // Every open change concerns a key with no other active incident before it.
          for (const i of active) expect(i.firstSeenAt).toBeLessThanOrEqual(at);
        }
        // Transmission back to Active everywhere: every transmission incident ends.
        at += MIN;
        const recovered = uids.map((uId, i) => transport({ uId, codeUit: `UIT${i}`, statusId: 2 }));
        incidents = applyIncidentChanges(
          incidents,
          evaluateSweep("demo", incidents, recovered, at, {}, subs),
          newId,
        );
        expect(incidents.filter((i) => i.kind === "transmission" && i.state !== "resolved")).toEqual([]);
        // A complete sweep where nothing is listed resolves nothing by itself; once the service
        // shows every transport completed, everything is resolved.
        const unlisted = evaluateSweep("demo", incidents, [], at + MIN, {}, subs);
        expect(unlisted.filter((c) => c.type === "resolve" && c.reason === "gone")).toEqual([]);
        incidents = applyIncidentChanges(incidents, unlisted, newId);
        const active = incidents.filter((i) => i.state !== "resolved");
        const completed = uids.flatMap((uId, i) =>
          vanishedChanges("demo", transport({ uId, codeUit: `UIT${i}` }), "completed", active, at + 2 * MIN),
        );
        incidents = applyIncidentChanges(incidents, completed, newId);
        expect(incidents.filter((i) => i.state !== "resolved")).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it("a stable state yields no open after the first sweep", () => {
    fc.assert(
      fc.property(transportState, fc.integer({ min: 2, max: 6 }), (st, n) => {
        let incidents: IncidentRecord[] = [];
        const t = transport({
          statusId: st.statusId,
          transmissionStatusCode: st.tx,
          ...(st.cr ? { changeRequestStatusCode: st.cr } : {}),
          validityEndMs: NOW + 48 * H + st.validityInH * H,
        });
        for (let k = 0; k < n; k++) {
          const changes = evaluateSweep("demo", incidents, [t], NOW + k * MIN, {}, [ALL]);
          if (k > 0) expect(changes.filter((c) => c.type !== "still")).toEqual([]);
          incidents = applyIncidentChanges(incidents, changes, newId);
        }
      }),
    );
  });
});

describe("a transport no longer listed (vanished)", () => {
  const broken = transport({ transmissionStatusCode: "Error" });
  const open = () => applyIncidentChanges([], evaluateSweep("demo", [], [broken], NOW, {}, [ALL]), newId);

  it("hidden (in Error, or removed outside fleetbot): a red vanished incident opens; the open one stays open", () => {
    const incidents = open();
    const changes = vanishedChanges("demo", broken, "hidden", incidents, NOW + 5 * MIN);
    expect(changes).toEqual([
      expect.objectContaining({ type: "open", kind: "vanished", code: "Vanished", state: "open" }),
    ]);
    const after = applyIncidentChanges(incidents, changes, newId);
    expect(
      after
        .filter((i) => i.state === "open")
        .map((i) => i.kind)
        .sort(),
    ).toEqual(["transmission", "vanished"]);
    // Seen hidden again: the same incident, nothing new.
    expect(vanishedChanges("demo", broken, "hidden", after, NOW + 40 * MIN)).toEqual([
      expect.objectContaining({ type: "still" }),
    ]);
  });

  it("hidden with no incident before: the vanished incident is the only one", () => {
    const quiet = transport({ uId: "t-9", codeUit: "QUIET" });
    expect(vanishedChanges("demo", quiet, "hidden", [], NOW)).toEqual([
      expect.objectContaining({ type: "open", kind: "vanished", transportUId: "t-9" }),
    ]);
  });

  it("completed, or removed by fleetbot: every active incident of it resolves, with that reason", () => {
    for (const finding of ["completed", "removed"] as const) {
      const incidents = applyIncidentChanges(
        open(),
        vanishedChanges("demo", broken, "hidden", open(), NOW + MIN),
        newId,
      );
      const changes = vanishedChanges("demo", broken, finding, incidents, NOW + 2 * MIN);
      expect(changes.map((c) => (c.type === "resolve" ? c.reason : c.type))).toEqual([finding, finding]);
    }
    expect(vanishedChanges("demo", broken, "unchecked", open(), NOW)).toEqual([]);
  });

  it("listed again: the vanished incident resolves in place (recovered)", () => {
    const incidents = applyIncidentChanges([], vanishedChanges("demo", broken, "hidden", [], NOW), newId);
    const back = evaluateSweep("demo", incidents, [transport()], NOW + 10 * MIN, {}, [ALL]);
    expect(back).toEqual([expect.objectContaining({ type: "resolve", reason: "recovered" })]);
  });
});

describe("a stalled transmission", () => {
  const settings = { staleAfterMs: 30 * MIN };
  const since = (minutes: number) => ({ lastTransmissionMs: NOW - minutes * MIN, lastGpsMs: NOW - 2 * MIN });

  it("counts from the older of the last position sent and the last received", () => {
    expect(stalledSinceMs({ lastTransmissionMs: 5, lastGpsMs: 9 })).toBe(5);
    expect(stalledSinceMs({ lastGpsMs: 9 })).toBe(9);
    expect(stalledSinceMs({})).toBeUndefined();
  });

  it("opens after stale= minutes In Progress with the code still Active; not before, not when off, not when Paused", () => {
    const kinds = (t: TransportView, s: { staleAfterMs?: number } = settings) =>
      conditionsOf(t, NOW, s).map((c) => c.kind);
    expect(kinds(transport(since(31)))).toEqual(["stalled"]);
    expect(kinds(transport(since(29)))).toEqual([]);
    expect(kinds(transport(since(31)), {})).toEqual([]);
    expect(
      kinds(transport({ ...since(31), statusId: 6, transmissionStatusCode: "WithoutTransmission" })),
    ).toEqual([]);
    // A bad code has its own incident: no stalled one beside it.
    expect(kinds(transport({ ...since(400), transmissionStatusCode: "OldData" }))).toEqual(["transmission"]);
  });

  it("resolves in place when positions flow again; as changed when OldData follows (whose alert opens)", () => {
    const stalled = applyIncidentChanges(
      [],
      evaluateSweep("demo", [], [transport(since(45))], NOW, settings, [ALL]),
      newId,
    );
    expect(stalled.map((i) => i.code)).toEqual([STALLED_CODE]);
    const flowing = evaluateSweep("demo", stalled, [transport(since(1))], NOW + MIN, settings, [ALL]);
    expect(flowing).toEqual([expect.objectContaining({ type: "resolve", reason: "recovered" })]);
    const oldData = evaluateSweep(
      "demo",
      stalled,
      [transport({ ...since(400), transmissionStatusCode: "OldData" })],
      NOW + MIN,
      settings,
      [ALL],
    );
    expect(
      oldData.map((c) => (c.type === "resolve" ? c.reason : `${c.type}:${"code" in c ? c.code : ""}`)),
    ).toEqual(["changed", "open:OldData"]);
  });

  it("each subscription waits for its own stale=; stale=0 never; the account's smallest opens it", () => {
    const off = { ...ALL, staleMinutes: 0 };
    const slow = { ...ALL, staleMinutes: 90 };
    expect(staleAfterMs([off, slow, ALL])).toBe(30 * MIN);
    expect(staleAfterMs([off])).toBeUndefined();
    const incident = { facts: transport(since(45)) };
    expect(staleEnoughFor(ALL, incident, NOW)).toBe(true);
    expect(staleEnoughFor(slow, incident, NOW)).toBe(false);
    expect(staleEnoughFor(slow, incident, NOW + 46 * MIN)).toBe(true);
    expect(staleEnoughFor(off, incident, NOW + 10 * H)).toBe(false);
  });
});
