import { EXAMPLE_UIT, normaliseUit, UIT_LENGTH } from "../platform/fleet/uit.js";
import type { GrammarProblem } from "./problems.js";
import { squeeze } from "./text.js";

// What a UIT is belongs to the domain (src/features/etransport/uit.ts); the grammar reads lists of them.
export { EXAMPLE_UIT, normaliseUit, UIT_LENGTH };

/**
 * Several UITs separated by commas or spaces. Because a UIT may itself be typed in space-separated
 * groups (`Y45R 577U N544 GY4S`), consecutive space-separated words shorter than 16 characters are
 * joined until they reach exactly 16; going past 16, or ending short, is an error naming the piece.
 * A comma always ends a UIT. Duplicates are dropped, order kept.
 */
export function parseUitList(
  text: string,
): { ok: true; uits: string[] } | { ok: false; problem: GrammarProblem } {
  const uits: string[] = [];
  const add = (uit: string): void => {
    if (!uits.includes(uit)) uits.push(uit);
  };
  const incomplete = (piece: string): { ok: false; problem: GrammarProblem } => {
    const length = piece.replace(/[\s\-–—_]/g, "").length;
    return { ok: false, problem: { code: "uitLength", given: piece, length } };
  };
  for (const part of text.split(",")) {
    const words = squeeze(part)
      .split(" ")
      .filter((w) => w !== "");
    let pending: string[] = [];
    let pendingLength = 0;
    for (const word of words) {
      const clean = word.replace(/[-–—_]/g, "");
      if (!/^[A-Za-z0-9]*$/.test(clean)) {
        return { ok: false, problem: { code: "uitCharacters", given: word } };
      }
      if (clean === "") continue;
      if (pendingLength + clean.length > UIT_LENGTH) {
        // A full-length word after a short piece: the short piece is the mistake.
        return incomplete(
          clean.length >= UIT_LENGTH && pending.length > 0 ? pending.join(" ") : [...pending, word].join(" "),
        );
      }
      pending.push(word);
      pendingLength += clean.length;
      if (pendingLength === UIT_LENGTH) {
        add(normaliseUit(pending.join("")) ?? "");
        pending = [];
        pendingLength = 0;
      }
    }
    if (pending.length > 0) return incomplete(pending.join(" "));
  }
  return { ok: true, uits };
}
