import type {
  AnyMiddlewareArgs,
  Middleware,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackViewMiddlewareArgs,
} from "@slack/bolt";
import { messages } from "../../../i18n/catalogue.js";
import type { Language } from "../../../i18n/language.js";
import { resolveLanguage } from "../../../i18n/resolve.js";
import type { SlackMessage } from "../views/message.js";
import { noticeMessage } from "../views/notice.js";
import { statusModal } from "../views/statusModal.js";
import { aside, ephemeral } from "./responses.js";

/** The notice when the store refuses a write (SQLite: disk full or read-only). */
export function cannotSaveMessage(language: Language): SlackMessage {
  const t = messages(language).tasks;
  return noticeMessage(t.cannotSave(), t.cannotSaveDetail());
}

/** The Redis mode's counterpart: the replica lost Redis, where tasks are queued. */
export function cannotQueueMessage(language: Language): SlackMessage {
  const t = messages(language).tasks;
  return noticeMessage(t.cannotQueue(), t.cannotQueueDetail());
}

/**
 * Answers every listener whose task could not be stored, within the ack: a command or a button
 * gets the notice (to the user alone), a form gets a modal saying so. Without this the user
 * waited 3 s for Slack's own "failed" and learned nothing.
 *
 * In `defaultLanguage` (DEFAULT_LANGUAGE), or the language Slack's locale hints at when the
 * request carries one: the user's own choice and the workspace's default live in the store that
 * has just failed, so they are not read again here.
 */
export function answerStoreFailure(
  health: {
    /** Records the failure and says whether it was the store's (the disk, or a lost Redis). */
    failed(error: unknown): boolean;
    readonly outage: "unwritable" | "unreachable";
  },
  defaultLanguage: Language = "en",
): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    try {
      await args.next();
    } catch (error) {
      // Any read or write the store refused, a task's submission or a lookup before the ack alike.
      if (!health.failed(error)) throw error;
      const language = resolveLanguage({ configured: defaultLanguage, slackLocale: localeOf(args.body) });
      const notice =
        health.outage === "unreachable" ? cannotQueueMessage(language) : cannotSaveMessage(language);
      if (isView(args)) {
        await args.ack({
          response_action: "update",
          view: statusModal(messages(language).tasks.notSavedTitle(), notice.text, undefined, language),
        });
      } else if (isCommand(args)) {
        // A command is acknowledged after its task is stored: the notice is the ack itself.
        await args.ack(ephemeral(notice));
      } else if (isAction(args)) {
        // Buttons acknowledge first: say it beside the clicked message.
        await args.respond(aside(notice));
      }
    }
  };
}

/** The `user.locale` Slack sends with some payloads (a hint only: src/i18n/resolve.ts). */
function localeOf(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null || !("user" in body)) return undefined;
  const user = body.user;
  if (typeof user !== "object" || user === null || !("locale" in user)) return undefined;
  return typeof user.locale === "string" ? user.locale : undefined;
}

const isView = (args: AnyMiddlewareArgs): args is SlackViewMiddlewareArgs => "view" in args;
const isCommand = (args: AnyMiddlewareArgs): args is SlackCommandMiddlewareArgs => "command" in args;
const isAction = (args: AnyMiddlewareArgs): args is SlackActionMiddlewareArgs => "action" in args;
