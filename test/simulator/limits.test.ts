import { afterEach, describe, expect, it } from "vitest";
import { type RunningSimulator, STRICT_LIMITS, startSimulator } from "../../src/simulator/index.js";
import { control, getJson, manualClock, signIn } from "./helpers.js";

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start(options: Parameters<typeof startSimulator>[0] = {}) {
  sim = await startSimulator({ minIntervalMs: 0, now: manualClock().now, control: true, ...options });
  return { sim, demo: await signIn(sim) };
}

const fortyDays = { startDate: "2026-09-24T00:00:00", endDate: "2026-11-03T00:00:00" };
const ids = (n: number) => sim!.vehicles.slice(0, n).map((v) => v.vehicleId);

describe("documented limits only, by default (fleet-api.md)", () => {
  it("accepts 40 days of stops for 10 vehicles and refuses 11 vehicles (the stated limit)", async () => {
    const { demo } = await start();
    const ok = await demo.post("/api/carriers/stops", {
      vehiclesList: ids(10),
      ...fortyDays,
      stationaryMargin: 5,
    });
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.json.payload[0].results)).toHaveLength(10);
    const tooMany = await demo.post("/api/carriers/stops", {
      vehiclesList: ids(25),
      ...fortyDays,
      stationaryMargin: 5,
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.failureReasons).toEqual([
      { errorCode: "TooManyVehicles", errorParameters: ["10", "25"] },
    ]);
  });

  it("accepts temperatures for 25 vehicles over 40 days, and 40 days of refills (no stated limit)", async () => {
    const { demo } = await start();
    const temperatures = await demo.post("/api/carriers/temperatures", {
      vehiclesList: ids(25),
      ...fortyDays,
    });
    expect(temperatures.status).toBe(200);
    expect(temperatures.json.payload.length).toBeGreaterThan(0);
    const refills = await demo.post("/api/carriers/refills", { carrierId: ids(1)[0], ...fortyDays });
    expect(refills.status).toBe(200);
    expect(refills.json.isSuccess).toBe(true);
  });

  it("keeps the documented 31 days of way and consumption", async () => {
    const { demo } = await start();
    for (const path of ["/api/carriers/way", "/api/carriers/consumption"]) {
      const answer = await demo.post(path, { vehiclesList: ids(1), ...fortyDays });
      expect(answer.status).toBe(400);
      expect(answer.json.failureReasons).toEqual([{ errorCode: "PeriodTooLong", errorParameters: ["31"] }]);
    }
  });
});

describe("strict-limits mode", () => {
  it("refuses what the document leaves open with the same 400s as the documented limits", async () => {
    const { demo } = await start({ strictLimits: true });
    expect(sim!.control.limits()).toMatchObject(STRICT_LIMITS);
    const stops = await demo.post("/api/carriers/stops", {
      vehiclesList: ids(10),
      ...fortyDays,
      stationaryMargin: 5,
    });
    expect(stops.status).toBe(400);
    expect(stops.json).toMatchObject({
      isSuccess: false,
      payload: null,
      failureReasons: [{ errorCode: "PeriodTooLong", errorParameters: ["31"] }],
    });
    const temperatures = await demo.post("/api/carriers/temperatures", {
      vehiclesList: ids(25),
      startDate: "2026-11-01T00:00:00",
      endDate: "2026-11-02T00:00:00",
    });
    expect(temperatures.status).toBe(400);
    expect(temperatures.json.failureReasons).toEqual([
      { errorCode: "TooManyVehicles", errorParameters: ["10", "25"] },
    ]);
    const temperatureDays = await demo.post("/api/carriers/temperatures", {
      vehiclesList: ids(2),
      ...fortyDays,
    });
    expect(temperatureDays.json.failureReasons[0].errorCode).toBe("PeriodTooLong");
    const refills = await demo.post("/api/carriers/refills", { carrierId: ids(1)[0], ...fortyDays });
    expect(refills.status).toBe(400);
    expect(refills.json.failureReasons[0]).toEqual({ errorCode: "PeriodTooLong", errorParameters: ["31"] });
    // Within the strict limits everything is answered.
    const split = await demo.post("/api/carriers/stops", {
      vehiclesList: ids(10),
      startDate: "2026-10-03T00:00:00",
      endDate: "2026-11-03T00:00:00",
      stationaryMargin: 5,
    });
    expect(split.status).toBe(200);
  });

  it("single limits win over the preset, and the control endpoint switches the mode while running", async () => {
    const { demo } = await start({ strictLimits: true, limits: { stopsMaxDays: 7 } });
    expect(sim!.control.limits().stopsMaxDays).toBe(7);
    const week = { startDate: "2026-10-20T00:00:00", endDate: "2026-10-28T00:00:00" };
    const refused = await demo.post("/api/carriers/stops", {
      vehiclesList: ids(1),
      ...week,
      stationaryMargin: 5,
    });
    expect(refused.json.failureReasons).toEqual([{ errorCode: "PeriodTooLong", errorParameters: ["7"] }]);

    const off = await control(sim!, "/__control/limits", { strict: false });
    expect(off.status).toBe(200);
    expect(off.json).toMatchObject({ stopsMaxDays: null, temperaturesMaxVehicles: null });
    expect(
      (await demo.post("/api/carriers/stops", { vehiclesList: ids(1), ...fortyDays, stationaryMargin: 5 }))
        .status,
    ).toBe(200);

    const fewer = await control(sim!, "/__control/limits", { strict: true, stopsMaxVehicles: 5 });
    expect(fewer.json).toMatchObject({ stopsMaxVehicles: 5, stopsMaxDays: 31 });
    const six = await demo.post("/api/carriers/stops", {
      vehiclesList: ids(6),
      startDate: "2026-11-01T00:00:00",
      endDate: "2026-11-02T00:00:00",
      stationaryMargin: 5,
    });
    expect(six.json.failureReasons).toEqual([{ errorCode: "TooManyVehicles", errorParameters: ["5", "6"] }]);
    expect((await getJson(sim!, "/__control/limits")).json.stopsMaxVehicles).toBe(5);
    expect((await control(sim!, "/__control/limits", { stopsMaxDays: 0 })).status).toBe(400);
    expect((await control(sim!, "/__control/limits", { strict: "yes" })).status).toBe(400);
  });
});
