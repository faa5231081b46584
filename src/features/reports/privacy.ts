/**
 * Private mode (fleet-api.md `isPrivate`): the one place that decides what of a vehicle in private
 * use, or of a private stop or refuelling, a report may carry. Under EU rules an employer must not
 * track an employee's private trips, so a place never leaves the domain for them: the reports are
 * built without it, and every view and file (message, CSV, GPX) only renders what the report holds.
 *
 * - A vehicle the vehicle list (company-vehicles) marks private shows no place at all while its
 *   private mode lasts: no coordinates, address, map link, nor its speed and heading (they tell the
 *   trip as it happens); its engine state and last GPS time stay (the tracker's health).
 * - A stop or refuelling the service marks private keeps its times, duration and litres, never
 *   its place (address, hot spot, coordinates, location). So do all stops and refuellings of a
 *   vehicle in private mode now: the service may mark only finished private trips, and the stop
 *   it stands in now is where the private trip is.
 * - Route: the way endpoint marks no point private (its Location point has no `isPrivate`), so a
 *   private stretch cannot be cut out of a track. For a vehicle in private mode the whole route
 *   is withheld (no points, hence no GPX or CSV track, no distance or speeds), for any period,
 *   until private mode ends. A vehicle not in private mode now gets its track as sent.
 *
 * Every function here is idempotent, so a report stored before this rule is cleaned again when
 * it is rendered (REPORT_VIEWS).
 */
import type {
  PositionReport,
  RefillItem,
  RefillsReport,
  RouteReport,
  StopItem,
  StopsReport,
  VehicleListReport,
} from "./records.js";
import type { ReportVehicle } from "./types.js";

/** Whether the service marks this (vehicle, stop or refuelling) private; anything but `true` is not. */
export function isPrivate(record: { isPrivate?: boolean | undefined }): boolean {
  return record.isPrivate === true;
}

/** A vehicle of a report in private mode now (the vehicle list said so when the report was built). */
export function isPrivateVehicle(vehicle: ReportVehicle): boolean {
  return vehicle.isPrivate === true;
}

/** A position of a vehicle in private mode: no coordinates, address, map link, speed or heading. */
export function positionWithoutPlace(report: PositionReport): PositionReport {
  if (!report.isPrivate && !isPrivateVehicle(report.vehicle)) return report;
  const {
    latitude: _lat,
    longitude: _lon,
    address: _address,
    mapUrl: _map,
    speedKmh: _speed,
    courseDeg: _course,
    ...rest
  } = report;
  return { ...rest, isPrivate: true, vehicle: { ...report.vehicle, isPrivate: true } };
}

/** The vehicle list with every vehicle in private mode placeless. */
export function vehicleListWithoutPrivatePlaces(report: VehicleListReport): VehicleListReport {
  return { ...report, items: report.items.map(positionWithoutPlace) };
}

/** A stop without its place: times, durations, drivers and fuel stay. */
export function stopWithoutPlace(stop: StopItem): StopItem {
  const { address: _address, hotSpot: _hotSpot, latitude: _lat, longitude: _lon, ...rest } = stop;
  return rest;
}

/** Stops: a private stop, and every stop of a vehicle in private mode, without its place. */
export function stopsWithoutPrivatePlaces(report: StopsReport): StopsReport {
  return {
    ...report,
    vehicles: report.vehicles.map((g) => ({
      ...g,
      stops: g.stops.map((s) => (s.isPrivate || isPrivateVehicle(g.vehicle) ? stopWithoutPlace(s) : s)),
    })),
  };
}

/** A refuelling without its location: time, kind and litres stay. */
export function refillWithoutPlace(item: RefillItem): RefillItem {
  return { ...item, location: "" };
}

/** Refuellings: a private one, and every one of a vehicle in private mode, without its location. */
export function refillsWithoutPrivatePlaces(report: RefillsReport): RefillsReport {
  const vehiclePrivate = isPrivateVehicle(report.vehicle);
  return {
    ...report,
    events: report.events.map((e) => (e.isPrivate || vehiclePrivate ? refillWithoutPlace(e) : e)),
  };
}

/** The route of a vehicle in private mode: withheld whole (see the module's note). */
export function routeWithoutPrivatePlaces(report: RouteReport): RouteReport {
  if (!isPrivateVehicle(report.vehicle)) return report;
  return {
    vehicle: report.vehicle,
    period: report.period,
    points: [],
    distanceKm: 0,
    maxSpeedKmh: 0,
    movingMinutes: 0,
  };
}
