/**
 * The simulator's private-mode control: `POST /__control/vehicles/:vehicleId` forces a vehicle's
 * `isPrivate` in company-vehicles, stops and its refuellings, whatever the day, so a test of private
 * mode does not wait for the company car's Saturday. The clock is a fixed Tuesday.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/index.js";
import { control, manualClock, type Session, signIn } from "./helpers.js";

const clock = manualClock(); // Tue 3 Nov 2026, 14:00 in Bucharest
let sim: RunningSimulator;
let demo: Session;

beforeAll(async () => {
  sim = await startSimulator({ minIntervalMs: 0, now: clock.now, control: true });
  demo = await signIn(sim);
});
afterAll(async () => {
  await sim.close();
});

const week = { startDate: "2026-10-26T00:00:00", endDate: "2026-11-02T23:59:59" };

interface Flagged {
  vehicleId?: number;
  event?: string;
  isPrivate: boolean;
}

async function flags(vehicleId: number) {
  const vehicles: Flagged[] = (await demo.get("/api/carriers/company-vehicles")).json.payload;
  const stops: Flagged[] = (
    await demo.post("/api/carriers/stops", { vehiclesList: [vehicleId], stationaryMargin: 5, ...week })
  ).json.payload[0].results[String(vehicleId)];
  const refills: Flagged[] = (await demo.post("/api/carriers/refills", { carrierId: vehicleId, ...week }))
    .json.payload;
  const done = refills.filter((e) => /^(Fueling|PossibleFuelTheft)/.test(e.event ?? ""));
  const totals = refills.filter((e) => !done.includes(e));
  return {
    vehicle: vehicles.find((v) => v.vehicleId === vehicleId)!.isPrivate,
    others: vehicles.filter((v) => v.vehicleId !== vehicleId).some((v) => v.isPrivate),
    stops: [...new Set(stops.map((s) => s.isPrivate))],
    refuellings: [...new Set(done.map((e) => e.isPrivate))],
    totals: [...new Set(totals.map((e) => e.isPrivate))],
  };
}

describe("POST /__control/vehicles/:vehicleId", () => {
  it("forces private mode on one vehicle's position, stops and refuellings (not the totals), and clears it", async () => {
    const truck = sim.vehicles.find((v) => v.kind === "truck" && !v.privateOnSaturdays)!;
    const before = await flags(truck.vehicleId);
    expect(before).toEqual({
      vehicle: false,
      others: false,
      stops: [false],
      refuellings: [false],
      totals: [false],
    });

    expect((await control(sim, `/__control/vehicles/${truck.vehicleId}`, { isPrivate: true })).status).toBe(
      200,
    );
    expect(await flags(truck.vehicleId)).toEqual({
      vehicle: true,
      others: false,
      stops: [true],
      refuellings: [true],
      totals: [false],
    });

    expect((await control(sim, `/__control/vehicles/${truck.vehicleId}`, { clear: true })).status).toBe(200);
    expect(await flags(truck.vehicleId)).toEqual(before);
  });

  it("answers 404 for an unknown vehicle, 400 without a flag; reset and the in-process twin work too", async () => {
    expect((await control(sim, "/__control/vehicles/999999", { isPrivate: true })).status).toBe(404);
    expect((await control(sim, `/__control/vehicles/${sim.vehicles[0]!.vehicleId}`, {})).status).toBe(400);

    const van = sim.vehicles.find((v) => v.kind === "van")!;
    expect(sim.control.setVehiclePrivate(van.vehicleId, true)).toBe(true);
    expect(sim.control.setVehiclePrivate(999999, true)).toBe(false);
    expect((await flags(van.vehicleId)).vehicle).toBe(true);
    sim.control.reset();
    expect((await flags(van.vehicleId)).vehicle).toBe(false);
  });
});
