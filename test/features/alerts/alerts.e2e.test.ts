/**
 * Transport alerts through the whole bot: subscriptions by command, polls against the
 * simulator, posts and updates in the fake Slack, buttons on the alert as the clicking user.
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

/** A /fleet command, and whatever its listener said after the ack (alert changes answer by response_url). */
const fleet = async (text: string, userId = USER, channelId = CHANNEL) => {
  const result = await h.driver.slashCommand({ command: "/fleet", text, userId, channelId });
  await h.bot.slack.idle();
  return result;
};
const sim = () => h.bot.simulator!;
/** Alert messages (not thread replies, not ephemeral) that mention the UIT. */
const alertsFor = (uit: string, channel = CHANNEL) => alertMessagesFor(h.fake, channel, uit);
const lastEphemeral = (userId = USER) =>
  h.fake
    .messages(CHANNEL)
    .filter((m) => m.visibleTo === userId)
    .at(-1);
const button = (message: { blocks?: unknown[] } | undefined, actionId: string) =>
  buttonsOf(message, actionId)[0];
const runningActive = (except: string[] = []) =>
  sim()
    .control.transports()
    // In Progress, no pinned problem and no override: transmitting normally (drift is off).
    .find((t) => t.statusId === 2 && !t.pinnedTransmission && !except.includes(t.codeUit))!;

describe("transport alerts", () => {
  let broken = "";

  it("subscribes the current channel, refuses a private channel the bot is not in, and lists subscriptions", async () => {
    await fleet("alerts subscribe");
    expect(textOf(lastEphemeral())).toMatch(/now gets alerts/i);
    await fleet("alerts subscribe <#G0PRIVATE|secret>");
    expect(textOf(lastEphemeral())).toMatch(/invite/i);
    await fleet("alerts list");
    expect(textOf(lastEphemeral())).toContain("C0GENERAL");
  });

  it("a transmission error is posted once; later polls in the same state post nothing", async () => {
    await h.bot.alerts.runOnce(); // the demo fleet's existing problems
    broken = runningActive().codeUit;
    sim().control.setTransport(broken, { transmissionStatusCode: "NoGPSCoordinates" });
    await h.bot.alerts.runOnce();
    expect(alertsFor(broken)).toHaveLength(1);
    expect(textOf(alertsFor(broken)[0])).toMatch(/NoGPSCoordinates|No GPS/);
    const postsBefore = h.fake.calls.filter((c) => c.method === "chat.postMessage").length;
    for (let i = 0; i < 3; i++) await h.bot.alerts.runOnce();
    expect(alertsFor(broken)).toHaveLength(1);
    expect(h.fake.calls.filter((c) => c.method === "chat.postMessage").length).toBe(postsBefore);
  });

  it("Mute 24 h answers the clicking user only", async () => {
    const alert = alertsFor(broken)[0]!;
    const mute = button(alert, ACTIONS.alertMute)!;
    await h.driver.blockAction({
      userId: USER,
      channelId: CHANNEL,
      messageTs: alert.ts,
      actionId: ACTIONS.alertMute,
      value: mute.value,
    });
    await h.fake.waitFor(() => /mute/i.test(textOf(lastEphemeral())));
    await h.fake.waitFor(() =>
      /Muted until <!date\^\d+\^[^>]*> by <@U0DISPATCH>/.test(textOf(alertsFor(broken)[0])),
    );
  });

  it("a muted alert offers Unmute, not Mute again; the rest of the alert stays", async () => {
    const after = alertsFor(broken)[0]!;
    const ids = (after.blocks as { block_id?: string }[]).map((b) => b.block_id);
    expect(ids.filter((id) => id === "alert.muted.line")).toHaveLength(1);
    expect(buttonsOf(after, ACTIONS.alertMute)).toHaveLength(0);
    expect(buttonsOf(after, ACTIONS.alertUnmute)).toHaveLength(1);
    expect(button(after, ACTIONS.transportShow)).toBeDefined();
  });

  it("while muted a new problem of that UIT is held back; Unmute shows who unmuted, and the next check posts it", async () => {
    sim().control.setTransport(broken, { changeRequestStatusCode: "ResponseError" });
    await h.bot.alerts.runOnce();
    expect(alertsFor(broken)).toHaveLength(1);

    const before = alertsFor(broken)[0]!;
    const blocksBefore = (before.blocks as { block_id?: string }[]).map((b) => b.block_id);
    const unmute = button(before, ACTIONS.alertUnmute)!;
    await h.driver.blockAction({
      userId: "U0VIEWER",
      channelId: CHANNEL,
      messageTs: before.ts,
      actionId: ACTIONS.alertUnmute,
      value: unmute.value,
    });
    await h.fake.waitFor(() => /no longer muted/i.test(textOf(lastEphemeral("U0VIEWER"))));
    await h.fake.waitFor(() => textOf(alertsFor(broken)[0]).includes("Unmuted by <@U0VIEWER>"));
    const after = alertsFor(broken)[0]!;
    expect(after.ts).toBe(before.ts);
    expect((after.blocks as { block_id?: string }[]).map((b) => b.block_id)).toEqual(blocksBefore);
    expect(textOf(after)).not.toContain("<@U0DISPATCH>");
    expect(buttonsOf(after, ACTIONS.alertMute)).toHaveLength(1);
    expect(buttonsOf(after, ACTIONS.alertUnmute)).toHaveLength(0);

    await h.bot.alerts.runOnce();
    expect(alertsFor(broken)).toHaveLength(2);
    expect(alertsFor(broken).some((m) => /ResponseError/.test(textOf(m)))).toBe(true);
    sim().control.setTransport(broken, { changeRequestStatusCode: "ResponseSuccess" });
    await h.bot.alerts.runOnce();
  });

  it("recovery edits the alert to resolved and replies in its thread with how long it lasted", async () => {
    sim().control.setTransport(broken, { transmissionStatusCode: "Active" });
    await h.bot.alerts.runOnce();
    const alert = alertsFor(broken)[0]!;
    expect(alert.revisions).toBeGreaterThan(0);
    expect(textOf(alert)).toMatch(/resolved/i);
    const replies = h.fake.messages(CHANNEL).filter((m) => m.threadTs === alert.ts);
    expect(replies).toHaveLength(1);
  });

  it("the Pause button on an alert pauses the transport as the clicking user, and leaves the alert in place", async () => {
    const other = runningActive([broken]).codeUit;
    sim().control.setTransport(other, { transmissionStatusCode: "Error" });
    await h.bot.alerts.runOnce();
    const alert = alertsFor(other)[0]!;
    const pause = button(alert, ACTIONS.transportPause)!;
    await h.driver.blockAction({
      userId: "U0NEWYORK",
      channelId: CHANNEL,
      messageTs: alert.ts,
      actionId: ACTIONS.transportPause,
      value: pause.value,
    });
    await h.settle();
    const request = sim()
      .control.requests(500)
      .filter((r) => r.endpoint === "pause-transports")
      .at(-1)!;
    expect((request.body as { transports: { codeUit: string }[] }).transports[0]!.codeUit).toBe(other);
    expect(
      sim()
        .control.transports()
        .find((t) => t.codeUit === other)?.statusId,
    ).toBe(6);
    // The alert was not replaced by the click's answer: that went to the clicking user.
    expect(button(alertsFor(other)[0], ACTIONS.alertMute)).toBeDefined();
    expect(h.fake.messages(CHANNEL).some((m) => m.visibleTo === "U0NEWYORK")).toBe(true);
  });

  it("unsubscribe stops the posts", async () => {
    await fleet("alerts unsubscribe");
    expect(textOf(lastEphemeral())).toMatch(/no longer gets/i);
    const third = runningActive([broken]).codeUit;
    const posts = h.fake.calls.filter((c) => c.method === "chat.postMessage").length;
    sim().control.setTransport(third, { transmissionStatusCode: "OldData" });
    await h.bot.alerts.runOnce();
    expect(h.fake.calls.filter((c) => c.method === "chat.postMessage").length).toBe(posts);
  });
});
