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
  }
  return evidence === undefined ? incident.firstSeenAt : Math.min(evidence, incident.firstSeenAt);
}

/** From the fault's start to the poll that saw it recover (0 while it lasts). */
export function faultDurationMs(incident: FaultTimes & Pick<IncidentRecord, "resolvedAt">): number {
  if (incident.resolvedAt === undefined) return 0;
  return Math.max(0, incident.resolvedAt - faultStartedAt(incident));
}
