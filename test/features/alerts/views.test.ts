import type { ActionsBlock, Block, Button, KnownBlock } from "@slack/types";
import { describe, expect, it } from "vitest";
import type { IncidentRecord } from "../../../src/features/alerts/incidents.js";
import { digestMessage } from "../../../src/features/alerts/slack/views/digest.js";
import { alertMessage } from "../../../src/features/alerts/slack/views/incidentMessage.js";
import {
  alertBlocksWithMute,
  alertBlocksWithoutMute,
  alertMutedMessage,
  alertUnmutedMessage,
  parseAlertMuteValue,
} from "../../../src/features/alerts/slack/views/mute.js";
import {
  resolvedAlertMessage,
  resolvedThreadReply,
} from "../../../src/features/alerts/slack/views/resolution.js";
import { subscriptionChangedMessage } from "../../../src/features/alerts/slack/views/subscriptionAnswers.js";
import { subscriptionListMessage } from "../../../src/features/alerts/slack/views/subscriptionList.js";
import { parseTransportButtonValue } from "../../../src/features/etransport/slack/views/buttonValues.js";
import type { TransportView } from "../../../src/features/etransport/types.js";
import { ACTIONS } from "../../../src/platform/slack/actionIds.js";
import type { AlertSubscription } from "../../../src/platform/store/contract/index.js";
import { totalText, validateMessagePayload } from "../../../src/sandbox/fakeSlack/limits.js";

const NOW = Date.UTC(2026, 10, 3, 8, 0, 0);
const MIN = 60_000;

const facts: TransportView = {
  uId: "0f8fad5b-d9cb-469f-a165-70867728950e",
  codeUit: "Y45R577UN544GY4S",
  statusId: 2,
  carrierCode: "B-123-ABC",
  carrierName: "Volvo FH <Truck 12> & co",
  transmissionStatusCode: "NoGPSCoordinates",
  transmissionStatusErrorDescription: "Echipamentul GPS nu raportează coordonate",
  lastGpsMs: NOW - 20 * MIN,
  lastTransmissionMs: NOW - 18 * MIN,
  validityEndMs: NOW + 8 * 3600_000,
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
    code: "NoGPSCoordinates",
    firstSeenAt: NOW - 10 * MIN,
    openedAt: NOW - 10 * MIN,
    state: "open",
    lastSeenAt: NOW,
    facts,
    ...overrides,
  };
}

const textOfBlocks = (blocks: KnownBlock[]): string => JSON.stringify(blocks);

const buttons = (blocks: KnownBlock[]): Button[] =>
  blocks.filter((b): b is ActionsBlock => b.type === "actions").flatMap((b) => b.elements as Button[]);

function expectValid(message: { text: string; blocks: KnownBlock[] }): void {
  expect(validateMessagePayload(message)).toEqual([]);
  expect(message.blocks.length).toBeLessThanOrEqual(50);
  expect(totalText(message.blocks)).toBeLessThanOrEqual(11_000);
}

describe("alert message", () => {
  it("shows UIT, vehicle, code and meaning, since when, last GPS and transmission, and four buttons", () => {
    const message = alertMessage(incident(), "C0ALERTS", {
      language: "en",
      timeZone: "Europe/Bucharest",
      nowMs: NOW,
    });
    expectValid(message);
    const text = JSON.stringify(message.blocks);
    expect(text).toContain("Y45R-577U-N544-GY4S");
    expect(text).toContain("B-123-ABC");
    expect(text).toContain("&lt;Truck 12&gt; &amp; co");
    expect(text).toContain("NoGPSCoordinates — no GPS signal");
    // Since: the last time positions reached the platform, 8 min before the poll that saw it.
    expect(text).toContain(`*Since* <!date^${(NOW - 18 * MIN) / 1000}^`);
    expect(text).toContain(`last GPS <!date^${(NOW - 20 * MIN) / 1000}^`);
    expect(text).toContain(`last sent to the platform <!date^${(NOW - 18 * MIN) / 1000}^`);
    expect(message.text).toContain("NoGPSCoordinates");
    const b = buttons(message.blocks);
    expect(b.map((x) => x.action_id)).toEqual([
      ACTIONS.transportPause,
      ACTIONS.transportEnd,
      ACTIONS.transportShow,
      ACTIONS.alertMute,
    ]);
    expect(parseTransportButtonValue(b[0]!.value)).toEqual({ u: facts.codeUit, id: facts.uId });
    expect(parseTransportButtonValue(b[2]!.value)).toEqual({ u: facts.codeUit, id: facts.uId });
    expect(parseAlertMuteValue(b[3]!.value)).toEqual({ u: facts.codeUit, c: "C0ALERTS" });
    expect(b[1]!.confirm).toBeDefined();
  });

  it("offers only the buttons the transport's state allows", () => {
    const pending = incident({
      kind: "notstarted",
      code: "NotStarted",
      facts: { ...facts, statusId: 1, transmissionStatusCode: "NotStarted", startMs: NOW - 3600_000 },
    });
    const message = alertMessage(pending, "C1", { language: "en" });
    expectValid(message);
    expect(buttons(message.blocks).map((x) => x.action_id)).toEqual([
      ACTIONS.transportShow,
      ACTIONS.alertMute,
    ]);
    expect(JSON.stringify(message.blocks)).toContain("Transport not started");
  });

  it.each([
    ["changerequest", "ResponseError", "Vehicle change request failed"],
    ["expiry", "ValidityEnding", "UIT validity ends soon"],
  ] as const)("renders a %s incident", (kind, code, title) => {
    const message = alertMessage(
      incident({ kind, code, facts: { ...facts, changeRequestAuthorityMessage: "respinsă" } }),
      "C1",
      { language: "en", nowMs: NOW },
    );
    expectValid(message);
    const text = JSON.stringify(message.blocks);
    expect(text).toContain(title);
    if (kind === "expiry") {
      // The end as a date token (read live as "today" / "tomorrow"), never "in 8 h", which freezes when posted.
      expect(text).toContain(`*UIT validity ends* <!date^${(NOW + 8 * 3600_000) / 1000}^`);
      expect(text).not.toMatch(/\(in \d/);
    } else expect(text).toContain("completed with error");
  });

  it("the notification text escapes outside words: a vehicle or code named <!channel> pings no one", () => {
    const hostile = "<!channel> & <@U0BOSS>";
    const opened = alertMessage(
      incident({ code: hostile, facts: { ...facts, carrierCode: hostile, codeUit: hostile } }),
      "C1",
      { language: "en" },
    );
    const resolved = resolvedAlertMessage(incident({ facts: { ...facts, codeUit: hostile } }), {
      language: "en",
    });
    const muted = alertMutedMessage(hostile, "C1", NOW + 86_400_000, undefined, "en");
    for (const { text } of [opened, resolved, muted]) {
      expect(text).not.toMatch(/<!channel>|<@U0BOSS>/);
      expect(text).toContain("&lt;!channel&gt; &amp; &lt;@U0BOSS&gt;".slice(0, 20));
    }
  });

  it("stays within limits with absurdly long texts", () => {
    const long = "x<&>".repeat(2000);
    const message = alertMessage(
      incident({
        code: long,
        codeUit: long,
        facts: {
          ...facts,
          codeUit: long,
          uId: long,
          carrierCode: long,
          carrierName: long,
          transmissionStatusErrorDescription: long,
          startLocation: long,
          endLocation: long,
        },
      }),
      "C1",
      { language: "en" },
    );
    expectValid(message);
    expectValid(
      resolvedAlertMessage(incident({ code: long, facts: { ...facts, carrierName: long } }), {
        language: "en",
      }),
    );
  });
});

describe("resolved alert", () => {
  const resolved = incident({ state: "resolved", resolvedAt: NOW + 25 * MIN, resolveReason: "recovered" });

  it("has ✅, how long it lasted (from the last transmission to the recovery), no buttons and new block ids", () => {
    const message = resolvedAlertMessage(resolved, { language: "en" });
    expectValid(message);
    expect(buttons(message.blocks)).toEqual([]);
    const text = JSON.stringify(message.blocks);
    expect(text).toContain("✅");
    expect(text).toContain(`from <!date^${(NOW - 18 * MIN) / 1000}^`);
    // Last seen at NOW, gone at the NOW + 25 min check: the end lies between the two.
    expect(text).toContain("lasted *18–43 min* (it ended between two alert checks)");
    expect(text).toContain("the transmission is back to normal");
    const openIds = alertMessage(resolved, "C1", { language: "en" }).blocks.map((b) => b.block_id);
    for (const b of message.blocks) expect(openIds).not.toContain(b.block_id);
  });

  it("thread reply says when and how long", () => {
    const reply = resolvedThreadReply(resolved, { language: "en" });
    expectValid(reply);
    expect(JSON.stringify(reply.blocks)).toContain(`<!date^${(NOW + 25 * MIN) / 1000}^`);
    expect(reply.text).toContain("It lasted 18–43 min");
    expect(resolvedThreadReply({ ...resolved, resolveReason: "gone" }, { language: "en" }).text).toContain(
      "no longer listed",
    );
  });
});

describe("how long an incident lasted (issue 14, point 10)", () => {
  it("counts from the first poll that saw it when the service gives no earlier evidence", () => {
    const { lastTransmissionMs: _, ...silent } = facts;
    const resolved = incident({ facts: silent, resolvedAt: NOW + 25 * MIN, resolveReason: "recovered" });
    expect(resolvedThreadReply(resolved, { language: "en" }).text).toContain("It lasted 10–35 min");
    expect(JSON.stringify(alertMessage(resolved, "C1", { language: "en" }).blocks)).toContain(
      `*Since* <!date^${(NOW - 10 * MIN) / 1000}^`,
    );
  });

  it("never starts later than the first observation (a last transmission after it is ignored)", () => {
    const resolved = incident({
      facts: { ...facts, lastTransmissionMs: NOW - 2 * MIN },
      resolvedAt: NOW + 25 * MIN,
      resolveReason: "recovered",
    });
    expect(resolvedThreadReply(resolved, { language: "en" }).text).toContain("It lasted 10–35 min");
  });

  it("a fault already under way when fleetbot starts lasts from its start, not from the first poll", () => {
    // Seen at the first poll after a restart; the service says nothing was sent for 1 h 30 min before.
    const resolved = incident({
      firstSeenAt: NOW,
      facts: { ...facts, lastTransmissionMs: NOW - 90 * MIN },
      resolvedAt: NOW + 10 * MIN,
      resolveReason: "recovered",
    });
    expect(resolvedThreadReply(resolved, { language: "en" }).text).toContain(
      "It lasted 1 h 30 min – 1 h 40 min",
    );
    expect(resolvedThreadReply(resolved, { language: "en" }).text).not.toContain("It lasted 10 min");
  });

  it("a failed change request counts from the authority's answer; not started from the planned start", () => {
    const cr = incident({
      kind: "changerequest",
      code: "ResponseError",
      facts: { ...facts, changeRequestAuthorityDateMs: NOW - 30 * MIN },
      resolvedAt: NOW + 10 * MIN,
    });
    expect(resolvedThreadReply(cr, { language: "en" }).text).toContain("It lasted 30–40 min");
    const late = incident({
      kind: "notstarted",
      code: "NotStarted",
      facts: { ...facts, statusId: 1, startMs: NOW - 20 * MIN },
      resolvedAt: NOW + 10 * MIN,
    });
    expect(resolvedThreadReply(late, { language: "en" }).text).toContain("It lasted 20–30 min");
  });
});

describe("severity follows meaning (issue 14, point 10)", () => {
  const abroadRoute = {
    startLocation: "Arad, Zona Industrială Sud",
    endLocation: "Budapesta, Ungaria, Depozit Soroksár",
  };
  const transmission = (code: string, route: Partial<TransportView> = {}) =>
    alertMessage(incident({ code, facts: { ...facts, transmissionStatusCode: code, ...route } }), "C1", {
      language: "en",
    });

  it("NotInRomania on an international route is informational (grey), and does not read as a problem", () => {
    const message = transmission("NotInRomania", abroadRoute);
    expectValid(message);
    const text = JSON.stringify(message.blocks);
    expect(message.text.startsWith("⚪ Vehicle outside Romania")).toBe(true);
    expect(text).not.toContain("🔴");
    expect(text).not.toContain("Transmission problem");
    expect(text).toContain("expected abroad");
  });

  it("NotInRomania on a domestic route (both places in Romania) is a red fault, without 'expected abroad'", () => {
    const message = transmission("NotInRomania", {
      startLocation: "București, Depou Militari",
      endLocation: "Sibiu, Zona Industrială Vest",
    });
    const text = JSON.stringify(message.blocks);
    expect(message.text.startsWith("🔴 Transmission problem")).toBe(true);
    expect(text).not.toContain("expected abroad");
    expect(text).toContain("The route is within Romania");
  });

  it("NotInRomania towards a border crossing, or with an unknown place, is informational", () => {
    expect(
      transmission("NotInRomania", {
        startLocation: "Timișoara, Calea Aradului 92",
        endLocation: "Nădlac II, punct de trecere a frontierei",
      }).text.startsWith("⚪"),
    ).toBe(true);
    expect(
      transmission("NotInRomania", { startLocation: "Depozit 3", endLocation: "Client X" }).text.startsWith(
        "⚪",
      ),
    ).toBe(true);
  });

  it.each([
    ["Error", "🔴"],
    ["NoGPSCoordinates", "🔴"],
    ["MissingETransportConfiguration", "🔴"],
    ["OldData", "🟠"],
    ["WithoutTransmission", "🟠"],
  ])("%s is %s", (code, mark) => {
    const message = transmission(code, abroadRoute);
    expect(message.text.startsWith(`${mark} Transmission problem`)).toBe(true);
    expect(JSON.stringify(message.blocks)).toContain(`${mark} *Transmission problem*`);
  });

  it("the digest marks each open alert by its severity", () => {
    const message = digestMessage({
      language: "en",
      incidents: [
        incident({ id: "a", code: "OldData" }),
        incident({ id: "b", code: "NotInRomania", facts: { ...facts, ...abroadRoute } }),
        incident({ id: "c", code: "Error" }),
      ],
      countsByStatus: { 2: 3 },
      expiring: [],
      account: "demo",
      nowMs: NOW,
    });
    const text = JSON.stringify(message.blocks);
    expect(text).toContain("🟠");
    expect(text).toContain("⚪");
    expect(text).toContain("Vehicle outside Romania: NotInRomania");
    expect(text.match(/🔴/g)).toHaveLength(1);
  });
});

describe("the new kinds", () => {
  it("the digest counts hidden and stalled transports apart", () => {
    const message = digestMessage({
      language: "en",
      incidents: [
        incident({ id: "a", kind: "vanished", code: "Vanished" }),
        incident({ id: "b", kind: "stalled", code: "Stalled" }),
        incident({ id: "c", kind: "stalled", code: "Stalled" }),
        incident({ id: "d", code: "Error" }),
      ],
      countsByStatus: { 2: 4 },
      expiring: [],
      account: "demo",
      nowMs: NOW,
    });
    expect(message.text).toContain("4 open alerts (1 no longer listed, 2 stalled)");
    expect(JSON.stringify(message.blocks)).toContain("Open alerts (4: 1 no longer listed, 2 stalled)");
    expect(validateMessagePayload(message)).toEqual([]);
  });

  it("a vanished alert is red and says to check TrackGPS; a stalled one is amber with how long and how long is left", () => {
    const vanished = alertMessage(incident({ kind: "vanished", code: "Vanished" }), "C1", {
      language: "en",
      nowMs: NOW,
    });
    expect(vanished.text.startsWith("🔴 No longer listed by the service")).toBe(true);
    expect(textOfBlocks(vanished.blocks)).toMatch(
      /may be in Error, which the service hides: check it in TrackGPS/,
    );
    const stalled = alertMessage(
      incident({
        kind: "stalled",
        code: "Stalled",
        facts: {
          ...facts,
          transmissionStatusCode: "Active",
          lastTransmissionMs: NOW - 90 * MIN,
          lastGpsMs: NOW - MIN,
        },
      }),
      "C1",
      { language: "en", nowMs: NOW },
    );
    expect(stalled.text.startsWith("🟠 Transmission stalled")).toBe(true);
    // Durations, so the reader does no subtraction (issue 22), and the times beside them as date
    // tokens, which stay true after the post.
    const since = (NOW - 90 * MIN) / 1000;
    const limit = (NOW - 90 * MIN + 6 * 3600_000) / 1000;
    const text = textOfBlocks(stalled.blocks);
    expect(text).toContain(`*Nothing sent for 1 h 30 min* (last position sent <!date^${since}^`);
    expect(text).toContain(`*4 h 30 min left before the 6-hour limit* (<!date^${limit}^`);
    expect(validateMessagePayload(stalled)).toEqual([]);
  });
});

describe("a muted alert", () => {
  const actionIds = (blocks: readonly Block[]) => buttons(blocks as KnownBlock[]).map((b) => b.action_id);

  it("gains one 'Muted until … by @…' line above its buttons, and Unmute instead of Mute", () => {
    const alert = alertMessage(incident(), "C1", { language: "en" });
    const until = NOW + 24 * 3600_000;
    const once = alertBlocksWithMute(alert.blocks, { userId: "U0ANA", until });
    expect(once.map((b) => b.type)).toEqual(["section", "context", "context", "actions"]);
    expect(JSON.stringify(once[2])).toContain(`🔕 Muted until <!date^${until / 1000}^`);
    expect(JSON.stringify(once[2])).toContain("by <@U0ANA>");
    expect(actionIds(once)).not.toContain(ACTIONS.alertMute);
    expect(actionIds(once).at(-1)).toBe(ACTIONS.alertUnmute);
    const unmute = buttons(once as KnownBlock[]).find((b) => b.action_id === ACTIONS.alertUnmute);
    expect(parseAlertMuteValue(unmute?.value)).toEqual({ u: facts.codeUit, c: "C1" });
    expect(validateMessagePayload({ text: alert.text, blocks: once })).toEqual([]);
  });

  it("unmuted, says who unmuted it and offers Mute again; a mute after that replaces the line", () => {
    const alert = alertMessage(incident(), "C1", { language: "en" });
    const muted = alertBlocksWithMute(alert.blocks, { userId: "U0ANA", until: NOW });
    const unmuted = alertBlocksWithoutMute(muted, { userId: "U0BOB" });
    expect(unmuted).toHaveLength(4);
    expect(JSON.stringify(unmuted)).not.toContain("U0ANA");
    expect(JSON.stringify(unmuted[2])).toContain("🔔 Unmuted by <@U0BOB>");
    expect(actionIds(unmuted)).toEqual(actionIds(alert.blocks));
    expect(validateMessagePayload({ text: alert.text, blocks: unmuted })).toEqual([]);
    const again = alertBlocksWithMute(unmuted, { userId: "U0CAROL", until: NOW });
    expect(again).toHaveLength(4);
    expect(JSON.stringify(again)).not.toContain("U0BOB");
    expectValid(alertUnmutedMessage(facts.codeUit, "C1", "en"));
  });
});

describe("digest and subscription views", () => {
  it("digest fits with many incidents and expiring UITs", () => {
    const many = Array.from({ length: 300 }, (_, i) => incident({ id: `i${i}`, codeUit: `UIT${i}` }));
    const expiring = Array.from({ length: 200 }, (_, i) => ({ ...facts, codeUit: `EXP${i}` }));
    const message = digestMessage({
      language: "en",
      incidents: many,
      countsByStatus: { 1: 3, 2: 140, 6: 7 },
      expiring,
      account: "demo",
      nowMs: NOW,
    });
    expectValid(message);
    const text = JSON.stringify(message.blocks);
    expect(text).toContain("In Progress: *140*");
    // Ending times as date tokens only: a digest read the next morning says nothing stale.
    const few = JSON.stringify(
      digestMessage({
        language: "en",
        incidents: [],
        countsByStatus: {},
        expiring: expiring.slice(0, 2),
        account: "demo",
        nowMs: NOW,
      }).blocks,
    );
    expect(few).toContain(`ends <!date^${(NOW + 8 * 3600_000) / 1000}^`);
    expect(few).not.toMatch(/\(in \d/);
    expect(text).toContain("more");
    expect(message.text).toContain("300 open alerts");
    expectValid(
      digestMessage({
        language: "en",
        incidents: [],
        countsByStatus: {},
        expiring: [],
        account: "demo",
        nowMs: NOW,
      }),
    );
  });

  it("lists subscriptions with their filters and the last failure", () => {
    const sub: AlertSubscription = {
      id: "s1",
      workspace: "",
      channel: "G0PRIVATE",
      account: "demo",
      createdBy: "U0DISPATCH",
      codes: ["Error"],
      excludeCodes: ["expiry"],
      vehicles: ["B-123-ABC"],
      minDurationMinutes: 10,
      staleMinutes: 30,
      watch: {},
      createdAt: NOW,
    };
    const message = subscriptionListMessage(
      [sub, { ...sub, channel: "C1", createdBy: undefined }],
      {
        failures: {
          G0PRIVATE: { codeUit: "X", error: "invite fleetbot to the private channel", attempts: 3 },
        },
      },
      "en",
    );
    expectValid(message);
    const text = JSON.stringify(message.blocks);
    expect(text).toContain("<#G0PRIVATE>");
    expect(text).toContain("after 10 min");
    expect(text).toContain("invite fleetbot to the private channel");
    expect(text).toContain("workspace account");
    expectValid(subscriptionListMessage([], undefined, "en"));
    expectValid(
      subscriptionListMessage(
        Array.from({ length: 120 }, (_, i) => ({ ...sub, channel: `C${i}` })),
        undefined,
        "en",
      ),
    );
    expectValid(subscriptionChangedMessage("subscribed", sub, "en"));
    expectValid(subscriptionChangedMessage("unsubscribed", { channel: "C1", account: "demo" }, "en"));
    expectValid(alertMutedMessage(facts.codeUit, "C1", NOW + 24 * 3600_000, undefined, "en"));
  });
});
