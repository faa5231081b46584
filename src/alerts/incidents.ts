import type { TransportView } from "../etransport/types.js";
import { TRANSPORT_STATUS } from "../fleet/schemas.js";

/**
 * Transport incidents (pure). An alert is an incident, not a message per poll: each sweep
 * of load-transports is compared with the stored incidents of the account, and the result
 * is a list of changes (open, confirm, resolve, still) that the poller stores before any
 * post. At most one incident per (transport, kind) is active (pending or open) at a time.
 */

export const INCIDENT_KINDS = ["transmission", "changerequest", "expiry", "notstarted"] as const;
export type IncidentKind = (typeof INCIDENT_KINDS)[number];
export type IncidentState = "pending" | "open" | "resolved";

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

/** Every word a subscription filter accepts: the codes above and the kind names. */
export const ALERT_FILTER_WORDS: readonly string[] = [
  ...BAD_TRANSMISSION_CODES,
  ...BAD_CHANGE_REQUEST_CODES,
  EXPIRY_CODE,
  NOT_STARTED_CODE,
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

/** Why an incident ended. */
export type ResolveReason =
  /** The condition ended (transmission Active again, change request no longer failed, validity extended, started). */
  | "recovered"
  /** The same kind of problem continues with another code or another request: a new incident follows. */
  | "changed"
  /** The transport left In Progress (paused) or changed status so the condition no longer applies. */
  | "status"
  /** The transport is no longer listed (ended, auto completed, removed). */
  | "gone";

export interface IncidentRecord {
  id: string;
  account: string;
  transportUId: string;
  codeUit: string;
  kind: IncidentKind;
  code: string;
  firstSeenAt: number;
  /** When it was confirmed (reached the minimum duration); undefined while pending or when never confirmed. */
  openedAt?: number;
  resolvedAt?: number;
  resolveReason?: ResolveReason;
  state: IncidentState;
  lastSeenAt: number;
  /** The transport when the incident was seen first (refreshed when confirmed). */
  facts: TransportView;
}

/** What evaluateSweep needs of a subscription. */
export interface SubscriptionFilter {
  /** Codes or kind names to alert on; empty = every kind and code. */
  codes: readonly string[];
  /** Codes or kind names never to alert on. */
  excludeCodes: readonly string[];
  /** Plates or vehicle ids (carrierUId); empty = every vehicle. */
  vehicles: readonly string[];
  minDurationMinutes: number;
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

export type IncidentChange =
  | {
      type: "open";
      account: string;
      transportUId: string;
      codeUit: string;
      kind: IncidentKind;
      code: string;
      at: number;
      /** "open" when no minimum duration applies, else "pending". */
      state: "pending" | "open";
      facts: TransportView;
    }
  | { type: "confirm"; id: string; at: number; facts: TransportView }
  | { type: "resolve"; id: string; at: number; reason: ResolveReason; wasOpen: boolean }
  | { type: "still"; id: string; at: number };

const normPlate = (s: string) => s.replace(/[\s-]/g, "").toUpperCase();

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
  return out;
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
  }
}

/** Whether a subscription wants an incident of this kind and code on this transport. */
export function subscriptionMatches(
  sub: SubscriptionFilter,
  incident: { kind: IncidentKind; code: string; facts: Pick<TransportView, "carrierCode" | "carrierUId"> },
): boolean {
  const words = new Set([incident.kind.toLowerCase(), incident.code.toLowerCase()]);
  const hit = (list: readonly string[]) => list.some((w) => words.has(w.toLowerCase()));
  if (sub.codes.length > 0 && !hit(sub.codes)) return false;
  if (hit(sub.excludeCodes)) return false;
  if (sub.vehicles.length > 0) {
    const plate = incident.facts.carrierCode ? normPlate(incident.facts.carrierCode) : undefined;
    const id = incident.facts.carrierUId?.toLowerCase();
    const wanted = sub.vehicles.some((v) => normPlate(v) === plate || v.toLowerCase() === id);
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

function resolveChange(incident: IncidentRecord, nowMs: number, reason: ResolveReason): IncidentChange {
  return { type: "resolve", id: incident.id, at: nowMs, reason, wasOpen: incident.state === "open" };
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
  const mine = previous.filter((i) => i.state !== "resolved" && i.account === account);
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
    out.resolves.push(resolveChange(incident, nowMs, resolveReasonFor(kind, t)));
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
    for (const kind of INCIDENT_KINDS) {
      const k = slotOf(t.uId, kind);
      seen.add(k);
      compareSlot(account, t, kind, active.get(k), byKind.get(kind), nowMs, subscriptions, out);
    }
  }
  // Incidents of transports this sweep did not show: gone when it read every page; otherwise
  // (a partial sweep) they stay as they were.
  for (const [k, incident] of active) {
    if (seen.has(k)) continue;
    if (complete) out.resolves.push(resolveChange(incident, nowMs, "gone"));
    else out.middle.push({ type: "still", id: incident.id, at: incident.lastSeenAt });
  }
  return [...out.resolves, ...out.middle, ...out.opens];
}

/** A transmission incident of a transport that left In Progress ended by status; the rest recovered. */
function resolveReasonFor(kind: IncidentKind, t: TransportView): ResolveReason {
  return kind === "transmission" && t.statusId !== TRANSPORT_STATUS.inProgress ? "status" : "recovered";
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
    } else {
      incident.state = "resolved";
      incident.resolvedAt = change.at;
      incident.resolveReason = change.reason;
    }
  }
  return [...byId.values()];
}
