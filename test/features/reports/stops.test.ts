import { describe, expect, it } from "vitest";
import { inferDurationUnit, stopsReport } from "../../../src/features/reports/index.js";
import { stopsCsv } from "../../../src/features/reports/slack/files/reportCsv.js";
import { LPG_CAR, PERIOD, schemas, TRUCK } from "./helpers.js";

const raw = [
  {
    vehicleId: 101,
    startDate: "2026-11-03T10:00:00",
    endDate: "2026-11-03T11:30:00",
    latitude: 45.79,
    longitude: 24.15,
    stationaryEngineOnTime: 600, // seconds, like stopDuration below
    stopDuration: 5400,
    engineOnStops: [],
    address: "=cmd|' /C calc'!A0, Sibiu",
    hotSpot: "Depozit Sibiu",
    isPrivate: false,
    drivers: [
      { firstName: "Ion", lastName: "Popescu" },
      { firstName: "", lastName: "Ștefănescu" },
    ],
    fuelConsumption: 12.5,
  },
  {
    vehicleId: 101,
    startDate: "2026-11-03T07:00:00",
    endDate: "2026-11-03T07:20:00",
    latitude: 44.9,
    longitude: 25.5,
    stopDuration: 20,
    engineOnStops: [{ startDate: "2026-11-03T07:00:00", endDate: "2026-11-03T07:05:00", duration: 5 }],
    drivers: [],
  },
  { vehicleId: 555, startDate: "2026-11-03T09:00:00", endDate: "2026-11-03T09:10:00", drivers: [] },
];
const stops = schemas.stopsPayload.parse([{ results: { "101": raw.slice(0, 2), "555": raw.slice(2) } }]);

describe("stopsReport", () => {
  const r = stopsReport(stops, [TRUCK, LPG_CAR], PERIOD, 5);

  it("groups per listed vehicle (empty list kept) and keeps unlisted vehicles' stops", () => {
    expect(r.vehicles.map((v) => v.vehicle.plate)).toEqual(["B-123-ABC", "CJ-07-XYZ", "#555"]);
    expect(r.vehicles[1]?.stops).toEqual([]);
    expect(r.totalStops).toBe(3);
    expect(r.minMinutes).toBe(5);
  });

  it("derives durations from the dates, keeps the raw value and infers its unit for engine-on time", () => {
    const [early, late] = r.vehicles[0]?.stops ?? [];
    expect(early).toMatchObject({
      startMs: Date.UTC(2026, 10, 3, 5, 0),
      durationMinutes: 20,
      stopDurationRaw: 20,
    });
    expect(early?.engineOnMinutes).toBe(5); // from the dated engineOnStops
    expect(late).toMatchObject({ durationMinutes: 90, stopDurationRaw: 5400, engineOnMinutes: 10 });
    expect(late?.drivers).toEqual(["Ion Popescu", "Ștefănescu"]);
    expect(late).toMatchObject({ hotSpot: "Depozit Sibiu", fuelConsumption: 12.5, isPrivate: false });
    expect(r.vehicles[0]?.totalStopMinutes).toBe(110);
    expect(r.vehicles[2]?.stops[0]?.engineOnMinutes).toBeUndefined();
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
  });

  it("infers the unit of a duration only when it agrees with the dates", () => {
    expect(inferDurationUnit(90, 90)).toBe("minutes");
    expect(inferDurationUnit(5400, 90)).toBe("seconds");
    expect(inferDurationUnit(1.5, 90)).toBe("hours");
    expect(inferDurationUnit(42, 90)).toBeUndefined();
    expect(inferDurationUnit(undefined, 90)).toBeUndefined();
  });

  it("writes CSV with ISO times, drivers joined and formula injection guarded", () => {
    const lines = stopsCsv(r, "en").split("\r\n");
    expect(lines[0]).toBe(
      "\uFEFFplate,vehicle,start,end,duration_min,engine_on_min,address,hotspot,latitude,longitude,drivers,fuel_consumption,private,stop_duration_raw,began_before_period,lasted_to_period_end",
    );
    expect(lines[1]).toBe(
      "B-123-ABC,Volvo FH 500,2026-11-03T07:00:00+02:00,2026-11-03T07:20:00+02:00,20,5,,,44.9,25.5,,,false,20,false,false",
    );
    expect(lines[2]).toContain(
      `"'=cmd|' /C calc'!A0, Sibiu",Depozit Sibiu,45.79,24.15,Ion Popescu; Ștefănescu,12.5,false,5400,false,false`,
    );
    expect(lines).toHaveLength(5); // header, 3 stops, final empty after CRLF
  });
});
