/**
 * Issue 14, point 9, through the whole bot over signed HTTP: rough edges a newcomer meets in
 * the account and alerts commands.
 */

import { WebClient } from "@slack/web-api";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/app/config.js";
import { channelIdByName } from "../../../src/features/alerts/slack/listeners.js";
import { ACTIONS } from "../../../src/platform/slack/actionIds.js";
import { startFakeSlack } from "../../../src/sandbox/fakeSlack/index.js";
import { type BotHarness, startBotHarness, textOf } from "../../helpers/botHarness.js";

const DANA = "U0DISPATCH";
const harnesses: BotHarness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) {
    expect(h.fake.violations).toEqual([]);
    await h.close();
  }
});

async function harness(env: Record<string, string> = {}) {
  const h = await startBotHarness({ env });
  harnesses.push(h);
  return h;
}

const opened = (h: BotHarness) => h.fake.calls.filter((c) => c.method === "views.open").length;
const lastModalOf = (h: BotHarness, userId: string) =>
  [...h.fake.views.values()].filter((v) => v.user === userId && v.type === "modal").at(-1);

describe("linking without CREDENTIALS_KEY", () => {
  it("Home's Link button says why linking is off instead of doing nothing", async () => {
    const h = await harness({ CREDENTIALS_KEY: "" });
    await h.driver.appHomeOpened({ userId: DANA });
    await h.settle();
    const home = [...h.fake.views.values()].find((v) => v.type === "home" && v.user === DANA);
    expect(home).toBeDefined();
    const before = opened(h);
    await h.driver.blockAction({ userId: DANA, viewId: home!.id, actionId: ACTIONS.homeLogin });
    await h.fake.waitFor(() => opened(h) > before);
    const modal = lastModalOf(h, DANA);
    expect(textOf(modal?.view)).toMatch(/not enabled here.*CREDENTIALS_KEY/s);
  });

  it("the sandbox makes a throw-away key so linking can be tried; a real workspace does not", () => {
    const sandbox = loadConfig({});
    expect(sandbox.slack.mode).toBe("sandbox");
    expect(sandbox.credentialsKey?.length).toBe(32);
    expect(sandbox.credentialsKeyThrowaway).toBe(true);
    // A new key at every start: nothing guessable, nothing stored.
    expect(loadConfig({}).credentialsKey?.equals(sandbox.credentialsKey!)).toBe(false);
    const real = loadConfig({ SLACK_BOT_TOKEN: "xoxb-1", SLACK_SIGNING_SECRET: "s" });
    expect(real.credentialsKey).toBeUndefined();
    expect(real.credentialsKeyThrowaway).toBe(false);
    const given = loadConfig({ CREDENTIALS_KEY: Buffer.alloc(32, 7).toString("base64") });
    expect(given.credentialsKeyThrowaway).toBe(false);
    expect(given.credentialsKey?.equals(Buffer.alloc(32, 7))).toBe(true);
  });
});

describe("a channel name typed rather than picked", () => {
  it("`/fleet alerts subscribe #general` typed in another channel subscribes #general", async () => {
    const h = await harness();
    await h.driver.slashCommand({
      command: "/fleet",
      text: "alerts subscribe #general Error min=10",
      userId: DANA,
      channelId: "C0ALERTS",
    });
    await h.bot.slack.idle();
    await h.settle();
    const answer = h.fake
      .messages("C0ALERTS")
      .filter((m) => m.visibleTo === DANA)
      .at(-1);
    expect(textOf(answer)).not.toMatch(/not a channel/);
    expect(textOf(answer)).toContain("C0GENERAL");
    await h.driver.slashCommand({
      command: "/fleet",
      text: "alerts list",
      userId: DANA,
      channelId: "C0GENERAL",
    });
    await h.bot.slack.idle();
    await h.settle();
    const list = h.fake
      .messages("C0GENERAL")
      .filter((m) => m.visibleTo === DANA)
      .at(-1);
    expect(textOf(list)).toContain("C0GENERAL");
  });

  it("a name no channel has is refused with how to pick the channel", async () => {
    const h = await harness();
    await h.driver.slashCommand({
      command: "/fleet",
      text: "alerts subscribe #no-such-room",
      userId: DANA,
      channelId: "C0GENERAL",
    });
    await h.bot.slack.idle();
    await h.settle();
    const answer = h.fake
      .messages("C0GENERAL")
      .filter((m) => m.visibleTo === DANA)
      .at(-1);
    expect(textOf(answer)).toMatch(/pick the channel from the list/);
  });
});

describe("the fake Slack's conversations.list", () => {
  it("pages with a cursor, as Slack does, and hides private channels the bot is not in", async () => {
    const channels = Array.from({ length: 7 }, (_, i) => ({
      id: `C0ROOM${i}XYZ`,
      name: `room-${i}`,
      isPrivate: false,
      botIsMember: false,
    }));
    const fake = await startFakeSlack({
      channels: [...channels, { id: "G0HIDDEN1", name: "hidden", isPrivate: true, botIsMember: false }],
    });
    try {
      const client = new WebClient(fake.options.botToken, {
        slackApiUrl: fake.apiUrl,
        retryConfig: { retries: 0 },
      });
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await client.conversations.list({
          types: "public_channel,private_channel",
          limit: 3,
          ...(cursor ? { cursor } : {}),
        });
        pages++;
        for (const c of page.channels ?? []) seen.push(c.name ?? "");
        cursor = page.response_metadata?.next_cursor || undefined;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual(channels.map((c) => c.name));
      expect(await channelIdByName(client, "room-6")).toBe("C0ROOM6XYZ");
      expect(await channelIdByName(client, "hidden")).toBeUndefined();
    } finally {
      await fake.close();
    }
  });
});
