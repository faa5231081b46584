/**
 * Romanian, transport alerts. The status names come from ro/etransport.ts (TrackGPS's tables);
 * "aplicația ANAF" is TrackGPS's fallback advice, as there. Informal second person throughout.
 */
import type { IncidentKind, ResolveReason } from "../../features/alerts/incidents.js";
import type { alerts as en } from "../en/alerts.js";
import { number } from "../format.js";
import { count, plural } from "../plural.js";
import type { SameParameters, Translation } from "../section.js";

const TITLES: Readonly<Record<IncidentKind, string>> = {
  // The dispatchers' words for it (the issue): "transmisie GPS întreruptă".
  transmission: "Transmisie GPS întreruptă",
  changerequest: "Cererea de modificare a vehiculului a eșuat",
  expiry: "Valabilitatea codului UIT expiră curând",
  notstarted: "Transport nepornit",
  vanished: "Nu mai apare pe platforma GPS",
  stalled: "Transmisie GPS blocată",
  powercut: "Alimentare întreruptă",
  zone: "În zonă",
  idle: "Staționare cu motorul pornit",
  speeding: "Depășire de viteză",
  offline: "Vehicul fără semnal",
  towed: "Mutat cu motorul oprit",
  afterhours: "Deplasare în afara programului",
  temperature: "Temperatură în afara limitelor",
};

const RECOVERED: Readonly<Record<IncidentKind, string>> = {
  transmission: "transmisia a revenit la normal",
  changerequest: "cererea de modificare nu mai arată o eroare",
  expiry: "valabilitatea codului UIT a fost prelungită",
  notstarted: "transportul a fost pornit",
  vanished: "platforma GPS afișează din nou transportul",
  stalled: "pozițiile ajung din nou la ANAF",
  powercut: "alimentarea externă a revenit",
  zone: "vehiculul a ieșit din zonă",
  idle: "vehiculul a pornit sau motorul a fost oprit",
  speeding: "viteza a revenit sub limită",
  offline: "pozițiile sosesc din nou",
  towed: "motorul e pornit sau vehiculul stă pe loc",
  afterhours: "vehiculul s-a oprit sau a început programul",
  temperature: "temperatura a revenit între limite",
};

const REASONS: Readonly<Record<Exclude<ResolveReason, "recovered">, string>> = {
  status: "transportul nu mai este În desfășurare",
  gone: "transportul nu mai apare în listă (finalizat, finalizat automat sau șters)",
  completed: "platforma GPS arată transportul finalizat",
  removed: "transportul a fost șters prin fleetbot",
  changed: "problema s-a schimbat: urmează o alertă nouă",
};

export const alerts = {
  /**
   * "transmisie GPS întreruptă": the dispatchers' words (the issue), for what TrackGPS calls the
   * "Data Transmission Interruption to ANAF" notification (docs.trackgps.ro/en/etransport/
   * managment/transmissionstatus, the recommendation under the table).
   */
  transmissionInterrupted: () => "Transmisie GPS întreruptă",
  title: (kind) => TITLES[kind],
  titleOutsideRomania: () => "Vehicul în afara României",
  vehicleNotNamed: () => "vehicul fără nume",
  transmissionLine: ({ code, status }) => `*Transmisie:* ${code} — ${status}`,
  domesticRouteAbroad: () =>
    "Traseul este în România, deci vehiculul n-ar trebui să fie în afara țării: pozițiile nu ajung la ANAF. Verifică poziția vehiculului și echipamentul GPS; între timp transmite pozițiile din aplicația ANAF.",
  changeRequestLine: ({ code, status }) => `*Cerere de modificare a vehiculului:* ${code} — ${status}`,
  changeRequestFailed: () => "eșuată",
  plateMustBeUpdated: () =>
    "Numărul de înmatriculare de pe codul UIT trebuie actualizat înainte ca vehiculul să plece din nou la drum.",
  validityEnds: ({ when }) => `*Valabilitatea codului UIT expiră la* ${when}`,
  validityEnded: ({ when }) => `*Valabilitatea codului UIT a expirat la* ${when}`,
  expiredUitProhibited: () =>
    "Folosirea unui cod UIT expirat este interzisă: finalizează transportul sau cere un cod UIT nou.",
  plannedStart: ({ when, status }) => `*Începutul planificat al transmisiei* ${when} — încă ${status}`,
  startBeforeLeaving: () => "Pornește transportul înainte de plecarea vehiculului.",
  vanishedLine: ({ status }) => `*Nu mai apare pe platforma GPS:* era ${status}, dar nu apare ca finalizat.`,
  vanishedAdvice: () =>
    "Poate fi în Eroare, pe care platforma GPS o ascunde: verifică-l acum pe platforma GPS. Până se rezolvă, pozițiile s-ar putea să nu ajungă la ANAF.",
  stalledSince: ({ lasted, when, code }) =>
    `*Nicio poziție trimisă de ${lasted}* (ultima a fost trimisă ${when}; starea transmisiei: ${code}).`,
  noCode: () => "neraportată",
  stalledLimit: ({ left, when }) =>
    `*Mai sunt ${left} până la limita de 6 ore* (${when}): pozițiile mai vechi de atât nu mai pot fi transmise (OldData).`,
  stalledLimitPassed: () => "*Limita de 6 ore a trecut:* aceste poziții nu mai pot fi transmise (OldData).",
  stalledAdvice: () =>
    "Verifică echipamentul GPS al vehiculului și alimentarea lui; între timp transmite pozițiile din aplicația ANAF.",
  since: ({ when }) => `*Din* ${when}`,
  factStatus: ({ status }) => `Stare: ${status}`,
  factLastGps: ({ when }) => `ultima poziție GPS ${when}`,
  factLastSent: ({ when }) => `ultima transmisie către ANAF ${when}`,
  alertText: ({ mark, title, uit, vehicle, code }) => `${mark} ${title}: cod UIT ${uit}${vehicle} — ${code}`,
  buttonPause: () => "Pauză",
  buttonEnd: () => "Finalizează",
  buttonShow: () => "Arată transportul",
  buttonMute: () => "Fără alerte 24 h",
  buttonUnmute: () => "Reactivează alertele",
  endConfirmTitle: () => "Finalizezi transportul?",
  endConfirmText: ({ uit, vehicle }) =>
    `Finalizezi transportul cu codul UIT ${uit}${vehicle}? Nu va mai putea fi modificat.`,
  endConfirm: () => "Finalizează transportul",
  endDeny: () => "Renunță",
  resolveReason: (kind, reason) => (reason === "recovered" ? RECOVERED[kind] : REASONS[reason]),
  resolved: () => "Rezolvat",
  resolvedSpan: ({ code, from, to, lasted }) => `*${code}* de la ${from} până la ${to} — a durat *${lasted}*`,
  betweenChecks: () => " (s-a încheiat între două verificări)",
  resolvedText: ({ title, uit, lasted }) => `✅ Rezolvat: ${title}, cod UIT ${uit} — a durat ${lasted}`,
  resolvedReply: ({ when, reason, lasted }) => `✅ Rezolvat ${when}: ${reason}. A durat ${lasted}`,
  resolvedReplyText: ({ reason, lasted }) => `✅ Rezolvat: ${reason}. A durat ${lasted}`,
  alertFallbackText: () => "Alertă de transport",
  groupMixedTitle: () => "Alerte de transport",
  transports: (n) => count("ro", n, { one: "transport", few: "transporturi", other: "de transporturi" }),
  groupResolvedPrefix: () => "Rezolvat · ",
  groupAllResolved: ({ n, longest }) =>
    `*${plural("ro", n, { one: "Alerta a fost rezolvată", few: `Toate cele ${n} alerte au fost rezolvate`, other: `Toate cele ${n} de alerte au fost rezolvate` })}.* Cea mai lungă a durat *${longest}*.`,
  groupOpen: (n) =>
    `*${count("ro", n, { one: "alertă deschisă", few: "alerte deschise", other: "de alerte deschise" })}*`,
  groupResolvedCount: (n) =>
    ` · ${count("ro", n, { one: "alertă rezolvată", few: "alerte rezolvate", other: "de alerte rezolvate" })}`,
  groupSince: ({ when }) => ` · din ${when}`,
  groupButtonsInThread: () =>
    "Butoanele fiecărui transport (Pauză, Finalizează, Arată, Fără alerte) sunt în thread.",
  groupMore: (n) => `…și încă ${n}: fiecare are mesajul lui în thread.`,
  groupContext: ({ transports }) => `Grupate: ${transports} cu probleme la aceeași verificare.`,
  groupResolvedText: ({ title, transports }) => `✅ Rezolvat: ${title}, ${transports}`,
  mutedLine: ({ when, user }) => `🔕 Alerte oprite până la ${when} de ${user}`,
  unmutedLine: ({ user }) => `🔔 Alerte reactivate de ${user}`,
  subscriptionLanguage: ({ language }) => `alerte în ${language}`,
  subscriptionWorkspaceLanguage: () => "alerte în limba workspace-ului",
  failureNotInChannel: () =>
    "fleetbot nu este în acest canal privat: invită-l în canal cu /invite @fleetbot.",
  failureChannelNotFound: () =>
    "fleetbot nu vede acest canal: dacă e privat, invită fleetbot în el (/invite @fleetbot); altfel verifică dacă mai există canalul.",
  failureArchived: () => "Canalul este arhivat: dezarhivează-l sau abonează alt canal.",
  failureRestricted: () =>
    "Aplicațiile nu au voie să scrie în acest canal: cere ajutorul unui administrator al workspace-ului.",
  failureMissingScope: () =>
    "fleetbot nu are permisiunea chat:write.public: reinstalează aplicația cu permisiunile din manifest.",
  failureRateLimited: () =>
    "Slack a limitat numărul de mesaje: fleetbot reîncearcă la următoarea verificare.",
  failureMessageGone: () => "Mesajul alertei a fost șters.",
  failureSlackRefused: ({ code }) => `Slack a refuzat mesajul (${code}).`,
  failureOther: () =>
    "Trimiterea a eșuat (Slack nu a răspuns sau a răspuns cu o eroare): fleetbot reîncearcă la următoarea verificare.",
  digestHeader: ({ account }) => `Rezumat e-Transport · ${account}`,
  pausedPasswordChanged: ({ account, subscriber }: { account: string; subscriber: string }) =>
    `⏸️ Alertele contului *${account}* sunt oprite aici: parola contului platformei GPS s-a schimbat, iar abonarea acestui canal are încă parola veche. ${subscriber} trebuie să asocieze din nou contul cu \`/fleet login\`; apoi alertele revin singure.`,
  pausedWorkspacePasswordChanged: ({ account }: { account: string }) =>
    `⏸️ Alertele contului *${account}* sunt oprite aici: parola contului platformei GPS s-a schimbat, iar contul workspace-ului are încă parola veche. Un administrator al workspace-ului trebuie să o seteze din nou cu \`/fleet login workspace\` (cu un singur workspace configurat, cine administrează fleetbot actualizează \`FLEET_PASSWORD\`); apoi alertele revin singure.`,
  pausedLinkAgain: ({ account, channel }: { account: string; channel: string }) =>
    `⚠️ Platforma GPS nu mai acceptă parola din asocierea ta cu *${account}* (a fost schimbată). Până când asociezi din nou contul cu \`/fleet login\`, fleetbot nu mai citește nimic în numele lui, iar alertele la care ai abonat ${channel} sunt oprite.`,
  digestTransports: ({ counts }) => `*Transporturi:* ${counts}`,
  digestNoTransports: () => "niciun transport În așteptare, În desfășurare sau În pauză",
  digestMore: (n) => `…și încă ${n}`,
  digestVanished: (n) =>
    `${n} ${plural("ro", n, { one: "care nu mai apare", few: "care nu mai apar", other: "care nu mai apar" })} în listă`,
  digestStalled: (n) =>
    count("ro", n, { one: "transmisie blocată", few: "transmisii blocate", other: "de transmisii blocate" }),
  digestOpenTitle: ({ n, apart }) => `Alerte deschise (${n}${apart ? `: ${apart}` : ""})`,
  digestOpenLine: ({ title, code, when }) => `${title}: ${code} din ${when}`,
  digestNoOpen: () => "nicio alertă deschisă",
  digestExpiringTitle: (n) => `Valabilitatea codului UIT expiră în mai puțin de o zi (${n})`,
  digestEnds: ({ when }) => `expiră la ${when}`,
  digestNone: () => "niciunul",
  digestText: ({ open, apart, expiring }) =>
    `Rezumat e-Transport: ${count("ro", open, { one: "alertă deschisă", few: "alerte deschise", other: "de alerte deschise" })}${apart ? ` (${apart})` : ""}, ${count("ro", expiring, { one: "cod UIT expiră", few: "coduri UIT expiră", other: "de coduri UIT expiră" })} în mai puțin de o zi`,
  subscriptionChannelAs: ({ channel, account }) => `${channel} cu contul *${account}*`,
  subscriptionCodes: ({ codes }) => `coduri ${codes}`,
  subscriptionEveryKind: () => "toate alertele de transport",
  subscriptionExcept: ({ codes }) => `fără ${codes}`,
  subscriptionVehicles: ({ vehicles, more }) =>
    `vehicule ${vehicles}${more > 0 ? ` și încă ${number("ro", more)}` : ""}`,
  subscriptionAfter: ({ duration }) => `după ${duration}`,
  subscriptionStalledAfter: ({ duration }) => `transmisie blocată după ${duration} fără nicio poziție`,
  subscriptionNoStalled: () => "fără alerte de transmisie blocată",
  subscriptionBy: ({ user }) => `adăugat de ${user}`,
  subscriptionWorkspaceAccount: () => "contul workspace-ului",
  subscriptionsNone: () =>
    "Niciun abonament la alerte. Abonează un canal cu `/fleet alerte abonează #canal`.",
  subscriptionLastFailed: ({ attempts, error }) =>
    `⚠️ ultima trimitere a eșuat (${number("ro", attempts)}×): ${error}`,
  subscriptionsMore: (n) => `…și încă ${number("ro", n)}`,
  subscriptionsText: (n) =>
    count("ro", n, {
      one: "abonament la alerte",
      few: "abonamente la alerte",
      other: "de abonamente la alerte",
    }),
  subscribed: ({ channel, account, description }) =>
    `🔔 ${channel} primește acum alertele pentru *${account}*: ${description}.`,
  subscriptionUpdated: ({ channel, account, description }) =>
    `🔔 Alertele pentru *${account}* din ${channel} au fost actualizate: ${description}.`,
  unsubscribed: ({ channel }) => `🔕 ${channel} nu mai primește alerte de transport.`,
  unsubscribedOf: ({ channel, account }) =>
    `🔕 ${channel} nu mai primește alerte de transport pentru *${account}*.`,
  notSubscribed: ({ channel }) => `${channel} nu avea abonament la alerte.`,
  notSubscribedFor: ({ channel, account }) => `${channel} nu avea abonament la alerte pentru *${account}*.`,
  notChannelMember: ({ channel }) =>
    `:no_entry: Nu ești membru în ${channel}: doar membrii canalului îi pot schimba alertele.`,
  notChannelMemberDetail: () => "Intră în canal, apoi rulează comanda acolo.",
  membershipUnknown: ({ channel }) =>
    `:warning: Slack nu ne-a transmis dacă ești membru în ${channel}; nu s-a schimbat nimic.`,
  membershipUnknownDetail: () => "Încearcă din nou peste un minut.",
  configuredChannel: ({ channel }) =>
    `:lock: ${channel} primește alertele contului workspace-ului din configurația lui fleetbot (ALERTS_CHANNEL): nu poate fi schimbat sau scos prin comenzi.`,
  configuredChannelDetail: () =>
    "Oprește alertele unui transport cu butonul „Fără alerte 24 h” de pe alertă; cine administrează fleetbot poate schimba ALERTS_CHANNEL.",
  cannotPostDetail: () => "Invită fleetbot cu /invite @fleetbot, apoi abonează din nou canalul.",
  filterUnknownCodes: ({ n, codes, known, kinds }) =>
    `${plural("ro", n, { one: "Cod de alertă necunoscut", few: "Coduri de alertă necunoscute", other: "Coduri de alertă necunoscute" })}: ${codes}. Coduri cunoscute: ${known} sau un tip (${kinds}).`,
  filterMinRange: () => "Durata minimă trebuie să fie între 0 și 1.440 de minute.",
  filterStaleRange: () => "stale= trebuie să fie un număr întreg de minute, de la 0 (oprit) la 360.",
  filterExample: () => "Exemplu: /fleet alerte abonează Error OldData min=15",
  optionMin: ({ option }) => `${option} trebuie să fie un număr întreg de minute, de la 0 la 1.440.`,
  optionStale: ({ option, example }) =>
    `${option} trebuie să fie un număr întreg de minute, de la 0 (oprit) la 360, de exemplu ${example}.`,
  optionLang: ({ option, ro, en, example }) =>
    `${option} nu este o limbă pe care o vorbește fleetbot: folosește ${ro} (română) sau ${en} (engleză), de exemplu ${example}.`,
  optionWatch: ({ option, rule, example }) => `${option} trebuie să fie ${rule}, de exemplu ${example}.`,
  ruleVolts: () => "volți de la 0 la 60 (merge și cu virgulă zecimală)",
  ruleIdle: () => "un număr întreg de minute, de la 1 la 1.440",
  ruleSpeed: () => "un număr întreg de km/h, de la 10 la 250",
  ruleOffline: () => "un număr întreg de minute, de la 5 la 10.080 (o săptămână)",
  ruleHours: () => "două ore diferite ale zilei, HH:MM-HH:MM (și peste miezul nopții: 22:00-06:00)",
  ruleTemp: () => "un interval în °C, <min>..<max>, fiecare între −50 și 50, primul mai mic decât al doilea",
  ruleTempFor: () => "un număr întreg de minute, de la 0 la 1.440",
  ruleZones: () => "nume de zone despărțite prin virgulă (un nume cu spații, între ghilimele)",
  optionExample: () => "Exemplu: /fleet alerte abonează Error OldData min=15 exclude=NotInRomania",
  mutedAnswer: ({ uit, channel, when }) =>
    `🔕 Alertele pentru codul UIT \`${uit}\` sunt oprite în ${channel} până la ${when}.`,
  mutedAnswerText: ({ uit }) => `Alertele pentru codul UIT ${uit} sunt oprite pentru 24 h.`,
  unmutedAnswer: ({ uit, channel }) =>
    `🔔 Alertele pentru codul UIT \`${uit}\` nu mai sunt oprite în ${channel}: o problemă care persistă apare la următoarea verificare.`,
  unmutedAnswerText: ({ uit }) => `Alertele pentru codul UIT ${uit} sunt reactivate.`,
} satisfies Translation<typeof en>;
true satisfies SameParameters<typeof en, typeof alerts>;
