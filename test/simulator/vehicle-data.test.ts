import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/index.js";
import { manualClock, type Session, signIn } from "./helpers.js";

const clock = manualClock();
let sim: RunningSimulator;
let demo: Session;
let viewer: Session;

beforeAll(async () => {
  sim = await startSimulator({ minIntervalMs: 0, now: clock.now });
  demo = await signIn(sim);
  viewer = await signIn(sim, "viewer");
});
afterAll(async () => {
  await sim.close();
});

const ids = () => sim.vehicles.map((v) => v.vehicleId);
const reefer = () => sim.vehicles.find((v) => v.reefer?.setPointC === 4)!;
const lpg = () => sim.vehicles.find((v) => v.secondaryFuel)!;
const day = { startDate: "2026-11-02T00:00:00", endDate: "2026-11-02T23:59:59" };

describe("synthetic fleet", () => {
  it("has at least 25 vehicles with Romanian plates, VINs and GUIDs, and a last position at now", async () => {
    const answer = await demo.get("/api/carriers/company-vehicles");
    expect(answer.status).toBe(200);
    expect(answer.json.isSuccess).toBe(true);
    expect(answer.json.correlationId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    const vehicles = answer.json.payload;
    expect(vehicles.length).toBeGreaterThanOrEqual(25);
    for (const v of vehicles) {
      expect(v.vehicleRegistrationNumber).toMatch(/^(B-\d{2,3}|[A-Z]{2}-\d{2})-[A-HJ-NP-Z]{3}$/);
      expect(v.vehicleIdentificationNumber).toMatch(/^[A-HJ-NPR-Z0-9]{17}$/);
      expect(v.latitude).toBeGreaterThan(43.6);
      expect(v.latitude).toBeLessThan(48.3);
      expect(v.serverDate).toBe("2026-11-03T14:00:00");
      expect(v.gpsDate <= v.serverDate).toBe(true);
    }
    expect(
      new Set(vehicles.map((v: { vehicleRegistrationNumber: string }) => v.vehicleRegistrationNumber)).size,
    ).toBe(vehicles.length);
  });

  it("shows the viewer only their ten vehicles, including a reefer", async () => {
    const vehicles = (await viewer.get("/api/carriers/company-vehicles")).json.payload;
    expect(vehicles).toHaveLength(10);
    expect(vehicles.map((v: { vehicleId: number }) => v.vehicleId)).toContain(reefer().vehicleId);
  });

  it("answers the same for the same seed and differently for another seed", async () => {
    const other = await startSimulator({ minIntervalMs: 0, now: clock.now, seed: 1 });
    const third = await startSimulator({ minIntervalMs: 0, now: clock.now, seed: 2 });
    try {
      const body = { vehiclesList: ids().slice(0, 3), ...day };
      const a = (await demo.post("/api/carriers/way", body)).json.payload;
      const b = (await (await signIn(other)).post("/api/carriers/way", body)).json.payload;
      expect(b).toEqual(a);
      expect(a.length).toBeGreaterThan(50);
      expect(third.vehicles.map((v) => v.plate)).not.toEqual(sim.vehicles.map((v) => v.plate));
    } finally {
      await other.close();
      await third.close();
    }
  });
});

describe("way", () => {
  it("answers 31 days for 10 vehicles, with local dates and never past now", async () => {
    const answer = await demo.post("/api/carriers/way", {
      vehiclesList: ids().slice(0, 10),
      startDate: "2026-10-03T14:00:00",
      endDate: "2026-11-03T14:00:00",
    });
    expect(answer.status).toBe(200);
    const points = answer.json.payload;
    expect(points.length).toBeGreaterThan(5000);
    for (const p of points.slice(0, 200)) {
      expect(p.gpsDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
      expect(p.speed).toBeLessThan(110);
    }
    expect(points.every((p: { gpsDate: string }) => p.gpsDate <= "2026-11-03T14:00:00")).toBe(true);
  });

  it("drops vehicles the user cannot access", async () => {
    const viewerIds = (await viewer.get("/api/carriers/company-vehicles")).json.payload.map(
      (v: { vehicleId: number }) => v.vehicleId,
    );
    const notViewers = ids().filter((id) => !viewerIds.includes(id));
    const answer = await viewer.post("/api/carriers/way", {
      vehiclesList: [viewerIds[0], ...notViewers.slice(0, 2)],
      ...day,
    });
    expect(answer.status).toBe(200);
    expect(new Set(answer.json.payload.map((p: { vehicleId: number }) => p.vehicleId))).toEqual(
      new Set([viewerIds[0]]),
    );
  });

  it("accepts dates with fraction and offset, refuses unreadable dates and inverted periods", async () => {
    const vehiclesList = ids().slice(0, 1);
    const withOffset = await demo.post("/api/carriers/way", {
      vehiclesList,
      startDate: "2026-11-01T22:00:00.1234567Z",
      endDate: "2026-11-02T21:59:59+00:00",
    });
    const local = await demo.post("/api/carriers/way", { vehiclesList, ...day });
    expect(withOffset.json.payload).toEqual(local.json.payload);
    const unreadable = await demo.post("/api/carriers/way", {
      vehiclesList,
      startDate: "02.11.2026",
      endDate: day.endDate,
    });
    expect(unreadable.status).toBe(400);
    expect(unreadable.json.failureReasons[0].errorCode).toBe("InvalidParameter");
    const inverted = await demo.post("/api/carriers/way", {
      vehiclesList,
      startDate: day.endDate,
      endDate: day.startDate,
    });
    expect(inverted.status).toBe(400);
    expect(inverted.json.failureReasons[0].errorCode).toBe("InvalidPeriod");
  });
});

describe("documented limits", () => {
  it.each(["/api/carriers/way", "/api/carriers/stops", "/api/carriers/consumption"])(
    "%s refuses more than 10 vehicles",
    async (path) => {
      const answer = await demo.post(path, { vehiclesList: ids().slice(0, 11), ...day, stationaryMargin: 5 });
      expect(answer.status).toBe(400);
      expect(answer.json.isSuccess).toBe(false);
      expect(answer.json.failureReasons[0]).toEqual({
        errorCode: "TooManyVehicles",
        errorParameters: ["10", "11"],
      });
    },
  );

  it.each(["/api/carriers/way", "/api/carriers/consumption"])(
    "%s refuses a period over 31 days",
    async (path) => {
      const ok = await demo.post(path, {
        vehiclesList: ids().slice(0, 1),
        startDate: "2026-10-01T00:00:00",
        endDate: "2026-11-01T00:00:00",
      });
      expect(ok.status).toBe(200); // 31 days exactly, across the end of summer time
      const answer = await demo.post(path, {
        vehiclesList: ids().slice(0, 1),
        startDate: "2026-10-01T00:00:00",
        endDate: "2026-11-01T00:00:01",
      });
      expect(answer.status).toBe(400);
      expect(answer.json.failureReasons[0].errorCode).toBe("PeriodTooLong");
    },
  );

  it("stops needs a stationaryMargin of at least 1 minute", async () => {
    const base = { vehiclesList: ids().slice(0, 1), ...day };
    expect((await demo.post("/api/carriers/stops", base)).status).toBe(400);
    expect((await demo.post("/api/carriers/stops", { ...base, stationaryMargin: 0 })).status).toBe(400);
    expect((await demo.post("/api/carriers/stops", { ...base, stationaryMargin: "5" })).status).toBe(400);
    expect((await demo.post("/api/carriers/stops", { ...base, stationaryMargin: 1 })).status).toBe(200);
  });

  it("refuses missing and ill-typed fields and bodies that are not JSON objects", async () => {
    expect((await demo.post("/api/carriers/way", { ...day })).status).toBe(400);
    expect((await demo.post("/api/carriers/way", { vehiclesList: ["x"], ...day })).status).toBe(400);
    expect((await demo.post("/api/carriers/way", [1, 2])).status).toBe(400);
  });
});

describe("stops", () => {
  it("keys results by vehicle id, reports depots as hotspots, and hides short stops above the margin", async () => {
    const id = reefer().vehicleId;
    const one = await demo.post("/api/carriers/stops", { vehiclesList: [id], ...day, stationaryMargin: 1 });
    const ten = await demo.post("/api/carriers/stops", { vehiclesList: [id], ...day, stationaryMargin: 10 });
    expect(one.json.payload).toHaveLength(1);
    const stops = one.json.payload[0].results[String(id)];
    const longStops = ten.json.payload[0].results[String(id)];
    expect(longStops.length).toBeGreaterThan(0);
    expect(stops.length).toBeGreaterThanOrEqual(longStops.length);
    expect(longStops.some((s: { hotSpot: string | null }) => s.hotSpot?.startsWith("Depou"))).toBe(true);
    for (const s of longStops) {
      expect(s.vehicleId).toBe(id);
      expect(s.stopDuration).toBeGreaterThanOrEqual(10);
      expect(s.drivers[0].firstName).toBeTruthy();
    }
  });

  it("answers 401 when a listed vehicle is not the user's", async () => {
    const viewerIds = (await viewer.get("/api/carriers/company-vehicles")).json.payload.map(
      (v: { vehicleId: number }) => v.vehicleId,
    );
    const foreign = ids().find((id) => !viewerIds.includes(id))!;
    for (const [path, body] of [
      ["/api/carriers/stops", { vehiclesList: [viewerIds[0], foreign], ...day, stationaryMargin: 5 }],
      ["/api/carriers/refills", { carrierId: foreign, ...day }],
      ["/api/carriers/temperatures", { vehiclesList: [foreign], ...day }],
    ] as const) {
      const answer = await viewer.post(path, body);
      expect(answer.status, path).toBe(401);
      expect(answer.json.failureReasons[0]).toEqual({
        errorCode: "AccessDenied",
        errorParameters: [String(foreign)],
      });
    }
  });
});

describe("fuel", () => {
  it("reports the LPG vehicle's primary source at the top level and the LPG in secondarySource", async () => {
    const body = {
      vehiclesList: [lpg().vehicleId, reefer().vehicleId],
      startDate: "2026-10-05T00:00:00",
      endDate: "2026-11-03T00:00:00",
    };
    const [withLpg, plain] = (await demo.post("/api/carriers/consumption", body)).json.payload;
    expect(plain.secondarySource).toBeNull();
    expect(plain.averageConsumption100Km).toBeGreaterThan(25);
    expect(plain.hours).toMatch(/^\d{2,}:\d{2}:\d{2}$/);
    expect(Number(plain.hours.split(":")[0])).toBeGreaterThan(24);
    const s = withLpg.secondarySource;
    expect(s.distance).toBeGreaterThan(0);
    // Top level = primary source (petrol): its own average, not a mix with the LPG.
    expect(withLpg.averageConsumption100Km).toBeCloseTo(
      (withLpg.consumptionValue / withLpg.distance) * 100,
      1,
    );
    expect(s.averageConsumption100Km).toBeCloseTo((s.consumptionValue / s.distance) * 100, 1);
    expect(withLpg.hours).toMatch(/^\d{2,}:\d{2}:\d{2}$/);
  });

  it("lists refills with start, fuelings, totals that add up, and secondary-source events for LPG", async () => {
    const truck = sim.vehicles.find((v) => v.kind === "truck")!;
    const events = (
      await demo.post("/api/carriers/refills", {
        carrierId: truck.vehicleId,
        startDate: "2026-10-01T00:00:00",
        endDate: "2026-11-03T00:00:00",
      })
    ).json.payload as { event: string; estimation: number; date: string }[];
    const by = (kind: string) => events.filter((e) => e.event === kind);
    expect(by("FuelStart")).toHaveLength(1);
    expect(by("Fueling").length).toBeGreaterThan(5);
    const sum = (kind: string) => by(kind).reduce((acc, e) => acc + e.estimation, 0);
    const total = (kind: string) => by(kind)[0]!.estimation;
    expect(total("TotalRefill")).toBeCloseTo(sum("Fueling"), 0);
    expect(total("TotalPossibleTheft")).toBeCloseTo(sum("PossibleFuelTheft"), 0);
    expect(total("TotalFuelConsumption")).toBeCloseTo(
      total("FuelStart") + total("TotalRefill") - total("TotalPossibleTheft") - total("RemainingFuel"),
      0,
    );
    const lpgEvents = (
      await demo.post("/api/carriers/refills", {
        carrierId: lpg().vehicleId,
        startDate: "2026-10-20T00:00:00",
        endDate: "2026-11-03T00:00:00",
      })
    ).json.payload.map((e: { event: string }) => e.event);
    expect(lpgEvents).toContain("FuelStartSecondarySource");
    expect(lpgEvents).toContain("TotalFuelConsumptionSecondarySource");
  });

  it("has a possible fuel theft somewhere in the fleet within a month", async () => {
    const trucks = sim.vehicles.filter((v) => v.kind === "truck").slice(0, 6);
    let thefts = 0;
    for (const truck of trucks) {
      const events = (
        await demo.post("/api/carriers/refills", {
          carrierId: truck.vehicleId,
          startDate: "2026-10-01T00:00:00",
          endDate: "2026-11-01T00:00:00",
        })
      ).json.payload;
      thefts += events.filter((e: { event: string }) => e.event === "PossibleFuelTheft").length;
    }
    expect(thefts).toBeGreaterThan(0);
  });
});

describe("temperatures", () => {
  it("answers reefers with two temperature sensors and humidity, near their set points", async () => {
    const freezer = sim.vehicles.find((v) => v.reefer?.setPointC === -18)!;
    const truck = sim.vehicles.find((v) => !v.reefer)!;
    const answer = await demo.post("/api/carriers/temperatures", {
      vehiclesList: [reefer().vehicleId, freezer.vehicleId, truck.vehicleId],
      ...day,
    });
    expect(answer.status).toBe(200);
    const [chilled, frozen] = answer.json.payload;
    expect(answer.json.payload).toHaveLength(2);
    expect(new Set(chilled.temperature.map((r: { sensorNumber: number }) => r.sensorNumber))).toEqual(
      new Set([1, 2]),
    );
    expect(chilled.humidity.length).toBeGreaterThan(100);
    const values = chilled.temperature
      .map((r: { value: number }) => r.value)
      .sort((a: number, b: number) => a - b);
    expect(values[Math.floor(values.length / 2)]).toBeGreaterThan(2);
    expect(values[Math.floor(values.length / 2)]).toBeLessThan(6);
    expect(frozen.temperature[0].value).toBeLessThan(-14);
  });
});

describe("response styles", () => {
  it("writes PascalCase keys everywhere and offset dates when configured", async () => {
    const other = await startSimulator({
      minIntervalMs: 0,
      now: clock.now,
      keyCase: "pascal",
      dateStyle: "offset",
    });
    try {
      const s = await signIn(other);
      const answer = (await s.get("/api/carriers/company-vehicles")).json;
      expect(Object.keys(answer).sort()).toEqual(["CorrelationId", "FailureReasons", "IsSuccess", "Payload"]);
      expect(answer.Payload[0].VehicleId).toBeTypeOf("number");
      expect(answer.Payload[0].ServerDate).toBe("2026-11-03T14:00:00+02:00");
      const stops = (
        await s.post("/api/carriers/stops", {
          vehiclesList: [other.vehicles[0]!.vehicleId],
          ...day,
          stationaryMargin: 5,
        })
      ).json;
      const [first] = Object.values(stops.Payload[0].Results) as { StartDate: string }[][];
      expect(first![0]!.StartDate).toMatch(/\+0[23]:00$/);
      const bad = (await s.post("/api/carriers/way", {})).json;
      expect(bad.FailureReasons[0].ErrorCode).toBe("MissingParameter");
    } finally {
      await other.close();
    }
  });
});
