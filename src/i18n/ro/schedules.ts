/** Romanian, scheduled reports (`/fleet programează`). */
import type { schedules as en } from "../en/schedules.js";
import { plural } from "../plural.js";
import type { SameParameters, Translation } from "../section.js";

export const schedules = {
  time: ({ given }) =>
    `Spune când rulează, la sfârșit: \`la 07:30\` (ora în format de 24 de ore)${given ? `, nu ${given}` : ""}.`,
  recurrence: ({ given }) =>
    `Cât de des? Înainte de oră: \`în fiecare zi\`, \`în zilele lucrătoare\`, \`în fiecare luni\` sau \`în fiecare lună pe 1\`${given ? ` (nu ${given})` : ""}.`,
  day: ({ given }) =>
    `${given} nu e o zi a lunii: de la 1 la 31 (într-o lună mai scurtă rulează în ultima ei zi).`,
  report: () =>
    "Ce raport? Scrie întâi comanda raportului, cum ai scrie-o după `/fleet`: `combustibil toate ieri`.",
  notAReport: ({ given }) =>
    `${given} nu e un raport: se pot programa doar rapoarte (combustibil, opriri, traseu, alimentări, temperaturi, unde, vehicule), cu vehiculele lor.`,
  id: ({ given }) =>
    `Scrie codul programării, cum îl arată \`/fleet programări\`${given ? `, nu ${given}` : ""}.`,

  everyDay: ({ time }) => `în fiecare zi la ${time}`,
  everyWeekday: ({ time }) => `în zilele lucrătoare (luni–vineri) la ${time}`,
  everyWeek: ({ weekday, time }) => `în fiecare ${WEEKDAYS[weekday] ?? "săptămână"} la ${time}`,
  everyMonth: ({ day, time }) =>
    `în fiecare lună pe ${day} la ${time}${day > 28 ? " (într-o lună mai scurtă, în ultima ei zi)" : ""}`,

  added: ({ id, what, when, zone, channel, next }) =>
    `Programat: \`${what}\` ${when} (${zone}) în ${channel}, cod \`${id}\`. Următoarea rulare: ${next}. \`/fleet programări\` o arată, cu Pauză, Rulează acum și Șterge.`,
  noAccount: () =>
    "Un raport programat rulează cu contul tău pe platforma GPS: asociază-l întâi cu `/fleet login`, apoi programează din nou.",
  notMember: ({ channel }) =>
    `Nu ești membru în ${channel}: o programare postează acolo unde își citește autorul. Intră în canal sau programează într-un canal în care ești.`,
  botNotInChannel: ({ channel, code }) =>
    `fleetbot nu poate posta în ${channel} (${code}). Invită-l acolo cu \`/invite @fleetbot\`, apoi programează din nou.`,
  channelUnknown: ({ channel }) =>
    `Slack nu cunoaște un canal ${channel} pe care fleetbot să-l vadă. Scrie comanda chiar în canal sau alege-l cu # ca Slack să-l lege.`,
  workspaceFull: ({ count, max }) =>
    `Workspace-ul are ${count} de rapoarte programate, cel mult ${max}. Șterge întâi unul (\`/fleet programări\`).`,
  accountFull: ({ used, adding, max }) =>
    `E prea mult pentru contul platformei GPS: programările lui folosesc deja ${used} din cele ${max} cereri pe zi pe care le pot lua (jumătate din cât permite platforma GPS; restul rămâne pentru căutările oamenilor), iar aceasta are nevoie de ${adding} la fiecare rulare. Restrânge-o (mai puține vehicule, o perioadă mai scurtă) sau șterge altă programare.`,

  listTitle: ({ channel }) => `Rapoarte programate în ${channel}`,
  listEmpty: ({ example }) =>
    `Niciun raport programat aici deocamdată. Pentru combustibilul de ieri în fiecare dimineață: \`${example}\``,
  ownElsewhere: () => "Ale tale, în alte canale",
  item: ({ id, what, when, channel, author }) =>
    `\`${id}\` · \`${what}\` · ${when} · ${channel} · de ${author}`,
  nextRun: ({ at }) => `Următoarea rulare ${at}`,
  lastOk: ({ at }) => `ultima rulare ${at}: postat`,
  lastFailed: ({ at, count }) =>
    `ultima rulare ${at}: eșuată${count > 1 ? ` (${count} la rând; la 3 e pusă în pauză)` : ""}`,
  lastSkipped: ({ count }) =>
    `${plural("ro", count, { one: "ultima rulare sărită", few: `ultimele ${count} rulări sărite`, other: `ultimele ${count} de rulări sărite` })} (fleetbot a fost oprit mai mult de 12 ore)`,
  neverRun: () => "nu a rulat încă",
  pausedBecause: ({ reason }) => `În pauză: ${reason}`,
  reasonUser: () => "cineva a apăsat Pauză",
  reasonUnlinked: () => "autorul nu mai are asociat un cont pe platforma GPS",
  reasonLeftChannel: () => "autorul nu mai e în canal",
  reasonBotNotInChannel: () => "fleetbot nu mai poate posta în canal",
  reasonFailures: () => "ultimele 3 rulări au eșuat",
  pause: () => "Pauză",
  resume: () => "Reia",
  runNow: () => "Rulează acum",
  remove: () => "Șterge",
  removeConfirmTitle: () => "Ștergi programarea?",
  removeConfirmText: ({ what, when }) => `\`${what}\` ${when} nu va mai fi postat.`,
  removeConfirmYes: () => "Șterge",
  cancel: () => "Renunță",

  removed: ({ id, what }) => `Programarea \`${id}\` (\`${what}\`) a fost ștearsă.`,
  notFound: ({ id }) => `Nu există programarea \`${id}\` în acest workspace. \`/fleet programări\` le arată.`,
  onlyAuthor: ({ author }) =>
    `Doar autorul ei, ${author}, poate șterge sau relua această programare: rulează cu contul lui pe platforma GPS.`,
  pausedNow: ({ id }) => `Programarea \`${id}\` e în pauză: nu se mai postează nimic până e reluată.`,
  resumedNow: ({ id, next }) => `Programarea \`${id}\` a fost reluată. Următoarea rulare: ${next}.`,
  runQueued: ({ id, channel }) => `Programarea \`${id}\` rulează acum: raportul va fi postat în ${channel}.`,

  byline: ({ author, next }) => `Programat de ${author} · următoarea rulare ${next} · \`/fleet programări\``,
  bylineRunNow: ({ author, by }) => `Programat de ${author} · rulat acum de ${by}`,
  late: ({ due }) => `Întârziat: trebuia la ${due}, când fleetbot nu rula.`,
  missed: ({ count }) =>
    `${plural("ro", count, { one: "O rulare anterioară a fost pierdută", few: `${count} rulări anterioare au fost pierdute`, other: `${count} de rulări anterioare au fost pierdute` })} cât fleetbot a fost oprit (acum mai mult de 12 ore).`,

  pausedDm: ({ what, when, channel, reason }) =>
    `Raportul tău programat \`${what}\` (${when}) din ${channel} a fost pus în pauză: ${reason}.`,
  pausedDmFix: ({ fix }) => `${fix} Apoi apasă Reia în \`/fleet programări\` acolo.`,
  fixUnlinked: () => "Asociază din nou contul tău pe platforma GPS cu `/fleet login`.",
  fixLeftChannel: () => "Intră din nou în canal.",
  fixBotNotInChannel: () => "Invită fleetbot în canal cu `/invite @fleetbot`.",
  fixFailures: () => "Fiecare eșec ți-a fost trimis; încearcă raportul de mână ca să vezi ce spune.",
} satisfies Translation<typeof en>;

const WEEKDAYS = ["duminică", "luni", "marți", "miercuri", "joi", "vineri", "sâmbătă"];

true satisfies SameParameters<typeof en, typeof schedules>;
