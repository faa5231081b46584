import type { AddTransportParams, UpdateTransportParams } from "../fleet/client.js";
import { INPUTS } from "../slack/actionIds.js";
import { EXAMPLE_UIT, normaliseUit, UIT_LENGTH } from "../slack/grammar/uit.js";
import { EXAMPLE_PLATE, isPlausiblePlate, normalisePlate } from "./plates.js";
import { checkVatNumber } from "./vat.js";

/**
 * Validation of the create/edit transport modal (pure). Errors are keyed by the input
 * block ids (INPUTS.*.block) so a listener can ack `{response_action: "errors", errors}`
 * as it is; warnings (legal spans, dates far ahead or past) never block.
 */

export type TransportFormMode = "create" | "edit";

/** Raw modal values: texts, the selected option's value, date-time pickers as unix seconds. */
export interface TransportFormInput {
  vehicleUId?: string | null;
  /** Create only; ignored in edit mode (the UIT of a transport cannot change). */
  uit?: string | null;
  vat?: string | null;
  validityStart?: number | string | null;
  validityEnd?: number | string | null;
  transmissionStart?: number | string | null;
  transmissionEnd?: number | string | null;
  startLocation?: string | null;
  endLocation?: string | null;
  trailer1?: string | null;
  trailer2?: string | null;
  notes?: string | null;
}

export interface TransportFormContext {
  mode: TransportFormMode;
  nowMs: number;
  /** Zone for dates inside messages (the submitting user's); UTC when absent. */
  timeZone?: string;
  /** Plate of the chosen vehicle when known: a trailer may not carry the same plate. */
  vehiclePlate?: string;
}

/** A validated transport, ready for add/update-transport. Instants are epoch ms. */
export interface TransportDraft {
  vehicleUId: string;
  /** The normalised UIT (16 upper-case letters and digits); set in create mode only. */
  codeUit?: string;
  /** Normalised VAT number: upper-case, no spaces (RO prefix kept as written). */
  vatNumber: string;
  validityStartMs: number;
  validityEndMs: number;
  transmissionStartMs?: number;
  transmissionEndMs?: number;
  startLocation?: string;
  endLocation?: string;
  /** Upper-case, no spaces or dashes. */
  trailer1Code?: string;
  trailer2Code?: string;
  notes?: string;
}

export interface CreateTransportDraft extends TransportDraft {
  codeUit: string;
}

export type TransportFormResult<D extends TransportDraft = TransportDraft> =
  | { ok: true; value: D; warnings: string[] }
  | { ok: false; errors: Record<string, string> };

export const NOTES_MAX_LENGTH = 500;
export const LOCATION_MAX_LENGTH = 200;

const DAY_MS = 86_400_000;
/** Legal UIT validity spans (etransport-notes.md). */
export const HIGH_RISK_VALIDITY_DAYS = 5;
export const MAX_VALIDITY_DAYS = 15;
/** A UIT may be requested up to 3 days before the transport. */
export const MAX_DAYS_AHEAD = 3;
/** Picking "now" in a minute-precision picker lands up to a few minutes in the past. */
const PAST_GRACE_MS = 10 * 60_000;

export function validateTransportForm(
  input: TransportFormInput,
  ctx: TransportFormContext & { mode: "create" },
): TransportFormResult<CreateTransportDraft>;
export function validateTransportForm(
  input: TransportFormInput,
  ctx: TransportFormContext,
): TransportFormResult<TransportDraft>;
export function validateTransportForm(
  input: TransportFormInput,
  ctx: TransportFormContext,
): TransportFormResult<TransportDraft> {
  const errors: Record<string, string> = {};
  const warnings: string[] = [];
  const when = (ms: number): string => formatInstant(ms, ctx.timeZone);

  // vehicle
  const vehicleUId = clean(input.vehicleUId);
  if (vehicleUId === undefined) {
    errors[INPUTS.transportVehicle.block] = "Choose the vehicle: type part of its plate or name, e.g. B 123.";
  }

  // UIT
  let codeUit: string | undefined;
  if (ctx.mode === "create") {
    const raw = clean(input.uit);
    codeUit = raw === undefined ? undefined : normaliseUit(raw);
    if (raw === undefined) {
      errors[INPUTS.transportUit.block] =
        `Enter the UIT issued by the e-Transport platform, e.g. ${EXAMPLE_UIT}.`;
    } else if (codeUit === undefined) {
      const joined = raw.replace(/[\s\-–—_]/g, "");
      errors[INPUTS.transportUit.block] = /^[A-Za-z0-9]*$/.test(joined)
        ? `A UIT has ${UIT_LENGTH} letters and digits; this has ${joined.length}. Example: ${EXAMPLE_UIT}.`
        : `A UIT has only letters and digits (dashes and spaces are ignored), e.g. ${EXAMPLE_UIT}.`;
    }
  }

  // VAT
  let vatNumber: string | undefined;
  const vat = checkVatNumber(clean(input.vat) ?? "");
  if (vat.ok) vatNumber = vat.vat;
  else errors[INPUTS.transportVat.block] = vat.message;

  // validity window
  const validityStart = instant(input.validityStart);
  const validityEnd = instant(input.validityEnd);
  if (validityStart === "missing") {
    errors[INPUTS.transportValidityStart.block] =
      "Pick the start of the UIT validity, as issued with the UIT.";
  } else if (validityStart === "invalid") {
    errors[INPUTS.transportValidityStart.block] = "Not a date and time: pick one, e.g. today 08:00.";
  }
  if (validityEnd === "missing") {
    errors[INPUTS.transportValidityEnd.block] = "Pick the end of the UIT validity, as issued with the UIT.";
  } else if (validityEnd === "invalid") {
    errors[INPUTS.transportValidityEnd.block] = "Not a date and time: pick one, e.g. 5 days after the start.";
  }
  const windowKnown = typeof validityStart === "number" && typeof validityEnd === "number";
  if (windowKnown && validityEnd <= validityStart) {
    errors[INPUTS.transportValidityEnd.block] =
      `The validity must end after it starts (${when(validityStart)}), e.g. ${when(validityStart + HIGH_RISK_VALIDITY_DAYS * DAY_MS)}.`;
  } else if (windowKnown && ctx.mode === "create" && validityEnd < ctx.nowMs) {
    errors[INPUTS.transportValidityEnd.block] =
      `This UIT expired on ${when(validityEnd)}: an expired UIT cannot be used. Request a new UIT.`;
  }

  // transmission window: optional, inside the validity window
  const transmissionStart = instant(input.transmissionStart);
  const transmissionEnd = instant(input.transmissionEnd);
  if (transmissionStart === "invalid") {
    errors[INPUTS.transportStart.block] = "Not a date and time: pick one, or leave it empty.";
  }
  if (transmissionEnd === "invalid") {
    errors[INPUTS.transportEnd.block] = "Not a date and time: pick one, or leave it empty.";
  }
  if (windowKnown && validityEnd > validityStart) {
    const inside = (ms: number, what: string): string | undefined => {
      if (ms < validityStart)
        return `${what} must be within the UIT validity: on or after ${when(validityStart)}.`;
      if (ms > validityEnd) return `${what} must be within the UIT validity: by ${when(validityEnd)}.`;
      return undefined;
    };
    if (typeof transmissionStart === "number") {
      const problem = inside(transmissionStart, "The transmission start");
      if (problem) errors[INPUTS.transportStart.block] = problem;
    }
    if (typeof transmissionEnd === "number") {
      const problem = inside(transmissionEnd, "The transmission end");
      if (problem) errors[INPUTS.transportEnd.block] = problem;
    }
  }
  if (
    typeof transmissionStart === "number" &&
    typeof transmissionEnd === "number" &&
    transmissionEnd <= transmissionStart &&
    errors[INPUTS.transportEnd.block] === undefined
  ) {
    errors[INPUTS.transportEnd.block] =
      `The transmission must end after it starts (${when(transmissionStart)}), or leave the end empty.`;
  }

  // locations and notes
  const startLocation = squeezed(input.startLocation);
  const endLocation = squeezed(input.endLocation);
  const notes = clean(input.notes);
  const tooLong = (value: string | undefined, max: number, block: string, what: string): void => {
    if (value !== undefined && value.length > max) {
      errors[block] = `${what} ${value.length} characters; at most ${max}. Shorten it.`;
    }
  };
  tooLong(startLocation, LOCATION_MAX_LENGTH, INPUTS.transportStartLocation.block, "The start location has");
  tooLong(endLocation, LOCATION_MAX_LENGTH, INPUTS.transportEndLocation.block, "The end location has");
  tooLong(notes, NOTES_MAX_LENGTH, INPUTS.transportNotes.block, "The notes have");

  // trailers
  const vehiclePlate = ctx.vehiclePlate ? normalisePlate(ctx.vehiclePlate) : undefined;
  const trailer = (raw: string | null | undefined, block: string, name: string): string | undefined => {
    const text = clean(raw);
    if (text === undefined) return undefined;
    const plate = normalisePlate(text);
    if (!isPlausiblePlate(plate)) {
      errors[block] =
        `${name}: “${text.slice(0, 20)}” is not a plate. Use 2–10 letters and digits, e.g. ${EXAMPLE_PLATE}.`;
    } else if (vehiclePlate !== undefined && plate === vehiclePlate) {
      errors[block] =
        `${name} has the vehicle's own plate. Enter the trailer's plate, e.g. ${EXAMPLE_PLATE}.`;
    }
    return plate;
  };
  const trailer1Code = trailer(input.trailer1, INPUTS.transportTrailer1.block, "Trailer 1");
  const trailer2Code = trailer(input.trailer2, INPUTS.transportTrailer2.block, "Trailer 2");
  if (
    trailer1Code !== undefined &&
    trailer1Code === trailer2Code &&
    errors[INPUTS.transportTrailer2.block] === undefined
  ) {
    errors[INPUTS.transportTrailer2.block] =
      "Trailer 2 has the same plate as trailer 1. Leave it empty when there is one trailer.";
  }

  if (Object.keys(errors).length > 0) return { ok: false, errors };

  // Everything below is known valid.
  const start = validityStart as number;
  const end = validityEnd as number;
  const span = end - start;
  if (span > MAX_VALIDITY_DAYS * DAY_MS) {
    warnings.push(
      `The UIT validity is ${formatSpan(span)} long: more than the legal ${MAX_VALIDITY_DAYS} days. Check the dates on the UIT.`,
    );
  } else if (span > HIGH_RISK_VALIDITY_DAYS * DAY_MS) {
    warnings.push(
      `The UIT validity is ${formatSpan(span)} long: over ${HIGH_RISK_VALIDITY_DAYS} days is legal only for intra-community and other operations, not for national transport of high-fiscal-risk goods.`,
    );
  }
  if (start - ctx.nowMs > MAX_DAYS_AHEAD * DAY_MS) {
    warnings.push(
      `The validity starts in ${formatSpan(start - ctx.nowMs)} (${when(start)}): a UIT may be requested at most ${MAX_DAYS_AHEAD} days before the transport. Check the start date.`,
    );
  }
  if (ctx.mode === "create" && start < ctx.nowMs - PAST_GRACE_MS) {
    warnings.push(
      `The validity start (${when(start)}) is in the past. Check it is the start declared on the UIT.`,
    );
  }
  if (ctx.mode === "edit" && end < ctx.nowMs) {
    warnings.push(`The UIT validity ended on ${when(end)}: an expired UIT may not be used.`);
  }

  const value: TransportDraft = {
    vehicleUId: vehicleUId as string,
    vatNumber: vatNumber as string,
    validityStartMs: start,
    validityEndMs: end,
  };
  if (codeUit !== undefined) value.codeUit = codeUit;
  if (typeof transmissionStart === "number") value.transmissionStartMs = transmissionStart;
  if (typeof transmissionEnd === "number") value.transmissionEndMs = transmissionEnd;
  if (startLocation !== undefined) value.startLocation = startLocation;
  if (endLocation !== undefined) value.endLocation = endLocation;
  if (trailer1Code !== undefined) value.trailer1Code = trailer1Code;
  if (trailer2Code !== undefined) value.trailer2Code = trailer2Code;
  if (notes !== undefined) value.notes = notes;
  return { ok: true, value, warnings };
}

/** add-transport parameters (Dates for instants). Throws when the draft has no UIT (an edit draft). */
export function toAddTransportParams(draft: TransportDraft): AddTransportParams {
  if (draft.codeUit === undefined)
    throw new TypeError("toAddTransportParams: the draft has no UIT (edit draft?)");
  return { ...fields(draft), codeUit: draft.codeUit };
}

/**
 * update-transport parameters. update-transport replaces the whole transport: optional
 * fields absent from the draft are cleared, so the edit modal is prefilled with all of them.
 */
export function toUpdateTransportParams(draft: TransportDraft, transportUId: string): UpdateTransportParams {
  return { ...fields(draft), transportUId };
}

function fields(draft: TransportDraft): Omit<AddTransportParams, "codeUit"> {
  const params: Omit<AddTransportParams, "codeUit"> = {
    vehicleUId: draft.vehicleUId,
    vatNumber: draft.vatNumber,
    validityStart: new Date(draft.validityStartMs),
    validityEnd: new Date(draft.validityEndMs),
  };
  if (draft.transmissionStartMs !== undefined) params.start = new Date(draft.transmissionStartMs);
  if (draft.transmissionEndMs !== undefined) params.end = new Date(draft.transmissionEndMs);
  if (draft.notes !== undefined) params.notes = draft.notes;
  if (draft.startLocation !== undefined) params.startLocation = draft.startLocation;
  if (draft.endLocation !== undefined) params.endLocation = draft.endLocation;
  if (draft.trailer1Code !== undefined) params.trailer1Code = draft.trailer1Code;
  if (draft.trailer2Code !== undefined) params.trailer2Code = draft.trailer2Code;
  return params;
}

// ---------- helpers ----------

function clean(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

function squeezed(value: string | null | undefined): string | undefined {
  const text = clean(value);
  return text === undefined ? undefined : text.replace(/\s+/g, " ");
}

/** A picker value (unix seconds) as epoch ms. */
function instant(value: number | string | null | undefined): number | "missing" | "invalid" {
  if (value === null || value === undefined || value === "") return "missing";
  const seconds = typeof value === "number" ? value : Number(value.trim());
  if (!Number.isFinite(seconds) || seconds <= 0) return "invalid";
  return Math.round(seconds) * 1000;
}

/** "12 Mar 2025, 10:00 EET" in the given zone (UTC when absent or unknown). */
export function formatInstant(ms: number, timeZone?: string): string {
  const options: Intl.DateTimeFormatOptions = {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZoneName: "short",
  };
  try {
    return new Intl.DateTimeFormat("en-GB", { ...options, timeZone: timeZone ?? "UTC" }).format(ms);
  } catch {
    return new Intl.DateTimeFormat("en-GB", { ...options, timeZone: "UTC" }).format(ms);
  }
}

/** "6 days 2 h", "3 h", "45 min". */
export function formatSpan(ms: number): string {
  const minutes = Math.round(Math.abs(ms) / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${days} day${days === 1 ? "" : "s"}${hours > 0 ? ` ${hours} h` : ""}`;
  if (hours > 0) return `${hours} h${minutes % 60 > 0 ? ` ${minutes % 60} min` : ""}`;
  return `${minutes} min`;
}
