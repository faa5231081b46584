/** What every alert view says of an incident: its dates, status names, title, mark and vehicle. */

import {
  type AdvisedTransmissionCode,
  type ChangeRequestCode,
  type Language,
  messages,
  slackDate,
  type TransmissionCode,
} from "../../../../i18n/index.js";
import {
  CHANGE_REQUEST_STATUS_CODES,
  TRANSMISSION_STATUS_CODES,
  TRANSPORT_STATUS,
  type TransportStatusId,
} from "../../../../platform/fleet/schemas.js";
import { userText } from "../../../../platform/slack/views/text.js";
import type { TransportView } from "../../../etransport/index.js";
import {
  type AlertSeverity,
  alertSeverity,
  cut,
  SEVERITY_MARKS as TRANSPORT_SEVERITY_MARKS,
} from "../../../etransport/index.js";
import { type IncidentRecord, isVehicleKind } from "../../incidents.js";

/** What a view needs of an incident (IncidentRecord has it). */
export type AlertIncident = Pick<
  IncidentRecord,
  "id" | "kind" | "code" | "codeUit" | "firstSeenAt" | "openedAt" | "resolvedAt" | "resolveReason" | "facts"
> &
  // The last check that saw the fault and the service's date of its end bound how long it lasted.
  Partial<Pick<IncidentRecord, "lastSeenAt" | "endEvidenceMs">>;

export interface AlertViewOptions {
  /** Zone of the date fallbacks; readers see date tokens in their own zone. UTC when absent. */
  timeZone?: string;
  /** With it, an expiry alert says "in 7 h". */
  nowMs?: number;
  /**
   * The language of the post: its subscription's, else the workspace's default, else
   * DEFAULT_LANGUAGE, resolved once per post by the publisher.
   */
  language: Language;
}

/** A date token in the post's language (`{date_num}` in Romanian), its fallback in `timeZone`. */
export function alertDate(ms: number, opts: AlertViewOptions): string {
  const options = opts.nowMs === undefined ? {} : { nowMs: opts.nowMs };
  return slackDate(opts.language, ms, opts.timeZone ?? "UTC", options);
}

export const isTransmissionCode = (code: string): code is TransmissionCode =>
  (TRANSMISSION_STATUS_CODES as readonly string[]).includes(code);
export const isChangeRequestCode = (code: string): code is ChangeRequestCode =>
  (CHANGE_REQUEST_STATUS_CODES as readonly string[]).includes(code);
export const isAdvised = (code: TransmissionCode): code is AdvisedTransmissionCode =>
  code !== "Active" && code !== "Finalized";
const STATUS_IDS: readonly number[] = Object.values(TRANSPORT_STATUS);
const isTransportStatusId = (id: number): id is TransportStatusId => STATUS_IDS.includes(id);

/**
 * A status name after the code and a dash ("Error — transmission error"): TrackGPS's table names
 * are capitalised as headings; inside a line they read as the rest of the sentence.
 */
export function lowerFirst(lang: Language, name: string): string {
  return name.charAt(0).toLocaleLowerCase(lang) + name.slice(1);
}

/** A transport status's name in `lang` (an unknown id as the English view says it). */
export function statusName(lang: Language, id: number): string {
  const e = messages(lang).etransport;
  return isTransportStatusId(id) ? e.transportStatus(id) : e.unknownTransportStatus({ id: String(id) });
}

/** Red for a fault, amber for a warning, grey for information: the cards' marks too. */
export const SEVERITY_MARKS: Readonly<Record<AlertSeverity, string>> = TRANSPORT_SEVERITY_MARKS;

/** The title of an alert: a vehicle abroad on an international route is not a problem. */
export function titleOf(incident: Pick<AlertIncident, "kind" | "code" | "facts">, lang: Language): string {
  const m = messages(lang).alerts;
  if (incident.kind === "transmission" && alertSeverity(incident) === "info") return m.titleOutsideRomania();
  return m.title(incident.kind);
}

/**
 * A vehicle alert's severity: red for a power cut under a transport In Progress (its positions
 * are about to stop reaching ANAF), a towed vehicle and a warm reefer (goods or the vehicle at
 * risk now); amber for the rest.
 */
export function vehicleSeverity(incident: Pick<AlertIncident, "kind" | "facts">): AlertSeverity {
  if (incident.kind === "powercut") return incident.facts.vehicle?.transportCodeUit ? "fault" : "warning";
  return incident.kind === "temperature" || incident.kind === "towed" ? "fault" : "warning";
}

/** Any alert's severity: the transport rules (etransport's alertSeverity), or the vehicle ones. */
export function severityOf(incident: Pick<AlertIncident, "kind" | "code" | "facts">): AlertSeverity {
  return isVehicleKind(incident.kind) ? vehicleSeverity(incident) : alertSeverity(incident);
}

export function markOf(incident: Pick<AlertIncident, "kind" | "code" | "facts">): string {
  return SEVERITY_MARKS[severityOf(incident)];
}

export function vehicleText(t: TransportView, lang: Language): string {
  const plate = t.carrierCode ? `*${userText(t.carrierCode, 30)}*` : "";
  const name = t.carrierName && t.carrierName !== t.carrierCode ? userText(t.carrierName, 80) : "";
  return [plate, name].filter((s) => s !== "").join(" · ") || `_${messages(lang).alerts.vehicleNotNamed()}_`;
}

export function vehiclePlain(t: TransportView): string {
  return cut(t.carrierCode ?? t.carrierName ?? "", 30);
}
