import type { ActionsBlock, Button, KnownBlock } from "@slack/types";
import { describe, expect, it } from "vitest";
import type { IncidentRecord } from "../../../src/features/alerts/incidents.js";
import { groupedAlertMessage } from "../../../src/features/alerts/slack/views/alertGroups.js";
import { digestMessage } from "../../../src/features/alerts/slack/views/digest.js";
import { alertMessage } from "../../../src/features/alerts/slack/views/incidentMessage.js";
import {
  alertBlocksWithMute,
  alertBlocksWithoutMute,
  alertLanguageOf,
} from "../../../src/features/alerts/slack/views/mute.js";
import {
  resolvedAlertMessage,
  resolvedThreadReply,
} from "../../../src/features/alerts/slack/views/resolution.js";
import { postFailureText } from "../../../src/features/alerts/slack/views/subscriptionList.js";
import type { TransportView } from "../../../src/features/etransport/types.js";
import { totalText, validateMessagePayload } from "../../../src/sandbox/fakeSlack/limits.js";

/** Channel alerts in the subscription's language (lang=ro): every word from the catalogue. */

const NOW = Date.UTC(2026, 10, 3, 8, 0, 0);
const MIN = 60_000;
const ZONE = "Europe/Bucharest";

const facts: TransportView = {
  uId: "0f8fad5b-d9cb-469f-a165-70867728950e",
  codeUit: "Y45R577UN544GY4S",
  statusId: 2,
  carrierCode: "B-123-ABC",
  transmissionStatusCode: "OldData",
  lastGpsMs: NOW - 20 * MIN,
  lastTransmissionMs: NOW - 18 * MIN,
  startLocation: "București",
  endLocation: "Sibiu",
};

function incident(overrides: Partial<IncidentRecord> = {}): IncidentRecord {
  return {
    id: "6c1d2e0a-0000-4000-8000-000000000001",
    account: "demo",
    transportUId: facts.uId,
    codeUit: facts.codeUit,
    kind: "transmission",
    code: "OldData",
    firstSeenAt: NOW - 10 * MIN,
    openedAt: NOW - 10 * MIN,
    state: "open",
    lastSeenAt: NOW,
    facts,
    ...overrides,
  };
}

const buttons = (blocks: KnownBlock[]): Button[] =>
  blocks.filter((b): b is ActionsBlock => b.type === "actions").flatMap((b) => b.elements as Button[]);

function expectValid(message: { text: string; blocks: KnownBlock[] }): void {
  expect(validateMessagePayload(message)).toEqual([]);
  expect(totalText(message.blocks)).toBeLessThanOrEqual(11_000);
}

/** Words of the English alert that must not show in a Romanian one. */
const ENGLISH = [
  "Transmission problem",
  "Since",
  "last GPS",
  "Show transport",
  "Mute 24 h",
  "lasted",
  "Resolved",
];

describe("a transmission alert in Romanian", () => {
  const ro = { timeZone: ZONE, nowMs: NOW, language: "ro" as const };

  it("has the Romanian title, TrackGPS's status name and advice, {date_num} tokens and buttons", () => {
    const message = alertMessage(incident(), "C0ALERTS", ro);
    expectValid(message);
    const text = JSON.stringify(message.blocks);
    expect(text).toContain("*Transmisie GPS întreruptă* · `Y45R-577U-N544-GY4S`");
    expect(text).toContain("*Transmisie:* OldData — date mai vechi de 6 ore");
    expect(text).toContain("datele nu mai pot fi transmise către ANAF");
    expect(text).toContain(`*Din* <!date^${(NOW - 18 * MIN) / 1000}^{date_num} {time}|marți, 3 nov., 09:42>`);
    expect(text).toContain("Stare: În desfășurare");
    expect(text).toContain("ultima poziție GPS <!date^");
    expect(text).not.toContain("{date_short_pretty}");
    for (const word of ENGLISH) expect(text).not.toContain(word);
    expect(buttons(message.blocks).map((b) => b.text.text)).toEqual([
      "Pauză",
      "Finalizează",
      "Arată transportul",
      "Fără alerte 24 h",
    ]);
    const end = buttons(message.blocks)[1];
    expect(end?.confirm?.title?.text).toBe("Finalizezi transportul?");
    expect(end?.confirm?.text.text).toBe(
      "Finalizezi transportul cu codul UIT Y45R-577U-N544-GY4S (B-123-ABC)? Nu va mai putea fi modificat.",
    );
    expect(end?.confirm?.deny?.text).toBe("Renunță");
    expect(message.text).toBe(
      "🟠 Transmisie GPS întreruptă: cod UIT Y45R-577U-N544-GY4S (B-123-ABC) — OldData",
    );
  });

  it("the resolved edit and its thread reply are Romanian, with the one duration form", () => {
    const resolved = incident({
      state: "resolved",
      resolvedAt: NOW + 25 * MIN,
      lastSeenAt: NOW + 20 * MIN,
      resolveReason: "recovered",
    });
    const edit = resolvedAlertMessage(resolved, ro);
    expectValid(edit);
    const text = JSON.stringify(edit.blocks);
    expect(text).toContain("✅ *Rezolvat* · ~Transmisie GPS întreruptă~");
    expect(text).toContain(`*OldData* de la <!date^${(NOW - 18 * MIN) / 1000}^{date_num} {time}|`);
    expect(text).toContain("— a durat *38–43 min*");
    expect(text).toContain("(s-a încheiat între două verificări)");
    expect(text).toContain("_transmisia a revenit la normal_");
    expect(buttons(edit.blocks)).toEqual([]);
    expect(edit.text).toBe(
      "✅ Rezolvat: Transmisie GPS întreruptă, cod UIT Y45R-577U-N544-GY4S — a durat 38–43 min",
    );
    const reply = resolvedThreadReply(resolved, ro);
    expect(reply.text).toBe(
      "✅ Rezolvat: transmisia a revenit la normal. A durat 38–43 min (s-a încheiat între două verificări).",
    );
    expect(JSON.stringify(reply.blocks)).toContain(
      `✅ Rezolvat <!date^${(NOW + 25 * MIN) / 1000}^{date_num} {time}|`,
    );
    for (const word of ENGLISH) expect(JSON.stringify([edit, reply])).not.toContain(word);
  });

  it("hours read the same in both languages: 17 h 47 min, not days", () => {
    const long = incident({
      state: "resolved",
      resolvedAt: NOW,
      lastSeenAt: NOW,
      firstSeenAt: NOW - (17 * 60 + 47) * MIN,
      endEvidenceMs: NOW,
    });
    expect(resolvedAlertMessage(long, ro).text).toContain("a durat 17 h 47 min");
    expect(resolvedAlertMessage(long, { language: "en", timeZone: ZONE }).text).toContain(
      "lasted 17 h 47 min",
    );
  });

  it("English stays English, with Slack's pretty dates", () => {
    const message = alertMessage(incident(), "C0ALERTS", { language: "en", timeZone: ZONE, nowMs: NOW });
    const text = JSON.stringify(message.blocks);
    expect(text).toContain("*Transmission problem*");
    expect(text).toContain("*Transmission:* OldData — data older than 6 hours");
    expect(text).toContain("{date_short_pretty} {time}|Tue 3 Nov, 09:42>");
    expect(buttons(message.blocks).map((b) => b.text.text)).toEqual([
      "Pause",
      "End",
      "Show transport",
      "Mute 24 h",
    ]);
  });

  it("a vehicle abroad, a change request and a hidden transport use the catalogue's names", () => {
    const abroad = alertMessage(
      incident({
        code: "NotInRomania",
        facts: { ...facts, transmissionStatusCode: "NotInRomania", endLocation: "Wien, AT" },
      }),
      "C1",
      ro,
    );
    expect(abroad.text).toContain("Vehicul în afara României");
    const cr = alertMessage(incident({ kind: "changerequest", code: "ResponseError" }), "C1", ro);
    expect(JSON.stringify(cr.blocks)).toContain(
      "*Cerere de modificare a vehiculului:* ResponseError — finalizată cu eroare",
    );
    const vanished = alertMessage(incident({ kind: "vanished", code: "Vanished" }), "C1", ro);
    expect(JSON.stringify(vanished.blocks)).toContain("era În desfășurare");
  });
});

describe("a grouped alert in Romanian", () => {
  const member = (n: number, overrides: Partial<IncidentRecord> = {}): IncidentRecord =>
    incident({
      id: `6c1d2e0a-0000-4000-8000-${String(n).padStart(12, "0")}`,
      transportUId: `t-${n}`,
      codeUit: `UIT${String(n).padStart(13, "0")}`,
      code: "Error",
      facts: {
        uId: `t-${n}`,
        codeUit: `UIT${String(n).padStart(13, "0")}`,
        statusId: 2,
        carrierCode: `B-${n}-XYZ`,
      },
      ...overrides,
    });

  it("counts with Romanian plurals (20 de transporturi) and dates with {date_num}", () => {
    const incidents = Array.from({ length: 20 }, (_, i) =>
      member(i, i < 2 ? { state: "resolved", resolvedAt: NOW } : {}),
    );
    const message = groupedAlertMessage({ id: "g-1", incidents }, { timeZone: ZONE, language: "ro" });
    expect(validateMessagePayload(message)).toEqual([]);
    const text = JSON.stringify(message.blocks);
    expect(JSON.stringify(message.blocks[0])).toContain("🔴 Transmisie GPS întreruptă · 20 de transporturi");
    expect(text).toContain("*18 alerte deschise* · 2 alerte rezolvate · din <!date^");
    expect(text).toContain("{date_num} {time}");
    expect(text).toContain("sunt în thread");
    expect(text).toContain("Grupate: 20 de transporturi cu probleme la aceeași verificare.");
    expect(message.text).toContain("18 transporturi (Error ×18)");
    const done = groupedAlertMessage(
      { id: "g-1", incidents: incidents.map((i) => ({ ...i, state: "resolved" as const, resolvedAt: NOW })) },
      { language: "ro" },
    );
    expect(JSON.stringify(done.blocks[0])).toContain(
      "✅ Rezolvat · Transmisie GPS întreruptă · 20 de transporturi",
    );
    expect(JSON.stringify(done.blocks)).toContain("Toate cele 20 de alerte au fost rezolvate.");
    expect(done.text).toBe("✅ Rezolvat: Transmisie GPS întreruptă, 20 de transporturi");
  });

  it("English is unchanged", () => {
    const message = groupedAlertMessage({ id: "g-1", incidents: [member(1), member(2)] }, { language: "en" });
    expect(JSON.stringify(message.blocks[0])).toContain("🔴 Transmission problem · 2 transports");
    expect(JSON.stringify(message.blocks)).toContain("Grouped: 2 transports went wrong in one sweep.");
  });
});

describe("a Romanian alert muted and unmuted", () => {
  it("the line and the swapped button follow the alert's language, read from its buttons", () => {
    const alert = alertMessage(incident(), "C0ALERTS", { language: "ro" });
    expect(alertLanguageOf(alert.blocks)).toBe("ro");
    expect(alertLanguageOf(alertMessage(incident(), "C0ALERTS", { language: "en" }).blocks)).toBe("en");
    const muted = alertBlocksWithMute(alert.blocks, { userId: "U1", until: NOW + 3600_000, timeZone: ZONE });
    expect(JSON.stringify(muted)).toContain("🔕 Alerte oprite până la <!date^");
    expect(JSON.stringify(muted)).toContain("Reactivează alertele");
    const unmuted = alertBlocksWithoutMute(muted, { userId: "U2" });
    expect(JSON.stringify(unmuted)).toContain("🔔 Alerte reactivate de <@U2>");
    expect(JSON.stringify(unmuted)).toContain("Fără alerte 24 h");
  });
});

describe("the digest in Romanian", () => {
  it("says open alerts, statuses and expiring UITs in Romanian", () => {
    const message = digestMessage({
      account: "demo",
      incidents: [incident(), incident({ id: "x2", kind: "stalled", code: "Stalled" })],
      countsByStatus: { 2: 21, 6: 1 },
      expiring: [{ ...facts, validityEndMs: NOW + 3600_000 }],
      nowMs: NOW,
      timeZone: ZONE,
      language: "ro",
    });
    const text = JSON.stringify(message.blocks);
    expect(text).toContain("Rezumat e-Transport · demo");
    expect(text).toContain("În desfășurare: *21* · În pauză: *1*");
    expect(text).toContain("Alerte deschise (2: 1 transmisie blocată)");
    expect(text).toContain("expiră la <!date^");
    expect(message.text).toBe(
      "Rezumat e-Transport: 2 alerte deschise (1 transmisie blocată), 1 cod UIT expiră în mai puțin de o zi",
    );
  });
});

describe("a post's last failure, stored as a code", () => {
  it("reads in the reader's language; a row stored before codes shows its words", () => {
    expect(postFailureText("en", "channel:is_archived")).toBe(
      "The channel is archived: unarchive it or subscribe another channel.",
    );
    expect(postFailureText("ro", "channel:is_archived")).toContain("Canalul este arhivat");
    expect(postFailureText("en", "other:invalid_blocks")).toBe("Slack refused the message (invalid_blocks).");
    expect(postFailureText("ro", "message_gone")).toBe("Mesajul alertei a fost șters.");
    expect(postFailureText("en", "other")).toMatch(/retried on the next poll/);
    expect(postFailureText("en", "Slack refused the message (x).")).toBe("Slack refused the message (x).");
  });
});
