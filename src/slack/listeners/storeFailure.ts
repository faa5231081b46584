import type {
  AnyMiddlewareArgs,
  Middleware,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackViewMiddlewareArgs,
} from "@slack/bolt";
import { noticeMessage, statusModal } from "../views/common.js";
import { aside, ephemeral } from "./shared.js";

export const CANNOT_SAVE = noticeMessage(
  ":warning: fleetbot cannot save requests right now, nothing was queued.",
  "Its storage is full or read-only; the operator is told by /healthz. Try again in a few minutes.",
);

/** The Redis mode's counterpart: the replica lost Redis, where tasks are queued. */
export const CANNOT_QUEUE = noticeMessage(
  ":warning: fleetbot cannot queue requests right now, nothing was queued.",
  "It has lost its connection to Redis; the operator is told by /healthz. Try again in a minute.",
);

/**
 * Answers every listener whose task could not be stored, within the ack: a command or a button
 * gets the notice (to the user alone), a form gets a modal saying so. Without this the user
 * waited 3 s for Slack's own "failed" and learned nothing.
 */
export function answerStoreFailure(health: {
  /** Records the failure and says whether it was the store's (the disk, or a lost Redis). */
  failed(error: unknown): boolean;
  readonly backend: "sqlite" | "redis";
}): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    try {
      await args.next();
    } catch (error) {
      // Any read or write the store refused, a task's submission or a lookup before the ack alike.
      if (!health.failed(error)) throw error;
      const notice = health.backend === "redis" ? CANNOT_QUEUE : CANNOT_SAVE;
      if (isView(args)) {
        await args.ack({ response_action: "update", view: statusModal("Not saved", notice.text) });
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

const isView = (args: AnyMiddlewareArgs): args is SlackViewMiddlewareArgs => "view" in args;
const isCommand = (args: AnyMiddlewareArgs): args is SlackCommandMiddlewareArgs => "command" in args;
const isAction = (args: AnyMiddlewareArgs): args is SlackActionMiddlewareArgs => "action" in args;
