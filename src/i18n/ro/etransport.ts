/**
 * Romanian, RO e-Transport. Where each term comes from:
 *
 * - "cod UIT", "valabilitate": OUG 41/2022 as UNTRR summarises the carriers' obligations
 *   (untrr.ro, "Obligațiile transportatorilor în RO e-Transport": "utilizarea codului UIT doar în
 *   perioada de valabilitate a acestuia"); the Procedure of 2024 of RO e-Transport, art. 5
 *   (Monitorul Oficial 597/2024: "data expirării valabilității codului UIT").
 * - "transmiterea coordonatelor GPS", "actualizare număr de înmatriculare": the same UNTRR page.
 * - The status names: TrackGPS's own tables (docs.trackgps.ro/en/etransport/managment/
 *   transmissionstatus, …/status, …/changerequeststatus; the Romanian pages are not public
 *   text we could read, so these are translations of the English labels), in the dispatchers'
 *   words the issue names: "date mai vechi de 6 ore" (Data older than 6 Hours), "nu se află în
 *   România" (Not on the territory of Romania), "cerere de modificare" (the "data change
 *   request" of a plate, Change Request Status), "transmisie GPS" (GPS transmission).
 * - "aplicația ANAF": ANAF's mobile RO e-Transport app, TrackGPS's fallback advice ("you can use
 *   the ANAF application to manually transmit location data").
 */

import type { TransportStatusId } from "../../fleet/schemas.js";
import type {
  AdvisedTransmissionCode,
  ChangeRequestCode,
  etransport as en,
  TransmissionCode,
} from "../en/etransport.js";
import type { SameParameters, Translation } from "../section.js";

const TRANSMISSION: Readonly<Record<TransmissionCode, string>> = {
  Active: "Transmisie activă",
  Finalized: "Transmisie finalizată",
  NotInRomania: "Nu se află în România",
  NotStarted: "Transmisie în așteptare",
  Error: "Eroare la transmiterea datelor",
  MissingETransportConfiguration: "Eroare de configurare e-Transport",
  OldData: "Date mai vechi de 6 ore",
  NoGPSCoordinates: "Fără semnal GPS",
  WithoutTransmission: "Fără transmisie GPS activă",
};

const ADVICE: Readonly<Record<AdvisedTransmissionCode, string>> = {
  NotStarted: "pornește transportul înainte de plecare",
  WithoutTransmission: "vehicul staționat cu motorul oprit sau o defecțiune a echipamentului GPS",
  Error:
    "număr de înmatriculare greșit la un transport introdus manual sau platforma ANAF nu primește datele; verifică numărul de înmatriculare, apoi contactează suportul",
  NotInRomania: "normal în afara țării: pozițiile nu se transmit din afara României",
  MissingETransportConfiguration:
    "vehiculul nu este configurat complet pentru e-Transport la serviciul de monitorizare; contactează suportul",
  OldData:
    "fără semnal GSM de peste 6 ore: datele nu mai pot fi transmise către ANAF; transmite pozițiile din aplicația ANAF",
  NoGPSCoordinates: "verifică echipamentul GPS și antena; între timp transmite pozițiile din aplicația ANAF",
};

const TRANSPORT_STATUS: Readonly<Record<TransportStatusId, string>> = {
  1: "În așteptare",
  2: "În desfășurare",
  3: "Finalizat",
  4: "Finalizat automat",
  5: "Eroare",
  6: "În pauză",
};

const CHANGE_REQUEST: Readonly<Record<ChangeRequestCode, string>> = {
  RequestCreated: "Cerere de modificare creată",
  RequestSent: "Cerere trimisă cu succes",
  RequestErrorSent: "Eroare la trimiterea cererii",
  ResponseSuccess: "Finalizată cu succes",
  ResponseError: "Finalizată cu eroare",
};

export const etransport = {
  uitCode: () => "Cod UIT",
  uitValidity: () => "Valabilitate UIT",
  validityEnds: ({ when }) => `Valabilitatea codului UIT expiră ${when}`,
  changeRequest: () => "Cerere de modificare",
  transportStatus: (id) => TRANSPORT_STATUS[id],
  transmissionStatus: (code) => TRANSMISSION[code],
  transmissionAdvice: (code) => ADVICE[code],
  changeRequestStatus: (code) => CHANGE_REQUEST[code],
} satisfies Translation<typeof en>;
true satisfies SameParameters<typeof en, typeof etransport>;
