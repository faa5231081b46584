/**
 * Issue 14, point 2: stop durations and totals count only the report period. A vehicle
 * parked since before the period never totals more than the period, in the report and the CSV.
 */
import { describe, expect, it } from "vitest";
import { stopItem, stopsReport } from "../../../src/features/reports/index.js";
import { stopsCsv } from "../../../src/features/reports/slack/files/reportCsv.js";
import { PERIOD, schemas, TRUCK } from "./helpers.js";

// PERIOD is 3 Nov 2026 00:00 – 4 Nov 2026 00:00 in Bucharest; the service sends company local time.
const raw = [
  {
    // Parked since the evening of 1 Nov, left at 08:00 on 3 Nov: 8 h of it are in the period.
    vehicleId: 101,
    startDate: "2026-11-01T18:00:00",
    endDate: "2026-11-03T08:00:00",
    stopDuration: 2280, // minutes, the whole stop
    engineOnStops: [
      { startDate: "2026-11-02T20:00:00", endDate: "2026-11-02T21:00:00", duration: 60 },
      { startDate: "2026-11-02T23:45:00", endDate: "2026-11-03T00:30:00", duration: 45 },
      { startDate: "2026-11-03T07:00:00", endDate: "2026-11-03T07:30:00", duration: 30 },
    ],
    drivers: [],
  },
  { vehicleId: 101, startDate: "2026-11-03T12:00:00", endDate: "2026-11-03T12:45:00", drivers: [] },
  {
    // Parked at 20:00 and still there at midnight: 4 h count.
    vehicleId: 101,
    startDate: "2026-11-03T20:00:00",
    endDate: "2026-11-04T06:00:00",
    stopDuration: 600,
    stationaryEngineOnTime: 500, // minutes, undated: at most the 240 minutes in the period
    drivers: [],
  },
  // Wholly before the period (a service answering loosely): no time in it, left out.
  { vehicleId: 101, startDate: "2026-11-02T10:00:00", endDate: "2026-11-02T11:00:00", drivers: [] },
  // Only touching the period's start: no time in it either.
  { vehicleId: 101, startDate: "2026-11-02T22:00:00", endDate: "2026-11-03T00:00:00", drivers: [] },
  // A vehicle parked through the whole period and beyond.
  { vehicleId: 102, startDate: "2026-10-29T09:00:00", endDate: "2026-11-06T09:00:00", drivers: [] },
];
const stops = schemas.stopsPayload.parse([{ results: { "101": raw.slice(0, 5), "102": raw.slice(5) } }]);
const PERIOD_MINUTES = (PERIOD.toMs - PERIOD.fromMs) / 60_000;

describe("stops clipped to the period", () => {
  const r = stopsReport(stops, [TRUCK], PERIOD, 5);
  const truck = r.vehicles[0]!;

  it("counts a stop that began before the period from the period's start, and says so", () => {
    const first = truck.stops[0]!;
    expect(first.startMs).toBe(Date.UTC(2026, 10, 1, 16, 0)); // the real start is kept
    expect(first.durationMinutes).toBe(480);
    expect(first.beganBeforePeriod).toBe(true);
    expect(first.lastedToPeriodEnd).toBeUndefined();
    // Dated engine-on time counts only inside the period: 30 of the 45 min around midnight, and 30.
    expect(first.engineOnMinutes).toBe(60);
    expect(first.stopDurationRaw).toBe(2280);
  });

  it("counts a stop still going at the period's end until that end, and says so", () => {
    const last = truck.stops[2]!;
    expect(last.durationMinutes).toBe(240);
    expect(last.lastedToPeriodEnd).toBe(true);
    expect(last.beganBeforePeriod).toBeUndefined();
    expect(last.engineOnMinutes).toBe(240);
  });

  it("leaves a stop inside the period as it is, and leaves out stops with no time in it", () => {
    expect(truck.stops.map((s) => s.durationMinutes)).toEqual([480, 45, 240]);
    expect(truck.stops[1]).not.toHaveProperty("beganBeforePeriod");
    expect(truck.stops[1]).not.toHaveProperty("lastedToPeriodEnd");
    expect(r.totalStops).toBe(4);
  });

  it("totals only time in the period: never more than the period", () => {
    expect(truck.totalStopMinutes).toBe(480 + 45 + 240);
    const parked = r.vehicles.find((g) => g.vehicle.vehicleId === 102)!;
    expect(parked.stops[0]).toMatchObject({
      durationMinutes: PERIOD_MINUTES,
      beganBeforePeriod: true,
      lastedToPeriodEnd: true,
    });
    for (const g of r.vehicles) expect(g.totalStopMinutes).toBeLessThanOrEqual(PERIOD_MINUTES);
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
  });

  it("without a period, a stop counts in full (stopItem on its own)", () => {
    const whole = stopItem(stops[0]!);
    expect(whole.durationMinutes).toBe(2280);
    expect(whole.beganBeforePeriod).toBeUndefined();
    expect(whole.engineOnMinutes).toBe(135);
  });

  it("writes the clipped durations and which edge was cut in the CSV", () => {
    const lines = stopsCsv(r, "en").split("\r\n");
    const header = lines[0]!.replace("\uFEFF", "").split(",");
    const column = (name: string) => header.indexOf(name);
    const rows = lines.slice(1, -1).map((line) => line.split(","));
    expect(rows.map((row) => row[column("duration_min")])).toEqual([
      "480",
      "45",
      "240",
      String(PERIOD_MINUTES),
    ]);
    expect(rows.map((row) => row[column("began_before_period")])).toEqual(["true", "false", "false", "true"]);
    expect(rows.map((row) => row[column("lasted_to_period_end")])).toEqual([
      "false",
      "false",
      "true",
      "true",
    ]);
    // The real start and end stay, so the reader sees how long the vehicle stood in all.
    expect(rows[0]![column("start")]).toBe("2026-11-01T18:00:00+02:00");
  });
});
