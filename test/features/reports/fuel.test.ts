import { describe, expect, it } from "vitest";
import { fuelReport } from "../../../src/features/reports/index.js";
import { fuelCsv } from "../../../src/features/reports/slack/files/reportCsv.js";
import { LPG_CAR, PERIOD, schemas, TRUCK } from "./helpers.js";

const records = schemas.consumptionPayload.parse([
  {
    vehicleName: "Dacia Dokker LPG",
    licensePlate: "CJ 07 XYZ", // spaced differently from the vehicle list
    distance: 300,
    hours: "05:00:00",
    consumptionValue: 18,
    averageConsumption100Km: 6,
    secondarySource: { distance: 200, hours: "03:30:00", consumptionValue: 20, averageConsumption100Km: 10 },
  },
  {
    vehicleName: "Volvo FH 500",
    licensePlate: null, // matched by name
    distance: 500,
    hours: "07:45:30",
    consumptionValue: 150,
    averageConsumption100Km: 30,
    secondarySource: null,
  },
  { vehicleName: "Stranger", licensePlate: "SB-01-AAA", distance: 0, hours: "0:00:00", consumptionValue: 0 },
]);

describe("fuelReport", () => {
  const missing = { vehicleId: 103, plate: "IS-10-DEF", name: "Iveco" };
  const r = fuelReport(records, [TRUCK, LPG_CAR, missing], PERIOD);

  it("applies the document's totals rule to the LPG vehicle and marks its secondary source", () => {
    const lpg = r.rows.find((x) => x.vehicleId === LPG_CAR.vehicleId);
    expect(lpg?.plate).toBe("CJ-07-XYZ");
    expect(lpg?.primary).toEqual({
      distanceKm: 300,
      hoursText: "5:00:00",
      hoursSeconds: 18000,
      litres: 18,
      l100: 6,
    });
    expect(lpg?.secondary).toEqual({
      distanceKm: 200,
      hoursText: "3:30:00",
      hoursSeconds: 12600,
      litres: 20,
      l100: 10,
    });
    // distance, hours, litres summed; l/100 km = mean of the two averages (not 38/500*100)
    expect(lpg?.total).toEqual({
      distanceKm: 500,
      hoursText: "8:30:00",
      hoursSeconds: 30600,
      litres: 38,
      l100: 8,
    });
    expect(r.hasSecondary).toBe(true);
  });

  it("matches by plate, then by name; keeps unmatched records; lists vehicles without data", () => {
    expect(r.rows.map((x) => [x.plate, x.vehicleId])).toEqual([
      ["B-123-ABC", 101],
      ["CJ-07-XYZ", 102],
      ["SB-01-AAA", undefined],
    ]);
    const truck = r.rows.find((x) => x.vehicleId === 101);
    expect(truck?.secondary).toBeUndefined();
    expect(truck?.total).toEqual(truck?.primary);
    expect(r.withoutData).toEqual([missing]);
  });

  it("fleet total by consumptionTotals: sums, distance-weighted l/100 km", () => {
    expect(r.fleet.distanceKm).toBe(1000);
    expect(r.fleet.litres).toBe(188);
    expect(r.fleet.hoursText).toBe("16:15:30");
    expect(r.fleet.l100).toBe(19); // (8×500 + 30×500) / 1000
  });

  it("writes CSV with the three column groups and a fleet line", () => {
    const lines = fuelCsv(r, "en").split("\r\n");
    expect(lines[0]?.split(",")).toHaveLength(14);
    expect(lines[2]).toBe("CJ-07-XYZ,Dacia Dokker LPG,300,5:00:00,18,6,200,3:30:00,20,10,500,8:30:00,38,8");
    expect(lines[4]).toBe("TOTAL,fleet,,,,,,,,,1000,16:15:30,188,19");
  });
});
