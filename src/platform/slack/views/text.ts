/**
 * The one way text that fleetbot did not write itself (a user's command, a vehicle name, an
 * answer of the fleet service) enters Slack mrkdwn. Slack reads `<…>` in mrkdwn as a mention,
 * a channel link, `<!channel>` or a URL, and `&` as the start of an entity: escaping those three
 * characters makes such text read as typed. Cutting it in the same step keeps every echo within
 * a budget, so a block that holds it stays within Slack's limits whatever was typed.
 *
 * Mentions and date tokens that fleetbot means (`<@U…>` of the asking user, `<!date^…>`) are
 * written by the views around escaped text, never through it.
 */

const ENTITY: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };

/** Budget of one echo of a user's word or argument inside a sentence (e.g. a vehicle they typed). */
export const ECHO_MAX = 100;

/**
 * `text` escaped for mrkdwn (`&`, `<`, `>`) and cut to at most `max` characters of output, with
 * `…` marking a cut. An entity or a surrogate pair is never split, so the budget holds exactly
 * whatever the text holds.
 */
export function userText(text: string, max: number): string {
  // Most echoes (a plate, a report's period) have nothing to escape and fit: as typed, without the walk.
  if (text.length <= max && !/[&<>]/.test(text)) return text;
  let out = "";
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] ?? "";
    const piece = ENTITY[ch] ?? ch;
    // Room for the ellipsis is kept while more characters follow.
    const more = i < chars.length - 1 ? 1 : 0;
    if (out.length + piece.length + more > max) return `${out}…`;
    out += piece;
  }
  return out;
}

/**
 * Inline code of outside text: escaped and cut like {@link userText} (`max` counts the inside of
 * the span), with backticks replaced so the span cannot end early. Slack does not show a mention
 * inside backticks as a mention everywhere the same way (notifications, the `text` fallback), so
 * code spans are escaped like any other text.
 */
export function userCode(text: string, max: number = ECHO_MAX): string {
  return `\`${userText(text.replace(/`/g, "'"), max)}\``;
}

/**
 * Cuts mrkdwn that fleetbot built (escaped echoes inside) to at most `max` characters without
 * splitting an entity: the last guard of a block whose parts are each within budget.
 */
export function fitMrkdwn(mrkdwn: string, max: number): string {
  if (mrkdwn.length <= max) return mrkdwn;
  let end = max - 1;
  const amp = mrkdwn.lastIndexOf("&", end - 1);
  // An entity is at most 5 characters (`&amp;`): a `&` close before the cut without its `;` is one.
  if (amp >= 0 && end - amp < 5 && !mrkdwn.slice(amp, end).includes(";")) end = amp;
  const cut = mrkdwn.slice(0, end);
  // Never leave half a surrogate pair.
  const last = cut.charCodeAt(cut.length - 1);
  return `${last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut}…`;
}

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
