import type { KnownBlock } from "@slack/types";
import { describe, expect, it } from "vitest";
import { alertOptions } from "../../../src/features/alerts/slack/listeners.js";
import { digestMessage } from "../../../src/features/alerts/slack/views/digest.js";
import { alertMutedMessage, alertUnmutedMessage } from "../../../src/features/alerts/slack/views/mute.js";
import {
  alertFilterErrorMessage,
  alertOptionProblemMessage,
  subscriptionChangedMessage,
  subscriptionRefusalMessage,
} from "../../../src/features/alerts/slack/views/subscriptionAnswers.js";
import { subscriptionListMessage } from "../../../src/features/alerts/slack/views/subscriptionList.js";
import { AlertSubscriptions, InvalidAlertFilterError } from "../../../src/features/alerts/subscriptions.js";
import type { AlertSubscription } from "../../../src/platform/store/contract/index.js";
import { totalText, validateMessagePayload } from "../../../src/sandbox/fakeSlack/limits.js";

/**
 * What one person reads of `/fleet alerts list|subscribe|unsubscribe` and of a click on an
 * alert's Mute / Unmute, in their own language: English exactly as before, Romanian in the
 * dispatchers' words, with Romanian plurals and numbers.
 */

const NOW = Date.UTC(2026, 10, 24, 12, 5, 0);
const ZONE = "Europe/Bucharest";

const sub: AlertSubscription = {
  id: "s1",
  workspace: "",
  channel: "G0PRIVATE",
  account: "demo",
  createdBy: "U0DISPATCH",
  codes: ["Error"],
  excludeCodes: ["expiry"],
  vehicles: Array.from({ length: 12 }, (_, i) => `B-${100 + i}-ABC`),
  minDurationMinutes: 90,
  staleMinutes: 30,
  language: "ro",
  watch: {},
  createdAt: NOW,
};
const plain: AlertSubscription = {
  ...sub,
  channel: "C1",
  createdBy: undefined,
  codes: [],
  excludeCodes: [],
  vehicles: [],
  minDurationMinutes: 0,
  staleMinutes: 0,
  language: undefined,
};

const said = (message: { text: string; blocks: KnownBlock[] }): string =>
  [message.text, ...message.blocks.map((b) => JSON.stringify(b))].join("\n");

function expectValid(message: { text: string; blocks: KnownBlock[] }): void {
  expect(validateMessagePayload(message)).toEqual([]);
  expect(totalText(message.blocks)).toBeLessThanOrEqual(11_000);
}

/** Words an English answer would have: a Romanian one must have none of them. */
const ENGLISH =
  /\b(alerts? of|now gets|no longer|member|every transport alert kind|except|vehicles|after|workspace account|stalled|muted|Example|Known)\b/;

describe("/fleet alerts list in the reader's language", () => {
  const failures = { G0PRIVATE: { codeUit: "X", error: "channel:not_in_channel", attempts: 3 } };

  it("English stays as it was, durations in the one form", () => {
    const message = subscriptionListMessage([sub, plain], { failures }, "en");
    expectValid(message);
    const text = said(message);
    expect(message.text).toBe("2 alert subscriptions");
    expect(text).toContain("<#G0PRIVATE> as *demo*");
    expect(text).toContain("codes Error");
    expect(text).toContain("except expiry");
    expect(text).toContain("and 2 more");
    expect(text).toContain("after 1 h 30 min");
    expect(text).toContain("stalled after 30 min without a position");
    expect(text).toContain("alerts in Romanian");
    expect(text).toContain("by <@U0DISPATCH>");
    expect(text).toContain("every transport alert kind");
    expect(text).toContain("no stalled alerts");
    expect(text).toContain("alerts in the workspace's language");
    expect(text).toContain("workspace account");
    expect(text).toContain("last post failed (3×): fleetbot is not in this private channel");
    expect(subscriptionListMessage([sub], {}, "en").text).toBe("1 alert subscription");
    expect(subscriptionListMessage([], {}, "en").text).toBe(
      "No alert subscriptions. Subscribe a channel with `/fleet alerts subscribe #channel`.",
    );
  });

  it("Romanian: every part of a subscription, the failure, and Romanian plurals", () => {
    const message = subscriptionListMessage([sub, plain], { failures }, "ro");
    expectValid(message);
    const text = said(message);
    expect(message.text).toBe("2 abonamente la alerte");
    expect(text).toContain("<#G0PRIVATE> cu contul *demo*");
    expect(text).toContain("coduri Error");
    expect(text).toContain("fără expiry");
    expect(text).toContain("și încă 2");
    expect(text).toContain("după 1 h 30 min");
    expect(text).toContain("transmisie blocată după 30 min fără nicio poziție");
    expect(text).toContain("alerte în română");
    expect(text).toContain("adăugat de <@U0DISPATCH>");
    expect(text).toContain("toate alertele de transport");
    expect(text).toContain("fără alerte de transmisie blocată");
    expect(text).toContain("alerte în limba workspace-ului");
    expect(text).toContain("contul workspace-ului");
    expect(text).toContain("ultima trimitere a eșuat (3×): fleetbot nu este în acest canal privat");
    expect(text).not.toMatch(ENGLISH);
    expect(subscriptionListMessage([sub], {}, "ro").text).toBe("1 abonament la alerte");
    const many = subscriptionListMessage(
      Array.from({ length: 45 }, (_, i) => ({ ...sub, channel: `C${i}` })),
      {},
      "ro",
    );
    expectValid(many);
    expect(many.text).toBe("45 de abonamente la alerte");
    expect(said(many)).toMatch(/…și încă \d+/);
    expect(said(subscriptionListMessage([], {}, "ro"))).toContain("Niciun abonament la alerte");
  });
});

describe("subscribe / unsubscribe answers in the reader's language", () => {
  const changes = [
    [
      "subscribed",
      sub,
      "🔔 <#G0PRIVATE> now gets alerts of *demo*: codes Error · except expiry",
      "🔔 <#G0PRIVATE> primește acum alertele pentru *demo*: coduri Error",
    ],
    [
      "updated",
      sub,
      "🔔 Alerts of *demo* in <#G0PRIVATE> updated: ",
      "🔔 Alertele pentru *demo* din <#G0PRIVATE> au fost actualizate: ",
    ],
    [
      "unsubscribed",
      { channel: "C1", account: "demo" },
      "🔕 <#C1> no longer gets transport alerts of *demo*.",
      "🔕 <#C1> nu mai primește alerte de transport pentru *demo*.",
    ],
    [
      "unsubscribed",
      { channel: "C1" },
      "🔕 <#C1> no longer gets transport alerts.",
      "🔕 <#C1> nu mai primește alerte de transport.",
    ],
    [
      "not-subscribed",
      { channel: "C1", account: "demo" },
      "<#C1> had no alert subscription for *demo*.",
      "<#C1> nu avea abonament la alerte pentru *demo*.",
    ],
    [
      "not-subscribed",
      { channel: "C1" },
      "<#C1> had no alert subscription.",
      "<#C1> nu avea abonament la alerte.",
    ],
  ] as const;

  it.each(changes)("%s: English and Romanian", (change, subscription, english, romanian) => {
    const en = subscriptionChangedMessage(change, subscription, "en");
    const ro = subscriptionChangedMessage(change, subscription, "ro");
    expectValid(en);
    expectValid(ro);
    expect(en.text).toContain(english);
    expect(ro.text).toContain(romanian);
    expect(ro.text).not.toMatch(ENGLISH);
  });
});

describe("the channel checks' refusals in the reader's language", () => {
  const cases = [
    [
      { refusal: "not-member", channel: "C9" },
      "You are not a member of <#C9>",
      "Run the command in that channel",
      "Nu ești membru în <#C9>",
      "Intră în canal, apoi rulează comanda acolo.",
    ],
    [
      { refusal: "membership-unknown", channel: "C9" },
      "Slack did not say whether you are a member of <#C9>",
      "Try again in a minute.",
      "Slack nu ne-a transmis dacă ești membru în <#C9>; nu s-a schimbat nimic",
      "Încearcă din nou peste un minut.",
    ],
    [
      { refusal: "configured", channel: "C9" },
      "from fleetbot's configuration (ALERTS_CHANNEL)",
      "the operator can change ALERTS_CHANNEL",
      "din configurația lui fleetbot (ALERTS_CHANNEL)",
      "cine administrează fleetbot poate schimba ALERTS_CHANNEL",
    ],
    [
      { refusal: "cannot-post", channel: "G9", code: "not_in_channel" },
      "invite fleetbot to the private channel (/invite @fleetbot)",
      "Invite fleetbot with /invite @fleetbot, then subscribe again.",
      "invită-l în canal cu /invite @fleetbot",
      "Invită fleetbot cu /invite @fleetbot, apoi abonează din nou canalul.",
    ],
    [
      { refusal: "cannot-post", channel: "G9", code: "is_archived" },
      "The channel is archived",
      "then subscribe again",
      "Canalul este arhivat",
      "apoi abonează din nou canalul",
    ],
  ] as const;

  it.each(cases)("%o", (refusal, english, englishDetail, romanian, romanianDetail) => {
    const en = said(subscriptionRefusalMessage(refusal, "en"));
    const ro = said(subscriptionRefusalMessage(refusal, "ro"));
    expectValid(subscriptionRefusalMessage(refusal, "ro"));
    expect(en).toContain(english);
    expect(en).toContain(englishDetail);
    expect(ro).toContain(romanian);
    expect(ro).toContain(romanianDetail);
    expect(ro).not.toMatch(ENGLISH);
  });
});

describe("filter problems: the domain gives codes, the answer words them with an example that works", () => {
  const subs = new AlertSubscriptions({} as never);
  const problemOf = async (filters: Parameters<AlertSubscriptions["subscribe"]>[3]) => {
    try {
      await subs.subscribe("C1", "demo", "U1", filters);
    } catch (error) {
      if (error instanceof InvalidAlertFilterError) return error.detail;
      throw error;
    }
    throw new Error("accepted");
  };

  it("unknown codes: one and several, in both languages, with the known codes", async () => {
    const one = await problemOf({ codes: ["Bogus", "Error"] });
    expect(one).toEqual({ problem: "unknown-codes", unknownCodes: ["Bogus"] });
    expect(said(alertFilterErrorMessage(one, "en"))).toContain(
      "Unknown alert code: Bogus. Known: Error, OldData, NoGPSCoordinates, NotInRomania, MissingETransportConfiguration, WithoutTransmission, ResponseError, RequestErrorSent, ValidityEnding, NotStarted, Vanished, Stalled, PowerCut, Zone, Idle, Speeding, Offline, Towed, AfterHours, Temperature, or a kind (transmission, changerequest, expiry, notstarted, vanished, stalled).",
    );
    expect(said(alertFilterErrorMessage(one, "en"))).toContain(
      "Example: /fleet alerts subscribe Error OldData min=15",
    );
    const ro = said(alertFilterErrorMessage(one, "ro"));
    expect(ro).toContain("Cod de alertă necunoscut: Bogus. Coduri cunoscute: Error, OldData");
    expect(ro).toContain("sau un tip (transmission, changerequest");
    expect(ro).toContain("Exemplu: /fleet alerte abonează Error OldData min=15");
    const two = await problemOf({ exclude: ["Foo", "Bar"] });
    expect(said(alertFilterErrorMessage(two, "en"))).toContain("Unknown alert codes: Foo, Bar.");
    expect(said(alertFilterErrorMessage(two, "ro"))).toContain("Coduri de alertă necunoscute: Foo, Bar.");
  });

  it("durations out of range", async () => {
    const min = await problemOf({ minDurationMinutes: 5000 });
    expect(said(alertFilterErrorMessage(min, "en"))).toContain(
      "The minimum duration must be between 0 and 1,440 minutes.",
    );
    expect(said(alertFilterErrorMessage(min, "ro"))).toContain(
      "Durata minimă trebuie să fie între 0 și 1.440 de minute.",
    );
    const stale = await problemOf({ staleMinutes: -1 });
    expect(said(alertFilterErrorMessage(stale, "en"))).toContain(
      "stale= must be whole minutes from 0 (off) to 360.",
    );
    expect(said(alertFilterErrorMessage(stale, "ro"))).toContain("de la 0 (oprit) la 360");
  });

  it("options that cannot be read (min=, stale=, lang=): the option as typed, and an example", () => {
    const problem = (typed: string) => alertOptions(`alerts subscribe Error ${typed}`).problem!;
    expect(problem("min=abc")).toEqual({ option: "min", value: "abc" });
    const cases = [
      [
        "min=abc",
        "`min=abc` must be whole minutes from 0 to 1,440.",
        "`min=abc` trebuie să fie un număr întreg de minute, de la 0 la 1.440.",
      ],
      [
        "stale=999",
        "`stale=999` must be whole minutes from 0 (off) to 360, for example `stale=45`.",
        "`stale=999` trebuie să fie un număr întreg de minute, de la 0 (oprit) la 360, de exemplu `stale=45`.",
      ],
      [
        "lang=de",
        "`lang=de` is not a language fleetbot speaks: use `lang=ro` (Romanian) or `lang=en` (English), for example `/fleet alerts subscribe Error OldData lang=ro`.",
        "`lang=de` nu este o limbă pe care o vorbește fleetbot: folosește `lang=ro` (română) sau `lang=en` (engleză), de exemplu `/fleet alerts subscribe Error OldData lang=ro`.",
      ],
    ] as const;
    for (const [typed, english, romanian] of cases) {
      const en = alertOptionProblemMessage(problem(typed), "en");
      const ro = alertOptionProblemMessage(problem(typed), "ro");
      expectValid(en);
      expectValid(ro);
      expect(en.text).toBe(`:warning: ${english}`);
      expect(ro.text).toBe(`:warning: ${romanian}`);
      // One example each: `min=` gets it beneath; `stale=` and `lang=` say theirs in the sentence.
      const beneath = typed.startsWith("min=");
      expect(
        said(en).includes("Example: /fleet alerts subscribe Error OldData min=15 exclude=NotInRomania"),
      ).toBe(beneath);
      expect(
        said(ro).includes("Exemplu: /fleet alerte abonează Error OldData min=15 exclude=NotInRomania"),
      ).toBe(beneath);
    }
  });
});

describe("the answer to Mute / Unmute, in the clicker's language", () => {
  const UIT = "Y45R577UN544GY4S";

  it("English: the UIT, the channel, and a date token", () => {
    const muted = alertMutedMessage(UIT, "C1", NOW + 24 * 3600_000, ZONE, "en");
    expectValid(muted);
    expect(muted.text).toMatch(/^Alerts of UIT .+ muted for 24 h\.$/);
    expect(said(muted)).toMatch(/are muted in <#C1> until <!date\^\d+\^\{date_short_pretty\} \{time\}\|/);
    const unmuted = alertUnmutedMessage(UIT, "C1", "en");
    expectValid(unmuted);
    expect(unmuted.text).toMatch(/^Alerts of UIT .+ no longer muted\.$/);
    expect(said(unmuted)).toContain(
      "are no longer muted in <#C1>: a problem still there is posted at the next check.",
    );
  });

  it("Romanian: Romanian words and Slack's numeric date token (no English date words)", () => {
    const muted = alertMutedMessage(UIT, "C1", NOW + 24 * 3600_000, ZONE, "ro");
    expectValid(muted);
    expect(muted.text).toMatch(/^Alertele pentru codul UIT .+ sunt oprite pentru 24 h\.$/);
    const text = said(muted);
    expect(text).toMatch(/sunt oprite în <#C1> până la <!date\^\d+\^\{date_num\} \{time\}\|/);
    expect(text).toContain("miercuri, 25 nov., 14:05");
    expect(text).not.toContain("{date_short_pretty}");
    const unmuted = alertUnmutedMessage(UIT, "C1", "ro");
    expectValid(unmuted);
    expect(unmuted.text).toMatch(/^Alertele pentru codul UIT .+ sunt reactivate\.$/);
    expect(said(unmuted)).toContain("nu mai sunt oprite în <#C1>");
    expect(said(unmuted)).not.toMatch(ENGLISH);
  });
});

describe("the digest's counts in the one number form of each language", () => {
  it("1,234 in English, 1.234 in Romanian", () => {
    const input = { incidents: [], countsByStatus: { 2: 1234 }, expiring: [], account: "demo", nowMs: NOW };
    expect(said(digestMessage({ ...input, language: "en" }))).toContain("In Progress: *1,234*");
    expect(said(digestMessage({ ...input, language: "ro" }))).toContain("În desfășurare: *1.234*");
  });
});
