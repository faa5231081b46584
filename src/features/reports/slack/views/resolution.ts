/** A report that found no vehicle to run on. */
import type { Language } from "../../../../i18n/language.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import { noticeMessage } from "../../../../platform/slack/views/notice.js";
import {
  resolutionProblemText,
  vehicleProblemsMrkdwn,
} from "../../../../platform/slack/views/vehicleProblems.js";
import type { StoredResolutionProblem } from "../../catalogue.js";
import { words } from "./reportFormat.js";

/**
 * A report that found no vehicle to run on: each problem in the reader's language (a legacy
 * English sentence of an older task as it is), and how vehicles are named.
 */
export function resolutionMessage(
  problems: readonly StoredResolutionProblem[],
  lang: Language,
): SlackMessage {
  const m = words(lang);
  const lines = problems.map((p) =>
    typeof p === "string" ? p : p.kind === "no-vehicle" ? m.nameOneVehicle() : resolutionProblemText(p, lang),
  );
  return noticeMessage(`:warning: ${vehicleProblemsMrkdwn(lines, lang)}`, m.vehiclesNamedHint());
}
