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

import type { KnownTransportFailure } from "../../features/etransport/failures.js";
import type { TransportAction } from "../../features/etransport/types.js";
import type { VatProblem } from "../../features/etransport/vat.js";
import type { TransportStatusId } from "../../platform/fleet/schemas.js";
import type { AuditAction } from "../../platform/store/contract/index.js";
import type {
  AdvisedTransmissionCode,
  ChangeRequestCode,
  etransport as en,
  LimitedField,
  NotADateHint,
  TransmissionCode,
  TransportBulkAction,
  TransportListFilter,
  TransportListState,
} from "../en/etransport.js";
import { number } from "../format.js";
import { count, plural } from "../plural.js";
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
    "număr de înmatriculare greșit la un transport introdus manual sau platforma ANAF nu primește datele; verifică numărul de înmatriculare, apoi contactează asistența",
  NotInRomania: "normal în afara țării: pozițiile nu se transmit din afara României",
  MissingETransportConfiguration:
    "vehiculul nu este configurat complet pentru e-Transport pe platforma GPS; contactează asistența",
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

/** Ce înseamnă fiecare stare a transmisiei, cum o spune cardul după cod. */
const MEANING: Readonly<Record<TransmissionCode, string>> = {
  Active: "pozițiile se transmit",
  NotStarted: "transmisie în așteptare",
  WithoutTransmission: "fără transmisie GPS activă",
  Error: "eroare la transmiterea datelor",
  NotInRomania: "nu se află în România",
  MissingETransportConfiguration: "eroare de configurare e-Transport",
  OldData: "date mai vechi de 6 ore",
  NoGPSCoordinates: "fără semnal GPS",
  Finalized: "transmisie finalizată",
};

const BUTTON: Readonly<Record<TransportAction, string>> = {
  start: "Pornește",
  pause: "Pauză",
  end: "Finalizează",
  edit: "Editează",
  remove: "Șterge",
};

/** Formele unei acțiuni: „pornit” (un transport), „pornite” (mai multe), „nepornit”… */
const ACTION_WORDS: Readonly<
  Record<
    TransportBulkAction,
    { ok: string; failed: string; title: string; pastOne: string; pastMany: string; underWay: string }
  >
> = {
  start: {
    ok: "pornit",
    failed: "nu a fost pornit",
    title: "Pornire",
    pastOne: "Transportul a fost pornit.",
    pastMany: "pornite",
    underWay: "Se pornește…",
  },
  pause: {
    ok: "pus în pauză",
    failed: "nu a fost pus în pauză",
    title: "Pauză",
    pastOne: "Transportul a fost pus în pauză.",
    pastMany: "puse în pauză",
    underWay: "Se pune în pauză…",
  },
  end: {
    ok: "finalizat",
    failed: "nu a fost finalizat",
    title: "Finalizare",
    pastOne: "Transportul a fost finalizat.",
    pastMany: "finalizate",
    underWay: "Se finalizează…",
  },
  remove: {
    ok: "șters",
    failed: "nu a fost șters",
    title: "Ștergere",
    pastOne: "Transportul a fost șters.",
    pastMany: "șterse",
    underWay: "Se șterge…",
  },
};

const HISTORY_DONE: Readonly<Record<AuditAction, string>> = {
  create: "Creat",
  update: "Editat",
  start: "Pornit",
  pause: "Pus în pauză",
  end: "Finalizat",
  remove: "Șters",
};

const HISTORY_ASKED: Readonly<Record<AuditAction, string>> = {
  create: "Creare",
  update: "Editare",
  start: "Pornire",
  pause: "Pauză",
  end: "Finalizare",
  remove: "Ștergere",
};

/** Stările listei, acordate cu „transport” (un transport, sau mai multe). */
const LIST_STATE: Readonly<Record<TransportListState, { one: string; many: string }>> = {
  pending: { one: "în așteptare", many: "în așteptare" },
  active: { one: "în desfășurare", many: "în desfășurare" },
  paused: { one: "în pauză", many: "în pauză" },
  completed: { one: "finalizat", many: "finalizate" },
};

const TRANSPORTS = { one: "transport", few: "transporturi", other: "de transporturi" };

/** Ce arată lista, după substantiv: „deschise (…)”, „în pauză sau finalizate”; `one` la singular. */
function listQualifier(filter: TransportListFilter, one: boolean): string {
  switch (filter.kind) {
    case "open":
      return `${one ? "deschis" : "deschise"} (în așteptare, în desfășurare sau în pauză)`;
    case "all":
      return "în orice stare";
    case "label":
      return filter.label;
    case "states": {
      const states = [...new Set(filter.states.map((w) => LIST_STATE[w][one ? "one" : "many"]))];
      return states.length > 1 ? `${states.slice(0, -1).join(", ")} sau ${states.at(-1)}` : (states[0] ?? "");
    }
  }
}

const list = (params: readonly string[], fallback: string): string =>
  params.length === 0 ? fallback : params.join(", ");
const named = (params: readonly string[]): string => (params.length === 0 ? "" : ` ${params.join(", ")}`);

const FAILURES: Readonly<
  Record<KnownTransportFailure, (p: readonly string[]) => { summary: string; advice: string }>
> = {
  TransportNotFound: (p) => ({
    summary: `Platforma GPS nu cunoaște transportul ${list(p, "cerut")}.`,
    advice: "Verifică codul UIT (vezi `/etransport listă toate`); poate a fost șters.",
  }),
  TransportAlreadyExists: (p) => ({
    summary: `Există deja un transport cu codul UIT ${list(p, "acesta")}.`,
    advice: "Editează-l pe cel existent cu `/etransport editează <UIT>` în loc să-l adaugi din nou.",
  }),
  VehicleNotFound: (p) => ({
    summary: `Platforma GPS nu cunoaște vehiculul ${list(p, "ales")}.`,
    advice: "Alege din nou vehiculul din listă; poate a fost scos din cont.",
  }),
  InvalidTransportState: (p) => ({
    summary:
      p.length >= 2
        ? `Transportul ${p[0]} este ${p[1]}: acțiunea nu este posibilă în această stare.`
        : `Transportul${named(p)} nu este într-o stare care permite această acțiune.`,
    advice:
      "Pornirea merge din În așteptare sau În pauză, pauza din În desfășurare, finalizarea din În desfășurare sau În pauză.",
  }),
  TransportFinalized: (p) => ({
    summary: `Transportul${named(p)} s-a încheiat (Finalizat sau Finalizat automat) și nu mai poate fi modificat.`,
    advice: "Pentru o cursă nouă, cere un cod UIT nou și adaugă-l cu `/etransport nou`.",
  }),
  UitValidityNotStarted: (p) => ({
    summary: `Valabilitatea codului UIT${named(p)} nu a început încă.`,
    advice:
      "Pornește transportul după ce începe valabilitatea sau corectează începutul valabilității cu Editează.",
  }),
  UitValidityEnded: (p) => ({
    summary: `Valabilitatea codului UIT${named(p)} a expirat.`,
    advice: "Un cod UIT expirat nu poate fi folosit: cere un cod UIT nou pe platforma e-Transport.",
  }),
  AccessDenied: (p) => ({
    summary: `Contul platformei GPS folosit nu are drepturi pentru ${list(p, "acest transport sau vehicul")}.`,
    advice: "Cere acces administratorului flotei sau folosește un cont care are acces.",
  }),
};

function failureOf(code: string, p: readonly string[]): { summary: string; advice: string } {
  const known = Object.hasOwn(FAILURES, code) ? FAILURES[code as KnownTransportFailure] : undefined;
  if (known) return known(p);
  return {
    summary: `Platforma GPS a răspuns ${code || "cu o eroare fără nume"}${p.length > 0 ? ` (${p.join(", ")})` : ""}.`,
    advice:
      "Verifică transportul cu `/etransport listă toate`; dacă problema persistă, contactează asistența.",
  };
}

function vatError(v: VatProblem): string {
  switch (v.problem) {
    case "missing":
      return `Introdu CIF-ul/CUI-ul transportatorului (sau codul de TVA UE), de ex. ${v.example}.`;
    case "cifLength":
      return `Un CIF românesc are între 2 și 10 cifre; ai introdus ${count("ro", v.length, { one: "cifră", few: "cifre", other: "de cifre" })}. Exemplu: ${v.example}.`;
    case "cifChecksum":
      return `${v.vat} nu este un CIF românesc valid: cifra de control este greșită. Exemplu: ${v.example}.`;
    case "prefix":
      return `Folosește un CIF românesc (${v.example}) sau un cod de TVA din UE cu prefixul țării (${v.euExample}).`;
    case "shape":
      return `${v.vat} nu arată ca un cod de TVA ${v.prefix}. Exemplu: ${v.example}.`;
  }
}

const NOT_A_DATE: Readonly<Record<NotADateHint, string>> = {
  today: "Nu este o dată și o oră: alege una, de ex. azi la 08:00.",
  afterStart: "Nu este o dată și o oră: alege una, de ex. la 5 zile după început.",
  orEmpty: "Nu este o dată și o oră: alege una sau lasă câmpul gol.",
};

const LIMITED: Readonly<Record<LimitedField, string>> = {
  startLocation: "Locul de plecare are",
  endLocation: "Locul de sosire are",
  notes: "Observațiile au",
};

const characters = (n: number): string =>
  count("ro", n, { one: "caracter", few: "caractere", other: "de caractere" });
const days = (n: number): string => count("ro", n, { one: "zi", few: "zile", other: "de zile" });
const dm = (channel: string): string =>
  channel ? `în <#${channel}>` : "în mesajele tale directe cu fleetbot";

export const etransport = {
  uitCode: () => "Cod UIT",
  uitValidity: () => "Valabilitate UIT",
  validityEnds: ({ when }) => `Valabilitatea codului UIT expiră la ${when}`,
  changeRequest: () => "Cerere de modificare",
  transportStatus: (id) => TRANSPORT_STATUS[id],
  unknownTransportStatus: ({ id }) => `Stare necunoscută (${id})`,
  transmissionStatus: (code) => TRANSMISSION[code],
  transmissionAdvice: (code) => ADVICE[code],
  changeRequestStatus: (code) => CHANGE_REQUEST[code],

  failure: (errorCode, parameters) => {
    const f = failureOf(errorCode, parameters);
    return `${f.summary} ${f.advice}`;
  },
  failureSummary: (errorCode, parameters) => failureOf(errorCode, parameters).summary,
  failureAdvice: (errorCode, parameters) => failureOf(errorCode, parameters).advice,

  vehicleNotNamed: () => "vehicul fără nume",
  transmissionLabel: () => "*Transmisie:*",
  transmissionMeaning: (code) => MEANING[code],
  noTransmissionStatus: () => "nicio stare a transmisiei raportată",
  unknownTransmissionStatus: ({ code }) => `stare a transmisiei necunoscută „${code}”`,
  changeRequestLabel: () => "*Cerere de modificare a vehiculului:*",
  unknownChangeRequestStatus: ({ code }) => `stare a cererii de modificare necunoscută „${code}”`,
  platformAnswer: () => "*Răspunsul platformei:*",
  notesLabel: () => "*Observații:*",
  validityLine: ({ from, to, relative }) => `*Valabilitate UIT:* ${from} → ${to}${relative}`,
  validityStartsIn: ({ span }) => ` (începe peste ${span})`,
  validityStartsInDays: (days) =>
    ` (începe peste ${count("ro", days, { one: "zi", few: "zile", other: "de zile" })})`,
  validityEndsIn: ({ span }) => ` (expiră peste ${span})`,
  validityEndsInDays: (days) =>
    ` (expiră peste ${count("ro", days, { one: "zi", few: "zile", other: "de zile" })})`,
  validityEnded: () => " (expirată)",
  lastSent: ({ when }) => `Ultima transmisie către ANAF ${when}`,
  lastGps: ({ when }) => `ultima poziție GPS ${when}`,
  transmissionWindow: ({ from, to }) => `transmisie ${from} → ${to}`,
  transmittingSince: ({ from }) => `transmite din ${from}`,
  transmissionUntil: ({ to }) => `transmisie până la ${to}`,
  trailers: ({ count: n, plates }) =>
    `${plural("ro", n, { one: "remorcă", few: "remorci", other: "remorci" })} ${plates}`,

  button: (action) => BUTTON[action],
  cancel: () => "Anulează",
  uitNamed: ({ uit }) => `codul UIT ${uit}`,
  removeConfirmTitle: () => "Ștergi transportul?",
  removeConfirmLong: ({ uit }) =>
    `Ștergi transportul cu ${uit}? Ștergerea este definitivă: transportul este șters de pe platforma GPS și transmisia GPS se oprește.`,
  removeConfirmShort: ({ uit }) => `Ștergi ${uit}? Ștergerea este definitivă.`,
  removeConfirmButton: () => "Șterge",
  endConfirmTitle: () => "Finalizezi transportul?",
  endConfirmLong: ({ uit }) =>
    `Finalizezi transportul cu ${uit}? Odată finalizat, nu mai poate fi modificat.`,
  endConfirmShort: ({ uit }) => `Finalizezi ${uit}? Nu mai poate fi modificat.`,
  endConfirmButton: () => "Finalizează transportul",

  listWhat: (filter, n) => `${count("ro", n, TRANSPORTS)} ${listQualifier(filter, n === 1)}`,
  listEmpty: (filter, search) =>
    `Niciun transport ${listQualifier(filter, true)}${search ? ` care să conțină „${search}”` : ""}.`,
  listEmptyPage: (filter, search, page, total) =>
    `Niciun transport ${listQualifier(filter, true)} pe pagina ${number("ro", page)}${search ? ` care să conțină „${search}”` : ""}; în total sunt ${number("ro", total)}.`,
  listTry: () =>
    "Încearcă `/etransport listă toate`, caută cu `/etransport listă toate B-12-ABC` sau adaugă unul cu `/etransport nou`.",
  listRange: ({ first, last, total }) =>
    `${number("ro", first)}–${number("ro", last)} din ${number("ro", total)}`,
  listPage: ({ page, pages }) => `pagina ${number("ro", page)} din ${number("ro", pages)}`,
  listSearch: ({ search }) => `căutare „${search}”`,
  listOnlyFirst: ({ shown }) =>
    `se văd doar primele ${number("ro", shown)} de pe această pagină; cere pagini mai mici`,
  listText: ({ what, search, page, pages }) =>
    `e-Transport · ${what}${search ? ` care conțin „${search}”` : ""}${page > 0 ? ` (pagina ${number("ro", page)} din ${number("ro", pages)})` : ""}`,
  previous: () => "◀ Anterioara",
  next: () => "Următoarea ▶",

  underWay: (action) => ACTION_WORDS[action].underWay,
  lookupUnderWay: () => "în curs",
  lookingUp: ({ uit, wait }) => `Se caută codul UIT ${uit}: ${wait}`,
  actionHeadline: (action, total, succeeded) => {
    const w = ACTION_WORDS[action];
    const refused = total - succeeded;
    if (total === 0) return `${w.title}: niciun transport indicat.`;
    if (refused === 0) {
      const all = `Toate cele ${count("ro", total, TRANSPORTS)} au fost ${w.pastMany}.`;
      return plural("ro", total, { one: w.pastOne, few: all, other: all });
    }
    if (succeeded === 0)
      return `${w.title} refuzată pentru ${number("ro", refused)} din ${number("ro", total)}.`;
    const done = plural("ro", succeeded, { one: w.ok, few: w.pastMany, other: w.pastMany });
    const refusedWord = plural("ro", refused, { one: "refuzat", few: "refuzate", other: "refuzate" });
    return `${number("ro", succeeded)} din ${number("ro", total)} ${done}; ${number("ro", refused)} ${refusedWord}.`;
  },
  actionDone: (action) => ACTION_WORDS[action].ok,
  actionNotDone: (action) => ACTION_WORDS[action].failed,
  acceptedAsWhole: () =>
    "platforma GPS a acceptat cererea în întregime, fără un răspuns pentru fiecare cod UIT",
  noReason: () => "fără niciun motiv",
  moreLines: ({ count: n }) => `…și încă ${number("ro", n)}; vezi \`/etransport listă toate\`.`,
  forSupport: ({ id }) => `Pentru asistență: ID de corelare ${id}`,
  moreTransports: ({ count: n }) =>
    `Încă ${count("ro", n, TRANSPORTS)} ${plural("ro", n, { one: "nu se vede", few: "nu se văd", other: "nu se văd" })}: vezi \`/etransport listă toate\`.`,

  removeButton: () => "Șterge transportul",
  removeQuestion: () =>
    ":warning: *Ștergi acest transport?* Este șters de pe platforma GPS și transmisia GPS se oprește. *Ștergerea nu poate fi anulată.*",
  removeQuestionText: ({ uit }) => `Ștergi transportul cu codul UIT ${uit}? Ștergerea nu poate fi anulată.`,
  removeCancelled: ({ uit }) => `Nu a fost șters: transportul cu codul UIT ${uit} rămâne cum era.`,
  notRemoved: () => "Nu a fost șters.",

  saved: ({ uit, created, alreadyThere }) =>
    `:white_check_mark: Transportul ${uit}${uit ? " " : ""}a fost ${created ? "creat" : "actualizat"}${alreadyThere ? " (exista deja: nimic nu a fost trimis de două ori)" : ""}.`,
  notSaved: ({ created }) =>
    `:x: Platforma GPS nu a confirmat că transportul a fost ${created ? "creat" : "actualizat"}.`,
  removed: ({ uit }) => `:wastebasket: Transportul ${uit} a fost șters. Transmisia GPS către ANAF s-a oprit.`,
  notRemovedByService: ({ uit }) => `:x: Platforma GPS nu a confirmat ștergerea transportului ${uit}.`,
  notFound: ({ uit, search }) =>
    `Contul tău pe platforma GPS nu vede niciun transport cu codul UIT ${uit}. Verifică codul sau caută-l în listă: /etransport listă toate ${search}`,
  notFoundTitle: () => "Transport negăsit",
  finished: ({ uit, status }) => `Transportul ${uit} s-a încheiat (${status}): nu mai poate fi modificat.`,
  cannotEditTitle: () => "Nu se poate edita",
  editing: ({ uit }) => `Editezi transportul ${uit}.`,
  transportTitle: ({ uit }) => `Transportul ${uit}`,

  noAccount: () => "Nu ai un cont pe platforma GPS cu care să lucrezi.",
  noAccountHint: () => "Asociază-l pe al tău cu /fleet login.",
  buttonOutOfDate: () => "Butonul nu mai este actual: rulează din nou comanda.",
  nameTheTransport: ({ form, example }) =>
    `Indică transportul: \`/etransport ${form} &lt;UIT&gt;\`, de ex. \`/etransport ${form} ${example}\`.`,
  nameTheTransportHint: () => "/etransport listă îți arată transporturile, cu butoane.",
  editTitle: () => "Editează transportul",
  newTitle: () => "Transport nou",
  lookingUpForEdit: ({ uit }) => `:hourglass_flowing_sand: Se caută ${uit} pe platforma GPS…`,
  linkFirst: () => "Asociază mai întâi un cont pe platforma GPS: /fleet login.",
  notYourChannel: () => "Formularul aparține unui canal în care nu ești.",
  submitAgain: ({ warnings }) => `${warnings} Trimite din nou ca să salvezi oricum.`,
  saveQueued: ({ what, place, destination }) =>
    `:hourglass_flowing_sand: ${what}: în coadă${place}. ${destination}`,
  saveAlreadyQueued: ({ what }) => `${what} este deja în coadă; va rula o singură dată.`,
  cardPosted: ({ channel }) => `Cardul transportului va fi publicat ${dm(channel)}.`,
  updatedCardPosted: ({ channel }) =>
    `Cardul actualizat va fi publicat ${dm(channel)}, iar cardurile anterioare ale transportului vor fi actualizate unde poate fleetbot.`,

  historyDone: (action) => HISTORY_DONE[action],
  historyAsked: (action) => HISTORY_ASKED[action],
  historyNoUser: () => "niciun utilizator Slack înregistrat",
  historyOk: ({ said }) => `:white_check_mark: efectuat${said ? ` (${said})` : ""}`,
  historyRefused: ({ code, said }) =>
    `:x: refuzat de platforma GPS${code ? ` ${code}` : ""}${said ? `: ${said}` : ""}`,
  historyNotConfirmed: () => ":x: neconfirmat de platforma GPS",
  historyUnknown: ({ code, said }) =>
    `:grey_question: trimis, dar fără un răspuns clar${code ? ` ${code}` : ""}: nu se știe dacă modificarea a fost făcută${said ? ` (${said})` : ""}`,
  historyChanges: ({ count: n }) =>
    `${count("ro", n, { one: "modificare înregistrată", few: "modificări înregistrate", other: "de modificări înregistrate" })}`,
  historyHeading: ({ uit, account, changes }) =>
    `*Istoricul pentru ${uit}* (contul platformei GPS ${account}): ${changes}, cele mai noi primele.`,
  historyText: ({ uit, changes }) => `Istoricul pentru ${uit}: ${changes}.`,
  historyOlder: ({ count: n }) =>
    `${count("ro", n, { one: "modificare mai veche nu se vede", few: "modificări mai vechi nu se văd", other: "de modificări mai vechi nu se văd" })}: un mesaj Slack are loc doar pentru cele mai noi.`,
  historyNone: ({ uit, account }) =>
    `Nicio modificare a transportului ${uit} nu este înregistrată pentru contul platformei GPS ${account}.`,
  historyNoneHint: ({ list: all, example }) =>
    `fleetbot înregistrează transporturile pe care contul tău pe platforma GPS le creează, editează, pornește, pune în pauză, finalizează sau șterge prin el. Găsește-le pe ale tale cu ${all}, apoi de ex. ${example}.`,
  historyUnreadable: () => "fleetbot nu își poate citi acum istoricul. Încearcă din nou peste un minut.",
  historyChecking: () =>
    "fleetbot verifică mai întâi contul tău pe platforma GPS (o cerere, cel mult jumătate de minut). Întreabă din nou după aceea.",
  historyLinkRefused: () =>
    "Platforma GPS nu a acceptat parola contului asociat, iar fleetbot arată datele flotei doar cu o asociere valabilă. Asociază din nou contul cu /fleet login.",

  modalTitleNew: () => "e-Transport nou",
  modalTitleEdit: () => "Editează e-Transport",
  modalSubmitNew: () => "Adaugă transportul",
  modalSubmitEdit: () => "Salvează",
  checkBeforeSaving: () => ":warning: *Verifică înainte de a salva:*",
  editUitLine: ({ uit, status }) =>
    `*Cod UIT:* ${uit} · ${status}\nCodul UIT nu se poate schimba. Salvarea înlocuiește toate câmpurile de mai jos: cele goale sunt șterse.`,
  formIntro: ({ zone }) =>
    `Copiază datele codului UIT emis pe platforma e-Transport. Orele sunt în fusul tău orar din Slack (${zone}).`,
  vehicleLabel: () => "Vehicul",
  vehicleHint: () => "Scrie o parte din numărul de înmatriculare sau din nume.",
  vehicleHintNone: () => "Contul nu are încă vehicule în listă.",
  vehiclePlaceholder: ({ example }) => `Număr sau nume, de ex. ${example}`,
  unnamedVehicle: () => "(vehicul fără nume)",
  uitHint: () => "16 litere și cifre; cratimele și spațiile nu contează.",
  vatLabel: () => "CIF/CUI transportator (sau cod TVA UE)",
  vatHintNew: () => "CIF/CUI românesc (cu sau fără RO) sau cod de TVA din UE, cu prefixul țării.",
  vatHintEdit: () =>
    "Platforma GPS nu arată CIF-ul transportatorului: introdu-l din nou. CIF/CUI românesc sau cod de TVA din UE.",
  validityStartLabel: () => "Cod UIT valabil de la",
  validityStartHint: ({ zone }) => `Ca la emiterea codului UIT. Fusul tău orar: ${zone}.`,
  validityEndLabel: () => "Cod UIT valabil până la",
  validityEndHint: () => "5 zile pentru bunuri cu risc fiscal ridicat, altfel 15 zile.",
  transmissionStartLabel: () => "Început transmisie GPS",
  transmissionStartHint: () =>
    "Opțional; în perioada de valabilitate. Butonul Pornește îl completează oricum.",
  transmissionEndLabel: () => "Sfârșit transmisie GPS",
  transmissionEndHint: () => "Opțional; în perioada de valabilitate.",
  startLocationLabel: () => "Loc de plecare",
  startLocationPlaceholder: () => "de ex. Ploiești, depozit",
  endLocationLabel: () => "Loc de sosire",
  endLocationPlaceholder: () => "de ex. Cluj-Napoca",
  trailerLabel: ({ n }) => `Nr. înmatriculare remorcă ${n}`,
  examplePlaceholder: ({ example }) => `de ex. ${example}`,
  notesFieldLabel: () => "Observații",

  errorVehicleMissing: ({ example }) =>
    `Alege vehiculul: scrie o parte din numărul de înmatriculare sau din nume, de ex. ${example}.`,
  errorUitMissing: ({ example }) => `Introdu codul UIT emis de platforma e-Transport, de ex. ${example}.`,
  errorUitLength: ({ expected, length, example }) =>
    `Un cod UIT are ${number("ro", expected)} litere și cifre; acesta are ${number("ro", length)}. Exemplu: ${example}.`,
  errorUitCharacters: ({ example }) =>
    `Un cod UIT are doar litere și cifre (cratimele și spațiile nu contează), de ex. ${example}.`,
  errorVat: (problem) => vatError(problem),
  errorValidityStartMissing: () => "Alege începutul valabilității codului UIT, ca la emiterea lui.",
  errorValidityEndMissing: () => "Alege sfârșitul valabilității codului UIT, ca la emiterea lui.",
  errorNotADate: (hint) => NOT_A_DATE[hint],
  errorValidityEndBeforeStart: ({ start, example }) =>
    `Valabilitatea trebuie să se încheie după ce începe (${start}), de ex. ${example}.`,
  errorValidityExpired: ({ end }) =>
    `Acest cod UIT a expirat la ${end}: un cod UIT expirat nu poate fi folosit. Cere un cod UIT nou.`,
  errorTransmissionStartBefore: ({ bound }) =>
    `Începutul transmisiei trebuie să fie în perioada de valabilitate a codului UIT: cel mai devreme ${bound}.`,
  errorTransmissionStartAfter: ({ bound }) =>
    `Începutul transmisiei trebuie să fie în perioada de valabilitate a codului UIT: cel târziu ${bound}.`,
  errorTransmissionEndBefore: ({ bound }) =>
    `Sfârșitul transmisiei trebuie să fie în perioada de valabilitate a codului UIT: cel mai devreme ${bound}.`,
  errorTransmissionEndAfter: ({ bound }) =>
    `Sfârșitul transmisiei trebuie să fie în perioada de valabilitate a codului UIT: cel târziu ${bound}.`,
  errorTransmissionEndBeforeStart: ({ start }) =>
    `Transmisia trebuie să se încheie după ce începe (${start}) sau lasă sfârșitul gol.`,
  errorTooLong: (field, length, max) =>
    `${LIMITED[field]} ${characters(length)}; cel mult ${number("ro", max)}. Scurtează textul.`,
  errorNotAPlate: ({ n, text }) =>
    `Remorca ${n}: „${text}” nu este un număr de înmatriculare. Un număr are litere și cifre, de ex. B-123-ABC sau CJ-06-BDX; unul străin are 3–10 litere și cifre, de ex. M-AB-1234.`,
  errorVehiclePlate: ({ n, example }) =>
    `Remorca ${n} are numărul de înmatriculare al vehiculului. Introdu numărul remorcii, de ex. ${example}.`,
  errorSameTrailer: () =>
    "Remorca 2 are același număr de înmatriculare ca remorca 1. Las-o goală când e o singură remorcă.",

  warningOverMaxSpan: ({ span, maxDays }) =>
    `Valabilitatea codului UIT durează ${span}: mai mult decât maximul legal de ${days(maxDays)}. Verifică datele de pe codul UIT.`,
  warningOverHighRiskSpan: ({ span, days: d }) =>
    `Valabilitatea codului UIT durează ${span}: peste ${days(d)} e permis doar pentru operațiuni intracomunitare și alte operațiuni, nu pentru transportul național de bunuri cu risc fiscal ridicat.`,
  warningFarAhead: ({ span, start, maxDays }) =>
    `Valabilitatea începe peste ${span} (${start}): un cod UIT poate fi cerut cu cel mult ${days(maxDays)} înainte de transport. Verifică data de început.`,
  warningStartInPast: ({ start }) =>
    `Începutul valabilității (${start}) este în trecut. Verifică dacă este începutul declarat pe codul UIT.`,
  warningExpired: ({ end }) =>
    `Valabilitatea codului UIT a expirat la ${end}: un cod UIT expirat nu poate fi folosit.`,
} satisfies Translation<typeof en>;
true satisfies SameParameters<typeof en, typeof etransport>;
