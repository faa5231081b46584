/** Small pure text helpers shared by the grammar. */

import { decodeSlackEntities, editDistance, squeeze } from "../../reports/vehicleRefs.js";
import { userCode } from "../views/text.js";

export { decodeSlackEntities, editDistance, squeeze };

/** The closest word of `words` to `input` when close enough to be a plausible typo (or a unique prefix). */
export function closestWord(input: string, words: readonly string[]): string | undefined {
  const needle = input.toLowerCase();
  if (needle.length === 0) return undefined;
  const prefixed = words.filter((w) => w.startsWith(needle));
  if (needle.length >= 2 && prefixed.length === 1) return prefixed[0];
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const word of words) {
    const d = editDistance(needle, word);
    if (d < bestDistance) {
      best = word;
      bestDistance = d;
    }
  }
  const limit = needle.length <= 3 ? 1 : needle.length <= 6 ? 2 : 3;
  return bestDistance <= limit ? best : undefined;
}

/** Split off the first word: `["stops", "B-123-ABC today"]`. */
export function firstWord(text: string): [string, string] {
  const t = squeeze(text);
  const i = t.indexOf(" ");
  return i < 0 ? [t, ""] : [t.slice(0, i), t.slice(i + 1)];
}

/**
 * Inline code for mrkdwn messages, through the views' one escaping function: `&`, `<`, `>`
 * escaped, cut to a short echo, backticks inside replaced so the span cannot break.
 */
export function code(text: string): string {
  return userCode(text);
}

/** A few echoes as inline code, the rest counted: any number of them keeps a message short. */
export function codeList(texts: readonly string[], shown = 5): string {
  const listed = texts.slice(0, shown).map(code).join(", ");
  return texts.length > shown ? `${listed} and ${texts.length - shown} more` : listed;
}
