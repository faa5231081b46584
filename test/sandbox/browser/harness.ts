/**
 * The whole bot in sandbox mode (no Slack configured: in-process fake Slack, embedded
 * simulator) with the sandbox page, and Debian's Chromium driven by playwright-core.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { loadConfig } from "../../../src/app/config.js";
import { type Fleetbot, startFleetbot } from "../../../src/app/start.js";
import { realClockEnv } from "../../helpers/realClock.js";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const OUTPUT_DIR = join(process.cwd(), "test-output", "sandbox");

/**
 * Whether the browser tests can run. Without Chromium they are skipped with a loud warning
 * locally, and fail in CI (CI must never skip them).
 */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  const message = `Chromium not found at ${CHROMIUM}: the sandbox browser tests cannot run. Install it with \`apt-get install -y chromium\` (or set CHROMIUM_PATH).`;
  if (process.env.CI) throw new Error(`${message} CI must run them.`);
  const line = "!".repeat(100);
  console.warn(`\n${line}\n!!! SKIPPED: ${message}\n${line}\n`);
  return false;
}

export interface SandboxHarness {
  bot: Fleetbot;
  /** The page's base URL (the bot's own server). */
  url: string;
  /** The page's API token (for URLs a test puts into messages). */
  token: string;
  browser: Browser;
  page: Page;
  /** Console errors and uncaught exceptions of the page. */
  pageErrors: string[];
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

export interface SandboxServer {
  bot: Fleetbot;
  /** The page's base URL: the bot's own server, which main.ts mounts the routes on. */
  url: string;
  /** The per-process API token, read from the served page as the page's script reads it. */
  token: string;
  /** fetch() on the sandbox API with the page's token. */
  api(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** The token the page embeds for its script (a cross-origin page cannot read it). */
export function tokenOf(html: string): string {
  const token = /<meta name="sandbox-token" content="([^"]+)">/.exec(html)?.[1];
  if (!token) throw new Error("the sandbox page carries no API token");
  return token;
}

export interface SandboxOptions {
  /**
   * A fleet service of the test's own (FLEET_API_URL) instead of the embedded simulator: the
   * sandbox page on it (SANDBOX=1), everyone using its demo login as on the embedded one.
   */
  fleetApiUrl?: string;
  /**
   * The sandbox as `npm start` runs it: no ALERTS_CHANNEL (its #alerts subscription is an
   * ordinary one), still checked every 2 seconds.
   */
  asStarted?: boolean;
  /** FLEET_MIN_INTERVAL_MS (default 50): a longer one makes the start's slots visible. */
  minIntervalMs?: number;
}

/** fleetbot in sandbox mode, with the sandbox page served by main.ts. */
export async function startSandboxServer(options: SandboxOptions = {}): Promise<SandboxServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "fleetbot-sandbox-"));
  const fleet = options.fleetApiUrl
    ? { FLEET_API_URL: options.fleetApiUrl, SANDBOX: "1", FLEET_USERNAME: "demo", FLEET_PASSWORD: "demo" }
    : {};
  const bot = await startFleetbot(
    loadConfig({
      ...fleet,
      PORT: "0",
      DATA_DIR: dataDir,
      LOG_LEVEL: "silent",
      FLEET_MIN_INTERVAL_MS: String(options.minIntervalMs ?? 50),
      FLEET_SAFETY_MARGIN_MS: "5",
      // Alerts: checked every 2 seconds, posted in #alerts.
      ALERTS_CRON: "*/2 * * * * *",
      ...(options.asStarted ? {} : { ALERTS_CHANNEL: "C0ALERTS" }),
    }),
    { simulator: { drift: false }, upkeepEveryMs: 0 },
  );
  if (!bot.fakeSlack) throw new Error("startFleetbot did not start the fake Slack: is SLACK_BOT_TOKEN set?");
  const url = bot.url;
  const token = tokenOf(await (await fetch(`${url}/`)).text());
  return {
    bot,
    url,
    token,
    api: (path, init = {}) =>
      fetch(`${url}${path}`, {
        ...init,
        headers: { ...Object.fromEntries(new Headers(init.headers)), "x-sandbox-token": token },
      }),
    async close() {
      await bot.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function startSandboxHarness(options: SandboxOptions = {}): Promise<SandboxHarness> {
  const server = await startSandboxServer(options);
  const { bot, url, token } = server;
  const profileDir = mkdtempSync(join(tmpdir(), "fleetbot-chromium-"));

  // A fresh, temporary profile per launch (playwright's own --user-data-dir), nothing from the network.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    env: realClockEnv(),
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--disk-cache-dir=${profileDir}`,
    ],
  });
  const context = await browser.newContext({
    viewport: { width: 1360, height: 860 },
    timezoneId: "Europe/Bucharest",
    locale: "en-GB",
  });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") pageErrors.push(message.text());
  });
  mkdirSync(OUTPUT_DIR, { recursive: true });

  return {
    bot,
    url,
    token,
    browser,
    page,
    pageErrors,
    async screenshot(name) {
      const path = join(OUTPUT_DIR, `${name}.png`);
      await page.screenshot({ path });
      return path;
    },
    async close() {
      await browser.close().catch(() => undefined);
      await server.close();
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}
