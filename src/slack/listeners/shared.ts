import type { RespondArguments, SlashCommand } from "@slack/bolt";
import type { z } from "zod";
import type { ReplyTarget } from "../../tasks/task.js";
import { noticeMessage } from "../views/common.js";
import type { SlackMessage } from "../views/message.js";

/** Bolt's ack of a command or action. */
export type Ack = (response?: string | RespondArguments) => Promise<void>;

export const ephemeral = (message: SlackMessage): RespondArguments => ({
  response_type: "ephemeral",
  ...message,
});

/** Said to the clicking user alone, beside the message they clicked. */
export const aside = (message: Pick<SlackMessage, "text"> & Partial<SlackMessage>): RespondArguments => ({
  response_type: "ephemeral",
  replace_original: false,
  ...message,
});

export const NO_ACCOUNT = noticeMessage(
  "You have not linked a fleet account, and this workspace has none configured.",
  "Link yours with /fleet login.",
);

export function replyFromCommand(command: SlashCommand, now: number): ReplyTarget {
  return {
    responseUrl: command.response_url,
    responseUrlIssuedAt: now,
    responseUrlUses: 0,
    channel: command.channel_id,
    teamId: command.team_id,
  };
}

/** Where to answer a button click: its response_url (which can replace the clicked message). */
export function replyFromAction(
  body: { response_url?: string; channel?: { id: string } },
  now: number,
): ReplyTarget {
  return body.response_url
    ? {
        responseUrl: body.response_url,
        responseUrlIssuedAt: now,
        responseUrlUses: 0,
        channel: body.channel?.id,
      }
    : { channel: body.channel?.id };
}

/** A JSON value (a button's value, a modal's private_metadata) read with its schema; undefined when it does not fit. */
export function parseJson<T>(schema: z.ZodType<T>, text: string | undefined): T | undefined {
  if (!text) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
