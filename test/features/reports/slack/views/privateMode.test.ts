/**
 * Private mode in the Slack views, in English and Romanian: REPORT_VIEWS renders a report through
 * the domain's privacy rule (src/features/reports/privacy.ts) even when it was stored before the rule, so a
 * stored result rendered again (a page turn, a restart) shows no place either; a vehicle in private
 * mode reads 🔒 and a short phrase instead of its place.
 */
import { describe, expect, it } from "vitest";
import type {
  PositionReport,
  RefillsReport,
  ReportPeriod,
  ReportVehicle,
  RouteReport,
  StopsReport,
  VehicleListReport,
} from "../../../../../src/features/reports/index.js";
import {
  REPORT_VIEWS,
  type ReportAnswer,
} from "../../../../../src/features/reports/slack/views/reportViews.js";
import type { Language } from "../../../../../src/i18n/language.js";
import type { SlackMessage } from "../../../../../src/platform/slack/views/message.js";
import { validateMessagePayload } from "../../../../../src/sandbox/fakeSlack/limits.js";

const ZONE = "Europe/Bucharest";
const NOW = Date.UTC(2026, 10, 3, 12, 0);
const PERIOD: ReportPeriod = {
  fromMs: Date.UTC(2026, 10, 1, 22, 0),
  toMs: Date.UTC(2026, 10, 2, 22, 0),
  label: { kind: "yesterday", day: Date.UTC(2026, 10, 2), year: 2026 },
  timeZone: ZONE,
};
const TRUCK: ReportVehicle = { vehicleId: 1, plate: "B-12-ABC", name: "Volvo FH" };
const PRIVATE: ReportVehicle = { ...TRUCK, isPrivate: true };
const ADDRESS = "Strada Privată 7, Sinaia";
/** Every place the stored reports below hold, in the forms a view or file would write them. */
const PLACES = [ADDRESS, "Sinaia", "45.35", "45,35", "25.55", "25,55", "openstreetmap", "OMV"];

const context = (language: Language) => ({
  page: 0,
  pageToken: "task-1",
  nowMs: NOW,
  language,
  options: { companyTimeZone: ZONE },
});

function textOf(message: SlackMessage): string {
  const out: string[] = [message.text];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) {
        if (key === "text" && typeof inner === "string") out.push(inner);
        else walk(inner);
      }
    }
  };
  walk(message.blocks);
  return out.join("\n");
}

async function shown(answer: ReportAnswer | Promise<ReportAnswer>): Promise<{ text: string; files: string }> {
  const { message, files } = await answer;
  expect(validateMessagePayload(message)).toEqual([]);
  return { text: textOf(message), files: files.map((f) => String(f.content)).join("\n") };
}

const leaked = (text: string) => PLACES.filter((p) => text.includes(p));

/** A position as a task stored it before private mode was respected: flagged, with its place. */
const storedPosition: PositionReport = {
  vehicle: TRUCK,
  latitude: 45.3507,
  longitude: 25.5512,
  address: ADDRESS,
  mapUrl: "https://www.openstreetmap.org/?mlat=45.350700&mlon=25.551200#map=15/45.350700/25.551200",
  speedKmh: 88,
  courseDeg: 12,
  engine: "on",
  gpsAtMs: NOW - 5 * 60_000,
  isPrivate: true,
};

const WORDS = {
  en: {
    phrase: "🔒 in private mode",
    mode: "*Private mode*\n🔒 on",
    notice: "🔒 This vehicle is in private mode",
  },
  ro: {
    phrase: "🔒 în mod privat",
    mode: "*Mod privat*\n🔒 activ",
    notice: "🔒 Vehiculul e în mod privat",
  },
} as const;

describe.each(["en", "ro"] as const)("private mode, %s", (language) => {
  const words = WORDS[language];

  it("where: 🔒 and the phrase instead of the place; no address, map link, speed or heading", async () => {
    const { text } = await shown(REPORT_VIEWS.where.render(storedPosition, context(language)));
    expect(text).toContain(words.phrase);
    expect(text).toContain(words.mode);
    expect(text).not.toMatch(/km\/h|88|12°/);
    expect(leaked(text)).toEqual([]);
  });

  it("vehicles: the private vehicle's line reads 🔒 and the phrase, the others keep their place", async () => {
    const list: VehicleListReport = {
      total: 2,
      fleetTotal: 2,
      atMs: NOW,
      items: [
        storedPosition,
        {
          ...storedPosition,
          vehicle: { ...TRUCK, vehicleId: 2, plate: "B-99-XYZ" },
          address: "Depozit Ploiești",
          isPrivate: false,
        },
      ],
    };
    const { text } = await shown(REPORT_VIEWS.vehicles.render(list, context(language)));
    const [privateLine, workLine] = text.split("*B-99-XYZ*");
    expect(privateLine).toContain(words.phrase);
    expect(leaked(privateLine!)).toEqual([]);
    expect(workLine).toContain("Depozit Ploiești");
  });

  it("stops: a private stop and every stop of a vehicle in private mode without a place, in Slack and the CSV", async () => {
    const stop = {
      startMs: PERIOD.fromMs + 3_600_000,
      endMs: PERIOD.fromMs + 7_200_000,
      durationMinutes: 60,
      address: ADDRESS,
      hotSpot: "OMV Sinaia",
      latitude: 45.3507,
      longitude: 25.5512,
      drivers: ["Ion Popescu"],
      isPrivate: false,
    };
    const stored: StopsReport = {
      period: PERIOD,
      minMinutes: 5,
      totalStops: 2,
      vehicles: [
        { vehicle: TRUCK, totalStopMinutes: 60, stops: [{ ...stop, isPrivate: true }] },
        { vehicle: { ...PRIVATE, vehicleId: 2, plate: "B-99-XYZ" }, totalStopMinutes: 60, stops: [stop] },
      ],
    };
    const { text, files } = await shown(REPORT_VIEWS.stops.render(stored, context(language)));
    expect(text).toContain(words.phrase); // the vehicle in private mode
    expect(text).toContain("Ion Popescu");
    expect(text).toContain("*1 h*");
    expect(leaked(text)).toEqual([]);
    expect(leaked(files)).toEqual([]);
  });

  it("refills: litres kept, no location; a vehicle in private mode says why", async () => {
    const stored: RefillsReport = {
      vehicle: PRIVATE,
      period: PERIOD,
      events: [
        {
          atMs: PERIOD.fromMs + 3_600_000,
          dateText: "2026-11-02T01:00:00",
          kind: "Fueling",
          location: "OMV Sinaia",
          litres: 40,
          isPrivate: false,
          secondary: false,
          theft: false,
        },
      ],
      totals: { primary: { refilled: 40 } },
      refillCount: 1,
      theftCount: 0,
    };
    const { text, files } = await shown(REPORT_VIEWS.refills.render(stored, context(language)));
    expect(text).toContain(words.notice);
    expect(text).toMatch(/40[.,]0 l/);
    expect(leaked(text)).toEqual([]);
    expect(leaked(files)).toEqual([]);
  });

  it("route: withheld for a vehicle in private mode, with no GPX or CSV file", async () => {
    const stored: RouteReport = {
      vehicle: PRIVATE,
      period: PERIOD,
      points: [{ atMs: PERIOD.fromMs + 3_600_000, lat: 45.3507, lon: 25.5512, speed: 50 }],
      distanceKm: 12,
      maxSpeedKmh: 50,
      movingMinutes: 10,
    };
    const answer = await REPORT_VIEWS.route.render(stored, context(language));
    const { text } = await shown(answer);
    expect(text).toContain(words.notice);
    expect(answer.files).toEqual([]);
    expect(leaked(text)).toEqual([]);
  });
});
