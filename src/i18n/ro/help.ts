/**
 * Romanian, the help (`/fleet ajutor`, `/etransport ajutor`, the App Home's command list) and the
 * App Home. The Romanian help shows the Romanian command words first and the English ones in
 * brackets (src/commands/help.ts); both always work.
 */
import type { help as en } from "../en/help.js";
import type { SameParameters, Translation } from "../section.js";

const TASK_STATES = {
  queued: "în așteptare",
  running: "în lucru",
  done: "gata",
  failed: "eșuată",
  cancelled: "anulată",
} as const;

export const help = {
  title: () => "comenzile fleetbot",
  heading: ({ command }) =>
    `*${command}* _(în paranteze: celelalte cuvinte ale comenzii, și cel în engleză; toate merg și fără diacritice)_`,
  example: () => "Ex.:",
  argVehicle: () => "vehicul",
  argVehicles: () => "vehicule",
  argPeriod: () => "perioadă",
  argMinutes: () => "minute",
  argChannel: () => "canal",
  argCodes: () => "coduri",
  argPlates: () => "numere",
  argZones: () => "zone",
  argName: () => "nume",
  argSearch: () => "căutare",
  listFilters: () => "în așteptare|în desfășurare|pauză|finalizate|toate",
  argFilter: () => "filtru",
  argReport: () => "raport",
  argId: () => "cod",
  scheduleWhen: () => "în fiecare zi|în zilele lucrătoare|în fiecare <zi>|în fiecare lună pe <zi> la <HH:MM>",
  scheduleIn: () => "în",
  scheduleRemoveWord: () => "șterge",

  help: () => "lista aceasta",
  login: () => "asociază-ți contul platformei GPS (deschide un formular)",
  loginWorkspace: () =>
    "contul platformei GPS al workspace-ului, pentru toți cei care nu și-au asociat unul (dacă fleetbot a fost instalat cu Add to Slack: cine l-a instalat sau un administrator)",
  logout: () => "dezasociază-ți contul platformei GPS",
  whoami: () => "contul platformei GPS pe care îl folosesc comenzile tale",
  language: () => "limba în care îți vorbește fleetbot: `ro` (română) sau `en` (engleză)",
  report: () => "un formular pentru oricare dintre rapoartele de mai sus",
  alertsSubscribe: () =>
    "publică alertele transporturilor într-un canal (toate codurile, când nu scrii niciunul); `min=15` publică o problemă doar după ce a durat 15 minute, `exclude=OldData,Error` lasă coduri deoparte, `vehicles=B-123-ABC,CJ-10-XYZ` se limitează la acele vehicule, `stale=45` te avertizează când nu s-a trimis nicio poziție timp de 45 de minute (implicit 30; `stale=0` dezactivează avertizarea)",
  alertsVehicle: () =>
    "urmărește vehiculele însele (doar tipurile pe care le scrii): alimentare sub `volts=` (6 V), intrare într-o zonă (`zones=`: toate zonele), staționare cu motorul pornit `idle=` minute (20), viteză peste `speed=` (90 km/h), nicio poziție `offline=` minute (60), mutat cu motorul oprit, deplasare în afara `hours=` (06:00-22:00), frigider în afara `temp=` timp de `tempfor=` minute (15)",
  alertsUnsubscribe: () => "oprește alertele într-un canal",
  zones: () => "zonele workspace-ului, pentru alertele `Zone`",
  zonesAdd: () => "adaugă o zonă: centrul și raza în metri (implicit 300, 50–50.000)",
  zonesAddAt: () => "adaugă o zonă cu centrul unde e acum un vehicul",
  zonesRemove: () => "șterge o zonă",
  alertsList: () => "canalele care primesc alerte",
  queue: () => "cererile tale în așteptare și în lucru",
  schedule: () =>
    "publică un raport într-un canal după un program (în cel în care scrii comanda sau `în #canal`), cu contul tău pe platforma GPS: comanda raportului cum ai scrie-o, cu perioada citită la fiecare rulare (`ieri`: ziua dinaintea rulării), ora în fusul tău orar din Slack; `în zilele lucrătoare` înseamnă de luni până vineri, iar într-o lună fără acea zi rulează în ultima ei zi",
  schedules: () =>
    "rapoartele programate ale acestui canal și ale tale din alte canale, cu Pauză sau Reia, Rulează acum și Șterge",
  scheduleRemove: () =>
    "șterge o programare (codul ei e în `/fleet programări`): una de-a ta sau una pusă în pauză pentru că autorul ei a ieșit din canal sau și-a dezasociat contul",

  vehicles: () => "vehiculele, cu ultima lor poziție",
  where: () => "ultima poziție, cu un link spre hartă",
  route: () => "rezumatul traseului, cu fișiere GPX și CSV",
  stops: ({ defaultMinutes }) =>
    `opririle de cel puțin \`min\` minute (implicit ${defaultMinutes}), cu fișier CSV`,
  fuel: () => "consumul de combustibil, cu totaluri",
  refills: () => "alimentările și posibilele furturi de combustibil",
  temps: () => "rezumatul temperaturii și umidității, cu un grafic",

  etransportNew: () => "creează un transport (deschide un formular)",
  etransportList: () => "transporturile, cu butoane (implicit: în așteptare, în desfășurare și în pauză)",
  etransportStartPauseEnd: () => "pornește, pune în pauză sau finalizează transporturi",
  etransportEdit: () => "editează un transport (deschide un formular)",
  etransportRemove: () => "șterge un transport, după ce confirmi",
  etransportHistory: () =>
    "cine a creat, editat, pornit, pus în pauză, finalizat sau șters un transport, când și ce a răspuns platforma GPS",

  vehiclesNote: () =>
    "*Vehicule*: numărul de înmatriculare (`b 123 abc` = `B-123-ABC`), numele sau `#&lt;id&gt;`; mai multe, despărțite prin virgule; `toate` (sau `all`) pentru toate vehiculele",
  periodsNote: () =>
    "*Perioade* (în fusul tău orar): `azi` (implicit), `ieri`, `alaltăieri`, `ultimele 12 ore`, `ultimele 3 zile`, `săptămâna aceasta`, `săptămâna trecută`, `luna aceasta`, `luna trecută`, `03.11.2026` sau `2026-11-03`, `03.11..05.11`, `03.11.2026 08:00..03.11.2026 17:00`; și în engleză: `today`, `yesterday`, `last 12h`, `last 3d`, `this week`, `last week`, `this month`, `last month`",
  alertCodesNote: () =>
    "*Coduri de alertă*: `Error`, `OldData`, `NoGPSCoordinates`, `NotInRomania`, `MissingETransportConfiguration`, `WithoutTransmission`, `expiry` (valabilitatea codului UIT se apropie de sfârșit), `changerequest` (cererea de modificare a vehiculului a eșuat), `notstarted` (În așteptare după ora de începere), `Vanished` (nu mai apare în listă și nu e finalizat: poate e în Eroare, pe care platforma GPS o ascunde), `Stalled` (nicio poziție trimisă timp de `stale=` minute, implicit 30; `stale=0` le dezactivează) sau `all` (implicit)",
  vehicleKindsNote: () =>
    "*Alerte de vehicul* (doar dacă le scrii): `PowerCut` (alimentare sub `volts=`, 6 V), `Zone` (intră într-o zonă din `/fleet zone`; `zones=` alege câteva), `Idle` (stă cu motorul pornit `idle=` min, 20), `Speeding` (peste `speed=` km/h, 90), `Offline` (nicio poziție `offline=` min, 60), `Towed` (mutat cu motorul oprit), `AfterHours` (merge în afara `hours=`, 06:00-22:00), `Temperature` (frigider în afara `temp=&lt;min&gt;..&lt;max&gt;` °C timp de `tempfor=` min, 15); un vehicul în mod privat e urmărit doar pentru `PowerCut` și `Offline`",
  uitNote: () => "*Cod UIT*: 16 litere și cifre; cratimele și spațiile nu contează",

  homeAccountLinked: ({ account }) => `Lucrezi cu contul platformei GPS *${account}* (asociat de tine).`,
  homeAccountWorkspace: ({ account }) =>
    `Lucrezi cu contul platformei GPS *${account}* (contul workspace-ului).`,
  homeNoAccount: () => "Nu ai niciun cont pe platforma GPS: asociază-l pe al tău ca să folosești fleetbot.",
  homeLink: () => "Asociază contul meu",
  homeUnlink: () => "Dezasociază contul meu",
  homeRequests: () => "*Cererile tale*",
  homeNoRequests: () => "*Cererile tale*: nimic în așteptare.",
  homeSchedules: ({ example, list }) =>
    `*Rapoarte programate*: \`${example}\` scris într-un canal publică acolo raportul la ora aleasă, cu contul tău pe platforma GPS; \`${list}\` în canal arată programările lui, cu Pauză, Rulează acum și Șterge.`,
  homeTaskState: (state) => TASK_STATES[state],
  supportAt: ({ link }) =>
    `Ajutor și asistență: ${link} · ce păstrează fleetbot și cum se șterge: /privacy, pe același site.`,
  supportAsk: () =>
    "Ajutor și asistență: întreabă persoana care a adăugat fleetbot în acest workspace. Dezinstalarea lui fleetbot șterge într-un minut tot ce a păstrat pentru workspace.",
} satisfies Translation<typeof en>;
true satisfies SameParameters<typeof en, typeof help>;
