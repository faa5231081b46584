/**
 * Romanian, vehicle watch. "Zonă" is the dispatchers' word for a geofence (TrackGPS's own
 * interface says "zone"); informal second person, as in the other alerts.
 */
import type { vehicleWatch as en } from "../en/vehicleWatch.js";
import { count } from "../plural.js";
import type { SameParameters, Translation } from "../section.js";

export const vehicleWatch = {
  powerCutLine: ({ volts, threshold, lasted }) =>
    `*Alimentarea externă la ${volts} V* (sub ${threshold} V): echipamentul GPS merge pe bateria de rezervă, de *${lasted}*.`,
  powerCutTransport: ({ uit }) =>
    `*Transportul ${uit} e în desfășurare:* când se descarcă bateria de rezervă, echipamentul tace și pozițiile nu mai ajung la ANAF (de atunci curge riscul de amendă).`,
  powerCutAdvice: () => "Verifică legăturile echipamentului GPS și bateria vehiculului.",
  insideZoneLine: ({ zone, radius, lasted }) =>
    `*În ${zone}* (la cel mult ${radius} m de centru), de *${lasted}*.`,
  idleLine: ({ lasted, limit }) => `*Stă cu motorul pornit de ${lasted}* (limita ta: ${limit}).`,
  idleAdvice: () => "Mersul în gol arde motorină degeaba: roagă șoferul să oprească motorul cât așteaptă.",
  speedingLine: ({ speed, limit, peak }) =>
    `*Merge cu ${speed} km/h*, peste limita ta de ${limit} km/h (maxim văzut: ${peak} km/h).`,
  offlineLine: ({ lasted, limit }) => `*Nicio poziție de ${lasted}* (limita ta: ${limit}).`,
  offlineAdvice: () =>
    "Echipamentul GPS poate fi fără curent sau fără semnal: verifică-l înainte ca vehiculul să plece într-un transport.",
  towedLine: ({ distance }) => `*Mutat ${distance} cu motorul oprit* între două verificări.`,
  towedAdvice: () =>
    "Sună șoferul: un vehicul care se mișcă cu contactul oprit e tractat, urcat pe o platformă auto sau furat.",
  afterHoursLine: ({ speed, hours }) => `*Merge cu ${speed} km/h în afara programului* (${hours}).`,
  temperatureLine: ({ value, min, max, lasted }) =>
    `*Frigiderul la ${value} °C*, în afara intervalului ${min}..${max} °C de *${lasted}*.`,
  temperatureAdvice: () => "Verifică agregatul frigorific și ușile: marfa poate fi în pericol.",
  seenAt: ({ when }) => `Văzut ${when}`,
  mapLink: () => "hartă",
  privatePlace: () => "Mod privat: poziția nu se afișează.",
  zoneStayed: ({ zone, lasted }) => `A stat în *${zone}* *${lasted}*.`,
  speedingPeak: ({ peak }) => `Viteza maximă văzută: *${peak} km/h*.`,
  reasonPrivate: () => "vehiculul e în mod privat: nu e urmărit pentru asta",
  reasonTransport: () =>
    "vehiculul are un transport în desfășurare: îl urmărește alerta de transmisie blocată",
  reasonGone: () => "nu mai e urmărit: s-a schimbat abonarea sau zona, ori vehiculul nu mai apare în listă",
  alertText: ({ mark, title, vehicle }) => `${mark} ${title}: vehiculul ${vehicle}`,
  resolvedText: ({ title, vehicle, lasted }) => `✅ Rezolvat: ${title}, ${vehicle} — a durat ${lasted}`,
  resolvedLine: ({ from, to, lasted }) => `De la ${from} până la ${to} — a durat *${lasted}*`,
  buttonMuteVehicle: () => "Fără alerte 24 h pentru vehicul",
  groupTitle: () => "Alerte de vehicul",
  vehicles: (n) => count("ro", n, { one: "vehicul", few: "vehicule", other: "de vehicule" }),
  groupButtonsInThread: () => "Butonul Fără alerte al fiecărui vehicul e în thread.",

  watchPowerCut: ({ volts }) => `PowerCut sub ${volts} V`,
  watchZones: ({ zones }) => `Zone: zonele ${zones}`,
  watchEveryZone: () => "Zone: toate zonele workspace-ului",
  watchIdle: ({ duration }) => `Idle după ${duration}`,
  watchSpeeding: ({ kmh }) => `Speeding peste ${kmh} km/h`,
  watchOffline: ({ duration }) => `Offline după ${duration}`,
  watchTowed: () => "Towed (mutat peste 500 m cu motorul oprit)",
  watchAfterHours: ({ hours }) => `AfterHours în afara intervalului ${hours}`,
  watchTemperature: ({ min, max, duration }) => `Temperature în afara ${min}..${max} °C timp de ${duration}`,

  zonesTitle: () => "Zonele acestui workspace",
  zonesEmpty: ({ example }) =>
    `Acest workspace nu are încă zone. Adaugă una cu centrul și raza ei: ${example}, sau cu centrul în poziția unui vehicul: \`/fleet zone adaugă Depou la B-101-FLT\`.`,
  zoneLine: ({ name, latitude, longitude, radius, map }) =>
    `*${name}* · ${latitude}, ${longitude} · rază ${radius} m · ${map}`,
  zonesHint: () =>
    "Canalele abonate la alertele `Zone` află când un vehicul intră într-o zonă și, când iese, cât a stat: `/fleet alerte abonează Zone` (sau `zones=Depou,Client`).",
  zonesCount: (n) => count("ro", n, { one: "zonă", few: "zone", other: "de zone" }),
  zoneAdded: ({ name, latitude, longitude, radius }) =>
    `:white_check_mark: Zona *${name}* a fost adăugată: ${latitude}, ${longitude}, rază ${radius} m.`,
  zoneAddedAt: ({ vehicle, when }) => `Centrul e poziția lui ${vehicle} din ${when}.`,
  zoneWatchedBy: ({ channels }) => `O urmăresc de acum alertele Zone din ${channels}.`,
  zoneNotWatched: ({ example }) =>
    `Niciun canal din acest workspace nu e abonat încă la alertele \`Zone\`: ${example}.`,
  zoneExists: ({ name, example }) =>
    `Există deja o zonă numită *${name}* (numele nu țin cont de majuscule și diacritice). Alege alt nume sau șterge-o întâi: ${example}.`,
  zoneRemoved: ({ name }) =>
    `:wastebasket: Zona *${name}* a fost ștearsă. Alertele Zone deschise pentru ea, dacă sunt, se rezolvă la următoarea verificare.`,
  zoneNotFound: ({ name, known }) => `Acest workspace nu are o zonă numită *${name}*.${known}`,
  zoneKnown: ({ names }) => ` Zonele lui: ${names}.`,
  zoneTooMany: ({ max }) =>
    `Un workspace poate avea cel mult ${count("ro", max, { one: "zonă", few: "zone", other: "de zone" })}: șterge una întâi (\`/fleet zone\` le arată).`,
  zoneVehicleNoPosition: ({ vehicle }) =>
    `Pentru ${vehicle} nu se cunoaște nicio poziție: scrie centrul zonei, de exemplu \`/fleet zone adaugă Depou 44.4268,26.1025\`.`,
  zoneVehiclePrivate: ({ vehicle }) =>
    `${vehicle} e în mod privat: poziția lui nu se folosește. Scrie centrul zonei, de exemplu \`/fleet zone adaugă Depou 44.4268,26.1025\`.`,
  zoneUnknownNames: ({ names, known }) =>
    `Acest workspace nu are o zonă numită ${names}.${known} Adaug-o întâi: \`/fleet zone adaugă <nume> <lat>,<lon>\`.`,
  zoneExample: ({ example }) => `Exemplu: ${example}`,
  exampleAdd: () => "/fleet zone adaugă Depou 44.4326,25.9723 radius=500",
  exampleSubscribe: () => "/fleet alerte abonează Zone",
  zoneNoZonesYet: () => " Nu are încă zone.",
  zoneVehiclesLoading: () =>
    "Lista ta de vehicule încă se încarcă de pe platforma GPS: trimite comanda din nou peste câteva secunde.",
} satisfies Translation<typeof en>;

true satisfies SameParameters<typeof en, typeof vehicleWatch>;
