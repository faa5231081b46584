import type { VehicleIncidentKind } from "../../../platform/store/contract/incidentRecords.js";
import type { VehicleWatchOptions, Zone } from "../../../platform/store/contract/index.js";

/**
 * What a subscription asks vehicle watch to look for (pure). A *watch* is one kind with its
 * thresholds (`speeding:90`, `zone:<zone id>`): the unit an incident belongs to. Subscriptions with
 * the same thresholds share one watch (one incident, posted to each channel); different thresholds
 * are different watches, so `speed=90` in one channel and `speed=110` in another each open and
 * resolve by their own.
 */

/** The filter word of each vehicle kind, as `alerts subscribe` takes it and alerts show it. */
export const VEHICLE_ALERT_CODES = {
  powercut: "PowerCut",
  zone: "Zone",
  idle: "Idle",
  speeding: "Speeding",
  offline: "Offline",
  towed: "Towed",
  afterhours: "AfterHours",
  temperature: "Temperature",
} as const satisfies Record<VehicleIncidentKind, string>;
export type VehicleAlertCode = (typeof VEHICLE_ALERT_CODES)[VehicleIncidentKind];

/** Each option's default (CONTRACT.md, vehicle kinds). */
export const WATCH_DEFAULTS = {
  volts: 6,
  idleMinutes: 20,
  speedKmh: 90,
  offlineMinutes: 60,
  hours: "06:00-22:00",
  tempForMinutes: 15,
} as const;

/** Moved more than this between two sweeps with the engine off: towed (CONTRACT.md). */
export const TOWED_METERS = 500;

/** What watches are read from: a subscription's codes, options and workspace. */
export interface WatchingSubscription {
  codes: readonly string[];
  excludeCodes: readonly string[];
  watch: VehicleWatchOptions;
  workspace: string;
}

export type Watch =
  | { kind: "powercut"; key: string; volts: number }
  | { kind: "zone"; key: string; zone: Zone }
  | { kind: "idle"; key: string; minutes: number }
  | { kind: "speeding"; key: string; kmh: number }
  | { kind: "offline"; key: string; minutes: number }
  | { kind: "towed"; key: string }
  | { kind: "afterhours"; key: string; hours: string }
  | { kind: "temperature"; key: string; min: number; max: number; forMinutes: number };

const CODE_TO_KIND = new Map<string, VehicleIncidentKind>(
  Object.entries(VEHICLE_ALERT_CODES).map(([kind, code]) => [
    code.toLowerCase(),
    kind as VehicleIncidentKind,
  ]),
);

/** The vehicle kinds a subscription names (opt-in: none unless its codes name them). */
export function vehicleKindsOf(
  sub: Pick<WatchingSubscription, "codes" | "excludeCodes">,
): VehicleIncidentKind[] {
  const excluded = new Set(sub.excludeCodes.map((c) => c.toLowerCase()));
  const kinds: VehicleIncidentKind[] = [];
  for (const code of sub.codes) {
    const kind = CODE_TO_KIND.get(code.toLowerCase());
    if (kind && !excluded.has(code.toLowerCase()) && !kinds.includes(kind)) kinds.push(kind);
  }
  return kinds;
}

/** A name as zones compare it: case, diacritics and extra spaces ignored. */
export function zoneNameKey(name: string): string {
  return name.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();
}

/** The zones a subscription watches: those named in `zones=`, else every zone of its workspace. */
export function watchedZones(options: VehicleWatchOptions, zones: readonly Zone[]): Zone[] {
  if (options.zones === undefined || options.zones.length === 0) return [...zones];
  const wanted = new Set(options.zones.map(zoneNameKey));
  return zones.filter((z) => wanted.has(z.nameKey));
}

/** One kind's watch for a subscription's options (a zone kind gives one per zone). */
function watchesOfKind(
  kind: VehicleIncidentKind,
  options: VehicleWatchOptions,
  zones: readonly Zone[],
): Watch[] {
  switch (kind) {
    case "powercut": {
      const volts = options.volts ?? WATCH_DEFAULTS.volts;
      return [{ kind, key: `powercut:${volts}`, volts }];
    }
    case "zone":
      return watchedZones(options, zones).map((zone) => ({ kind, key: `zone:${zone.id}`, zone }));
    case "idle": {
      const minutes = options.idleMinutes ?? WATCH_DEFAULTS.idleMinutes;
      return [{ kind, key: `idle:${minutes}`, minutes }];
    }
    case "speeding": {
      const kmh = options.speedKmh ?? WATCH_DEFAULTS.speedKmh;
      return [{ kind, key: `speeding:${kmh}`, kmh }];
    }
    case "offline": {
      const minutes = options.offlineMinutes ?? WATCH_DEFAULTS.offlineMinutes;
      return [{ kind, key: `offline:${minutes}`, minutes }];
    }
    case "towed":
      return [{ kind, key: "towed" }];
    case "afterhours": {
      const hours = options.hours ?? WATCH_DEFAULTS.hours;
      return [{ kind, key: `afterhours:${hours}`, hours }];
    }
    case "temperature": {
      // No default band: a chilled load and a frozen one need opposite ones (subscribe asks for temp=).
      const min = options.tempMin;
      const max = options.tempMax;
      if (min === undefined || max === undefined) return [];
      const forMinutes = options.tempForMinutes ?? WATCH_DEFAULTS.tempForMinutes;
      return [{ kind, key: `temperature:${min}..${max}/${forMinutes}`, min, max, forMinutes }];
    }
  }
}

/** A subscription's watches; `zones`: its workspace's. */
export function watchesOf(
  sub: Pick<WatchingSubscription, "codes" | "excludeCodes" | "watch">,
  zones: readonly Zone[],
): Watch[] {
  return vehicleKindsOf(sub).flatMap((kind) => watchesOfKind(kind, sub.watch, zones));
}

/** Every distinct watch of an account's subscriptions (each evaluated once per sweep). */
export function accountWatches(
  subs: readonly WatchingSubscription[],
  zonesOf: ReadonlyMap<string, readonly Zone[]>,
): Watch[] {
  const byKey = new Map<string, Watch>();
  for (const sub of subs) {
    for (const watch of watchesOf(sub, zonesOf.get(sub.workspace) ?? [])) {
      if (!byKey.has(watch.key)) byKey.set(watch.key, watch);
    }
  }
  return [...byKey.values()];
}

/** The subject of a vehicle incident: one vehicle under one watch (IncidentRecord.transportUId). */
export function vehicleSubject(vehicleId: number, watchKey: string): string {
  return `vehicle:${vehicleId}|${watchKey}`;
}

/** Whether a subscription's own watches include this one (a vehicle incident is posted only to them). */
export function subscriptionWatches(
  sub: WatchingSubscription,
  incident: { kind: VehicleIncidentKind; watch: string; zoneName?: string; zoneWorkspace?: string },
): boolean {
  if (!vehicleKindsOf(sub).includes(incident.kind)) return false;
  if (incident.kind === "zone") {
    // By name in the zone's own workspace: a zone is never another workspace's business.
    if (incident.zoneWorkspace !== sub.workspace || incident.zoneName === undefined) return false;
    const names = sub.watch.zones;
    return (
      names === undefined ||
      names.length === 0 ||
      names.map(zoneNameKey).includes(zoneNameKey(incident.zoneName))
    );
  }
  const own = watchesOfKind(incident.kind, sub.watch, []);
  return own.some((w) => w.key === incident.watch);
}
