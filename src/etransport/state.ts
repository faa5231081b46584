import { type AlertSeverity, alertSeverity } from "../alerts/severity.js";
import { TRANSPORT_STATUS } from "../fleet/schemas.js";
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

export const TRANSPORT_STATUS_NAMES: Readonly<Record<number, string>> = {
  [TRANSPORT_STATUS.pending]: "Pending",
  [TRANSPORT_STATUS.inProgress]: "In Progress",
  [TRANSPORT_STATUS.completed]: "Completed",
  [TRANSPORT_STATUS.autoCompleted]: "Auto Completed",
  [TRANSPORT_STATUS.error]: "Error",
  [TRANSPORT_STATUS.paused]: "Paused",
};

export interface TransmissionInfo {
  code: string | undefined;
  /** The service's meaning of the code. */
  meaning: string;
  /** Usual cause and what to do (etransport-notes.md), when there is something to do. */
  advice?: string;
  severity: Severity;
}

const TRANSMISSION: Readonly<Record<string, { meaning: string; advice?: string }>> = {
  Active: { meaning: "positions are being sent" },
  NotStarted: { meaning: "waiting for transmission", advice: "start the transport before departure" },
  WithoutTransmission: {
    meaning: "no active GPS transmission",
    advice: "vehicle parked with the engine off, or a tracking device fault",
  },
  Error: {
    meaning: "data transmission error",
    advice:
      "wrong plate on a manually entered transport, or the platform not receiving; check the plate, contact support",
  },
  NotInRomania: {
    meaning: "not on Romanian territory",
    advice: "expected abroad; positions are not sent outside Romania",
  },
  MissingETransportConfiguration: {
    meaning: "e-Transport configuration error",
    advice: "the company's e-Transport setup at the tracking service is incomplete; contact support",
  },
  OldData: {
    meaning: "data older than 6 hours",
    advice:
      "no GSM signal for over 6 hours: the data can no longer be sent to the platform; use the ANAF app as fallback",
  },
  NoGPSCoordinates: {
    meaning: "no GPS signal",
    advice: "check the device and its antenna; use the ANAF app as fallback",
  },
  Finalized: { meaning: "transmission finalized" },
};

/** Codes that are a problem in any state; how serious, `alertSeverity` says. */
const PROBLEM_TRANSMISSION: ReadonlySet<string> = new Set([
  "Error",
  "OldData",
  "NoGPSCoordinates",
  "NotInRomania",
  "MissingETransportConfiguration",
]);

export const CHANGE_REQUEST_MEANINGS: Readonly<Record<string, string>> = {
  RequestCreated: "request created",
  RequestSent: "request sent successfully",
  RequestErrorSent: "error sending request",
  ResponseSuccess: "completed successfully",
  ResponseError: "completed with error",
};
const BAD_CHANGE_REQUEST: ReadonlySet<string> = new Set(["RequestErrorSent", "ResponseError"]);

export interface TransportStateInfo {
  statusId: number;
  statusName: string;
  /** Completed or Auto Completed: can no longer be modified. */
  finished: boolean;
  /** Allowed actions, in button order (start, pause, end, edit, remove). */
  actions: TransportAction[];
  transmission: TransmissionInfo;
  /** Set when a change request (vehicle change) status is present. */
  changeRequest?: { code: string; meaning: string; severity: Severity };
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

export function transportStatusName(statusId: number): string {
  return TRANSPORT_STATUS_NAMES[statusId] ?? `Unknown status (${statusId})`;
}

export function allowedTransportActions(statusId: number): TransportAction[] {
  const S = TRANSPORT_STATUS;
  if (!(statusId in TRANSPORT_STATUS_NAMES)) return ["remove"];
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
  if (code === undefined || code === "") {
    return { code: undefined, meaning: "no transmission status reported", severity: "ok" };
  }
  const known = TRANSMISSION[code];
  if (!known) return { code, meaning: `unknown transmission status “${code}”`, severity: "warning" };
  const inProgress = statusId === TRANSPORT_STATUS.inProgress;
  let severity: Severity = "ok";
  if (PROBLEM_TRANSMISSION.has(code) || (code === "WithoutTransmission" && inProgress)) {
    severity = FROM_ALERT_SEVERITY[alertSeverity({ kind: "transmission", code, facts: route })];
  } else if (code === "NotStarted" && inProgress) severity = "warning";
  return { code, ...known, severity };
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
    statusName: transportStatusName(statusId),
    finished,
    actions: allowedTransportActions(statusId),
    transmission,
    severity: "ok",
  };
  const cr = transport.changeRequestStatusCode;
  if (cr !== undefined && cr !== "") {
    info.changeRequest = {
      code: cr,
      meaning: CHANGE_REQUEST_MEANINGS[cr] ?? `unknown change request status “${cr}”`,
      severity: BAD_CHANGE_REQUEST.has(cr) ? "bad" : cr in CHANGE_REQUEST_MEANINGS ? "ok" : "warning",
    };
  }
  const severities: Severity[] = [
    statusId === TRANSPORT_STATUS.error ? "bad" : statusId in TRANSPORT_STATUS_NAMES ? "ok" : "warning",
    transmission.severity,
    info.changeRequest?.severity ?? "ok",
  ];
  info.severity = SEVERITY_ORDER.find((s) => severities.includes(s)) ?? "ok";
  return info;
}
