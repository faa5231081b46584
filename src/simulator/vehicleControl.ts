/**
 * Vehicle overrides of `POST /__control/vehicles/:vehicleId` (and `sim.control.setVehicle`):
 * what a vehicle's unit reports when a test or the sandbox forces its power, place, motion,
 * silence or reefer temperature. Pure: an override keeps the sim instant and the position it
 * was set at, and what company-vehicles shows at any later sim instant is computed from them,
 * so overrides follow the sim clock (`advanceClock`), never wall time.
 */
import type { SimVehicle } from "./fleet.js";
import { unit } from "./random.js";
import { DEPOTS, destinationPoint, haversineKm, ROADS } from "./roads.js";
import { round, systemVoltage, type VehicleState } from "./schedule.js";
import { HOUR, MINUTE } from "./time.js";

/** A control as the endpoint takes it; each part stays in force until `clear`. */
export interface VehicleControl {
  /** Private mode (company-vehicles, stops, refuellings), as before. */
  isPrivate?: boolean;
  /** cut: the supply reads the unit's backup battery (2.6–3.0 V); restored: the 12/24 V system again. */
  power?: "cut" | "restored";
  /** Parked there (speed 0, engine off); with `idle: true` in the same body it idles there. */
  place?: { latitude: number; longitude: number };
  /** Stands where it is with the engine running (speed 0, engineRpm 650). */
  idle?: true;
  /** Drives at this speed (0–250 km/h) in a straight line along its course, engine on. */
  speedKmh?: number;
  /**
   * The unit stops reporting: the last answer stays, gpsDate frozen at the control, or
   * `{minutesAgo}` (1–1440) before it (it went silent that long ago: a demo needs no waiting).
   */
  silent?: true | { minutesAgo: number };
  /** Towed `meters` (1–100000) away along some bearing, engine off. */
  tow?: { meters: number };
  /** The reefer's temperature sensors read this (−40..40 °C) from now; only a vehicle with sensors. */
  reeferTemperature?: number;
  /** Drops every override of the vehicle (private mode too) before the rest of the body applies. */
  clear?: true;
}

/** How the vehicle stands or moves under an override, anchored where and when the control came. */
export type Motion =
  | {
      kind: "place" | "idle" | "tow";
      since: number;
      lat: number;
      lon: number;
      engineOn: boolean;
      engineEventDate: number;
    }
  | {
      kind: "speed";
      since: number;
      lat: number;
      lon: number;
      course: number;
      speedKmh: number;
      engineEventDate: number;
    };

/** The overrides in force for one vehicle (private mode is kept beside it, as before). */
export interface VehicleOverride {
  powerCutSince?: number;
  motion?: Motion;
  silent?: { since: number; frozen: VehicleState };
  reefer?: { since: number; valueC: number };
}

/** What the sandbox and tests read back: which overrides are in force. */
export interface VehicleControlView {
  power?: "cut";
  motion?: Motion["kind"];
  speedKmh?: number;
  silent?: true;
  reeferTemperature?: number;
  isPrivate?: boolean;
}

/** A unit under an override reports every 30 s (its gpsDate is the latest report). */
export const OVERRIDE_REPORT_MS = 30_000;
const IDLE_RPM = 650;
const DEPOT_RADIUS_KM = 0.3;

const CONTROL_KEYS = [
  "isPrivate",
  "power",
  "place",
  "idle",
  "speedKmh",
  "silent",
  "tow",
  "reeferTemperature",
  "clear",
] as const satisfies ReadonlyArray<keyof VehicleControl>;

// ---- reading a control body --------------------------------------------------------------------

type Reader = (value: unknown, control: VehicleControl) => string | undefined;

const isFiniteIn = (value: unknown, min: number, max: number): value is number =>
  typeof value === "number" && Number.isFinite(value) && value >= min && value <= max;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** One reader per key: it checks the value and copies it into the control, or says what is wrong. */
const READERS: Record<(typeof CONTROL_KEYS)[number], Reader> = {
  isPrivate: (value, control) => {
    if (typeof value !== "boolean") return "isPrivate must be a boolean";
    control.isPrivate = value;
    return undefined;
  },
  power: (value, control) => {
    if (value !== "cut" && value !== "restored") return 'power must be "cut" or "restored"';
    control.power = value;
    return undefined;
  },
  place: (value, control) => {
    if (!isRecord(value) || !isFiniteIn(value.latitude, -90, 90) || !isFiniteIn(value.longitude, -180, 180))
      return "place must be {latitude: −90..90, longitude: −180..180}";
    control.place = { latitude: value.latitude, longitude: value.longitude };
    return undefined;
  },
  idle: (value, control) => {
    if (value !== true) return "idle must be true (clear ends it)";
    control.idle = true;
    return undefined;
  },
  speedKmh: (value, control) => {
    if (!isFiniteIn(value, 0, 250)) return "speedKmh must be a number from 0 to 250";
    control.speedKmh = value;
    return undefined;
  },
  silent: (value, control) => {
    if (value === true) control.silent = true;
    else if (isRecord(value) && isFiniteIn(value.minutesAgo, 1, 1440))
      control.silent = { minutesAgo: value.minutesAgo };
    else return "silent must be true or {minutesAgo: 1..1440} (clear ends it)";
    return undefined;
  },
  tow: (value, control) => {
    if (!isRecord(value) || !isFiniteIn(value.meters, 1, 100_000)) return "tow must be {meters: 1..100000}";
    control.tow = { meters: value.meters };
    return undefined;
  },
  reeferTemperature: (value, control) => {
    if (!isFiniteIn(value, -40, 40)) return "reeferTemperature must be a number from −40 to 40 (°C)";
    control.reeferTemperature = value;
    return undefined;
  },
  clear: (value, control) => {
    if (value !== true) return "clear must be true";
    control.clear = true;
    return undefined;
  },
};

function isControlKey(key: string): key is (typeof CONTROL_KEYS)[number] {
  return (CONTROL_KEYS as readonly string[]).includes(key);
}

/** The control of a body, or what is wrong with it (the endpoint answers 400 with it). */
export function readVehicleControl(body: Readonly<Record<string, unknown>>): VehicleControl | string {
  const keys = Object.keys(body).filter((key) => body[key] !== undefined);
  if (keys.length === 0) return `one of ${CONTROL_KEYS.join(", ")} expected`;
  const control: VehicleControl = {};
  for (const key of keys) {
    if (!isControlKey(key)) return `unknown control "${key}" (known: ${CONTROL_KEYS.join(", ")})`;
    const problem = READERS[key](body[key], control);
    if (problem) return problem;
  }
  return control;
}

/** What this vehicle cannot do of a valid control (a temperature needs sensors). */
export function controlProblem(v: SimVehicle, control: VehicleControl): string | undefined {
  if (control.reeferTemperature !== undefined && !v.reefer)
    return `vehicle ${v.vehicleId} has no temperature sensors (not a reefer): reeferTemperature refused`;
  return undefined;
}

// ---- applying a control ------------------------------------------------------------------------

/**
 * The override after `control` arrives at sim instant `at`. `base` is what the day plans show
 * then; each part starts from what is shown after the parts before it (so `{place, idle}` idles
 * at the place). Order: clear, power, place, idle, speedKmh, tow, silent, reeferTemperature.
 */
export function applyVehicleControl(
  current: VehicleOverride | undefined,
  control: VehicleControl,
  at: number,
  base: VehicleState,
  v: SimVehicle,
  seed: number,
): VehicleOverride {
  let next: VehicleOverride = control.clear ? {} : { ...current };
  const shown = () => overriddenState(base, next, v, at);
  if (control.power === "cut") next.powerCutSince ??= at;
  if (control.power === "restored") delete next.powerCutSince;
  if (control.place) next = { ...next, motion: placed(control.place, at, shown()) };
  if (control.idle) next = { ...next, motion: standing("idle", at, shown(), true) };
  if (control.speedKmh !== undefined)
    next = { ...next, motion: driving(control.speedKmh, at, shown(), v, seed) };
  if (control.tow) next = { ...next, motion: towed(control.tow.meters, at, shown(), v, seed) };
  if (control.silent) {
    const ago = control.silent === true ? 0 : Math.round(control.silent.minutesAgo * 60_000);
    const frozen = shown();
    next.silent ??= { since: at - ago, frozen: { ...frozen, gpsDate: Math.min(frozen.gpsDate, at - ago) } };
  }
  if (control.reeferTemperature !== undefined) next.reefer = { since: at, valueC: control.reeferTemperature };
  return next;
}

/** When the engine last changed, seen from a control that sets it to `engineOn` at `at`. */
function engineEventAt(shown: VehicleState, engineOn: boolean, at: number): number {
  return shown.engineOn === engineOn ? shown.engineEventDate : Math.floor(at / 1000) * 1000;
}

function standing(
  kind: "place" | "idle" | "tow",
  at: number,
  where: VehicleState,
  engineOn: boolean,
): Motion {
  return {
    kind,
    since: at,
    lat: round(where.lat, 6),
    lon: round(where.lon, 6),
    engineOn,
    engineEventDate: engineEventAt(where, engineOn, at),
  };
}

/** Placed: parked there with the engine off (`{place, idle: true}` idles there: idle comes after). */
function placed(place: { latitude: number; longitude: number }, at: number, shown: VehicleState): Motion {
  return standing("place", at, { ...shown, lat: place.latitude, lon: place.longitude }, false);
}

/** A bearing of the vehicle's own for a control at `at` (no randomness outside seed and time). */
function bearingFor(purpose: string, v: SimVehicle, seed: number, at: number): number {
  return Math.round(unit(purpose, seed, v.vehicleId, at) * 360) % 360;
}

function driving(speedKmh: number, at: number, shown: VehicleState, v: SimVehicle, seed: number): Motion {
  return {
    kind: "speed",
    since: at,
    lat: round(shown.lat, 6),
    lon: round(shown.lon, 6),
    // Carries on the way it was heading; a standing vehicle sets off in a bearing of its own.
    course: shown.speed > 0 ? shown.course : bearingFor("course", v, seed, at),
    speedKmh,
    engineEventDate: engineEventAt(shown, true, at),
  };
}

function towed(meters: number, at: number, shown: VehicleState, v: SimVehicle, seed: number): Motion {
  const to = destinationPoint(shown, bearingFor("tow", v, seed, at), meters / 1000);
  return standing("tow", at, { ...shown, lat: to.lat, lon: to.lon }, false);
}

// ---- what is shown -----------------------------------------------------------------------------

/** The state company-vehicles shows at `at`: the day plans' `base` with the override applied. */
export function overriddenState(
  base: VehicleState,
  override: VehicleOverride | undefined,
  v: SimVehicle,
  at: number,
): VehicleState {
  if (!override) return base;
  // A silent unit sends nothing: the last answer stays as it was, power and motion included.
  if (override.silent) return override.silent.frozen;
  const moved = override.motion ? motionState(base, override.motion, v, at) : base;
  return override.powerCutSince === undefined ? moved : { ...moved, voltage: backupVoltage(v, at) };
}

/** The unit's backup battery once the vehicle's supply is cut: well under any 12/24 V reading. */
function backupVoltage(v: SimVehicle, at: number): number {
  return round(2.6 + unit("backup", v.vehicleId, Math.floor(at / MINUTE)) * 0.4, 1);
}

/** The latest report of a unit under a motion override (every 30 s from the control). */
function reportTick(since: number, at: number): number {
  const elapsed = Math.max(0, at - since);
  return since + Math.floor(elapsed / OVERRIDE_REPORT_MS) * OVERRIDE_REPORT_MS;
}

function motionState(base: VehicleState, motion: Motion, v: SimVehicle, at: number): VehicleState {
  const tick = reportTick(motion.since, at);
  const gpsDate = Math.floor(tick / 1000) * 1000;
  if (motion.kind !== "speed") {
    return {
      ...base,
      lat: motion.lat,
      lon: motion.lon,
      speed: 0,
      course: 0,
      gpsDate,
      address: addressNear(motion.lat, motion.lon),
      engineOn: motion.engineOn,
      engineEventDate: motion.engineEventDate,
      engineRpm: motion.engineOn ? IDLE_RPM : 0,
      voltage: systemVoltage(v, at, motion.engineOn),
      abroad: false,
    };
  }
  const km = (motion.speedKmh * (tick - motion.since)) / HOUR;
  const here = destinationPoint(motion, motion.course, km);
  const speed = Math.round(motion.speedKmh);
  return {
    ...base,
    lat: round(here.lat, 6),
    lon: round(here.lon, 6),
    speed,
    course: Math.round(motion.course),
    gpsDate,
    address: addressNear(here.lat, here.lon),
    engineOn: true,
    engineEventDate: motion.engineEventDate,
    // As the day plans: about 1100 rpm plus 6 per km/h while moving; standing at 0 km/h idles.
    engineRpm: speed > 0 ? 1100 + speed * 6 : IDLE_RPM,
    voltage: systemVoltage(v, at, true),
    abroad: false,
  };
}

/** Named places: the depots and the towns on the roads. */
const TOWNS = Object.values(ROADS).flatMap((road) =>
  road.points.flatMap((p) => (p.town ? [{ lat: p.lat, lon: p.lon, town: p.town, county: p.county }] : [])),
);

/** The depot's address at a depot, else "lângă <nearest town>" as the day plans' drives read. */
export function addressNear(lat: number, lon: number): string {
  const here = { lat, lon };
  const depot = DEPOTS.find(
    (d) => haversineKm(here, { lat: d.latitude, lon: d.longitude }) <= DEPOT_RADIUS_KM,
  );
  if (depot) return depot.address;
  let best = TOWNS[0]!;
  for (const town of TOWNS) if (haversineKm(here, town) < haversineKm(here, best)) best = town;
  return best.county ? `lângă ${best.town}, ${best.county}` : `lângă ${best.town}`;
}

// ---- temperatures ------------------------------------------------------------------------------

/** While a reefer's temperature is forced the unit is in alarm: it reports every minute. */
export const ALARM_READING_MS = MINUTE;

/** The forced reading of a reefer, if any, for the temperatures endpoint. */
export type ForcedTemperature = { since: number; valueC: number };

export function forcedTemperature(override: VehicleOverride | undefined): ForcedTemperature | undefined {
  return override?.reefer;
}

/** What the sandbox and tests read back of an override. */
export function viewOf(
  override: VehicleOverride | undefined,
  isPrivate: boolean | undefined,
): VehicleControlView {
  const view: VehicleControlView = {};
  if (override?.powerCutSince !== undefined) view.power = "cut";
  if (override?.motion) view.motion = override.motion.kind;
  if (override?.motion?.kind === "speed") view.speedKmh = override.motion.speedKmh;
  if (override?.silent) view.silent = true;
  if (override?.reefer) view.reeferTemperature = override.reefer.valueC;
  if (isPrivate !== undefined) view.isPrivate = isPrivate;
  return view;
}
