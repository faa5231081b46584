import type { RespondArguments, SlashCommand } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import type { z } from "zod";
import { messages } from "../../i18n/catalogue.js";
import type { Language } from "../../i18n/language.js";
import type { ReplyTarget, TaskRecord } from "../../tasks/task.js";
import { ONLY_WORKSPACE, type WorkspaceKey } from "../../workspaces/workspace.js";
import type { SlackMessage } from "../views/message.js";
import { noticeMessage } from "../views/notice.js";

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

/** The answer to a user who acts as no fleet account, in their language. */
export function noAccountMessage(language: Language): SlackMessage {
  const t = messages(language).account;
  return noticeMessage(t.noAccount(), t.linkYours());
}

/** A task named by an action, as the clicking user may see it. */
export type TaskOwnership =
  | { owned: true; task: TaskRecord; reason?: undefined }
  | { owned: false; reason: "missing" | "foreign"; task?: undefined };

/**
 * Whether a stored task belongs to a user: it runs as the fleet account they act as, or they
 * submitted it themselves. Anything else (another account's report or list) stays closed.
 */
export function taskOwnership(
  task: TaskRecord | undefined,
  userId: string,
  account: { username: string } | undefined,
  workspace: WorkspaceKey = ONLY_WORKSPACE,
): TaskOwnership {
  if (!task) return { owned: false, reason: "missing" };
  // A task of another workspace: its user and account ids mean nothing here, whatever they say.
  if (task.workspace !== workspace) return { owned: false, reason: "foreign" };
  if (task.slackUser === userId || (account !== undefined && task.account === account.username))
    return { owned: true, task };
  return { owned: false, reason: "foreign" };
}

/** The answer to a click on (or a form about) someone else's message, in the clicker's language. */
export function notYoursAnswer(language: Language): RespondArguments {
  return aside(noticeMessage(messages(language).account.notYours()));
}

/**
 * Whether the user is a member of the channel, by conversations.members (every page). False
 * when Slack hides the channel from the bot (a private channel it is not in: nobody can be
 * shown to be in it); undefined when Slack did not answer (rate limit, network).
 */
export async function isChannelMember(
  client: WebClient,
  channel: string,
  userId: string,
): Promise<boolean | undefined> {
  let cursor: string | undefined;
  try {
    for (let page = 0; page < 50; page++) {
      const answer = await client.conversations.members({
        channel,
        limit: 1000,
        ...(cursor ? { cursor } : {}),
      });
      if (answer.members?.includes(userId)) return true;
      cursor = answer.response_metadata?.next_cursor || undefined;
      if (!cursor) return false;
    }
    return undefined;
  } catch (error) {
    const code =
      typeof error === "object" && error !== null && "data" in error ? slackErrorCode(error.data) : undefined;
    return code === "channel_not_found" || code === "not_in_channel" ? false : undefined;
  }
}

function slackErrorCode(data: unknown): string | undefined {
  return typeof data === "object" && data !== null && "error" in data && typeof data.error === "string"
    ? data.error
    : undefined;
}

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
