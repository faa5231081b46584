import { describe, expect, it } from "vitest";
import {
  consumptionTotals,
  mergeConsumptionSpans,
  vehicleConsumptionTotals,
} from "../../../src/platform/fleet/consumption.js";
import { normalizeKeys } from "../../../src/platform/fleet/normalize.js";
import { type ConsumptionRecord, fleetSchemas } from "../../../src/platform/fleet/schemas.js";

const records = (raw: unknown[]): ConsumptionRecord[] =>
  fleetSchemas("Europe/Bucharest").consumptionPayload.parse(normalizeKeys(raw));

const lpgCar = {
  vehicleName: "LPG car",
  licensePlate: "B-01-LPG",
  distance: 100,
  hours: "02:00:00",
  consumptionValue: 8,
  averageConsumption100Km: 8,
  secondarySource: { distance: 200, hours: "03:30:00", consumptionValue: 20, averageConsumption100Km: 10 },
};
const dieselTruck = {
  vehicleName: "Truck",
  licensePlate: "B-02-TIR",
  distance: 500,
  hours: "7:00:00",
  consumptionValue: 150,
  averageConsumption100Km: 30,
  secondarySource: null,
};

describe("totals rule (fleet-api.md)", () => {
  it("with secondary data: sums distance, time and litres, averages the two averages", () => {
    const [car] = records([lpgCar]);
    expect(vehicleConsumptionTotals(car!)).toEqual({
      distance: 300,
      hoursSeconds: 5.5 * 3600,
      hours: "5:30:00",
      consumptionValue: 28,
      averageConsumption100Km: 9,
    });
  });

  it("without secondary data: the primary values", () => {
    const [truck] = records([dieselTruck]);
    expect(vehicleConsumptionTotals(truck!)).toMatchObject({
      distance: 500,
      consumptionValue: 150,
      averageConsumption100Km: 30,
    });
  });

  it("over a fleet: sums, average weighted by each vehicle's total distance", () => {
    const totals = consumptionTotals(records([lpgCar, dieselTruck]));
    expect(totals.distance).toBe(800);
    expect(totals.consumptionValue).toBe(178);
    expect(totals.hours).toBe("12:30:00");
    expect(totals.averageConsumption100Km).toBeCloseTo((9 * 300 + 30 * 500) / 800, 10);
    expect(consumptionTotals(records([lpgCar])).averageConsumption100Km).toBe(9);
    expect(consumptionTotals([]).averageConsumption100Km).toBe(0);
  });
});

describe("mergeConsumptionSpans", () => {
  it("adds spans per vehicle and recomputes averages as litres per km", () => {
    const merged = mergeConsumptionSpans(
      records([
        lpgCar,
        dieselTruck,
        { ...lpgCar, distance: 300, consumptionValue: 30, hours: "1:00:00", secondarySource: {} },
        { ...dieselTruck, distance: 0, consumptionValue: 2, hours: "0:10:00" },
      ]),
    );
    expect(merged).toHaveLength(2);
    expect(merged[0]).toMatchObject({
      licensePlate: "B-01-LPG",
      distance: 400,
      consumptionValue: 38,
      averageConsumption100Km: 9.5,
      hours: "3:00:00",
    });
    expect(merged[0]?.secondarySource).toMatchObject({ distance: 200, averageConsumption100Km: 10 });
    expect(merged[1]).toMatchObject({ distance: 500, consumptionValue: 152, hoursSeconds: 7 * 3600 + 600 });
    expect(merged[1]?.averageConsumption100Km).toBeCloseTo(30.4, 10);
  });
});
