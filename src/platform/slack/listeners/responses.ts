/** How a listener answers: Bolt's ack, ephemeral and aside responses, and the refusals every family gives. */
import type { RespondArguments } from "@slack/bolt";
import { messages } from "../../../i18n/catalogue.js";
import type { Language } from "../../../i18n/language.js";
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

/** The answer to a click on (or a form about) someone else's message, in the clicker's language. */
export function notYoursAnswer(language: Language): RespondArguments {
  return aside(noticeMessage(messages(language).account.notYours()));
}
