/**
 * The temperature chart in the reader's language: title, axes, legend, the time axis's month and
 * day names and the numbers (in-process SVG: the text the PNG shows).
 */
import { describe, expect, it } from "vitest";
import type { TemperatureReport } from "../../../../../src/features/reports/index.js";
import { temperaturesCsv } from "../../../../../src/features/reports/slack/files/reportCsv.js";
import {
  chartLocale,
  temperatureChartSvg,
} from "../../../../../src/features/reports/slack/files/temperatureChart.js";

const DAY = 86_400_000;
const FROM = Date.UTC(2026, 10, 22, 22); // Mon 23 Nov 2026, 00:00 in Bucharest
const report: TemperatureReport = {
  period: {
    fromMs: FROM,
    toMs: FROM + 3 * DAY,
    label: { kind: "lastDays", count: 3 },
    timeZone: "Europe/Bucharest",
  },
  vehicles: [
    {
      vehicle: { vehicleId: 1, plate: "B-1-FRG", name: "Frigorific" },
      sensors: [
        {
          sensorNumber: 1,
          kind: "temperature",
          min: -18.5,
          avg: -17.25,
          max: -16,
          count: 3,
          firstAtMs: FROM,
          lastAtMs: FROM + DAY,
          excursions: 2,
          range: { min: -20, max: -16.5 },
        },
      ],
      series: [
        {
          sensorNumber: 1,
          kind: "temperature",
          points: Array.from(
            { length: 60 },
            (_, i) => [FROM + i * 72 * 60_000, -18.5 + (i % 7) / 4] as [number, number],
          ),
        },
      ],
    },
  ],
};

/** Every text of the SVG. */
const textsOf = (svg: string): string[] =>
  [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1] ?? "");

describe("the temperature chart's words", () => {
  it("are Romanian for a Romanian reader: axis, legend, period, day names, decimal commas", async () => {
    const texts = textsOf(await temperatureChartSvg(report, 1, "ro"));
    const all = texts.join(" | ");
    expect(all).toContain("Ora (Europe/Bucharest)");
    expect(all).toContain("Senzor 1");
    expect(all).toContain("Senzor");
    expect(all).toContain("ultimele 3 zile");
    // The time axis names Romanian days (weekday spelled out) and months.
    expect(all).toMatch(/(luni|marți|miercuri|joi) \d\d nov\./);
    expect(all).not.toMatch(/\b(Mon|Tue|Wed|Thu|Nov)\b/);
    // The temperature axis writes a decimal comma, and a hyphen-minus.
    expect(texts.some((t) => /^-1[6-8],\d$/.test(t))).toBe(true);
    expect(all).not.toMatch(/-1[6-8]\.\d/);
    expect(all).not.toContain("\u2212");
  });

  it("stay English for an English reader, with the one date form and a 24-hour clock", async () => {
    const texts = textsOf(await temperatureChartSvg(report, 1, "en"));
    const all = texts.join(" | ");
    expect(all).toContain("Time (Europe/Bucharest)");
    expect(all).toContain("Sensor 1");
    expect(all).toContain("last 3 days");
    expect(all).toMatch(/(Mon|Tue|Wed|Thu) \d\d Nov/);
    expect(all).not.toMatch(/\b(AM|PM)\b/);
    expect(texts.some((t) => /^-1[6-8]\.\d$/.test(t))).toBe(true);
  });

  it("has CLDR's names in the chart locale", () => {
    const ro = chartLocale("ro");
    expect(ro.time?.days).toEqual(["duminică", "luni", "marți", "miercuri", "joi", "vineri", "sâmbătă"]);
    expect(ro.time?.shortMonths[10]).toBe("nov.");
    expect(ro.number?.decimal).toBe(",");
    expect(chartLocale("en").time?.shortMonths[10]).toBe("Nov");
  });

  it("says when there are no readings, in the reader's language", async () => {
    const empty: TemperatureReport = {
      ...report,
      vehicles: [{ vehicle: { vehicleId: 2, plate: "B-2", name: "" }, sensors: [], series: [] }],
    };
    expect(textsOf(await temperatureChartSvg(empty, 2, "ro")).join(" ")).toContain(
      "nicio citire de temperatură",
    );
    expect(textsOf(await temperatureChartSvg(empty, 2, "en")).join(" ")).toContain("no temperature readings");
  });
});

describe("the temperature CSV", () => {
  it("is Romanian for a Romanian reader: headers, ';', decimal commas, kinds", () => {
    const [header, row] = temperaturesCsv(report, "ro").replace("\uFEFF", "").split("\r\n");
    expect(header).toBe(
      "Nr. de înmatriculare;Vehicul;Tip;Senzor;Minim;Medie;Maxim;Citiri;Prima citire;Ultima citire;Ieșiri din interval",
    );
    expect(row).toBe(
      "B-1-FRG;Frigorific;temperatură;1;-18,5;-17,25;-16;3;23.11.2026 00:00:00;24.11.2026 00:00:00;2",
    );
  });

  it("is as before for an English reader", () => {
    const [header, row] = temperaturesCsv(report, "en").replace("\uFEFF", "").split("\r\n");
    expect(header).toBe("plate,vehicle,kind,sensor,min,avg,max,readings,first,last,excursions");
    expect(row).toBe(
      "B-1-FRG,Frigorific,temperature,1,-18.5,-17.25,-16,3,2026-11-23T00:00:00+02:00,2026-11-24T00:00:00+02:00,2",
    );
  });
});
