/**
 * English, RO e-Transport: the UIT, its validity, and the statuses of a transport, of its GPS
 * transmission and of a change request. Names are the meanings of shared/fleet-api.md's tables
 * (TransmissionStatusCode, ChangeRequestStatusCode, transport status ids); the advice is
 * shared/etransport-notes.md's "usual cause / what to do", from TrackGPS's descriptions of each
 * status (docs.trackgps.ro/en/etransport/managment/transmissionstatus).
 */
import type {
  CHANGE_REQUEST_STATUS_CODES,
  TRANSMISSION_STATUS_CODES,
  TransportStatusId,
} from "../../fleet/schemas.js";
import type { Section } from "../section.js";

/** A transmission status code fleet-api.md lists (an unknown one is shown as the code itself). */
export type TransmissionCode = (typeof TRANSMISSION_STATUS_CODES)[number];
/** The codes that have something to do about them. */
export type AdvisedTransmissionCode = Exclude<TransmissionCode, "Active" | "Finalized">;
export type ChangeRequestCode = (typeof CHANGE_REQUEST_STATUS_CODES)[number];

const TRANSMISSION: Readonly<Record<TransmissionCode, string>> = {
  Active: "Active transmission",
  Finalized: "Transmission finalized",
  NotInRomania: "Not on Romanian territory",
  NotStarted: "Transmission pending",
  Error: "Transmission error",
  MissingETransportConfiguration: "e-Transport configuration error",
  OldData: "Data older than 6 hours",
  NoGPSCoordinates: "No GPS signal",
  WithoutTransmission: "No active GPS transmission",
};

const ADVICE: Readonly<Record<AdvisedTransmissionCode, string>> = {
  NotStarted: "start the transport before departure",
  WithoutTransmission: "vehicle parked with the engine off, or a tracking device fault",
  Error:
    "wrong plate on a manually entered transport, or the platform not receiving; check the plate, contact support",
  NotInRomania: "expected abroad; positions are not sent outside Romania",
  MissingETransportConfiguration:
    "the vehicle's e-Transport setup at the tracking service is incomplete; contact support",
  OldData:
    "no GSM signal for over 6 hours: the data can no longer be sent to the platform; use the ANAF app as fallback",
  NoGPSCoordinates: "check the device and its antenna; use the ANAF app as fallback",
};

const TRANSPORT_STATUS: Readonly<Record<TransportStatusId, string>> = {
  1: "Pending",
  2: "In Progress",
  3: "Completed",
  4: "Auto Completed",
  5: "Error",
  6: "Paused",
};

const CHANGE_REQUEST: Readonly<Record<ChangeRequestCode, string>> = {
  RequestCreated: "Request created",
  RequestSent: "Request sent successfully",
  RequestErrorSent: "Error sending request",
  ResponseSuccess: "Completed successfully",
  ResponseError: "Completed with error",
};

export const etransport = {
  uitCode: () => "UIT code",
  uitValidity: () => "UIT validity",
  /** `when`: a date from format.ts (`slackDate` or `dateTime`). */
  validityEnds: ({ when }: { when: string }) => `UIT validity ends ${when}`,
  /** The request to change a transport's plate(s) at the platform (etransport-notes.md). */
  changeRequest: () => "Change request",
  transportStatus: (id: TransportStatusId) => TRANSPORT_STATUS[id],
  transmissionStatus: (code: TransmissionCode) => TRANSMISSION[code],
  transmissionAdvice: (code: AdvisedTransmissionCode) => ADVICE[code],
  changeRequestStatus: (code: ChangeRequestCode) => CHANGE_REQUEST[code],
} satisfies Section;
