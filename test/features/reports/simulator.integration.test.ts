/**
 * The real simulator answered through the real client, fed through every builder, file
 * writer and view. Checks facts that hold whatever the synthetic data is.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fuelReport,
  positionReport,
  type ReportPeriod,
  refillsReport,
  routeReport,
  stopsReport,
  temperatureReport,
  toReportVehicle,
  vehicleListReport,
} from "../../../src/features/reports/index.js";
import {
  fuelCsv,
  refillsCsv,
  routeCsv,
  stopsCsv,
  temperaturesCsv,
} from "../../../src/features/reports/slack/files/reportCsv.js";
import { routeGpx } from "../../../src/features/reports/slack/files/routeGpx.js";
import { temperatureChartPng } from "../../../src/features/reports/slack/files/temperatureChart.js";
import { fuelMessage } from "../../../src/features/reports/slack/views/fuel.js";
import { positionCard, vehicleListMessage } from "../../../src/features/reports/slack/views/positions.js";
import { refillsMessage } from "../../../src/features/reports/slack/views/refills.js";
import { routeMessage } from "../../../src/features/reports/slack/views/route.js";
import { stopsMessage } from "../../../src/features/reports/slack/views/stops.js";
import { temperatureMessage } from "../../../src/features/reports/slack/views/temperatures.js";
import { FleetClient, type FleetSession } from "../../../src/platform/fleet/client.js";
import type { Vehicle } from "../../../src/platform/fleet/schemas.js";
import { directGate } from "../../../src/platform/fleet/seam.js";
import type { SlackMessage } from "../../../src/platform/slack/views/message.js";
import { validateMessagePayload } from "../../../src/sandbox/fakeSlack/limits.js";
import { type RunningSimulator, startSimulator } from "../../../src/simulator/index.js";
import { PNG_SIGNATURE, pngSize, ZONE } from "./helpers.js";

/** Wednesday 4 Nov 2026, 10:00 in Bucharest. */
const FIXED = Date.UTC(2026, 10, 4, 8, 0);
/** Monday 2 Nov 00:00 – Wednesday 4 Nov 00:00, Bucharest. */
const PERIOD: ReportPeriod = {
  fromMs: Date.UTC(2026, 10, 1, 22, 0),
  toMs: Date.UTC(2026, 10, 3, 22, 0),
  label: "2–3 Nov 2026",
  timeZone: ZONE,
};
const OPTIONS = { companyTimeZone: ZONE, timeZone: ZONE, language: "en" } as const;

let sim: RunningSimulator;
let session: FleetSession;
let fleet: Vehicle[];

function valid(message: SlackMessage): void {
  expect(validateMessagePayload(message)).toEqual([]);
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, minIntervalMs: 0, control: true, drift: false, now: () => FIXED });
  const client = new FleetClient({
    baseUrl: sim.url,
    apiVersion: "2.0",
    timeZone: ZONE,
    gate: directGate,
    now: () => FIXED,
  });
  session = client.session({ username: "demo", password: "demo" });
  fleet = await session.vehicles();
});

afterAll(async () => {
  await sim?.close();
});

const range = () => ({ from: new Date(PERIOD.fromMs), to: new Date(PERIOD.toMs) });

describe("reports over the simulator", () => {
  it("vehicle list and position cards", () => {
    const list = vehicleListReport(fleet, undefined, FIXED);
    expect(list.total).toBe(sim.vehicles.length);
    expect(list.items.every((i) => i.mapUrl?.startsWith("https://www.openstreetmap.org/?mlat="))).toBe(true);
    expect(list.items.some((i) => i.engine === "on") || list.items.some((i) => i.engine === "off")).toBe(
      true,
    );
    for (let p = 0; p < 3; p++) valid(vehicleListMessage(list, p, "task-1", OPTIONS));
    const plate = sim.vehicles[0]?.plate ?? "";
    expect(
      vehicleListReport(fleet, plate.replace(/-/g, " ").toLowerCase(), FIXED).items[0]?.vehicle.plate,
    ).toBe(plate);
    for (const v of fleet.slice(0, 5)) valid(positionCard(positionReport(v, FIXED), FIXED, OPTIONS));
  });

  it("route of a truck: distance, GPX and CSV", async () => {
    const truck = sim.vehicles.find((v) => v.kind === "truck");
    const vehicle = toReportVehicle(fleet.find((v) => v.vehicleId === truck?.vehicleId) as Vehicle);
    const points = await session.way({ vehicleIds: [vehicle.vehicleId], ...range() });
    const route = routeReport(points, vehicle, PERIOD);
    expect(route.points.length).toBeGreaterThan(10);
    expect(route.distanceKm).toBeGreaterThan(10);
    expect(route.movingMinutes).toBeGreaterThan(0);
    expect(route.maxSpeedKmh).toBeLessThan(140);
    expect(routeGpx(route, "en").match(/<trkpt /g)).toHaveLength(route.points.length);
    expect(routeCsv(route, "en").split("\r\n")).toHaveLength(route.points.length + 2);
    valid(routeMessage(route, OPTIONS));
  });

  it("stops of ten vehicles", async () => {
    const ten = fleet.slice(0, 10);
    const stops = await session.stops({
      vehicleIds: ten.map((v) => v.vehicleId),
      ...range(),
      stationaryMarginMinutes: 5,
    });
    const report = stopsReport(stops, ten.map(toReportVehicle), PERIOD, 5);
    expect(report.totalStops).toBe(stops.length);
    expect(report.totalStops).toBeGreaterThan(0);
    const all = report.vehicles.flatMap((g) => g.stops);
    // the simulator sends stopDuration in minutes: it agrees with the whole stop's dates
    for (const s of all.filter((x) => x.stopDurationRaw !== undefined)) {
      expect(Math.abs((s.stopDurationRaw ?? 0) - (s.endMs - s.startMs) / 60_000)).toBeLessThanOrEqual(1);
    }
    // durations count only the period: a stop since before it counts from its start
    const periodMinutes = (PERIOD.toMs - PERIOD.fromMs) / 60_000;
    for (const s of all) {
      const inside = (Math.min(s.endMs, PERIOD.toMs) - Math.max(s.startMs, PERIOD.fromMs)) / 60_000;
      expect(s.durationMinutes).toBeCloseTo(inside, 0);
      expect(s.beganBeforePeriod === true).toBe(s.startMs < PERIOD.fromMs);
    }
    for (const g of report.vehicles) expect(g.totalStopMinutes).toBeLessThanOrEqual(periodMinutes);
    expect(all.some((s) => s.drivers.length > 0)).toBe(true);
    expect(stopsCsv(report, "en").split("\r\n")).toHaveLength(report.totalStops + 2);
    for (let p = 0; p < 3; p++) valid(stopsMessage(report, p, "task-2", OPTIONS));
  });

  it("fuel with the LPG vehicle", async () => {
    const lpg = sim.vehicles.find((v) => v.secondaryFuel);
    expect(lpg).toBeDefined();
    const chosen = [
      fleet.find((v) => v.vehicleId === lpg?.vehicleId) as Vehicle,
      ...fleet.filter((v) => v.vehicleId !== lpg?.vehicleId).slice(0, 9),
    ];
    const records = await session.consumption({ vehicleIds: chosen.map((v) => v.vehicleId), ...range() });
    const report = fuelReport(records, chosen.map(toReportVehicle), PERIOD);
    expect(report.rows.every((r) => r.vehicleId !== undefined)).toBe(true);
    const row = report.rows.find((r) => r.vehicleId === lpg?.vehicleId);
    expect(row?.secondary).toBeDefined();
    expect(report.hasSecondary).toBe(true);
    // total by the rule (client's reading: top level = primary source)
    expect(row?.total.distanceKm).toBeCloseTo(
      (row?.primary.distanceKm ?? 0) + (row?.secondary?.distanceKm ?? 0),
      1,
    );
    expect(row?.total.l100).toBeCloseTo(((row?.primary.l100 ?? 0) + (row?.secondary?.l100 ?? 0)) / 2, 1);
    expect(fuelCsv(report, "en")).toContain(lpg?.plate ?? "?");
    valid(fuelMessage(report, 0, "task-3", OPTIONS));
  });

  it("refills of the LPG vehicle, totals per source", async () => {
    const lpg = sim.vehicles.find((v) => v.secondaryFuel);
    const vehicle = toReportVehicle(fleet.find((v) => v.vehicleId === lpg?.vehicleId) as Vehicle);
    const events = await session.refills({ vehicleId: vehicle.vehicleId, ...range() });
    const report = refillsReport(events, vehicle, PERIOD);
    expect(report.totals.primary.start).toBeDefined();
    expect(report.totals.primary.remaining).toBeDefined();
    expect(report.totals.secondary?.consumed).toBeDefined();
    // the simulator's own totals add up: consumption = start + refills − thefts − remaining
    const t = report.totals.primary;
    expect(t.consumed).toBeCloseTo(
      Math.max(0, (t.start ?? 0) + (t.refilled ?? 0) - (t.possibleTheft ?? 0) - (t.remaining ?? 0)),
      0,
    );
    expect(report.events.every((e) => e.atMs !== undefined)).toBe(true);
    expect(refillsCsv(report, "en").startsWith("\uFEFF")).toBe(true);
    valid(refillsMessage(report, OPTIONS));
  });

  it("temperatures of the reefers, with a chart", async () => {
    const reefers = sim.vehicles.filter((v) => v.reefer);
    expect(reefers.length).toBeGreaterThanOrEqual(2);
    const chosen = fleet.filter((v) => reefers.some((r) => r.vehicleId === v.vehicleId));
    const readings = await session.temperatures({ vehicleIds: chosen.map((v) => v.vehicleId), ...range() });
    const report = temperatureReport(readings, chosen.map(toReportVehicle), PERIOD);
    for (const [i, v] of report.vehicles.entries()) {
      const setPoint =
        reefers.find((r) => r.vehicleId === v.vehicle.vehicleId)?.reefer?.setPointC ?? Number.NaN;
      const temps = v.sensors.filter((s) => s.kind === "temperature");
      expect(temps.length).toBeGreaterThan(0);
      expect(v.sensors.some((s) => s.kind === "humidity")).toBe(true);
      for (const s of temps) {
        expect(Math.abs(s.avg - setPoint)).toBeLessThan(2);
        expect(s.min).toBeLessThanOrEqual(s.avg);
        expect(s.max).toBeGreaterThanOrEqual(s.avg);
      }
      for (const series of v.series) expect(series.points.length).toBeLessThanOrEqual(300);
      if (i === 0) {
        const png = await temperatureChartPng(report, v.vehicle.vehicleId, "en");
        expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
        expect(pngSize(png)).toEqual({ width: 900, height: 400 });
      }
    }
    expect(temperaturesCsv(report, "en").split("\r\n").length).toBeGreaterThan(2);
    valid(temperatureMessage(report, 0, "task-4", OPTIONS));
  });
});
