/**
 * The real-time harness: the BUILT bot (`node dist/main.js`) as a child process, against a
 * simulator and a fake Slack that live in this process, over loopback HTTP. The bot is driven
 * only through signed Slack requests (SlackDriver); answers are read from the fake Slack's
 * records, upstream calls from the simulator's request log and stats.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import {
  type FakeSlack,
  type ResponseRecord,
  SlackDriver,
  startFakeSlack,
} from "../../src/sandbox/fakeSlack/index.js";
import { type RunningSimulator, type SimulatorOptions, startSimulator } from "../../src/simulator/index.js";
import { listeningUrl } from "../../test/helpers/botLog.js";
import { readCpuMs, readRssMb } from "./procStat.js";

/** The node flags the bot runs with in production (`npm start`, the Dockerfile): the bench measures that bot. */
export const BOT_NODE_FLAGS = ["--max-semi-space-size=4", "--heap-growing-percent=10"] as const;

export const REPO = join(import.meta.dirname, "..", "..");
export const INTERVAL_MS = 1000;
export const MARGIN_MS = 50;
/** One slot of the account's queue: the bot's spacing between two calls. */
export const SLOT_MS = INTERVAL_MS + MARGIN_MS;
export const USER = "U0DISPATCH";
export const CHANNEL = "C0GENERAL";
export const ALERTS_CHANNEL = "C0ALERTS";

export interface BotOptions {
  /** Extra environment for the bot (ALERTS_CRON, ALERTS_CHANNEL…). */
  env?: Record<string, string>;
  /** Reuse a data directory (restart); default a fresh temp dir. */
  dataDir?: string;
  /** How long to wait for the "listening" line. */
  startTimeoutMs?: number;
}

export interface EnvironmentOptions {
  /** Node flags for every bot this environment starts (`--cpu-prof`… from `--profile=<dir>`). */
  botNodeArgs?: readonly string[];
}

export interface RunningBot {
  child: ChildProcess;
  pid: number;
  url: string;
  dataDir: string;
  /** ms from spawn to the bot's "listening" log line (store opened, queue resumed, HTTP up). */
  startMs: number;
  driver: SlackDriver;
  /** Resident set of the bot process, MB (from /proc/<pid>/status). */
  rssMb(): number;
  /** CPU time the bot process has used so far (user + system, all threads), ms. */
  cpuMs(): number;
  /** SIGTERM, wait for the exit (SIGKILL after a bound). */
  stop(): Promise<void>;
}

export interface Environment {
  sim: RunningSimulator;
  fake: FakeSlack;
  startBot(options?: BotOptions): Promise<RunningBot>;
  close(): Promise<void>;
}

export async function startEnvironment(
  sim: Omit<SimulatorOptions, "port" | "minIntervalMs"> = {},
  environment: EnvironmentOptions = {},
) {
  const simulator = await startSimulator({
    port: 0,
    minIntervalMs: INTERVAL_MS,
    control: true,
    drift: false,
    ...sim,
  });
  const fake = await startFakeSlack({
    port: 0,
    channels: [
      { id: CHANNEL, name: "general", isPrivate: false, botIsMember: true },
      { id: ALERTS_CHANNEL, name: "alerts", isPrivate: false, botIsMember: true },
    ],
  });
  const bots = new Set<RunningBot>();
  const dirs = new Set<string>();
  const env: Environment = {
    sim: simulator,
    fake,
    async startBot(options: BotOptions = {}) {
      const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "fleetbot-bench-"));
      dirs.add(dataDir);
      const bot = await spawnBot(simulator, fake, dataDir, options, environment.botNodeArgs ?? []);
      bots.add(bot);
      return bot;
    },
    async close() {
      for (const bot of bots) await bot.stop();
      await fake.close();
      await simulator.close();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
  return env;
}

async function spawnBot(
  sim: RunningSimulator,
  fake: FakeSlack,
  dataDir: string,
  options: BotOptions,
  nodeArgs: readonly string[],
): Promise<RunningBot> {
  const started = performance.now();
  const child = spawn(process.execPath, [...BOT_NODE_FLAGS, ...nodeArgs, join(REPO, "dist", "main.js")], {
    cwd: REPO,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      PORT: "0",
      FLEET_API_URL: sim.url,
      FLEET_USERNAME: "demo",
      FLEET_PASSWORD: "demo",
      FLEET_MIN_INTERVAL_MS: String(INTERVAL_MS),
      FLEET_SAFETY_MARGIN_MS: String(MARGIN_MS),
      SLACK_API_URL: fake.apiUrl,
      SLACK_BOT_TOKEN: fake.options.botToken,
      SLACK_SIGNING_SECRET: fake.options.signingSecret,
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      // No sweep unless a row asks for one: a year from now is never reached.
      ALERTS_CRON: "0 0 1 1 *",
      ...options.env,
    },
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error("could not start the bot");
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the bot did not start in time: ${stderr}`)),
      options.startTimeoutMs ?? 60_000,
    );
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      const found = listeningUrl(line);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the bot exited (${code}) before listening: ${stderr}`));
    });
  });
  const startMs = performance.now() - started;
  const driver = new SlackDriver({ botUrl: `${url}/slack/events`, fake, ackTimeoutMs: 60_000 });
  let stopped = false;
  return {
    child,
    pid,
    url,
    dataDir,
    startMs,
    driver,
    rssMb: () => readRssMb(pid),
    cpuMs: () => readCpuMs(pid),
    async stop() {
      if (stopped) return;
      stopped = true;
      if (child.exitCode === null) child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** utime + stime of /proc/<pid>/stat (fields 14 and 15, in clock ticks of 10 ms on Linux). */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class Timeout extends Error {
  constructor(what: string) {
    super(`timeout: ${what}`);
    this.name = "Timeout";
  }
}

/** Polls `probe` every `everyMs` until it answers; throws Timeout after `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => T | undefined | null | false,
  timeoutMs: number,
  everyMs = 25,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (performance.now() > deadline) throw new Timeout(what);
    await sleep(everyMs);
  }
}

/** The text of a response_url post or a message body. */
export function bodyText(body: unknown): string {
  if (typeof body === "string") return body;
  if (typeof body === "object" && body !== null && "text" in body && typeof body.text === "string")
    return body.text;
  return "";
}

/** A progress update (queued, n/m requests) rather than the answer itself. */
export const isProgress = (text: string) => text.startsWith(":hourglass");

/** The first answer (not a progress update) posted to this response_url. */
export function answerTo(fake: FakeSlack, responseUrl: string): ResponseRecord | undefined {
  return fake.responses.find((r) => r.url === responseUrl && !isProgress(bodyText(r.body)));
}

/** A slash command through the signed driver; returns the ack and the response_url to watch. */
export async function command(bot: RunningBot, text: string, user = USER, channel = CHANNEL) {
  const sentAt = Date.now();
  const result = await bot.driver.slashCommand({ text, userId: user, channelId: channel });
  const responseUrl = result.payload.response_url ?? "";
  return { text, sentAt, result, responseUrl, ackText: bodyText(result.body) };
}

/** Upstream requests the simulator received from the bot's account, oldest first. */
export function accountRequests(sim: RunningSimulator, username = "demo") {
  return sim.control
    .requests(500)
    .filter((r) => r.username === username)
    .map((r) => ({ ...r, atMs: Date.parse(r.at) }));
}

export function upstreamCalls(sim: RunningSimulator, endpoint: string, username = "demo"): number {
  return sim.control.stats().requests[username]?.[endpoint] ?? 0;
}

export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}
