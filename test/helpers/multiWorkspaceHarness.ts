import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/app/config.js";
import { type StartOptions, startFleetbot } from "../../src/app/start.js";
import { type FakeSlackOptions, SlackDriver, startFakeSlack } from "../../src/sandbox/fakeSlack/index.js";
import { type InstallChoiceInput, installWorkspace } from "./installFlow.js";

/** Team A is the fake's default team; team B the fake's second carrier. */
export const TEAM_A = "T0FLEET";
export const TEAM_B = "T0SECOND";

/**
 * fleetbot in multi-workspace mode over real HTTP: the fake Slack (two teams, OAuth), the
 * embedded simulator, no workspace installed until a test installs one through /slack/install.
 */
export async function startMultiWorkspaceHarness(
  options: {
    intervalMs?: number;
    env?: Record<string, string>;
    start?: StartOptions;
    fakeSlack?: FakeSlackOptions;
  } = {},
) {
  const fake = await startFakeSlack(options.fakeSlack);
  const dataDir = mkdtempSync(join(tmpdir(), "fleetbot-multi-"));
  const config = loadConfig({
    SLACK_CLIENT_ID: fake.options.oauth.clientId,
    SLACK_CLIENT_SECRET: fake.options.oauth.clientSecret,
    SLACK_STATE_SECRET: "words-that-sign-install-states",
    SLACK_SIGNING_SECRET: fake.options.signingSecret,
    SLACK_API_URL: fake.apiUrl,
    PORT: "0",
    DATA_DIR: dataDir,
    FLEET_MIN_INTERVAL_MS: String(options.intervalMs ?? 60),
    FLEET_SAFETY_MARGIN_MS: "5",
    LOG_LEVEL: "silent",
    CREDENTIALS_KEY: Buffer.alloc(32, 7).toString("base64"),
    ...options.env,
  });
  const bot = await startFleetbot(config, {
    upkeepEveryMs: 0,
    alertPolling: false,
    ...options.start,
    simulator: { drift: false, ...options.start?.simulator },
  });
  // The app's Redirect URL as the manifest's redirect_urls would register it with Slack.
  fake.oauth.configuredRedirectUri = `${bot.url}/slack/oauth_redirect`;
  const driverA = new SlackDriver({ botUrl: `${bot.url}/slack/events`, fake });
  const driverB = driverA.asTeam(TEAM_B);
  return {
    fake,
    bot,
    driverA,
    driverB,
    dataDir,
    install: (choice: InstallChoiceInput) => installWorkspace(bot.url, fake, choice),
    /**
     * Until every task is finished and answered: with Redis a task is a queue job, which the
     * runner's idle() cannot see before a worker takes it (on a loaded machine, a while).
     */
    async settle() {
      const deadline = Date.now() + 30_000;
      for (;;) {
        await bot.slack.idle();
        await bot.runner.idle();
        await bot.delivery.settled();
        const open = (await bot.tasks.unfinished()).length + (await bot.tasks.undelivered()).length;
        if (open === 0) return;
        if (Date.now() > deadline) throw new Error(`settle: ${open} tasks still open after 30 s`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      await bot.close();
      await fake.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type MultiWorkspaceHarness = Awaited<ReturnType<typeof startMultiWorkspaceHarness>>;
