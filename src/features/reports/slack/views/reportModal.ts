/** The /fleet report form: report, vehicles and period. */
import type { KnownBlock, ModalView, PlainTextOption } from "@slack/types";
import { type Language, messages } from "../../../../i18n/index.js";
import { INPUTS, VIEWS } from "../../../../platform/slack/actionIds.js";
import { plain } from "../../../../platform/slack/views/blocks.js";
import { modalReportChoices } from "./reportViews.js";

export interface ReportModalPrefill {
  report?: string;
  vehicles?: PlainTextOption[];
  fromDateTime?: number;
  toDateTime?: number;
  minMinutes?: number;
}

/**
 * /fleet report: choose report, vehicles (searched from the cached list) and period.
 * `examplePlate`: one of the account's plates, for the placeholder (a made-up one finds nothing).
 */
export function reportModal(
  privateMetadata: string,
  prefill: ReportModalPrefill = {},
  examples: { examplePlate?: string | undefined } = {},
  language: Language,
): ModalView {
  const r = messages(language).reports;
  return {
    type: "modal",
    callback_id: VIEWS.report,
    private_metadata: privateMetadata,
    title: plain(r.modalTitle()),
    submit: plain(r.modalRun()),
    close: plain(r.modalCancel()),
    blocks: [
      reportKindInput(prefill, language),
      vehiclesInput(prefill, examples, language),
      ...periodInputs(prefill, language),
      minMinutesInput(prefill, language),
    ],
  };
}

/** Which report: the reports the modal offers, the prefilled one chosen. */
function reportKindInput(prefill: ReportModalPrefill, language: Language): KnownBlock {
  const r = messages(language).reports;
  const choices = modalReportChoices(language);
  const choice = choices.find((c) => c.value === prefill.report);
  const toOption = (c: { value: string; label: string }): PlainTextOption => ({
    text: plain(c.label),
    value: c.value,
  });
  return {
    type: "input",
    block_id: INPUTS.reportKind.block,
    label: plain(r.modalReport()),
    element: {
      type: "static_select",
      action_id: INPUTS.reportKind.action,
      options: choices.map(toOption),
      ...(choice ? { initial_option: toOption(choice) } : {}),
    },
  };
}

/** The vehicles, searched from the cached list as the user types. */
function vehiclesInput(
  prefill: ReportModalPrefill,
  examples: { examplePlate?: string | undefined },
  language: Language,
): KnownBlock {
  const r = messages(language).reports;
  return {
    type: "input",
    block_id: INPUTS.reportVehicles.block,
    label: plain(r.modalVehicles()),
    hint: plain(r.modalVehiclesHint()),
    element: {
      type: "multi_external_select",
      action_id: INPUTS.reportVehicles.action,
      min_query_length: 0,
      ...(examples.examplePlate
        ? { placeholder: plain(r.modalExample({ plate: examples.examplePlate })) }
        : {}),
      max_selected_items: 100,
      ...(prefill.vehicles && prefill.vehicles.length > 0 ? { initial_options: prefill.vehicles } : {}),
    },
  };
}

/** The period: from and to, both optional. */
function periodInputs(prefill: ReportModalPrefill, language: Language): KnownBlock[] {
  const r = messages(language).reports;
  return [
    {
      type: "input",
      block_id: INPUTS.reportFrom.block,
      label: plain(r.modalFrom()),
      optional: true,
      hint: plain(r.modalFromHint()),
      element: {
        type: "datetimepicker",
        action_id: INPUTS.reportFrom.action,
        ...(prefill.fromDateTime ? { initial_date_time: prefill.fromDateTime } : {}),
      },
    },
    {
      type: "input",
      block_id: INPUTS.reportTo.block,
      label: plain(r.modalTo()),
      optional: true,
      hint: plain(r.modalToHint()),
      element: {
        type: "datetimepicker",
        action_id: INPUTS.reportTo.action,
        ...(prefill.toDateTime ? { initial_date_time: prefill.toDateTime } : {}),
      },
    },
  ];
}

/** The shortest stop to list, in minutes (stops only). */
function minMinutesInput(prefill: ReportModalPrefill, language: Language): KnownBlock {
  const r = messages(language).reports;
  return {
    type: "input",
    block_id: INPUTS.reportMinMinutes.block,
    label: plain(r.modalMinMinutes()),
    optional: true,
    element: {
      type: "number_input",
      is_decimal_allowed: false,
      min_value: "1",
      max_value: "1440",
      action_id: INPUTS.reportMinMinutes.action,
      ...(prefill.minMinutes ? { initial_value: String(prefill.minMinutes) } : {}),
    },
  };
}
