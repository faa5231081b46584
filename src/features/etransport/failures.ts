/**
 * Service failures ({errorCode, errorParameters} of the envelope, or an item's error code), as
 * codes and data: the words (what happened, what to do) are the catalogue's
 * (`messages(lang).etransport.failure(errorCode, parameters)`, src/i18n/<lang>/etransport.ts),
 * so a failure stored with a task is read in its reader's language. The real catalogue of codes
 * is "not shown" in fleet-api.md; the known ones are the simulator's vocabulary. An unknown code
 * is shown verbatim with its parameters. The correlation id is always given "for support".
 */

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

/** A failure as data: what the catalogue's `failure` message words. */
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
