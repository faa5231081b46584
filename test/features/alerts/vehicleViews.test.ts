import { describe, expect, it } from "vitest";
import type { IncidentRecord, VehicleIncidentKind } from "../../../src/features/alerts/incidents.js";
import { groupedAlertMessage } from "../../../src/features/alerts/slack/views/alertGroups.js";
import { alertMessage } from "../../../src/features/alerts/slack/views/incidentMessage.js";
import {
  resolvedAlertMessage,
  resolvedThreadReply,
} from "../../../src/features/alerts/slack/views/resolution.js";
import type { Language } from "../../../src/i18n/index.js";
import type { VehicleFacts } from "../../../src/platform/store/contract/vehicleFacts.js";
import { validateMessagePayload } from "../../../src/sandbox/fakeSlack/limits.js";
import { textOf } from "../../helpers/botHarness.js";

/** The vehicle alerts as channels read them (pure views): every kind, both languages, Slack's limits. */

const MIN = 60_000;
const NOW = Date.UTC(2026, 10, 3, 10, 0);
const text = (m: { text: string; blocks?: unknown[] }) => textOf(m);

const EVIDENCE: Record<VehicleIncidentKind, Partial<VehicleFacts>> = {
  powercut: { volts: 2.8, threshold: 6, transportCodeUit: "Y45R577UN544GY4S" },
  zone: { zoneId: "z1", zoneName: "Depou București", zoneWorkspace: "", threshold: 500 },
  idle: { threshold: 20, engine: "on", speedKmh: 0 },
  speeding: { speedKmh: 112, threshold: 90, peakSpeedKmh: 118 },
  offline: { threshold: 60 },
  towed: { movedMeters: 2140 },
  afterhours: { speedKmh: 64, hours: "06:00-22:00" },
  temperature: { temperature: 14.5, tempMin: 2, tempMax: 8, threshold: 15 },
};

function incident(
  kind: VehicleIncidentKind,
  over: Partial<VehicleFacts> = {},
  state: IncidentRecord["state"] = "open",
): IncidentRecord {
  const vehicle: VehicleFacts = {
    vehicleId: 7,
    watch: `${kind}:x`,
    plate: "B-123-ABC",
    name: "Volvo FH <Truck 12>",
    gpsMs: NOW - 2 * MIN,
    latitude: 44.4326,
    longitude: 25.9723,
    address: "București, Depou Militari",
    sinceMs: NOW - 35 * MIN,
    ...EVIDENCE[kind],
    ...over,
  };
  const record: IncidentRecord = {
    id: `6c1d2e0a-0000-4000-8000-00000000000${kind.length}`,
    account: "demo",
    transportUId: `vehicle:7|${kind}:x`,
    codeUit: "B-123-ABC",
    kind,
    code: kind,
    firstSeenAt: NOW - 30 * MIN,
    openedAt: NOW - 30 * MIN,
    lastSeenAt: NOW,
    state,
    facts: {
      uId: "vehicle:7",
      codeUit: "",
      statusId: 0,
      carrierCode: "B-123-ABC",
      carrierName: "Volvo FH <Truck 12>",
      vehicle,
    },
  };
  if (state === "resolved") {
    record.resolvedAt = NOW + 5 * MIN;
    record.resolveReason = "recovered";
    record.endEvidenceMs = NOW + 4 * MIN;
  }
  return record;
}

const KINDS = Object.keys(EVIDENCE) as VehicleIncidentKind[];
const EXPECTED: Record<Language, Record<VehicleIncidentKind, RegExp>> = {
  en: {
    powercut:
      /\*External power at 2\.8 V\* \(below 6\.0 V\).*for \*35 min\* so far[\s\S]*Transport `Y45R-577U-N544-GY4S` is In Progress/,
    zone: /\*Inside Depou București\* \(within 500 m of its centre\), for \*35 min\* so far/,
    idle: /\*Standing with the engine running for 35 min\* \(your limit: 20 min\)/,
    speeding: /\*Driving at 112 km\/h\*, above your 90 km\/h limit \(highest seen: 118 km\/h\)/,
    offline: /\*No position for 35 min\* \(your limit: 1 h\)/,
    towed: /\*Moved 2\.1 km with the engine off\*/,
    afterhours: /\*Moving at 64 km\/h outside the working hours\* \(06:00–22:00\)/,
    temperature: /\*Reefer at 14\.5 °C\*, outside 2\.\.8 °C for \*35 min\* so far/,
  },
  ro: {
    powercut:
      /\*Alimentarea externă la 2,8 V\* \(sub 6,0 V\).*de \*35 min\*[\s\S]*Transportul `Y45R-577U-N544-GY4S` e în desfășurare/,
    zone: /\*În Depou București\* \(la cel mult 500 m de centru\), de \*35 min\*/,
    idle: /\*Stă cu motorul pornit de 35 min\* \(limita ta: 20 min\)/,
    speeding: /\*Merge cu 112 km\/h\*, peste limita ta de 90 km\/h \(maxim văzut: 118 km\/h\)/,
    offline: /\*Nicio poziție de 35 min\* \(limita ta: 1 h\)/,
    towed: /\*Mutat 2,1 km cu motorul oprit\*/,
    afterhours: /\*Merge cu 64 km\/h în afara programului\* \(06:00–22:00\)/,
    temperature: /\*Frigiderul la 14,5 °C\*, în afara intervalului 2\.\.8 °C de \*35 min\*/,
  },
};

describe.each(["en", "ro"] as const)("vehicle alerts in %s", (language) => {
  it.each(KINDS)("%s: what, how long, where and when seen, a Mute button, within Slack's limits", (kind) => {
    const message = alertMessage(incident(kind), "C1", {
      language,
      nowMs: NOW,
      timeZone: "Europe/Bucharest",
    });
    const all = text(message);
    expect(all).toMatch(EXPECTED[language][kind]);
    expect(all).toContain("openstreetmap.org/?mlat=44.432600");
    expect(all).toMatch(/<!date\^\d+\^/);
    // The vehicle's name is escaped; no UIT stands for the subject.
    expect(all).toContain("Volvo FH &lt;Truck 12&gt;");
    expect(JSON.stringify(message.blocks)).toContain('\\"u\\":\\"B-123-ABC\\"');
    expect(validateMessagePayload(message)).toEqual([]);
  });

  it.each(KINDS)("%s resolved: edited with from–to and how long, and a thread reply", (kind) => {
    const resolved = incident(kind, {}, "resolved");
    const edited = resolvedAlertMessage(resolved, { language, nowMs: NOW, timeZone: "Europe/Bucharest" });
    expect(text(edited)).toMatch(language === "en" ? /✅ \*Resolved\*/ : /✅ \*Rezolvat\*/);
    expect(text(edited)).not.toContain("Mute");
    expect(validateMessagePayload(edited)).toEqual([]);
    const reply = resolvedThreadReply(resolved, { language, nowMs: NOW, timeZone: "Europe/Bucharest" });
    expect(validateMessagePayload(reply)).toEqual([]);
    if (kind === "zone")
      expect(text(reply)).toMatch(
        language === "en" ? /Stayed in \*Depou București\*/ : /A stat în \*Depou București\*/,
      );
    if (kind === "speeding") expect(text(reply)).toMatch(/118 km\/h/);
  });
});

describe("severity and private mode", () => {
  it("a power cut is red under a transport In Progress, amber without; towed and a warm reefer are red", () => {
    const opts = { language: "en" as const, nowMs: NOW };
    expect(alertMessage(incident("powercut"), "C1", opts).text).toMatch(/^🔴/);
    expect(alertMessage(incident("powercut", { transportCodeUit: undefined }), "C1", opts).text).toMatch(
      /^🟠/,
    );
    expect(alertMessage(incident("towed"), "C1", opts).text).toMatch(/^🔴/);
    expect(alertMessage(incident("temperature"), "C1", opts).text).toMatch(/^🔴/);
    expect(alertMessage(incident("idle"), "C1", opts).text).toMatch(/^🟠/);
  });

  it("a vehicle in private mode shows no place", () => {
    const { latitude: _a, longitude: _b, address: _c, ...rest } = incident("offline").facts.vehicle!;
    const record = incident("offline");
    record.facts = { ...record.facts, vehicle: { ...rest, private: true } };
    const all = text(alertMessage(record, "C1", { language: "ro", nowMs: NOW }));
    expect(all).toContain("Mod privat: poziția nu se afișează.");
    expect(all).not.toContain("openstreetmap");
    expect(all).not.toContain("Militari");
  });
});

describe("a storm of vehicle alerts", () => {
  it("counts vehicles, names each plate, and points to the Mute buttons in the thread", () => {
    const members = Array.from({ length: 7 }, (_, i) => {
      const r = incident("powercut", { plate: `B-10${i}-ABC`, transportCodeUit: undefined });
      r.id = `6c1d2e0a-0000-4000-8000-00000000010${i}`;
      r.facts = { ...r.facts, carrierCode: `B-10${i}-ABC` };
      return r;
    });
    const message = groupedAlertMessage({ id: "g1", incidents: members }, { language: "en", nowMs: NOW });
    const all = text(message);
    expect(all).toContain("Power cut · 7 vehicles");
    for (const m of members) expect(all).toContain(`*${m.facts.carrierCode}* · powercut`);
    expect(all).toContain("Each vehicle's Mute button is in the thread.");
    expect(all).not.toMatch(/transports?\b/);
    expect(validateMessagePayload(message)).toEqual([]);
  });
});
