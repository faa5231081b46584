/** The track of one vehicle over a period (its GPX and CSV files: src/features/reports/slack/files). */
import type { LocationPoint } from "../../platform/fleet/schemas.js";
import { haversineKm, round } from "./format.js";
import { routeWithoutPrivatePlaces } from "./privacy.js";
import type { ReportPeriod, ReportVehicle } from "./types.js";

export type { RoutePoint, RouteReport } from "./records.js";

import type { RoutePoint, RouteReport } from "./records.js";

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
  // The way endpoint marks no point private: a vehicle in private mode has no route (privacy.ts).
  return routeWithoutPrivatePlaces(report);
}
