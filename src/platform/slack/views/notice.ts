/** A message that only says something: a line, and maybe a detail under it. */
import { context, section } from "./blocks.js";
import type { SlackMessage } from "./message.js";

/** A one-line message (mrkdwn), with `detail` as a context line under it. */
export function noticeMessage(text: string, detail?: string): SlackMessage {
  return { text, blocks: [section(text), ...(detail ? [context(detail)] : [])] };
}
