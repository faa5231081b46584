import { z } from "zod";
import type { Transport } from "../../fleet/schemas.js";

/**
 * A transport as fleetbot keeps it between fetching and rendering: JSON-safe (every instant
 * is epoch milliseconds, absent fields are left out), so task results can be stored as JSON
 * and rendered later by the views.
 */
export interface TransportView {
  /** Transport id (GUID) — what update/remove need. */
  uId: string;
  codeUit: string;
  statusId: number;
  /** Vehicle id (GUID). */
  carrierUId?: string;
  /** Vehicle registration number sent to the platform. */
  carrierCode?: string;
  /** Vehicle name. */
  carrierName?: string;
  trailer1Code?: string;
  trailer2Code?: string;
  /** Start / end of GPS transmission. */
  startMs?: number;
  endMs?: number;
  validityStartMs?: number;
  validityEndMs?: number;
  notes?: string;
  startLocation?: string;
  endLocation?: string;
  externalId?: number;
  externalResponse?: string;
  lastSyncMs?: number;
  transmissionStatusCode?: string;
  transmissionStatusErrorDescription?: string;
  lastTransmissionMs?: number;
  lastGpsMs?: number;
  changeRequestMessage?: string;
  changeRequestStatusCode?: string;
  changeRequestCreatedMs?: number;
  changeRequestDateMs?: number;
  changeRequestAuthorityStatus?: string;
  changeRequestAuthorityMessage?: string;
  changeRequestAuthorityDateMs?: number;
}

/** Drops undefined members so the object round-trips through JSON unchanged. */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

const optString = z.string().optional();
const optMs = z.number().finite().optional();

const transportViewSchema = z.object({
  uId: z.string(),
  codeUit: z.string(),
  statusId: z.number().int(),
  carrierUId: optString,
  carrierCode: optString,
  carrierName: optString,
  trailer1Code: optString,
  trailer2Code: optString,
  startMs: optMs,
  endMs: optMs,
  validityStartMs: optMs,
  validityEndMs: optMs,
  notes: optString,
  startLocation: optString,
  endLocation: optString,
  externalId: optMs,
  externalResponse: optString,
  lastSyncMs: optMs,
  transmissionStatusCode: optString,
  transmissionStatusErrorDescription: optString,
  lastTransmissionMs: optMs,
  lastGpsMs: optMs,
  changeRequestMessage: optString,
  changeRequestStatusCode: optString,
  changeRequestCreatedMs: optMs,
  changeRequestDateMs: optMs,
  changeRequestAuthorityStatus: optString,
  changeRequestAuthorityMessage: optString,
  changeRequestAuthorityDateMs: optMs,
});

/** Reads a TransportView back from stored JSON; undefined when the value is not one. */
export function parseTransportView(value: unknown): TransportView | undefined {
  const parsed = transportViewSchema.safeParse(value);
  return parsed.success ? compact(parsed.data as TransportView) : undefined;
}

function ms(date: Date | undefined): number | undefined {
  if (!date) return undefined;
  const t = date.getTime();
  return Number.isFinite(t) ? t : undefined;
}

function text(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

/** The fleet client's Transport (real Date instants) as a JSON-safe TransportView. */
export function toTransportView(t: Transport): TransportView {
  return compact<TransportView>({
    uId: t.uId,
    codeUit: t.codeUit,
    statusId: t.statusId,
    carrierUId: text(t.carrierUId),
    carrierCode: text(t.carrierCode),
    carrierName: text(t.carrierName),
    trailer1Code: text(t.trailer1Code),
    trailer2Code: text(t.trailer2Code),
    startMs: ms(t.startDate),
    endMs: ms(t.endDate),
    validityStartMs: ms(t.validityStartDate),
    validityEndMs: ms(t.validityEndDate),
    notes: text(t.notes),
    startLocation: text(t.startLocation),
    endLocation: text(t.endLocation),
    externalId: t.externalId,
    externalResponse: text(t.externalResponse),
    lastSyncMs: ms(t.lastSyncDate),
    transmissionStatusCode: text(t.transmissionStatusCode),
    transmissionStatusErrorDescription: text(t.transmissionStatusErrorDescription),
    lastTransmissionMs: ms(t.lastTransmissionDate),
    lastGpsMs: ms(t.lastGpsDate),
    changeRequestMessage: text(t.changeRequestMessage),
    changeRequestStatusCode: text(t.changeRequestStatusCode),
    changeRequestCreatedMs: ms(t.changeRequestCreatedAt),
    changeRequestDateMs: ms(t.changeRequestDate),
    changeRequestAuthorityStatus: text(t.changeRequestAuthorityStatus),
    changeRequestAuthorityMessage: text(t.changeRequestAuthorityMessage),
    changeRequestAuthorityDateMs: ms(t.changeRequestAuthorityDate),
  });
}
