/**
 * Romanian, vehicle reports (/fleet unde, traseu, opriri, combustibil, alimentări, temperaturi):
 * the views, the report form's choices and the files. The words are TrackGPS's own ("opriri",
 * "alimentări", "consum", "combustibil", "număr de înmatriculare", "sursă secundară (GPL)").
 */

import type { VehicleReportName } from "../../features/reports/catalogue.js";
import type { EngineState } from "../../features/reports/positions.js";
import type { CsvColumn, CsvWord, reports as en, ReportFile } from "../en/reports.js";
import { number } from "../format.js";
import { count, plural } from "../plural.js";
import type { SameParameters, Translation } from "../section.js";

const TITLES: Readonly<Record<VehicleReportName, string>> = {
  vehicles: "Lista vehiculelor",
  where: "Ultima poziție",
  route: "Traseu",
  stops: "Raport de opriri",
  fuel: "Raport de combustibil",
  refills: "Raport de alimentări",
  temps: "Raport de temperaturi",
};

/** At most 75 characters (Slack's option text). */
const MODAL_LABELS: Readonly<Record<VehicleReportName, string>> = {
  vehicles: "Lista vehiculelor",
  where: "Ultima poziție (unde)",
  route: "Traseu (GPX, CSV)",
  stops: "Opriri",
  fuel: "Consum de combustibil",
  refills: "Alimentări și posibile furturi",
  temps: "Temperaturi",
};

const ENGINE: Readonly<Record<EngineState, string>> = {
  on: "🟢 motor pornit",
  off: "⚪ motor oprit",
  unknown: "starea motorului necunoscută",
};

/** Headers a Romanian spreadsheet shows as they are: words, not identifiers. */
const CSV_HEADERS: Readonly<Record<CsvColumn, string>> = {
  // Headers as a Romanian spreadsheet reads them: capitalised, in words (issue 33).
  plate: "Nr. de înmatriculare",
  vehicle: "Vehicul",
  time: "Data și ora",
  latitude: "Latitudine",
  longitude: "Longitudine",
  speedKmh: "Viteză (km/h)",
  start: "Început",
  end: "Sfârșit",
  durationMin: "Durată (min)",
  engineOnMin: "Motor pornit (min)",
  address: "Adresă",
  hotspot: "Punct de interes",
  drivers: "Șoferi",
  fuelConsumption: "Consum de combustibil",
  private: "Privat",
  stopDurationRaw: "Durata opririi (platforma GPS)",
  beganBeforePeriod: "Începută înainte de perioadă",
  lastedToPeriodEnd: "Durează până la sfârșitul perioadei",
  primaryKm: "Km sursă principală",
  primaryHours: "Ore sursă principală",
  primaryLitres: "Litri sursă principală",
  primaryL100: "l/100 km sursă principală",
  secondaryKm: "Km sursă secundară",
  secondaryHours: "Ore sursă secundară",
  secondaryLitres: "Litri sursă secundară",
  secondaryL100: "l/100 km sursă secundară",
  totalKm: "Total km",
  totalHours: "Total ore",
  totalLitres: "Total litri",
  totalL100: "Total l/100 km",
  event: "Eveniment",
  source: "Sursă",
  possibleTheft: "Posibil furt",
  litres: "Litri",
  location: "Locație",
  kind: "Tip",
  sensor: "Senzor",
  min: "Minim",
  avg: "Medie",
  max: "Maxim",
  readings: "Citiri",
  first: "Prima citire",
  last: "Ultima citire",
  excursions: "Ieșiri din interval",
};

/** The refills file's events in words (the source column says primary or secondary). */
const REFILL_EVENTS: Readonly<Record<string, string>> = {
  FuelStart: "Combustibil la început",
  Fueling: "Alimentare",
  PossibleFuelTheft: "Posibil furt de combustibil",
  TotalRefill: "Total alimentat",
  TotalPossibleTheft: "Total posibil furt",
  RemainingFuel: "Combustibil rămas",
  TotalFuelConsumption: "Consum total",
};

const CSV_WORD: Readonly<Record<CsvWord, string>> = {
  true: "da",
  false: "nu",
  primary: "principală",
  secondary: "secundară",
  temperature: "temperatură",
  humidity: "umiditate",
  total: "Total",
  fleet: "flotă",
};

const FILE_TITLE: Readonly<Record<ReportFile, (plate: string) => string>> = {
  routeGpx: (plate) => `Traseu ${plate} (GPX)`,
  routeCsv: (plate) => `Traseu ${plate} (CSV)`,
  stopsCsv: () => "Opriri (CSV)",
  fuelCsv: () => "Consum de combustibil (CSV)",
  refillsCsv: () => "Alimentări (CSV)",
  tempsChart: (plate) => `Temperaturi ${plate}`,
};

const FILE_NAME: Readonly<Record<ReportFile, string>> = {
  routeGpx: "traseu",
  routeCsv: "traseu",
  stopsCsv: "opriri",
  fuelCsv: "combustibil",
  refillsCsv: "alimentari",
  tempsChart: "temperaturi",
};

/** A whole number in Romanian digits: "1.234". */
const int = (n: number) => number("ro", n, { maxFractionDigits: 0 });

const vehicles = (n: number) => count("ro", n, { one: "vehicul", few: "vehicule", other: "de vehicule" });

export const reports = {
  title: (report) => TITLES[report],
  modalLabel: (report) => MODAL_LABELS[report],
  engine: (state) => ENGINE[state],
  page: ({ page, count: pages }) => `pagina ${page}/${pages}`,
  previous: ({ page, count: pages }) => `◀ Anterioara (${page}/${pages})`,
  next: ({ page, count: pages }) => `Următoarea (${page}/${pages}) ▶`,
  linesLeftOut: () =>
    "Câteva rânduri au fost omise ca să încapă în limitele Slack; fișierul atașat le are pe toate.",
  companyTime: ({ zone }) =>
    `Orele de pe platforma GPS sunt ora locală a firmei (${zone}), afișate în fusul tău orar.`,
  private: () => "🔒 privat",

  position: () => "Poziție",
  noPositionReported: () => "nicio poziție raportată",
  noPosition: () => "fără poziție",
  address: () => "Adresă",
  speed: () => "Viteză",
  unknown: () => "necunoscută",
  heading: ({ degrees }) => `direcție ${degrees}°`,
  engineLabel: () => "Motor",
  lastGpsUpdate: () => "Ultima poziție GPS",
  noneReported: () => "niciuna raportată",
  privateMode: () => "Mod privat",
  privateModeOn: () => "🔒 activ",
  inPrivateMode: () => "🔒 în mod privat",
  privateNoPlaces: () => "🔒 Vehiculul e în mod privat: fleetbot nu arată niciunul dintre locurile lui.",
  vehicle: () => "Vehicul",
  refresh: () => "🔄 Actualizează",

  vehiclesHeader: () => "🚚 Vehicule",
  vehiclesMatchingHeader: ({ filter }) => `🚚 Vehicule care se potrivesc cu „${filter}”`,
  vehiclesOfFleet: ({ shown, total }) => `*${int(shown)}* din ${vehicles(total)}`,
  asOf: ({ date }) => `la ${date}`,
  noVehicleMatches: ({ filter }) =>
    `Niciun vehicul nu se potrivește cu „${filter}” (număr de înmatriculare, nume sau adresă).`,
  noVehicles: () => "Contul platformei GPS nu vede niciun vehicul.",
  noPositionLine: () => "📍 fără poziție",
  gpsAgo: ({ ago }) => `ultima poziție GPS ${ago}`,
  noGpsTime: () => "fără ora GPS",
  vehiclesSummary: (n) => vehicles(n),
  vehiclesMatchSummary: ({ shown, total, filter }) =>
    `${int(shown)} din ${vehicles(total)} se potrivesc cu „${filter}”`,

  routeHeader: ({ vehicle }) => `🗺️ Traseu — ${vehicle}`,
  noRoutePositions: () => "Nicio poziție înregistrată pentru acest vehicul în această perioadă.",
  distance: () => "Distanță",
  movingTime: () => "Timp în mișcare",
  maxSpeed: () => "Viteză maximă",
  gpsPoints: () => "Puncte GPS",
  firstPosition: () => "Prima poziție",
  lastPosition: () => "Ultima poziție",
  start: () => "Plecare",
  end: () => "Sosire",
  routeFiles: () => "Traseul complet e în fișierele GPX (pentru hărți) și CSV atașate.",
  routeMethod: () =>
    "Distanța e măsurată între punctele GPS; timpul în mișcare numără vitezele de peste 3 km/h.",
  routePrivate: () =>
    "🔒 Vehiculul e în mod privat: cât timp e așa, fleetbot nu arată niciun traseu al lui, pentru nicio perioadă (platforma GPS nu spune care poziții au fost private).",
  routePrivateSummary: ({ vehicle, period }) => `${vehicle}: 🔒 în mod privat · ${period}`,
  routeEmptySummary: ({ vehicle, period }) => `${vehicle}: nicio poziție · ${period}`,
  routeSummary: ({ vehicle, distance, period }) => `${vehicle}: ${distance} · ${period}`,

  sinceBeforePeriod: () => "de dinainte de perioadă",
  stillStoppedAtEnd: () => "încă oprit la sfârșitul perioadei",
  engineOnFor: ({ duration }) => `motor pornit ${duration}`,
  vehicleStops: ({ stops, total }) =>
    `${count("ro", stops, { one: "oprire", few: "opriri", other: "de opriri" })}, ${total} în total`,
  continued: () => " (continuare)",
  stopsHeader: ({ period }) => `🅿️ Opriri — ${period}`,
  reportWord: () => "raport",
  stopsOfVehicles: ({ stops, vehicles: n }) =>
    `*${int(stops)}* ${plural("ro", stops, { one: "oprire", few: "opriri", other: "de opriri" })} la ${vehicles(n)}`,
  atLeastMinutes: ({ minutes }) => `de cel puțin ${minutes} min`,
  noStops: () => "Nicio oprire în această perioadă.",
  noStopsFor: ({ vehicles: list }) => `Nicio oprire pentru: ${list}`,
  stopsInCsv: () => "Toate opririle sunt în fișierul CSV atașat.",
  stopsSummary: ({ stops, period }) =>
    `${count("ro", stops, { one: "oprire", few: "opriri", other: "de opriri" })} · ${period}`,

  twoFuelSources: () => "⛽+🟦 două surse de combustibil",
  fuelDidNotMove: () => "nu s-a deplasat în această perioadă",
  primarySource: () => "⛽ Sursa principală",
  secondarySource: () => "🟦 *Sursa secundară (GPL)*",
  total: () => "*Total (ambele surse)*",
  fuelHeader: ({ period }) => `⛽ Consum de combustibil — ${period}`,
  vehiclesCount: (n) =>
    `*${int(n)}* ${plural("ro", n, { one: "vehicul", few: "vehicule", other: "de vehicule" })}`,
  fleetTotal: () => "*Total flotă*",
  noConsumption: () => "Platforma GPS nu are date de consum pentru această perioadă.",
  noConsumptionFor: ({ vehicles: list }) => `Fără date de consum pentru: ${list}`,
  secondaryRule: () =>
    "Totalurile urmează regula platformei GPS: cu o sursă secundară (GPL), km, orele și litrii se adună, iar l/100 km e media consumurilor medii ale celor două surse.",
  fleetWeighted: () =>
    "Consumul flotei (l/100 km) e ponderat cu distanța. Toate rândurile sunt în fișierul CSV atașat.",
  fuelSummary: ({ period, litres, distance }) => `Combustibil ${period}: ${litres} pe ${distance}`,

  dateUnknown: () => "dată necunoscută",
  amountUnknown: () => "cantitate necunoscută",
  secondarySourceNote: () => " (sursă secundară, GPL)",
  possibleTheft: ({ source, litres }) => `⚠️ *Posibil furt de combustibil*${source}: *${litres}*`,
  refuelling: ({ source, litres }) => `⛽ Alimentare${source}: ${litres}`,
  fuelAtStart: () => "Combustibil la început",
  refuelled: () => "Alimentat",
  possibleTheftTotal: () => "Posibil furt",
  remaining: () => "Rămas",
  consumed: () => "Consumat",
  lpgSuffix: () => " (GPL)",
  refillsHeader: ({ vehicle }) => `⛽ Alimentări — ${vehicle}`,
  theftWarning: (n) =>
    `⚠️ *${count("ro", n, { one: "posibil furt de combustibil", few: "posibile furturi de combustibil", other: "de posibile furturi de combustibil" })}* în această perioadă (marcate cu ⚠️ mai jos).`,
  noRefillEvents: () => "Nicio alimentare și nicio scădere de combustibil în această perioadă.",
  moreEventsInCsv: (n) =>
    `Încă ${count("ro", n, { one: "eveniment", few: "evenimente", other: "de evenimente" })} în fișierul CSV atașat.`,
  allEventsInCsv: () => "Toate evenimentele sunt în fișierul CSV atașat.",
  refillTotalsNote: () => "Totalurile sunt cifrele platformei GPS (litri estimați).",
  refillsSummary: ({ vehicle, refills, thefts }) =>
    `${vehicle}: ${count("ro", refills, { one: "alimentare", few: "alimentări", other: "de alimentări" })}${
      thefts > 0
        ? `, ⚠️ ${count("ro", thefts, { one: "posibil furt", few: "posibile furturi", other: "de posibile furturi" })}`
        : ""
    }`,

  temperatureSensor: ({ sensor }) => `🌡️ Senzor de temperatură ${sensor}`,
  humiditySensor: ({ sensor }) => `💧 Senzor de umiditate ${sensor}`,
  sensorFigures: ({ min, avg, max, readings }) =>
    `min. ${min} · medie ${avg} · max. ${max} · ${count("ro", readings, { one: "citire", few: "citiri", other: "de citiri" })}`,
  excursions: ({ excursions, range }) =>
    `⚠️ ${count("ro", excursions, { one: "ieșire", few: "ieșiri", other: "de ieșiri" })} din intervalul ${range}`,
  noReadingsHead: (n) =>
    `*${count("ro", n, { one: "vehicul nu are", few: "vehicule nu au", other: "de vehicule nu au" })} citiri de temperatură în această perioadă:* `,
  andMore: (n) => ` și încă ${int(n)}`,
  tempsHeader: ({ period }) => `🌡️ Temperaturi — ${period}`,
  noSensorVehicles: () => "Niciun vehicul cu senzori de temperatură în această cerere.",
  moreVehiclesNotShown: (n) => `Încă ${vehicles(n)} nu sunt afișate aici.`,
  chartsAttached: () => "Graficele temperaturilor sunt atașate.",
  tempsSummary: ({ period, sensors, vehicles: n }) =>
    `Temperaturi · ${period}: ${count("ro", sensors, { one: "senzor", few: "senzori", other: "de senzori" })} pe ${vehicles(n)}`,

  chartNoReadings: () => " · nicio citire de temperatură",
  chartTimeAxis: ({ zone }) => `Ora (${zone})`,
  chartSensor: () => "Senzor",
  chartSensorNumber: ({ sensor }) => `Senzor ${sensor}`,

  nameOneVehicle: () => "Alege un vehicul.",
  vehiclesNamedHint: () =>
    "Indică vehiculele prin numărul de înmatriculare (B-123-ABC), nume sau #id. /fleet vehicule le listează.",

  modalTitle: () => "Raport de flotă",
  modalRun: () => "Rulează",
  modalCancel: () => "Anulează",
  modalReport: () => "Raport",
  modalVehicles: () => "Vehicule",
  modalVehiclesHint: () =>
    "Scrie o parte din numărul de înmatriculare sau din nume. Traseul, alimentările și ultima poziție iau doar primul vehicul.",
  modalExample: ({ plate }) => `de ex. ${plate}`,
  modalFrom: () => "De la",
  modalFromHint: () => "Gol: azi de la miezul nopții.",
  modalTo: () => "Până la",
  modalToHint: () => "Gol: acum.",
  modalMinMinutes: () => "Durata minimă a opririi (minute, doar pentru opriri)",
  chooseReport: () => "Alege un raport.",
  chooseVehicle: () => "Alege cel puțin un vehicul.",
  loadingIsNoVehicle: () =>
    "„Se încarcă vehiculele…” nu e un vehicul: scoate-l, apoi scrie din nou o parte din numărul de înmatriculare; lista e gata acum sau în câteva secunde.",
  endAfterStart: () => "Sfârșitul trebuie să fie după început (iar începutul în trecut).",
  minWhole: () => "Un număr întreg de minute, cel puțin 1 (de ex. 10).",
  linkFirst: () => "Asociază mai întâi un cont pe platforma GPS: /fleet login.",
  modalQueued: ({ what, position }) =>
    `:hourglass_flowing_sand: ${what}: în coadă${position}. Răspunsul vine ca mesaj direct; /fleet coadă arată cum merge.`,
  vehiclesLoading: () => "Se încarcă vehiculele… scrie din nou în câteva secunde",
  answerGone: () => "Răspunsul acesta nu mai e disponibil; rulează din nou comanda.",

  csvHeader: (column) => CSV_HEADERS[column],
  csvWord: (word) => CSV_WORD[word],
  csvRefillEvent: (kind) => REFILL_EVENTS[kind.replace(/SecondarySource$/, "")] ?? kind,
  fileTitle: (file, plate) => FILE_TITLE[file](plate),
  fileName: (file) => FILE_NAME[file],
} satisfies Translation<typeof en>;
true satisfies SameParameters<typeof en, typeof reports>;
