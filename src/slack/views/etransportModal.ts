import type { InputBlock, KnownBlock, ModalView, PlainTextOption } from "@slack/types";
import {
  LOCATION_MAX_LENGTH,
  NOTES_MAX_LENGTH,
  pickerMinute,
  type TransportDraft,
  type TransportFormContext,
  type TransportFormError,
  type TransportFormErrors,
  type TransportFormField,
  type TransportFormInput,
  type TransportFormMode,
  type TransportFormWarning,
  validateTransportForm,
} from "../../etransport/form.js";
import { EXAMPLE_PLATE } from "../../etransport/plates.js";
import type { TransportView } from "../../etransport/types.js";
import { EXAMPLE_UIT } from "../../etransport/uit.js";
import { EXAMPLE_RO_VAT } from "../../etransport/vat.js";
import { messages } from "../../i18n/catalogue.js";
import { duration } from "../../i18n/format.js";
import type { Language } from "../../i18n/language.js";
import { INPUTS, VIEWS } from "../actionIds.js";
import { cut, dateText, formatUit, transportStatusText } from "./etransportText.js";
import { userText } from "./text.js";

const words = (language: Language) => messages(language).etransport;

/**
 * The create/edit transport modal (pure), the vehicle options of its external select, and
 * the reading of its submitted state back into TransportFormInput.
 */

export interface TransportModalVehicle {
  vehicleUId: string;
  plate: string;
  name: string;
}

export interface TransportModalInput {
  mode: TransportFormMode;
  /** The account's vehicles when known (labels the initial vehicle); options come from vehicleOptions. */
  vehicles: readonly TransportModalVehicle[] | undefined;
  /** The transport being edited, or values to prefill a new one. */
  initial?: TransportView;
  /** The fleet service does not return a transport's VAT number: prefill it from here. */
  initialVat?: string;
  /** The user's Slack time zone: the pickers show it, the hints name it. */
  userTimeZone: string;
  /** Warnings of a previous submission, shown on top (worded in `language`, dates in userTimeZone). */
  warnings?: readonly TransportFormWarning[];
  /** The reader's language, resolved once per request (required: no view guesses English). */
  language: Language;
  /** The present instant: a date in another year then shows its year. */
  nowMs?: number;
  /** Carried to the submission as is (a string), or JSON-encoded (an object); at most 3000 characters. */
  privateMetadata: string | Record<string, unknown>;
}

const plain = (text: string) => ({ type: "plain_text" as const, text, emoji: true });
const mrkdwn = (text: string) => ({ type: "mrkdwn" as const, text });

/** Picker value of an instant: unix seconds, floored to the minute (the picker's precision). */
export function pickerSeconds(ms: number): number {
  return pickerMinute(ms) / 1000;
}

function vehicleOptionText(v: { plate: string; name: string }, language: Language): string {
  const plate = v.plate.trim();
  const name = v.name.trim();
  const text =
    plate && name && name !== plate
      ? `${plate} — ${name}`
      : plate || name || words(language).unnamedVehicle();
  return cut(text, 75);
}

function initialVehicleOption(
  initial: TransportView | undefined,
  vehicles: readonly TransportModalVehicle[] | undefined,
  language: Language,
): PlainTextOption | undefined {
  const uid = initial?.carrierUId;
  if (!uid || uid.length > 75) return undefined;
  const known = vehicles?.find((v) => v.vehicleUId === uid);
  const text = known
    ? vehicleOptionText(known, language)
    : vehicleOptionText({ plate: initial.carrierCode ?? "", name: initial.carrierName ?? "" }, language);
  return { text: plain(text), value: uid };
}

function textInput(
  ids: { block: string; action: string },
  label: string,
  options: {
    optional?: boolean;
    initial?: string | undefined;
    maxLength?: number;
    multiline?: boolean;
    placeholder?: string;
    hint?: string;
  },
): InputBlock {
  const initial = options.initial?.slice(0, 3000);
  // A limit below the stored value would make Slack refuse the view: then the form check reports it.
  const maxLength =
    options.maxLength !== undefined && (initial === undefined || initial.length <= options.maxLength)
      ? options.maxLength
      : undefined;
  return {
    type: "input",
    block_id: ids.block,
    label: plain(label),
    optional: options.optional ?? false,
    ...(options.hint ? { hint: plain(options.hint) } : {}),
    element: {
      type: "plain_text_input",
      action_id: ids.action,
      ...(options.multiline ? { multiline: true } : {}),
      ...(maxLength !== undefined ? { max_length: maxLength } : {}),
      ...(initial ? { initial_value: initial } : {}),
      ...(options.placeholder ? { placeholder: plain(options.placeholder) } : {}),
    },
  };
}

function dateTimeInput(
  ids: { block: string; action: string },
  label: string,
  initialMs: number | undefined,
  optional: boolean,
  hint: string,
): InputBlock {
  return {
    type: "input",
    block_id: ids.block,
    label: plain(label),
    optional,
    hint: plain(hint),
    element: {
      type: "datetimepicker",
      action_id: ids.action,
      ...(initialMs !== undefined && Number.isFinite(initialMs) && initialMs > 0
        ? { initial_date_time: pickerSeconds(initialMs) }
        : {}),
    },
  };
}

/** One warning in `language`, dates in `zone` (plain text). */
export function transportFormWarningText(
  w: TransportFormWarning,
  language: Language,
  zone: string,
  nowMs?: number,
): string {
  const m = words(language);
  const when = (ms: number): string => dateText(ms, zone, language, nowMs);
  switch (w.warning) {
    case "overMaxSpan":
      return m.warningOverMaxSpan({ span: duration(language, w.spanMs), maxDays: w.maxDays });
    case "overHighRiskSpan":
      return m.warningOverHighRiskSpan({ span: duration(language, w.spanMs), days: w.days });
    case "farAhead":
      return m.warningFarAhead({
        span: duration(language, w.inMs),
        start: when(w.startMs),
        maxDays: w.maxDays,
      });
    case "startInPast":
      return m.warningStartInPast({ start: when(w.startMs) });
    case "expired":
      return m.warningExpired({ end: when(w.endMs) });
  }
}

/** The form's warnings in `language`, dates in `zone` (plain text). */
export function transportFormWarningTexts(
  warnings: readonly TransportFormWarning[],
  language: Language,
  zone: string,
  nowMs?: number,
): string[] {
  return warnings.map((w) => transportFormWarningText(w, language, zone, nowMs));
}

/** One field's error in `language` (plain text), dates in `zone`. */
export function transportFormErrorText(
  error: TransportFormError,
  language: Language,
  zone: string,
  nowMs?: number,
): string {
  const m = words(language);
  const when = (ms: number): string => dateText(ms, zone, language, nowMs);
  switch (error.problem) {
    case "vehicleMissing":
      return m.errorVehicleMissing({ example: error.example });
    case "uitMissing":
      return m.errorUitMissing({ example: error.example });
    case "uitLength":
      return m.errorUitLength({ expected: error.expected, length: error.length, example: error.example });
    case "uitCharacters":
      return m.errorUitCharacters({ example: error.example });
    case "vat":
      return m.errorVat(error.vat);
    case "validityMissing":
      return error.end === "start" ? m.errorValidityStartMissing() : m.errorValidityEndMissing();
    case "notADate":
      return m.errorNotADate(error.hint);
    case "validityEndBeforeStart":
      return m.errorValidityEndBeforeStart({ start: when(error.startMs), example: when(error.exampleMs) });
    case "validityExpired":
      return m.errorValidityExpired({ end: when(error.endMs) });
    case "outsideValidity": {
      const bound = when(error.boundMs);
      if (error.which === "start") {
        return error.side === "before"
          ? m.errorTransmissionStartBefore({ bound })
          : m.errorTransmissionStartAfter({ bound });
      }
      return error.side === "before"
        ? m.errorTransmissionEndBefore({ bound })
        : m.errorTransmissionEndAfter({ bound });
    }
    case "transmissionEndBeforeStart":
      return m.errorTransmissionEndBeforeStart({ start: when(error.startMs) });
    case "tooLong":
      return m.errorTooLong(error.what, error.length, error.max);
    case "notAPlate":
      return m.errorNotAPlate({ n: error.trailer, text: error.text });
    case "vehiclePlate":
      return m.errorVehiclePlate({ n: error.trailer, example: error.example });
    case "sameTrailer":
      return m.errorSameTrailer();
  }
}

/** Warnings to confirm, then the UIT (edit) or how to fill the form (create). */
function headerBlocks(input: TransportModalInput, zone: string, language: Language): KnownBlock[] {
  const { mode, initial } = input;
  const m = words(language);
  const blocks: KnownBlock[] = [];

  if (input.warnings && input.warnings.length > 0) {
    const list = transportFormWarningTexts(
      input.warnings.slice(0, 10),
      language,
      input.userTimeZone,
      input.nowMs,
    )
      .map((w) => `• ${userText(w, 400)}`)
      .join("\n");
    blocks.push({
      type: "section",
      block_id: "transport.warnings",
      text: mrkdwn(`${m.checkBeforeSaving()}\n${list}`),
    });
  }

  if (mode === "edit" && initial) {
    blocks.push({
      type: "section",
      block_id: "transport.uit.readonly",
      text: mrkdwn(
        m.editUitLine({
          uit: `\`${userText(formatUit(initial.codeUit), 40)}\``,
          status: transportStatusText(language, initial.statusId),
        }),
      ),
    });
  } else {
    blocks.push({
      type: "context",
      block_id: "transport.intro",
      elements: [mrkdwn(m.formIntro({ zone: userText(zone, 60) }))],
    });
  }
  return blocks;
}

/** The vehicle select, prefilled with the transport's vehicle when it is known. */
function vehicleBlock(input: TransportModalInput, language: Language): KnownBlock {
  const { initial } = input;
  const m = words(language);
  const initialOption = initialVehicleOption(initial, input.vehicles, language);
  return {
    type: "input",
    block_id: INPUTS.transportVehicle.block,
    label: plain(m.vehicleLabel()),
    hint: plain(input.vehicles && input.vehicles.length === 0 ? m.vehicleHintNone() : m.vehicleHint()),
    element: {
      type: "external_select",
      action_id: INPUTS.transportVehicle.action,
      min_query_length: 0,
      // One of the account's own plates when its list is known: a made-up one finds nothing.
      placeholder: plain(
        cut(m.vehiclePlaceholder({ example: input.vehicles?.find((v) => v.plate)?.plate ?? "B 123" }), 150),
      ),
      ...(initialOption ? { initial_option: initialOption } : {}),
    },
  };
}

/** The UIT (create only) and the carrier's VAT number. */
function identityBlocks(input: TransportModalInput, language: Language): KnownBlock[] {
  const { mode, initial } = input;
  const m = words(language);
  const blocks: KnownBlock[] = [];
  if (mode === "create") {
    blocks.push(
      textInput(INPUTS.transportUit, m.uitCode(), {
        initial: initial?.codeUit,
        maxLength: 40,
        placeholder: EXAMPLE_UIT,
        hint: m.uitHint(),
      }),
    );
  }

  blocks.push(
    textInput(INPUTS.transportVat, m.vatLabel(), {
      initial: input.initialVat,
      maxLength: 20,
      placeholder: EXAMPLE_RO_VAT,
      hint: mode === "edit" ? m.vatHintEdit() : m.vatHintNew(),
    }),
  );
  return blocks;
}

/** The UIT's validity and the optional GPS transmission window. */
function dateBlocks(input: TransportModalInput, zone: string, language: Language): KnownBlock[] {
  const { initial } = input;
  const m = words(language);
  return [
    dateTimeInput(
      INPUTS.transportValidityStart,
      m.validityStartLabel(),
      initial?.validityStartMs,
      false,
      m.validityStartHint({ zone }),
    ),
    dateTimeInput(
      INPUTS.transportValidityEnd,
      m.validityEndLabel(),
      initial?.validityEndMs,
      false,
      m.validityEndHint(),
    ),
    dateTimeInput(
      INPUTS.transportStart,
      m.transmissionStartLabel(),
      initial?.startMs,
      true,
      m.transmissionStartHint(),
    ),
    dateTimeInput(
      INPUTS.transportEnd,
      m.transmissionEndLabel(),
      initial?.endMs,
      true,
      m.transmissionEndHint(),
    ),
  ];
}

/** Places, trailers and notes: optional free text. */
function freeTextBlocks(input: TransportModalInput, language: Language): KnownBlock[] {
  const { initial } = input;
  const m = words(language);
  return [
    textInput(INPUTS.transportStartLocation, m.startLocationLabel(), {
      optional: true,
      initial: initial?.startLocation,
      maxLength: LOCATION_MAX_LENGTH,
      placeholder: m.startLocationPlaceholder(),
    }),
    textInput(INPUTS.transportEndLocation, m.endLocationLabel(), {
      optional: true,
      initial: initial?.endLocation,
      maxLength: LOCATION_MAX_LENGTH,
      placeholder: m.endLocationPlaceholder(),
    }),
    textInput(INPUTS.transportTrailer1, m.trailerLabel({ n: 1 }), {
      optional: true,
      initial: initial?.trailer1Code,
      maxLength: 20,
      placeholder: m.examplePlaceholder({ example: EXAMPLE_PLATE }),
    }),
    textInput(INPUTS.transportTrailer2, m.trailerLabel({ n: 2 }), {
      optional: true,
      initial: initial?.trailer2Code,
      maxLength: 20,
      placeholder: m.examplePlaceholder({ example: EXAMPLE_PLATE }),
    }),
    textInput(INPUTS.transportNotes, m.notesFieldLabel(), {
      optional: true,
      initial: initial?.notes,
      maxLength: NOTES_MAX_LENGTH,
      multiline: true,
    }),
  ];
}

/** The create (VIEWS.transportCreate) or edit (VIEWS.transportEdit) transport modal. */
export function transportModal(input: TransportModalInput): ModalView {
  const { mode, userTimeZone } = input;
  const language = input.language;
  const m = words(language);
  const privateMetadata =
    typeof input.privateMetadata === "string" ? input.privateMetadata : JSON.stringify(input.privateMetadata);
  if (privateMetadata.length > 3000) {
    throw new RangeError(`private_metadata is ${privateMetadata.length} characters; Slack allows 3000`);
  }
  const zone = cut(userTimeZone, 60);
  const blocks: KnownBlock[] = [
    ...headerBlocks(input, zone, language),
    vehicleBlock(input, language),
    ...identityBlocks(input, language),
    ...dateBlocks(input, zone, language),
    ...freeTextBlocks(input, language),
  ];
  return {
    type: "modal",
    callback_id: mode === "create" ? VIEWS.transportCreate : VIEWS.transportEdit,
    private_metadata: privateMetadata,
    // Slack's limits: title 24 characters, submit and close 24.
    title: plain(cut(mode === "create" ? m.modalTitleNew() : m.modalTitleEdit(), 24)),
    submit: plain(cut(mode === "create" ? m.modalSubmitNew() : m.modalSubmitEdit(), 24)),
    close: plain(cut(m.cancel(), 24)),
    blocks,
  };
}

// ---------- vehicle options (block_suggestion) ----------

const fold = (text: string): string => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
const compactPlate = (text: string): string => fold(text).replace(/[\s\-–—_.]/g, "");

/**
 * Options for the vehicle external select: a query matches the plate ignoring case, spaces
 * and dashes, or the name ignoring case and diacritics. Plates starting with the query come
 * first; at most 100 options.
 */
export function vehicleOptions(
  query: string,
  vehicles: readonly TransportModalVehicle[],
  language: Language,
): { options: PlainTextOption[] } {
  const q = query.trim();
  const qPlate = compactPlate(q);
  const qName = fold(q).replace(/\s+/g, " ");
  const scored: { v: TransportModalVehicle; rank: number }[] = [];
  for (const v of vehicles) {
    if (v.vehicleUId.length === 0 || v.vehicleUId.length > 75) continue;
    const plate = compactPlate(v.plate);
    const name = fold(v.name).replace(/\s+/g, " ");
    let rank: number | undefined;
    if (q === "") rank = 2;
    else if (qPlate !== "" && plate.startsWith(qPlate)) rank = 0;
    else if (qPlate !== "" && plate.includes(qPlate)) rank = 1;
    else if (qName !== "" && name.includes(qName)) rank = 2;
    if (rank !== undefined) scored.push({ v, rank });
  }
  scored.sort(
    (a, b) =>
      a.rank - b.rank ||
      compactPlate(a.v.plate).localeCompare(compactPlate(b.v.plate), "en", { numeric: true }),
  );
  return {
    options: scored
      .slice(0, 100)
      .map(({ v }) => ({ text: plain(vehicleOptionText(v, language)), value: v.vehicleUId })),
  };
}

// ---------- reading the submission ----------

/** One input's state in view_submission `view.state.values[block][action]`. */
export interface ViewStateValue {
  type?: string;
  value?: string | null;
  selected_option?: { value?: string } | null;
  selected_date_time?: number | null;
}
export type ViewStateValues = Record<string, Record<string, ViewStateValue | undefined> | undefined>;

/** The modal input of each form field: the one place field names meet block ids. */
const FIELD_INPUTS: Readonly<Record<TransportFormField, { block: string; action: string }>> = {
  vehicleUId: INPUTS.transportVehicle,
  uit: INPUTS.transportUit,
  vat: INPUTS.transportVat,
  validityStart: INPUTS.transportValidityStart,
  validityEnd: INPUTS.transportValidityEnd,
  transmissionStart: INPUTS.transportStart,
  transmissionEnd: INPUTS.transportEnd,
  startLocation: INPUTS.transportStartLocation,
  endLocation: INPUTS.transportEndLocation,
  trailer1: INPUTS.transportTrailer1,
  trailer2: INPUTS.transportTrailer2,
  notes: INPUTS.transportNotes,
};

const FIELD_BLOCKS: ReadonlyMap<string, string> = new Map(
  Object.entries(FIELD_INPUTS).map(([field, ids]) => [field, ids.block]),
);

/** The raw form values of a submitted transport modal, ready for validateTransportForm. */
export function transportFormValues(values: ViewStateValues): TransportFormInput {
  const at = (field: TransportFormField): ViewStateValue | undefined => {
    const ids = FIELD_INPUTS[field];
    return values[ids.block]?.[ids.action];
  };
  const text = (field: TransportFormField): string | null | undefined => at(field)?.value;
  const time = (field: TransportFormField): number | null | undefined => at(field)?.selected_date_time;
  return {
    vehicleUId: at("vehicleUId")?.selected_option?.value ?? null,
    uit: text("uit"),
    vat: text("vat"),
    validityStart: time("validityStart"),
    validityEnd: time("validityEnd"),
    transmissionStart: time("transmissionStart"),
    transmissionEnd: time("transmissionEnd"),
    startLocation: text("startLocation"),
    endLocation: text("endLocation"),
    trailer1: text("trailer1"),
    trailer2: text("trailer2"),
    notes: text("notes"),
  };
}

/** How the form's errors and warnings are worded: the reader's language, dates in their zone. */
export interface TransportFormWording {
  language: Language;
  /** The submitting user's zone (UTC when unknown). */
  timeZone?: string;
  nowMs?: number;
}

/** Form errors keyed by the modal's input block ids and worded, as `response_action: "errors"` wants them. */
export function transportModalErrors(
  errors: TransportFormErrors,
  wording: TransportFormWording = { language: "en" },
): Record<string, string> {
  const byBlock: Record<string, string> = {};
  for (const [field, error] of Object.entries(errors)) {
    const block = FIELD_BLOCKS.get(field);
    if (block !== undefined && error !== undefined) {
      byBlock[block] = transportFormErrorText(
        error,
        wording.language,
        wording.timeZone ?? "UTC",
        wording.nowMs,
      );
    }
  }
  return byBlock;
}

/** A submitted transport modal checked: the draft and warnings (data), or worded errors keyed by block id. */
export type TransportModalCheck =
  | { ok: true; value: TransportDraft; warnings: TransportFormWarning[] }
  | { ok: false; errors: Record<string, string> };

/** validateTransportForm for the modal: what a view_submission listener acks as it is. */
export function checkTransportModal(
  input: TransportFormInput,
  ctx: TransportFormContext,
  wording: TransportFormWording = { language: "en" },
): TransportModalCheck {
  const checked = validateTransportForm(input, ctx);
  return checked.ok
    ? checked
    : { ok: false, errors: transportModalErrors(checked.errors, { nowMs: ctx.nowMs, ...wording }) };
}
