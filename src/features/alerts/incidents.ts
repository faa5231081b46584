import { TRANSPORT_STATUS } from "../../platform/fleet/schemas.js";
import type { VehicleWatchOptions } from "../../platform/store/contract/alerts.js";
import {
  DEFAULT_STALE_MINUTES,
  INCIDENT_KINDS,
  type IncidentChange,
  type IncidentKind,
  type IncidentRecord,
  isVehicleKind,
  type ResolveReason,
  TRANSPORT_INCIDENT_KINDS,
} from "../../platform/store/contract/incidentRecords.js";
import type { TransportView } from "../../platform/store/contract/transportView.js";
import type { IncidentFacts } from "../../platform/store/contract/vehicleFacts.js";
import { normalisePlate } from "../../platform/vehicles/vehicleRefs.js";
import { subscriptionWatches, VEHICLE_ALERT_CODES } from "./vehicleWatch/watches.js";

export {
  DEFAULT_STALE_MINUTES,
  INCIDENT_KINDS,
  type IncidentChange,
  type IncidentKind,
  type IncidentRecord,
  type IncidentState,
  isVehicleKind,
  type ResolveReason,
  storedAlertCodes,
  TRANSPORT_INCIDENT_KINDS,
  VEHICLE_INCIDENT_KINDS,
  type VehicleIncidentKind,
} from "../../platform/store/contract/incidentRecords.js";

/**
 * Transport incidents (pure). An alert is an incident, not a message per poll: each sweep
 * of load-transports is compared with the stored incidents of the account, and the result
 * is a list of changes (open, confirm, resolve, still) that the poller stores before any
 * post. At most one incident per (transport, kind) is active (pending or open) at a time.
 */

/** Transmission codes that open an incident while the transport is In Progress (DESIGN.md, Alerts). */
export const BAD_TRANSMISSION_CODES = [
  "Error",
  "OldData",
  "NoGPSCoordinates",
  "NotInRomania",
  "MissingETransportConfiguration",
  "WithoutTransmission",
] as const;
/** Change request codes that open an incident of kind "changerequest". */
export const BAD_CHANGE_REQUEST_CODES = ["ResponseError", "RequestErrorSent"] as const;
/** The code of an expiry incident and of a not-started one. */
export const EXPIRY_CODE = "ValidityEnding";
export const NOT_STARTED_CODE = "NotStarted";
/** The code of a vanished incident and of a stalled one. */
export const VANISHED_CODE = "Vanished";
export const STALLED_CODE = "Stalled";
/** Positions older than this can no longer be sent to the platform at all (the OldData code). */
export const SEND_LIMIT_MS = 6 * 3600_000;

/** Every word a subscription filter accepts: the codes above and the kind names. */
export const ALERT_FILTER_WORDS: readonly string[] = [
  ...BAD_TRANSMISSION_CODES,
  ...BAD_CHANGE_REQUEST_CODES,
  EXPIRY_CODE,
  NOT_STARTED_CODE,
  VANISHED_CODE,
  STALLED_CODE,
  ...Object.values(VEHICLE_ALERT_CODES),
  ...INCIDENT_KINDS,
];

/** Canonical spelling of a filter word (case-insensitive), or undefined when unknown. */
export function canonicalAlertCode(word: string): string | undefined {
  const lower = word.trim().toLowerCase();
  return ALERT_FILTER_WORDS.find((w) => w.toLowerCase() === lower);
}

const BAD_TX: ReadonlySet<string> = new Set(BAD_TRANSMISSION_CODES);
const BAD_CR: ReadonlySet<string> = new Set(BAD_CHANGE_REQUEST_CODES);
/** Statuses a sweep reads: Pending, In Progress, Paused (not finished). */
export const SWEEP_STATUS_IDS: readonly number[] = [
  TRANSPORT_STATUS.pending,
  TRANSPORT_STATUS.inProgress,
  TRANSPORT_STATUS.paused,
];

/** Statuses a transport no longer listed is looked up among: Completed, Auto Completed. */
export const FINISHED_STATUS_IDS: readonly number[] = [
  TRANSPORT_STATUS.completed,
  TRANSPORT_STATUS.autoCompleted,
];

/** What evaluateSweep needs of a subscription. */
export interface SubscriptionFilter {
  /** Codes or kind names to alert on; empty = every kind and code. */
  codes: readonly string[];
  /** Codes or kind names never to alert on. */
  excludeCodes: readonly string[];
  /** Plates or vehicle ids (carrierUId); empty = every vehicle. */
  vehicles: readonly string[];
  minDurationMinutes: number;
  /** Minutes without a position sent before a stalled alert; 0: never. Default DEFAULT_STALE_MINUTES. */
  staleMinutes?: number;
  /** The vehicle kinds' thresholds (absent: none given, each kind's default). */
  watch?: VehicleWatchOptions;
  /** The subscription's workspace: a zone incident goes only to its zone's workspace. */
  workspace?: string;
}

export interface SweepSettings {
  /** A UIT whose validity ends within this lead opens an expiry incident. Default 12 h. */
  expiryLeadMs?: number;
  /** A Pending transport this long past its planned transmission start opens a notstarted incident. Default 15 min. */
  notStartedGraceMs?: number;
  /**
   * False when the sweep may have missed transports (pages shifted while reading): missing
   * transports then do not resolve their incidents as "gone". Default true.
   */
  complete?: boolean;
  /**
   * An In-Progress transport with no position sent for this long opens a stalled incident (the
   * smallest `stale=` of the account's subscriptions); undefined: none is opened.
   */
  staleAfterMs?: number;
}

export const DEFAULT_EXPIRY_LEAD_MS = 12 * 3600_000;
export const DEFAULT_NOT_STARTED_GRACE_MS = 15 * 60_000;

/** A problem a transport shows in one sweep. */
export interface Condition {
  kind: IncidentKind;
  code: string;
  /** Identifies the occurrence: a different key for the same kind is a new incident. */
  key: string;
}

/** The problems a transport shows now, one per kind at most. */
export function conditionsOf(t: TransportView, nowMs: number, settings: SweepSettings = {}): Condition[] {
  const lead = settings.expiryLeadMs ?? DEFAULT_EXPIRY_LEAD_MS;
  const grace = settings.notStartedGraceMs ?? DEFAULT_NOT_STARTED_GRACE_MS;
  const out: Condition[] = [];
  const notFinished = SWEEP_STATUS_IDS.includes(t.statusId);
  const tx = t.transmissionStatusCode;
  if (t.statusId === TRANSPORT_STATUS.inProgress && tx !== undefined && BAD_TX.has(tx)) {
    out.push({ kind: "transmission", code: tx, key: tx });
  }
  const cr = t.changeRequestStatusCode;
  if (notFinished && cr !== undefined && BAD_CR.has(cr)) {
    out.push({ kind: "changerequest", code: cr, key: `${cr}@${t.changeRequestCreatedMs ?? ""}` });
  }
  if (notFinished && t.validityEndMs !== undefined && t.validityEndMs - nowMs <= lead) {
    out.push({ kind: "expiry", code: EXPIRY_CODE, key: String(t.validityEndMs) });
  }
  if (t.statusId === TRANSPORT_STATUS.pending && t.startMs !== undefined && nowMs - t.startMs >= grace) {
    out.push({ kind: "notstarted", code: NOT_STARTED_CODE, key: String(t.startMs) });
  }
  // A code that is bad already has its own incident (OldData follows a long stall).
  const staleAfter = settings.staleAfterMs;
  const since = stalledSinceMs(t);
  const codeFine = tx === undefined || !BAD_TX.has(tx);
  if (
    staleAfter !== undefined &&
    t.statusId === TRANSPORT_STATUS.inProgress &&
    codeFine &&
    since !== undefined &&
    nowMs - since >= staleAfter
  ) {
    out.push({ kind: "stalled", code: STALLED_CODE, key: STALLED_CODE });
  }
  return out;
}

/**
 * Since when nothing reached the platform: the older of the last position sent and the last
 * received from the vehicle (instants: the service's company-local dates were converted at the
 * client's boundary). Undefined when the service gives neither.
 */
export function stalledSinceMs(
  t: Pick<TransportView, "lastTransmissionMs" | "lastGpsMs">,
): number | undefined {
  const known = [t.lastTransmissionMs, t.lastGpsMs].filter((ms): ms is number => ms !== undefined);
  return known.length === 0 ? undefined : Math.min(...known);
}

/** The smallest `stale=` of the subscriptions, in ms; undefined when every one has it off (0). */
export function staleAfterMs(subscriptions: readonly SubscriptionFilter[]): number | undefined {
  const minutes = subscriptions.map((s) => s.staleMinutes ?? DEFAULT_STALE_MINUTES).filter((m) => m > 0);
  return minutes.length === 0 ? undefined : Math.min(...minutes) * 60_000;
}

/**
 * Whether a subscription wants a stalled incident posted yet: its own `stale=` (the incident
 * opened at the smallest of the account's) has passed, and it is not off.
 */
export function staleEnoughFor(
  sub: SubscriptionFilter,
  incident: Pick<IncidentRecord, "facts">,
  nowMs: number,
): boolean {
  const minutes = sub.staleMinutes ?? DEFAULT_STALE_MINUTES;
  if (minutes <= 0) return false;
  const since = stalledSinceMs(incident.facts);
  return since !== undefined && nowMs - since >= minutes * 60_000;
}

/** The occurrence key of a stored incident, from its facts (see conditionsOf). */
export function incidentKey(incident: Pick<IncidentRecord, "kind" | "code" | "facts">): string {
  switch (incident.kind) {
    case "transmission":
      return incident.code;
    case "changerequest":
      return `${incident.code}@${incident.facts.changeRequestCreatedMs ?? ""}`;
    case "expiry":
      return String(incident.facts.validityEndMs);
    case "notstarted":
      return String(incident.facts.startMs);
    case "vanished":
      return VANISHED_CODE;
    case "stalled":
      return STALLED_CODE;
    default:
      // A vehicle incident's occurrence is its subject (vehicle and watch): one at a time.
      return incident.facts.vehicle?.watch ?? incident.code;
  }
}

/** Whether a subscription wants an incident of this kind and code on this transport. */
export function subscriptionMatches(
  sub: SubscriptionFilter,
  incident: {
    kind: IncidentKind;
    code: string;
    facts: Pick<IncidentFacts, "carrierCode" | "carrierUId" | "vehicle">;
  },
): boolean {
  const words = new Set([incident.kind.toLowerCase(), incident.code.toLowerCase()]);
  const hit = (list: readonly string[]) => list.some((w) => words.has(w.toLowerCase()));
  if (isVehicleKind(incident.kind)) {
    // Opt-in, and only the subscription's own thresholds (and its workspace's zones).
    const vehicle = incident.facts.vehicle;
    if (!vehicle) return false;
    const watched = subscriptionWatches(
      {
        codes: sub.codes,
        excludeCodes: sub.excludeCodes,
        watch: sub.watch ?? {},
        workspace: sub.workspace ?? "",
      },
      {
        kind: incident.kind,
        watch: vehicle.watch,
        ...(vehicle.zoneName === undefined ? {} : { zoneName: vehicle.zoneName }),
        ...(vehicle.zoneWorkspace === undefined ? {} : { zoneWorkspace: vehicle.zoneWorkspace }),
      },
    );
    if (!watched) return false;
  } else if (sub.codes.length > 0 && !hit(sub.codes)) return false;
  if (hit(sub.excludeCodes)) return false;
  if (sub.vehicles.length > 0) {
    const plate = incident.facts.carrierCode ? normalisePlate(incident.facts.carrierCode) : undefined;
    const id = incident.facts.carrierUId?.toLowerCase();
    const wanted = sub.vehicles.some((v) => normalisePlate(v) === plate || v.toLowerCase() === id);
    if (!wanted) return false;
  }
  return true;
}

/**
 * How long an incident must last before it is confirmed: the smallest minimum duration of
 * the subscriptions that want it (0 when none wants it: it is kept, and posts nothing).
 */
export function confirmAfterMs(
  subscriptions: readonly SubscriptionFilter[],
  incident: Parameters<typeof subscriptionMatches>[1],
): number {
  const wanting = subscriptions.filter((s) => subscriptionMatches(s, incident));
  if (wanting.length === 0) return 0;
  return Math.min(...wanting.map((s) => Math.max(0, s.minDurationMinutes))) * 60_000;
}

/** The changes of one sweep, in the groups they are applied in: resolves, then confirms and stills, then opens. */
interface SweepChanges {
  resolves: IncidentChange[];
  middle: IncidentChange[];
  opens: IncidentChange[];
}

/** One transport's incident of one kind: at most one is active at a time. */
function slotOf(transportUId: string, kind: IncidentKind): string {
  return `${transportUId}\u0000${kind}`;
}

function resolveChange(
  incident: IncidentRecord,
  nowMs: number,
  reason: ResolveReason,
  endEvidenceMs?: number,
): IncidentChange {
  const change: IncidentChange = {
    type: "resolve",
    id: incident.id,
    at: nowMs,
    reason,
    wasOpen: incident.state === "open",
  };
  if (endEvidenceMs !== undefined) change.endEvidenceMs = endEvidenceMs;
  return change;
}

/**
 * What the transport at resolution says of when the fault ended (pure): a transmission that
 * recovered, the last position sent (by then positions flowed again); a change request, the
 * dates of the one that replaced the failed one; a transport that started, its start; one that
 * ended, its end of transmission. Undefined when its dates tell nothing (an extended validity,
 * a pause, a changed code).
 */
export function endEvidenceOf(
  kind: IncidentKind,
  reason: ResolveReason,
  t: TransportView,
): number | undefined {
  if (reason === "status") return t.endMs;
  if (reason !== "recovered") return undefined;
  switch (kind) {
    case "transmission":
    case "stalled":
      return t.lastTransmissionMs;
    case "changerequest":
      return t.changeRequestAuthorityDateMs ?? t.changeRequestDateMs ?? t.changeRequestCreatedMs;
    case "notstarted":
      return t.statusId === TRANSPORT_STATUS.pending ? undefined : t.startMs;
    case "expiry":
    case "vanished":
      return undefined;
    default:
      return undefined;
  }
}

/**
 * The account's active incidents by slot. Two active ones for one slot cannot come from
 * evaluateSweep; the oldest is kept and the others are resolved as changed (into `resolves`).
 */
function activeIncidents(
  account: string,
  previous: readonly IncidentRecord[],
  nowMs: number,
  resolves: IncidentChange[],
): Map<string, IncidentRecord> {
  // Vehicle incidents are vehicle watch's (vehicleWatch/evaluate.ts): a transport sweep leaves them be.
  const mine = previous.filter(
    (i) => i.state !== "resolved" && i.account === account && !isVehicleKind(i.kind),
  );
  const active = new Map<string, IncidentRecord>();
  for (const incident of mine) {
    const k = slotOf(incident.transportUId, incident.kind);
    const existing = active.get(k);
    if (!existing || existing.firstSeenAt > incident.firstSeenAt) active.set(k, incident);
  }
  for (const incident of mine) {
    if (active.get(slotOf(incident.transportUId, incident.kind)) !== incident) {
      resolves.push(resolveChange(incident, nowMs, "changed"));
    }
  }
  return active;
}

/** What one sweep says about one slot: its active incident (if any) against its condition now (if any). */
function compareSlot(
  account: string,
  t: TransportView,
  kind: IncidentKind,
  incident: IncidentRecord | undefined,
  condition: Condition | undefined,
  nowMs: number,
  subscriptions: readonly SubscriptionFilter[],
  out: SweepChanges,
): void {
  if (incident && !condition) {
    const reason = resolveReasonFor(kind, t);
    out.resolves.push(resolveChange(incident, nowMs, reason, endEvidenceOf(kind, reason, t)));
    return;
  }
  if (!condition) return;
  if (incident && incidentKey(incident) === condition.key) {
    const due =
      incident.state === "pending" && nowMs - incident.firstSeenAt >= confirmAfterMs(subscriptions, incident);
    out.middle.push(
      due
        ? { type: "confirm", id: incident.id, at: nowMs, facts: t }
        : { type: "still", id: incident.id, at: nowMs },
    );
    return;
  }
  // Another occurrence of the same kind (another code or request): the old one ends, a new one opens.
  if (incident) out.resolves.push(resolveChange(incident, nowMs, "changed"));
  const candidate = { kind, code: condition.code, facts: t };
  out.opens.push({
    type: "open",
    account,
    transportUId: t.uId,
    codeUit: t.codeUit,
    kind,
    code: condition.code,
    at: nowMs,
    state: confirmAfterMs(subscriptions, candidate) === 0 ? "open" : "pending",
    facts: t,
  });
}

/**
 * Compares one sweep with the account's active incidents. `previous` may hold resolved
 * incidents too; they are ignored. Changes come in the order they must be applied:
 * resolves first (so a new incident of the same kind never meets an active one), then
 * confirms and stills, then opens.
 */
export function evaluateSweep(
  account: string,
  previous: readonly IncidentRecord[],
  transports: readonly TransportView[],
  nowMs: number,
  settings: SweepSettings,
  subscriptions: readonly SubscriptionFilter[],
): IncidentChange[] {
  const complete = settings.complete ?? true;
  const byUId = new Map<string, TransportView>();
  for (const t of transports) if (!byUId.has(t.uId)) byUId.set(t.uId, t);

  const out: SweepChanges = { resolves: [], middle: [], opens: [] };
  const active = activeIncidents(account, previous, nowMs, out.resolves);
  const seen = new Set<string>();
  for (const t of byUId.values()) {
    const byKind = new Map(conditionsOf(t, nowMs, settings).map((c) => [c.kind, c]));
    for (const kind of TRANSPORT_INCIDENT_KINDS) {
      const k = slotOf(t.uId, kind);
      seen.add(k);
      compareSlot(account, t, kind, active.get(k), byKind.get(kind), nowMs, subscriptions, out);
    }
  }
  // Incidents of transports this sweep did not show stay as they were: a transport no longer
  // listed may be completed, removed, or in Error (which load-transports hides), and only the
  // service can tell (vanishedChanges, after a complete sweep). Never resolved here: a red
  // alert turned ✅ for a transport in Error is the worst message fleetbot could send.
  for (const [k, incident] of active) {
    if (seen.has(k)) continue;
    out.middle.push({ type: "still", id: incident.id, at: incident.lastSeenAt });
  }
  void complete;
  return [...out.resolves, ...out.middle, ...out.opens];
}

/** What the service says of a transport no longer listed among Pending, In Progress and Paused. */
export type VanishedFinding =
  /** Shown Completed or Auto Completed: it ended normally. */
  | "completed"
  /** fleetbot removed it itself (the audit trail). */
  | "removed"
  /** Not shown at all: in Error (hidden), or removed outside fleetbot. */
  | "hidden"
  /** Not checked this sweep (the cap on checks): nothing changes. */
  | "unchecked";

/**
 * The changes for one transport no longer listed: completed or removed resolve every active
 * incident of it; hidden opens a red vanished incident (once; a vanished one already open is
 * seen again) and leaves the others open, never ✅.
 */
export function vanishedChanges(
  account: string,
  transport: TransportView,
  finding: VanishedFinding,
  active: readonly IncidentRecord[],
  nowMs: number,
): IncidentChange[] {
  const mine = active.filter(
    (i) => i.transportUId === transport.uId && i.state !== "resolved" && !isVehicleKind(i.kind),
  );
  if (finding === "unchecked") return [];
  if (finding === "completed" || finding === "removed") {
    return mine.map((i) => resolveChange(i, nowMs, finding));
  }
  const vanished = mine.find((i) => i.kind === "vanished");
  if (vanished) return [{ type: "still", id: vanished.id, at: nowMs }];
  return [
    {
      type: "open",
      account,
      transportUId: transport.uId,
      codeUit: transport.codeUit,
      kind: "vanished",
      code: VANISHED_CODE,
      at: nowMs,
      // No minimum duration: a hidden transport is never a passing flap of a code.
      state: "open",
      facts: transport,
    },
  ];
}

/**
 * A transmission or stalled incident of a transport that left In Progress ended by status; a
 * stall that turned into a bad code (OldData) changed (that code's alert follows); the rest recovered.
 */
function resolveReasonFor(kind: IncidentKind, t: TransportView): ResolveReason {
  if ((kind === "transmission" || kind === "stalled") && t.statusId !== TRANSPORT_STATUS.inProgress)
    return "status";
  const tx = t.transmissionStatusCode;
  if (kind === "stalled" && tx !== undefined && BAD_TX.has(tx)) return "changed";
  return "recovered";
}

/**
 * Applies changes to a list of incidents (the store does the same in SQL). For tests and
 * for callers that keep incidents in memory; `newId` names new incidents.
 */
export function applyIncidentChanges(
  incidents: readonly IncidentRecord[],
  changes: readonly IncidentChange[],
  newId: () => string,
): IncidentRecord[] {
  const byId = new Map(incidents.map((i) => [i.id, { ...i }]));
  for (const change of changes) {
    if (change.type === "open") {
      const id = newId();
      const record: IncidentRecord = {
        id,
        account: change.account,
        transportUId: change.transportUId,
        codeUit: change.codeUit,
        kind: change.kind,
        code: change.code,
        firstSeenAt: change.at,
        state: change.state,
        lastSeenAt: change.at,
        facts: change.facts,
      };
      if (change.state === "open") record.openedAt = change.at;
      byId.set(id, record);
      continue;
    }
    const incident = byId.get(change.id);
    if (!incident || incident.state === "resolved") continue;
    if (change.type === "confirm") {
      incident.state = "open";
      incident.openedAt = change.at;
      incident.lastSeenAt = change.at;
      incident.facts = change.facts;
    } else if (change.type === "still") {
      incident.lastSeenAt = Math.max(incident.lastSeenAt, change.at);
      if (change.facts) incident.facts = change.facts;
    } else {
      incident.state = "resolved";
      incident.resolvedAt = change.at;
      incident.resolveReason = change.reason;
      if (change.endEvidenceMs !== undefined) incident.endEvidenceMs = change.endEvidenceMs;
    }
  }
  return [...byId.values()];
}
