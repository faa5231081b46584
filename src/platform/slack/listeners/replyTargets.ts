/** Where a task's progress and answer go: the command's or the clicked message's response_url, and its channel. */
import type { SlashCommand } from "@slack/bolt";
import type { Language } from "../../../i18n/language.js";
import type { ReplyTarget } from "../../tasks/task.js";

/** `language`: the asking user's, resolved once for the request (the task is rendered in it). */
export function replyFromCommand(command: SlashCommand, now: number, language: Language): ReplyTarget {
  return {
    responseUrl: command.response_url,
    responseUrlIssuedAt: now,
    responseUrlUses: 0,
    channel: command.channel_id,
    teamId: command.team_id,
    language,
  };
}

/** Where to answer a button click: its response_url (which can replace the clicked message). */
export function replyFromAction(
  body: { response_url?: string; channel?: { id: string } },
  now: number,
  language: Language,
): ReplyTarget {
  return body.response_url
    ? {
        responseUrl: body.response_url,
        responseUrlIssuedAt: now,
        responseUrlUses: 0,
        channel: body.channel?.id,
        language,
      }
    : { channel: body.channel?.id, language };
}
