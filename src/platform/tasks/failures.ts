import { isApplicationFailureError, isFleetError } from "../fleet/errors.js";
import { LinkedAccountUnreadableError } from "../store/contract/index.js";
import { WORKSPACE_ACCOUNT_USER } from "../workspaces/workspace.js";
import type { TaskError } from "./task.js";

const TRANSPORT_ENDPOINTS = new Set([
  "add-transport",
  "update-transport",
  "remove-transports",
  "start-transports",
  "pause-transports",
  "end-transports",
]);

/**
 * What a user and support see of a failed task, as a code and its parameters (TaskError): no
 * words are stored, so a task's failure renders in its reader's language whenever it is shown
 * (src/platform/slack/views/taskEnding.ts taskErrorText, from the `tasks` catalogue).
 */
export function describeTaskError(error: unknown): TaskError {
  if (isApplicationFailureError(error) && error.errorCode && TRANSPORT_ENDPOINTS.has(error.endpoint)) {
    // e-Transport failures in a dispatcher's words, with what to do (codes as the service sent them;
    // the UITs among the parameters are shown dashed in fours where it is rendered).
    return {
      kind: error.kind,
      code: "etransport",
      params: { errorCode: error.errorCode, parameters: [...error.errorParameters] },
      ...(error.correlationId ? { correlationId: error.correlationId } : {}),
    };
  }
  if (isFleetError(error)) {
    const { code, params } = error.userFailure();
    return {
      kind: error.kind,
      code,
      ...(params ? { params } : {}),
      ...(error.correlationId ? { correlationId: error.correlationId } : {}),
    };
  }
  if (error instanceof LinkedAccountUnreadableError) {
    return {
      kind: "credentials",
      code: "credentials",
      params: {
        username: error.username,
        ...(error.slackUser === WORKSPACE_ACCOUNT_USER ? { workspace: true } : {}),
      },
    };
  }
  return { kind: "internal", code: "internal" };
}
