/**
 * Service failures ({errorCode, errorParameters} of the envelope, or an item's error code)
 * in a dispatcher's words. The real catalogue of codes is "not shown" in fleet-api.md; the
 * known ones are the simulator's vocabulary. Unknown codes are shown verbatim with their
 * parameters. The correlation id is always given "for support".
 */

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

type Describer = (params: readonly string[]) => { summary: string; advice: string };

const list = (params: readonly string[], fallback: string): string =>
  params.length === 0 ? fallback : params.join(", ");
/** " Y45R…" with a leading space, or "" when no parameter names it. */
const named = (params: readonly string[]): string => (params.length === 0 ? "" : ` ${params.join(", ")}`);

const KNOWN: Readonly<Record<string, Describer>> = {
  TransportNotFound: (p) => ({
    summary: `The fleet service does not know the transport ${list(p, "asked for")}.`,
    advice: "Check the UIT (see `/etransport list all`); it may have been removed.",
  }),
  TransportAlreadyExists: (p) => ({
    summary: `A transport with UIT ${list(p, "this UIT")} already exists.`,
    advice: "Edit the existing one with `/etransport edit <UIT>` instead of adding it again.",
  }),
  VehicleNotFound: (p) => ({
    summary: `The fleet service does not know the vehicle ${list(p, "chosen")}.`,
    advice: "Choose the vehicle again from the list; it may have been removed from the account.",
  }),
  InvalidTransportState: (p) => ({
    summary:
      p.length >= 2
        ? `Transport ${p[0]} is ${p[1]}: that action is not possible in this state.`
        : `Transport${named(p)} is not in a state that allows this action.`,
    advice: "Start works on Pending or Paused, Pause on In Progress, End on In Progress or Paused.",
  }),
  TransportFinalized: (p) => ({
    summary: `Transport${named(p)} has ended (Completed or Auto Completed) and can no longer be modified.`,
    advice: "For a new journey, request a new UIT and add it with `/etransport new`.",
  }),
  UitValidityNotStarted: (p) => ({
    summary: `The validity of UIT${named(p)} has not started yet.`,
    advice: "Start the transport once its validity has begun, or correct the validity start with Edit.",
  }),
  UitValidityEnded: (p) => ({
    summary: `The validity of UIT${named(p)} has ended.`,
    advice: "An expired UIT may not be used: request a new UIT on the e-Transport platform.",
  }),
  AccessDenied: (p) => ({
    summary: `The linked fleet account has no rights to ${list(p, "this transport or vehicle")}.`,
    advice: "Ask the fleet administrator for access, or use an account that has it.",
  }),
};

export function isKnownTransportFailure(code: string): boolean {
  return Object.hasOwn(KNOWN, code);
}

export function describeTransportFailure(
  errorCode: string,
  errorParameters: readonly string[] = [],
  correlationId?: string,
): TransportFailureDescription {
  const describe = Object.hasOwn(KNOWN, errorCode) ? KNOWN[errorCode] : undefined;
  const { summary, advice } = describe
    ? describe(errorParameters)
    : {
        summary: `The fleet service answered ${errorCode || "an unnamed error"}${
          errorParameters.length > 0 ? ` (${errorParameters.join(", ")})` : ""
        }.`,
        advice: "Check the transport with `/etransport list all`; if it persists, contact support.",
      };
  const support = correlationId
    ? `For support: correlation id ${correlationId}.`
    : "For support: the service gave no correlation id.";
  const description: TransportFailureDescription = {
    code: errorCode,
    known: describe !== undefined,
    summary,
    advice,
    text: `${summary} ${advice} ${support}`,
  };
  if (correlationId) description.correlationId = correlationId;
  return description;
}
