import type {
  AnyMiddlewareArgs,
  Middleware,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackViewMiddlewareArgs,
} from "@slack/bolt";
import { noticeMessage, statusModal } from "../views/common.js";
import { aside, ephemeral } from "./shared.js";

/** A task could not be stored (disk full, read-only): nothing was queued. */
export class StoreUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(`The store cannot be written: ${reason}`);
    this.name = "StoreUnavailableError";
  }
}

export const CANNOT_SAVE = noticeMessage(
  ":warning: fleetbot cannot save requests right now, nothing was queued.",
  "Its storage is full or read-only; the operator is told by /healthz. Try again in a few minutes.",
);

/**
 * Answers every listener whose task could not be stored, within the ack: a command or a button
 * gets the notice (to the user alone), a form gets a modal saying so. Without this the user
 * waited 3 s for Slack's own "failed" and learned nothing.
 */
export const answerStoreFailure: Middleware<AnyMiddlewareArgs> = async (args) => {
  try {
    await args.next();
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    if (isView(args)) {
      await args.ack({ response_action: "update", view: statusModal("Not saved", CANNOT_SAVE.text) });
    } else if (isCommand(args)) {
      // A command is acknowledged after its task is stored: the notice is the ack itself.
      await args.ack(ephemeral(CANNOT_SAVE));
    } else if (isAction(args)) {
      // Buttons acknowledge first: say it beside the clicked message.
      await args.respond(aside(CANNOT_SAVE));
    }
  }
};

const isView = (args: AnyMiddlewareArgs): args is SlackViewMiddlewareArgs => "view" in args;
const isCommand = (args: AnyMiddlewareArgs): args is SlackCommandMiddlewareArgs => "command" in args;
const isAction = (args: AnyMiddlewareArgs): args is SlackActionMiddlewareArgs => "action" in args;
