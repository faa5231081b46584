/**
 * Vehicle overrides of `POST /__control/vehicles/:vehicleId` (power, place, idle, speed, silence,
 * tow, reefer temperature), read back through company-vehicles and temperatures over HTTP as a
 * client reads them; and what the day plans do by themselves for the "vehicle watch" alerts
 * (vehicles leave their depot and come back; they idle). The clock is a fixed Tuesday.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  type RunningSimulator,
  type SimulatorOptions,
  type SimVehicle,
  startSimulator,
} from "../../src/simulator/index.js";
import { ROADS } from "../../src/simulator/roads.js";
import { control, manualClock, type Session, signIn } from "./helpers.js";

const MINUTE = 60_000;
const TUESDAY_14H = Date.parse("2026-11-03T12:00:00Z"); // 14:00 in Bucharest

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

interface Listed {
  vehicleId: number;
  latitude: number;
  longitude: number;
  gpsDate: string;
  serverDate: string;
  address: string;
  speed: number;
  course: number;
  engineEvent: number;
  engineRpm: number;
  engineEventDate: string;
  externalPowerVoltage: number;
  isPrivate: boolean;
}

async function start(options: SimulatorOptions = {}, at = TUESDAY_14H) {
  const clock = manualClock(at);
  sim = await startSimulator({
    minIntervalMs: 0,
    now: clock.now,
    control: true,
    tokenTtlSeconds: 30 * 86_400,
    ...options,
  });
  return { sim, demo: await signIn(sim) };
}

async function listed(demo: Session): Promise<Listed[]> {
  const answer = await demo.get("/api/carriers/company-vehicles");
  expect(answer.status).toBe(200);
  return answer.json.payload;
}

async function one(demo: Session, vehicleId: number): Promise<Listed> {
  return (await listed(demo)).find((v) => v.vehicleId === vehicleId)!;
}

const set = (s: RunningSimulator, vehicleId: number, body: unknown) =>
  control(s, `/__control/vehicles/${vehicleId}`, body);

const advance = async (s: RunningSimulator, ms: number) => {
  expect((await control(s, "/__control/clock", { advanceMs: ms })).status).toBe(200);
};

/** Great-circle distance in km. */
function km(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/** A response date (company local time, no offset) as sim epoch ms. */
const localMs = (date: string) => Date.parse(`${date.slice(0, 19)}+02:00`);

/** "gpsDate current": within the unit's 30 s report period of the sim clock. */
function expectCurrent(v: Listed, s: RunningSimulator): void {
  const age = s.control.now() - localMs(v.gpsDate);
  expect(age).toBeGreaterThanOrEqual(0);
  expect(age).toBeLessThan(30_000);
}

const truckOf = (s: RunningSimulator): SimVehicle =>
  s.vehicles.find((v) => v.kind === "truck" && !v.reefer && !v.privateOnSaturdays)!;

describe("depots", () => {
  it("are public with their coordinates, where every road of the depot starts", async () => {
    const { sim } = await start();
    const bucuresti = sim.depots.find((d) => d.town === "București")!;
    expect(bucuresti).toMatchObject({ latitude: 44.4326, longitude: 25.9723 });
    for (const depot of sim.depots) {
      for (const road of depot.roads) {
        expect(ROADS[road]!.points[0]).toMatchObject({ lat: depot.latitude, lon: depot.longitude });
      }
    }
    expect(sim.vehicles.filter((v) => v.depot.town === "București").length).toBeGreaterThan(10);
  });
});

describe("POST /__control/vehicles/:vehicleId: vehicle overrides", () => {
  it("power cut reads the backup battery until restored, across the sim clock", async () => {
    const { sim, demo } = await start();
    const truck = truckOf(sim);
    expect((await one(demo, truck.vehicleId)).externalPowerVoltage).toBeGreaterThan(24);
    const answer = await set(sim, truck.vehicleId, { power: "cut" });
    expect(answer.status).toBe(200);
    expect(answer.json.controls).toEqual({ power: "cut" });
    const cut = await one(demo, truck.vehicleId);
    expect(cut.externalPowerVoltage).toBeGreaterThanOrEqual(2.6);
    expect(cut.externalPowerVoltage).toBeLessThanOrEqual(3);
    await advance(sim, 45 * MINUTE);
    expect((await one(demo, truck.vehicleId)).externalPowerVoltage).toBeLessThan(6);
    expect((await set(sim, truck.vehicleId, { power: "restored" })).status).toBe(200);
    expect((await one(demo, truck.vehicleId)).externalPowerVoltage).toBeGreaterThan(24);
    const van = sim.vehicles.find((v) => v.kind === "van" && !v.reefer)!;
    expect((await one(demo, van.vehicleId)).externalPowerVoltage).toBeGreaterThan(12);
    expect((await one(demo, van.vehicleId)).externalPowerVoltage).toBeLessThan(15);
  });

  it("place stands the vehicle there, engine off, with the depot's address at a depot", async () => {
    const { sim, demo } = await start();
    const truck = truckOf(sim);
    const depot = sim.depots[0]!;
    expect(
      (await set(sim, truck.vehicleId, { place: { latitude: depot.latitude, longitude: depot.longitude } }))
        .status,
    ).toBe(200);
    await advance(sim, 7 * MINUTE);
    const placed = await one(demo, truck.vehicleId);
    expect(placed).toMatchObject({
      latitude: depot.latitude,
      longitude: depot.longitude,
      speed: 0,
      engineRpm: 0,
      engineEvent: 2,
      address: depot.address,
    });
    expectCurrent(placed, sim);
    expect((await set(sim, truck.vehicleId, { place: { latitude: 45.1, longitude: 24.37 } })).status).toBe(
      200,
    );
    expect((await one(demo, truck.vehicleId)).address).toContain("lângă");
  });

  it("idle stands still with the engine running, for as long as the sim clock runs", async () => {
    const { sim, demo } = await start();
    const truck = truckOf(sim);
    const before = await one(demo, truck.vehicleId);
    expect((await set(sim, truck.vehicleId, { idle: true })).status).toBe(200);
    await advance(sim, 20 * MINUTE);
    const idle = await one(demo, truck.vehicleId);
    expect(idle).toMatchObject({ speed: 0, engineRpm: 650, engineEvent: 1 });
    expect(km(idle, before)).toBeLessThan(0.01);
    expectCurrent(idle, sim);
    // Placed: parked there, engine off; placed and idle in one body: idles there.
    await set(sim, truck.vehicleId, { place: { latitude: 44.5, longitude: 26.1 } });
    expect(await one(demo, truck.vehicleId)).toMatchObject({ latitude: 44.5, engineRpm: 0, engineEvent: 2 });
    await set(sim, truck.vehicleId, { place: { latitude: 44.6, longitude: 26.1 }, idle: true });
    expect(await one(demo, truck.vehicleId)).toMatchObject({ latitude: 44.6, engineRpm: 650, speed: 0 });
  });

  it("speedKmh drives on in a straight line as sim time passes, gpsDate current", async () => {
    const { sim, demo } = await start();
    const truck = truckOf(sim);
    expect((await set(sim, truck.vehicleId, { speedKmh: 120 })).status).toBe(200);
    const first = await one(demo, truck.vehicleId);
    expect(first).toMatchObject({ speed: 120, engineEvent: 1, engineRpm: 1820 });
    await advance(sim, 10 * MINUTE);
    const later = await one(demo, truck.vehicleId);
    expect(later.speed).toBe(120);
    expect(later.course).toBe(first.course);
    expect(km(first, later)).toBeCloseTo(20, 1); // 120 km/h for 10 min
    expectCurrent(later, sim);
    await advance(sim, 10 * MINUTE);
    expect(km(first, await one(demo, truck.vehicleId))).toBeCloseTo(40, 1);
  });

  it("silent freezes the last answer (gpsDate included) while serverDate moves on", async () => {
    const { sim, demo } = await start();
    const truck = truckOf(sim);
    await set(sim, truck.vehicleId, { speedKmh: 90 });
    const moving = await one(demo, truck.vehicleId);
    expect((await set(sim, truck.vehicleId, { silent: true })).status).toBe(200);
    await advance(sim, 45 * MINUTE);
    const silent = await one(demo, truck.vehicleId);
    expect(silent.gpsDate).toBe(moving.gpsDate);
    expect([silent.latitude, silent.longitude, silent.speed]).toEqual([
      moving.latitude,
      moving.longitude,
      moving.speed,
    ]);
    expect(localMs(silent.serverDate) - localMs(silent.gpsDate)).toBeGreaterThanOrEqual(45 * MINUTE);
  });

  it("tow puts the vehicle `meters` away, engine off, gpsDate current", async () => {
    const { sim, demo } = await start();
    const truck = truckOf(sim);
    const depot = sim.depots[0]!;
    await set(sim, truck.vehicleId, { place: { latitude: depot.latitude, longitude: depot.longitude } });
    const parked = await one(demo, truck.vehicleId);
    await advance(sim, 2 * MINUTE);
    expect((await set(sim, truck.vehicleId, { tow: { meters: 2000 } })).status).toBe(200);
    const towed = await one(demo, truck.vehicleId);
    expect(km(parked, towed)).toBeCloseTo(2, 2);
    expect(towed).toMatchObject({ speed: 0, engineRpm: 0, engineEvent: 2 });
    expectCurrent(towed, sim);
    await advance(sim, 5 * MINUTE);
    const later = await one(demo, truck.vehicleId);
    expect([later.latitude, later.longitude]).toEqual([towed.latitude, towed.longitude]);
    expectCurrent(later, sim);
  });

  it("reeferTemperature: the sensors read the value from the control on, every minute; refused without sensors", async () => {
    const { sim, demo } = await start();
    const reefer = sim.vehicles.find((v) => v.reefer?.setPointC === 4)!;
    await advance(sim, 500); // a control between two seconds: its reading is dated to the second
    const controlAt = Math.floor(sim.control.now() / 1000) * 1000;
    expect((await set(sim, reefer.vehicleId, { reeferTemperature: 16 })).status).toBe(200);
    await advance(sim, 5 * MINUTE);
    const answer = await demo.post("/api/carriers/temperatures", {
      vehiclesList: [reefer.vehicleId],
      startDate: "2026-11-03T13:30:00",
      endDate: "2026-11-03T15:00:00",
    });
    expect(answer.status).toBe(200);
    const readings: { date: string; value: number; sensorNumber: number }[] =
      answer.json.payload[0].temperature;
    const before = readings.filter((r) => localMs(r.date) < controlAt);
    const after = readings.filter((r) => localMs(r.date) >= controlAt);
    expect(before.length).toBeGreaterThan(0);
    for (const r of before) expect(Math.abs(r.value - 4)).toBeLessThan(8);
    expect(after.map((r) => r.value)).toEqual(after.map(() => 16));
    // At the control and each minute after it, both sensors: 14:00, 14:01 … 14:05.
    expect(after.length).toBe(6 * reefer.reefer!.temperatureSensors);
    expect(after[0]!.date).toBe("2026-11-03T14:00:00");

    const truck = truckOf(sim);
    const refused = await set(sim, truck.vehicleId, { reeferTemperature: 16 });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toContain("no temperature sensors");
  });

  it("clear drops every override (private mode too) and the day plans show again", async () => {
    const { sim, demo } = await start();
    const truck = truckOf(sim);
    const plain = await one(demo, truck.vehicleId);
    await set(sim, truck.vehicleId, { power: "cut", speedKmh: 80, isPrivate: true });
    await set(sim, truck.vehicleId, { silent: true });
    expect(sim.control.vehicleControls(truck.vehicleId)).toEqual({
      power: "cut",
      motion: "speed",
      speedKmh: 80,
      silent: true,
      isPrivate: true,
    });
    expect((await one(demo, truck.vehicleId)).isPrivate).toBe(true);
    const cleared = await set(sim, truck.vehicleId, { clear: true });
    expect(cleared.json).toEqual({ ok: true, controls: {} });
    const { serverDate: _a, ...again } = await one(demo, truck.vehicleId);
    const { serverDate: _b, ...expected } = plain;
    expect(again).toEqual(expected);
  });

  it("answers 400 to a bad body and 404 to an unknown vehicle; the in-process twin checks the same", async () => {
    const { sim } = await start();
    const id = truckOf(sim).vehicleId;
    for (const body of [
      {},
      { speed: 100 },
      { power: "off" },
      { place: { latitude: 100, longitude: 26 } },
      { place: { lat: 44, lon: 26 } },
      { idle: false },
      { speedKmh: 251 },
      { speedKmh: "90" },
      { silent: 1 },
      { tow: { meters: 0 } },
      { tow: 2000 },
      { reeferTemperature: 41 },
      { clear: false },
      { isPrivate: "yes" },
    ]) {
      const answer = await set(sim, id, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(typeof answer.json.error).toBe("string");
    }
    expect((await set(sim, 999_999, { idle: true })).status).toBe(404);
    expect(sim.control.vehicleControls(id)).toEqual({});

    expect(sim.control.setVehicle(id, { speedKmh: 50 })).toBe(true);
    expect(sim.control.vehicle(id)).toMatchObject({ speed: 50, engineEvent: 1 });
    expect(sim.control.setVehicle(999_999, { idle: true })).toBe(false);
    expect(() => sim.control.setVehicle(id, { reeferTemperature: 12 })).toThrow(RangeError);
    expect(() => sim.control.setVehicle(id, { speedKmh: -1 })).toThrow(RangeError);
    // setVehiclePrivate keeps working beside the new controls; reset drops them all.
    expect(sim.control.setVehiclePrivate(id, true)).toBe(true);
    expect(sim.control.vehicleControls(id)).toMatchObject({ motion: "speed", isPrivate: true });
    sim.control.reset();
    expect(sim.control.vehicleControls(id)).toEqual({});
  });

  it("keeps the configured date style", async () => {
    const { sim, demo } = await start({ dateStyle: "offset" });
    const truck = truckOf(sim);
    await set(sim, truck.vehicleId, { speedKmh: 100, power: "cut" });
    const v = await one(demo, truck.vehicleId);
    expect(v.gpsDate).toMatch(/^2026-11-03T14:00:00\+02:00$/);
    expect(v.engineEventDate).toMatch(/\+02:00$/);
  });
});

describe("day plans by themselves", () => {
  it("a vehicle leaves its depot and comes back on a working day (zone visits), and some vehicle idles", async () => {
    // Tuesday 04:00 in Bucharest, through the day in 2-minute steps until 23:00.
    const { sim, demo } = await start({}, Date.parse("2026-11-03T02:00:00Z"));
    const depotOf = new Map(sim.vehicles.map((v) => [v.vehicleId, v.depot]));
    const track = new Map<number, { home: boolean; away: boolean }[]>();
    const idleRuns = new Map<number, number>();
    let longestIdle = 0;
    for (let step = 0; step < (19 * 60) / 2; step++) {
      for (const v of await listed(demo)) {
        const depot = depotOf.get(v.vehicleId)!;
        const distance = km(v, depot);
        track.set(v.vehicleId, [
          ...(track.get(v.vehicleId) ?? []),
          { home: distance < 0.3, away: distance > 3 },
        ]);
        const idling = v.speed === 0 && v.engineRpm === 650 && v.engineEvent === 1;
        const run = idling ? (idleRuns.get(v.vehicleId) ?? 0) + 1 : 0;
        idleRuns.set(v.vehicleId, run);
        longestIdle = Math.max(longestIdle, run);
      }
      await advance(sim, 2 * MINUTE);
    }
    const roundTrips = [...track.entries()].filter(([, samples]) => {
      const left = samples.findIndex((s) => s.away);
      const firstHome = samples.findIndex((s) => s.home);
      const backHome = samples.findLastIndex((s) => s.home);
      return firstHome >= 0 && left > firstHome && backHome > left;
    });
    const bucharest = roundTrips.filter(([id]) => depotOf.get(id)!.town === "București");
    expect(bucharest.length).toBeGreaterThanOrEqual(3);
    // The depot warm-up idles 8 minutes: at least three 2-minute samples in a row.
    expect(longestIdle).toBeGreaterThanOrEqual(3);
  }, 60_000);
});
