import { type IncidentRecord, stalledSinceMs } from "./incidents.js";

/** What faultStartedAt needs of an incident (IncidentRecord has it). */
export type FaultTimes = Pick<IncidentRecord, "kind" | "firstSeenAt" | "facts">;

/**
 * When the fault began, as far as the service's own dates tell (pure). A poll sees a fault
 * only at its first run after the fault began (at a fresh start, possibly hours later), so
 * the duration counts from the service's evidence when it is earlier than that poll:
 * - transmission: the last time positions reached the platform (nothing was sent since);
 * - change request: when the failed answer came back;
 * - not started: the planned transmission start.
 * An expiry warning has no earlier evidence: it starts when fleetbot first saw it. A date
 * later than the first observation (a clock skew, a refreshed record) never moves it later.
 */
export function faultStartedAt(incident: FaultTimes): number {
  const t = incident.facts;
  let evidence: number | undefined;
  switch (incident.kind) {
    case "transmission":
      evidence = t.lastTransmissionMs;
      break;
    case "changerequest":
      evidence = t.changeRequestAuthorityDateMs ?? t.changeRequestDateMs ?? t.changeRequestCreatedMs;
      break;
    case "notstarted":
      evidence = t.startMs;
      break;
    case "stalled":
      // The older of the last position sent and the last received (stalledSinceMs).
      evidence = stalledSinceMs(t);
      break;
    case "expiry":
    case "vanished":
      // Nothing tells when a transport went into Error: from the sweep that missed it.
      evidence = undefined;
      break;
    default:
      // A vehicle kind: since when its evidence shows the condition (the idling's start, the
      // position's time, the first reading out of band).
      evidence = t.vehicle?.sinceMs;
  }
  return evidence === undefined ? incident.firstSeenAt : Math.min(evidence, incident.firstSeenAt);
}

/** What faultEnd needs of a resolved incident. */
export type FaultEndTimes = FaultTimes &
  Pick<IncidentRecord, "resolvedAt" | "resolveReason"> &
  Partial<Pick<IncidentRecord, "lastSeenAt" | "endEvidenceMs">>;

/**
 * When the fault ended (pure). A check sees a recovery only at its first run after it, so
 * the checks bound the end: after the last one that still saw the fault (lastSeenAt), no
 * later than the one that saw it gone (resolvedAt). The service's own date, read at
 * resolution (endEvidenceOf), narrows that where it falls between the two:
 * - a start, an end of transmission, a change request's answer: the end itself;
 * - a transmission or stall that recovered: the last position sent, by which positions flowed
 *   again (the latest the end can be; a position sent every minute or two says little more).
 * Undefined while the incident lasts.
 */
export function faultEnd(incident: FaultEndTimes): { earliestMs: number; latestMs: number } | undefined {
  const checked = incident.resolvedAt;
  if (checked === undefined) return undefined;
  // Without the last sighting (a caller that lacks it) only the resolving check is known.
  const stillSeen = Math.min(incident.lastSeenAt ?? checked, checked);
  const evidence = incident.endEvidenceMs;
  if (evidence === undefined || evidence <= stillSeen || evidence > checked) {
    return { earliestMs: stillSeen, latestMs: checked };
  }
  const recoveredFlow =
    incident.resolveReason === "recovered" &&
    (incident.kind === "transmission" || incident.kind === "stalled");
  return recoveredFlow
    ? { earliestMs: stillSeen, latestMs: evidence }
    : { earliestMs: evidence, latestMs: evidence };
}

/**
 * How long the fault lasted, from its start (faultStartedAt) to its end (faultEnd): one figure
 * when the end is known, else the shortest and longest the checks allow. 0 while it lasts.
 */
export function faultDurationSpan(incident: FaultEndTimes): { shortestMs: number; longestMs: number } {
  const end = faultEnd(incident);
  if (end === undefined) return { shortestMs: 0, longestMs: 0 };
  const start = faultStartedAt(incident);
  return { shortestMs: Math.max(0, end.earliestMs - start), longestMs: Math.max(0, end.latestMs - start) };
}

/** The longest the fault may have lasted (faultDurationSpan); 0 while it lasts. */
export function faultDurationMs(incident: FaultEndTimes): number {
  return faultDurationSpan(incident).longestMs;
}
