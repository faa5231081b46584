/**
 * The records the report builders return (positions, stops, refuellings, routes): plain data, JSON-safe,
 * kept apart from their builders so that privacy.ts, which cleans each of them, imports no builder.
 */
import type { ReportPeriod, ReportVehicle } from "./types.js";

export const ENGINE_STATES = ["on", "off", "unknown"] as const;

export type EngineState = (typeof ENGINE_STATES)[number];

export interface PositionReport {
  vehicle: ReportVehicle;
  /** Absent when the service sent no position (a tracker that never reported). */
  latitude?: number;
  longitude?: number;
  address?: string;
  speedKmh?: number;
  courseDeg?: number;
  engine: EngineState;
  /** Last GPS update (the service's gpsDate, company-local, read as an instant). */
  gpsAtMs?: number;
  /** Whole minutes from gpsAtMs to the time the report was built (never negative). */
  ageMinutes?: number;
  /**
   * The vehicle is in private mode (company-vehicles `isPrivate`): then the report has no
   * coordinates, address, map link, speed or heading (src/features/reports/privacy.ts).
   */
  isPrivate: boolean;
  /** OpenStreetMap link to the position; absent without a position. */
  mapUrl?: string;
  vin?: string;
  /** Manufacturer and model, e.g. "Volvo FH 500". */
  model?: string;
}

export interface VehicleListReport {
  /** The filter as the reader typed it (trimmed), absent when none. */
  filter?: string;
  /** Vehicles matching the filter (= items.length). */
  total: number;
  /** Vehicles in the fleet before filtering. */
  fleetTotal: number;
  /** When the list was built (epoch ms): ages in items are relative to it. */
  atMs: number;
  items: PositionReport[];
}

export interface RefillItem {
  /** The instant, when fleetbot could read the date (its format is not documented). */
  atMs?: number;
  /** The date exactly as the service wrote it. */
  dateText: string;
  /** The event kind as sent (Fueling, PossibleFuelTheft, …SecondarySource, or a new kind). */
  kind: string;
  /** Where, as sent; "" for a private event or a vehicle in private mode (privacy.ts). */
  location: string;
  /** The service's estimation (litres in practice; the unit is not documented). */
  litres?: number;
  isPrivate: boolean;
  secondary: boolean;
  theft: boolean;
  /** A kind the document does not list, kept and shown as-is. */
  unknownKind?: boolean;
}

/** Read from the service's own FuelStart / Total* / RemainingFuel events, never recomputed. */
export interface RefillTotals {
  start?: number;
  refilled?: number;
  possibleTheft?: number;
  remaining?: number;
  consumed?: number;
}

export interface RefillsReport {
  vehicle: ReportVehicle;
  period: ReportPeriod;
  /** Refuellings, possible thefts and unknown kinds, in the service's order. */
  events: RefillItem[];
  totals: { primary: RefillTotals; secondary?: RefillTotals };
  refillCount: number;
  theftCount: number;
}

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

export interface StopItem {
  /** When the stop began, as the service sent it (possibly before the report period). */
  startMs: number;
  /** When the stop ended, as the service sent it (possibly after the report period). */
  endMs: number;
  /**
   * Minutes of the stop inside the report period, from the start and end dates
   * (fleet-api.md gives no unit for stopDuration). A stop that began before the period
   * counts from the period's start, one that lasts past it until its end.
   */
  durationMinutes: number;
  /** The stop began before the period: its duration counts from the period's start. */
  beganBeforePeriod?: true;
  /** The stop lasted to the period's end (or past it): its duration counts until then. */
  lastedToPeriodEnd?: true;
  /** stopDuration exactly as the service sent it (unit not documented). */
  stopDurationRaw?: number;
  /**
   * Minutes stopped with the engine running inside the period: the sum of the dated
   * engineOnStops periods (clipped to the period), else stationaryEngineOnTime in the unit
   * stopDuration turned out to have, at most the stop's minutes in the period (undated, it
   * cannot be placed in time); absent when neither can be read.
   */
  engineOnMinutes?: number;
  address?: string;
  hotSpot?: string;
  latitude?: number;
  longitude?: number;
  /** "First Last" of each driver. */
  drivers: string[];
  /** As sent (litres, presumably; the trip before and the stop itself). */
  fuelConsumption?: number;
  /** The service marks the stop private: it has no address, hot spot or coordinates (privacy.ts). */
  isPrivate: boolean;
}

export interface VehicleStops {
  vehicle: ReportVehicle;
  stops: StopItem[];
  totalStopMinutes: number;
}

export interface StopsReport {
  period: ReportPeriod;
  /** The stationaryMargin the stops were asked with (the service applies it). */
  minMinutes: number;
  vehicles: VehicleStops[];
  totalStops: number;
}
