import { TZDate } from "@date-fns/tz";
import {
  type IncidentChange,
  type IncidentRecord,
  isVehicleKind,
  type ResolveReason,
  type VehicleIncidentKind,
} from "../../../platform/store/contract/incidentRecords.js";
import type { IncidentFacts, VehicleFacts } from "../../../platform/store/contract/vehicleFacts.js";
import { distanceMeters } from "./geo.js";
import type { TemperaturePoint, VehicleReading } from "./readings.js";
import { TOWED_METERS, VEHICLE_ALERT_CODES, vehicleSubject, type Watch } from "./watches.js";
import type { VehicleMemory, WatchState } from "./watchState.js";

/**
 * One vehicle-watch sweep (pure): company-vehicles' readings (and the temperatures read since the
 * last sweep) against the account's watches and its active vehicle incidents, into incident
 * changes and the memory the next sweep starts from. Each (vehicle, watch) is on (the condition
 * holds), off (it clearly does not) or unknown (a value missing or too old to tell): unknown
 * opens nothing and resolves nothing.
 */

/** A position older than this says nothing about moving *now* (Idle, Speeding, AfterHours). */
export const FRESH_READING_MS = 15 * 60_000;
/** Slower than this is standing still (GPS drift reads a few km/h at a standstill). */
export const STANDING_KMH = 3;
/** Faster than this is driving (AfterHours). */
export const MOVING_KMH = 5;
/** A towed vehicle moved less than this between two sweeps stands still again. */
export const STILL_METERS = 50;
/** Sweeps further apart than this tell nothing about a tow. */
export const TOWED_MAX_GAP_MS = 15 * 60_000;

export interface VehicleSweepInput {
  account: string;
  nowMs: number;
  /** COMPANY_TIMEZONE: the zone of `hours=`. */
  timeZone: string;
  readings: readonly VehicleReading[];
  /** Temperatures read since the last sweep; undefined when not read this sweep (nothing about Temperature changes). */
  temperatures?: readonly TemperaturePoint[];
  watches: readonly Watch[];
  /** The account's active incidents (those of other kinds are ignored). */
  active: readonly IncidentRecord[];
  /** UITs In Progress by vehicle id (carrierUId or plate, normalised by the caller's `transportOn`). */
  transportOn(reading: VehicleReading): { codeUit: string; statusId: number; uId: string } | undefined;
  state: WatchState;
  /** How long an incident must last before it is confirmed (min=), as for the transport kinds. */
  confirmAfterMs(candidate: { kind: VehicleIncidentKind; code: string; facts: IncidentFacts }): number;
}

type Verdict = { on: true; facts: VehicleFacts } | { on: false; reason: ResolveReason } | undefined;

const fresh = (r: VehicleReading, nowMs: number) =>
  r.gpsMs !== undefined && nowMs - r.gpsMs <= FRESH_READING_MS;

/** Minutes since midnight of an instant in the zone. */
function minuteOfDay(ms: number, timeZone: string): number {
  const d = new TZDate(ms, timeZone);
  return d.getHours() * 60 + d.getMinutes();
}

/** Whether an instant is within `HH:MM-HH:MM` (a span past midnight, `22:00-06:00`, wraps). */
export function withinHours(ms: number, hours: string, timeZone: string): boolean | undefined {
  const m = /^(\d{2}):(\d{2})-(\d{2}):(\d{2})$/.exec(hours);
  if (!m) return undefined;
  const from = Number(m[1]) * 60 + Number(m[2]);
  const to = Number(m[3]) * 60 + Number(m[4]);
  const t = minuteOfDay(ms, timeZone);
  return from <= to ? t >= from && t < to : t >= from || t < to;
}

function place(r: VehicleReading): Partial<VehicleFacts> {
  if (r.private) return { private: true };
  const out: Partial<VehicleFacts> = {};
  if (r.latitude !== undefined) out.latitude = r.latitude;
  if (r.longitude !== undefined) out.longitude = r.longitude;
  if (r.address !== undefined) out.address = r.address;
  return out;
}

function baseFacts(r: VehicleReading, watch: Watch, transportCodeUit: string | undefined): VehicleFacts {
  const facts: VehicleFacts = { vehicleId: r.vehicleId, watch: watch.key, ...place(r) };
  if (r.plate !== undefined) facts.plate = r.plate;
  if (r.name !== undefined) facts.name = r.name;
  if (r.gpsMs !== undefined) facts.gpsMs = r.gpsMs;
  if (r.speedKmh !== undefined) facts.speedKmh = r.speedKmh;
  if (r.volts !== undefined) facts.volts = r.volts;
  if (r.engine !== undefined) facts.engine = r.engine;
  if (transportCodeUit !== undefined) facts.transportCodeUit = transportCodeUit;
  return facts;
}

interface VehicleContext {
  reading: VehicleReading;
  /** When the previous sweep read the vehicles (undefined: this is the first). */
  previousSweepMs: number | undefined;
  memory: VehicleMemory;
  next: VehicleMemory;
  previous: VehicleFacts | undefined;
  transportCodeUit: string | undefined;
  nowMs: number;
  timeZone: string;
  points: readonly TemperaturePoint[] | undefined;
}

/** The kinds a vehicle in private mode is not watched for (CONTRACT.md: PowerCut and Offline still are). */
const PRIVATE_UNWATCHED: ReadonlySet<VehicleIncidentKind> = new Set([
  "zone",
  "idle",
  "speeding",
  "towed",
  "afterhours",
]);

function verdictOf(watch: Watch, c: VehicleContext): Verdict {
  const r = c.reading;
  if (r.private && PRIVATE_UNWATCHED.has(watch.kind)) return { on: false, reason: "status" };
  const facts = baseFacts(r, watch, c.transportCodeUit);
  // Since when, by the evidence: the position's time, but never before the previous sweep, which
  // did not see the condition (a parked unit's gpsDate may be an hour-old heartbeat).
  const evidence = () => {
    if (r.gpsMs === undefined) return c.nowMs;
    return c.previousSweepMs !== undefined && r.gpsMs < c.previousSweepMs ? c.previousSweepMs : r.gpsMs;
  };
  const since = () => c.previous?.sinceMs ?? evidence();
  switch (watch.kind) {
    case "powercut": {
      if (r.volts === undefined) return undefined;
      if (r.volts >= watch.volts) return { on: false, reason: "recovered" };
      return { on: true, facts: { ...facts, threshold: watch.volts, sinceMs: since() } };
    }
    case "zone": {
      if (r.latitude === undefined || r.longitude === undefined) return undefined;
      const inside =
        distanceMeters({ latitude: r.latitude, longitude: r.longitude }, watch.zone) <=
        watch.zone.radiusMeters;
      const wasOutside = c.memory.zones?.[watch.zone.id] === false;
      c.next.zones = { ...(c.next.zones ?? {}), [watch.zone.id]: inside };
      if (!inside) return { on: false, reason: "recovered" };
      // An arrival: a vehicle already inside when first seen (a zone just made around it) is not one.
      if (!c.previous && !wasOutside) return { on: false, reason: "recovered" };
      return {
        on: true,
        facts: {
          ...facts,
          zoneId: watch.zone.id,
          zoneName: c.previous?.zoneName ?? watch.zone.name,
          zoneWorkspace: watch.zone.workspace,
          threshold: watch.zone.radiusMeters,
          sinceMs: since(),
        },
      };
    }
    case "idle": {
      if (r.speedKmh === undefined || r.engine === undefined || !fresh(r, c.nowMs)) return undefined;
      const idle = r.speedKmh < STANDING_KMH && r.engine === "on";
      if (!idle) return { on: false, reason: "recovered" };
      const idleSince = c.memory.idleSinceMs ?? evidence();
      c.next.idleSinceMs = idleSince;
      if (c.nowMs - idleSince < watch.minutes * 60_000) return { on: false, reason: "recovered" };
      return { on: true, facts: { ...facts, threshold: watch.minutes, sinceMs: idleSince } };
    }
    case "speeding": {
      if (r.speedKmh === undefined || !fresh(r, c.nowMs)) return undefined;
      if (r.speedKmh <= watch.kmh) return { on: false, reason: "recovered" };
      const peak = Math.max(r.speedKmh, c.previous?.peakSpeedKmh ?? 0);
      return {
        on: true,
        facts: { ...facts, threshold: watch.kmh, peakSpeedKmh: peak, sinceMs: since() },
      };
    }
    case "offline": {
      if (r.gpsMs === undefined) return undefined;
      // A transport In Progress has its own, stricter alert (Stalled).
      if (c.transportCodeUit !== undefined) return { on: false, reason: "status" };
      if (c.nowMs - r.gpsMs <= watch.minutes * 60_000) return { on: false, reason: "recovered" };
      return { on: true, facts: { ...facts, threshold: watch.minutes, sinceMs: r.gpsMs } };
    }
    case "towed":
      return towedVerdict(c, facts);
    case "afterhours": {
      if (r.speedKmh === undefined || r.gpsMs === undefined || !fresh(r, c.nowMs)) return undefined;
      const within = withinHours(r.gpsMs, watch.hours, c.timeZone);
      if (within === undefined) return undefined;
      if (within || r.speedKmh <= MOVING_KMH) return { on: false, reason: "recovered" };
      return { on: true, facts: { ...facts, hours: watch.hours, sinceMs: since() } };
    }
    case "temperature":
      return temperatureVerdict(watch, c, facts);
  }
}

function towedVerdict(c: VehicleContext, facts: VehicleFacts): Verdict {
  const r = c.reading;
  const last = c.memory;
  if (r.engine === undefined || r.latitude === undefined || r.longitude === undefined) return undefined;
  if (r.engine === "on") return { on: false, reason: "recovered" };
  if (last.engine === undefined || last.latitude === undefined || last.longitude === undefined)
    return undefined;
  // Two sweeps far apart (fleetbot was down) cannot tell a tow from a drive and a park; nor can
  // an engine event between them (it ran meanwhile).
  if (c.previousSweepMs === undefined || c.nowMs - c.previousSweepMs > TOWED_MAX_GAP_MS) return undefined;
  if (r.engineEventMs !== undefined && last.gpsMs !== undefined && r.engineEventMs > last.gpsMs)
    return c.previous ? undefined : { on: false, reason: "recovered" };
  const moved = distanceMeters(
    { latitude: last.latitude, longitude: last.longitude },
    { latitude: r.latitude, longitude: r.longitude },
  );
  const open = c.previous !== undefined;
  if (last.engine !== "off") return open ? undefined : { on: false, reason: "recovered" };
  if (open ? moved < STILL_METERS : moved <= TOWED_METERS) return { on: false, reason: "recovered" };
  const total = Math.round((c.previous?.movedMeters ?? 0) + moved);
  return {
    on: true,
    facts: { ...facts, movedMeters: total, sinceMs: c.previous?.sinceMs ?? last.gpsMs ?? c.nowMs },
  };
}

function temperatureVerdict(
  watch: Extract<Watch, { kind: "temperature" }>,
  c: VehicleContext,
  facts: VehicleFacts,
): Verdict {
  if (c.points === undefined) return undefined;
  const mine = c.points.filter((p) => p.vehicleId === c.reading.vehicleId);
  if (mine.length === 0) return undefined;
  let outSince = c.memory.tempOutSince?.[watch.key];
  let worst: TemperaturePoint | undefined;
  for (const p of mine) {
    const out = p.value < watch.min || p.value > watch.max;
    if (!out) {
      outSince = undefined;
      worst = undefined;
      continue;
    }
    outSince ??= p.atMs;
    const distance = (x: TemperaturePoint) => Math.max(watch.min - x.value, x.value - watch.max);
    if (!worst || distance(p) >= distance(worst)) worst = p;
  }
  const nextOut = { ...(c.next.tempOutSince ?? {}) };
  if (outSince === undefined) delete nextOut[watch.key];
  else nextOut[watch.key] = outSince;
  c.next.tempOutSince = nextOut;
  const latest = mine[mine.length - 1];
  if (outSince === undefined || worst === undefined || latest === undefined)
    return { on: false, reason: "recovered" };
  // A shorter excursion (a defrost, a door opened to load) is not an incident; an open one stays open while out.
  const long = latest.atMs - outSince >= watch.forMinutes * 60_000;
  if (!long && c.previous === undefined) return { on: false, reason: "recovered" };
  return {
    on: true,
    facts: {
      ...facts,
      temperature: worst.value,
      tempMin: watch.min,
      tempMax: watch.max,
      threshold: watch.forMinutes,
      ...(worst.sensor === undefined ? {} : { sensor: worst.sensor }),
      sinceMs: outSince,
      gpsMs: latest.atMs,
    },
  };
}

function transportFacts(
  r: VehicleReading,
  subject: string,
  transport: { codeUit: string; statusId: number; uId: string } | undefined,
  vehicle: VehicleFacts,
): IncidentFacts {
  const facts: IncidentFacts = {
    uId: transport?.uId ?? subject,
    codeUit: transport?.codeUit ?? "",
    statusId: transport?.statusId ?? 0,
    vehicle,
  };
  if (r.vehicleUId !== undefined) facts.carrierUId = r.vehicleUId;
  if (r.plate !== undefined) facts.carrierCode = r.plate;
  if (r.name !== undefined) facts.carrierName = r.name;
  return facts;
}

function memoryOf(r: VehicleReading, previous: VehicleMemory | undefined): VehicleMemory {
  const next: VehicleMemory = {};
  if (r.latitude !== undefined && r.longitude !== undefined) {
    next.latitude = r.latitude;
    next.longitude = r.longitude;
  } else if (previous?.latitude !== undefined && previous.longitude !== undefined) {
    next.latitude = previous.latitude;
    next.longitude = previous.longitude;
  }
  const engine = r.engine ?? previous?.engine;
  if (engine !== undefined) next.engine = engine;
  const gpsMs = r.gpsMs ?? previous?.gpsMs;
  if (gpsMs !== undefined) next.gpsMs = gpsMs;
  if (previous?.tempOutSince !== undefined) next.tempOutSince = { ...previous.tempOutSince };
  // Kept for zones this sweep cannot tell about (no position); those it evaluates are rewritten.
  if (previous?.zones !== undefined) next.zones = { ...previous.zones };
  return next;
}

export function evaluateVehicles(input: VehicleSweepInput): { changes: IncidentChange[]; state: WatchState } {
  const { account, nowMs } = input;
  const resolves: IncidentChange[] = [];
  const middle: IncidentChange[] = [];
  const opens: IncidentChange[] = [];
  const active = new Map<string, IncidentRecord>();
  for (const incident of input.active) {
    if (incident.state === "resolved" || incident.account !== account || !isVehicleKind(incident.kind))
      continue;
    const existing = active.get(incident.transportUId);
    if (!existing) active.set(incident.transportUId, incident);
    else resolves.push(resolveOf(incident, nowMs, "changed"));
  }
  const seen = new Set<string>();
  const vehicles: Record<string, VehicleMemory> = {};
  for (const r of input.readings) {
    const memory = input.state.vehicles[String(r.vehicleId)] ?? {};
    const next = memoryOf(r, memory);
    const transport = input.transportOn(r);
    for (const watch of input.watches) {
      const subject = vehicleSubject(r.vehicleId, watch.key);
      seen.add(subject);
      const incident = active.get(subject);
      const verdict = verdictOf(watch, {
        reading: r,
        previousSweepMs: input.state.sweptAtMs,
        memory,
        next,
        previous: incident?.facts.vehicle,
        transportCodeUit: transport?.codeUit,
        nowMs,
        timeZone: input.timeZone,
        points: input.temperatures,
      });
      if (verdict === undefined) {
        if (incident) middle.push({ type: "still", id: incident.id, at: nowMs });
        continue;
      }
      if (!verdict.on) {
        if (incident) resolves.push(resolveOf(incident, nowMs, verdict.reason, r.gpsMs));
        continue;
      }
      const facts = transportFacts(r, subject, transport, verdict.facts);
      if (incident) {
        const due =
          incident.state === "pending" &&
          nowMs - incident.firstSeenAt >=
            input.confirmAfterMs({ kind: incident.kind as VehicleIncidentKind, code: incident.code, facts });
        middle.push(
          due
            ? { type: "confirm", id: incident.id, at: nowMs, facts }
            : { type: "still", id: incident.id, at: nowMs, facts },
        );
        continue;
      }
      const code = VEHICLE_ALERT_CODES[watch.kind];
      opens.push({
        type: "open",
        account,
        transportUId: subject,
        codeUit: r.plate ?? `#${r.vehicleId}`,
        kind: watch.kind,
        code,
        at: nowMs,
        state: input.confirmAfterMs({ kind: watch.kind, code, facts }) === 0 ? "open" : "pending",
        facts,
      });
    }
    if (next.zones) {
      // Only the zones still watched are remembered (a removed zone's entry would linger).
      const watched = new Set(input.watches.flatMap((w) => (w.kind === "zone" ? [w.zone.id] : [])));
      next.zones = Object.fromEntries(Object.entries(next.zones).filter(([id]) => watched.has(id)));
    }
    // Idling ended (or cannot be told): the next idle starts afresh.
    if (!(r.speedKmh !== undefined && r.speedKmh < STANDING_KMH && r.engine === "on"))
      delete next.idleSinceMs;
    vehicles[String(r.vehicleId)] = next;
  }
  // A watch nobody asks for any more (unsubscribed, a zone removed), or a vehicle no longer listed.
  for (const [subject, incident] of active) {
    if (!seen.has(subject)) resolves.push(resolveOf(incident, nowMs, "gone"));
  }
  const state: WatchState = { ...input.state, sweptAtMs: nowMs, vehicles };
  return { changes: [...resolves, ...middle, ...opens], state };
}

function resolveOf(
  incident: IncidentRecord,
  nowMs: number,
  reason: ResolveReason,
  evidenceMs?: number,
): IncidentChange {
  const change: IncidentChange = {
    type: "resolve",
    id: incident.id,
    at: nowMs,
    reason,
    wasOpen: incident.state === "open",
  };
  if (evidenceMs !== undefined && evidenceMs <= nowMs) change.endEvidenceMs = evidenceMs;
  return change;
}
