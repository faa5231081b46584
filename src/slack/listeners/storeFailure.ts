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

/** The Redis mode's counterpart: the replica lost Redis, where tasks are queued. */
export const CANNOT_QUEUE = noticeMessage(
  ":warning: fleetbot cannot queue requests right now, nothing was queued.",
  "It has lost its connection to Redis; the operator is told by /healthz. Try again in a minute.",
);

const noticeFor = (error: StoreUnavailableError) =>
  /^Redis/.test(error.reason) ? CANNOT_QUEUE : CANNOT_SAVE;

/**
 * Answers every listener whose task could not be stored, within the ack: a command or a button
 * gets the notice (to the user alone), a form gets a modal saying so. Without this the user
 * waited 3 s for Slack's own "failed" and learned nothing.
 */
export function answerStoreFailure(health: {
  failed(error: unknown): boolean;
  status(): { reason?: string };
}): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    try {
      await args.next();
    } catch (caught) {
      // Any read or write the store refused (Redis gone mid-listener included), not only a submission.
      const error =
        caught instanceof StoreUnavailableError
          ? caught
          : health.failed(caught)
            ? new StoreUnavailableError(health.status().reason ?? "")
            : undefined;
      if (!error) throw caught;
      const notice = noticeFor(error);
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
