/** View of the `refills` report: refuellings and possible thefts of one vehicle. */
import type { Language } from "../../../../i18n/language.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import { isPrivateVehicle } from "../../privacy.js";
import type { RefillItem, RefillsReport, RefillTotals } from "../../refills.js";
import { litresOr, words } from "./reportFormat.js";
import {
  clipMrkdwn,
  companyTimeNote,
  MessageBuilder,
  periodMrkdwn,
  slackDateIn,
  userText,
  type VehicleViewOptions,
  vehicleTitle,
} from "./vehicleFormat.js";

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
