/**
 * Issue 14, point 9, through the whole bot over signed HTTP: rough edges a newcomer meets in
 * the account and alerts commands.
 */
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { ACTIONS } from "../../src/slack/actionIds.js";
import { type BotHarness, startBotHarness, textOf } from "../helpers/botHarness.js";

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
