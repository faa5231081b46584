/** A report that found no vehicle to run on. */
import type { Language } from "../../../i18n/language.js";
import type { StoredResolutionProblem } from "../../../reports/catalogue.js";
import type { SlackMessage } from "../message.js";
import { noticeMessage } from "../notice.js";
import { resolutionProblemText, vehicleProblemsMrkdwn } from "../vehicleProblems.js";
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
