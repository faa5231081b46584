/**
 * The report views in both languages: every word from the `reports` catalogue, numbers, litres,
 * km, consumption, temperatures, durations and dates in format.ts's one form, plurals by CLDR
 * (1 / 2 / 20: "oprire", "opriri", "de opriri"), and the files a report sends.
 */
import { describe, expect, it } from "vitest";
import { parseFleetCommand } from "../../../../../src/commands/index.js";
import type {
  FuelFigures,
  FuelReport,
  PositionReport,
  RefillsReport,
  ReportPeriod,
  ReportVehicle,
  RouteReport,
  StopItem,
  StopsReport,
  TemperatureReport,
  VehicleListReport,
} from "../../../../../src/features/reports/index.js";
import { unresolvedVehicles } from "../../../../../src/features/reports/slack/listeners.js";
import { fuelMessage } from "../../../../../src/features/reports/slack/views/fuel.js";
import {
  positionCard,
  vehicleListMessage,
} from "../../../../../src/features/reports/slack/views/positions.js";
import { refillsMessage } from "../../../../../src/features/reports/slack/views/refills.js";
import { reportModal } from "../../../../../src/features/reports/slack/views/reportModal.js";
import {
  modalReportChoices,
  REPORT_VIEWS,
} from "../../../../../src/features/reports/slack/views/reportViews.js";
import { resolutionMessage } from "../../../../../src/features/reports/slack/views/resolution.js";
import { routeMessage } from "../../../../../src/features/reports/slack/views/route.js";
import { stopsMessage } from "../../../../../src/features/reports/slack/views/stops.js";
import {
  noReadingsLine,
  temperatureMessage,
} from "../../../../../src/features/reports/slack/views/temperatures.js";
import { periodMrkdwn } from "../../../../../src/features/reports/slack/views/vehicleFormat.js";
import type { Language } from "../../../../../src/i18n/language.js";
import { fleetSchemas } from "../../../../../src/platform/fleet/schemas.js";
import type { SlackMessage } from "../../../../../src/platform/slack/views/message.js";
import { validateMessagePayload } from "../../../../../src/sandbox/fakeSlack/limits.js";

const ZONE = "Europe/Bucharest";
const HOUR = 3_600_000;
/** Tue 3 Nov 2026, 14:00 in Bucharest. */
const NOW = Date.UTC(2026, 10, 3, 12, 0);
/** Mon 2 Nov 2026, 00:00 – Tue 3 Nov 2026, 00:00 in Bucharest. */
const PERIOD: ReportPeriod = {
  fromMs: Date.UTC(2026, 10, 1, 22),
  toMs: Date.UTC(2026, 10, 2, 22),
  label: { kind: "yesterday", day: Date.UTC(2026, 10, 2), year: 2026 },
  timeZone: ZONE,
};
const TOKEN = "task-1";
const TRUCK: ReportVehicle = { vehicleId: 1, plate: "B-12-ABC", name: "Volvo FH" };

const opts = (language: Language) => ({ language, companyTimeZone: ZONE, timeZone: ZONE, nowMs: NOW });

/** Every text a reader sees: the notification text and every text of the blocks. */
function textOf(message: SlackMessage): string {
  const out: string[] = [message.text];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === "object" && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        if (key === "text" && typeof inner === "string") out.push(inner);
        else walk(inner);
      }
    }
  };
  walk(message.blocks);
  return out.join("\n");
}

function valid(message: SlackMessage): SlackMessage {
  expect(validateMessagePayload(message)).toEqual([]);
  return message;
}

/** No English word of the views left in a Romanian answer. */
const ENGLISH =
  /\b(stops?|vehicles?|Fuel|Refuel\w*|Temperature|readings?|Position|Speed|Engine|engine|Distance|page|Previous|Next|ago|more|in total|period|attached|report)\b/;

const position: PositionReport = {
  vehicle: TRUCK,
  latitude: 44.43,
  longitude: 26.1,
  address: "Strada Ștefan cel Mare 1, București",
  speedKmh: 1234.4,
  courseDeg: 90,
  engine: "on",
  gpsAtMs: NOW - 47 * 60_000,
  // Not in private mode: a private vehicle's card has no place (test/features/reports/slack/views/privateMode.test.ts).
  isPrivate: false,
};

describe("positionCard", () => {
  it("Romanian: words, decimal separators, the Romanian date and the age as text", () => {
    const text = textOf(valid(positionCard(position, NOW, opts("ro"))));
    expect(text).toContain("*Poziție*");
    expect(text).toContain("*Viteză*\n1.234 km/h · direcție 90°");
    expect(text).toContain("🟢 motor pornit");
    expect(text).toContain("*Ultima poziție GPS*\n<!date^");
    expect(text).toContain("^{date_num} {time}|marți, 3 nov., 13:13> (acum 47 min)");
    expect(text).not.toContain("{ago}");
    expect(text).toContain("🔄 Actualizează");
    expect(text).toContain("Orele de pe platforma GPS sunt ora locală a firmei (Europe/Bucharest)");
    expect(text).not.toMatch(ENGLISH);
  });

  it("English: the words as before, numbers and dates in the one form", () => {
    const text = textOf(valid(positionCard(position, NOW, opts("en"))));
    expect(text).toContain("*Speed*\n1,234 km/h · heading 90°");
    expect(text).toContain("🟢 engine on");
    expect(text).toContain("^{date_short_pretty} {time}|Tue 3 Nov, 13:13> (<!date^");
    expect(text).toContain("^{ago}|47 min ago>)");
    expect(text).toContain("🔄 Refresh");
  });

  it("a position under a minute old is 'just now' / 'chiar acum', not '0 s ago'", () => {
    const fresh = { ...position, gpsAtMs: NOW - 20_000 };
    expect(textOf(positionCard(fresh, NOW, opts("ro")))).toContain("(chiar acum)");
    expect(textOf(positionCard(fresh, NOW, opts("en")))).toContain("^{ago}|just now>)");
  });
});

describe("vehicleListMessage", () => {
  const list = (n: number, filter?: string): VehicleListReport => ({
    ...(filter !== undefined ? { filter } : {}),
    total: n,
    fleetTotal: 20,
    atMs: NOW,
    items: Array.from({ length: n }, (_, i) => ({
      ...position,
      vehicle: { ...TRUCK, vehicleId: i, plate: `B-${i}-ABC` },
      gpsAtMs: undefined,
      speedKmh: 62.6,
      engine: "off" as const,
      isPrivate: false,
    })),
  });

  it("Romanian: counts with CLDR plurals, pages, the position button", () => {
    expect(textOf(vehicleListMessage(list(1), 0, TOKEN, opts("ro")))).toContain("*1* vehicul");
    expect(textOf(vehicleListMessage(list(2), 0, TOKEN, opts("ro")))).toContain("*2* vehicule");
    const twenty = valid(vehicleListMessage(list(20), 0, TOKEN, opts("ro")));
    const text = textOf(twenty);
    expect(text).toContain("*20* de vehicule · la <!date^");
    expect(text).toContain("|marți, 3 nov., 14:00> · pagina 1/2");
    expect(text).toContain("63 km/h · ⚪ motor oprit · fără ora GPS");
    expect(text).toContain("Următoarea (2/2) ▶");
    expect(text).toContain("Poziție");
    expect(text).not.toMatch(ENGLISH);
    const filtered = textOf(vehicleListMessage(list(2, "volvo"), 0, TOKEN, opts("ro")));
    expect(filtered).toContain("🚚 Vehicule care se potrivesc cu „volvo”");
    expect(filtered).toContain("*2* din 20 de vehicule");
    expect(textOf(vehicleListMessage(list(0, "x"), 0, TOKEN, opts("ro")))).toContain(
      "Niciun vehicul nu se potrivește cu „x”",
    );
  });

  it("English: as before", () => {
    const text = textOf(vehicleListMessage(list(20), 0, TOKEN, opts("en")));
    expect(text).toContain("*20* vehicles · as of <!date^");
    expect(text).toContain("page 1/2");
    expect(text).toContain("Next (2/2) ▶");
    expect(text).toContain("63 km/h · ⚪ engine off · no GPS time");
  });
});

describe("routeMessage", () => {
  const route: RouteReport = {
    vehicle: TRUCK,
    period: PERIOD,
    points: Array.from({ length: 1500 }, (_, i) => ({
      atMs: PERIOD.fromMs + 8 * HOUR + i * 20_000,
      lat: 44.4 + i / 10_000,
      lon: 26.1,
      speed: 80,
    })),
    distanceKm: 1234.56,
    maxSpeedKmh: 91.6,
    movingMinutes: 7 * 60 + 47.2,
    firstAtMs: PERIOD.fromMs + 8 * HOUR,
    lastAtMs: PERIOD.fromMs + 16 * HOUR,
  };

  it("Romanian: km, duration, points and dates in the one form", () => {
    const text = textOf(valid(routeMessage(route, opts("ro"))));
    expect(text).toContain("🗺️ Traseu — B-12-ABC — Volvo FH");
    expect(text).toContain("ieri (luni, 2 nov.) (<!date^");
    expect(text).toContain("*Distanță*\n1.234,6 km");
    expect(text).toContain("*Timp în mișcare*\n7 h 47 min");
    expect(text).toContain("*Viteză maximă*\n92 km/h");
    expect(text).toContain("*Puncte GPS*\n1.500");
    expect(text).toContain("*Prima poziție*\n<!date^");
    expect(text).toContain("|luni, 2 nov., 08:00>");
    expect(text).toContain("B-12-ABC — Volvo FH: 1.234,6 km · ieri (luni, 2 nov.)");
    expect(text).toContain("fișierele GPX (pentru hărți) și CSV atașate");
    expect(text).not.toMatch(ENGLISH);
    expect(textOf(routeMessage({ ...route, points: [] }, opts("ro")))).toContain(
      "Nicio poziție înregistrată pentru acest vehicul în această perioadă.",
    );
  });

  it("English: the one form of numbers and durations", () => {
    const text = textOf(routeMessage(route, opts("en")));
    expect(text).toContain("*Distance*\n1,234.6 km");
    expect(text).toContain("*Moving time*\n7 h 47 min");
    expect(text).toContain("*GPS points*\n1,500");
    expect(text).toContain("yesterday (Mon 2 Nov) (<!date^");
  });
});

describe("stopsMessage", () => {
  const stop = (i: number): StopItem => ({
    startMs: PERIOD.fromMs + 6 * HOUR + i * 30 * 60_000,
    endMs: PERIOD.fromMs + 6 * HOUR + i * 30 * 60_000 + 25 * 60_000,
    durationMinutes: 25,
    engineOnMinutes: 3,
    address: `Strada ${i}`,
    drivers: [],
    isPrivate: i === 0,
  });
  const report = (perVehicle: number[]): StopsReport => {
    const vehicles = perVehicle.map((n, v) => ({
      vehicle: { ...TRUCK, vehicleId: v, plate: `B-${v}-ABC` },
      stops: Array.from({ length: n }, (_, i) => stop(i)),
      totalStopMinutes: n * 25,
    }));
    return {
      period: PERIOD,
      minMinutes: 5,
      vehicles,
      totalStops: perVehicle.reduce((a, b) => a + b, 0),
    };
  };

  it("Romanian plurals: 1 oprire, 2 opriri, 20 de opriri; vehicles too", () => {
    expect(textOf(stopsMessage(report([1]), 0, TOKEN, opts("ro")))).toContain(
      "*1* oprire la 1 vehicul · de cel puțin 5 min",
    );
    expect(textOf(stopsMessage(report([1]), 0, TOKEN, opts("ro")))).toContain("1 oprire, 25 min în total");
    expect(textOf(stopsMessage(report([1, 1]), 0, TOKEN, opts("ro")))).toContain("*2* opriri la 2 vehicule");
    const twenty = textOf(valid(stopsMessage(report([20]), 0, TOKEN, opts("ro"))));
    expect(twenty).toContain("*20* de opriri la 1 vehicul");
    expect(twenty).toContain("20 de opriri, 8 h 20 min în total");
    expect(twenty).toContain("20 de opriri · ieri (luni, 2 nov.)");
  });

  it("Romanian: header, lines, times and words", () => {
    const text = textOf(valid(stopsMessage(report([2]), 0, TOKEN, opts("ro"))));
    expect(text).toContain("🅿️ Opriri — ieri (luni, 2 nov.)");
    // the period line: two instants in Romanian, Slack's numeric tokens
    expect(text).toMatch(
      /<!date\^\d+\^\{date_num\} \{time\}\|luni, 2 nov\., 00:00> – <!date\^\d+\^\{date_num\} \{time\}\|marți, 3 nov\., 00:00>/,
    );
    // a stop: its start as date and time, its end (same day) as the time only
    expect(text).toContain("|luni, 2 nov., 06:00> – <!date^");
    expect(text).toContain("^{time}|06:25> *25 min* · motor pornit 3 min · Strada 0 · 🔒 privat");
    expect(text).toContain("Toate opririle sunt în fișierul CSV atașat.");
    expect(text).not.toMatch(ENGLISH);
    expect(textOf(stopsMessage(report([0]), 0, TOKEN, opts("ro")))).toContain(
      "Nicio oprire în această perioadă.",
    );
    const cut: StopsReport = {
      ...report([1]),
      vehicles: [
        {
          ...report([1]).vehicles[0]!,
          stops: [{ ...stop(0), beganBeforePeriod: true, lastedToPeriodEnd: true }],
        },
      ],
    };
    expect(textOf(stopsMessage(cut, 0, TOKEN, opts("ro")))).toContain(
      "_(de dinainte de perioadă, încă oprit la sfârșitul perioadei)_",
    );
  });

  it("English: the plurals and the one form", () => {
    expect(textOf(stopsMessage(report([1]), 0, TOKEN, opts("en")))).toContain(
      "*1* stop of 1 vehicle · at least 5 min",
    );
    expect(textOf(stopsMessage(report([20]), 0, TOKEN, opts("en")))).toContain(
      "20 stops, 8 h 20 min in total",
    );
    expect(textOf(stopsMessage(report([2]), 0, TOKEN, opts("en")))).toContain(
      "^{time}|06:25> *25 min* · engine on 3 min · Strada 0 · 🔒 private",
    );
  });
});

describe("fuelMessage", () => {
  const figures = (km: number, hours: number, litres: number, l100: number): FuelFigures => ({
    distanceKm: km,
    hoursText: "",
    hoursSeconds: hours * 3600,
    litres,
    l100,
  });
  const row = (i: number, secondary: boolean) => ({
    vehicleId: i,
    plate: `B-${i}-ABC`,
    name: "",
    primary: figures(1000, 12.5, 300, 30),
    ...(secondary ? { secondary: figures(500, 6, 50, 10) } : {}),
    total: figures(1500, 18.5, 350, 20),
  });
  const report = (n: number): FuelReport => ({
    period: PERIOD,
    rows: Array.from({ length: n }, (_, i) => row(i, i === 0)),
    fleet: figures(1234.5, 17.78, 1234.5, 7.84),
    hasSecondary: true,
    withoutData: [{ ...TRUCK, plate: "B-99-NOD" }],
  });

  it("Romanian: litres, km, l/100 km and durations with decimal commas; LPG marked", () => {
    const text = textOf(valid(fuelMessage(report(20), 0, TOKEN, opts("ro"))));
    expect(text).toContain("⛽ Consum de combustibil — ieri (luni, 2 nov.)");
    expect(text).toContain("*20* de vehicule · pagina 1/2");
    expect(text).toContain("*Total flotă*: 1.234,5 km · 17 h 47 min · 1.234,5 l · 7,8 l/100 km");
    expect(text).toContain("⛽ Sursa principală: 1.000,0 km · 12 h 30 min · 300,0 l · 30,0 l/100 km");
    expect(text).toContain("🟦 *Sursa secundară (GPL)*: 500,0 km · 6 h · 50,0 l · 10,0 l/100 km");
    expect(text).toContain("*Total (ambele surse)*: 1.500,0 km");
    expect(text).toContain("Fără date de consum pentru: B-99-NOD");
    expect(text).toContain("Combustibil ieri (luni, 2 nov.): 1.234,5 l pe 1.234,5 km");
    expect(text).not.toMatch(ENGLISH);
    expect(textOf(fuelMessage(report(1), 0, TOKEN, opts("ro")))).toContain("*1* vehicul");
    expect(textOf(fuelMessage(report(2), 0, TOKEN, opts("ro")))).toContain("*2* vehicule");
  });

  it("a vehicle that did not move says so, and litres over no distance have no l/100 km", () => {
    const still = (i: number, figures: FuelFigures) => ({
      vehicleId: i,
      plate: `B-${i}-STA`,
      name: "",
      primary: figures,
      total: figures,
    });
    const idle: FuelReport = {
      ...report(0),
      rows: [still(1, figures(0, 0, 0, 0)), still(2, figures(0, 1.5, 4.2, 0))],
    };
    const en = textOf(fuelMessage(idle, 0, TOKEN, opts("en")));
    expect(en).toContain("*B-1-STA*\ndid not move in this period");
    expect(en).toContain("*B-2-STA*\n0.0 km · 1 h 30 min · 4.2 l · –");
    const ro = textOf(fuelMessage(idle, 0, TOKEN, opts("ro")));
    expect(ro).toContain("*B-1-STA*\nnu s-a deplasat în această perioadă");
    expect(ro).toContain("*B-2-STA*\n0,0 km · 1 h 30 min · 4,2 l · –");
    expect(`${en}${ro}`).not.toMatch(/ 0 s|0[.,]0 l\/100 km/);
  });

  it("English: the one form replaces 4:22:12 h", () => {
    const text = textOf(fuelMessage(report(2), 0, TOKEN, opts("en")));
    expect(text).toContain("*Fleet total*: 1,234.5 km · 17 h 47 min · 1,234.5 l · 7.8 l/100 km");
    expect(text).toContain("*2* vehicles");
    expect(text).toContain("Fuel yesterday (Mon 2 Nov): 1,234.5 l over 1,234.5 km");
  });
});

describe("refillsMessage", () => {
  const report = (thefts: number, refills: number): RefillsReport => ({
    vehicle: TRUCK,
    period: PERIOD,
    events: [
      ...Array.from({ length: refills }, (_, i) => ({
        atMs: PERIOD.fromMs + HOUR * (1 + (i % 20)),
        dateText: "",
        kind: "Fueling",
        location: "OMV Pitești",
        litres: 312.25,
        isPrivate: false,
        secondary: i === 0,
        theft: false,
      })),
      ...Array.from({ length: thefts }, () => ({
        atMs: PERIOD.fromMs + 21 * HOUR,
        dateText: "",
        kind: "PossibleFuelTheft",
        location: "",
        litres: 40.5,
        isPrivate: true,
        secondary: false,
        theft: true,
      })),
    ],
    totals: {
      primary: { start: 100, refilled: 1234.5, possibleTheft: 40.5, remaining: 80, consumed: 1200 },
      secondary: { refilled: 30 },
    },
    refillCount: refills,
    theftCount: thefts,
  });

  it("Romanian plurals of thefts and events; litres with a decimal comma", () => {
    expect(textOf(refillsMessage(report(1, 1), opts("ro")))).toContain(
      "⚠️ *1 posibil furt de combustibil* în această perioadă",
    );
    expect(textOf(refillsMessage(report(2, 1), opts("ro")))).toContain(
      "⚠️ *2 posibile furturi de combustibil*",
    );
    const text = textOf(valid(refillsMessage(report(20, 60), opts("ro"))));
    expect(text).toContain("⚠️ *20 de posibile furturi de combustibil*");
    expect(text).toContain("⛽ Alimentări — B-12-ABC — Volvo FH");
    expect(text).toContain("*Alimentat*\n1.234,5 l");
    expect(text).toContain("*Alimentat (GPL)*\n30,0 l");
    expect(text).toContain("*Combustibil la început (GPL)*\n—");
    expect(text).toContain("⚠️ *Posibil furt de combustibil*: *40,5 l* · 🔒 privat");
    expect(text).toContain(
      "|luni, 2 nov., 01:00> · ⛽ Alimentare (sursă secundară, GPL): 312,3 l · OMV Pitești",
    );
    expect(text).toContain("Încă 40 de evenimente în fișierul CSV atașat.");
    expect(text).toContain("B-12-ABC — Volvo FH: 60 de alimentări, ⚠️ 20 de posibile furturi");
    expect(text).not.toMatch(ENGLISH);
    expect(textOf(refillsMessage(report(0, 0), opts("ro")))).toContain(
      "Nicio alimentare și nicio scădere de combustibil în această perioadă.",
    );
  });

  it("English: as before, litres in the one form", () => {
    const text = textOf(refillsMessage(report(20, 60), opts("en")));
    expect(text).toContain("⚠️ *20 possible fuel thefts*");
    expect(text).toContain("*Refuelled*\n1,234.5 l");
    expect(text).toContain("40 more events in the attached CSV.");
    expect(textOf(refillsMessage(report(1, 0), opts("en")))).toContain("⚠️ *1 possible fuel theft*");
  });
});

describe("temperatureMessage", () => {
  const sensorVehicle = (i: number) => ({
    vehicle: { ...TRUCK, vehicleId: i, plate: `B-${i}-FRG` },
    sensors: [
      {
        sensorNumber: 1,
        kind: "temperature" as const,
        min: -18.5,
        avg: -17.25,
        max: -16,
        count: 1234,
        firstAtMs: NOW,
        lastAtMs: NOW,
        excursions: i === 0 ? 1 : 20,
        range: { min: -20, max: -16.5 },
      },
      {
        sensorNumber: 1,
        kind: "humidity" as const,
        min: 80,
        avg: 81.55,
        max: 83,
        count: 2,
        firstAtMs: NOW,
        lastAtMs: NOW,
      },
    ],
    series: [],
  });
  const empty = (i: number) => ({
    vehicle: { ...TRUCK, vehicleId: 100 + i, plate: `B-${100 + i}-XYZ` },
    sensors: [],
    series: [],
  });
  const report = (withSensors: number, without: number): TemperatureReport => ({
    period: PERIOD,
    vehicles: [
      ...Array.from({ length: withSensors }, (_, i) => sensorVehicle(i)),
      ...Array.from({ length: without }, (_, i) => empty(i)),
    ],
  });

  it("Romanian: temperatures and humidity with decimal commas, excursions and readings counted", () => {
    const text = textOf(valid(temperatureMessage(report(2, 0), 0, TOKEN, opts("ro"))));
    expect(text).toContain("🌡️ Temperaturi — ieri (luni, 2 nov.)");
    expect(text).toContain(
      "🌡️ Senzor de temperatură 1: min. -18,5 °C · medie -17,3 °C · max. -16,0 °C · 1.234 de citiri · ⚠️ 1 ieșire din intervalul -20…-16,5 °C",
    );
    expect(text).toContain("⚠️ 20 de ieșiri din intervalul");
    expect(text).toContain("💧 Senzor de umiditate 1: min. 80,0 % · medie 81,6 % · max. 83,0 % · 2 citiri");
    expect(text).toContain("Graficele temperaturilor sunt atașate.");
    expect(text).toContain("Temperaturi · ieri (luni, 2 nov.): 4 senzori pe 2 vehicule");
    expect(text).not.toMatch(ENGLISH);
  });

  it("Romanian: the vehicles without readings in one line, with plurals", () => {
    expect(noReadingsLine(report(0, 1).vehicles, "ro")).toBe(
      "*1 vehicul nu are citiri de temperatură în această perioadă:* B-100-XYZ.",
    );
    expect(noReadingsLine(report(0, 2).vehicles, "ro")).toMatch(/^\*2 vehicule nu au citiri/);
    expect(noReadingsLine(report(0, 20).vehicles, "ro")).toMatch(/^\*20 de vehicule nu au citiri/);
    const many = noReadingsLine(report(0, 1500).vehicles, "ro") ?? "";
    expect(many).toMatch(/^\*1\.500 de vehicule nu au citiri/);
    expect(many).toMatch(/ și încă 1\.\d{3}\.$/);
    const alone = textOf(temperatureMessage(report(21, 0), 0, undefined, opts("ro")));
    expect(alone).toContain("Încă 11 vehicule nu sunt afișate aici.");
    expect(textOf(temperatureMessage(report(0, 0), 0, TOKEN, opts("ro")))).toContain(
      "Niciun vehicul cu senzori de temperatură în această cerere.",
    );
  });

  it("English: as before, the numbers in the one form", () => {
    const text = textOf(temperatureMessage(report(1, 0), 0, TOKEN, opts("en")));
    expect(text).toContain(
      "🌡️ Temperature sensor 1: min -18.5 °C · avg -17.3 °C · max -16.0 °C · 1,234 readings · ⚠️ 1 excursion outside -20…-16.5 °C",
    );
    expect(noReadingsLine(report(0, 1).vehicles, "en")).toBe(
      "*1 vehicle has no temperature readings in this period:* B-100-XYZ.",
    );
  });
});

describe("the period line", () => {
  it("writes the label and both instants in the reader's language", () => {
    expect(periodMrkdwn(PERIOD, { language: "ro" })).toMatch(
      /^ieri \(luni, 2 nov\.\) \(<!date\^\d+\^\{date_num\} \{time\}\|luni, 2 nov\., 00:00> – <!date\^\d+\^\{date_num\} \{time\}\|marți, 3 nov\., 00:00>\)$/,
    );
    expect(periodMrkdwn(PERIOD, { language: "en" })).toMatch(
      /^yesterday \(Mon 2 Nov\) \(<!date\^\d+\^\{date_short_pretty\} \{time\}\|Mon 2 Nov, 00:00> – /,
    );
  });
});

describe("REPORT_VIEWS", () => {
  const context = (language: Language) => ({
    page: 0,
    pageToken: TOKEN,
    nowMs: NOW,
    language,
    options: { companyTimeZone: ZONE },
  });
  const stops: StopsReport = {
    period: PERIOD,
    minMinutes: 5,
    totalStops: 1,
    vehicles: [
      {
        vehicle: TRUCK,
        totalStopMinutes: 25,
        stops: [
          {
            startMs: PERIOD.fromMs + HOUR,
            endMs: PERIOD.fromMs + HOUR + 25 * 60_000,
            durationMinutes: 25.5,
            address: "Strada 1, Cluj",
            latitude: 46.77,
            longitude: 23.6,
            drivers: ["Ion Popescu"],
            isPrivate: false,
          },
        ],
      },
    ],
  };

  it("render the message and the files in the task's language", async () => {
    const ro = await REPORT_VIEWS.stops.render(stops, context("ro"));
    expect(textOf(ro.message)).toContain("🅿️ Opriri");
    expect(ro.files.map((f) => [f.filename, f.title])).toEqual([["opriri.csv", "Opriri (CSV)"]]);
    const csv = String(ro.files[0]?.content).replace("\uFEFF", "").split("\r\n");
    expect(csv[0]?.startsWith("Nr. de înmatriculare;Vehicul;Început;Sfârșit;Durată (min);")).toBe(true);
    expect(csv[1]).toContain(";25,5;;Strada 1, Cluj;;46,77;23,6;Ion Popescu;;nu;;nu;nu");

    const en = await REPORT_VIEWS.stops.render(stops, context("en"));
    expect(en.files.map((f) => [f.filename, f.title])).toEqual([["stops.csv", "Stops (CSV)"]]);
    const enCsv = String(en.files[0]?.content).replace("\uFEFF", "").split("\r\n");
    expect(enCsv[0]?.startsWith("plate,vehicle,start,end,duration_min,")).toBe(true);
    expect(enCsv[1]).toContain(',25.5,,"Strada 1, Cluj",,46.77,23.6,Ion Popescu,,false,');
  });

  it("name the route's GPX and CSV, and describe the GPX, in the reader's language", () => {
    const route: RouteReport = {
      vehicle: TRUCK,
      period: PERIOD,
      points: [{ atMs: PERIOD.fromMs + HOUR, lat: 44.4, lon: 26.1, speed: 50.5 }],
      distanceKm: 0,
      maxSpeedKmh: 50.5,
      movingMinutes: 0,
    };
    const ro = REPORT_VIEWS.route.render(route, context("ro"));
    if (ro instanceof Promise) throw new Error("sync view");
    expect(ro.files.map((f) => f.filename)).toEqual(["traseu-B-12-ABC.gpx", "traseu-B-12-ABC.csv"]);
    expect(ro.files.map((f) => f.title)).toEqual(["Traseu B-12-ABC (GPX)", "Traseu B-12-ABC (CSV)"]);
    expect(String(ro.files[0]?.content)).toContain("<desc>ieri (luni, 2 nov.)</desc>");
    expect(String(ro.files[1]?.content)).toContain("B-12-ABC;02.11.2026 01:00:00;44,4;26,1;50,5");
    const en = REPORT_VIEWS.route.render(route, context("en"));
    if (en instanceof Promise) throw new Error("sync view");
    expect(String(en.files[0]?.content)).toContain("<desc>yesterday (Mon 2 Nov)</desc>");
    expect(String(en.files[1]?.content)).toContain("B-12-ABC,2026-11-02T01:00:00+02:00,44.4,26.1,50.5");
  });

  it("offer the report form's choices in the reader's language, each within Slack's 75 characters", () => {
    const ro = modalReportChoices("ro");
    expect(ro.map((c) => c.label)).toEqual([
      "Ultima poziție (unde)",
      "Traseu (GPX, CSV)",
      "Opriri",
      "Consum de combustibil",
      "Alimentări și posibile furturi",
      "Temperaturi",
    ]);
    expect(modalReportChoices("en").map((c) => c.value)).toEqual(ro.map((c) => c.value));
    for (const c of [...ro, ...modalReportChoices("en")]) expect(c.label.length).toBeLessThanOrEqual(75);
  });
});

describe("resolutionMessage (a report that found no vehicle)", () => {
  const problems = [
    {
      kind: "unknown" as const,
      ref: { type: "plate" as const, raw: "B-99-XYZ", normalised: "B99XYZ" },
      suggestions: [{ vehicleId: 1, plate: "B-98-XYZ", name: "" }],
    },
    { kind: "no-vehicle" as const },
    "An English sentence stored by an older task.",
  ];

  it("writes each problem in the reader's language, an older task's sentence as it is", () => {
    const ro = textOf(valid(resolutionMessage(problems, "ro")));
    expect(ro).toContain("Alege un vehicul.");
    expect(ro).toContain(
      "Niciun vehicul cu numărul de înmatriculare `B-99-XYZ` în acest cont. Ai vrut să scrii `B-98-XYZ`?",
    );
    expect(ro).toContain("An English sentence stored by an older task.");
    expect(ro).toContain("Indică vehiculele prin numărul de înmatriculare (B-123-ABC)");
    const en = textOf(valid(resolutionMessage(problems, "en")));
    expect(en).toContain(
      "No vehicle with registration number `B-99-XYZ` in this account. Did you mean `B-98-XYZ`?",
    );
    expect(en).toContain("Name one vehicle.");
    expect(en).toContain(
      "Vehicles are named by plate (B-123-ABC), name, or #id. /fleet vehicles lists them.",
    );
  });
});

describe("the report form", () => {
  it("is Romanian for a Romanian reader, within Slack's limits (title ≤ 24)", () => {
    const modal = reportModal("{}", { report: "stops" }, { examplePlate: "B-12-ABC" }, "ro");
    expect(modal.title.text).toBe("Raport de flotă");
    expect(modal.title.text.length).toBeLessThanOrEqual(24);
    expect(modal.submit?.text).toBe("Rulează");
    expect(modal.close?.text).toBe("Anulează");
    const json = JSON.stringify(modal.blocks);
    for (const words of [
      "Vehicule",
      "de ex. B-12-ABC",
      "De la",
      "Până la",
      "Gol: acum.",
      "Durata minimă a opririi",
    ])
      expect(json).toContain(words);
    expect(json).toContain('"initial_option":{"text":{"type":"plain_text","text":"Opriri"');
    expect(json).not.toMatch(/"(Report|Vehicles|From|To|Stops)"/);
    const en = reportModal("{}", {}, {}, "en");
    expect(en.title.text).toBe("Fleet report");
    expect(JSON.stringify(en.blocks)).toContain('"text":"Stops"');
  });
});

describe("unresolvedVehicles", () => {
  it("answers a vehicle the cached list does not know with the problem as data, not words", () => {
    const cached = [
      fleetSchemas(ZONE).vehicle.parse({
        vehicleId: 7,
        vehicleRegistrationNumber: "B-98-XYZ",
        vehicleName: "Truck",
      }),
    ];
    const parsed = parseFleetCommand("stops B-99-XYZ yesterday", { timeZone: ZONE, now: new Date(NOW) });
    if (!parsed.ok || parsed.kind !== "report") throw new Error("a report command");
    const error = unresolvedVehicles(parsed, cached);
    expect(error?.problem).toMatchObject({
      code: "vehiclesNotFound",
      problems: [{ kind: "unknown", ref: { raw: "B-99-XYZ" }, suggestions: [{ plate: "B-98-XYZ" }] }],
    });
    expect(error?.example).toBe("/fleet stops B-98-XYZ yesterday");
  });
});
