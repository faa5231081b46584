/**
 * The reports' CSV files, in the reader's language (headers, separator, decimals, words): the
 * reports in src/reports are data; these turn them into files for a spreadsheet (csv.ts).
 */
import { messages } from "../../../../i18n/catalogue.js";
import { csvDateTime } from "../../../../i18n/format.js";
import type { Language } from "../../../../i18n/language.js";
import type { FuelFigures, FuelReport } from "../../fuel.js";
import type { RefillsReport, RefillTotals } from "../../refills.js";
import type { RouteReport } from "../../route.js";
import type { StopsReport } from "../../stops.js";
import type { TemperatureReport } from "../../temperatures.js";
import { csvHeader, toCsv } from "./csv.js";

/** Every stop, one row each, in the reader's language (headers, separator, decimals). */
export function stopsCsv(report: StopsReport, language: Language): string {
  const tz = report.period.timeZone;
  const at = (ms: number, zone: string) => csvDateTime(language, ms, zone);
  const rows = report.vehicles.flatMap((g) =>
    g.stops.map((s) => [
      g.vehicle.plate,
      g.vehicle.name,
      at(s.startMs, tz),
      at(s.endMs, tz),
      s.durationMinutes,
      s.engineOnMinutes,
      s.address,
      s.hotSpot,
      s.latitude,
      s.longitude,
      s.drivers.join("; "),
      s.fuelConsumption,
      s.isPrivate,
      s.stopDurationRaw,
      s.beganBeforePeriod === true,
      s.lastedToPeriodEnd === true,
    ]),
  );
  return toCsv(
    csvHeader(
      [
        "plate",
        "vehicle",
        "start",
        "end",
        "durationMin",
        "engineOnMin",
        "address",
        "hotspot",
        "latitude",
        "longitude",
        "drivers",
        "fuelConsumption",
        "private",
        "stopDurationRaw",
        "beganBeforePeriod",
        "lastedToPeriodEnd",
      ],
      language,
    ),
    rows,
    language,
  );
}

/** One row per vehicle and the fleet's total, in the reader's language. Hours as h:mm:ss, which spreadsheets read as a duration. */
export function fuelCsv(report: FuelReport, language: Language): string {
  const cols = (f: FuelFigures | undefined) =>
    f ? [f.distanceKm, f.hoursText, f.litres, f.l100] : [undefined, undefined, undefined, undefined];
  const rows = report.rows.map((r) => [
    r.plate,
    r.name,
    ...cols(r.primary),
    ...cols(r.secondary),
    ...cols(r.total),
  ]);
  const word = messages(language).reports.csvWord;
  rows.push([word("total"), word("fleet"), ...cols(undefined), ...cols(undefined), ...cols(report.fleet)]);
  return toCsv(
    csvHeader(
      [
        "plate",
        "vehicle",
        "primaryKm",
        "primaryHours",
        "primaryLitres",
        "primaryL100",
        "secondaryKm",
        "secondaryHours",
        "secondaryLitres",
        "secondaryL100",
        "totalKm",
        "totalHours",
        "totalLitres",
        "totalL100",
      ],
      language,
    ),
    rows,
    language,
  );
}

/**
 * Every event and the service's totals, in the reader's language: the event column keeps the
 * service's own codes in English (Fueling, PossibleFuelTheft …, as its documents name them) and
 * says them in words in Romanian.
 */
export function refillsCsv(report: RefillsReport, language: Language): string {
  const tz = report.period.timeZone;
  const at = (ms: number, zone: string) => csvDateTime(language, ms, zone);
  const word = messages(language).reports.csvWord;
  const event = messages(language).reports.csvRefillEvent;
  const rows = report.events.map((e) => [
    report.vehicle.plate,
    e.atMs === undefined ? e.dateText : at(e.atMs, tz),
    event(e.kind),
    word(e.secondary ? "secondary" : "primary"),
    e.theft,
    e.litres,
    e.location,
    e.isPrivate,
  ]);
  const totalRows = (source: "primary" | "secondary", t: RefillTotals | undefined) =>
    t
      ? (
          [
            ["FuelStart", t.start],
            ["TotalRefill", t.refilled],
            ["TotalPossibleTheft", t.possibleTheft],
            ["RemainingFuel", t.remaining],
            ["TotalFuelConsumption", t.consumed],
          ] as const
        )
          .filter(([, v]) => v !== undefined)
          .map(([kind, v]) => [report.vehicle.plate, "", event(kind), word(source), false, v, "", false])
      : [];
  rows.push(
    ...totalRows("primary", report.totals.primary),
    ...totalRows("secondary", report.totals.secondary),
  );
  return toCsv(
    csvHeader(
      ["plate", "time", "event", "source", "possibleTheft", "litres", "location", "private"],
      language,
    ),
    rows,
    language,
  );
}

/** One row per point in the reader's language; times as the reader's spreadsheet reads them (csvDateTime). */
export function routeCsv(report: RouteReport, language: Language): string {
  const tz = report.period.timeZone;
  const at = (ms: number, zone: string) => csvDateTime(language, ms, zone);
  return toCsv(
    csvHeader(["plate", "time", "latitude", "longitude", "speedKmh"], language),
    report.points.map((p) => [report.vehicle.plate, at(p.atMs, tz), p.lat, p.lon, p.speed]),
    language,
  );
}

/** Statistics per sensor (the report keeps only a downsampled series, not every reading), in the reader's language. */
export function temperaturesCsv(report: TemperatureReport, language: Language): string {
  const tz = report.period.timeZone;
  const at = (ms: number, zone: string) => csvDateTime(language, ms, zone);
  const word = messages(language).reports.csvWord;
  const rows = report.vehicles.flatMap((v) =>
    v.sensors.map((s) => [
      v.vehicle.plate,
      v.vehicle.name,
      word(s.kind),
      s.sensorNumber,
      s.min,
      s.avg,
      s.max,
      s.count,
      at(s.firstAtMs, tz),
      at(s.lastAtMs, tz),
      s.excursions,
    ]),
  );
  return toCsv(
    csvHeader(
      ["plate", "vehicle", "kind", "sensor", "min", "avg", "max", "readings", "first", "last", "excursions"],
      language,
    ),
    rows,
    language,
  );
}
