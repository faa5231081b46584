/** View of the `fuel` report: consumption per vehicle and for the fleet, paginated. */
import { consumption, km, litres } from "../../../../i18n/format.js";
import type { Language } from "../../../../i18n/language.js";
import { periodText } from "../../../../i18n/periodText.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import type { FuelFigures, FuelReport, FuelRow } from "../../fuel.js";
import { litresOr, PAGE_CHARS, pageLabel, VEHICLES_PER_PAGE, words } from "./reportFormat.js";
import {
  clampPage,
  clipMrkdwn,
  fmtMinutes,
  MessageBuilder,
  paginate,
  periodMrkdwn,
  userText,
  type VehicleViewOptions,
  vehicleMrkdwn,
  vehicleTitle,
} from "./vehicleFormat.js";

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
