/** The track of one vehicle over a period, with its GPX and CSV files. */
import type { LocationPoint } from "../fleet/schemas.js";
import type { Language } from "../i18n/language.js";
import { periodText } from "../i18n/periodText.js";
import { csvHeader, toCsv } from "./csv.js";
import { haversineKm, isoWithOffset, round } from "./format.js";
import type { ReportPeriod, ReportVehicle } from "./types.js";

export interface RoutePoint {
  atMs: number;
  lat: number;
  lon: number;
  /** km/h as the service sent it; absent when it sent none. */
  speed?: number;
}

export interface RouteReport {
  vehicle: ReportVehicle;
  period: ReportPeriod;
  /** In time order, only this vehicle's points. */
  points: RoutePoint[];
  /** Sum of great-circle distances between consecutive points (haversine). */
  distanceKm: number;
  maxSpeedKmh: number;
  /** Time between consecutive points where the vehicle moved (speed above 3 km/h). */
  movingMinutes: number;
  firstAtMs?: number;
  lastAtMs?: number;
}

/** Above this speed (km/h) a point counts as moving; below it is GPS drift at a standstill. */
export const MOVING_SPEED_KMH = 3;
/**
 * A longer silence between two points is a gap in the data (tracker off, parked), not
 * driving time: trackers report every one or two minutes while moving.
 */
export const MAX_MOVING_GAP_MS = 10 * 60_000;

export function routeReport(
  points: LocationPoint[],
  vehicle: ReportVehicle,
  period: ReportPeriod,
): RouteReport {
  const mine: RoutePoint[] = points
    .filter(
      (p) => p.vehicleId === vehicle.vehicleId && Number.isFinite(p.latitude) && Number.isFinite(p.longitude),
    )
    .map((p) => {
      const point: RoutePoint = { atMs: p.gpsDate.getTime(), lat: p.latitude, lon: p.longitude };
      if (p.speed !== undefined) point.speed = p.speed;
      return point;
    })
    .sort((a, b) => a.atMs - b.atMs);

  let distanceKm = 0;
  let movingMs = 0;
  let maxSpeedKmh = 0;
  mine.forEach((p, i) => {
    maxSpeedKmh = Math.max(maxSpeedKmh, p.speed ?? 0);
    const prev = mine[i - 1];
    if (!prev) return;
    distanceKm += haversineKm(prev.lat, prev.lon, p.lat, p.lon);
    const dt = p.atMs - prev.atMs;
    // An interval is moving when either end is above the threshold (a drive's first and
    // last points are often at 0 km/h) and the points are close enough in time.
    const moving = (prev.speed ?? 0) > MOVING_SPEED_KMH || (p.speed ?? 0) > MOVING_SPEED_KMH;
    if (moving && dt <= MAX_MOVING_GAP_MS) movingMs += dt;
  });

  const report: RouteReport = {
    vehicle,
    period,
    points: mine,
    distanceKm: round(distanceKm, 2),
    maxSpeedKmh: round(maxSpeedKmh, 1),
    movingMinutes: round(movingMs / 60_000, 1),
  };
  const first = mine[0];
  const last = mine[mine.length - 1];
  if (first) report.firstAtMs = first.atMs;
  if (last) report.lastAtMs = last.atMs;
  return report;
}

/** Text for XML content and attributes; characters XML 1.0 forbids are dropped. */
export function xmlEscape(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing characters XML 1.0 forbids
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&apos;")
  );
}

const utcIso = (ms: number): string => new Date(ms).toISOString();

function trackName(report: RouteReport): string {
  const { plate, name } = report.vehicle;
  return [plate, name].filter(Boolean).join(" — ") || `#${report.vehicle.vehicleId}`;
}

/**
 * GPX 1.1: one trk with one trkseg, a trkpt per point with its UTC time. GPX 1.1 has no
 * speed element (1.0 had), so speed is left to the CSV. The description is the period's label
 * in the reader's language.
 */
export function routeGpx(report: RouteReport, language: Language): string {
  const name = xmlEscape(trackName(report));
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<gpx version="1.1" creator="fleetbot" xmlns="http://www.topografix.com/GPX/1/1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">',
    "  <metadata>",
    `    <name>${name}</name>`,
    `    <desc>${xmlEscape(periodText(report.period.label, language))}</desc>`,
    `    <time>${utcIso(report.period.toMs)}</time>`,
    "  </metadata>",
    "  <trk>",
    `    <name>${name}</name>`,
    "    <trkseg>",
    ...report.points.map(
      (p) =>
        `      <trkpt lat="${p.lat.toFixed(6)}" lon="${p.lon.toFixed(6)}"><time>${utcIso(p.atMs)}</time></trkpt>`,
    ),
    "    </trkseg>",
    "  </trk>",
    "</gpx>",
  ];
  return `${lines.join("\n")}\n`;
}

/** One row per point in the reader's language; times ISO 8601 with the offset of the reader's zone. */
export function routeCsv(report: RouteReport, language: Language): string {
  const tz = report.period.timeZone;
  return toCsv(
    csvHeader(["plate", "time", "latitude", "longitude", "speedKmh"], language),
    report.points.map((p) => [report.vehicle.plate, isoWithOffset(p.atMs, tz), p.lat, p.lon, p.speed]),
    language,
  );
}
