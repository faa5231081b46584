/**
 * The alerts' records as the store keeps them: incidents, their kinds and states, and how a
 * sweep changes them (src/features/alerts/incidents.ts decides; the stores keep).
 */
import type { TransportView } from "./transportView.js";

export const INCIDENT_KINDS = [
  "transmission",
  "changerequest",
  "expiry",
  "notstarted",
  /** Listed as Pending, In Progress or Paused, then no longer listed, and not completed: maybe in Error, which load-transports hides. */
  "vanished",
  /** In Progress, code still fine, but no position sent to the platform for the subscription's `stale=` minutes. */
  "stalled",
] as const;
export type IncidentKind = (typeof INCIDENT_KINDS)[number];
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
  transportUId: string;
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
  /** The transport when the incident was seen first (refreshed when confirmed). */
  facts: TransportView;
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
  | {
      type: "resolve";
      id: string;
      at: number;
      reason: ResolveReason;
      wasOpen: boolean;
      /** The service's date for the fault's end (endEvidenceOf), when the transport gives one. */
      endEvidenceMs?: number;
    }
  | { type: "still"; id: string; at: number };
