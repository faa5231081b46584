import { describe, expect, it } from "vitest";
import { routeReport } from "../../../src/features/reports/index.js";
import { routeCsv } from "../../../src/features/reports/slack/files/reportCsv.js";
import { routeGpx } from "../../../src/features/reports/slack/files/routeGpx.js";
import type { LocationPoint } from "../../../src/platform/fleet/schemas.js";
import { PERIOD, schemas, TRUCK } from "./helpers.js";

const points: LocationPoint[] = schemas.wayPayload.parse([
  { vehicleId: 101, gpsDate: "2026-11-03T08:00:00", latitude: 44.0, longitude: 26.0, speed: 0, course: 0 },
  { vehicleId: 101, gpsDate: "2026-11-03T08:02:00", latitude: 44.01, longitude: 26.0, speed: 60, course: 0 },
  { vehicleId: 999, gpsDate: "2026-11-03T08:03:00", latitude: 47.0, longitude: 23.0, speed: 90, course: 0 },
  {
    vehicleId: 101,
    gpsDate: "2026-11-03T08:04:00",
    latitude: 44.02,
    longitude: 26.0,
    speed: 72.5,
    course: 0,
  },
  { vehicleId: 101, gpsDate: "2026-11-03T08:05:00", latitude: 44.02, longitude: 26.0, speed: 0, course: 0 },
  // parked three hours, no points: the gap is not moving time
  { vehicleId: 101, gpsDate: "2026-11-03T11:05:00", latitude: 44.02, longitude: 26.0, speed: 1, course: 0 },
]);

describe("routeReport", () => {
  const r = routeReport(points, { ...TRUCK, name: `Volvo <"&'> Ștefan` }, PERIOD);

  it("keeps this vehicle's points in time order as epoch ms", () => {
    expect(r.points).toHaveLength(5);
    expect(r.points[0]).toEqual({ atMs: Date.UTC(2026, 10, 3, 6, 0), lat: 44, lon: 26, speed: 0 });
    expect(r.firstAtMs).toBe(Date.UTC(2026, 10, 3, 6, 0));
    expect(r.lastAtMs).toBe(Date.UTC(2026, 10, 3, 9, 5));
  });

  it("measures haversine distance, max speed and moving time (speed > 3 km/h, no long gaps)", () => {
    // 0.02° of latitude ≈ 2.224 km
    expect(r.distanceKm).toBeCloseTo(2.22, 2);
    expect(r.maxSpeedKmh).toBe(72.5);
    expect(r.movingMinutes).toBe(5); // 08:00–08:05; the 3-hour gap does not count
  });

  it("is empty but valid without points", () => {
    const empty = routeReport([], TRUCK, PERIOD);
    expect(empty).toMatchObject({ points: [], distanceKm: 0, maxSpeedKmh: 0, movingMinutes: 0 });
    expect(empty.firstAtMs).toBeUndefined();
    expect(routeGpx(empty, "en")).toContain("<trkseg>\n    </trkseg>");
  });

  it("writes GPX 1.1 with escaped names and UTC times", () => {
    const gpx = routeGpx(r, "en");
    expect(
      gpx.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="fleetbot"'),
    ).toBe(true);
    expect(gpx).toContain('xmlns="http://www.topografix.com/GPX/1/1"');
    expect(gpx).toContain("<name>B-123-ABC — Volvo &lt;&quot;&amp;&apos;&gt; Ștefan</name>");
    expect(gpx).toContain(
      '      <trkpt lat="44.000000" lon="26.000000"><time>2026-11-03T06:00:00.000Z</time></trkpt>',
    );
    // structure: one trk, one trkseg, as many trkpt as points, every element closed
    expect(gpx.match(/<trk>/g)).toHaveLength(1);
    expect(gpx.match(/<trkseg>/g)).toHaveLength(1);
    expect(gpx.match(/<trkpt /g)).toHaveLength(5);
    expect(gpx.match(/<\/trkpt>/g)).toHaveLength(5);
    const tags = [...gpx.matchAll(/<(\/?)([a-z]+)[^>]*?(\/?)>/g)].filter((m) => m[2] !== "xml");
    const stack: string[] = [];
    for (const [, closing, name, selfClosing] of tags) {
      if (selfClosing) continue;
      if (closing) expect(stack.pop()).toBe(name);
      else stack.push(name as string);
    }
    expect(stack).toEqual([]);
    // no raw & < > inside text content
    expect(gpx.replace(/<[^>]*>/g, "")).not.toMatch(/[<>]|&(?!(amp|lt|gt|quot|apos);)/);
  });

  it("writes CSV with times in the reader's zone and offset", () => {
    const lines = routeCsv(r, "en").split("\r\n");
    expect(lines[0]).toBe("\uFEFFplate,time,latitude,longitude,speed_kmh");
    expect(lines[1]).toBe("B-123-ABC,2026-11-03T08:00:00+02:00,44,26,0");
    expect(lines[3]).toBe("B-123-ABC,2026-11-03T08:04:00+02:00,44.02,26,72.5");
  });
});
