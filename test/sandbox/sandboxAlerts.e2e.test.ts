/**
 * The sandbox's alerts as a newcomer meets them (issue 24, items 5 and 6): the #alerts
 * subscription the sandbox made is an ordinary one, checks come as often as the simulated
 * service allows and the page can say when the next one is, and a fresh sandbox starts calm.
 * The bot runs in sandbox mode exactly as `npm start` with nothing configured starts it,
 * with a scaled interval.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Config, loadConfig, sandboxAlertsCron } from "../../src/app/config.js";
import { type StartOptions, startFleetbot } from "../../src/app/start.js";
import { SEVERITY_MARKS } from "../../src/features/alerts/slack/views/incidentText.js";
import { ACTIONS } from "../../src/platform/slack/actionIds.js";
import { SlackDriver } from "../../src/sandbox/fakeSlack/index.js";
import { alertMessagesFor, buttonsOf, textOf } from "../helpers/botHarness.js";

const USER = "U0DISPATCH";
const ALERTS = "C0ALERTS";
const GENERAL = "C0GENERAL";

/** The sandbox's settings: no Slack, no fleet service, no ALERTS_*; only the interval scaled. */
function sandboxConfig(dataDir: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    PORT: "0",
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    FLEET_MIN_INTERVAL_MS: "100",
    FLEET_SAFETY_MARGIN_MS: "5",
    ...env,
  });
}

async function startSandbox(start: StartOptions = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "fleetbot-sandbox-alerts-"));
  const bot = await startFleetbot(sandboxConfig(dataDir), { upkeepEveryMs: 0, ...start });
  const fake = bot.fakeSlack;
  if (!fake) throw new Error("no fake Slack: the bot did not start in sandbox mode");
  const driver = new SlackDriver({ botUrl: `${bot.url}/slack/events`, fake });
  const html = await (await fetch(`${bot.url}/`)).text();
  const token = /<meta name="sandbox-token" content="([^"]+)">/.exec(html)?.[1] ?? "";
  return {
    bot,
    fake,
    /** A /fleet command typed in a channel, and what the user sees there afterwards. */
    async fleet(text: string, channelId = GENERAL) {
      await driver.slashCommand({ command: "/fleet", text, userId: USER, channelId });
      await bot.slack.idle();
      return textOf(
        fake
          .messages(channelId)
          .filter((m) => m.visibleTo === USER)
          .at(-1),
      );
    },
    api: (path: string, init: RequestInit = {}) =>
      fetch(`${bot.url}${path}`, { ...init, headers: { "x-sandbox-token": token } }),
    /** Alerts in #alerts: top-level messages everyone sees. */
    alerts: () => fake.messages(ALERTS).filter((m) => !m.ephemeral && !m.threadTs),
    async close() {
      await bot.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe("a fresh sandbox (checks run by hand)", () => {
  let s: Awaited<ReturnType<typeof startSandbox>>;
  beforeAll(async () => {
    s = await startSandbox({ alertPolling: false });
  });
  afterAll(async () => {
    await s.close();
  });

  it("starts calm: its first checks post at most one alert, and only an informational one", async () => {
    for (let sweep = 0; sweep < 3; sweep++) {
      const result = await s.bot.alerts.runOnce();
      expect(result.accounts.map((a) => a.error)).toEqual([undefined]);
    }
    const posted = s.alerts();
    expect(posted.length).toBeLessThanOrEqual(1);
    for (const alert of posted) expect(textOf(alert)).toContain(SEVERITY_MARKS.info);
    // The Simulator panel still has running transports to break.
    const running = s.bot.simulator!.control.transports().filter((t) => t.statusId === 2);
    expect(running.length).toBeGreaterThan(1);
  });

  it("lists the sandbox's #alerts subscription, takes the README's subscribe and removes it, never naming ALERTS_CHANNEL", async () => {
    expect(await s.fleet("alerts list")).toContain(ALERTS);
    // The README's own words, channel typed by name.
    const subscribed = await s.fleet("alerts subscribe #alerts");
    expect(subscribed).not.toMatch(/ALERTS_CHANNEL|configuration|cannot be changed/);
    expect(subscribed).toContain(ALERTS);
    const removed = await s.fleet("alerts unsubscribe #alerts");
    expect(removed).not.toMatch(/ALERTS_CHANNEL|cannot be changed/);
    expect(removed).toMatch(/no longer|unsubscribed|stops/i);
    expect(await s.fleet("alerts list")).not.toContain(ALERTS);
    // Nothing the user saw anywhere blamed a setting they never made.
    const everything = [...s.fake.messages(GENERAL), ...s.fake.messages(ALERTS)].map(textOf).join("\n");
    expect(everything).not.toContain("ALERTS_CHANNEL");
  });
});

describe("the sandbox's demo schedule", () => {
  let s: Awaited<ReturnType<typeof startSandbox>>;
  beforeAll(async () => {
    s = await startSandbox({ alertPolling: false, schedulePolling: false });
  });
  afterAll(async () => {
    await s.close();
  });

  it("#general has yesterday's fuel every day at 07:30; its Run now posts it there, with the CSV", async () => {
    const listed = await s.fleet("schedules");
    expect(listed).toMatch(
      /`[0-9A-Z]+` · `fuel all yesterday` · every day at 07:30 · <#C0GENERAL> · by <@U0DISPATCH>/,
    );
    const list = s.fake
      .messages(GENERAL)
      .filter((m) => m.visibleTo === USER)
      .at(-1)!;
    const runNow = buttonsOf(list, ACTIONS.scheduleRunNow)[0]!;
    const driver = new SlackDriver({ botUrl: `${s.bot.url}/slack/events`, fake: s.fake });
    await driver.blockAction({
      userId: USER,
      channelId: GENERAL,
      messageTs: list.ts,
      actionId: ACTIONS.scheduleRunNow,
      value: runNow.value,
    });
    const post = await s.fake.waitFor(
      () =>
        s.fake.messages(GENERAL).find((m) => !m.ephemeral && textOf(m).includes("run now by <@U0DISPATCH>")),
      { timeoutMs: 20_000 },
    );
    expect(textOf(post)).toMatch(/Fuel/);
    await s.fake.waitFor(
      () => s.fake.messages(GENERAL).some((m) => m.threadTs === post.ts && m.files?.length),
      {
        timeoutMs: 20_000,
      },
    );
  });
});

describe("the sandbox's alert schedule", () => {
  let s: Awaited<ReturnType<typeof startSandbox>>;
  beforeAll(async () => {
    s = await startSandbox();
  });
  afterAll(async () => {
    await s.close();
  });

  it("checks every other slot of the service's interval, unless ALERTS_CRON says otherwise", () => {
    const dir = tmpdir();
    // The default interval (30 s): a check every minute, not the production */5.
    expect(loadConfig({ DATA_DIR: dir }).alerts.cron).toBe("0 * * * * *");
    expect(sandboxAlertsCron(30_000)).toBe("0 * * * * *");
    expect(sandboxAlertsCron(10_000)).toBe("*/20 * * * * *");
    expect(sandboxAlertsCron(100)).toBe("* * * * * *");
    expect(sandboxAlertsCron(90_000)).toBe("0 */3 * * * *");
    // What the user set is kept; a real Slack keeps the production default.
    expect(loadConfig({ DATA_DIR: dir, ALERTS_CRON: "*/2 * * * *" }).alerts.cron).toBe("*/2 * * * *");
    expect(
      loadConfig({ DATA_DIR: dir, SLACK_BOT_TOKEN: "xoxb-1", SLACK_SIGNING_SECRET: "s" }).alerts.cron,
    ).toBe("*/5 * * * *");
    // This sandbox (100 ms interval) checks every second.
    expect(s.bot.config.alerts.cron).toBe(sandboxAlertsCron(100));
  });

  it("the page's schedule route says when the next check is", async () => {
    // The alert checks start once the demo account's vehicle list is there (it comes first).
    const schedule = async () =>
      (await (await s.api("/sandbox/alert-schedule")).json()) as {
        ok: boolean;
        now: number;
        nextCheckAt: number | null;
        everyMs: number;
      };
    await expect.poll(async () => (await schedule()).nextCheckAt, { timeout: 10_000 }).not.toBeNull();
    const res = await s.api("/sandbox/alert-schedule");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { ok: boolean; now: number; nextCheckAt: number; everyMs: number };
    expect(body.ok).toBe(true);
    expect(body.everyMs).toBe(1000);
    expect(body.nextCheckAt).toBeGreaterThan(body.now - 1000);
    expect(body.nextCheckAt).toBeLessThanOrEqual(body.now + body.everyMs);
    // Like every sandbox API route, it needs the page's token.
    expect((await fetch(`${s.bot.url}/sandbox/alert-schedule`)).status).toBe(403);
  });

  it("a forced break is posted by the schedule itself (no hand-run check), and resolved", async () => {
    const sim = s.bot.simulator!;
    const target = sim.control.transports().find((t) => t.statusId === 2 && !t.pinnedTransmission)!;
    sim.control.setTransport(target.codeUit, { transmissionStatusCode: "Error" });
    const mentions = () => alertMessagesFor(s.fake, ALERTS, target.codeUit);
    await expect.poll(() => mentions().length, { timeout: 20_000, interval: 100 }).toBe(1);
    sim.control.setTransport(target.codeUit, { clear: true });
    await expect.poll(() => textOf(mentions()[0]), { timeout: 20_000, interval: 100 }).toMatch(/Resolved/);
  });
});
