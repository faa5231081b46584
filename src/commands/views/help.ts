/** The help of a command family (/fleet help, /fleet transport help, …) as a message. */
import { section, sectionsOf } from "../../platform/slack/views/blocks.js";
import type { SlackMessage } from "../../platform/slack/views/message.js";

/** `title`: the message's text for notifications (help.title in the reader's language). */
export function helpMessage(help: string, intro: string | undefined, title: string): SlackMessage {
  return {
    text: title,
    blocks: [...(intro ? [section(intro)] : []), ...sectionsOf(help)],
  };
}
