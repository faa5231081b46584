/**
 * What one person reads of alerts is in their own language, through the whole bot (signed
 * commands and clicks, the fake Slack): `/fleet alerts list|subscribe|unsubscribe` answers and
 * refusals, and the answer to a click on a channel alert. The alert itself, and the line a mute
 * adds to it, stay in the subscription's language; the answer to the click goes to the clicker
 * in theirs: a Romanian alert clicked by an English user answers in English, and the other way round.
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
const ENGLISH = "U0DISPATCH";
const ROMANIAN = "U0VIEWER";
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

const fleet = async (text: string, userId: string, channelId = CHANNEL) => {
  const result = await h.driver.slashCommand({ command: "/fleet", text, userId, channelId });
  await h.bot.slack.idle();
  return result;
};
const sim = () => h.bot.simulator!;
const alertsFor = (uit: string) => alertMessagesFor(h.fake, CHANNEL, uit);
const ephemerals = (userId: string) => h.fake.messages(CHANNEL).filter((m) => m.visibleTo === userId);
/** What the user was last told: the ack itself, or the last ephemeral answer to them. */
const lastAnswer = (result: unknown, userId: string) =>
  `${JSON.stringify(result)}\n${textOf(ephemerals(userId).at(-1))}`;
const runningActive = (except: string[]) =>
  sim()
    .control.transports()
    .find((t) => t.statusId === 2 && !t.pinnedTransmission && !except.includes(t.codeUit))!;
const click = async (userId: string, alert: { ts: string; blocks?: unknown[] }, actionId: string) => {
  const [button] = buttonsOf(alert, actionId);
  expect(button, actionId).toBeDefined();
  const before = ephemerals(userId).length;
  await h.driver.blockAction({
    userId,
    channelId: CHANNEL,
    messageTs: alert.ts,
    actionId,
    value: button!.value,
  });
  await h.fake.waitFor(() => ephemerals(userId).length > before);
  return textOf(ephemerals(userId).at(-1));
};

describe("alerts as one person reads them, in their own language", () => {
  const broken: string[] = [];

  it("a Romanian user's alerts commands are answered in Romanian; an English user's stay English", async () => {
    await fleet("limba ro", ROMANIAN);
    const refused = lastAnswer(await fleet("alerts subscribe Error min=abc", ROMANIAN), ROMANIAN);
    expect(refused).toContain("`min=abc` trebuie să fie un număr întreg de minute");
    expect(refused).toContain("Exemplu: /fleet alerte abonează");
    const unknown = lastAnswer(await fleet("alerts subscribe exclude=Bogus", ROMANIAN), ROMANIAN);
    expect(unknown).toContain("Cod de alertă necunoscut: Bogus");
    const privateChannel = lastAnswer(
      await fleet("alerts subscribe <#G0PRIVATE|secret>", ROMANIAN),
      ROMANIAN,
    );
    expect(privateChannel).toContain("fleetbot nu vede acest canal: dacă e privat, invită fleetbot în el");
    expect(privateChannel).toContain("Invită fleetbot cu /invite @fleetbot");
    expect(lastAnswer(await fleet("alerts list", ROMANIAN), ROMANIAN)).toContain(
      "Niciun abonament la alerte",
    );

    // The Romanian user subscribes the channel in Romanian: the alerts will be Romanian.
    const subscribed = lastAnswer(await fleet("alerts subscribe lang=ro", ROMANIAN), ROMANIAN);
    expect(subscribed).toContain("primește acum alertele");
    expect(subscribed).toContain("alerte în română");
    expect(subscribed).toContain("toate alertele de transport");
    // The English user lists the same subscription, in English.
    const listed = lastAnswer(await fleet("alerts list", ENGLISH), ENGLISH);
    expect(listed).toContain("alerts in Romanian");
    expect(listed).toContain("every transport alert kind");
    expect(listed).not.toContain("abonament");
  });

  it("a Romanian alert muted by an English user: the answer in English, the line on the alert in Romanian", async () => {
    await h.bot.alerts.runOnce(); // the demo fleet's existing problems
    const uit = runningActive(broken).codeUit;
    broken.push(uit);
    sim().control.setTransport(uit, { transmissionStatusCode: "NoGPSCoordinates" });
    await h.bot.alerts.runOnce();
    const alert = alertsFor(uit)[0]!;
    expect(textOf(alert)).toContain("Transmisie GPS întreruptă");

    const answer = await click(ENGLISH, alert, ACTIONS.alertMute);
    expect(answer).toMatch(
      /Alerts of UIT .+ are muted in <#C0GENERAL> until <!date\^\d+\^\{date_short_pretty\} \{time\}/,
    );
    expect(answer).not.toMatch(/oprite|Alertele/);
    await h.fake.waitFor(() => textOf(alertsFor(uit)[0]).includes("Alerte oprite până la"));
    expect(textOf(alertsFor(uit)[0])).toContain(`de <@${ENGLISH}>`);
  });

  it("the same Romanian alert unmuted by the Romanian user: the answer in Romanian", async () => {
    const alert = alertsFor(broken[0]!)[0]!;
    const answer = await click(ROMANIAN, alert, ACTIONS.alertUnmute);
    expect(answer).toContain("nu mai sunt oprite în <#C0GENERAL>");
    expect(answer).toContain("sunt reactivate");
    expect(answer).not.toMatch(/no longer muted|Alerts of/);
    await h.fake.waitFor(() =>
      textOf(alertsFor(broken[0]!)[0]).includes(`Alerte reactivate de <@${ROMANIAN}>`),
    );
  });

  it("an English alert muted by the Romanian user answers in Romanian, unmuted by the English user in English", async () => {
    const updated = lastAnswer(await fleet("alerts subscribe lang=en", ENGLISH), ENGLISH);
    expect(updated).toContain("Alerts of *demo* in <#C0GENERAL> updated");
    expect(updated).toContain("alerts in English");
    const uit = runningActive(broken).codeUit;
    broken.push(uit);
    sim().control.setTransport(uit, { transmissionStatusCode: "Error" });
    await h.bot.alerts.runOnce();
    const alert = alertsFor(uit)[0]!;
    expect(textOf(alert)).toContain("Transmission problem");

    const muted = await click(ROMANIAN, alert, ACTIONS.alertMute);
    expect(muted).toMatch(
      /Alertele pentru codul UIT .+ sunt oprite în <#C0GENERAL> până la <!date\^\d+\^\{date_num\} \{time\}/,
    );
    expect(muted).not.toContain("{date_short_pretty}");
    await h.fake.waitFor(() => textOf(alertsFor(uit)[0]).includes(`Muted until`));
    expect(textOf(alertsFor(uit)[0])).toContain(`by <@${ROMANIAN}>`);

    const unmuted = await click(ENGLISH, alertsFor(uit)[0]!, ACTIONS.alertUnmute);
    expect(unmuted).toContain("are no longer muted in <#C0GENERAL>");
    expect(unmuted).not.toMatch(/oprite|reactivate/);
  });

  it("Pause and Show on an alert start tasks that answer the clicker in the clicker's language", async () => {
    const alert = alertsFor(broken[1]!)[0]!;
    // The alert is English (lang=en): the answers follow the clicker, not the alert.
    for (const [userId, actionId, kind, language, says] of [
      [ROMANIAN, ACTIONS.transportShow, "transport-find", "ro", "În desfășurare"],
      [ENGLISH, ACTIONS.transportShow, "transport-find", "en", "In Progress"],
      [ROMANIAN, ACTIONS.transportPause, "transport-action", "ro", "pus în pauză"],
    ] as const) {
      const [button] = buttonsOf(alert, actionId);
      await h.driver.blockAction({
        userId,
        channelId: CHANNEL,
        messageTs: alert.ts,
        actionId,
        value: button!.value,
      });
      await h.settle();
      const task = (await h.bot.tasks.recent("demo", 20)).find(
        (t) => t.kind === kind && t.slackUser === userId,
      );
      expect(task?.reply.language, `${userId} ${actionId}`).toBe(language);
      expect(textOf(ephemerals(userId).at(-1)), `${userId} ${actionId}`).toContain(says);
    }
  });

  it("unsubscribe answers each user in their language", async () => {
    const ro = lastAnswer(await fleet("alerts unsubscribe", ROMANIAN), ROMANIAN);
    expect(ro).toContain("nu mai primește alerte de transport");
    const en = lastAnswer(await fleet("alerts unsubscribe", ENGLISH), ENGLISH);
    expect(en).toContain("had no alert subscription");
  });
});
