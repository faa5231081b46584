import { formatInstant } from "../../etransport/form.js";

/** Small text helpers of the e-Transport views (pure). */

/** Plain text cut to `max` characters (for plain_text objects: no escaping). */
export function cut(text: string, max: number): string {
  const chars = [...text];
  if (text.length <= max) return text;
  let out = "";
  for (const ch of chars) {
    if (out.length + ch.length + 1 > max) break;
    out += ch;
  }
  return `${out}…`;
}

/** Defined with the UIT rules (src/etransport/uit.ts): the domain writes UITs too. */
export { formatUit } from "../../etransport/uit.js";

/** A Slack date token (reader's zone) with a fallback in `timeZone` (UTC when absent). */
export function dateToken(ms: number, timeZone?: string, format = "{date_short_pretty} {time}"): string {
  const fallback = formatInstant(ms, timeZone).replace(/[|<>^]/g, " ");
  return `<!date^${Math.floor(ms / 1000)}^${format}|${fallback}>`;
}

/**
 * One mark per severity wherever a transport shows (alert, card, list): red for a fault, amber
 * for a warning, grey for information.
 */
export const SEVERITY_MARKS = { fault: "🔴", warning: "🟠", info: "⚪" } as const;

/** A safe fragment for block ids: letters, digits, dashes (at most 80 characters). */
export function idPart(text: string): string {
  return text.replace(/[^A-Za-z0-9-]/g, "_").slice(0, 80) || "_";
}

import { blocksText } from "./message.js";

export { blocksText };
