/**
 * The create/edit transport modal (pure); the vehicle options of its external select are in
 * vehicleOptions.ts, the reading of its submitted state back into TransportFormInput in
 * formSubmission.ts.
 */
import type { KnownBlock, ModalView } from "@slack/types";
import type { Language } from "../../../../i18n/language.js";
import { EXAMPLE_UIT } from "../../../../platform/fleet/uit.js";
import { INPUTS, VIEWS } from "../../../../platform/slack/actionIds.js";
import { mrkdwn, plain } from "../../../../platform/slack/views/blocks.js";
import { userText } from "../../../../platform/slack/views/text.js";
import {
  LOCATION_MAX_LENGTH,
  NOTES_MAX_LENGTH,
  type TransportFormMode,
  type TransportFormWarning,
} from "../../form.js";
import { EXAMPLE_PLATE } from "../../plates.js";
import type { TransportView } from "../../types.js";
import { EXAMPLE_RO_VAT } from "../../vat.js";
import { dateTimeInput, textInput } from "./formInputs.js";
import { transportFormWarningTexts } from "./formWording.js";
import { cut, formatUit, transportStatusText } from "./transportText.js";
import { initialVehicleOption, type TransportModalVehicle } from "./vehicleOptions.js";
import { words } from "./words.js";

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
