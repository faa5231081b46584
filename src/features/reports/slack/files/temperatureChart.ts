/**
 * The temperature chart of one vehicle: a vega-lite spec with every word and number in the
 * reader's language → SVG → PNG (rendered away from the bot's memory by chartWorker.ts).
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { Locale } from "vega";
import type { TopLevelSpec } from "vega-lite";
import { messages } from "../../../../i18n/catalogue.js";
import type { Language } from "../../../../i18n/language.js";
import { periodText } from "../../../../i18n/periodText.js";
import { instantToWall } from "../../../../platform/time/zone.js";
import type { TemperatureReport } from "../../temperatures.js";

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
 * The time axis's labels, by the tick's unit: format.ts's one form, "Tue 24 Nov" / "marți, 24 nov."
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
