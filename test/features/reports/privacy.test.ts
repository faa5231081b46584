/**
 * Private mode (fleet-api.md `isPrivate`) in the domain: a vehicle in private use, and a stop or
 * refuelling the service marks private, leave the report builders without any place, so no view or
 * file (message, CSV, GPX) can show one. Times, durations and litres stay.
 */
import { describe, expect, it } from "vitest";
import { REPORT_CATALOGUE } from "../../../src/features/reports/catalogue.js";
import {
  positionReport,
  refillsReport,
  routeReport,
  stopsReport,
  vehicleListReport,
} from "../../../src/features/reports/index.js";
import { refillsCsv, routeCsv, stopsCsv } from "../../../src/features/reports/slack/files/reportCsv.js";
import { routeGpx } from "../../../src/features/reports/slack/files/routeGpx.js";
import type { FleetSession } from "../../../src/platform/fleet/client.js";
import type { Vehicle } from "../../../src/platform/fleet/schemas.js";
import { PERIOD, schemas, TRUCK } from "./helpers.js";

const NOW = Date.UTC(2026, 10, 3, 12, 0);
const ADDRESS = "Strada Privată 7, Sinaia";
const PRIVATE_TRUCK = { ...TRUCK, isPrivate: true as const };

function vehicle(overrides: Record<string, unknown> = {}): Vehicle {
  return schemas.vehicle.parse({
    vehicleId: 101,
    vehicleName: "Volvo FH",
    vehicleRegistrationNumber: "B-123-ABC",
    latitude: 45.3507,
    longitude: 25.5512,
    gpsDate: "2026-11-03T13:45:00",
    address: ADDRESS,
    speed: 88.4,
    course: 12,
    engineEvent: 1,
    isPrivate: true,
    ...overrides,
  });
}

/** Every place-like value a report of the test data could carry, as it would be written. */
const PLACES = [ADDRESS, "Sinaia", "45.35", "25.55", "openstreetmap", "Hotel Sinaia", "OMV Sinaia"];
const placesIn = (text: string) => PLACES.filter((p) => text.includes(p));

describe("where and vehicles: a vehicle in private mode", () => {
  it("has no coordinates, address, map link, speed or heading; engine and GPS time stay", () => {
    const r = positionReport(vehicle(), NOW);
    expect(r).toEqual({
      vehicle: { vehicleId: 101, plate: "B-123-ABC", name: "Volvo FH", isPrivate: true },
      engine: "on",
      gpsAtMs: Date.UTC(2026, 10, 3, 11, 45),
      ageMinutes: 15,
      isPrivate: true,
    });
    expect(placesIn(JSON.stringify(r))).toEqual([]);
    // The same vehicle out of private mode keeps its place.
    const work = positionReport(vehicle({ isPrivate: false }), NOW);
    expect(work.address).toBe(ADDRESS);
    expect(work.mapUrl).toContain("openstreetmap.org");
    expect(work.vehicle.isPrivate).toBeUndefined();
  });

  it("the vehicle list neither shows nor matches a private vehicle's address", () => {
    const fleet = [
      vehicle(),
      vehicle({ vehicleId: 102, vehicleRegistrationNumber: "B-200-XYZ", isPrivate: false }),
    ];
    const all = vehicleListReport(fleet, undefined, NOW);
    expect(all.items.map((i) => [i.vehicle.plate, i.isPrivate, i.address])).toEqual([
      ["B-123-ABC", true, undefined],
      ["B-200-XYZ", false, ADDRESS],
    ]);
    // A filter on the address would tell where the private car is: it finds only the other.
    const bySinaia = vehicleListReport(fleet, "Sinaia", NOW);
    expect(bySinaia.items.map((i) => i.vehicle.plate)).toEqual(["B-200-XYZ"]);
  });
});

const stop = (start: string, end: string, isPrivate: boolean, address: string) => ({
  vehicleId: 101,
  startDate: start,
  endDate: end,
  latitude: 45.3507,
  longitude: 25.5512,
  stopDuration: 60,
  engineOnStops: [],
  address,
  hotSpot: "Hotel Sinaia",
  isPrivate,
  drivers: [{ firstName: "Ion", lastName: "Popescu" }],
  fuelConsumption: 4.5,
});

describe("stops", () => {
  const raw = [
    stop("2026-11-03T08:00:00", "2026-11-03T09:00:00", false, "Depozit Ploiești"),
    stop("2026-11-03T18:00:00", "2026-11-03T19:00:00", true, ADDRESS),
  ];
  const records = schemas.stopsPayload.parse([{ results: { "101": raw } }]);

  it("a private stop keeps its times, duration, driver and fuel, and loses its place", () => {
    const r = stopsReport(records, [TRUCK], PERIOD, 5);
    const [work, own] = r.vehicles[0]!.stops;
    expect(work).toMatchObject({ address: "Depozit Ploiești", latitude: 45.3507, hotSpot: "Hotel Sinaia" });
    expect(own).toEqual({
      startMs: Date.UTC(2026, 10, 3, 16, 0),
      endMs: Date.UTC(2026, 10, 3, 17, 0),
      durationMinutes: 60,
      stopDurationRaw: 60,
      drivers: ["Ion Popescu"],
      fuelConsumption: 4.5,
      isPrivate: true,
    });
    expect(placesIn(stopsCsv(r, "en").split("\n")[2]!)).toEqual([]);
  });

  it("every stop of a vehicle in private mode loses its place, in the report and its CSV", () => {
    const r = stopsReport(records, [PRIVATE_TRUCK], PERIOD, 5);
    expect(r.vehicles[0]!.vehicle.isPrivate).toBe(true);
    expect(r.vehicles[0]!.stops.map((s) => [s.durationMinutes, s.address, s.latitude, s.hotSpot])).toEqual([
      [60, undefined, undefined, undefined],
      [60, undefined, undefined, undefined],
    ]);
    expect(r.totalStops).toBe(2);
    const csv = stopsCsv(r, "ro");
    expect(placesIn(csv)).toEqual([]);
    expect(csv).not.toContain("Ploiești");
  });
});

describe("refills", () => {
  const ev = (date: string, event: string, estimation: number, location: string, isPrivate: boolean) => ({
    date,
    event,
    estimation,
    location,
    isPrivate,
  });
  const events = schemas.refillsPayload.parse([
    ev("2026-11-03T00:00:00", "FuelStart", 80, "Depozit Ploiești", false),
    ev("2026-11-03T07:10:00", "Fueling", 120.5, "Rompetrol Ploiești", false),
    ev("2026-11-03T18:30:00", "Fueling", 40, "OMV Sinaia", true),
    ev("2026-11-04T00:00:00", "TotalRefill", 160.5, "", false),
  ]);

  it("a private refuelling keeps its time and litres and loses its location", () => {
    const r = refillsReport(events, TRUCK, PERIOD);
    expect(r.events.map((e) => [e.dateText, e.litres, e.location, e.isPrivate])).toEqual([
      ["2026-11-03T07:10:00", 120.5, "Rompetrol Ploiești", false],
      ["2026-11-03T18:30:00", 40, "", true],
    ]);
    expect(r.refillCount).toBe(2);
    expect(placesIn(refillsCsv(r, "en"))).toEqual([]);
  });

  it("every refuelling of a vehicle in private mode loses its location", () => {
    const r = refillsReport(events, PRIVATE_TRUCK, PERIOD);
    expect(r.events.map((e) => e.location)).toEqual(["", ""]);
    expect(r.events.map((e) => e.litres)).toEqual([120.5, 40]);
    const csv = refillsCsv(r, "ro");
    expect(csv).not.toContain("Rompetrol");
    expect(placesIn(csv)).toEqual([]);
  });
});

describe("route", () => {
  const points = schemas.wayPayload.parse([
    { vehicleId: 101, gpsDate: "2026-11-03T18:00:00", latitude: 45.35, longitude: 25.55, speed: 60 },
    { vehicleId: 101, gpsDate: "2026-11-03T18:02:00", latitude: 45.36, longitude: 25.55, speed: 70 },
  ]);

  it("a vehicle in private mode has no route: no points, no distance, an empty GPX track and CSV", () => {
    const r = routeReport(points, PRIVATE_TRUCK, PERIOD);
    expect(r).toEqual({
      vehicle: PRIVATE_TRUCK,
      period: PERIOD,
      points: [],
      distanceKm: 0,
      maxSpeedKmh: 0,
      movingMinutes: 0,
    });
    expect(routeGpx(r, "en")).not.toContain("<trkpt");
    expect(placesIn(routeCsv(r, "en"))).toEqual([]);
    // Out of private mode the track is kept.
    expect(routeReport(points, TRUCK, PERIOD).points).toHaveLength(2);
  });

  it("the route of a vehicle in private mode does not even fetch the way", async () => {
    let wayCalls = 0;
    const session = {
      wayAll: async () => {
        wayCalls += 1;
        return points;
      },
    } as unknown as FleetSession;
    const build = (v: Vehicle) =>
      REPORT_CATALOGUE.route.build({
        session,
        call: { priority: "report" },
        vehicles: [v],
        period: PERIOD,
        filter: undefined,
        minMinutes: 5,
        nowMs: NOW,
        onProgress: () => {},
      });
    const withheld = await build(vehicle());
    expect(withheld.points).toEqual([]);
    expect(withheld.vehicle.isPrivate).toBe(true);
    expect(wayCalls).toBe(0);
    expect((await build(vehicle({ isPrivate: false }))).points).toHaveLength(2);
    expect(wayCalls).toBe(1);
  });
});
