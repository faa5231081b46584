/**
 * What a user must never get back from fleetbot, whatever they typed: a mention or channel link
 * that came from their text. The hostile pieces below use ids that no fake user or channel has
 * (UX…, CX…, SX…), so any of them in mrkdwn is an echo, never fleetbot's own `<@U0…>`.
 */

/** Mentions and links as Slack sends them (escaping on) and as typed entities. */
export const HOSTILE = [
  "<!channel>",
  "<!here>",
  "<!everyone>",
  "<!subteam^SX1234>",
  "<@UX1234>",
  "<@UX1234|mallory>",
  "<#CX1234|secret>",
  "<https://evil.example|click>",
  "&lt;!channel&gt;",
  "&amp;lt;!here&amp;gt;",
] as const;

/**
 * A `<` in mrkdwn opens a token; fleetbot writes only dates, its own users' and channels' ids
 * (U0…, C0…, D…) and links. Anything else came from outside text.
 */
const OWN_TOKEN =
  /^<(?:!date\^\d+\^[^|<>]*\|[^<>]*|@U0[A-Z0-9]+|#[CD][0-9][A-Z0-9]*(?:\|[^<>]*)?|https?:\/\/[^<>]*)>/;

/** Every mrkdwn string of a payload: `text` of mrkdwn objects and a message's top-level `text`. */
export function mrkdwnTexts(payload: unknown): string[] {
  const out: string[] = [];
  const walk = (value: unknown, topLevel: boolean): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item, false);
      return;
    }
    if (typeof value !== "object" || value === null) return;
    const record = value as Record<string, unknown>;
    const isPlain = record.type === "plain_text";
    for (const [key, inner] of Object.entries(record)) {
      if (key === "text" && typeof inner === "string") {
        if (!isPlain && (topLevel || record.type === "mrkdwn")) out.push(inner);
      } else walk(inner, false);
    }
  };
  walk(payload, true);
  return out;
}

/** The tokens of a mrkdwn text that fleetbot did not write (empty when all is well). */
export function foreignTokens(mrkdwn: string): string[] {
  const found: string[] = [];
  for (let i = mrkdwn.indexOf("<"); i >= 0; i = mrkdwn.indexOf("<", i + 1)) {
    const rest = mrkdwn.slice(i);
    if (!OWN_TOKEN.test(rest)) found.push(rest.slice(0, 40));
  }
  return found;
}

/** Foreign tokens of every mrkdwn text in a payload. */
export function echoedMentions(payload: unknown): string[] {
  return mrkdwnTexts(payload).flatMap(foreignTokens);
}
