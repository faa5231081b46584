/** View of the `temps` report: reefer temperature and humidity sensors per vehicle, paginated. */
import { number, temperature } from "../../../../i18n/format.js";
import type { Language } from "../../../../i18n/language.js";
import { periodText } from "../../../../i18n/periodText.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import type { SensorSummary, TemperatureReport, VehicleTemperatures } from "../../temperatures.js";
import { PAGE_CHARS, pageLabel, VEHICLES_PER_PAGE, words } from "./reportFormat.js";
import {
  clampPage,
  clipMrkdwn,
  companyTimeNote,
  MessageBuilder,
  paginate,
  periodMrkdwn,
  userText,
  type VehicleViewOptions,
  vehicleMrkdwn,
} from "./vehicleFormat.js";

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
