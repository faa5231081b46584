/**
 * Channel alerts in the subscription's language, through the whole bot: `/fleet alerts
 * subscribe lang=ro`, a transmission error posted in Romanian (TrackGPS's status name, Slack's
 * numeric date tokens, Romanian buttons), its resolution edited in Romanian too; a language
 * fleetbot does not speak is refused with an example that works.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ACTIONS } from "../../../src/platform/slack/actionIds.js";
import {
  alertMessagesFor,
  type BotHarness,
  buttonsOf,
  startBotHarness,
  textOf,
} from "../../helpers/botHarness.js";

let h: BotHarness;
const USER = "U0DISPATCH";
const CHANNEL = "C0GENERAL";

beforeAll(async () => {
  h = await startBotHarness();
});
afterAll(async () => {
  await h.close();
});
afterEach(() => {
  expect(h.fake.violations).toEqual([]);
});

const fleet = async (text: string, userId = USER, channelId = CHANNEL) => {
  const result = await h.driver.slashCommand({ command: "/fleet", text, userId, channelId });
  await h.bot.slack.idle();
  return result;
};
const sim = () => h.bot.simulator!;
const alertsFor = (uit: string) => alertMessagesFor(h.fake, CHANNEL, uit);
/** What the user was last told: the ack, or the answer by response_url (ephemeral). */
const lastAnswer = (result: unknown) =>
  `${JSON.stringify(result)} ${textOf(
    h.fake
      .messages(CHANNEL)
      .filter((m) => m.visibleTo === USER)
      .at(-1),
  )}`;
const lastSeen = () =>
  h.fake
    .messages(CHANNEL)
    .filter((m) => m.visibleTo === USER)
    .at(-1);
const runningActive = () =>
  sim()
    .control.transports()
    .find((t) => t.statusId === 2 && !t.pinnedTransmission)!;

describe("transport alerts in the subscription's language", () => {
  let broken = "";

  it("a language fleetbot does not speak is refused with an example that works; nothing is subscribed", async () => {
    const result = await fleet("alerts subscribe Error lang=de");
    const answer = lastAnswer(result);
    expect(answer).toContain("lang=de");
    expect(answer).toContain("lang=ro");
    expect(answer).toContain("/fleet alerts subscribe Error OldData lang=ro");
    await fleet("alerts list");
    expect(textOf(lastSeen())).toContain("No alert subscriptions");
  });

  it("`alerts subscribe lang=ro` stores Romanian, and the list shows it", async () => {
    await fleet("alerts subscribe lang=ro");
    expect(textOf(lastSeen())).toContain("alerts in Romanian");
    await fleet("alerts list");
    expect(textOf(lastSeen())).toContain("alerts in Romanian");
  });

  it("a transmission error is posted in Romanian: status name, {date_num} tokens, buttons", async () => {
    await h.bot.alerts.runOnce(); // the demo fleet's existing problems
    broken = runningActive().codeUit;
    sim().control.setTransport(broken, { transmissionStatusCode: "NoGPSCoordinates" });
    await h.bot.alerts.runOnce();
    const [alert] = alertsFor(broken);
    expect(alertsFor(broken)).toHaveLength(1);
    const text = textOf(alert);
    expect(text).toContain("Transmisie GPS întreruptă");
    expect(text).toContain("*Transmisie:* NoGPSCoordinates — fără semnal GPS");
    expect(text).toContain("{date_num} {time}");
    expect(text).not.toContain("{date_short_pretty}");
    expect(text).not.toMatch(/Transmission problem|Since|Show transport/);
    expect(buttonsOf(alert, ACTIONS.alertMute)).toHaveLength(1);
    const labels = JSON.stringify(alert?.blocks);
    for (const label of ["Pauză", "Finalizează", "Arată transportul", "Fără alerte 24 h"]) {
      expect(labels).toContain(`"text":"${label}"`);
    }
    expect(alert?.text).toContain("cod UIT");
  });

  it("recovery edits the alert to resolved in Romanian, and the thread reply is Romanian", async () => {
    sim().control.setTransport(broken, { transmissionStatusCode: "Active" });
    await h.bot.alerts.runOnce();
    const alert = alertsFor(broken)[0]!;
    expect(alert.revisions).toBeGreaterThan(0);
    const text = textOf(alert);
    expect(text).toContain("✅ *Rezolvat*");
    expect(text).toContain("a durat");
    expect(text).toContain("{date_num} {time}");
    expect(text).not.toMatch(/Resolved|lasted/);
    expect(buttonsOf(alert, ACTIONS.alertMute)).toEqual([]);
    const replies = h.fake.messages(CHANNEL).filter((m) => m.threadTs === alert.ts);
    expect(replies).toHaveLength(1);
    expect(textOf(replies[0])).toContain("✅ Rezolvat");
    expect(textOf(replies[0])).toContain("transmisia a revenit la normal");
  });
});
