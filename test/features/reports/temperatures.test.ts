import { describe, expect, it } from "vitest";
import {
  downsampleMinMax,
  MAX_SERIES_POINTS,
  temperatureReport,
} from "../../../src/features/reports/index.js";
import { temperaturesCsv } from "../../../src/features/reports/slack/files/reportCsv.js";
import {
  CHART_HEIGHT,
  CHART_WIDTH,
  temperatureChartPng,
} from "../../../src/features/reports/slack/files/temperatureChart.js";
import type { SensorReadings } from "../../../src/platform/fleet/schemas.js";
import { PERIOD, PNG_SIGNATURE, pngSize, schemas, TRUCK } from "./helpers.js";

const REEFER = { vehicleId: 201, plate: "B-200-FRG", name: "Frigorific <&> ăîșț" };

function readings(count: number): SensorReadings {
  const temperature = [];
  const humidity = [];
  for (let i = 0; i < count; i++) {
    const minute = i * 10;
    const date = `2026-11-03T${String(Math.floor(minute / 60) % 24).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}:00`;
    const day = Math.floor(minute / 1440);
    const d = date.replace("2026-11-03", `2026-11-${String(3 + day).padStart(2, "0")}`);
    const excursion = i >= 30 && i < 34 ? 5 : 0;
    temperature.push({ vehicleId: 201, date: d, value: 4 + (i % 3) * 0.5 + excursion, sensorNumber: 1 });
    temperature.push({ vehicleId: 201, date: d, value: 3, sensorNumber: 2 });
    humidity.push({ vehicleId: 201, date: d, value: 80 + (i % 5), sensorNumber: 1 });
  }
  return schemas.temperaturesPayload.parse([{ temperature, humidity }]);
}

describe("temperatureReport", () => {
  const r = temperatureReport(readings(144), [REEFER, TRUCK], PERIOD, {
    ranges: { 201: { min: 2, max: 8 } },
  });

  it("computes min/avg/max/count per temperature and humidity sensor", () => {
    const v = r.vehicles[0];
    expect(v?.sensors.map((s) => [s.kind, s.sensorNumber])).toEqual([
      ["temperature", 1],
      ["temperature", 2],
      ["humidity", 1],
    ]);
    expect(v?.sensors[0]).toMatchObject({
      min: 4,
      max: 10,
      count: 144,
      excursions: 1,
      range: { min: 2, max: 8 },
    });
    expect(v?.sensors[0]?.avg).toBeCloseTo((4 * 144 + 0.5 * 48 + 1 * 48 + 20 - 0) / 144, 1);
    expect(v?.sensors[1]).toMatchObject({ min: 3, avg: 3, max: 3, excursions: 0 });
    expect(v?.sensors[2]).toMatchObject({ kind: "humidity", min: 80, max: 84 });
    expect(v?.sensors[2]?.excursions).toBeUndefined();
    expect(v?.sensors[0]?.firstAtMs).toBe(Date.UTC(2026, 10, 2, 22, 0));
    expect(r.vehicles[1]).toEqual({ vehicle: TRUCK, sensors: [], series: [] });
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
  });

  it("downsamples long series to ≤ 300 points keeping the extremes", () => {
    const long = temperatureReport(readings(4000), [REEFER], PERIOD);
    const series = long.vehicles[0]?.series[0];
    expect(series?.points.length).toBeLessThanOrEqual(MAX_SERIES_POINTS);
    const values = series?.points.map(([, v]) => v) ?? [];
    expect(Math.max(...values)).toBe(10); // the 40-minute excursion survives
    expect(Math.min(...values)).toBe(4);
    const times = series?.points.map(([t]) => t) ?? [];
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(long.vehicles[0]?.sensors[0]?.count).toBe(4000);
    // a short series is kept whole
    expect(
      downsampleMinMax([
        [1, 2],
        [2, 3],
      ]),
    ).toEqual([
      [1, 2],
      [2, 3],
    ]);
  });

  it("writes the statistics CSV", () => {
    const lines = temperaturesCsv(r, "en").split("\r\n");
    expect(lines[0]).toBe("\uFEFFplate,vehicle,kind,sensor,min,avg,max,readings,first,last,excursions");
    expect(lines[2]).toBe(
      "B-200-FRG,Frigorific <&> ăîșț,temperature,2,3,3,3,144,2026-11-03T00:00:00+02:00,2026-11-03T23:50:00+02:00,0",
    );
  });
});

describe("temperatureChartPng", () => {
  const r = temperatureReport(readings(600), [REEFER, TRUCK], PERIOD);

  it("renders a PNG of the chart size, the same bytes every time", async () => {
    const a = await temperatureChartPng(r, 201, "en");
    const b = await temperatureChartPng(r, 201, "en");
    expect([...a.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    expect(pngSize(a)).toEqual({ width: CHART_WIDTH, height: CHART_HEIGHT });
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  }, 60_000); // a chart forks a process: slow on a loaded machine

  it("renders a vehicle without readings, and refuses one not in the report", async () => {
    const empty = await temperatureChartPng(r, TRUCK.vehicleId, "en");
    expect(pngSize(empty)).toEqual({ width: CHART_WIDTH, height: CHART_HEIGHT });
    await expect(temperatureChartPng(r, 999, "en")).rejects.toThrow(/999/);
  }, 60_000);
});
