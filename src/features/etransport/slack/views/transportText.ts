import { messages } from "../../../../i18n/catalogue.js";
import type {
  AdvisedTransmissionCode,
  ChangeRequestCode,
  TransmissionCode,
} from "../../../../i18n/en/etransport.js";
import { dateTime, slackDate } from "../../../../i18n/format.js";
import type { Language } from "../../../../i18n/language.js";
import {
  CHANGE_REQUEST_STATUS_CODES,
  TRANSMISSION_STATUS_CODES,
  TRANSPORT_STATUS,
  type TransportStatusId,
} from "../../../../platform/fleet/schemas.js";
import { isTimeZone } from "../../../../platform/time/zone.js";

/** Small text helpers of the e-Transport views (pure). */

export { cut } from "../../../../platform/slack/views/text.js";

// ---------- codes of fleet-api.md's tables → the catalogue ----------

export const isTransmissionCode = (code: string): code is TransmissionCode =>
  (TRANSMISSION_STATUS_CODES as readonly string[]).includes(code);
export const isChangeRequestCode = (code: string): code is ChangeRequestCode =>
  (CHANGE_REQUEST_STATUS_CODES as readonly string[]).includes(code);
export const isAdvisedTransmission = (code: TransmissionCode): code is AdvisedTransmissionCode =>
  code !== "Active" && code !== "Finalized";
const STATUS_IDS: readonly number[] = Object.values(TRANSPORT_STATUS);
export const isTransportStatusId = (id: number): id is TransportStatusId => STATUS_IDS.includes(id);

/** A transport status's name in `language` ("In Progress", "În desfășurare"; an unknown id named). */
export function transportStatusText(language: Language, id: number): string {
  const m = messages(language).etransport;
  return isTransportStatusId(id) ? m.transportStatus(id) : m.unknownTransportStatus({ id: String(id) });
}

/** A table name inside a sentence ("Request created" → "request created"). */
export function lowerFirst(language: Language, name: string): string {
  return name.charAt(0).toLocaleLowerCase(language) + name.slice(1);
}

/** Defined with the UIT rules (src/features/etransport/uit.ts): the domain writes UITs too. */
export { formatUit } from "../../../../platform/fleet/uit.js";

/** `zone` when the runtime knows it, else UTC (a zone from a stored task is not re-checked elsewhere). */
export function zoneOrUtc(zone: string | undefined): string {
  return zone && isTimeZone(zone) ? zone : "UTC";
}

/**
 * A Slack date token (each reader sees their own zone) with a fallback in `timeZone` (UTC when
 * absent), in `language`: format.ts's `slackDate` (numeric tokens in Romanian).
 */
export function dateToken(ms: number, timeZone: string | undefined, language: Language): string {
  return slackDate(language, ms, zoneOrUtc(timeZone));
}

/** The one date-and-time form as plain text ("Tue 24 Nov, 14:05"), in `timeZone` (UTC when absent or unknown). */
export function dateText(
  ms: number,
  timeZone: string | undefined,
  language: Language,
  nowMs?: number,
): string {
  return dateTime(language, ms, zoneOrUtc(timeZone), nowMs === undefined ? {} : { nowMs });
}

/**
 * One mark per severity wherever a transport shows (alert, card, list): red for a fault, amber
 * for a warning, grey for information.
 */
export const SEVERITY_MARKS = { fault: "🔴", warning: "🟠", info: "⚪" } as const;

/** A safe fragment for block ids: letters, digits, dashes (at most 80 characters). */
export function idPart(text: string): string {
  return text.replace(/[^A-Za-z0-9-]/g, "_").slice(0, 80) || "_";
}

import { blocksText } from "../../../../platform/slack/views/message.js";

export { blocksText };
