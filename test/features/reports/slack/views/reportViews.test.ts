import { describe, expect, it } from "vitest";
import {
  fuelReport,
  positionReport,
  type ReportPeriod,
  type ReportVehicle,
  refillsReport,
  routeReport,
  stopsReport,
  temperatureReport,
  vehicleListReport,
} from "../../../../../src/features/reports/index.js";
import { fuelMessage } from "../../../../../src/features/reports/slack/views/fuel.js";
import {
  positionCard,
  vehicleListMessage,
} from "../../../../../src/features/reports/slack/views/positions.js";
import { refillsMessage } from "../../../../../src/features/reports/slack/views/refills.js";
import { routeMessage } from "../../../../../src/features/reports/slack/views/route.js";
import { stopsMessage } from "../../../../../src/features/reports/slack/views/stops.js";
import { temperatureMessage } from "../../../../../src/features/reports/slack/views/temperatures.js";
import { blocksText, clipMrkdwn } from "../../../../../src/features/reports/slack/views/vehicleFormat.js";
import type { ConsumptionRecord, StopRecord, Vehicle } from "../../../../../src/platform/fleet/schemas.js";
import { fleetSchemas } from "../../../../../src/platform/fleet/schemas.js";
import { ACTIONS } from "../../../../../src/platform/slack/actionIds.js";
import type { SlackMessage } from "../../../../../src/platform/slack/views/message.js";
import { userText } from "../../../../../src/platform/slack/views/text.js";
import { type LimitProblem, validateMessagePayload } from "../../../../../src/sandbox/fakeSlack/limits.js";

const ZONE = "Europe/Bucharest";
const schemas = fleetSchemas(ZONE);
const NOW = Date.UTC(2026, 10, 3, 12, 0);
const PERIOD: ReportPeriod = {
  fromMs: Date.UTC(2026, 10, 1),
  toMs: Date.UTC(2026, 10, 30),
  label: "November <&>",
  timeZone: ZONE,
};
const TOKEN = "task-0f5e2c1a-7d4b-4b9e-9a51-3c2d1e0f9a88";
const OPTIONS = { companyTimeZone: ZONE, language: "en" } as const;

/** Names built to break things: mrkdwn and escaping characters, diacritics, emoji, length. */
const NASTY = "<&>*_~ Șoferul „Ăîâșț” <@U123> <!channel> ` |pipe| 🚚 ";
const nastyName = (i: number) => `${NASTY.repeat(4)}${i}`;
const nastyAddress = (i: number) => `${"Strada <Mărășești> & *Ștefan* _cel_ ~Mare~ |nr|, ".repeat(8)}${i}`;

function expectValid(message: SlackMessage): void {
  const problems: LimitProblem[] = validateMessagePayload(message);
  expect(problems).toEqual([]);
  expect(blocksText(message.blocks)).toBeLessThanOrEqual(11_000);
  expect(message.blocks.length).toBeLessThanOrEqual(50);
  expect(message.text.length).toBeGreaterThan(0);
  // user text never reaches mrkdwn unescaped: the only "<…>" are our map links and dates
  for (const text of [message.text, ...mrkdwnTexts(message.blocks)]) {
    for (const m of text.matchAll(/<([^>]*)>/g)) {
      expect(m[1]).toMatch(/^(https:\/\/www\.openstreetmap\.org\/|!date\^)/);
    }
    expect(text.replace(/<(https:\/\/www\.openstreetmap\.org\/|!date\^)[^>]*>/g, "")).not.toMatch(/[<>]/);
  }
}

/** Every mrkdwn text of the blocks (plain_text needs no escaping). */
function mrkdwnTexts(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(mrkdwnTexts);
  if (typeof value !== "object" || value === null) return [];
  const record = value as Record<string, unknown>;
  const own = record.type === "mrkdwn" && typeof record.text === "string" ? [record.text] : [];
  return [...own, ...Object.values(record).flatMap(mrkdwnTexts)];
}

function vehicles(count: number, nasty = true): Vehicle[] {
  return Array.from({ length: count }, (_, i) =>
    schemas.vehicle.parse({
      vehicleId: 1000 + i,
      vehicleName: nasty ? nastyName(i) : `Truck ${i}`,
      vehicleRegistrationNumber: `B-${String(i).padStart(3, "0")}-ABC`,
      latitude: 44 + i / 100,
      longitude: 26 + i / 100,
      gpsDate: "2026-11-03T13:00:00",
      address: nasty ? nastyAddress(i) : `Strada ${i}`,
      speed: i % 90,
      engineEvent: i % 3,
      isPrivate: i % 7 === 0,
    }),
  );
}

const reportVehicles = (list: Vehicle[]): ReportVehicle[] =>
  list.map((v) => ({
    vehicleId: v.vehicleId,
    plate: v.vehicleRegistrationNumber ?? "",
    name: v.vehicleName ?? "",
  }));

function pageValues(message: SlackMessage): { action: string; value: { t: string; p: number } }[] {
  return message.blocks
    .filter((b) => b.type === "actions")
    .flatMap((b) => ("elements" in b ? b.elements : []))
    .filter(
      (e) =>
        e.type === "button" && (e.action_id === ACTIONS.pageNext || e.action_id === ACTIONS.pagePrevious),
    )
    .map((e) => ({ action: String(e.action_id), value: JSON.parse(String("value" in e ? e.value : "")) }));
}

describe("text helpers", () => {
  it("escapes &, < and > and clips without cutting an entity", () => {
    expect(userText("a<b>&c", 100)).toBe("a&lt;b&gt;&amp;c");
    const clipped = clipMrkdwn("<<<<<<", 12);
    expect(clipped).toBe("&lt;&lt;…");
    expect(clipped.length).toBeLessThanOrEqual(12);
  });
});

describe("positionCard", () => {
  it("shows map link, speed, engine, GPS age, company-time note and a refresh button", () => {
    const [v] = vehicles(1);
    // Not in private mode: a private vehicle's card has no place (test/features/reports/slack/views/privateMode.test.ts).
    const msg = positionCard(positionReport({ ...(v as Vehicle), isPrivate: false }, NOW), NOW, OPTIONS);
    expectValid(msg);
    const json = JSON.stringify(msg.blocks);
    expect(json).toContain("https://www.openstreetmap.org/?mlat=44.000000&mlon=26.000000");
    expect(json).toContain("^{ago}|1 h ago>");
    expect(json).toContain(
      "Times from the fleet service are company local time (Europe/Bucharest), shown in your time zone.",
    );
    expect(json).toContain(ACTIONS.showPosition);
    expect(json).toContain('"value":"B-000-ABC"');
  });

  it("handles a vehicle that never reported", () => {
    const v = schemas.vehicle.parse({ vehicleId: 5 });
    const msg = positionCard(positionReport(v, NOW), NOW, { language: "en" });
    expectValid(msg);
    expect(JSON.stringify(msg.blocks)).toContain("no position reported");
  });
});

describe("vehicleListMessage", () => {
  const report = vehicleListReport(vehicles(80), undefined, NOW);

  it("paginates a fleet of 80 with hostile names within every limit", () => {
    const first = vehicleListMessage(report, 0, TOKEN, OPTIONS);
    expectValid(first);
    expect(pageValues(first)).toEqual([{ action: ACTIONS.pageNext, value: { t: TOKEN, p: 1 } }]);
    let pages = 1;
    let shown = first.blocks.filter((b) => b.type === "section").length;
    for (
      let p = 1;
      pageValues(vehicleListMessage(report, p - 1, TOKEN, { language: "en" })).some((x) => x.value.p === p);
      p++
    ) {
      const msg = vehicleListMessage(report, p, TOKEN, OPTIONS);
      expectValid(msg);
      shown += msg.blocks.filter((b) => b.type === "section").length;
      pages += 1;
    }
    expect(shown).toBe(80);
    expect(pages).toBe(8);
    const last = vehicleListMessage(report, 7, TOKEN, { language: "en" });
    expect(pageValues(last)).toEqual([{ action: ACTIONS.pagePrevious, value: { t: TOKEN, p: 6 } }]);
    // out of range pages show the nearest one
    expect(vehicleListMessage(report, 99, TOKEN, { language: "en" })).toEqual(last);
  });

  it("says when nothing matches the filter", () => {
    const msg = vehicleListMessage(vehicleListReport(vehicles(3), "<nothing>", NOW), 0, TOKEN, {
      language: "en",
    });
    expectValid(msg);
    expect(JSON.stringify(msg.blocks)).toContain("No vehicle matches “&lt;nothing&gt;”");
  });
});

describe("stopsMessage", () => {
  const fleet = vehicles(10);
  const stops: StopRecord[] = fleet.flatMap((v, vi) =>
    Array.from({ length: 30 }, (_, i) =>
      schemas.stopRecord.parse({
        vehicleId: v.vehicleId,
        startDate: `2026-11-${String(1 + (i % 28)).padStart(2, "0")}T${String(6 + vi).padStart(2, "0")}:00:00`,
        endDate: `2026-11-${String(2 + (i % 28)).padStart(2, "0")}T${String(6 + vi).padStart(2, "0")}:30:00`,
        latitude: 45,
        longitude: 25,
        stopDuration: 1470,
        stationaryEngineOnTime: 12,
        address: nastyAddress(i),
        hotSpot: nastyName(i),
        drivers: [{ firstName: nastyName(1), lastName: nastyName(2) }],
        isPrivate: i % 5 === 0,
      }),
    ),
  );
  const report = stopsReport(
    stops,
    [...reportVehicles(fleet), { vehicleId: 1, plate: "IDLE-1", name: "idle" }],
    PERIOD,
    5,
  );

  it("paginates 300 stops of 10 vehicles within every limit, every stop shown once", () => {
    expect(report.totalStops).toBe(300);
    let count = 0;
    let p = 0;
    for (;;) {
      const msg = stopsMessage(report, p, TOKEN, OPTIONS);
      expectValid(msg);
      count += (JSON.stringify(msg.blocks).match(/• <!date/g) ?? []).length;
      if (!pageValues(msg).some((x) => x.action === ACTIONS.pageNext)) break;
      p += 1;
    }
    expect(count).toBe(300);
    expect(p).toBeGreaterThanOrEqual(11);
    expect(JSON.stringify(stopsMessage(report, 0, TOKEN, { language: "en" }).blocks)).toContain(
      "No stops for: IDLE-1 — idle",
    );
  });

  it("renders an empty report", () => {
    const msg = stopsMessage(stopsReport([], reportVehicles(fleet), PERIOD, 5), 0, TOKEN, { language: "en" });
    expectValid(msg);
    expect(JSON.stringify(msg.blocks)).toContain("No stops in this period.");
  });
});

describe("fuelMessage", () => {
  const fleet = vehicles(80);
  const records: ConsumptionRecord[] = fleet.map((v, i) =>
    schemas.consumptionRecord.parse({
      vehicleName: v.vehicleName,
      licensePlate: v.vehicleRegistrationNumber,
      distance: 1000 + i,
      hours: "12:30:00",
      consumptionValue: 300,
      averageConsumption100Km: 30,
      secondarySource:
        i % 4 === 0
          ? { distance: 500, hours: "6:00:00", consumptionValue: 50, averageConsumption100Km: 10 }
          : null,
    }),
  );
  const report = fuelReport(records, reportVehicles(fleet), PERIOD);

  it("paginates 80 vehicles, marks LPG and shows the fleet total on every page", () => {
    let p = 0;
    let rows = 0;
    for (;;) {
      const msg = fuelMessage(report, p, TOKEN, OPTIONS);
      expectValid(msg);
      const json = JSON.stringify(msg.blocks);
      expect(json).toContain("*Fleet total*");
      rows += (json.match(/\*B-\d{3}-ABC\*/g) ?? []).length;
      if (p === 0) expect(json).toContain("Secondary source (LPG)");
      if (!pageValues(msg).some((x) => x.action === ACTIONS.pageNext)) break;
      p += 1;
    }
    expect(rows).toBe(80);
  });
});

describe("refillsMessage", () => {
  const events = schemas.refillsPayload.parse([
    { date: "2026-11-01T00:00:00", event: "FuelStart", estimation: 100 },
    ...Array.from({ length: 120 }, (_, i) => ({
      date: `2026-11-${String(1 + (i % 28)).padStart(2, "0")}T10:00:00`,
      event: i % 10 === 9 ? "PossibleFuelTheft" : i % 13 === 0 ? "FuelingSecondarySource" : "Fueling",
      estimation: 50 + i,
      location: nastyAddress(i),
      isPrivate: i % 11 === 0,
    })),
    { date: "bad date", event: "NewKind<&>", estimation: null, location: "x" },
    { date: "2026-11-30T00:00:00", event: "TotalRefill", estimation: 5000 },
    { date: "2026-11-30T00:00:00", event: "TotalPossibleTheft", estimation: 600 },
    { date: "2026-11-30T00:00:00", event: "RemainingFuel", estimation: 80 },
    { date: "2026-11-30T00:00:00", event: "TotalFuelConsumption", estimation: 4420 },
    { date: "2026-11-30T00:00:00", event: "TotalRefillSecondarySource", estimation: 300 },
  ]);
  const vehicle = { vehicleId: 9, plate: "B-9-LPG", name: nastyName(9) };

  it("marks possible thefts, shows totals, fits 120 events and points to the CSV", () => {
    const msg = refillsMessage(refillsReport(events, vehicle, PERIOD), OPTIONS);
    expectValid(msg);
    const json = JSON.stringify(msg.blocks);
    expect(json).toContain("⚠️ *12 possible fuel thefts*");
    expect((json.match(/⚠️ \*Possible fuel theft\*/g) ?? []).length).toBe(12); // every theft is listed
    expect(json).toContain("*Refuelled*\\n5,000.0 l");
    expect(json).toContain("*Refuelled (LPG)*\\n300.0 l");
    expect(json).toMatch(/\d+ more events in the attached CSV/);
    expect(msg.text).toContain("12 possible theft");
  });

  it("renders a period without events", () => {
    const msg = refillsMessage(refillsReport([], vehicle, PERIOD), { language: "en" });
    expectValid(msg);
    expect(JSON.stringify(msg.blocks)).toContain("No refuelling or fuel-decrease events");
  });
});

describe("temperatureMessage and routeMessage", () => {
  it("shows min/avg/max per sensor and humidity for many vehicles", () => {
    const fleet = vehicles(25);
    const temperature = fleet.flatMap((v) =>
      [1, 2].flatMap((sensorNumber) =>
        Array.from({ length: 20 }, (_, i) => ({
          vehicleId: v.vehicleId,
          date: `2026-11-03T10:${String(i).padStart(2, "0")}:00`,
          value: -18 + i / 10,
          sensorNumber,
        })),
      ),
    );
    const humidity = temperature.filter((r) => r.sensorNumber === 1).map((r) => ({ ...r, value: 80 }));
    const report = temperatureReport(
      schemas.temperaturesPayload.parse([{ temperature, humidity }]),
      reportVehicles(fleet),
      PERIOD,
      { range: { min: -20, max: -17.5 } },
    );
    const msg = temperatureMessage(report, 0, TOKEN, OPTIONS);
    expectValid(msg);
    const json = JSON.stringify(msg.blocks);
    expect(json).toContain(
      "🌡️ Temperature sensor 1: min -18.0 °C · avg -17.1 °C · max -16.1 °C · 20 readings · ⚠️ 1 excursion",
    );
    expect(json).toContain("💧 Humidity sensor 1: min 80.0 % · avg 80.0 % · max 80.0 %");
    expect(pageValues(msg)).toEqual([{ action: ACTIONS.pageNext, value: { t: TOKEN, p: 1 } }]);
    const alone = temperatureMessage(report, 0, undefined, { language: "en" });
    expectValid(alone);
    expect(JSON.stringify(alone.blocks)).toContain("15 more vehicles not shown here.");
  });

  it("puts the vehicles with readings first and names the rest in one line; the period once", () => {
    // 28 vehicles, 2 with a reefer sensor (the 6th and the 21st): one page, not three.
    const fleet = vehicles(28, false);
    const withSensor = [fleet[5]!, fleet[20]!];
    const temperature = withSensor.flatMap((v) =>
      Array.from({ length: 4 }, (_, i) => ({
        vehicleId: v.vehicleId,
        date: `2026-11-24T10:0${i}:00`,
        value: -18,
        sensorNumber: 1,
      })),
    );
    const yesterday: ReportPeriod = {
      fromMs: Date.UTC(2026, 10, 23, 22),
      toMs: Date.UTC(2026, 10, 24, 22),
      label: "yesterday (2026-11-24)",
      timeZone: ZONE,
    };
    const report = temperatureReport(
      schemas.temperaturesPayload.parse([{ temperature, humidity: [] }]),
      reportVehicles(fleet),
      yesterday,
    );
    const msg = temperatureMessage(report, 0, TOKEN, OPTIONS);
    expectValid(msg);
    expect(pageValues(msg)).toEqual([]);
    const json = JSON.stringify(msg.blocks);
    expect(json.split("yesterday (2026-11-24)")).toHaveLength(2);
    expect(json).not.toContain("no readings in this period");
    const sections = msg.blocks.flatMap((b) => (b.type === "section" && b.text ? [b.text.text] : []));
    expect(sections).toHaveLength(3);
    expect(sections[0]).toContain("B-005-ABC");
    expect(sections[1]).toContain("B-020-ABC");
    expect(sections[2]).toMatch(/^\*26 vehicles have no temperature readings in this period:\* B-000-ABC, /);
    expect(sections[2]).toContain("B-027-ABC.");
    expect(sections[2]).not.toContain("B-005-ABC");
  });

  it("cuts the line of vehicles without readings within Slack's limits", () => {
    const fleet = vehicles(1500, false);
    const report = temperatureReport(
      schemas.temperaturesPayload.parse([{ temperature: [], humidity: [] }]),
      reportVehicles(fleet),
      PERIOD,
    );
    const msg = temperatureMessage(report, 0, TOKEN, OPTIONS);
    expectValid(msg);
    const json = JSON.stringify(msg.blocks);
    expect(json).toContain("*1,500 vehicles have no temperature readings in this period:* B-000-ABC");
    expect(json).toMatch(/and \d{1,3}(,\d{3})* more\./);
  });

  it("summarizes a route and an empty one", () => {
    const points = schemas.wayPayload.parse(
      Array.from({ length: 2000 }, (_, i) => ({
        vehicleId: 7,
        gpsDate: new Date(Date.UTC(2026, 10, 3, 6) + i * 60_000).toISOString(),
        latitude: 44 + i / 1000,
        longitude: 26,
        speed: 80,
      })),
    );
    const vehicle = { vehicleId: 7, plate: "B-7-RTE", name: nastyName(7) };
    const msg = routeMessage(routeReport(points, vehicle, PERIOD), OPTIONS);
    expectValid(msg);
    expect(JSON.stringify(msg.blocks)).toContain("attached GPX");
    expect(JSON.stringify(msg.blocks)).toContain("*GPS points*\\n2,000");
    const empty = routeMessage(routeReport([], vehicle, PERIOD), { language: "en" });
    expectValid(empty);
    expect(JSON.stringify(empty.blocks)).toContain("No positions were recorded");
  });
});
