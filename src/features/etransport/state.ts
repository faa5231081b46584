import { TRANSPORT_STATUS } from "../../platform/fleet/schemas.js";
import { type AlertSeverity, alertSeverity } from "./severity.js";
import type { TransportAction, TransportView } from "./types.js";

/**
 * What a transport's status and transmission status mean to a dispatcher, and what fleetbot
 * lets them do with it. The service gives no transition table (fleet-api.md, "not shown"),
 * so the allowed actions are fleetbot's rules: Start from Pending or Paused, Pause from In
 * Progress, End from In Progress or Paused, Edit while not finished, Remove always
 * (irreversible). An unknown status id allows only Remove.
 */

/**
 * How a card or list line marks a transport. A problem transmission code takes the alert's
 * severity (`alertSeverity`), so a vehicle abroad on an international route is information
 * in the list as in the alert, and OldData a warning in both.
 */
export type Severity = "ok" | "info" | "warning" | "bad";

const FROM_ALERT_SEVERITY: Readonly<Record<AlertSeverity, Severity>> = {
  fault: "bad",
  warning: "warning",
  info: "info",
};

/** The worst first. */
const SEVERITY_ORDER: readonly Severity[] = ["bad", "warning", "info", "ok"];

/** The status ids fleet-api.md lists (an unknown one allows only Remove, and warns). */
const KNOWN_STATUS: ReadonlySet<number> = new Set(Object.values(TRANSPORT_STATUS));

/**
 * A transmission status as data: its code, whether fleet-api.md lists it, and how serious it is
 * here. Its meaning and advice are words: the catalogue's (etransport.transmissionMeaning,
 * transmissionStatus, transmissionAdvice).
 */
export interface TransmissionInfo {
  /** Undefined when the service reported none. */
  code: string | undefined;
  /** fleet-api.md lists the code. */
  known: boolean;
  severity: Severity;
}

const TRANSMISSION_CODES: ReadonlySet<string> = new Set([
  "Active",
  "NotStarted",
  "WithoutTransmission",
  "Error",
  "NotInRomania",
  "MissingETransportConfiguration",
  "OldData",
  "NoGPSCoordinates",
  "Finalized",
]);

/** Codes that are a problem in any state; how serious, `alertSeverity` says. */
const PROBLEM_TRANSMISSION: ReadonlySet<string> = new Set([
  "Error",
  "OldData",
  "NoGPSCoordinates",
  "NotInRomania",
  "MissingETransportConfiguration",
]);

const CHANGE_REQUEST_CODES: ReadonlySet<string> = new Set([
  "RequestCreated",
  "RequestSent",
  "RequestErrorSent",
  "ResponseSuccess",
  "ResponseError",
]);
const BAD_CHANGE_REQUEST: ReadonlySet<string> = new Set(["RequestErrorSent", "ResponseError"]);

export interface TransportStateInfo {
  statusId: number;
  /** fleet-api.md lists the status id (its name: the catalogue's etransport.transportStatus). */
  knownStatus: boolean;
  /** Completed or Auto Completed: can no longer be modified. */
  finished: boolean;
  /** Allowed actions, in button order (start, pause, end, edit, remove). */
  actions: TransportAction[];
  transmission: TransmissionInfo;
  /** Set when a change request (vehicle change) status is present. */
  changeRequest?: { code: string; known: boolean; severity: Severity };
  /** The worst of status (Error is bad), transmission and change request. */
  severity: Severity;
}

/** The places of a route: whether NotInRomania is expected depends on them. */
export type TransportRoute = Pick<TransportView, "startLocation" | "endLocation">;

/** The fields transportStateInfo reads; both Transport and TransportView have them. */
export interface TransportStateInput extends Partial<TransportRoute> {
  statusId: number;
  transmissionStatusCode?: string | undefined;
  changeRequestStatusCode?: string | undefined;
}

export function allowedTransportActions(statusId: number): TransportAction[] {
  const S = TRANSPORT_STATUS;
  if (!KNOWN_STATUS.has(statusId)) return ["remove"];
  const finished = statusId === S.completed || statusId === S.autoCompleted;
  const actions: TransportAction[] = [];
  if (statusId === S.pending || statusId === S.paused) actions.push("start");
  if (statusId === S.inProgress) actions.push("pause");
  if (statusId === S.inProgress || statusId === S.paused) actions.push("end");
  if (!finished) actions.push("edit");
  actions.push("remove");
  return actions;
}

export function transmissionInfo(
  code: string | undefined,
  statusId: number,
  route: TransportRoute = {},
): TransmissionInfo {
  if (code === undefined || code === "") return { code: undefined, known: false, severity: "ok" };
  if (!TRANSMISSION_CODES.has(code)) return { code, known: false, severity: "warning" };
  const inProgress = statusId === TRANSPORT_STATUS.inProgress;
  let severity: Severity = "ok";
  if (PROBLEM_TRANSMISSION.has(code) || (code === "WithoutTransmission" && inProgress)) {
    severity = FROM_ALERT_SEVERITY[alertSeverity({ kind: "transmission", code, facts: route })];
  } else if (code === "NotStarted" && inProgress) severity = "warning";
  return { code, known: true, severity };
}

export function transportStateInfo(transport: TransportStateInput): TransportStateInfo {
  const { statusId } = transport;
  const finished = statusId === TRANSPORT_STATUS.completed || statusId === TRANSPORT_STATUS.autoCompleted;
  const transmission = transmissionInfo(transport.transmissionStatusCode, statusId, {
    startLocation: transport.startLocation,
    endLocation: transport.endLocation,
  });
  const info: TransportStateInfo = {
    statusId,
    knownStatus: KNOWN_STATUS.has(statusId),
    finished,
    actions: allowedTransportActions(statusId),
    transmission,
    severity: "ok",
  };
  const cr = transport.changeRequestStatusCode;
  if (cr !== undefined && cr !== "") {
    const known = CHANGE_REQUEST_CODES.has(cr);
    info.changeRequest = {
      code: cr,
      known,
      severity: BAD_CHANGE_REQUEST.has(cr) ? "bad" : known ? "ok" : "warning",
    };
  }
  const severities: Severity[] = [
    statusId === TRANSPORT_STATUS.error ? "bad" : info.knownStatus ? "ok" : "warning",
    transmission.severity,
    info.changeRequest?.severity ?? "ok",
  ];
  info.severity = SEVERITY_ORDER.find((s) => severities.includes(s)) ?? "ok";
  return info;
}
