import type { AddTransportParams, UpdateTransportParams } from "../../platform/fleet/client.js";
import { EXAMPLE_UIT, normaliseUit, UIT_LENGTH } from "../../platform/fleet/uit.js";
import { EXAMPLE_PLATE, isPlausiblePlate, normalisePlate } from "./plates.js";
import { checkVatNumber, type VatProblem } from "./vat.js";

/**
 * Validation of a transport form (pure). Errors are keyed by field name (the keys of
 * TransportFormInput) and are data, not words: `{ uit: { problem: "length", length: 12, … } }`.
 * The Slack modal maps them to its block ids and words them in the reader's language
 * (src/features/etransport/slack/views/formSubmission.ts). Warnings (legal spans, dates far ahead or past)
 * never block.
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

/**
 * What is wrong with one field, as data: the problem and what the words need (instants are
 * epoch ms, shown in the reader's zone; `example` is a value of the right shape to show).
 */
export type TransportFormError =
  | { problem: "vehicleMissing"; example: string }
  | { problem: "uitMissing"; example: string }
  | { problem: "uitLength"; expected: number; length: number; example: string }
  | { problem: "uitCharacters"; example: string }
  | { problem: "vat"; vat: VatProblem }
  /** A required validity picker left empty. */
  | { problem: "validityMissing"; end: "start" | "end" }
  /** A picker value that is no instant; `hint` says what to pick instead. */
  | { problem: "notADate"; hint: "today" | "afterStart" | "orEmpty" }
  | { problem: "validityEndBeforeStart"; startMs: number; exampleMs: number }
  | { problem: "validityExpired"; endMs: number }
  /** A transmission instant outside the validity: before its start, or after its end. */
  | { problem: "outsideValidity"; which: "start" | "end"; side: "before" | "after"; boundMs: number }
  | { problem: "transmissionEndBeforeStart"; startMs: number }
  | { problem: "tooLong"; what: "startLocation" | "endLocation" | "notes"; length: number; max: number }
  | { problem: "notAPlate"; trailer: 1 | 2; text: string }
  | { problem: "vehiclePlate"; trailer: 1 | 2; example: string }
  | { problem: "sameTrailer" };

/** At most one error per field, saying what to enter instead. */
export type TransportFormErrors = Partial<Record<TransportFormField, TransportFormError>>;

/** Something to confirm before saving, as data (the modal words it). */
export type TransportFormWarning =
  /** The validity is longer than the legal maximum. */
  | { warning: "overMaxSpan"; spanMs: number; maxDays: number }
  /** Longer than the span allowed for high-fiscal-risk goods. */
  | { warning: "overHighRiskSpan"; spanMs: number; days: number }
  /** The validity starts more than `maxDays` ahead. */
  | { warning: "farAhead"; inMs: number; startMs: number; maxDays: number }
  | { warning: "startInPast"; startMs: number }
  /** Edit: the validity has ended. */
  | { warning: "expired"; endMs: number };

export type TransportFormResult<D extends TransportDraft = TransportDraft> =
  | { ok: true; value: D; warnings: TransportFormWarning[] }
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

  const vehicleUId = checkVehicle(input, errors);
  const codeUit = ctx.mode === "create" ? checkUit(input, errors) : undefined;
  const vatNumber = checkVat(input, errors);
  const { window: validity, bounds } = checkValidity(input, ctx, errors);
  const transmission = checkTransmission(input, bounds, ctx.saved, errors);
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
  return { ok: true, value, warnings: validityWarnings(validity, ctx) };
}

// ---------- field validators: each writes at most one error per field it owns ----------

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
    errors.vehicleUId = { problem: "vehicleMissing", example: "B 123" };
  }
  return vehicleUId;
}

function checkUit(input: TransportFormInput, errors: TransportFormErrors): string | undefined {
  const raw = clean(input.uit);
  if (raw === undefined) {
    errors.uit = { problem: "uitMissing", example: EXAMPLE_UIT };
    return undefined;
  }
  const codeUit = normaliseUit(raw);
  if (codeUit === undefined) {
    const joined = raw.replace(/[\s\-–—_]/g, "");
    errors.uit = /^[A-Za-z0-9]*$/.test(joined)
      ? { problem: "uitLength", expected: UIT_LENGTH, length: joined.length, example: EXAMPLE_UIT }
      : { problem: "uitCharacters", example: EXAMPLE_UIT };
  }
  return codeUit;
}

function checkVat(input: TransportFormInput, errors: TransportFormErrors): string | undefined {
  const vat = checkVatNumber(clean(input.vat) ?? "");
  if (vat.ok) return vat.vat;
  errors.vat = { problem: "vat", vat: vat.error };
  return undefined;
}

/**
 * Both validity pickers; the window when both are dates and the end is after the start, and
 * the bounds that hold whatever else is wrong (a start that is a date; an end after it).
 */
function checkValidity(
  input: TransportFormInput,
  ctx: TransportFormContext,
  errors: TransportFormErrors,
): { window?: ValidityWindow; bounds: ValidityBounds } {
  const start = unlessUntouched(instant(input.validityStart), ctx.saved?.validityStartMs);
  const end = unlessUntouched(instant(input.validityEnd), ctx.saved?.validityEndMs);
  if (start === "missing") {
    errors.validityStart = { problem: "validityMissing", end: "start" };
  } else if (start === "invalid") {
    errors.validityStart = { problem: "notADate", hint: "today" };
  }
  if (end === "missing") {
    errors.validityEnd = { problem: "validityMissing", end: "end" };
  } else if (end === "invalid") {
    errors.validityEnd = { problem: "notADate", hint: "afterStart" };
  }
  if (typeof start !== "number" || typeof end !== "number") {
    if (typeof start === "number") return { bounds: { startMs: start } };
    return { bounds: typeof end === "number" ? { endMs: end } : {} };
  }
  if (end <= start) {
    errors.validityEnd = {
      problem: "validityEndBeforeStart",
      startMs: start,
      exampleMs: start + HIGH_RISK_VALIDITY_DAYS * DAY_MS,
    };
    return { bounds: { startMs: start } };
  }
  if (ctx.mode === "create" && end < ctx.nowMs) {
    errors.validityEnd = { problem: "validityExpired", endMs: end };
  }
  const window = { startMs: start, endMs: end };
  return { window, bounds: window };
}

/** The optional transmission window: dates inside the validity (as far as it is known), the end after the start. */
function checkTransmission(
  input: TransportFormInput,
  validity: ValidityBounds,
  saved: SavedTimes | undefined,
  errors: TransportFormErrors,
): { startMs?: number; endMs?: number } {
  const start = unlessUntouched(instant(input.transmissionStart), saved?.startMs);
  const end = unlessUntouched(instant(input.transmissionEnd), saved?.endMs);
  if (start === "invalid") errors.transmissionStart = { problem: "notADate", hint: "orEmpty" };
  if (end === "invalid") errors.transmissionEnd = { problem: "notADate", hint: "orEmpty" };
  const outside = (ms: number, which: "start" | "end"): TransportFormError | undefined => {
    if (validity.startMs !== undefined && ms < validity.startMs) {
      return { problem: "outsideValidity", which, side: "before", boundMs: validity.startMs };
    }
    if (validity.endMs !== undefined && ms > validity.endMs) {
      return { problem: "outsideValidity", which, side: "after", boundMs: validity.endMs };
    }
    return undefined;
  };
  const startMs = typeof start === "number" ? start : undefined;
  const endMs = typeof end === "number" ? end : undefined;
  if (startMs !== undefined) {
    const problem = outside(startMs, "start");
    if (problem) errors.transmissionStart = problem;
  }
  if (endMs !== undefined) {
    const problem = outside(endMs, "end");
    if (problem) errors.transmissionEnd = problem;
  }
  if (startMs !== undefined && endMs !== undefined && endMs <= startMs && !errors.transmissionEnd) {
    errors.transmissionEnd = { problem: "transmissionEndBeforeStart", startMs };
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
  const tooLong = (
    value: string | undefined,
    max: number,
    what: "startLocation" | "endLocation" | "notes",
  ): void => {
    if (value !== undefined && value.length > max) {
      errors[what] = { problem: "tooLong", what, length: value.length, max };
    }
  };
  tooLong(startLocation, LOCATION_MAX_LENGTH, "startLocation");
  tooLong(endLocation, LOCATION_MAX_LENGTH, "endLocation");
  tooLong(notes, NOTES_MAX_LENGTH, "notes");
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
  const trailer = (field: "trailer1" | "trailer2", n: 1 | 2): string | undefined => {
    const text = clean(input[field]);
    if (text === undefined) return undefined;
    const plate = normalisePlate(text);
    if (!isPlausiblePlate(plate)) {
      errors[field] = { problem: "notAPlate", trailer: n, text: text.slice(0, 20) };
    } else if (vehiclePlate !== undefined && plate === vehiclePlate) {
      errors[field] = { problem: "vehiclePlate", trailer: n, example: EXAMPLE_PLATE };
    }
    return plate;
  };
  const trailer1Code = trailer("trailer1", 1);
  const trailer2Code = trailer("trailer2", 2);
  if (trailer1Code !== undefined && trailer1Code === trailer2Code && !errors.trailer2) {
    errors.trailer2 = { problem: "sameTrailer" };
  }
  return {
    ...(trailer1Code !== undefined ? { trailer1Code } : {}),
    ...(trailer2Code !== undefined ? { trailer2Code } : {}),
  };
}

/** Warnings of a valid window: longer than the legal spans, too far ahead, in the past, expired (edit). */
function validityWarnings(validity: ValidityWindow, ctx: TransportFormContext): TransportFormWarning[] {
  const warnings: TransportFormWarning[] = [];
  const { startMs: start, endMs: end } = validity;
  const span = end - start;
  // An edit that leaves the validity as the service holds it is not asked to confirm it again
  // (its span and start were confirmed when they were saved); an expired one is still said.
  const validityAsSaved =
    ctx.mode === "edit" && start === ctx.saved?.validityStartMs && end === ctx.saved?.validityEndMs;
  if (!validityAsSaved && span > MAX_VALIDITY_DAYS * DAY_MS) {
    warnings.push({ warning: "overMaxSpan", spanMs: span, maxDays: MAX_VALIDITY_DAYS });
  } else if (!validityAsSaved && span > HIGH_RISK_VALIDITY_DAYS * DAY_MS) {
    warnings.push({ warning: "overHighRiskSpan", spanMs: span, days: HIGH_RISK_VALIDITY_DAYS });
  }
  if (!validityAsSaved && start - ctx.nowMs > MAX_DAYS_AHEAD * DAY_MS) {
    warnings.push({ warning: "farAhead", inMs: start - ctx.nowMs, startMs: start, maxDays: MAX_DAYS_AHEAD });
  }
  if (ctx.mode === "create" && start < ctx.nowMs - PAST_GRACE_MS) {
    warnings.push({ warning: "startInPast", startMs: start });
  }
  if (ctx.mode === "edit" && end < ctx.nowMs) {
    warnings.push({ warning: "expired", endMs: end });
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
