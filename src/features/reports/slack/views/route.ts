/** View of the `route` report: one vehicle's track over a period. */
import { km } from "../../../../i18n/format.js";
import { periodText } from "../../../../i18n/periodText.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import { isPrivateVehicle } from "../../privacy.js";
import type { RouteReport } from "../../route.js";
import { placeMrkdwn, speedText, whole, words } from "./reportFormat.js";
import {
  companyTimeNote,
  fmtMinutes,
  MessageBuilder,
  periodMrkdwn,
  slackDateIn,
  userText,
  type VehicleViewOptions,
  vehicleTitle,
} from "./vehicleFormat.js";

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
