/** View of the `stops` report: stops per vehicle, paginated. */
import type { Language } from "../../../../i18n/language.js";
import { periodText } from "../../../../i18n/periodText.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import { wallDay } from "../../../../platform/slack/views/wallClock.js";
import { isPrivateVehicle } from "../../privacy.js";
import type { StopItem, StopsReport, VehicleStops } from "../../stops.js";
import { PAGE_CHARS, pageLabel, placeMrkdwn, STOPS_PER_PAGE, whole, words } from "./reportFormat.js";
import {
  clampPage,
  clipMrkdwn,
  companyTimeNote,
  fmtMinutes,
  MessageBuilder,
  paginate,
  periodMrkdwn,
  slackDateIn,
  slackTimeIn,
  userText,
  type VehicleViewOptions,
  vehicleMrkdwn,
  vehicleTitle,
} from "./vehicleFormat.js";

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
  // A vehicle in private mode: its stops carry no place (src/features/reports/privacy.ts).
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
