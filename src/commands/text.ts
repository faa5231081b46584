/** Small pure text helpers shared by the grammar. */

import { userCode } from "../platform/slack/views/text.js";
import { decodeSlackEntities, editDistance, squeeze } from "../platform/vehicles/vehicleRefs.js";

export { decodeSlackEntities, editDistance, squeeze };

/**
 * Without diacritics: `săptămâna`, `saptamâna` and `saptamana` meet, and so do the comma-below
 * `ș`/`ț` (U+0219/U+021B) and the cedilla `ş`/`ţ` (U+015F/U+0163) Romanian keyboards also produce.
 */
export function withoutDiacritics(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "");
}

/** A word as the grammar compares it: lower case, without diacritics. */
export function foldWord(word: string): string {
  return withoutDiacritics(word.toLowerCase());
}

/**
 * The closest word of `words` to `input` when close enough to be a plausible typo (or a unique prefix).
 * Compared without case and diacritics (`coada` is `coadă`); of two words equal so (`alimentări`,
 * `alimentari`) the one nearer to what was typed is given.
 */
export function closestWord(input: string, words: readonly string[]): string | undefined {
  const typed = input.toLowerCase();
  const needle = foldWord(input);
  if (needle.length === 0) return undefined;
  const meanings = new Map<string, string[]>();
  for (const word of words) meanings.set(foldWord(word), [...(meanings.get(foldWord(word)) ?? []), word]);
  // Of equal spellings the nearest to what was typed; on a tie, the one written as plainly as it.
  const plain = foldWord(typed) === typed;
  const cost = (w: string) => editDistance(typed, w) * 2 + (plain === (foldWord(w) === w) ? 0 : 1);
  const nearest = (spellings: readonly string[]) => spellings.reduce((a, b) => (cost(b) < cost(a) ? b : a));
  const prefixed = [...meanings.keys()].filter((w) => w.startsWith(needle));
  if (needle.length >= 2 && prefixed.length === 1) return nearest(meanings.get(prefixed[0] ?? "") ?? []);
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const word of meanings.keys()) {
    const d = editDistance(needle, word);
    if (d < bestDistance) {
      best = word;
      bestDistance = d;
    }
  }
  const limit = needle.length <= 3 ? 1 : needle.length <= 6 ? 2 : 3;
  return best !== undefined && bestDistance <= limit ? nearest(meanings.get(best) ?? [best]) : undefined;
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
