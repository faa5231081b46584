/** Views of the positions reports: one vehicle's last position (`where`) and the vehicle list (`vehicles`). */
import type { Button } from "@slack/types";
import type { Language } from "../../../../i18n/language.js";
import { ACTIONS } from "../../../../platform/slack/actionIds.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import type { PositionReport, VehicleListReport } from "../../positions.js";
import {
  PAGE_CHARS,
  pageLabel,
  placeMrkdwn,
  speedText,
  VEHICLES_PER_PAGE,
  whole,
  words,
} from "./reportFormat.js";
import {
  clampPage,
  clipMrkdwn,
  clipPlain,
  companyTimeNote,
  MessageBuilder,
  paginate,
  slackAgo,
  slackDateIn,
  userText,
  type VehicleViewOptions,
  vehicleMrkdwn,
  vehicleTitle,
} from "./vehicleFormat.js";

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
  // Private mode: the report has no place, speed or heading (src/features/reports/privacy.ts); say why.
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
    // Private mode: no place in the report (src/features/reports/privacy.ts), the 🔒 phrase instead.
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
