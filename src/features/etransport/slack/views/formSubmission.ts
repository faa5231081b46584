/** A submitted transport modal read back into TransportFormInput and checked, its errors keyed by block id. */

import type { Language } from "../../../../i18n/language.js";
import { INPUTS } from "../../../../platform/slack/actionIds.js";
import {
  type TransportDraft,
  type TransportFormContext,
  type TransportFormErrors,
  type TransportFormField,
  type TransportFormInput,
  type TransportFormWarning,
  validateTransportForm,
} from "../../form.js";
import { transportFormErrorText } from "./formWording.js";

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
