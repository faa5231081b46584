import { describe, expect, it } from "vitest";
import { refillsReport } from "../../../src/features/reports/index.js";
import { refillsCsv } from "../../../src/features/reports/slack/files/reportCsv.js";
import { LPG_CAR, PERIOD, schemas } from "./helpers.js";

const e = (date: string, event: string, estimation: number | null, location = "") => ({
  date,
  event,
  estimation,
  location,
  isPrivate: false,
});

const events = schemas.refillsPayload.parse([
  e("2026-11-03T00:00:00", "FuelStart", 80, "Cluj"),
  e("2026-11-03T06:10:00", "Fueling", 120.5, "OMV Turda"),
  e("2026-11-03T13:40:00", "PossibleFuelTheft", 35, "Parcare A1 km 240"),
  e("2026-11-03T18:00:00", "FuelingSecondarySource", 40, "Lukoil"),
  e("2026-11-03T19:00:00", "PossibleFuelTheftSecondarySource", 8, "Depozit"),
  e("03.11.2026 20:00", "SensorCalibration", null, "Atelier"),
  e("2026-11-04T00:00:00", "TotalRefill", 120.5),
  e("2026-11-04T00:00:00", "TotalPossibleTheft", 35),
  e("2026-11-04T00:00:00", "RemainingFuel", 100.5, "Cluj"),
  e("2026-11-04T00:00:00", "TotalFuelConsumption", 65),
  e("2026-11-03T00:00:00", "FuelStartSecondarySource", 10),
  e("2026-11-04T00:00:00", "TotalRefillSecondarySource", 40),
  e("2026-11-04T00:00:00", "TotalPossibleTheftSecondarySource", 8),
  e("2026-11-04T00:00:00", "RemainingFuelSecondarySource", 12),
  e("2026-11-04T00:00:00", "TotalFuelConsumptionSecondarySource", 30),
]);

describe("refillsReport", () => {
  const r = refillsReport(events, LPG_CAR, PERIOD);

  it("lists refuellings and possible thefts, marking thefts and the secondary source", () => {
    expect(r.events.map((x) => [x.kind, x.theft, x.secondary])).toEqual([
      ["Fueling", false, false],
      ["PossibleFuelTheft", true, false],
      ["FuelingSecondarySource", false, true],
      ["PossibleFuelTheftSecondarySource", true, true],
      ["SensorCalibration", false, false],
    ]);
    expect(r.events[1]).toEqual({
      atMs: Date.UTC(2026, 10, 3, 11, 40),
      dateText: "2026-11-03T13:40:00",
      kind: "PossibleFuelTheft",
      location: "Parcare A1 km 240",
      litres: 35,
      isPrivate: false,
      secondary: false,
      theft: true,
    });
    expect(r.theftCount).toBe(2);
    expect(r.refillCount).toBe(2);
  });

  it("keeps unknown kinds as they are", () => {
    const unknown = r.events[4];
    expect(unknown).toMatchObject({ kind: "SensorCalibration", unknownKind: true, location: "Atelier" });
    expect(unknown?.atMs).toBe(Date.UTC(2026, 10, 3, 18, 0)); // dd.MM.yyyy read as company-local
    expect(unknown?.litres).toBeUndefined();
  });

  it("reads the totals from the service's events per source, not recomputed", () => {
    expect(r.totals.primary).toEqual({
      start: 80,
      refilled: 120.5,
      possibleTheft: 35,
      remaining: 100.5,
      consumed: 65,
    });
    expect(r.totals.secondary).toEqual({
      start: 10,
      refilled: 40,
      possibleTheft: 8,
      remaining: 12,
      consumed: 30,
    });
  });

  it("over concatenated spans: first start, last remaining, summed totals", () => {
    const span2 = schemas.refillsPayload.parse([
      e("2026-11-04T00:00:00", "FuelStart", 100.5),
      e("2026-11-05T00:00:00", "TotalRefill", 50),
      e("2026-11-05T00:00:00", "TotalPossibleTheft", 0),
      e("2026-11-05T00:00:00", "RemainingFuel", 90),
      e("2026-11-05T00:00:00", "TotalFuelConsumption", 60.5),
    ]);
    const two = refillsReport([...events, ...span2], LPG_CAR, PERIOD);
    expect(two.totals.primary).toEqual({
      start: 80,
      refilled: 170.5,
      possibleTheft: 35,
      remaining: 90,
      consumed: 125.5,
    });
  });

  it("a vehicle without a secondary source has no secondary totals", () => {
    const plain = refillsReport(
      events.filter((x) => !x.event.endsWith("SecondarySource")),
      LPG_CAR,
      PERIOD,
    );
    expect(plain.totals.secondary).toBeUndefined();
  });

  it("writes CSV with events then totals", () => {
    const lines = refillsCsv(r, "en").split("\r\n");
    expect(lines[0]).toBe("\uFEFFplate,time,event,source,possible_theft,litres,location,private");
    expect(lines[2]).toBe(
      "CJ-07-XYZ,2026-11-03T13:40:00+02:00,PossibleFuelTheft,primary,true,35,Parcare A1 km 240,false",
    );
    expect(lines).toContain("CJ-07-XYZ,,TotalPossibleTheft,secondary,false,8,,false");
  });
});
