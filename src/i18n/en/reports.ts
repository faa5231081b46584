/**
 * English, vehicle reports (/fleet where, route, stops, fuel, refills, temps): the report views
 * (src/features/reports/slack/views/, vehicleFormat.ts), the report form's choices, and the files
 * (CSV headers, the chart, the GPX route). Numbers, quantities, durations and dates come in
 * already formatted (src/i18n/format.ts) as strings; counts come as numbers and are counted here.
 */

import type { VehicleReportName } from "../../features/reports/catalogue.js";
import type { EngineState } from "../../features/reports/positions.js";
import { number } from "../format.js";
import { count, plural } from "../plural.js";
import type { Section } from "../section.js";

const TITLES: Readonly<Record<VehicleReportName, string>> = {
  vehicles: "Vehicle list",
  where: "Last position",
  route: "Route",
  stops: "Stops report",
  fuel: "Fuel report",
  refills: "Refills report",
  temps: "Temperature report",
};

/** The report form's choices (the list report is not offered there). */
const MODAL_LABELS: Readonly<Record<VehicleReportName, string>> = {
  vehicles: "Vehicle list",
  where: "Last position (where)",
  route: "Route (GPX, CSV)",
  stops: "Stops",
  fuel: "Fuel consumption",
  refills: "Refills and possible thefts",
  temps: "Temperatures",
};

const ENGINE: Readonly<Record<EngineState, string>> = {
  on: "🟢 engine on",
  off: "⚪ engine off",
  unknown: "engine state unknown",
};

/** A whole number in English digits: "1,234". */
const int = (n: number) => number("en", n, { maxFractionDigits: 0 });

/**
 * The CSV files' columns by code, with their English headers: the ones the files have always had
 * (scripts may read them). The codes are this object's keys.
 */
const CSV_HEADERS = {
  plate: "plate",
  vehicle: "vehicle",
  time: "time",
  latitude: "latitude",
  longitude: "longitude",
  speedKmh: "speed_kmh",
  start: "start",
  end: "end",
  durationMin: "duration_min",
  engineOnMin: "engine_on_min",
  address: "address",
  hotspot: "hotspot",
  drivers: "drivers",
  fuelConsumption: "fuel_consumption",
  private: "private",
  stopDurationRaw: "stop_duration_raw",
  beganBeforePeriod: "began_before_period",
  lastedToPeriodEnd: "lasted_to_period_end",
  primaryKm: "primary_km",
  primaryHours: "primary_hours",
  primaryLitres: "primary_litres",
  primaryL100: "primary_l_per_100km",
  secondaryKm: "secondary_km",
  secondaryHours: "secondary_hours",
  secondaryLitres: "secondary_litres",
  secondaryL100: "secondary_l_per_100km",
  totalKm: "total_km",
  totalHours: "total_hours",
  totalLitres: "total_litres",
  totalL100: "total_l_per_100km",
  event: "event",
  source: "source",
  possibleTheft: "possible_theft",
  litres: "litres",
  location: "location",
  kind: "kind",
  sensor: "sensor",
  min: "min",
  avg: "avg",
  max: "max",
  readings: "readings",
  first: "first",
  last: "last",
  excursions: "excursions",
} as const satisfies Readonly<Record<string, string>>;

/** Columns of the CSV files, by code. */
export type CsvColumn = keyof typeof CSV_HEADERS;
/** Every CSV column (for the catalogue test's samples). */
export const CSV_COLUMNS = Object.keys(CSV_HEADERS) as CsvColumn[];

/** Words written in the CSV cells (not the service's own codes, which stay as sent), by code. */
const CSV_WORD = {
  true: "true",
  false: "false",
  primary: "primary",
  secondary: "secondary",
  temperature: "temperature",
  humidity: "humidity",
  total: "TOTAL",
  fleet: "fleet",
} as const satisfies Readonly<Record<string, string>>;

export type CsvWord = keyof typeof CSV_WORD;
export const CSV_WORDS = Object.keys(CSV_WORD) as CsvWord[];

/** The kinds of files a report sends (their titles and file names). */
export const REPORT_FILES = [
  "routeGpx",
  "routeCsv",
  "stopsCsv",
  "fuelCsv",
  "refillsCsv",
  "tempsChart",
] as const;
export type ReportFile = (typeof REPORT_FILES)[number];

const FILE_TITLE: Readonly<Record<ReportFile, (plate: string) => string>> = {
  routeGpx: (plate) => `Route ${plate} (GPX)`,
  routeCsv: (plate) => `Route ${plate} (CSV)`,
  stopsCsv: () => "Stops (CSV)",
  fuelCsv: () => "Fuel consumption (CSV)",
  refillsCsv: () => "Refills (CSV)",
  tempsChart: (plate) => `Temperatures ${plate}`,
};

/** File names without the vehicle and the extension (ASCII: "route", "stops"). */
const FILE_NAME: Readonly<Record<ReportFile, string>> = {
  routeGpx: "route",
  routeCsv: "route",
  stopsCsv: "stops",
  fuelCsv: "fuel",
  refillsCsv: "refills",
  tempsChart: "temperatures",
};

export const reports = {
  /** A report's name as a title: "Stops report". */
  title: (report: VehicleReportName) => TITLES[report],
  /** The report form's choice of a report. */
  modalLabel: (report: VehicleReportName) => MODAL_LABELS[report],
  engine: (state: EngineState) => ENGINE[state],
  /** "page 2/8" */
  page: ({ page, count: pages }: { page: string; count: string }) => `page ${page}/${pages}`,
  previous: ({ page, count: pages }: { page: string; count: string }) => `◀ Previous (${page}/${pages})`,
  next: ({ page, count: pages }: { page: string; count: string }) => `Next (${page}/${pages}) ▶`,
  linesLeftOut: () => "Some lines were left out to fit Slack's limits; the attached file has everything.",
  companyTime: ({ zone }: { zone: string }) =>
    `Times from the fleet service are company local time (${zone}), shown in your time zone.`,
  private: () => "🔒 private",

  // ---------- position ----------
  position: () => "Position",
  noPositionReported: () => "no position reported",
  noPosition: () => "no position",
  address: () => "Address",
  speed: () => "Speed",
  unknown: () => "unknown",
  heading: ({ degrees }: { degrees: string }) => `heading ${degrees}°`,
  engineLabel: () => "Engine",
  lastGpsUpdate: () => "Last GPS update",
  noneReported: () => "none reported",
  privateMode: () => "Private mode",
  privateModeOn: () => "🔒 on",
  /** A vehicle in private mode, instead of its place (no position, address or map link is shown). */
  inPrivateMode: () => "🔒 in private mode",
  /** Under a report of a vehicle in private mode. */
  privateNoPlaces: () => "🔒 This vehicle is in private mode: fleetbot shows none of its places.",
  vehicle: () => "Vehicle",
  refresh: () => "🔄 Refresh",

  // ---------- vehicle list ----------
  vehiclesHeader: () => "🚚 Vehicles",
  vehiclesMatchingHeader: ({ filter }: { filter: string }) => `🚚 Vehicles matching “${filter}”`,
  vehiclesOfFleet: ({ shown, total }: { shown: number; total: number }) =>
    `*${int(shown)}* of ${int(total)} vehicles`,
  asOf: ({ date }: { date: string }) => `as of ${date}`,
  noVehicleMatches: ({ filter }: { filter: string }) =>
    `No vehicle matches “${filter}” (plate, name or address).`,
  noVehicles: () => "No vehicles are visible to this fleet account.",
  noPositionLine: () => "📍 no position",
  gpsAgo: ({ ago }: { ago: string }) => `GPS ${ago}`,
  noGpsTime: () => "no GPS time",
  vehiclesSummary: (n: number) => count("en", n, { one: "vehicle", other: "vehicles" }),
  vehiclesMatchSummary: ({ shown, total, filter }: { shown: number; total: number; filter: string }) =>
    `${int(shown)} of ${int(total)} vehicles match “${filter}”`,

  // ---------- route ----------
  routeHeader: ({ vehicle }: { vehicle: string }) => `🗺️ Route — ${vehicle}`,
  noRoutePositions: () => "No positions were recorded for this vehicle in this period.",
  distance: () => "Distance",
  movingTime: () => "Moving time",
  maxSpeed: () => "Max speed",
  gpsPoints: () => "GPS points",
  firstPosition: () => "First position",
  lastPosition: () => "Last position",
  start: () => "Start",
  end: () => "End",
  routeFiles: () => "The full track is in the attached GPX (for maps) and CSV files.",
  routeMethod: () => "Distance is measured between GPS points; moving time counts speeds above 3 km/h.",
  routePrivate: () =>
    "🔒 This vehicle is in private mode: while it is, fleetbot shows no route of it, for any period (the fleet service does not say which positions were private).",
  routePrivateSummary: ({ vehicle, period }: { vehicle: string; period: string }) =>
    `${vehicle}: 🔒 in private mode · ${period}`,
  routeEmptySummary: ({ vehicle, period }: { vehicle: string; period: string }) =>
    `${vehicle}: no positions · ${period}`,
  routeSummary: ({ vehicle, distance, period }: { vehicle: string; distance: string; period: string }) =>
    `${vehicle}: ${distance} · ${period}`,

  // ---------- stops ----------
  sinceBeforePeriod: () => "since before the period",
  stillStoppedAtEnd: () => "still stopped at the period's end",
  engineOnFor: ({ duration }: { duration: string }) => `engine on ${duration}`,
  vehicleStops: ({ stops, total }: { stops: number; total: string }) =>
    `${count("en", stops, { one: "stop", other: "stops" })}, ${total} in total`,
  continued: () => " (continued)",
  stopsHeader: ({ period }: { period: string }) => `🅿️ Stops — ${period}`,
  reportWord: () => "report",
  stopsOfVehicles: ({ stops, vehicles }: { stops: number; vehicles: number }) =>
    `*${int(stops)}* ${plural("en", stops, { one: "stop", other: "stops" })} of ${count("en", vehicles, { one: "vehicle", other: "vehicles" })}`,
  atLeastMinutes: ({ minutes }: { minutes: string }) => `at least ${minutes} min`,
  noStops: () => "No stops in this period.",
  noStopsFor: ({ vehicles }: { vehicles: string }) => `No stops for: ${vehicles}`,
  stopsInCsv: () => "Every stop is in the attached CSV.",
  /** The notification text: the count, then the period's label ("5 stops · yesterday (Wed 25 Nov)"). */
  stopsSummary: ({ stops, period }: { stops: number; period: string }) =>
    `${count("en", stops, { one: "stop", other: "stops" })} · ${period}`,

  // ---------- fuel ----------
  twoFuelSources: () => "⛽+🟦 two fuel sources",
  /** A fuel row with no distance, time or fuel in the period: zeros would read as a measurement. */
  fuelDidNotMove: () => "did not move in this period",
  primarySource: () => "⛽ Primary",
  secondarySource: () => "🟦 *Secondary source (LPG)*",
  total: () => "*Total*",
  fuelHeader: ({ period }: { period: string }) => `⛽ Fuel consumption — ${period}`,
  vehiclesCount: (n: number) => `*${int(n)}* ${plural("en", n, { one: "vehicle", other: "vehicles" })}`,
  fleetTotal: () => "*Fleet total*",
  noConsumption: () => "The fleet service returned no consumption for this period.",
  noConsumptionFor: ({ vehicles }: { vehicles: string }) => `No consumption data for: ${vehicles}`,
  secondaryRule: () =>
    "Totals follow the fleet service's rule: with a secondary source (LPG), km, hours and litres add up and l/100 km is the mean of the two sources' averages.",
  fleetWeighted: () => "The fleet l/100 km is weighted by distance. All rows are in the attached CSV.",
  fuelSummary: ({ period, litres, distance }: { period: string; litres: string; distance: string }) =>
    `Fuel ${period}: ${litres} over ${distance}`,

  // ---------- refills ----------
  dateUnknown: () => "date unknown",
  amountUnknown: () => "amount unknown",
  secondarySourceNote: () => " (secondary source, LPG)",
  possibleTheft: ({ source, litres }: { source: string; litres: string }) =>
    `⚠️ *Possible fuel theft*${source}: *${litres}*`,
  refuelling: ({ source, litres }: { source: string; litres: string }) => `⛽ Refuelling${source}: ${litres}`,
  fuelAtStart: () => "Fuel at start",
  refuelled: () => "Refuelled",
  possibleTheftTotal: () => "Possible theft",
  remaining: () => "Remaining",
  consumed: () => "Consumed",
  lpgSuffix: () => " (LPG)",
  refillsHeader: ({ vehicle }: { vehicle: string }) => `⛽ Refuelling — ${vehicle}`,
  theftWarning: (n: number) =>
    `⚠️ *${count("en", n, { one: "possible fuel theft", other: "possible fuel thefts" })}* in this period (marked ⚠️ below).`,
  noRefillEvents: () => "No refuelling or fuel-decrease events in this period.",
  moreEventsInCsv: (n: number) =>
    `${count("en", n, { one: "more event", other: "more events" })} in the attached CSV.`,
  allEventsInCsv: () => "All events are in the attached CSV.",
  refillTotalsNote: () => "Totals are the fleet service's own figures (estimated litres).",
  refillsSummary: ({ vehicle, refills, thefts }: { vehicle: string; refills: number; thefts: number }) =>
    `${vehicle}: ${count("en", refills, { one: "refuelling", other: "refuellings" })}${
      thefts > 0 ? `, ⚠️ ${count("en", thefts, { one: "possible theft", other: "possible thefts" })}` : ""
    }`,

  // ---------- temperatures ----------
  temperatureSensor: ({ sensor }: { sensor: string }) => `🌡️ Temperature sensor ${sensor}`,
  humiditySensor: ({ sensor }: { sensor: string }) => `💧 Humidity sensor ${sensor}`,
  sensorFigures: ({ min, avg, max, readings }: { min: string; avg: string; max: string; readings: number }) =>
    `min ${min} · avg ${avg} · max ${max} · ${count("en", readings, { one: "reading", other: "readings" })}`,
  excursions: ({ excursions, range }: { excursions: number; range: string }) =>
    `⚠️ ${count("en", excursions, { one: "excursion", other: "excursions" })} outside ${range}`,
  noReadingsHead: (n: number) =>
    `*${count("en", n, { one: "vehicle has", other: "vehicles have" })} no temperature readings in this period:* `,
  andMore: (n: number) => ` and ${int(n)} more`,
  tempsHeader: ({ period }: { period: string }) => `🌡️ Temperatures — ${period}`,
  noSensorVehicles: () => "No vehicles with temperature sensors in this request.",
  moreVehiclesNotShown: (n: number) =>
    `${count("en", n, { one: "more vehicle", other: "more vehicles" })} not shown here.`,
  chartsAttached: () => "Charts of the temperatures are attached.",
  /** `vehicles`: those with at least one sensor (the others are named in the body). */
  tempsSummary: ({ period, sensors, vehicles }: { period: string; sensors: number; vehicles: number }) =>
    `Temperatures · ${period}: ${count("en", sensors, { one: "sensor", other: "sensors" })} on ${count("en", vehicles, { one: "vehicle", other: "vehicles" })}`,

  // ---------- chart ----------
  chartNoReadings: () => " · no temperature readings",
  chartTimeAxis: ({ zone }: { zone: string }) => `Time (${zone})`,
  chartSensor: () => "Sensor",
  chartSensorNumber: ({ sensor }: { sensor: string }) => `Sensor ${sensor}`,

  // ---------- vehicles not found ----------
  nameOneVehicle: () => "Name one vehicle.",
  vehiclesNamedHint: () =>
    "Vehicles are named by plate (B-123-ABC), name, or #id. /fleet vehicles lists them.",

  // ---------- the report form (/fleet report) ----------
  /** Modal title: at most 24 characters. */
  modalTitle: () => "Fleet report",
  modalRun: () => "Run",
  modalCancel: () => "Cancel",
  modalReport: () => "Report",
  modalVehicles: () => "Vehicles",
  modalVehiclesHint: () => "Type part of a plate or name. Route, refills and where take the first vehicle.",
  modalExample: ({ plate }: { plate: string }) => `e.g. ${plate}`,
  modalFrom: () => "From",
  modalFromHint: () => "Empty: today from midnight.",
  modalTo: () => "To",
  modalToHint: () => "Empty: now.",
  modalMinMinutes: () => "Shortest stop (minutes, stops only)",
  chooseReport: () => "Choose a report.",
  chooseVehicle: () => "Choose at least one vehicle.",
  loadingIsNoVehicle: () =>
    "“Loading vehicles…” is not a vehicle: remove it, then type part of a plate again; the list is ready now or in a few seconds.",
  endAfterStart: () => "The end must be after the start (and the start in the past).",
  minWhole: () => "A whole number of minutes, at least 1 (e.g. 10).",
  linkFirst: () => "Link a fleet account first: /fleet login.",
  /** The form's answer once the report is queued: `what` is the task's line, `position` its place ("" or " (3rd in line)"). */
  modalQueued: ({ what, position }: { what: string; position: string }) =>
    `:hourglass_flowing_sand: ${what}: queued${position}. The answer comes as a direct message; /fleet queue shows progress.`,
  /** The vehicle picker's hint while the list loads (at most 75 characters). */
  vehiclesLoading: () => "Loading vehicles… type again in a few seconds",
  answerGone: () => "That answer is no longer available; run the command again.",

  // ---------- files ----------
  csvHeader: (column: CsvColumn) => CSV_HEADERS[column],
  csvWord: (word: CsvWord) => CSV_WORD[word],
  /** A refills event in the file: English keeps the service's own codes, as its documents name them. */
  csvRefillEvent: (kind: string) => kind,
  fileTitle: (file: ReportFile, plate: string) => FILE_TITLE[file](plate),
  fileName: (file: ReportFile) => FILE_NAME[file],
} satisfies Section;
