import { describe, expect, it } from "vitest";
import { applyIncidentChanges, type IncidentRecord } from "../../../../src/features/alerts/incidents.js";
import { evaluateVehicles, withinHours } from "../../../../src/features/alerts/vehicleWatch/evaluate.js";
import type {
  TemperaturePoint,
  VehicleReading,
} from "../../../../src/features/alerts/vehicleWatch/readings.js";
import type { Watch } from "../../../../src/features/alerts/vehicleWatch/watches.js";
import type { WatchState } from "../../../../src/features/alerts/vehicleWatch/watchState.js";
import type { Zone } from "../../../../src/platform/store/contract/zones.js";

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 3, 10, 0); // 12:00 in Bucharest

const zone: Zone = {
  id: "z1",
  workspace: "",
  name: "Depou",
  nameKey: "depou",
  latitude: 44.43,
  longitude: 25.97,
  radiusMeters: 300,
  createdAt: 0,
};

function reading(over: Partial<VehicleReading> = {}): VehicleReading {
  return {
    vehicleId: 7,
    plate: "B-7-ABC",
    gpsMs: T0,
    latitude: 45,
    longitude: 25,
    speedKmh: 0,
    volts: 24,
    engine: "off",
    private: false,
    ...over,
  };
}

/** Sweeps in a row over the same watches, changes applied between them, as the poller does. */
function sweeper(watches: Watch[], minDuration = 0) {
  let incidents: IncidentRecord[] = [];
  let state: WatchState = { vehicles: {} };
  let ids = 0;
  return {
    run(nowMs: number, readings: VehicleReading[], temperatures?: TemperaturePoint[]) {
      const { changes, state: next } = evaluateVehicles({
        account: "demo",
        nowMs,
        timeZone: "Europe/Bucharest",
        readings,
        ...(temperatures ? { temperatures } : {}),
        watches,
        active: incidents,
        transportOn: () => undefined,
        state,
        confirmAfterMs: () => minDuration * MIN,
      });
      incidents = applyIncidentChanges(incidents, changes, () => `i${++ids}`);
      state = next;
      return changes;
    },
    get open() {
      return incidents.filter((i) => i.state !== "resolved");
    },
    get all() {
      return incidents;
    },
  };
}

describe("Zone", () => {
  const watches: Watch[] = [{ kind: "zone", key: "zone:z1", zone }];
  it("opens on an arrival, not for a vehicle already inside when first seen", () => {
    const s = sweeper(watches);
    expect(s.run(T0, [reading({ latitude: 44.43, longitude: 25.97 })])).toEqual([]);
    expect(s.run(T0 + MIN, [reading({ latitude: 44.43, longitude: 25.97, gpsMs: T0 + MIN })])).toEqual([]);
    s.run(T0 + 2 * MIN, [reading({ latitude: 44.5, longitude: 26, gpsMs: T0 + 2 * MIN })]);
    const arrival = s.run(T0 + 3 * MIN, [
      reading({ latitude: 44.4301, longitude: 25.9701, gpsMs: T0 + 3 * MIN }),
    ]);
    expect(arrival).toMatchObject([{ type: "open", kind: "zone", code: "Zone", codeUit: "B-7-ABC" }]);
    expect(s.open[0]?.facts.vehicle).toMatchObject({
      zoneName: "Depou",
      sinceMs: T0 + 3 * MIN,
      threshold: 300,
    });
    const left = s.run(T0 + 40 * MIN, [reading({ latitude: 44.6, longitude: 26, gpsMs: T0 + 39 * MIN })]);
    expect(left).toMatchObject([{ type: "resolve", reason: "recovered", endEvidenceMs: T0 + 39 * MIN }]);
  });

  it("a zone made around a vehicle that another zone already knows is no arrival either", () => {
    const other: Zone = { ...zone, id: "z2", latitude: 46, longitude: 23 };
    const s1 = sweeper([{ kind: "zone", key: "zone:z2", zone: other }]);
    s1.run(T0, [reading()]);
    // The watch set changes (the new zone), the memory carries over through the store.
    const s = sweeper(watches);
    expect(s.run(T0, [reading({ latitude: 44.43, longitude: 25.97 })])).toEqual([]);
  });

  it("private mode: not watched, and an open zone incident resolves by status", () => {
    const s = sweeper(watches);
    s.run(T0, [reading()]);
    s.run(T0 + MIN, [reading({ latitude: 44.43, longitude: 25.97 })]);
    expect(s.open).toHaveLength(1);
    expect(
      s.run(T0 + 2 * MIN, [reading({ latitude: 44.43, longitude: 25.97, private: true })]),
    ).toMatchObject([{ type: "resolve", reason: "status" }]);
  });
});

describe("PowerCut", () => {
  const watches: Watch[] = [{ kind: "powercut", key: "powercut:6", volts: 6 }];
  it("since the evidence, never before the previous sweep; unknown voltage keeps it as it is", () => {
    const s = sweeper(watches);
    s.run(T0, [reading()]);
    // The unit's gpsDate is an hour-old heartbeat: the cut began after the sweep at T0.
    s.run(T0 + MIN, [reading({ volts: 2.7, gpsMs: T0 - 60 * MIN })]);
    expect(s.open[0]?.facts.vehicle).toMatchObject({ volts: 2.7, threshold: 6, sinceMs: T0 });
    expect(s.run(T0 + 2 * MIN, [reading({ volts: undefined })])).toMatchObject([{ type: "still" }]);
    expect(s.run(T0 + 3 * MIN, [reading({ volts: 24 })])).toMatchObject([
      { type: "resolve", reason: "recovered" },
    ]);
  });

  it("private mode still watches it, without a place", () => {
    const s = sweeper(watches);
    s.run(T0, [reading({ volts: 1, private: true })]);
    expect(s.open[0]?.facts.vehicle).toMatchObject({ private: true });
    expect(s.open[0]?.facts.vehicle?.latitude).toBeUndefined();
  });

  it("min= holds it pending, then confirms", () => {
    const s = sweeper(watches, 5);
    expect(s.run(T0, [reading({ volts: 1 })])).toMatchObject([{ type: "open", state: "pending" }]);
    expect(s.run(T0 + 6 * MIN, [reading({ volts: 1, gpsMs: T0 + 6 * MIN })])).toMatchObject([
      { type: "confirm" },
    ]);
  });
});

describe("Idle", () => {
  const watches: Watch[] = [{ kind: "idle", key: "idle:20", minutes: 20 }];
  it("opens once idling has lasted idle= minutes, from the first sweep that saw it", () => {
    const s = sweeper(watches);
    const idle = (t: number) => reading({ engine: "on", speedKmh: 0, gpsMs: t });
    expect(s.run(T0, [idle(T0)])).toEqual([]);
    expect(s.run(T0 + 19 * MIN, [idle(T0 + 19 * MIN)])).toEqual([]);
    expect(s.run(T0 + 21 * MIN, [idle(T0 + 21 * MIN)])).toMatchObject([{ type: "open", kind: "idle" }]);
    expect(s.open[0]?.facts.vehicle?.sinceMs).toBe(T0);
    expect(
      s.run(T0 + 22 * MIN, [reading({ engine: "on", speedKmh: 40, gpsMs: T0 + 22 * MIN })]),
    ).toMatchObject([{ type: "resolve", reason: "recovered" }]);
  });

  it("a reading older than 15 minutes tells nothing about idling now", () => {
    const s = sweeper(watches);
    expect(s.run(T0 + 60 * MIN, [reading({ engine: "on", speedKmh: 0, gpsMs: T0 })])).toEqual([]);
  });
});

describe("Speeding", () => {
  const watches: Watch[] = [{ kind: "speeding", key: "speeding:90", kmh: 90 }];
  it("keeps the highest speed seen in the incident's facts", () => {
    const s = sweeper(watches);
    s.run(T0, [reading({ speedKmh: 101, engine: "on" })]);
    s.run(T0 + MIN, [reading({ speedKmh: 118, engine: "on", gpsMs: T0 + MIN })]);
    s.run(T0 + 2 * MIN, [reading({ speedKmh: 95, engine: "on", gpsMs: T0 + 2 * MIN })]);
    expect(s.open[0]?.facts.vehicle).toMatchObject({ speedKmh: 95, peakSpeedKmh: 118 });
    s.run(T0 + 3 * MIN, [reading({ speedKmh: 80, engine: "on", gpsMs: T0 + 3 * MIN })]);
    expect(s.all[0]).toMatchObject({ state: "resolved", facts: { vehicle: { peakSpeedKmh: 118 } } });
  });
});

describe("Offline", () => {
  const watches: Watch[] = [{ kind: "offline", key: "offline:60", minutes: 60 }];
  it("from the last position's time; a vehicle with a transport In Progress is left to Stalled", () => {
    const s = sweeper(watches);
    expect(s.run(T0, [reading({ gpsMs: T0 - 61 * MIN })])).toMatchObject([{ type: "open", kind: "offline" }]);
    expect(s.open[0]?.facts.vehicle?.sinceMs).toBe(T0 - 61 * MIN);
    const withTransport = evaluateVehicles({
      account: "demo",
      nowMs: T0,
      timeZone: "UTC",
      readings: [reading({ gpsMs: T0 - 120 * MIN })],
      watches,
      active: [],
      transportOn: () => ({ codeUit: "UIT1", statusId: 2, uId: "t1" }),
      state: { vehicles: {} },
      confirmAfterMs: () => 0,
    });
    expect(withTransport.changes).toEqual([]);
  });
});

describe("Towed", () => {
  const watches: Watch[] = [{ kind: "towed", key: "towed" }];
  it("over 500 m between two close sweeps with the engine off at both; resolved once still", () => {
    const s = sweeper(watches);
    s.run(T0, [reading()]);
    expect(s.run(T0 + MIN, [reading({ latitude: 45.001, gpsMs: T0 + MIN })])).toEqual([]);
    expect(s.run(T0 + 2 * MIN, [reading({ latitude: 45.02, gpsMs: T0 + 2 * MIN })])).toMatchObject([
      { type: "open", kind: "towed" },
    ]);
    expect(s.open[0]?.facts.vehicle?.movedMeters).toBeGreaterThan(2000);
    expect(s.run(T0 + 3 * MIN, [reading({ latitude: 45.02, gpsMs: T0 + 3 * MIN })])).toMatchObject([
      { type: "resolve", reason: "recovered" },
    ]);
  });

  it("not after a gap between sweeps (fleetbot was down), nor when the engine ran meanwhile", () => {
    const s = sweeper(watches);
    s.run(T0, [reading()]);
    expect(s.run(T0 + 60 * MIN, [reading({ latitude: 45.3, gpsMs: T0 + 60 * MIN })])).toEqual([]);
    expect(
      s.run(T0 + 61 * MIN, [
        reading({ latitude: 45.5, gpsMs: T0 + 61 * MIN, engineEventMs: T0 + 60.5 * MIN }),
      ]),
    ).toEqual([]);
  });
});

describe("AfterHours", () => {
  it("moving outside the hours in the company zone; spans past midnight wrap", () => {
    expect(withinHours(T0, "06:00-22:00", "Europe/Bucharest")).toBe(true);
    expect(withinHours(T0, "13:00-22:00", "Europe/Bucharest")).toBe(false);
    expect(withinHours(Date.UTC(2026, 10, 3, 21, 30), "22:00-06:00", "Europe/Bucharest")).toBe(true);
    const s = sweeper([{ kind: "afterhours", key: "afterhours:13:00-22:00", hours: "13:00-22:00" }]);
    expect(s.run(T0, [reading({ speedKmh: 60, engine: "on" })])).toMatchObject([{ type: "open" }]);
    expect(s.run(T0 + MIN, [reading({ speedKmh: 0, engine: "on", gpsMs: T0 + MIN })])).toMatchObject([
      { type: "resolve" },
    ]);
  });
});

describe("Temperature", () => {
  const watches: Watch[] = [
    { kind: "temperature", key: "temperature:2..8/15", min: 2, max: 8, forMinutes: 15 },
  ];
  const point = (atMs: number, value: number): TemperaturePoint => ({ vehicleId: 7, atMs, value });
  it("a short excursion (a defrost) is none; a long one opens, carried across sweeps", () => {
    const s = sweeper(watches);
    expect(s.run(T0, [reading()], [point(T0 - 10 * MIN, 12), point(T0 - 5 * MIN, 4)])).toEqual([]);
    expect(s.run(T0 + 10 * MIN, [reading()], [point(T0 + 5 * MIN, 11)])).toEqual([]);
    expect(s.run(T0 + 20 * MIN, [reading()], [point(T0 + 19 * MIN, 12.5)])).toEqual([]);
    expect(s.run(T0 + 25 * MIN, [reading()], [point(T0 + 21 * MIN, 13)])).toMatchObject([
      { type: "open", kind: "temperature" },
    ]);
    expect(s.open[0]?.facts.vehicle).toMatchObject({
      temperature: 13,
      tempMin: 2,
      tempMax: 8,
      sinceMs: T0 + 5 * MIN,
    });
    expect(s.run(T0 + 30 * MIN, [reading()])).toMatchObject([{ type: "still" }]);
    expect(s.run(T0 + 35 * MIN, [reading()], [point(T0 + 33 * MIN, 6)])).toMatchObject([{ type: "resolve" }]);
  });
});

describe("watches that go away", () => {
  it("an incident whose watch no subscription asks for any more resolves as gone", () => {
    const watches: Watch[] = [{ kind: "powercut", key: "powercut:6", volts: 6 }];
    const s = sweeper(watches);
    s.run(T0, [reading({ volts: 1 })]);
    watches.length = 0;
    watches.push({ kind: "powercut", key: "powercut:12", volts: 12 });
    const changes = s.run(T0 + MIN, [reading({ volts: 1 })]);
    expect(changes).toContainEqual(expect.objectContaining({ type: "resolve", reason: "gone" }));
    expect(changes).toContainEqual(expect.objectContaining({ type: "open", kind: "powercut" }));
  });
});
