import type { KnownBlock } from "@slack/types";

/** What a view returns: a Slack message body (chat.postMessage, chat.update, response_url). */
export type SlackMessage = { text: string; blocks: KnownBlock[] };

/**
 * Slack date formatting, `<!date^{unixSeconds}^{format}|{fallback}>`: each reader sees
 * the instant in their own zone. The fallback is shown by clients that cannot render it;
 * by default the UTC time. `|`, `<` and `>` are removed from it (they would end the token).
 */
export function slackDate(ms: number, format = "{date_short_pretty} {time}", fallback?: string): string {
  const text = fallback ?? `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return `<!date^${Math.floor(ms / 1000)}^${format}|${text.replace(/[|<>]/g, " ")}>`;
}

/** Characters of text in blocks, counted as Slack's undocumented total limit does (every "text" string). */
export function blocksText(value: unknown): number {
  if (Array.isArray(value)) return value.reduce<number>((sum, item) => sum + blocksText(item), 0);
  if (typeof value !== "object" || value === null) return 0;
  let sum = 0;
  for (const [key, inner] of Object.entries(value)) {
    if (key === "text" && typeof inner === "string") sum += inner.length;
    else if (typeof inner === "object" && inner !== null) sum += blocksText(inner);
  }
  return sum;
}
