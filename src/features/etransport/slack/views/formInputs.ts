/** The inputs the transport form is built of: text fields and date-time pickers. */
import type { InputBlock } from "@slack/types";
import { plain } from "../../../../platform/slack/views/blocks.js";
import { pickerMinute } from "../../form.js";

/** Picker value of an instant: unix seconds, floored to the minute (the picker's precision). */
export function pickerSeconds(ms: number): number {
  return pickerMinute(ms) / 1000;
}

export function textInput(
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

export function dateTimeInput(
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
