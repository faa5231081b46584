/** Reefer temperatures and humidity: statistics per sensor, a downsampled series, a chart. */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { Locale } from "vega";
import type { TopLevelSpec } from "vega-lite";
import type { SensorReading, SensorReadings } from "../fleet/schemas.js";
import { messages } from "../i18n/catalogue.js";
import type { Language } from "../i18n/language.js";
import { periodText } from "../i18n/periodText.js";
import { instantToWall } from "../time/zone.js";
import { csvHeader, toCsv } from "./csv.js";
import { isoWithOffset, round } from "./format.js";
import { type ReportPeriod, type ReportVehicle, unlistedVehicle } from "./types.js";

export type SensorKind = "temperature" | "humidity";

export interface TemperatureRange {
  min?: number;
  max?: number;
}

export interface SensorSummary {
  sensorNumber: number;
  kind: SensorKind;
  min: number;
  /** min, avg and max rounded to 0.01. */
  avg: number;
  max: number;
  count: number;
  firstAtMs: number;
  lastAtMs: number;
  /** Runs of consecutive readings outside `range`; only when a range was given. */
  excursions?: number;
  range?: TemperatureRange;
}

export interface SensorSeries {
  sensorNumber: number;
  kind: SensorKind;
  /** [atMs, value], time order, at most MAX_SERIES_POINTS (min/max preserving). */
  points: [number, number][];
}

export interface VehicleTemperatures {
  vehicle: ReportVehicle;
  /** Temperature sensors first, then humidity, each by sensor number. */
  sensors: SensorSummary[];
  series: SensorSeries[];
}

export interface TemperatureReport {
  period: ReportPeriod;
  vehicles: VehicleTemperatures[];
}

export interface TemperatureOptions {
  /** Allowed temperature range for every vehicle (counts excursions). */
  range?: TemperatureRange;
  /** Per-vehicle ranges (by vehicleId), winning over `range`. */
  ranges?: Record<number, TemperatureRange>;
}

export const MAX_SERIES_POINTS = 300;

/**
 * At most `max` points keeping the shape: the series is cut into max/2 buckets and each
 * bucket keeps its lowest and highest reading (in time order), so a 40-minute excursion
 * survives a month of readings. Shorter series are returned whole.
 */
export function downsampleMinMax(
  points: readonly [number, number][],
  max = MAX_SERIES_POINTS,
): [number, number][] {
  if (points.length <= max) return points.map(([t, v]) => [t, v]);
  const buckets = Math.max(1, Math.floor(max / 2));
  const out: [number, number][] = [];
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor((b * points.length) / buckets);
    const to = Math.floor(((b + 1) * points.length) / buckets);
    let lo = from;
    let hi = from;
    for (let i = from; i < to; i++) {
      if ((points[i] as [number, number])[1] < (points[lo] as [number, number])[1]) lo = i;
      if ((points[i] as [number, number])[1] > (points[hi] as [number, number])[1]) hi = i;
    }
    for (const i of lo === hi ? [lo] : [Math.min(lo, hi), Math.max(lo, hi)]) {
      const p = points[i] as [number, number];
      out.push([p[0], p[1]]);
    }
  }
  return out;
}

function countExcursions(values: readonly number[], range: TemperatureRange): number {
  let runs = 0;
  let outside = false;
  for (const v of values) {
    const out = (range.min !== undefined && v < range.min) || (range.max !== undefined && v > range.max);
    if (out && !outside) runs += 1;
    outside = out;
  }
  return runs;
}

function summarize(
  kind: SensorKind,
  sensorNumber: number,
  readings: readonly SensorReading[],
  range: TemperatureRange | undefined,
): { summary: SensorSummary; series: SensorSeries } {
  const sorted = [...readings].sort((a, b) => +a.date - +b.date);
  const values = sorted.map((r) => r.value);
  const summary: SensorSummary = {
    sensorNumber,
    kind,
    min: round(
      values.reduce((m, v) => Math.min(m, v), Number.POSITIVE_INFINITY),
      2,
    ),
    avg: round(values.reduce((s, v) => s + v, 0) / values.length, 2),
    max: round(
      values.reduce((m, v) => Math.max(m, v), Number.NEGATIVE_INFINITY),
      2,
    ),
    count: values.length,
    firstAtMs: (sorted[0] as SensorReading).date.getTime(),
    lastAtMs: (sorted[sorted.length - 1] as SensorReading).date.getTime(),
  };
  if (kind === "temperature" && range && (range.min !== undefined || range.max !== undefined)) {
    summary.excursions = countExcursions(values, range);
    summary.range = { ...range };
  }
  const points = downsampleMinMax(sorted.map((r) => [r.date.getTime(), r.value] as [number, number]));
  return { summary, series: { sensorNumber, kind, points } };
}

/**
 * Vehicles in the order of `vehicles`, each listed even without readings; readings of a
 * vehicle not in the list are kept under "#id". A reading without a sensor number counts
 * as sensor 0.
 */
export function temperatureReport(
  readings: SensorReadings,
  vehicles: ReportVehicle[],
  period: ReportPeriod,
  options: TemperatureOptions = {},
): TemperatureReport {
  const groups = new Map<string, SensorReading[]>();
  const ids = new Set<number>();
  for (const kind of ["temperature", "humidity"] as const) {
    for (const r of readings[kind]) {
      if (!Number.isFinite(r.value)) continue;
      ids.add(r.vehicleId);
      const key = `${r.vehicleId}|${kind}|${r.sensorNumber ?? 0}`;
      const list = groups.get(key) ?? [];
      list.push(r);
      groups.set(key, list);
    }
  }
  const listed = new Set(vehicles.map((v) => v.vehicleId));
  const all = [
    ...vehicles,
    ...[...ids]
      .filter((id) => !listed.has(id))
      .sort((a, b) => a - b)
      .map(unlistedVehicle),
  ];
  return {
    period,
    vehicles: all.map((vehicle) => {
      const range = options.ranges?.[vehicle.vehicleId] ?? options.range;
      const sensors: SensorSummary[] = [];
      const series: SensorSeries[] = [];
      for (const kind of ["temperature", "humidity"] as const) {
        const numbers = [...groups.keys()]
          .map((k) => k.split("|"))
          .filter(([id, k]) => Number(id) === vehicle.vehicleId && k === kind)
          .map(([, , n]) => Number(n))
          .sort((a, b) => a - b);
        for (const n of numbers) {
          const r = summarize(kind, n, groups.get(`${vehicle.vehicleId}|${kind}|${n}`) ?? [], range);
          sensors.push(r.summary);
          series.push(r.series);
        }
      }
      return { vehicle, sensors, series };
    }),
  };
}

/** Statistics per sensor (the report keeps only a downsampled series, not every reading), in the reader's language. */
export function temperaturesCsv(report: TemperatureReport, language: Language): string {
  const tz = report.period.timeZone;
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
      isoWithOffset(s.firstAtMs, tz),
      isoWithOffset(s.lastAtMs, tz),
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

// ---------- chart ----------

export const CHART_WIDTH = 900;
export const CHART_HEIGHT = 400;

const require = createRequire(import.meta.url);
/** The DejaVu files only (no system fonts), so the PNG is the same on every machine. */
const FONT_FILES = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf"].map((f) =>
  require.resolve(`dejavu-fonts-ttf/ttf/${f}`),
);

/** The CLDR names of `lang` (format.ts's locales), in the order d3's time locale wants them. */
function names(
  lang: Language,
  options: Intl.DateTimeFormatOptions,
  count: number,
  at: (i: number) => number,
) {
  const format = new Intl.DateTimeFormat(lang === "ro" ? "ro-RO" : "en-US", { ...options, timeZone: "UTC" });
  return Array.from({ length: count }, (_, i) => format.format(at(i)));
}
const month = (i: number) => Date.UTC(2026, i, 15);
/** 2026-11-22 is a Sunday: d3 counts the days from Sunday. */
const weekday = (i: number) => Date.UTC(2026, 10, 22 + i);

/**
 * The chart's locale for Vega (d3-format and d3-time-format definitions): the reader's decimal
 * mark and month and day names, the hyphen-minus of format.ts, a 24-hour clock.
 */
export function chartLocale(lang: Language): Locale {
  return {
    number: {
      decimal: lang === "ro" ? "," : ".",
      thousands: lang === "ro" ? "." : ",",
      grouping: [3],
      currency: ["", ""] as [string, string],
      minus: "-",
    },
    time: {
      dateTime: "%a %e %b %Y, %H:%M",
      date: "%d.%m.%Y",
      time: "%H:%M:%S",
      periods: ["AM", "PM"] as [string, string],
      days: names(lang, { weekday: "long" }, 7, weekday),
      shortDays: names(lang, { weekday: "short" }, 7, weekday),
      months: names(lang, { month: "long" }, 12, month),
      shortMonths: names(lang, { month: "short" }, 12, month),
    },
  } as Locale;
}

/**
 * The time axis's labels, by the tick's unit: format.ts's one form, "Tue 24 Nov" / "marți 24 nov."
 * (Romanian spells the weekday out: "mar." would read as March), and 24-hour times.
 */
const TIME_AXIS_FORMAT: Readonly<Record<Language, Record<string, string>>> = {
  en: {
    year: "%Y",
    quarter: "%b %Y",
    month: "%b",
    week: "%a %d %b",
    date: "%a %d %b",
    hours: "%H:%M",
    minutes: "%H:%M",
    seconds: "%H:%M:%S",
    milliseconds: "%H:%M:%S",
  },
  ro: {
    year: "%Y",
    quarter: "%b %Y",
    month: "%B",
    week: "%A %d %b",
    date: "%A %d %b",
    hours: "%H:%M",
    minutes: "%H:%M",
    seconds: "%H:%M:%S",
    milliseconds: "%H:%M:%S",
  },
};

/**
 * The vega-lite spec of one vehicle's temperature chart: a line per sensor, °C on y, every word
 * and number in the reader's language. Times are shifted to the wall clock of the reader's zone
 * and drawn on a UTC scale, so the axis shows the reader's time whatever the zone of the machine
 * that renders it.
 */
export function temperatureChartSpec(
  report: TemperatureReport,
  vehicleId: number,
  language: Language,
): TopLevelSpec {
  const m = messages(language).reports;
  const v = report.vehicles.find((x) => x.vehicle.vehicleId === vehicleId);
  if (!v) throw new Error(`vehicle ${vehicleId} is not in this temperature report`);
  const tz = report.period.timeZone;
  const values = v.series
    .filter((s) => s.kind === "temperature")
    .flatMap((s) =>
      s.points.map(([t, value]) => ({
        t: instantToWall(new Date(t), tz),
        v: value,
        sensor: m.chartSensorNumber({ sensor: String(s.sensorNumber) }),
      })),
    );
  const title = [v.vehicle.plate, v.vehicle.name].filter(Boolean).join(" — ") || `#${vehicleId}`;
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    width: CHART_WIDTH,
    height: CHART_HEIGHT,
    autosize: { type: "fit", contains: "padding" },
    padding: 12,
    background: "white",
    title: {
      text: title,
      subtitle: `${periodText(report.period.label, language)}${values.length === 0 ? m.chartNoReadings() : ""}`,
      anchor: "start",
    },
    data: { values },
    mark: { type: "line", strokeWidth: 1.5, clip: false },
    encoding: {
      x: {
        field: "t",
        type: "temporal",
        scale: { type: "utc" },
        axis: {
          title: m.chartTimeAxis({ zone: tz }),
          labelOverlap: true,
          tickCount: 8,
          format: TIME_AXIS_FORMAT[language],
        },
      },
      y: { field: "v", type: "quantitative", title: "°C", scale: { zero: false } },
      color: { field: "sensor", type: "nominal", title: m.chartSensor() },
    },
    config: { font: "DejaVu Sans", view: { stroke: null }, locale: chartLocale(language) },
  };
}

/**
 * PNG of one vehicle's temperatures (CHART_WIDTH × CHART_HEIGHT): vega-lite → Vega → SVG
 * in-process (no canvas: text is measured by Vega's estimate, identical everywhere) →
 * PNG with resvg and the DejaVu fonts only.
 */
/**
 * The chart as PNG, rendered in a worker thread that exits afterwards: vega, vega-lite and resvg
 * take about 46 MB once loaded, and a worker gives that memory back instead of keeping it for the
 * life of the bot.
 */
export function temperatureChartPng(
  report: TemperatureReport,
  vehicleId: number,
  language: Language,
): Promise<Uint8Array> {
  // From dist/ the worker is plain JS. From the sources (tests, tsx) it is TypeScript: the worker
  // registers tsx's loader first (a worker does not inherit the parent's module hooks).
  const fromSources = import.meta.url.endsWith(".ts");
  const workerUrl = new URL(`./chartWorker.${fromSources ? "ts" : "js"}`, import.meta.url);
  const workerData = { report, vehicleId, language };
  const worker = fromSources
    ? new Worker(
        `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(workerUrl.href)}); });`,
        { eval: true, workerData },
      )
    : new Worker(workerUrl, { workerData });
  return new Promise<Uint8Array>((resolve, reject) => {
    let answered = false;
    worker.once("message", (png: Uint8Array) => {
      answered = true;
      resolve(png);
    });
    worker.once("error", (error) => {
      answered = true;
      reject(error);
    });
    worker.once("exit", (code) => {
      if (!answered) reject(new Error(`the chart worker stopped (exit code ${code}) without a chart`));
    });
  });
}

/** The chart as SVG (vega-lite → Vega, no canvas): the text the PNG shows, for tests and the PNG. */
export async function temperatureChartSvg(
  report: TemperatureReport,
  vehicleId: number,
  language: Language,
): Promise<string> {
  const [vega, vegaLite] = await Promise.all([import("vega"), import("vega-lite")]);
  const vl = temperatureChartSpec(report, vehicleId, language);
  const compiled = vegaLite.compile(vl).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** Renders the chart in this thread (the worker's half of temperatureChartPng). */
export async function renderTemperatureChart(
  report: TemperatureReport,
  vehicleId: number,
  language: Language,
): Promise<Uint8Array> {
  const [svg, resvg] = await Promise.all([
    temperatureChartSvg(report, vehicleId, language),
    import("@resvg/resvg-js"),
  ]);
  const png = new resvg.Resvg(svg, {
    font: { loadSystemFonts: false, fontFiles: FONT_FILES, defaultFontFamily: "DejaVu Sans" },
    fitTo: { mode: "width", value: CHART_WIDTH },
    background: "white",
  })
    .render()
    .asPng();
  return new Uint8Array(png);
}
