import type { AddTransportParams, UpdateTransportParams } from "../fleet/client.js";
import { EXAMPLE_PLATE, isPlausiblePlate, normalisePlate, PLATE_SHAPE_HINT } from "./plates.js";
import { EXAMPLE_UIT, normaliseUit, UIT_LENGTH } from "./uit.js";
import { checkVatNumber } from "./vat.js";

/**
 * Validation of a transport form (pure). Errors are keyed by field name (the keys of
 * TransportFormInput); the Slack modal maps them to its block ids. Warnings (legal spans,
 * dates far ahead or past) never block.
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
  /** Edit mode: the instants the service holds, which the pickers showed to the minute. */
  saved?: SavedTimes;
}

/** A transport's instants as the service holds them (epoch ms), for an edit form. */
export interface SavedTimes {
  validityStartMs?: number;
  validityEndMs?: number;
  startMs?: number;
  endMs?: number;
}

/** A date-time picker shows and returns whole minutes: the instant it shows for `ms`. */
export function pickerMinute(ms: number): number {
  return Math.floor(ms / 60_000) * 60_000;
}

/**
 * A picker the user left as it was returns the saved instant cut to the minute: the saved
 * instant itself is kept, so an edit of the notes does not move the validity by seconds.
 */
function unlessUntouched<T>(picked: number | T, savedMs: number | undefined): number | T {
  return typeof picked === "number" && savedMs !== undefined && picked === pickerMinute(savedMs)
    ? savedMs
    : picked;
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

/** A field of the form, named as in TransportFormInput. */
export type TransportFormField = keyof TransportFormInput;

/** At most one message per field, saying what to enter instead. */
export type TransportFormErrors = Partial<Record<TransportFormField, string>>;

export type TransportFormResult<D extends TransportDraft = TransportDraft> =
  | { ok: true; value: D; warnings: string[] }
  | { ok: false; errors: TransportFormErrors };

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
  const errors: TransportFormErrors = {};
  const when = (ms: number): string => formatInstant(ms, ctx.timeZone);

  const vehicleUId = checkVehicle(input, errors);
  const codeUit = ctx.mode === "create" ? checkUit(input, errors) : undefined;
  const vatNumber = checkVat(input, errors);
  const { window: validity, bounds } = checkValidity(input, ctx, when, errors);
  const transmission = checkTransmission(input, bounds, ctx.saved, when, errors);
  const texts = checkTexts(input, errors);
  const trailers = checkTrailers(input, ctx.vehiclePlate, errors);

  if (Object.keys(errors).length > 0 || vehicleUId === undefined || vatNumber === undefined || !validity) {
    return { ok: false, errors };
  }
  const value: TransportDraft = {
    vehicleUId,
    vatNumber,
    validityStartMs: validity.startMs,
    validityEndMs: validity.endMs,
  };
  if (codeUit !== undefined) value.codeUit = codeUit;
  if (transmission.startMs !== undefined) value.transmissionStartMs = transmission.startMs;
  if (transmission.endMs !== undefined) value.transmissionEndMs = transmission.endMs;
  if (texts.startLocation !== undefined) value.startLocation = texts.startLocation;
  if (texts.endLocation !== undefined) value.endLocation = texts.endLocation;
  if (trailers.trailer1Code !== undefined) value.trailer1Code = trailers.trailer1Code;
  if (trailers.trailer2Code !== undefined) value.trailer2Code = trailers.trailer2Code;
  if (texts.notes !== undefined) value.notes = texts.notes;
  return { ok: true, value, warnings: validityWarnings(validity, ctx, when) };
}

// ---------- field validators: each writes at most one error per field it owns ----------

type When = (ms: number) => string;

/** A validity window whose end is after its start (it may still be expired: that is an error of its own). */
interface ValidityWindow {
  startMs: number;
  endMs: number;
}

/**
 * What is known of the validity even when it has errors of its own: a good start still bounds
 * the transmission, so a transmission outside it is told in the same submit, not the next.
 */
type ValidityBounds = Partial<ValidityWindow>;

function checkVehicle(input: TransportFormInput, errors: TransportFormErrors): string | undefined {
  const vehicleUId = clean(input.vehicleUId);
  if (vehicleUId === undefined) {
    errors.vehicleUId = "Choose the vehicle: type part of its plate or name, e.g. B 123.";
  }
  return vehicleUId;
}

function checkUit(input: TransportFormInput, errors: TransportFormErrors): string | undefined {
  const raw = clean(input.uit);
  if (raw === undefined) {
    errors.uit = `Enter the UIT issued by the e-Transport platform, e.g. ${EXAMPLE_UIT}.`;
    return undefined;
  }
  const codeUit = normaliseUit(raw);
  if (codeUit === undefined) {
    const joined = raw.replace(/[\s\-–—_]/g, "");
    errors.uit = /^[A-Za-z0-9]*$/.test(joined)
      ? `A UIT has ${UIT_LENGTH} letters and digits; this has ${joined.length}. Example: ${EXAMPLE_UIT}.`
      : `A UIT has only letters and digits (dashes and spaces are ignored), e.g. ${EXAMPLE_UIT}.`;
  }
  return codeUit;
}

function checkVat(input: TransportFormInput, errors: TransportFormErrors): string | undefined {
  const vat = checkVatNumber(clean(input.vat) ?? "");
  if (vat.ok) return vat.vat;
  errors.vat = vat.message;
  return undefined;
}

/**
 * Both validity pickers; the window when both are dates and the end is after the start, and
 * the bounds that hold whatever else is wrong (a start that is a date; an end after it).
 */
function checkValidity(
  input: TransportFormInput,
  ctx: TransportFormContext,
  when: When,
  errors: TransportFormErrors,
): { window?: ValidityWindow; bounds: ValidityBounds } {
  const start = unlessUntouched(instant(input.validityStart), ctx.saved?.validityStartMs);
  const end = unlessUntouched(instant(input.validityEnd), ctx.saved?.validityEndMs);
  if (start === "missing") {
    errors.validityStart = "Pick the start of the UIT validity, as issued with the UIT.";
  } else if (start === "invalid") {
    errors.validityStart = "Not a date and time: pick one, e.g. today 08:00.";
  }
  if (end === "missing") {
    errors.validityEnd = "Pick the end of the UIT validity, as issued with the UIT.";
  } else if (end === "invalid") {
    errors.validityEnd = "Not a date and time: pick one, e.g. 5 days after the start.";
  }
  if (typeof start !== "number" || typeof end !== "number") {
    if (typeof start === "number") return { bounds: { startMs: start } };
    return { bounds: typeof end === "number" ? { endMs: end } : {} };
  }
  if (end <= start) {
    errors.validityEnd = `The validity must end after it starts (${when(start)}), e.g. ${when(start + HIGH_RISK_VALIDITY_DAYS * DAY_MS)}.`;
    return { bounds: { startMs: start } };
  }
  if (ctx.mode === "create" && end < ctx.nowMs) {
    errors.validityEnd = `This UIT expired on ${when(end)}: an expired UIT cannot be used. Request a new UIT.`;
  }
  const window = { startMs: start, endMs: end };
  return { window, bounds: window };
}

/** The optional transmission window: dates inside the validity (as far as it is known), the end after the start. */
function checkTransmission(
  input: TransportFormInput,
  validity: ValidityBounds,
  saved: SavedTimes | undefined,
  when: When,
  errors: TransportFormErrors,
): { startMs?: number; endMs?: number } {
  const start = unlessUntouched(instant(input.transmissionStart), saved?.startMs);
  const end = unlessUntouched(instant(input.transmissionEnd), saved?.endMs);
  if (start === "invalid") errors.transmissionStart = "Not a date and time: pick one, or leave it empty.";
  if (end === "invalid") errors.transmissionEnd = "Not a date and time: pick one, or leave it empty.";
  const outside = (ms: number, what: string): string | undefined => {
    if (validity.startMs !== undefined && ms < validity.startMs) {
      return `${what} must be within the UIT validity: on or after ${when(validity.startMs)}.`;
    }
    if (validity.endMs !== undefined && ms > validity.endMs) {
      return `${what} must be within the UIT validity: by ${when(validity.endMs)}.`;
    }
    return undefined;
  };
  const startMs = typeof start === "number" ? start : undefined;
  const endMs = typeof end === "number" ? end : undefined;
  if (startMs !== undefined) {
    const problem = outside(startMs, "The transmission start");
    if (problem) errors.transmissionStart = problem;
  }
  if (endMs !== undefined) {
    const problem = outside(endMs, "The transmission end");
    if (problem) errors.transmissionEnd = problem;
  }
  if (startMs !== undefined && endMs !== undefined && endMs <= startMs && !errors.transmissionEnd) {
    errors.transmissionEnd = `The transmission must end after it starts (${when(startMs)}), or leave the end empty.`;
  }
  return { ...(startMs !== undefined ? { startMs } : {}), ...(endMs !== undefined ? { endMs } : {}) };
}

/** Locations (inner spaces squeezed) and notes, each within its length. */
function checkTexts(
  input: TransportFormInput,
  errors: TransportFormErrors,
): { startLocation?: string; endLocation?: string; notes?: string } {
  const startLocation = squeezed(input.startLocation);
  const endLocation = squeezed(input.endLocation);
  const notes = clean(input.notes);
  const tooLong = (value: string | undefined, max: number, field: TransportFormField, what: string): void => {
    if (value !== undefined && value.length > max) {
      errors[field] = `${what} ${value.length} characters; at most ${max}. Shorten it.`;
    }
  };
  tooLong(startLocation, LOCATION_MAX_LENGTH, "startLocation", "The start location has");
  tooLong(endLocation, LOCATION_MAX_LENGTH, "endLocation", "The end location has");
  tooLong(notes, NOTES_MAX_LENGTH, "notes", "The notes have");
  return {
    ...(startLocation !== undefined ? { startLocation } : {}),
    ...(endLocation !== undefined ? { endLocation } : {}),
    ...(notes !== undefined ? { notes } : {}),
  };
}

/** Trailer plates: plausible, not the vehicle's own, not the same twice. */
function checkTrailers(
  input: TransportFormInput,
  vehiclePlateRaw: string | undefined,
  errors: TransportFormErrors,
): { trailer1Code?: string; trailer2Code?: string } {
  const vehiclePlate = vehiclePlateRaw ? normalisePlate(vehiclePlateRaw) : undefined;
  const trailer = (field: "trailer1" | "trailer2", name: string): string | undefined => {
    const text = clean(input[field]);
    if (text === undefined) return undefined;
    const plate = normalisePlate(text);
    if (!isPlausiblePlate(plate)) {
      errors[field] = `${name}: “${text.slice(0, 20)}” is not a plate. ${PLATE_SHAPE_HINT}.`;
    } else if (vehiclePlate !== undefined && plate === vehiclePlate) {
      errors[field] =
        `${name} has the vehicle's own plate. Enter the trailer's plate, e.g. ${EXAMPLE_PLATE}.`;
    }
    return plate;
  };
  const trailer1Code = trailer("trailer1", "Trailer 1");
  const trailer2Code = trailer("trailer2", "Trailer 2");
  if (trailer1Code !== undefined && trailer1Code === trailer2Code && !errors.trailer2) {
    errors.trailer2 = "Trailer 2 has the same plate as trailer 1. Leave it empty when there is one trailer.";
  }
  return {
    ...(trailer1Code !== undefined ? { trailer1Code } : {}),
    ...(trailer2Code !== undefined ? { trailer2Code } : {}),
  };
}

/** Warnings of a valid window: longer than the legal spans, too far ahead, in the past, expired (edit). */
function validityWarnings(validity: ValidityWindow, ctx: TransportFormContext, when: When): string[] {
  const warnings: string[] = [];
  const { startMs: start, endMs: end } = validity;
  const span = end - start;
  // An edit that leaves the validity as the service holds it is not asked to confirm it again
  // (its span and start were confirmed when they were saved); an expired one is still said.
  const validityAsSaved =
    ctx.mode === "edit" && start === ctx.saved?.validityStartMs && end === ctx.saved?.validityEndMs;
  if (!validityAsSaved && span > MAX_VALIDITY_DAYS * DAY_MS) {
    warnings.push(
      `The UIT validity is ${formatSpan(span)} long: more than the legal ${MAX_VALIDITY_DAYS} days. Check the dates on the UIT.`,
    );
  } else if (!validityAsSaved && span > HIGH_RISK_VALIDITY_DAYS * DAY_MS) {
    warnings.push(
      `The UIT validity is ${formatSpan(span)} long: over ${HIGH_RISK_VALIDITY_DAYS} days is legal only for intra-community and other operations, not for national transport of high-fiscal-risk goods.`,
    );
  }
  if (!validityAsSaved && start - ctx.nowMs > MAX_DAYS_AHEAD * DAY_MS) {
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
  return warnings;
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
