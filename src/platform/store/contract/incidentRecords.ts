/**
 * The alerts' records as the store keeps them: incidents, their kinds and states, and how a
 * sweep changes them (src/features/alerts/incidents.ts decides; the stores keep).
 */
import type { IncidentFacts } from "./vehicleFacts.js";

/** Kinds about a transport: its subject is the transport (transportUId is its uId, codeUit its UIT). */
export const TRANSPORT_INCIDENT_KINDS = [
  "transmission",
  "changerequest",
  "expiry",
  "notstarted",
  /** Listed as Pending, In Progress or Paused, then no longer listed, and not completed: maybe in Error, which load-transports hides. */
  "vanished",
  /** In Progress, code still fine, but no position sent to the platform for the subscription's `stale=` minutes. */
  "stalled",
] as const;
/**
 * Kinds about a vehicle itself (vehicle watch, opt-in): the subject is a vehicle under one watch
 * (transportUId is `vehicle:<vehicleId>|<watch key>`, codeUit the plate), and `facts.vehicle` holds
 * the evidence. src/features/alerts/vehicleWatch/ decides them.
 */
export const VEHICLE_INCIDENT_KINDS = [
  "powercut",
  "zone",
  "idle",
  "speeding",
  "offline",
  "towed",
  "afterhours",
  "temperature",
] as const;
export const INCIDENT_KINDS = [...TRANSPORT_INCIDENT_KINDS, ...VEHICLE_INCIDENT_KINDS] as const;
export type IncidentKind = (typeof INCIDENT_KINDS)[number];
export type TransportIncidentKind = (typeof TRANSPORT_INCIDENT_KINDS)[number];
export type VehicleIncidentKind = (typeof VEHICLE_INCIDENT_KINDS)[number];

const VEHICLE_KIND_SET: ReadonlySet<string> = new Set(VEHICLE_INCIDENT_KINDS);
/** Whether an incident kind is about a vehicle (its subject is not a transport). */
export function isVehicleKind(kind: string): kind is VehicleIncidentKind {
  return VEHICLE_KIND_SET.has(kind);
}
export type IncidentState = "pending" | "open" | "resolved";

/** A subscription's `stale=` when it names none: TrackGPS advises telling ANAF after 30 minutes. */
export const DEFAULT_STALE_MINUTES = 30;
/**
 * The list `alerts subscribe` stored for "every code" before it stored no filter: read as no
 * filter, so subscriptions made then get the kinds added since (Vanished, Stalled, NotStarted).
 */
const LEGACY_EVERY_CODE = [
  "Error",
  "OldData",
  "NoGPSCoordinates",
  "NotInRomania",
  "MissingETransportConfiguration",
  "WithoutTransmission",
  "expiry",
  "changerequest",
].join("\u0000");

/** A stored subscription's codes, the old "every code" list read as no filter. */
export function storedAlertCodes(codes: string[]): string[] {
  return codes.join("\u0000") === LEGACY_EVERY_CODE ? [] : codes;
}

/** Why an incident ended. */
export type ResolveReason =
  /** The condition ended (transmission Active again, change request no longer failed, validity extended, started). */
  | "recovered"
  /** The same kind of problem continues with another code or another request: a new incident follows. */
  | "changed"
  /** The transport left In Progress (paused) or changed status so the condition no longer applies. */
  | "status"
  /** The transport is no longer listed (ended, auto completed, removed). */
  | "gone"
  /** No longer listed, and the service shows it Completed or Auto Completed. */
  | "completed"
  /** No longer listed because fleetbot removed it (the audit trail says so). */
  | "removed";

export interface IncidentRecord {
  id: string;
  account: string;
  /** The subject: a transport's uId, or `vehicle:<vehicleId>|<watch key>` for a vehicle kind. */
  transportUId: string;
  /** The transport's UIT, or the vehicle's plate for a vehicle kind (mutes are by this). */
  codeUit: string;
  kind: IncidentKind;
  code: string;
  firstSeenAt: number;
  /** When it was confirmed (reached the minimum duration); undefined while pending or when never confirmed. */
  openedAt?: number;
  resolvedAt?: number;
  resolveReason?: ResolveReason;
  /**
   * The service's own date for the fault's end, read from the transport at resolution (see
   * endEvidenceOf; duration.ts faultEnd says how far it is trusted). Absent when it gives none.
   */
  endEvidenceMs?: number;
  state: IncidentState;
  lastSeenAt: number;
  /**
   * The transport when the incident was seen first (refreshed when confirmed, and by a `still`
   * that carries facts); for a vehicle kind, the vehicle's evidence in `facts.vehicle`.
   */
  facts: IncidentFacts;
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
      facts: IncidentFacts;
    }
  | { type: "confirm"; id: string; at: number; facts: IncidentFacts }
  | {
      type: "resolve";
      id: string;
      at: number;
      reason: ResolveReason;
      wasOpen: boolean;
      /** The service's date for the fault's end (endEvidenceOf), when the transport gives one. */
      endEvidenceMs?: number;
    }
  /** Still there; `facts`, when given, replace the stored ones (a vehicle incident's peak speed, its latest evidence). */
  | { type: "still"; id: string; at: number; facts?: IncidentFacts };
