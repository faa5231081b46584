/** The Block Kit pieces every view builds with: plain and mrkdwn text, sections, context lines. */
import type { KnownBlock } from "@slack/types";

export const plain = (text: string) => ({ type: "plain_text" as const, text, emoji: true });
export const mrkdwn = (text: string) => ({ type: "mrkdwn" as const, text });
export const section = (text: string, blockId?: string): KnownBlock => ({
  type: "section",
  ...(blockId ? { block_id: blockId } : {}),
  text: mrkdwn(text),
});
export const context = (text: string): KnownBlock => ({ type: "context", elements: [mrkdwn(text)] });

/** Splits long mrkdwn into sections of at most `limit` characters, at line breaks. */
export function sectionsOf(text: string, limit = 2900): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  let current = "";
  for (const line of text.split("\n")) {
    const piece = line.length > limit ? `${line.slice(0, limit - 1)}…` : line;
    if (current && current.length + piece.length + 1 > limit) {
      blocks.push(section(current));
      current = "";
    }
    current = current ? `${current}\n${piece}` : piece;
  }
  if (current) blocks.push(section(current));
  return blocks;
}
