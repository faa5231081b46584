/** The vehicles a request named that were not found, as a few lines. */
import { type Language, messages } from "../../i18n/index.js";
import { userText } from "./text.js";

/** At most this many vehicle problems are listed; the rest are counted. */
const PROBLEMS_SHOWN = 5;

/**
 * Vehicles that were not found, as plain sentences naming what the user typed (with backticks):
 * each escaped and cut, a few listed and the rest counted, so any number of them fits a section.
 */
export function vehicleProblemsMrkdwn(problems: readonly string[], language: Language): string {
  const shown = problems.slice(0, PROBLEMS_SHOWN).map((p) => userText(p, 400));
  const more = problems.length - shown.length;
  return [...shown, ...(more > 0 ? [messages(language).common.andMore(more)] : [])].join("\n");
}
