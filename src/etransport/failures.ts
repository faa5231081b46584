/**
 * Service failures ({errorCode, errorParameters} of the envelope, or an item's error code), as
 * codes and data: the words (what happened, what to do) are the catalogue's
 * (`messages(lang).etransport.failure(errorCode, parameters)`, src/i18n/<lang>/etransport.ts),
 * so a failure stored with a task is read in its reader's language. The real catalogue of codes
 * is "not shown" in fleet-api.md; the known ones are the simulator's vocabulary. An unknown code
 * is shown verbatim with its parameters. The correlation id is always given "for support".
 */
import { messages } from "../i18n/catalogue.js";

/** The codes fleetbot explains (any other is shown as the service sent it). */
export const KNOWN_TRANSPORT_FAILURES = [
  "TransportNotFound",
  "TransportAlreadyExists",
  "VehicleNotFound",
  "InvalidTransportState",
  "TransportFinalized",
  "UitValidityNotStarted",
  "UitValidityEnded",
  "AccessDenied",
] as const;
export type KnownTransportFailure = (typeof KNOWN_TRANSPORT_FAILURES)[number];

const KNOWN: ReadonlySet<string> = new Set(KNOWN_TRANSPORT_FAILURES);

export function isKnownTransportFailure(code: string): code is KnownTransportFailure {
  return KNOWN.has(code);
}

/** A failure as data: what the catalogue's `failure` and `failureSupport` messages word. */
export interface TransportFailure {
  code: string;
  known: boolean;
  parameters: readonly string[];
  correlationId?: string;
}

export function transportFailure(
  errorCode: string,
  errorParameters: readonly string[] = [],
  correlationId?: string,
): TransportFailure {
  return {
    code: errorCode,
    known: isKnownTransportFailure(errorCode),
    parameters: errorParameters,
    ...(correlationId ? { correlationId } : {}),
  };
}

export interface TransportFailureDescription {
  code: string;
  known: boolean;
  /** What happened, plain words (plain text, not escaped). */
  summary: string;
  /** What to do. */
  advice: string;
  correlationId?: string;
  /** summary + advice + support line, as plain text (escape it for mrkdwn). */
  text: string;
}

/**
 * The failure in English words. Kept for src/tasks/failures.ts until a task's failure is stored as
 * its code and parameters and rendered with `messages(lang).etransport.failure(code, parameters)`
 * in the reader's language; new code calls the catalogue.
 * @deprecated use `transportFailure` and `messages(lang).etransport.failure`.
 */
export function describeTransportFailure(
  errorCode: string,
  errorParameters: readonly string[] = [],
  correlationId?: string,
): TransportFailureDescription {
  const m = messages("en").etransport;
  const summary = m.failureSummary(errorCode, errorParameters);
  const advice = m.failureAdvice(errorCode, errorParameters);
  const description: TransportFailureDescription = {
    code: errorCode,
    known: isKnownTransportFailure(errorCode),
    summary,
    advice,
    text: `${summary} ${advice} ${m.failureSupport({ correlationId: correlationId ?? "" })}`,
  };
  if (correlationId) description.correlationId = correlationId;
  return description;
}
