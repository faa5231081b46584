/**
 * Slack views of the vehicle-data reports (pure: report object in, message out). Reports
 * are stored and rendered later, so nothing here reads a clock: relative times use Slack's
 * `{ago}` token, rendered at reading time. Pages are 0-based; a view given a page out of
 * range shows the nearest one. Every message stays inside Slack's limits (vehicleFormat).
 */
import type { Button } from "@slack/types";
import { type ReportOf, VEHICLE_REPORTS, type VehicleReportName } from "../../reports/catalogue.js";
import type { FuelFigures, FuelReport, FuelRow } from "../../reports/fuel.js";
import {
  fuelCsv,
  refillsCsv,
  routeCsv,
  routeGpx,
  stopsCsv,
  temperatureChartPng,
} from "../../reports/index.js";
import type { PositionReport, VehicleListReport } from "../../reports/positions.js";
import type { RefillItem, RefillsReport, RefillTotals } from "../../reports/refills.js";
import type { RouteReport } from "../../reports/route.js";
import type { StopItem, StopsReport, VehicleStops } from "../../reports/stops.js";
import type { SensorSummary, TemperatureReport, VehicleTemperatures } from "../../reports/temperatures.js";
import { ACTIONS } from "../actionIds.js";
import type { OutgoingFile } from "../delivery.js";
import type { SlackMessage } from "./message.js";
import {
  clampPage,
  clipMrkdwn,
  clipPlain,
  companyTimeNote,
  fmtMinutes,
  fmtNumber,
  MessageBuilder,
  paginate,
  periodMrkdwn,
  slackAgo,
  slackDateIn,
  userText,
  type VehicleViewOptions,
  vehicleMrkdwn,
  vehicleTitle,
} from "./vehicleFormat.js";
import { wallDay } from "./wallClock.js";

export type { VehicleViewOptions } from "./vehicleFormat.js";

/** Vehicles per page of the vehicle list and the fuel report; stops per page. */
export const VEHICLES_PER_PAGE = 10;
export const STOPS_PER_PAGE = 25;
/** Characters of list lines per page (the rest of a message is well below 3,000). */
const PAGE_CHARS = 7000;

const ENGINE_TEXT = { on: "🟢 engine on", off: "⚪ engine off", unknown: "engine state unknown" } as const;

function pageLabel(page: number, count: number): string | undefined {
  return count > 1 ? `page ${page + 1}/${count}` : undefined;
}

/** "<map|address>" or "address" or "<map|lat, lon>" or undefined. */
function placeMrkdwn(
  p: { address?: string; latitude?: number; longitude?: number; mapUrl?: string },
  maxAddress: number,
): string | undefined {
  const label =
    p.address !== undefined
      ? clipMrkdwn(p.address, maxAddress).replace(/\|/g, "¦")
      : p.latitude !== undefined && p.longitude !== undefined
        ? `${p.latitude.toFixed(5)}, ${p.longitude.toFixed(5)}`
        : undefined;
  const url =
    p.mapUrl ??
    (p.latitude !== undefined && p.longitude !== undefined
      ? `https://www.openstreetmap.org/?mlat=${p.latitude.toFixed(6)}&mlon=${p.longitude.toFixed(6)}#map=15/${p.latitude.toFixed(6)}/${p.longitude.toFixed(6)}`
      : undefined);
  if (label === undefined) return undefined;
  return url ? `<${url}|${label}>` : label;
}

function positionButton(report: PositionReport, text: string): Button | undefined {
  // The showPosition listener reads the value as a plate (the grammar's vehicle reference).
  const plate = report.vehicle.plate.trim();
  if (!plate) return undefined;
  return {
    type: "button",
    action_id: ACTIONS.showPosition,
    text: { type: "plain_text", text: clipPlain(text, 75), emoji: true },
    value: plate.slice(0, 2000),
  };
}

// ---------- position ----------

/** One vehicle's last position: map link, speed, engine, time since the last GPS update. */
export function positionCard(
  report: PositionReport,
  nowMs: number,
  options: VehicleViewOptions = {},
): SlackMessage {
  const tz = options.timeZone ?? "UTC";
  const b = new MessageBuilder("where");
  b.header(`🚚 ${vehicleTitle(report.vehicle)}`);
  const fields: string[] = [];
  fields.push(`*Position*\n${placeMrkdwn({ ...report, address: undefined }, 100) ?? "no position reported"}`);
  if (report.address) fields.push(`*Address*\n${clipMrkdwn(report.address, 500)}`);
  const speed = report.speedKmh !== undefined ? `${fmtNumber(report.speedKmh, 0)} km/h` : "unknown";
  fields.push(
    `*Speed*\n${speed}${report.courseDeg !== undefined ? ` · heading ${fmtNumber(report.courseDeg, 0)}°` : ""}`,
  );
  fields.push(`*Engine*\n${ENGINE_TEXT[report.engine]}`);
  fields.push(
    report.gpsAtMs !== undefined
      ? `*Last GPS update*\n${slackDateIn(report.gpsAtMs, tz)} (${slackAgo(report.gpsAtMs, nowMs)})`
      : "*Last GPS update*\nnone reported",
  );
  if (report.isPrivate) fields.push("*Private mode*\n🔒 on");
  const about = [
    report.model && clipMrkdwn(report.model, 100),
    report.vin && `VIN ${clipMrkdwn(report.vin, 40)}`,
  ].filter(Boolean);
  if (about.length > 0) fields.push(`*Vehicle*\n${about.join(" · ")}`);
  b.fields(fields);
  b.context([companyTimeNote(options)], "tail");
  const refresh = positionButton(report, "🔄 Refresh");
  if (refresh) b.actions([refresh]);
  return b.build(positionText(report));
}

function positionText(report: PositionReport): string {
  const where =
    report.address ??
    (report.latitude !== undefined ? `${report.latitude}, ${report.longitude}` : "no position");
  const speed = report.speedKmh !== undefined ? `, ${fmtNumber(report.speedKmh, 0)} km/h` : "";
  return userText(`${vehicleTitle(report.vehicle)}: ${where}${speed}, ${ENGINE_TEXT[report.engine]}`, 2900);
}

// ---------- vehicle list ----------

function vehicleLine(item: PositionReport, atMs: number): string {
  const parts = [
    placeMrkdwn(item, 120) ? `📍 ${placeMrkdwn(item, 120)}` : "📍 no position",
    item.speedKmh !== undefined ? `${fmtNumber(item.speedKmh, 0)} km/h` : undefined,
    ENGINE_TEXT[item.engine],
    item.gpsAtMs !== undefined ? `GPS ${slackAgo(item.gpsAtMs, atMs)}` : "no GPS time",
    item.isPrivate ? "🔒 private" : undefined,
  ].filter(Boolean);
  return `${vehicleMrkdwn(item.vehicle)}\n${parts.join(" · ")}`;
}

/** The fleet (or the vehicles matching a filter), VEHICLES_PER_PAGE per page, each with a Position button. */
export function vehicleListMessage(
  report: VehicleListReport,
  page: number,
  pageToken: string,
  options: VehicleViewOptions = {},
): SlackMessage {
  const lines = report.items.map((item) => ({ item, line: vehicleLine(item, report.atMs) }));
  const pages = paginate(lines, VEHICLES_PER_PAGE, PAGE_CHARS, (l) => l.line.length + 120);
  const p = clampPage(page, pages.length);
  const b = new MessageBuilder(`vehicles.p${p}`);
  b.header(report.filter ? `🚚 Vehicles matching “${report.filter}”` : "🚚 Vehicles");
  b.context([
    [
      report.filter ? `*${report.total}* of ${report.fleetTotal} vehicles` : `*${report.total}* vehicles`,
      `as of ${slackDateIn(report.atMs, options.timeZone ?? "UTC")}`,
      pageLabel(p, pages.length),
    ]
      .filter(Boolean)
      .join(" · "),
  ]);
  if (report.items.length === 0) {
    b.section(
      report.filter
        ? `No vehicle matches “${clipMrkdwn(report.filter, 100)}” (plate, name or address).`
        : "No vehicles are visible to this fleet account.",
    );
  }
  for (const { item, line } of pages[p] ?? []) {
    b.section(line, "body", positionButton(item, "Position"));
  }
  b.context([companyTimeNote(options)], "tail");
  b.pager(p, pages.length, pageToken);
  const summary = report.filter
    ? `${report.total} of ${report.fleetTotal} vehicles match “${report.filter}”`
    : `${report.total} vehicles`;
  return b.build(userText(summary, 2900));
}

// ---------- route ----------

export function routeMessage(report: RouteReport, options: VehicleViewOptions = {}): SlackMessage {
  const tz = options.timeZone ?? report.period.timeZone;
  const b = new MessageBuilder("route");
  b.header(`🗺️ Route — ${vehicleTitle(report.vehicle)}`);
  b.context([periodMrkdwn({ ...report.period, timeZone: tz })]);
  if (report.points.length === 0) {
    b.section("No positions were recorded for this vehicle in this period.");
  } else {
    const fields = [
      `*Distance*\n${fmtNumber(report.distanceKm, 1)} km`,
      `*Moving time*\n${fmtMinutes(report.movingMinutes)}`,
      `*Max speed*\n${fmtNumber(report.maxSpeedKmh, 0)} km/h`,
      `*GPS points*\n${report.points.length.toLocaleString("en-US")}`,
    ];
    if (report.firstAtMs !== undefined) fields.push(`*First position*\n${slackDateIn(report.firstAtMs, tz)}`);
    if (report.lastAtMs !== undefined) fields.push(`*Last position*\n${slackDateIn(report.lastAtMs, tz)}`);
    const first = report.points[0];
    const last = report.points[report.points.length - 1];
    if (first) fields.push(`*Start*\n${placeMrkdwn({ latitude: first.lat, longitude: first.lon }, 60)}`);
    if (last) fields.push(`*End*\n${placeMrkdwn({ latitude: last.lat, longitude: last.lon }, 60)}`);
    b.fields(fields);
  }
  b.context(
    [
      report.points.length > 0
        ? "The full track is in the attached GPX (for maps) and CSV files."
        : undefined,
      "Distance is measured between GPS points; moving time counts speeds above 3 km/h.",
      companyTimeNote(options),
    ],
    "tail",
  );
  const text =
    report.points.length === 0
      ? `${vehicleTitle(report.vehicle)}: no positions in ${report.period.label}`
      : `${vehicleTitle(report.vehicle)}: ${fmtNumber(report.distanceKm, 1)} km in ${report.period.label}`;
  return b.build(userText(text, 2900));
}

// ---------- stops ----------

function stopLine(stop: StopItem, tz: string): string {
  const startDay = slackDateIn(stop.startMs, tz, "{date_short} {time}");
  const sameDay = wallDay(stop.startMs, tz) === wallDay(stop.endMs, tz);
  const end = slackDateIn(stop.endMs, tz, sameDay ? "{time}" : "{date_short} {time}");
  // The duration counts only the period: say so when the stop runs past either edge.
  const cut = [
    stop.beganBeforePeriod && "since before the period",
    stop.lastedToPeriodEnd && "still stopped at the period's end",
  ];
  const clipped = cut.filter((s) => typeof s === "string").join(", ");
  const parts = [
    `• ${startDay} – ${end} *${fmtMinutes(stop.durationMinutes)}*${clipped ? ` _(${clipped})_` : ""}`,
    stop.engineOnMinutes ? `engine on ${fmtMinutes(stop.engineOnMinutes)}` : undefined,
    placeMrkdwn(stop, 120),
    stop.hotSpot ? `🏁 ${clipMrkdwn(stop.hotSpot, 60)}` : undefined,
    stop.drivers.length > 0 ? `👤 ${clipMrkdwn(stop.drivers.join(", "), 80)}` : undefined,
    stop.isPrivate ? "🔒 private" : undefined,
  ].filter(Boolean);
  return parts.join(" · ");
}

function groupTitle(g: VehicleStops): string {
  return `${vehicleMrkdwn(g.vehicle)} · ${g.stops.length} stop${g.stops.length === 1 ? "" : "s"}, ${fmtMinutes(g.totalStopMinutes)} in total`;
}

/** Stops with durations, addresses and drivers, STOPS_PER_PAGE per page, grouped by vehicle. */
export function stopsMessage(
  report: StopsReport,
  page: number,
  pageToken: string,
  options: VehicleViewOptions = {},
): SlackMessage {
  const tz = options.timeZone ?? report.period.timeZone;
  const entries = report.vehicles.flatMap((g, gi) =>
    g.stops.map((stop) => ({ gi, line: stopLine(stop, tz) })),
  );
  const pages = paginate(entries, STOPS_PER_PAGE, PAGE_CHARS, (e) => e.line.length + 1);
  const p = clampPage(page, pages.length);
  const b = new MessageBuilder(`stops.p${p}`);
  b.header(`🅿️ Stops — ${report.period.label || "report"}`);
  const withStops = report.vehicles.filter((g) => g.stops.length > 0).length;
  b.context([
    periodMrkdwn({ ...report.period, timeZone: tz }, { labelInHeader: true }),
    [
      `*${report.totalStops}* stop${report.totalStops === 1 ? "" : "s"} of ${withStops} vehicle${withStops === 1 ? "" : "s"}`,
      `at least ${report.minMinutes} min`,
      pageLabel(p, pages.length),
    ]
      .filter(Boolean)
      .join(" · "),
  ]);
  if (report.totalStops === 0) b.section("No stops in this period.");
  // Lines of the page, grouped under their vehicle (a vehicle continued from the previous page says so).
  const onPage = pages[p] ?? [];
  let current = -1;
  let lines: string[] = [];
  const flush = () => {
    if (lines.length > 0) b.lines(lines);
    lines = [];
  };
  for (const e of onPage) {
    if (e.gi !== current) {
      flush();
      current = e.gi;
      const g = report.vehicles[e.gi] as VehicleStops;
      const continued = e !== entries.find((x) => x.gi === e.gi);
      lines.push(`${groupTitle(g)}${continued ? " (continued)" : ""}`);
    }
    lines.push(e.line);
  }
  flush();
  const idle = report.vehicles.filter((g) => g.stops.length === 0);
  if (p === 0 && idle.length > 0 && report.totalStops > 0) {
    b.section(
      clipMrkdwn(`No stops for: ${idle.map((g) => vehicleTitle(g.vehicle)).join(", ")}`, 1500),
      "head",
    );
  }
  b.context(
    [report.totalStops > 0 ? "Every stop is in the attached CSV." : undefined, companyTimeNote(options)],
    "tail",
  );
  b.pager(p, pages.length, pageToken);
  return b.build(userText(`${report.totalStops} stops in ${report.period.label}`, 2900));
}

// ---------- fuel ----------

function figuresText(f: FuelFigures): string {
  return `${fmtNumber(f.distanceKm, 1)} km · ${f.hoursText} h · ${fmtNumber(f.litres, 1)} l · ${fmtNumber(f.l100, 1)} l/100 km`;
}

function fuelRowText(row: FuelRow): string {
  const title = vehicleMrkdwn({ vehicleId: row.vehicleId ?? 0, plate: row.plate, name: row.name });
  if (!row.secondary) return `${title}\n${figuresText(row.total)}`;
  return [
    `${title} · ⛽+🟦 two fuel sources`,
    `⛽ Primary: ${figuresText(row.primary)}`,
    `🟦 *Secondary source (LPG)*: ${figuresText(row.secondary)}`,
    `*Total*: ${figuresText(row.total)}`,
  ].join("\n");
}

/** Consumption per vehicle (secondary/LPG source marked) and the fleet total, VEHICLES_PER_PAGE per page. */
export function fuelMessage(
  report: FuelReport,
  page: number,
  pageToken: string,
  options: VehicleViewOptions = {},
): SlackMessage {
  const tz = options.timeZone ?? report.period.timeZone;
  const rows = report.rows.map((row) => fuelRowText(row));
  const pages = paginate(rows, VEHICLES_PER_PAGE, PAGE_CHARS, (r) => r.length + 20);
  const p = clampPage(page, pages.length);
  const b = new MessageBuilder(`fuel.p${p}`);
  b.header(`⛽ Fuel consumption — ${report.period.label || "report"}`);
  b.context([
    periodMrkdwn({ ...report.period, timeZone: tz }, { labelInHeader: true }),
    [`*${report.rows.length}* vehicle${report.rows.length === 1 ? "" : "s"}`, pageLabel(p, pages.length)]
      .filter(Boolean)
      .join(" · "),
  ]);
  b.section(`*Fleet total*: ${figuresText(report.fleet)}`, "head");
  if (report.rows.length === 0) b.section("The fleet service returned no consumption for this period.");
  for (const text of pages[p] ?? []) b.section(text);
  if (p === 0 && report.withoutData.length > 0) {
    b.section(
      clipMrkdwn(
        `No consumption data for: ${report.withoutData.map((v) => vehicleTitle(v)).join(", ")}`,
        1500,
      ),
      "tail",
    );
  }
  b.context(
    [
      report.hasSecondary
        ? "Totals follow the fleet service's rule: with a secondary source (LPG), km, hours and litres add up and l/100 km is the mean of the two sources' averages."
        : undefined,
      "The fleet l/100 km is weighted by distance. All rows are in the attached CSV.",
    ],
    "tail",
  );
  b.pager(p, pages.length, pageToken);
  return b.build(
    userText(
      `Fuel ${report.period.label}: ${fmtNumber(report.fleet.litres, 1)} l over ${fmtNumber(report.fleet.distanceKm, 1)} km`,
      2900,
    ),
  );
}

// ---------- refills ----------

const MAX_EVENT_LINES = 40;
const EVENT_CHARS = 6000;

function eventLine(e: RefillItem, tz: string): string {
  const when = e.atMs !== undefined ? slackDateIn(e.atMs, tz) : clipMrkdwn(e.dateText || "date unknown", 40);
  const litres = e.litres !== undefined ? `${fmtNumber(e.litres, 1)} l` : "amount unknown";
  const source = e.secondary ? " (secondary source, LPG)" : "";
  const what = e.theft
    ? `⚠️ *Possible fuel theft*${source}: *${litres}*`
    : e.unknownKind
      ? `❔ ${clipMrkdwn(e.kind, 60)}: ${litres}`
      : `⛽ Refuelling${source}: ${litres}`;
  const parts = [
    `${when} · ${what}`,
    e.location ? clipMrkdwn(e.location, 120) : undefined,
    e.isPrivate ? "🔒 private" : undefined,
  ];
  return parts.filter(Boolean).join(" · ");
}

function totalsFields(t: RefillTotals, suffix: string): string[] {
  const v = (n: number | undefined) => (n === undefined ? "—" : `${fmtNumber(n, 1)} l`);
  const fields = [
    `*Fuel at start${suffix}*\n${v(t.start)}`,
    `*Refuelled${suffix}*\n${v(t.refilled)}`,
    `*${t.possibleTheft ? "⚠️ " : ""}Possible theft${suffix}*\n${v(t.possibleTheft)}`,
    `*Remaining${suffix}*\n${v(t.remaining)}`,
    `*Consumed${suffix}*\n${v(t.consumed)}`,
  ];
  return fields;
}

/** Refuellings and possible thefts (⚠️) of one vehicle, with the service's totals per source. */
export function refillsMessage(report: RefillsReport, options: VehicleViewOptions = {}): SlackMessage {
  const tz = options.timeZone ?? report.period.timeZone;
  const b = new MessageBuilder("refills");
  b.header(`⛽ Refuelling — ${vehicleTitle(report.vehicle)}`);
  b.context([periodMrkdwn({ ...report.period, timeZone: tz })]);
  if (report.theftCount > 0) {
    b.section(
      `⚠️ *${report.theftCount} possible fuel theft${report.theftCount === 1 ? "" : "s"}* in this period (marked ⚠️ below).`,
      "head",
    );
  }
  b.fields(totalsFields(report.totals.primary, ""), "head");
  if (report.totals.secondary) b.fields(totalsFields(report.totals.secondary, " (LPG)"), "head");
  // Which events fit: every possible theft first, then the others, shown in time order.
  const indexed = report.events.map((e, i) => ({ e, i, line: eventLine(e, tz) }));
  const chosen = new Set<number>();
  let chars = 0;
  for (const x of [...indexed.filter((x) => x.e.theft), ...indexed.filter((x) => !x.e.theft)]) {
    if (chosen.size >= MAX_EVENT_LINES || chars + x.line.length > EVENT_CHARS) break;
    chosen.add(x.i);
    chars += x.line.length + 1;
  }
  if (report.events.length === 0) b.section("No refuelling or fuel-decrease events in this period.");
  else b.lines(indexed.filter((x) => chosen.has(x.i)).map((x) => x.line));
  const left = report.events.length - chosen.size;
  b.context(
    [
      left > 0
        ? `${left} more event${left === 1 ? "" : "s"} in the attached CSV.`
        : report.events.length > 0
          ? "All events are in the attached CSV."
          : undefined,
      "Totals are the fleet service's own figures (estimated litres).",
      companyTimeNote(options),
    ],
    "tail",
  );
  const theft = report.theftCount > 0 ? `, ⚠️ ${report.theftCount} possible theft(s)` : "";
  return b.build(
    userText(`${vehicleTitle(report.vehicle)}: ${report.refillCount} refuelling(s)${theft}`, 2900),
  );
}

// ---------- temperatures ----------

function sensorLine(s: SensorSummary): string {
  const unit = s.kind === "temperature" ? " °C" : " %";
  const icon = s.kind === "temperature" ? "🌡️ Temperature" : "💧 Humidity";
  const excursion =
    s.excursions !== undefined && s.excursions > 0
      ? ` · ⚠️ ${s.excursions} excursion${s.excursions === 1 ? "" : "s"} outside ${rangeText(s)}`
      : "";
  return `${icon} sensor ${s.sensorNumber}: min ${fmtNumber(s.min, 1)}${unit} · avg ${fmtNumber(s.avg, 1)}${unit} · max ${fmtNumber(s.max, 1)}${unit} · ${s.count.toLocaleString("en-US")} readings${excursion}`;
}

function rangeText(s: SensorSummary): string {
  const r = s.range ?? {};
  if (r.min !== undefined && r.max !== undefined) return `${r.min}…${r.max} °C`;
  return r.min !== undefined ? `≥ ${r.min} °C` : `≤ ${r.max} °C`;
}

function vehicleTemperatureText(v: VehicleTemperatures): string {
  return [vehicleMrkdwn(v.vehicle), ...v.sensors.map(sensorLine)].join("\n");
}

/** Characters the one line naming the vehicles without readings may take. */
const NO_READINGS_CHARS = 1500;

/**
 * "26 vehicles have no temperature readings in this period: B-1, B-2, … and 9 more": one line
 * instead of a card each (most of a fleet has no reefer sensor), cut to NO_READINGS_CHARS.
 */
export function noReadingsLine(vehicles: readonly VehicleTemperatures[]): string | undefined {
  if (vehicles.length === 0) return undefined;
  const head =
    vehicles.length === 1
      ? "*1 vehicle has no temperature readings in this period:* "
      : `*${vehicles.length} vehicles have no temperature readings in this period:* `;
  const names = vehicles.map(({ vehicle: v }) => clipMrkdwn(v.plate.trim() || `#${v.vehicleId}`, 30));
  let shown = names.length;
  const text = (n: number) => {
    const rest = names.length - n;
    return `${head}${names.slice(0, n).join(", ")}${rest > 0 ? ` and ${rest} more` : ""}.`;
  };
  while (shown > 1 && text(shown).length > NO_READINGS_CHARS) shown -= 1;
  return text(shown);
}

/**
 * Min/avg/max per temperature and humidity sensor, VEHICLES_PER_PAGE vehicles with readings
 * per page, first; the vehicles without any in one line on the first page.
 */
export function temperatureMessage(
  report: TemperatureReport,
  page = 0,
  pageToken?: string,
  options: VehicleViewOptions = {},
): SlackMessage {
  const tz = options.timeZone ?? report.period.timeZone;
  const withReadings = report.vehicles.filter((v) => v.sensors.length > 0);
  const noReadings = noReadingsLine(report.vehicles.filter((v) => v.sensors.length === 0));
  const texts = withReadings.map(vehicleTemperatureText);
  const pages = paginate(texts, VEHICLES_PER_PAGE, PAGE_CHARS, (t) => t.length + 20);
  const p = clampPage(page, pages.length);
  const b = new MessageBuilder(`temps.p${p}`);
  b.header(`🌡️ Temperatures — ${report.period.label || "report"}`);
  b.context([
    periodMrkdwn({ ...report.period, timeZone: tz }, { labelInHeader: true }),
    [
      `*${report.vehicles.length}* vehicle${report.vehicles.length === 1 ? "" : "s"}`,
      pageLabel(p, pages.length),
    ]
      .filter(Boolean)
      .join(" · "),
  ]);
  if (report.vehicles.length === 0) b.section("No vehicles with temperature sensors in this request.");
  for (const text of pages[p] ?? []) b.section(text);
  if (noReadings !== undefined && p === 0) b.section(noReadings);
  const shown = pageToken === undefined ? (pages[p] ?? []).length : withReadings.length;
  const missing = withReadings.length - shown;
  b.context(
    [
      missing > 0 ? `${missing} more vehicle${missing === 1 ? "" : "s"} not shown here.` : undefined,
      report.vehicles.some((v) => v.sensors.length > 0)
        ? "Charts of the temperatures are attached."
        : undefined,
      companyTimeNote(options),
    ],
    "tail",
  );
  if (pageToken !== undefined) b.pager(p, pages.length, pageToken);
  const sensors = report.vehicles.reduce((n, v) => n + v.sensors.length, 0);
  return b.build(
    userText(
      `Temperatures ${report.period.label}: ${sensors} sensors on ${report.vehicles.length} vehicles`,
      2900,
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// The Slack side of the report catalogue (src/reports/catalogue.ts): for every report, its label
// in the report modal (none: not offered there) and its view. Keyed by the catalogue's names, so
// a report without a view does not compile.

/** A report's answer: the message, and the files that go to the user's direct messages. */
export interface ReportAnswer {
  message: SlackMessage;
  files: OutgoingFile[];
}

/** What a report view gets besides the report: the page asked, the task id (page buttons), options. */
export interface ReportViewContext {
  page: number;
  pageToken: string;
  nowMs: number;
  options: VehicleViewOptions;
}

export interface ReportView<N extends VehicleReportName> {
  /** The report modal's choice; null when the modal does not offer the report. */
  modalLabel: string | null;
  render(report: ReportOf<N>, context: ReportViewContext): Promise<ReportAnswer> | ReportAnswer;
}

const safeName = (text: string) => text.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "") || "vehicle";

/** Files go with the first page only (a page turn must not upload them again). */
const firstPage = (context: ReportViewContext, files: OutgoingFile[]) => (context.page === 0 ? files : []);

export const REPORT_VIEWS: { [N in VehicleReportName]: ReportView<N> } = {
  vehicles: {
    modalLabel: null,
    render: (report, c) => ({
      message: vehicleListMessage(report, c.page, c.pageToken, c.options),
      files: [],
    }),
  },
  where: {
    modalLabel: "Last position (where)",
    render: (report, c) => ({ message: positionCard(report, c.nowMs, c.options), files: [] }),
  },
  route: {
    modalLabel: "Route (GPX, CSV)",
    render: (report, c) => {
      const plate = safeName(report.vehicle.plate);
      return {
        message: routeMessage(report, c.options),
        files: firstPage(c, [
          {
            filename: `route-${plate}.gpx`,
            title: `Route ${report.vehicle.plate} (GPX)`,
            content: routeGpx(report),
          },
          {
            filename: `route-${plate}.csv`,
            title: `Route ${report.vehicle.plate} (CSV)`,
            content: routeCsv(report),
          },
        ]),
      };
    },
  },
  stops: {
    modalLabel: "Stops",
    render: (report, c) => ({
      message: stopsMessage(report, c.page, c.pageToken, c.options),
      files: firstPage(c, [{ filename: "stops.csv", title: "Stops (CSV)", content: stopsCsv(report) }]),
    }),
  },
  fuel: {
    modalLabel: "Fuel consumption",
    render: (report, c) => ({
      message: fuelMessage(report, c.page, c.pageToken, c.options),
      files: firstPage(c, [
        { filename: "fuel.csv", title: "Fuel consumption (CSV)", content: fuelCsv(report) },
      ]),
    }),
  },
  refills: {
    modalLabel: "Refills and possible thefts",
    render: (report, c) => ({
      message: refillsMessage(report, c.options),
      files: [
        {
          filename: `refills-${safeName(report.vehicle.plate)}.csv`,
          title: "Refills (CSV)",
          content: refillsCsv(report),
        },
      ],
    }),
  },
  temps: {
    modalLabel: "Temperatures",
    render: async (report, c) => {
      const files: OutgoingFile[] = [];
      if (c.page === 0) {
        for (const entry of report.vehicles.filter((v) => v.sensors.length > 0).slice(0, 3)) {
          files.push({
            filename: `temperatures-${safeName(entry.vehicle.plate)}.png`,
            title: `Temperatures ${entry.vehicle.plate}`,
            content: await temperatureChartPng(report, entry.vehicle.vehicleId),
          });
        }
      }
      return { message: temperatureMessage(report, c.page, c.pageToken, c.options), files };
    },
  },
};

/** The reports the report modal offers, in catalogue order, with their labels. */
export function modalReportChoices(): { value: VehicleReportName; label: string }[] {
  return VEHICLE_REPORTS.flatMap((name) => {
    const label = REPORT_VIEWS[name].modalLabel;
    return label ? [{ value: name, label }] : [];
  });
}
