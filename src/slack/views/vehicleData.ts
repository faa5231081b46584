/**
 * Slack views of the vehicle-data reports (pure: report object in, message out), in the
 * reader's language (`options.language`, resolved once per task): every word from the
 * `reports` catalogue section, numbers, quantities, durations and dates in the one form of
 * src/i18n/format.ts. Reports are stored and rendered later, so nothing here reads a clock:
 * relative times use Slack's `{ago}` token in English, rendered at reading time (Romanian: the
 * age at the render's `nowMs`, since Slack writes `{ago}` in English). Pages are 0-based; a view
 * given a page out of range shows the nearest one. Every message stays inside Slack's limits
 * (vehicleFormat).
 */
import type { Button } from "@slack/types";
import { messages } from "../../i18n/catalogue.js";
import type { ReportFile } from "../../i18n/en/reports.js";
import { consumption, km, litres, number, temperature } from "../../i18n/format.js";
import type { Language } from "../../i18n/language.js";
import { periodText } from "../../i18n/periodText.js";
import type { StoredResolutionProblem } from "../../reports/catalogue.js";
import { type ReportOf, VEHICLE_REPORTS, type VehicleReportName } from "../../reports/catalogue.js";
import type { FuelFigures, FuelReport, FuelRow } from "../../reports/fuel.js";
import type { PositionReport, VehicleListReport } from "../../reports/positions.js";
import {
  isPrivateVehicle,
  positionWithoutPlace,
  refillsWithoutPrivatePlaces,
  routeWithoutPrivatePlaces,
  stopsWithoutPrivatePlaces,
  vehicleListWithoutPrivatePlaces,
} from "../../reports/privacy.js";
import type { RefillItem, RefillsReport, RefillTotals } from "../../reports/refills.js";
import type { RouteReport } from "../../reports/route.js";
import type { StopItem, StopsReport, VehicleStops } from "../../reports/stops.js";
import type { SensorSummary, TemperatureReport, VehicleTemperatures } from "../../reports/temperatures.js";
import { ACTIONS } from "../actionIds.js";
import type { OutgoingFile } from "../delivery.js";
import { fuelCsv, refillsCsv, routeCsv, stopsCsv } from "../files/reportCsv.js";
import { routeGpx } from "../files/routeGpx.js";
import { temperatureChartPng } from "../files/temperatureChart.js";
import { noticeMessage, vehicleProblemsMrkdwn } from "./common.js";
import { resolutionProblemText } from "./grammarError.js";
import type { SlackMessage } from "./message.js";
import {
  clampPage,
  clipMrkdwn,
  clipPlain,
  companyTimeNote,
  fmtMinutes,
  MessageBuilder,
  paginate,
  periodMrkdwn,
  slackAgo,
  slackDateIn,
  slackTimeIn,
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

const words = (lang: Language) => messages(lang).reports;

/** A whole number in the reader's digits: "1,234" / "1.234". */
const whole = (lang: Language, n: number) => number(lang, n, { maxFractionDigits: 0 });
/** A speed: "63 km/h". */
const speedText = (lang: Language, kmh: number) => `${whole(lang, kmh)} km/h`;
/** Litres, or "—" when the service gave none. */
const litresOr = (lang: Language, n: number | undefined) => (n === undefined ? "—" : litres(lang, n));

function pageLabel(lang: Language, page: number, count: number): string | undefined {
  return count > 1 ? words(lang).page({ page: String(page + 1), count: String(count) }) : undefined;
}

/** "<map|address>" or "address" or "<map|lat, lon>" or undefined (coordinates stay in the dotted form maps use). */
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
  options: VehicleViewOptions,
): SlackMessage {
  const lang = options.language;
  const m = words(lang);
  const tz = options.timeZone ?? "UTC";
  const b = new MessageBuilder("where", lang);
  b.header(`🚚 ${vehicleTitle(report.vehicle)}`);
  const fields: string[] = [];
  // Private mode: the report has no place, speed or heading (src/reports/privacy.ts); say why.
  const place = report.isPrivate
    ? m.inPrivateMode()
    : (placeMrkdwn({ ...report, address: undefined }, 100) ?? m.noPositionReported());
  fields.push(`*${m.position()}*\n${place}`);
  if (report.address) fields.push(`*${m.address()}*\n${clipMrkdwn(report.address, 500)}`);
  if (!report.isPrivate) {
    const speed = report.speedKmh !== undefined ? speedText(lang, report.speedKmh) : m.unknown();
    const heading =
      report.courseDeg !== undefined ? ` · ${m.heading({ degrees: whole(lang, report.courseDeg) })}` : "";
    fields.push(`*${m.speed()}*\n${speed}${heading}`);
  }
  fields.push(`*${m.engineLabel()}*\n${m.engine(report.engine)}`);
  fields.push(
    report.gpsAtMs !== undefined
      ? `*${m.lastGpsUpdate()}*\n${slackDateIn(lang, report.gpsAtMs, tz, nowMs)} (${slackAgo(lang, report.gpsAtMs, nowMs)})`
      : `*${m.lastGpsUpdate()}*\n${m.noneReported()}`,
  );
  if (report.isPrivate) fields.push(`*${m.privateMode()}*\n${m.privateModeOn()}`);
  const about = [
    report.model && clipMrkdwn(report.model, 100),
    report.vin && `VIN ${clipMrkdwn(report.vin, 40)}`,
  ].filter(Boolean);
  if (about.length > 0) fields.push(`*${m.vehicle()}*\n${about.join(" · ")}`);
  b.fields(fields);
  b.context([companyTimeNote(options)], "tail");
  const refresh = positionButton(report, m.refresh());
  if (refresh) b.actions([refresh]);
  return b.build(positionText(lang, report));
}

function positionText(lang: Language, report: PositionReport): string {
  const m = words(lang);
  const where = report.isPrivate
    ? m.inPrivateMode()
    : (report.address ??
      (report.latitude !== undefined ? `${report.latitude}, ${report.longitude}` : m.noPosition()));
  const speed = report.speedKmh !== undefined ? `, ${speedText(lang, report.speedKmh)}` : "";
  return userText(`${vehicleTitle(report.vehicle)}: ${where}${speed}, ${m.engine(report.engine)}`, 2900);
}

// ---------- vehicle list ----------

function vehicleLine(lang: Language, item: PositionReport, atMs: number): string {
  const m = words(lang);
  const place = placeMrkdwn(item, 120);
  const parts = [
    // Private mode: no place in the report (src/reports/privacy.ts), the 🔒 phrase instead.
    item.isPrivate ? m.inPrivateMode() : place ? `📍 ${place}` : m.noPositionLine(),
    item.speedKmh !== undefined ? speedText(lang, item.speedKmh) : undefined,
    m.engine(item.engine),
    item.gpsAtMs !== undefined ? m.gpsAgo({ ago: slackAgo(lang, item.gpsAtMs, atMs) }) : m.noGpsTime(),
  ].filter(Boolean);
  return `${vehicleMrkdwn(item.vehicle)}\n${parts.join(" · ")}`;
}

/** The fleet (or the vehicles matching a filter), VEHICLES_PER_PAGE per page, each with a Position button. */
export function vehicleListMessage(
  report: VehicleListReport,
  page: number,
  pageToken: string,
  options: VehicleViewOptions,
): SlackMessage {
  const lang = options.language;
  const m = words(lang);
  const lines = report.items.map((item) => ({ item, line: vehicleLine(lang, item, report.atMs) }));
  const pages = paginate(lines, VEHICLES_PER_PAGE, PAGE_CHARS, (l) => l.line.length + 120);
  const p = clampPage(page, pages.length);
  const b = new MessageBuilder(`vehicles.p${p}`, lang);
  b.header(report.filter ? m.vehiclesMatchingHeader({ filter: report.filter }) : m.vehiclesHeader());
  b.context([
    [
      report.filter
        ? m.vehiclesOfFleet({ shown: report.total, total: report.fleetTotal })
        : m.vehiclesCount(report.total),
      m.asOf({ date: slackDateIn(lang, report.atMs, options.timeZone ?? "UTC", options.nowMs) }),
      pageLabel(lang, p, pages.length),
    ]
      .filter(Boolean)
      .join(" · "),
  ]);
  if (report.items.length === 0) {
    b.section(
      report.filter ? m.noVehicleMatches({ filter: clipMrkdwn(report.filter, 100) }) : m.noVehicles(),
    );
  }
  for (const { item, line } of pages[p] ?? []) {
    b.section(line, "body", positionButton(item, m.position()));
  }
  b.context([companyTimeNote(options)], "tail");
  b.pager(p, pages.length, pageToken);
  const summary = report.filter
    ? m.vehiclesMatchSummary({ shown: report.total, total: report.fleetTotal, filter: report.filter })
    : m.vehiclesSummary(report.total);
  return b.build(userText(summary, 2900));
}

// ---------- route ----------

export function routeMessage(report: RouteReport, options: VehicleViewOptions): SlackMessage {
  const lang = options.language;
  const m = words(lang);
  const tz = options.timeZone ?? report.period.timeZone;
  const when = (ms: number) => slackDateIn(lang, ms, tz, options.nowMs);
  const b = new MessageBuilder("route", lang);
  b.header(m.routeHeader({ vehicle: vehicleTitle(report.vehicle) }));
  b.context([periodMrkdwn({ ...report.period, timeZone: tz }, { language: lang, nowMs: options.nowMs })]);
  const withheld = isPrivateVehicle(report.vehicle);
  if (withheld) {
    b.section(m.routePrivate());
  } else if (report.points.length === 0) {
    b.section(m.noRoutePositions());
  } else {
    const fields = [
      `*${m.distance()}*\n${km(lang, report.distanceKm)}`,
      `*${m.movingTime()}*\n${fmtMinutes(lang, report.movingMinutes)}`,
      `*${m.maxSpeed()}*\n${speedText(lang, report.maxSpeedKmh)}`,
      `*${m.gpsPoints()}*\n${whole(lang, report.points.length)}`,
    ];
    if (report.firstAtMs !== undefined) fields.push(`*${m.firstPosition()}*\n${when(report.firstAtMs)}`);
    if (report.lastAtMs !== undefined) fields.push(`*${m.lastPosition()}*\n${when(report.lastAtMs)}`);
    const first = report.points[0];
    const last = report.points[report.points.length - 1];
    if (first)
      fields.push(`*${m.start()}*\n${placeMrkdwn({ latitude: first.lat, longitude: first.lon }, 60)}`);
    if (last) fields.push(`*${m.end()}*\n${placeMrkdwn({ latitude: last.lat, longitude: last.lon }, 60)}`);
    b.fields(fields);
  }
  b.context(
    [report.points.length > 0 ? m.routeFiles() : undefined, m.routeMethod(), companyTimeNote(options)],
    "tail",
  );
  const vehicle = vehicleTitle(report.vehicle);
  const period = periodText(report.period.label, lang);
  const text = withheld
    ? m.routePrivateSummary({ vehicle, period })
    : report.points.length === 0
      ? m.routeEmptySummary({ vehicle, period })
      : m.routeSummary({ vehicle, distance: km(lang, report.distanceKm), period });
  return b.build(userText(text, 2900));
}

// ---------- stops ----------

function stopLine(lang: Language, stop: StopItem, tz: string, nowMs: number | undefined): string {
  const m = words(lang);
  const start = slackDateIn(lang, stop.startMs, tz, nowMs);
  const sameDay = wallDay(stop.startMs, tz) === wallDay(stop.endMs, tz);
  const end = sameDay ? slackTimeIn(lang, stop.endMs, tz) : slackDateIn(lang, stop.endMs, tz, nowMs);
  // The duration counts only the period: say so when the stop runs past either edge.
  const cut = [
    stop.beganBeforePeriod ? m.sinceBeforePeriod() : undefined,
    stop.lastedToPeriodEnd ? m.stillStoppedAtEnd() : undefined,
  ];
  const clipped = cut.filter((s) => typeof s === "string").join(", ");
  const parts = [
    `• ${start} – ${end} *${fmtMinutes(lang, stop.durationMinutes)}*${clipped ? ` _(${clipped})_` : ""}`,
    stop.engineOnMinutes ? m.engineOnFor({ duration: fmtMinutes(lang, stop.engineOnMinutes) }) : undefined,
    placeMrkdwn(stop, 120),
    stop.hotSpot ? `🏁 ${clipMrkdwn(stop.hotSpot, 60)}` : undefined,
    stop.drivers.length > 0 ? `👤 ${clipMrkdwn(stop.drivers.join(", "), 80)}` : undefined,
    stop.isPrivate ? m.private() : undefined,
  ].filter(Boolean);
  return parts.join(" · ");
}

function groupTitle(lang: Language, g: VehicleStops): string {
  const stops = words(lang).vehicleStops({
    stops: g.stops.length,
    total: fmtMinutes(lang, g.totalStopMinutes),
  });
  // A vehicle in private mode: its stops carry no place (src/reports/privacy.ts).
  const mode = isPrivateVehicle(g.vehicle) ? ` · ${words(lang).inPrivateMode()}` : "";
  return `${vehicleMrkdwn(g.vehicle)}${mode} · ${stops}`;
}

/** Stops with durations, addresses and drivers, STOPS_PER_PAGE per page, grouped by vehicle. */
export function stopsMessage(
  report: StopsReport,
  page: number,
  pageToken: string,
  options: VehicleViewOptions,
): SlackMessage {
  const lang = options.language;
  const m = words(lang);
  const tz = options.timeZone ?? report.period.timeZone;
  const entries = report.vehicles.flatMap((g, gi) =>
    g.stops.map((stop) => ({ gi, line: stopLine(lang, stop, tz, options.nowMs) })),
  );
  const pages = paginate(entries, STOPS_PER_PAGE, PAGE_CHARS, (e) => e.line.length + 1);
  const p = clampPage(page, pages.length);
  const b = new MessageBuilder(`stops.p${p}`, lang);
  const period = periodText(report.period.label, lang);
  b.header(m.stopsHeader({ period: period || m.reportWord() }));
  const withStops = report.vehicles.filter((g) => g.stops.length > 0).length;
  b.context([
    periodMrkdwn(
      { ...report.period, timeZone: tz },
      { labelInHeader: true, language: lang, nowMs: options.nowMs },
    ),
    [
      m.stopsOfVehicles({ stops: report.totalStops, vehicles: withStops }),
      m.atLeastMinutes({ minutes: whole(lang, report.minMinutes) }),
      pageLabel(lang, p, pages.length),
    ]
      .filter(Boolean)
      .join(" · "),
  ]);
  if (report.totalStops === 0) b.section(m.noStops());
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
      lines.push(`${groupTitle(lang, g)}${continued ? m.continued() : ""}`);
    }
    lines.push(e.line);
  }
  flush();
  const idle = report.vehicles.filter((g) => g.stops.length === 0);
  if (p === 0 && idle.length > 0 && report.totalStops > 0) {
    b.section(
      clipMrkdwn(m.noStopsFor({ vehicles: idle.map((g) => vehicleTitle(g.vehicle)).join(", ") }), 1500),
      "head",
    );
  }
  b.context([report.totalStops > 0 ? m.stopsInCsv() : undefined, companyTimeNote(options)], "tail");
  b.pager(p, pages.length, pageToken);
  return b.build(userText(m.stopsSummary({ stops: report.totalStops, period }), 2900));
}

// ---------- fuel ----------

function figuresText(lang: Language, f: FuelFigures): string {
  if (f.distanceKm === 0 && f.hoursSeconds === 0 && f.litres === 0) return words(lang).fuelDidNotMove();
  const hours = fmtMinutes(lang, f.hoursSeconds / 60);
  // Litres over no distance have no l/100 km: a "0,0" there would read as a measurement.
  const per100 = f.distanceKm > 0 ? consumption(lang, f.l100) : "–";
  return `${km(lang, f.distanceKm)} · ${hours} · ${litres(lang, f.litres)} · ${per100}`;
}

function fuelRowText(lang: Language, row: FuelRow): string {
  const m = words(lang);
  const title = vehicleMrkdwn({ vehicleId: row.vehicleId ?? 0, plate: row.plate, name: row.name });
  if (!row.secondary) return `${title}\n${figuresText(lang, row.total)}`;
  return [
    `${title} · ${m.twoFuelSources()}`,
    `${m.primarySource()}: ${figuresText(lang, row.primary)}`,
    `${m.secondarySource()}: ${figuresText(lang, row.secondary)}`,
    `${m.total()}: ${figuresText(lang, row.total)}`,
  ].join("\n");
}

/** Consumption per vehicle (secondary/LPG source marked) and the fleet total, VEHICLES_PER_PAGE per page. */
export function fuelMessage(
  report: FuelReport,
  page: number,
  pageToken: string,
  options: VehicleViewOptions,
): SlackMessage {
  const lang = options.language;
  const m = words(lang);
  const tz = options.timeZone ?? report.period.timeZone;
  const rows = report.rows.map((row) => fuelRowText(lang, row));
  const pages = paginate(rows, VEHICLES_PER_PAGE, PAGE_CHARS, (r) => r.length + 20);
  const p = clampPage(page, pages.length);
  const b = new MessageBuilder(`fuel.p${p}`, lang);
  const period = periodText(report.period.label, lang);
  b.header(m.fuelHeader({ period: period || m.reportWord() }));
  b.context([
    periodMrkdwn(
      { ...report.period, timeZone: tz },
      { labelInHeader: true, language: lang, nowMs: options.nowMs },
    ),
    [m.vehiclesCount(report.rows.length), pageLabel(lang, p, pages.length)].filter(Boolean).join(" · "),
  ]);
  b.section(`${m.fleetTotal()}: ${figuresText(lang, report.fleet)}`, "head");
  if (report.rows.length === 0) b.section(m.noConsumption());
  for (const text of pages[p] ?? []) b.section(text);
  if (p === 0 && report.withoutData.length > 0) {
    b.section(
      clipMrkdwn(
        m.noConsumptionFor({ vehicles: report.withoutData.map((v) => vehicleTitle(v)).join(", ") }),
        1500,
      ),
      "tail",
    );
  }
  b.context([report.hasSecondary ? m.secondaryRule() : undefined, m.fleetWeighted()], "tail");
  b.pager(p, pages.length, pageToken);
  return b.build(
    userText(
      m.fuelSummary({
        period,
        litres: litresOr(lang, report.fleet.litres),
        distance: km(lang, report.fleet.distanceKm),
      }),
      2900,
    ),
  );
}

// ---------- refills ----------

const MAX_EVENT_LINES = 40;
const EVENT_CHARS = 6000;

function eventLine(lang: Language, e: RefillItem, tz: string, nowMs: number | undefined): string {
  const m = words(lang);
  const when =
    e.atMs !== undefined
      ? slackDateIn(lang, e.atMs, tz, nowMs)
      : clipMrkdwn(e.dateText || m.dateUnknown(), 40);
  const litres = e.litres !== undefined ? litresOr(lang, e.litres) : m.amountUnknown();
  const source = e.secondary ? m.secondarySourceNote() : "";
  const what = e.theft
    ? m.possibleTheft({ source, litres })
    : e.unknownKind
      ? `❔ ${clipMrkdwn(e.kind, 60)}: ${litres}`
      : m.refuelling({ source, litres });
  const parts = [
    `${when} · ${what}`,
    e.location ? clipMrkdwn(e.location, 120) : undefined,
    e.isPrivate ? m.private() : undefined,
  ];
  return parts.filter(Boolean).join(" · ");
}

function totalsFields(lang: Language, t: RefillTotals, suffix: string): string[] {
  const m = words(lang);
  const v = (n: number | undefined) => litresOr(lang, n);
  return [
    `*${m.fuelAtStart()}${suffix}*\n${v(t.start)}`,
    `*${m.refuelled()}${suffix}*\n${v(t.refilled)}`,
    `*${t.possibleTheft ? "⚠️ " : ""}${m.possibleTheftTotal()}${suffix}*\n${v(t.possibleTheft)}`,
    `*${m.remaining()}${suffix}*\n${v(t.remaining)}`,
    `*${m.consumed()}${suffix}*\n${v(t.consumed)}`,
  ];
}

/** Refuellings and possible thefts (⚠️) of one vehicle, with the service's totals per source. */
export function refillsMessage(report: RefillsReport, options: VehicleViewOptions): SlackMessage {
  const lang = options.language;
  const m = words(lang);
  const tz = options.timeZone ?? report.period.timeZone;
  const b = new MessageBuilder("refills", lang);
  b.header(m.refillsHeader({ vehicle: vehicleTitle(report.vehicle) }));
  b.context([periodMrkdwn({ ...report.period, timeZone: tz }, { language: lang, nowMs: options.nowMs })]);
  if (isPrivateVehicle(report.vehicle)) b.context([m.privateNoPlaces()]);
  if (report.theftCount > 0) b.section(m.theftWarning(report.theftCount), "head");
  b.fields(totalsFields(lang, report.totals.primary, ""), "head");
  if (report.totals.secondary) b.fields(totalsFields(lang, report.totals.secondary, m.lpgSuffix()), "head");
  // Which events fit: every possible theft first, then the others, shown in time order.
  const indexed = report.events.map((e, i) => ({ e, i, line: eventLine(lang, e, tz, options.nowMs) }));
  const chosen = new Set<number>();
  let chars = 0;
  for (const x of [...indexed.filter((x) => x.e.theft), ...indexed.filter((x) => !x.e.theft)]) {
    if (chosen.size >= MAX_EVENT_LINES || chars + x.line.length > EVENT_CHARS) break;
    chosen.add(x.i);
    chars += x.line.length + 1;
  }
  if (report.events.length === 0) b.section(m.noRefillEvents());
  else b.lines(indexed.filter((x) => chosen.has(x.i)).map((x) => x.line));
  const left = report.events.length - chosen.size;
  b.context(
    [
      left > 0 ? m.moreEventsInCsv(left) : report.events.length > 0 ? m.allEventsInCsv() : undefined,
      m.refillTotalsNote(),
      companyTimeNote(options),
    ],
    "tail",
  );
  return b.build(
    userText(
      m.refillsSummary({
        vehicle: vehicleTitle(report.vehicle),
        refills: report.refillCount,
        thefts: report.theftCount,
      }),
      2900,
    ),
  );
}

// ---------- temperatures ----------

function sensorLine(lang: Language, s: SensorSummary): string {
  const m = words(lang);
  const value =
    s.kind === "temperature"
      ? (n: number) => temperature(lang, n)
      : (n: number) => `${number(lang, n, { minFractionDigits: 1, maxFractionDigits: 1 })} %`;
  const sensor = String(s.sensorNumber);
  const name = s.kind === "temperature" ? m.temperatureSensor({ sensor }) : m.humiditySensor({ sensor });
  const excursion =
    s.excursions !== undefined && s.excursions > 0
      ? ` · ${m.excursions({ excursions: s.excursions, range: rangeText(lang, s) })}`
      : "";
  const figures = m.sensorFigures({
    min: value(s.min),
    avg: value(s.avg),
    max: value(s.max),
    readings: s.count,
  });
  return `${name}: ${figures}${excursion}`;
}

function rangeText(lang: Language, s: SensorSummary): string {
  const r = s.range ?? {};
  const plain = (n: number) => number(lang, n);
  if (r.min !== undefined && r.max !== undefined) return `${plain(r.min)}…${plain(r.max)} °C`;
  return r.min !== undefined ? `≥ ${plain(r.min)} °C` : `≤ ${plain(r.max ?? 0)} °C`;
}

function vehicleTemperatureText(lang: Language, v: VehicleTemperatures): string {
  return [vehicleMrkdwn(v.vehicle), ...v.sensors.map((s) => sensorLine(lang, s))].join("\n");
}

/** Characters the one line naming the vehicles without readings may take. */
const NO_READINGS_CHARS = 1500;

/**
 * "26 vehicles have no temperature readings in this period: B-1, B-2, … and 9 more": one line
 * instead of a card each (most of a fleet has no reefer sensor), cut to NO_READINGS_CHARS.
 */
export function noReadingsLine(vehicles: readonly VehicleTemperatures[], lang: Language): string | undefined {
  if (vehicles.length === 0) return undefined;
  const m = words(lang);
  const head = m.noReadingsHead(vehicles.length);
  const names = vehicles.map(({ vehicle: v }) => clipMrkdwn(v.plate.trim() || `#${v.vehicleId}`, 30));
  let shown = names.length;
  const text = (n: number) => {
    const rest = names.length - n;
    return `${head}${names.slice(0, n).join(", ")}${rest > 0 ? m.andMore(rest) : ""}.`;
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
  page: number,
  pageToken: string | undefined,
  options: VehicleViewOptions,
): SlackMessage {
  const lang = options.language;
  const m = words(lang);
  const tz = options.timeZone ?? report.period.timeZone;
  const withReadings = report.vehicles.filter((v) => v.sensors.length > 0);
  const noReadings = noReadingsLine(
    report.vehicles.filter((v) => v.sensors.length === 0),
    lang,
  );
  const texts = withReadings.map((v) => vehicleTemperatureText(lang, v));
  const pages = paginate(texts, VEHICLES_PER_PAGE, PAGE_CHARS, (t) => t.length + 20);
  const p = clampPage(page, pages.length);
  const b = new MessageBuilder(`temps.p${p}`, lang);
  const period = periodText(report.period.label, lang);
  b.header(m.tempsHeader({ period: period || m.reportWord() }));
  b.context([
    periodMrkdwn(
      { ...report.period, timeZone: tz },
      { labelInHeader: true, language: lang, nowMs: options.nowMs },
    ),
    [m.vehiclesCount(report.vehicles.length), pageLabel(lang, p, pages.length)].filter(Boolean).join(" · "),
  ]);
  if (report.vehicles.length === 0) b.section(m.noSensorVehicles());
  for (const text of pages[p] ?? []) b.section(text);
  if (noReadings !== undefined && p === 0) b.section(noReadings);
  const shown = pageToken === undefined ? (pages[p] ?? []).length : withReadings.length;
  const missing = withReadings.length - shown;
  b.context(
    [
      missing > 0 ? m.moreVehiclesNotShown(missing) : undefined,
      report.vehicles.some((v) => v.sensors.length > 0) ? m.chartsAttached() : undefined,
      companyTimeNote(options),
    ],
    "tail",
  );
  if (pageToken !== undefined) b.pager(p, pages.length, pageToken);
  const sensors = report.vehicles.reduce((n, v) => n + v.sensors.length, 0);
  const withSensors = report.vehicles.filter((v) => v.sensors.length > 0).length;
  return b.build(userText(m.tempsSummary({ period, sensors, vehicles: withSensors }), 2900));
}

// ---------- vehicles not found ----------

/**
 * A report that found no vehicle to run on: each problem in the reader's language (a legacy
 * English sentence of an older task as it is), and how vehicles are named.
 */
export function resolutionMessage(
  problems: readonly StoredResolutionProblem[],
  lang: Language,
): SlackMessage {
  const m = words(lang);
  const lines = problems.map((p) =>
    typeof p === "string" ? p : p.kind === "no-vehicle" ? m.nameOneVehicle() : resolutionProblemText(p, lang),
  );
  return noticeMessage(`:warning: ${vehicleProblemsMrkdwn(lines, lang)}`, m.vehiclesNamedHint());
}

// ---------------------------------------------------------------------------------------------
// The Slack side of the report catalogue (src/reports/catalogue.ts): for every report, whether
// the report modal offers it (its label is the catalogue's `reports.modalLabel`) and its view.
// Keyed by the catalogue's names, so a report without a view does not compile.

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
  /** The reader's language (the task's: `taskLanguage`), for the message and the files. */
  language: Language;
  /** The rest of the view's options (the language and the instant are the context's). */
  options: Omit<VehicleViewOptions, "language" | "nowMs">;
}

export interface ReportView<N extends VehicleReportName> {
  /** Whether the report modal offers the report. */
  inModal: boolean;
  render(report: ReportOf<N>, context: ReportViewContext): Promise<ReportAnswer> | ReportAnswer;
}

const safeName = (text: string) => text.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "") || "vehicle";

/** Files go with the first page only (a page turn must not upload them again). */
const firstPage = (context: ReportViewContext, files: OutgoingFile[]) => (context.page === 0 ? files : []);

/** The view's options with the context's language and present instant. */
const viewOptions = (c: ReportViewContext): VehicleViewOptions => ({
  ...c.options,
  language: c.language,
  nowMs: c.nowMs,
});

/** A file's name and title in the reader's language: "stops.csv" / "opriri.csv", "Stops (CSV)". */
function named(
  c: ReportViewContext,
  file: ReportFile,
  plate: string | undefined,
  extension: string,
): { filename: string; title: string } {
  const m = words(c.language);
  const base = m.fileName(file);
  return {
    filename: plate === undefined ? `${base}.${extension}` : `${base}-${safeName(plate)}.${extension}`,
    title: m.fileTitle(file, plate ?? ""),
  };
}

export const REPORT_VIEWS: { [N in VehicleReportName]: ReportView<N> } = {
  vehicles: {
    inModal: false,
    render: (report, c) => ({
      message: vehicleListMessage(
        vehicleListWithoutPrivatePlaces(report),
        c.page,
        c.pageToken,
        viewOptions(c),
      ),
      files: [],
    }),
  },
  where: {
    inModal: true,
    render: (report, c) => ({
      message: positionCard(positionWithoutPlace(report), c.nowMs, viewOptions(c)),
      files: [],
    }),
  },
  route: {
    inModal: true,
    render: (stored, c) => {
      const report = routeWithoutPrivatePlaces(stored);
      const plate = report.vehicle.plate;
      return {
        message: routeMessage(report, viewOptions(c)),
        // A vehicle in private mode has no track: no empty files either.
        files: isPrivateVehicle(report.vehicle)
          ? []
          : firstPage(c, [
              { ...named(c, "routeGpx", plate, "gpx"), content: routeGpx(report, c.language) },
              { ...named(c, "routeCsv", plate, "csv"), content: routeCsv(report, c.language) },
            ]),
      };
    },
  },
  stops: {
    inModal: true,
    render: (stored, c) => {
      // A report stored before private mode was respected is cleaned here too (privacy.ts).
      const report = stopsWithoutPrivatePlaces(stored);
      return {
        message: stopsMessage(report, c.page, c.pageToken, viewOptions(c)),
        files: firstPage(c, [
          { ...named(c, "stopsCsv", undefined, "csv"), content: stopsCsv(report, c.language) },
        ]),
      };
    },
  },
  fuel: {
    inModal: true,
    render: (report, c) => ({
      message: fuelMessage(report, c.page, c.pageToken, viewOptions(c)),
      files: firstPage(c, [
        { ...named(c, "fuelCsv", undefined, "csv"), content: fuelCsv(report, c.language) },
      ]),
    }),
  },
  refills: {
    inModal: true,
    render: (stored, c) => {
      const report = refillsWithoutPrivatePlaces(stored);
      return {
        message: refillsMessage(report, viewOptions(c)),
        files: [
          {
            ...named(c, "refillsCsv", report.vehicle.plate, "csv"),
            content: refillsCsv(report, c.language),
          },
        ],
      };
    },
  },
  temps: {
    inModal: true,
    render: async (report, c) => {
      const files: OutgoingFile[] = [];
      if (c.page === 0) {
        for (const entry of report.vehicles.filter((v) => v.sensors.length > 0).slice(0, 3)) {
          files.push({
            ...named(c, "tempsChart", entry.vehicle.plate, "png"),
            content: await temperatureChartPng(report, entry.vehicle.vehicleId, c.language),
          });
        }
      }
      return { message: temperatureMessage(report, c.page, c.pageToken, viewOptions(c)), files };
    },
  },
};

/** The reports the report modal offers, in catalogue order, with their labels in `language`. */
export function modalReportChoices(language: Language): { value: VehicleReportName; label: string }[] {
  const m = words(language);
  return VEHICLE_REPORTS.flatMap((name) =>
    REPORT_VIEWS[name].inModal ? [{ value: name, label: m.modalLabel(name) }] : [],
  );
}
