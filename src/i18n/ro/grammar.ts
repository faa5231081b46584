/** Romanian, the command grammar (see en/grammar.ts). Informal second person. */
import type { grammar as en } from "../en/grammar.js";
import { number } from "../format.js";
import { count, plural } from "../plural.js";
import type { SameParameters, Translation } from "../section.js";

/** "ultima zi", "ultimele 3 zile", "ultimele 20 de zile": the adjective agrees with the number too. */
function last(n: number, one: string, few: string): string {
  const digits = number("ro", n, { maxFractionDigits: 0 });
  return plural("ro", n, { one, few: `ultimele ${digits} ${few}`, other: `ultimele ${digits} de ${few}` });
}

const MONTHS = [
  "ianuarie",
  "februarie",
  "martie",
  "aprilie",
  "mai",
  "iunie",
  "iulie",
  "august",
  "septembrie",
  "octombrie",
  "noiembrie",
  "decembrie",
];

const days = (n: number) => count("ro", n, { one: "zi", few: "zile", other: "de zile" });
const uits = (n: number) => count("ro", n, { one: "cod UIT", few: "coduri UIT", other: "de coduri UIT" });

export const grammar = {
  periodToday: () => "azi",
  periodYesterday: ({ date }) => `ieri (${date})`,
  periodDayBeforeYesterday: ({ date }) => `alaltăieri (${date})`,
  periodLastHours: (n) => last(n, "ultima oră", "ore"),
  periodLastDays: (n) => last(n, "ultima zi", "zile"),
  periodThisWeek: ({ since }) => `săptămâna aceasta (de la ${since})`,
  periodThisMonth: ({ since }) => `luna aceasta (de la ${since})`,
  periodLastWeek: ({ from, to }) => `săptămâna trecută (${from} – ${to})`,
  periodLastMonth: ({ from, to }) => `luna trecută (${from} – ${to})`,
  periodUntilNow: ({ period }) => `${period} (până acum)`,

  tryExample: () => "Încearcă:",
  or: () => "sau",
  andMoreShort: (n) => `și încă ${number("ro", n)}`,

  notADate: ({ given, example }) =>
    `${given} nu este o dată. Datele se scriu ZZ.LL.AAAA sau AAAA-LL-ZZ, de exemplu ${example}.`,
  noSuchMonth: ({ given, month }) =>
    `${given} nu este o dată: nu există luna ${number("ro", month)}. Datele se scriu ZZ.LL.AAAA sau AAAA-LL-ZZ.`,
  noSuchDay: ({ given, month, year, days: n }) =>
    `${given} nu este o dată: ${MONTHS[month - 1] ?? month} ${year} are ${days(n)}.`,
  tooFarBack: ({ given }) => `${given} este prea departe în trecut.`,
  notATime: ({ given }) => `${given} nu este o oră. Orele se scriu HH:MM, de la 00:00 la 23:59.`,
  notAStart: ({ given, example }) =>
    `${given} nu este un început: scrie o dată sau o dată și o oră, de exemplu ${example}.`,
  notAnEnd: ({ given, example }) =>
    `${given} nu este un sfârșit: scrie o dată sau o dată și o oră, de exemplu ${example}.`,
  notStarted: ({ given }) => `${given} nu a început încă: rapoartele acoperă trecutul, până acum.`,
  skippedByClocks: ({ given }) =>
    `${given} nu există în fusul tău orar: ceasurile au sărit peste el la schimbarea orei.`,
  rangeSeparator: ({ given }) =>
    `${given} nu este o perioadă: un interval are un singur \`..\` între început și sfârșit.`,
  endsBeforeStart: ({ given, timed }) =>
    `${given} se încheie înainte să înceapă: pune întâi ${timed ? "ora" : "data"} mai devreme.`,
  tooLong: ({ given, maxDays }) =>
    `${given} este o perioadă prea lungă: poate cuprinde cel mult ${days(maxDays)}.`,
  lastNeedsUnit: ({ given, count: n }) =>
    `${given} nu este o perioadă. Adaugă unitatea: \`ultimele ${n} ore\` sau \`ultimele ${n} zile\`.`,
  lastNotANumber: ({ given }) =>
    `${given} nu este o perioadă. Scrie \`ultimele 12 ore\` pentru ore sau \`ultimele 3 zile\` pentru zile, cu un număr întreg.`,
  countOutOfRange: ({ given, hours, max }) =>
    `${given}: numărul de ${hours ? "ore" : "zile"} trebuie să fie de la 1 la ${number("ro", max)}${hours ? " (sau folosește zile: `ultimele 3 zile`)" : ""}.`,
  timeNeedsEnd: ({ given, example }) =>
    `${given}: o oră de început are nevoie și de un sfârșit, de exemplu ${example}.`,
  notAPeriod: ({ given, yesterday, range }) =>
    `${given} nu este o perioadă. Folosește \`azi\`, \`ieri\`, \`ultimele 12 ore\`, \`ultimele 3 zile\`, \`săptămâna aceasta\`, \`săptămâna trecută\`, \`luna aceasta\`, \`luna trecută\`, o dată ca ${yesterday} sau un interval ca ${range}.`,

  optionTwice: ({ option }) => `${option} apare de două ori.`,
  strayWords: ({ given }) => `${given} nu este nici vehicul, nici perioadă. Scrie vehiculele, apoi perioada.`,
  periodFirst: ({ given }) => `Pune perioada după vehicule: ${given} a fost citit ca parte dintr-un vehicul.`,
  minNotWhole: ({ given }) =>
    `${given}: scrie durata minimă a opririi ca număr întreg de minute, de exemplu \`min=10\`.`,
  minOutOfRange: ({ given, max }) =>
    `${given}: durata minimă a opririi trebuie să fie de la 1 la ${count("ro", max, { one: "minut", few: "minute", other: "de minute" })}.`,
  minOnlyForStops: ({ command }) => `\`min=\` este doar pentru ${command}.`,
  unknownOption: ({ option, command, onlyMin }) =>
    `${command} nu înțelege ${option}.${onlyMin ? " Singura opțiune este `min=<minute>`." : ""}`,
  oneVehicleNotAll: ({ command, vehiclesCommand }) =>
    `${command} lucrează cu câte un singur vehicul, nu cu \`toate\`.${vehiclesCommand ? ` Pentru toate vehiculele folosește ${vehiclesCommand}.` : ""}`,
  oneVehicleMany: ({ command, count: n, given }) =>
    `${command} lucrează cu câte un singur vehicul; ai scris ${number("ro", n)}: ${given}.`,
  snapshotNoPeriod: ({ command, routeCommand }) =>
    `${command} arată ultima poziție și nu acceptă o perioadă. Pentru traseul pe o perioadă folosește ${routeCommand}.`,
  reportAfterWord: ({ given, word, reports }) =>
    `${given}: după ${word} nu mai scrie nimic sau scrie unul dintre ${reports}.`,
  vehicleWithoutSubcommand: ({ vehicle }) =>
    `Spune ce vrei să afli despre ${vehicle}, de exemplu unde se află sau opririle lui.`,
  notAVehicleId: ({ given }) =>
    `${given} nu este un id de vehicul: id-urile sunt numere întregi după #, de exemplu \`#1234\`.`,
  notAVehicle: ({ given }) => `${given} nu este un vehicul: scrie un număr de înmatriculare sau un nume.`,
  vehicleAmbiguous: ({ given, count: n, candidates }) =>
    `${given} se potrivește cu ${count("ro", n, { one: "vehicul", few: "vehicule", other: "de vehicule" })}: ${candidates}. Scrie numărul de înmatriculare.`,
  vehicleUnknownPlate: ({ given, suggestions }) =>
    `Niciun vehicul cu numărul de înmatriculare ${given} în acest cont.${suggestions ? ` Ai vrut să scrii ${suggestions}?` : ""}`,
  vehicleUnknownName: ({ given, suggestions }) =>
    `Niciun vehicul numit ${given} în acest cont.${suggestions ? ` Ai vrut să scrii ${suggestions}?` : ""}`,
  vehicleNotVisible: ({ vehicle }) =>
    `Vehiculul ${vehicle} nu este vizibil pentru acest cont al platformei GPS.`,

  notAChannel: ({ given }) =>
    `${given} nu este un canal pe care fleetbot îl poate folosi: scrie \`#\` și alege canalul din lista pe care o arată Slack sau nu scrie niciun canal ca să-l folosești pe acesta.`,
  oneChannel: () => "Scrie un singur canal.",
  takesNothing: ({ command }) => `După ${command} nu se mai scrie nimic.`,
  unsubscribeOnlyChannel: ({ given }) =>
    `\`/fleet alerte dezabonează\` acceptă doar un canal; ${given} nu este un canal.`,
  notAnAlertCode: ({ given, suggestion, codes }) =>
    `${given} nu este un cod de alertă.${suggestion ? ` Ai vrut să scrii ${suggestion}?` : ""} Coduri: ${codes} sau \`all\`.`,
  zoneName: () => "Scrie numele zonei, apoi unde se află.",
  zoneNameCharacters: ({ given }) =>
    `${given} nu poate fi numele unei zone: cel mult 60 de caractere, fără < > * _ \` ~ |.`,
  zoneWhere: ({ given }) =>
    `Unde e zona? După nume scrie centrul ei ca latitudine,longitudine sau \`la\` și un vehicul (nu ${given}).`,
  zoneCoordinates: ({ given }) =>
    `${given} nu e un loc: latitudinea de la −90 la 90 și longitudinea de la −180 la 180, cum le copiezi de pe o hartă (44.4326,25.9723).`,
  zoneRadius: ({ given }) => `${given}: raza e un număr întreg de metri, de la 50 la 50.000.`,
  zoneSubcommand: ({ given, suggestion }) =>
    `${given} nu e o comandă pentru \`/fleet zone\`.${suggestion ? ` Ai vrut să scrii \`${suggestion}\`?` : " Folosește `adaugă` sau `șterge`, ori nimic ca să le vezi."}`,
  watchOptionWithoutKind: ({ option, kind }) =>
    `${option} e o opțiune a alertelor ${kind}: adaugă și ${kind} între coduri.`,
  temperatureNeedsBand: ({ example }) =>
    `Alertele Temperature au nevoie de intervalul în care trebuie să stea marfa, ca \`temp=<min>..<max>\` °C (marfa refrigerată și cea congelată cer intervale opuse), de exemplu ${example}.`,
  unknownAlertsSubcommand: ({ given, suggestion }) =>
    `${given} nu este o comandă.${suggestion ? ` Ai vrut să scrii ${suggestion}?` : " Folosește `abonează`, `dezabonează` sau `listă`."}`,
  oneLanguage: ({ command }) => `${command} acceptă o singură limbă: \`ro\` sau \`en\`.`,
  workspaceLanguageMissing: () => "Spune ce limbă folosește workspace-ul: `ro` sau `en`.",
  notALanguage: ({ given }) =>
    `${given} nu este o limbă în care răspunde fleetbot: \`ro\` (română) sau \`en\` (engleză).`,
  loginTakesNothing: () =>
    "După `/fleet login` nu se mai scrie nimic (sau `workspace`, pentru contul workspace-ului): comanda deschide un formular privat pentru numele de utilizator și parolă. Nu scrie niciodată o parolă într-un mesaj.",

  unknownCommand: ({ given, root }) => `${given} nu este o comandă. Iată ce poate face ${root}:`,
  unknownCommandNear: ({ given, suggestion, pauseCommand }) =>
    `${given} nu este o comandă. Ai vrut să scrii ${suggestion}${pauseCommand ? ` (sau ${pauseCommand}, ca să oprești o vreme trimiterea pozițiilor)` : ""}?`,
  notACommand: () => "Comenzile încep cu `/fleet` sau `/etransport`.",

  uitLength: ({ given, length, uitLength, example }) =>
    `${given} nu este un cod UIT: are ${count("ro", length, { one: "caracter", few: "caractere", other: "de caractere" })}, un cod UIT are ${number("ro", uitLength)} litere și cifre, de exemplu ${example}.`,
  uitCharacters: ({ given, example }) =>
    `${given} nu este un cod UIT: un cod UIT are doar litere și cifre (cratimele și spațiile nu contează), de exemplu ${example}.`,
  oneTransport: ({ command, count: n }) =>
    `${command} lucrează cu câte un singur transport; ai scris ${uits(n)}.`,
  historyNeedsUit: ({ command }) =>
    `${command} are nevoie de codul UIT al transportului ale cărui modificări vrei să le vezi.`,
  historyOne: ({ command, count: n }) => `${command} arată câte un singur transport; ai scris ${uits(n)}.`,
  uitWithoutVerb: ({ uit, verbs }) => `Spune ce să facă fleetbot cu ${uit}: ${verbs}.`,
} satisfies Translation<typeof en>;
true satisfies SameParameters<typeof en, typeof grammar>;
