import { describeTransportFailure } from "../etransport/failures.js";
import { formatUit } from "../etransport/uit.js";
import { isApplicationFailureError, isFleetError } from "../fleet/errors.js";
import { LinkedAccountUnreadableError } from "../store/accountStore.js";
import type { TaskError } from "./task.js";

const TRANSPORT_ENDPOINTS = new Set([
  "add-transport",
  "update-transport",
  "remove-transports",
  "start-transports",
  "pause-transports",
  "end-transports",
]);

/** What a user and support see of a failed task: fleet errors carry both already; anything else is ours. */
export function describeTaskError(error: unknown): TaskError {
  if (isApplicationFailureError(error) && error.errorCode && TRANSPORT_ENDPOINTS.has(error.endpoint)) {
    // e-Transport failures in a dispatcher's words, with what to do (codes as the service sent them).
    // UITs among the parameters in the one form a dispatcher sees everywhere (dashed in fours).
    const parameters = error.errorParameters.map(formatUit);
    const described = describeTransportFailure(error.errorCode, parameters, error.correlationId);
    return {
      kind: error.kind,
      message: `${described.summary} ${described.advice}`.trim(),
      correlationId: error.correlationId,
    };
  }
  if (isFleetError(error)) {
    return { kind: error.kind, message: error.userMessage, correlationId: error.correlationId };
  }
  if (error instanceof LinkedAccountUnreadableError) return { kind: "credentials", message: error.message };
  return { kind: "internal", message: "Something went wrong inside fleetbot; the details are in its log." };
}
