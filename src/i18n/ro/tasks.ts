/**
 * Romanian, tasks (see en/tasks.ts). A request is „cerere” (feminine), a call to the service
 * „apel”; the endings name the request („cererea a eșuat”), so they agree whatever the task is.
 */
import type { tasks as en } from "../en/tasks.js";
import { number } from "../format.js";
import { count, plural } from "../plural.js";
import type { SameParameters, Translation } from "../section.js";

const requests = (n: number) => count("ro", n, { one: "cerere", few: "cereri", other: "de cereri" });

/**
 * A request's value by its rule subject (see en/tasks.ts), as the sentence's subject. All are
 * masculine or neuter singular, so „obligatoriu” agrees with each; the orders' subjects
 * („valabilitatea”, „transmisia”, „perioada”) take „trebuie să înceapă”, which has no gender.
 */
const VALUES: Readonly<Record<string, string>> = {
  "code-uit": "Codul UIT",
  "transport-id": "ID-ul transportului",
  vehicle: "Vehiculul",
  "vat-number": "CIF-ul/CUI-ul transportatorului",
  start: "Începutul perioadei",
  end: "Sfârșitul perioadei",
  period: "Perioada",
  "validity-start": "Începutul valabilității UIT",
  "validity-end": "Sfârșitul valabilității UIT",
  validity: "Valabilitatea codului UIT",
  "transmission-start": "Începutul transmisiei",
  "transmission-end": "Sfârșitul transmisiei",
  transmission: "Transmisia",
};
const valueRo = (subject: string): string => VALUES[subject] ?? subject;

/** One item of a list (all masculine or neuter: „un”, „niciun”). */
const ITEMS: Readonly<Record<string, string>> = {
  vehicles: "vehicul",
  statuses: "ID de stare a transportului",
  uits: "cod UIT",
  "transport-ids": "ID de transport",
};
const itemRo = (subject: string, article: string): string =>
  [article, ITEMS[subject] ?? subject].filter(Boolean).join(" ");

export const tasks = {
  reportFor: ({ title, vehicles }) => `${title} pentru ${vehicles}`,
  reportAny: () => "Raport",
  allVehicles: () => "toate vehiculele",
  stopsAtLeast: ({ duration }) => `opriri de cel puțin ${duration}`,
  actionStart: ({ uits }) => `Pornire ${uits}`,
  actionPause: ({ uits }) => `Pauză ${uits}`,
  actionEnd: ({ uits }) => `Finalizare ${uits}`,
  actionAny: ({ uits }) => `Acțiune asupra ${uits}`,
  accountCheck: ({ username }) => `Verificarea contului platformei GPS ${username}`,
  transportList: () => "Lista transporturilor",
  transportFind: ({ uit }) => `Căutare ${uit}`,
  transportFindAny: () => "Căutarea transportului",
  transportCreate: ({ uit }) => `Creare transport ${uit}`,
  transportUpdate: ({ uit }) => `Actualizare transport ${uit}`,
  transportRemove: ({ uit }) => `Ștergere ${uit}`,
  transportRemoveAny: () => "Ștergerea transportului",

  answeringNow: () => "răspunsul vine acum",
  requestsDone: ({ done, total }) => `${number("ro", done)}/${requests(total)}`,
  positionInQueue: ({ position }) => `locul ${number("ro", position)} în coadă`,
  nextInLine: () => "urmează la rând",
  waitAbout: ({ duration }) => `aproximativ ${duration}`,
  waitUnderSecond: () => "sub o secundă",
  waitLeft: ({ wait }) => `încă ${wait}`,
  pacingUnknown: () => "Platforma GPS răspunde, pentru un cont, la câte o cerere pe rând.",
  pacingSeconds: (seconds) =>
    plural("ro", seconds, {
      one: "Platforma GPS răspunde, pentru un cont, la o cerere pe secundă.",
      few: `Platforma GPS răspunde, pentru un cont, la o cerere la fiecare ${number("ro", seconds)} secunde.`,
      other: `Platforma GPS răspunde, pentru un cont, la o cerere la fiecare ${number("ro", seconds)} de secunde.`,
    }),
  pacingMinutes: (minutes) =>
    plural("ro", minutes, {
      one: "Platforma GPS răspunde, pentru un cont, la o cerere pe minut.",
      few: `Platforma GPS răspunde, pentru un cont, la o cerere la fiecare ${number("ro", minutes)} minute.`,
      other: `Platforma GPS răspunde, pentru un cont, la o cerere la fiecare ${number("ro", minutes)} de minute.`,
    }),
  alreadyQueued: ({ what }) => `${what}: deja în coadă; va rula o singură dată.`,
  queued: ({ what }) => `${what}: în coadă.`,
  queuedPosition: ({ position }) => `, locul ${number("ro", position)}`,
  done: ({ what }) => `${what}: gata.`,
  queueEmpty: ({ account }) => `Nimic nu așteaptă pentru contul platformei GPS *${account}*.`,
  queueTitle: ({ account, total }) => `*Coada contului ${account}*: ${requests(total)}`,
  queueEntryState: ({ state, done, total }) => `${state}, ${number("ro", done)}/${requests(total)}`,
  queueAskedBy: ({ user, time }) => `cerută de ${user} la ${time}`,
  queueRefresh: () => "Actualizează",
  cancel: () => "Anulează",
  alreadyFinished: () => "Cererea aceasta s-a încheiat deja.",

  cancelledBy: ({ what, user }) => `${what}: ${user} a anulat cererea.`,
  cancelled: ({ what }) => `${what}: cerere anulată.`,
  cancelledDetail: () => "Apelurile deja trimise au primit răspuns; nu s-a mai cerut nimic altceva.",
  failed: ({ what, message }) => `${what} nu a reușit: ${message}`,
  supportId: ({ id }) => `Pentru asistență: ID de corelare ${id}`,
  resultTooLarge: ({ what, size }) =>
    `${what}: gata, dar rezultatul (${size}) este prea mare ca să fie păstrat. Cere din nou pentru o perioadă mai scurtă sau pentru mai puține vehicule.`,
  resultExpired: ({ what }) =>
    `${what}: rezultatul nu mai este păstrat (rezultatele mari se păstrează o zi după răspuns). Rulează din nou comanda ca să-l vezi.`,

  failedDefault: () => "Cererea a eșuat.",
  internal: () => "Ceva nu a mers în fleetbot; detaliile sunt în jurnalul lui.",
  credentialsUser: ({ username }) =>
    `Contul tău pe platforma GPS asociat, ${username}, nu mai poate fi citit: cheia de criptare a lui fleetbot a fost schimbată. Asociază-l din nou cu /fleet login (sau /fleet logout ca să folosești contul workspace-ului).`,
  credentialsWorkspace: ({ username }) =>
    `Contul platformei GPS al workspace-ului, ${username}, nu mai poate fi citit: cheia de criptare a lui fleetbot a fost schimbată. Cineva care are dreptul să-l stabilească trebuie să-l asocieze din nou cu /fleet login workspace.`,
  ruleMaxVehicles: ({ endpoint, max, given }) =>
    `O cerere ${endpoint} acceptă cel mult ${count("ro", max, { one: "vehicul", few: "vehicule", other: "de vehicule" })}; ai cerut ${number("ro", given)}.`,
  ruleMaxPeriod: ({ endpoint, days }) =>
    `O cerere ${endpoint} acoperă cel mult ${count("ro", days, { one: "zi", few: "zile", other: "de zile" })}; împarte perioada.`,
  ruleStopMargin: () => "Durata minimă a opririi trebuie să fie un număr întreg de minute, cel puțin 1.",
  ruleRequired: ({ subject }) => `${valueRo(subject)} este obligatoriu.`,
  ruleInvalidDate: ({ subject }) => `${valueRo(subject)} nu este o dată validă.`,
  ruleOrder: ({ subject }) => `${valueRo(subject)} trebuie să înceapă înainte să se încheie.`,
  ruleEmptyListOf: ({ subject }) => `Indică cel puțin ${itemRo(subject, "un")}.`,
  ruleEmptyValue: ({ subject }) => `Niciun ${itemRo(subject, "")} din listă nu poate fi gol.`,
  ruleWholeIds: ({ subject }) =>
    `ID-urile ${subject === "statuses" ? "stărilor" : "vehiculelor"} trebuie să fie numere întregi.`,
  ruleInvalidPaging: ({ subject }) =>
    `${subject === "page-index" ? "pageIndex" : "pageSize"} trebuie să fie un număr întreg, 0 sau mai mare.`,
  ruleOther: ({ rule }) =>
    `fleetbot nu a trimis o cerere pe care platforma GPS ar fi refuzat-o (regula ${rule}). Echipa de asistență are detaliile.`,
  badRequest: ({ reasons }) => `Platforma GPS a refuzat cererea ca invalidă (${reasons}).`,
  badRequestBare: () => "Platforma GPS a refuzat cererea ca invalidă.",
  unauthorizedLogin: () =>
    "Platforma GPS nu a acceptat acest nume de utilizator și această parolă, sau utilizatorul este inactiv.",
  unauthorizedPasswordChanged: () =>
    "Parola acestui cont al platformei GPS s-a schimbat, iar asocierea are încă parola veche: nu mai citește nimic. Asociază din nou contul, cu parola nouă: /fleet login.",
  unauthorizedExpired: () =>
    "Sesiunea pe platforma GPS a expirat și nu a putut fi reînnoită. Asociază din nou contul platformei GPS cu /fleet login.",
  unauthorizedVehicles: () =>
    "Cel puțin unul dintre vehiculele cerute nu este accesibil acestui cont al platformei GPS.",
  unauthorizedAccess: () => "Acest cont al platformei GPS nu are drepturi pentru această cerere.",
  rateLimited: () => "Platforma GPS limitează cât de des poate întreba acest cont; cererea va fi reluată.",
  application: ({ reasons }) => `Platforma GPS nu a putut face asta: ${reasons}.`,
  applicationBare: () => "Platforma GPS nu a putut face asta.",
  transportTimeout: () => "Platforma GPS nu a răspuns la timp. Încearcă din nou peste câteva minute.",
  transportNetwork: () => "Platforma GPS nu a putut fi contactată. Încearcă din nou peste câteva minute.",
  transportHttp: () => "Platforma GPS a avut o problemă internă. Încearcă din nou peste câteva minute.",
  transportMalformed: () =>
    "Platforma GPS a trimis un răspuns pe care fleetbot nu îl înțelege. Echipa de asistență are detaliile.",

  cannotSave: () => ":warning: fleetbot nu poate salva cereri acum; nimic nu a fost pus în coadă.",
  cannotSaveDetail: () =>
    "Spațiul lui de stocare este plin sau doar pentru citire; cine administrează fleetbot vede asta în /healthz. Încearcă din nou peste câteva minute.",
  cannotQueue: () => ":warning: fleetbot nu poate pune cereri în coadă acum; nimic nu a fost pus în coadă.",
  cannotQueueDetail: () =>
    "fleetbot a pierdut legătura cu coada de cereri comună; cine administrează fleetbot vede asta în /healthz. Încearcă din nou peste un minut.",
  notSavedTitle: () => "Nesalvat",
  refusedFiles: ({ what, code, id }) =>
    `:warning: Fișierele pentru ${what} nu au putut fi trimise: Slack le-a refuzat (${code}). Cererea ${id}.`,
  refusedAnswer: ({ what, code, id }) =>
    `:warning: fleetbot nu a putut afișa ${what}: Slack a refuzat răspunsul (${code}). Încearcă o cerere mai scurtă; echipa de asistență o poate găsi după cererea ${id}.`,
  fullAnswerIn: ({ where }) => `Răspunsul complet este ${where}.`,
  answerInDm: () => "în mesajele tale directe cu fleetbot",
  answerInChannel: ({ channel }) => `în ${channel}`,
  answerInTheChannel: () => "în canal",
  cardsUpdated: ({ count: n, places }) =>
    `Actualizate pe loc: ${count("ro", n, { one: "card anterior", few: "carduri anterioare", other: "de carduri anterioare" })} (${places}).`,
  placeDm: () => "mesajele tale directe",
  placeList: () => "lista ta de transporturi",
  commandUnavailable: () => "Comanda aceasta nu este încă disponibilă.",
  commandUnavailableDetail: () => "/fleet ajutor arată ce este disponibil.",
} satisfies Translation<typeof en>;
true satisfies SameParameters<typeof en, typeof tasks>;
