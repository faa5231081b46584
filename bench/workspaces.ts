/**
 * Row 11 of the real-time part (`npm run bench -- --realtime --rows=workspaces`): the BUILT bot
 * (`node dist/main.js`) in multi-workspace mode with N installed workspaces (200; 40 with
 * --quick), each with its own fleet account and one alert subscription. Run on one process, then
 * on 2 replicas on one redis-server.
 *
 * The fleet simulator with N users (its CLI takes no user list) runs in a process of its own
 * (bench/workspaceSim.ts), behind a pass-through proxy per bot that records each request's
 * arrival, answer and account (the bearer token's `sub`); the fake Slack with N teams (one user,
 * one channel each) runs in the bench process. `WORKSPACES_SETTINGS=2` runs the replica setting
 * alone. Everything the bot gets comes through HTTP: "Add to Slack" (GET /slack/install → the fake's
 * authorize page → GET /slack/oauth_redirect), then signed Slack requests per team:
 * `/fleet login workspace` and its form (`/fleet login` where the workspace form is refused),
 * `/fleet alerts subscribe <#C…|name>`.
 *
 * Figures:
 * - RSS per workspace: VmRSS of the bot process after every workspace was installed, linked,
 *   subscribed and swept once, minus VmRSS before the first install, ÷ N; and the marginal
 *   figure, from after the first N/10 workspaces to after all of them (one-time costs such as
 *   code loaded and compiled on the first install left out).
 * - Sweep: one ALERTS_CRON tick at a known second T; for each account, its load-transports
 *   answered (at the proxy) − T; the max over accounts against one slot of the account.
 * - Ack: 50 signed `/fleet where <plate>` forms from 50 different workspaces sent at once by a
 *   child process (bench/workspaceLoad.ts), spread over the replicas.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import {
  type FakeSlack,
  type FakeTeamInput,
  SlackDriver,
  startFakeSlack,
} from "../src/sandbox/fakeSlack/index.js";
import { listeningUrl } from "../test/helpers/botLog.js";
import { installWorkspace } from "../test/helpers/installFlow.js";
import { type RedisServer, startRedisServer } from "../test/helpers/redisServer.js";
import { loginFormOpened, submitLoginForm } from "./loginForm.js";
import {
  BOT_NODE_FLAGS,
  bodyText,
  INTERVAL_MS,
  isProgress,
  MARGIN_MS,
  median,
  quantile,
  REPO,
  SLOT_MS,
  sleep,
  Timeout,
  until,
} from "./realtime/harness.js";
import { readRssMb } from "./realtime/procStat.js";
import type { RealtimeRow, RowOptions } from "./realtime/rows.js";
import type { WorkspaceLoadOutput } from "./workspaceLoad.js";
import type { Upstream, WorkspaceSimInput, WorkspaceSimReady } from "./workspaceSim.js";

export const WORKSPACES = 200;
const QUICK_WORKSPACES = 40;
/** ALERTS_CRON: a tick every 20 s (seconds field), as rows 2 and 3. */
export const SWEEP_EVERY_S = 20;
/** Commands per ack burst, each from another workspace (round robin from an offset). */
export const BURST = 50;
export const MEASURED_BURSTS = 3;
/** Setup requests in flight at once (links, subscriptions); installs go one after the other. */
const SETUP_CONCURRENCY = 10;
/** Never an ack; a recognisable value only. */
const STATE_SECRET = "bench-workspaces-install-state";

const fmt = (n: number | undefined, digits = 2) =>
  n !== undefined && Number.isFinite(n) ? n.toFixed(digits) : "n/a";
const kb = (mb: number) => fmt(mb * 1024, 0);

// ------------------------------------------------------------------------- the teams

export interface BenchTeam {
  index: number;
  teamId: string;
  userId: string;
  channelId: string;
  channelName: string;
  /** The team's own fleet account at the simulator. */
  username: string;
  password: string;
}

export function benchTeams(count: number): BenchTeam[] {
  return Array.from({ length: count }, (_, index) => {
    const n = String(index + 1).padStart(7, "0");
    return {
      index,
      teamId: `T${n}`,
      userId: `U${n}`,
      channelId: `C${n}`,
      channelName: `dispatch-${n}`,
      username: `carrier${n}`,
      password: `pw-carrier-${n}`,
    };
  });
}

function fakeTeam(team: BenchTeam): FakeTeamInput {
  const n = team.teamId.slice(1);
  return {
    teamId: team.teamId,
    teamName: `Carrier ${n}`,
    teamDomain: `carrier-${n}`,
    users: [{ id: team.userId, name: `dispatch${n}`, realName: `Dispatcher ${n}`, tz: "Europe/Bucharest" }],
    channels: [{ id: team.channelId, name: team.channelName, isPrivate: false, botIsMember: true }],
  };
}

// ------------------------------------------------------------------------- the fleet service

/** The simulator and its measuring proxies in their own process (bench/workspaceSim.ts). */
interface SimProcess {
  url: string;
  /** Per bot name, the proxy URL its FLEET_API_URL names. */
  proxies: Record<string, string>;
  plates: string[];
  /** Requests the bots sent from `since` on (and those still in flight), oldest first. */
  upstream(since: number): Promise<Upstream[]>;
  /** 429s the service answered so far. */
  rateLimited(): Promise<number>;
  close(): Promise<void>;
}

async function startSimProcess(teams: readonly BenchTeam[], bots: readonly string[]): Promise<SimProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "workspaceSim.ts")], {
    cwd: REPO,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const input: WorkspaceSimInput = {
    users: teams.map((t) => ({ username: t.username, password: t.password })),
    minIntervalMs: INTERVAL_MS,
    proxies: [...bots],
  };
  child.stdin.write(`${JSON.stringify(input)}\n`);
  const ready = await new Promise<WorkspaceSimReady>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the simulator did not start: ${stderr}`)), 60_000);
    createInterface({ input: child.stdout }).once("line", (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line) as WorkspaceSimReady);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the simulator exited (${code}): ${stderr}`));
    });
  });
  const anyProxy = Object.values(ready.proxies)[0]!;
  return {
    url: ready.simUrl,
    proxies: ready.proxies,
    plates: ready.plates,
    async upstream(since) {
      const answer = await fetch(`${anyProxy}/__bench/upstream?since=${since}`);
      return (await answer.json()) as Upstream[];
    },
    async rateLimited() {
      const stats = (await (await fetch(`${ready.simUrl}/__stats`)).json()) as {
        rateLimited: Record<string, number>;
      };
      return Object.values(stats.rateLimited).reduce((a, b) => a + b, 0);
    },
    async close() {
      child.stdin.end();
      const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

// ------------------------------------------------------------------------- the bot processes

interface BotProcess {
  name: string;
  pid: number;
  url: string;
  startMs: number;
  driver: SlackDriver;
  rssMb(): number;
  /** Log lines at level error or fatal (pino level ≥ 50), the first 50 kept. */
  errors: string[];
  /** Log lines at level warn, the first 50 kept. */
  warnings: string[];
  errorCount(): number;
  warningCount(): number;
  /** "alert poll (tick) skipped" lines: a tick that found the previous run still under way. */
  skippedTicks(): number;
  tail(lines?: number): string;
  stop(): Promise<void>;
}

async function spawnBot(
  name: string,
  env: Record<string, string>,
  fake: FakeSlack,
  nodeArgs: readonly string[],
): Promise<BotProcess> {
  const started = performance.now();
  const child: ChildProcess = spawn(
    process.execPath,
    [...BOT_NODE_FLAGS, ...nodeArgs, join(REPO, "dist", "main.js")],
    { cwd: REPO, stdio: ["ignore", "pipe", "pipe"], env },
  );
  const pid = child.pid;
  if (pid === undefined) throw new Error(`bot ${name} could not be started`);
  const tail: string[] = [];
  const errors: string[] = [];
  const warnings: string[] = [];
  let errorCount = 0;
  let warningCount = 0;
  let skipped = 0;
  const keep = (line: string) => {
    tail.push(line);
    if (tail.length > 400) tail.shift();
    let level = 0;
    let message = line;
    try {
      const parsed: unknown = JSON.parse(line);
      if (typeof parsed === "object" && parsed !== null) {
        const l: unknown = Reflect.get(parsed, "level");
        const msg: unknown = Reflect.get(parsed, "msg");
        const err: unknown = Reflect.get(parsed, "err");
        level = typeof l === "number" ? l : 0;
        const errText =
          typeof err === "object" && err !== null ? String(Reflect.get(err, "message") ?? "") : "";
        message = `${typeof msg === "string" ? msg : ""}${errText ? `: ${errText}` : ""}`;
      }
    } catch {
      // not JSON (a crash trace): counted as an error below when it says so
      if (/error/i.test(line)) level = 50;
    }
    if (level >= 50) {
      errorCount++;
      if (errors.length < 50) errors.push(message.slice(0, 300));
    } else if (level === 40) {
      warningCount++;
      if (warnings.length < 50) warnings.push(message.slice(0, 300));
    }
    if (/alert poll (tick )?skipped/.test(message)) skipped++;
  };
  createInterface({ input: child.stderr! }).on("line", (line) => keep(line));
  const lines = createInterface({ input: child.stdout! });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`bot ${name} did not start in time:\n${tail.slice(-20).join("\n")}`));
    }, 90_000);
    lines.on("line", (line) => {
      keep(line);
      const found = listeningUrl(line);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`bot ${name} exited (${code ?? signal}) before listening:\n${tail.join("\n")}`));
    });
  });
  const startMs = performance.now() - started;
  let stopped = false;
  return {
    name,
    pid,
    url,
    startMs,
    driver: new SlackDriver({ botUrl: `${url}/slack/events`, fake, ackTimeoutMs: 30_000 }),
    rssMb: () => readRssMb(pid),
    errors,
    warnings,
    errorCount: () => errorCount,
    warningCount: () => warningCount,
    skippedTicks: () => skipped,
    tail: (count = 40) => tail.slice(-count).join("\n"),
    async stop() {
      if (stopped) return;
      stopped = true;
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

// ------------------------------------------------------------------------- one setting

interface Setting {
  teams: BenchTeam[];
  sim: SimProcess;
  fake: FakeSlack;
  bots: BotProcess[];
  close(): Promise<void>;
}

async function startSetting(count: number, replicas: number, nodeArgs: readonly string[]): Promise<Setting> {
  const teams = benchTeams(count);
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const closer of closers.splice(0).reverse()) await closer().catch(() => undefined);
  };
  try {
    const names = Array.from({ length: replicas }, (_, i) => String.fromCharCode(65 + i));
    const sim = await startSimProcess(teams, names);
    closers.push(() => sim.close());
    const fake = await startFakeSlack({ port: 0, teams: teams.map(fakeTeam) });
    closers.push(() => fake.close());
    const redis: RedisServer | undefined = replicas > 1 ? await startRedisServer() : undefined;
    if (redis) closers.push(() => redis.stop());
    const dataDir = mkdtempSync(join(tmpdir(), "fleetbot-bench-workspaces-"));
    closers.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const bots: BotProcess[] = [];
    closers.push(async () => {
      await Promise.all(bots.map((b) => b.stop()));
    });
    await Promise.all(
      names.map(async (name) => {
        const bot = await spawnBot(
          name,
          {
            PATH: process.env.PATH ?? "",
            ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
            NODE_ENV: "production",
            PORT: "0",
            FLEET_API_URL: sim.proxies[name]!,
            FLEET_MIN_INTERVAL_MS: String(INTERVAL_MS),
            FLEET_SAFETY_MARGIN_MS: String(MARGIN_MS),
            SLACK_API_URL: fake.apiUrl,
            SLACK_CLIENT_ID: fake.options.oauth.clientId,
            SLACK_CLIENT_SECRET: fake.options.oauth.clientSecret,
            SLACK_STATE_SECRET: STATE_SECRET,
            SLACK_SIGNING_SECRET: fake.options.signingSecret,
            CREDENTIALS_KEY: Buffer.alloc(32, 11).toString("base64"),
            // One directory (SQLite in one process; not opened with REDIS_URL).
            DATA_DIR: dataDir,
            LOG_LEVEL: "info",
            ALERTS_CRON: `*/${SWEEP_EVERY_S} * * * * *`,
            ...(redis ? { REDIS_URL: redis.url } : {}),
          },
          fake,
          nodeArgs,
        );
        bots.push(bot);
      }),
    );
    bots.sort((a, b) => a.name.localeCompare(b.name));
    return { teams, sim, fake, bots, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Runs `work` over `items`, `size` at a time. */
async function inPool<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      while (next < items.length) {
        const item = items[next++]!;
        await work(item);
      }
    }),
  );
}

const botOf = (s: Setting, team: BenchTeam) => s.bots[team.index % s.bots.length]!;
const teamWorkspace = (s: Setting, team: BenchTeam) => {
  const ws = s.fake.team(team.teamId);
  if (!ws) throw new Error(`the fake has no team ${team.teamId}`);
  return ws;
};

/** "Add to Slack" for each team, one after the other, through the bot the team's requests go to. */
async function installAll(s: Setting, teams: readonly BenchTeam[]): Promise<void> {
  for (const team of teams) {
    const bot = botOf(s, team);
    // No redirect_uri in the authorize URL: Slack sends the browser to the app's configured one.
    s.fake.oauth.configuredRedirectUri = `${bot.url}/slack/oauth_redirect`;
    const result = await installWorkspace(bot.url, s.fake, { teamId: team.teamId, userId: team.userId });
    if (result.status !== 200)
      throw new Error(
        `install of ${team.teamId} on ${bot.name}: HTTP ${result.status} ${result.body.slice(0, 200)}`,
      );
  }
}

/**
 * Links the team's fleet account: `/fleet login workspace` (the installer may), its form
 * submitted, then the "Linked" answer waited for. Falls back to `/fleet login` (the user's own
 * account) when the workspace form is refused. Returns which one it used.
 */
async function link(
  s: Setting,
  team: BenchTeam,
): Promise<{ how: "workspace" | "user"; refusal?: string; expiredTriggers: number }> {
  const driver = botOf(s, team).driver.asTeam(team.teamId);
  const ws = teamWorkspace(s, team);
  const who = { userId: team.userId, channelId: team.channelId };
  let how: "workspace" | "user" = "workspace";
  let refusal: string | undefined;
  let expiredTriggers = 0;
  // A form the bot opened after Slack's 3 s (expired_trigger_id) is counted, and asked for again.
  for (;;) {
    const mark = ws.calls.length;
    const ack = await driver.slashCommand({
      ...who,
      text: how === "workspace" ? "login workspace" : "login",
    });
    if (ack.status !== 200) throw new Error(`/fleet login in ${team.teamId}: HTTP ${ack.status}`);
    if (bodyText(ack.body) !== "") {
      if (how === "user") throw new Error(`/fleet login in ${team.teamId}: ${bodyText(ack.body)}`);
      how = "user";
      refusal = bodyText(ack.body);
      continue;
    }
    const opened = await loginFormOpened(ws, mark, team.teamId);
    if (opened.ok) break;
    if (opened.error !== "expired_trigger_id" || expiredTriggers >= 2)
      throw new Error(`views.open in ${team.teamId}: ${opened.error}`);
    expiredTriggers++;
  }
  await submitLoginForm(driver, ws, team, 90_000);
  return { how, expiredTriggers, ...(refusal !== undefined ? { refusal } : {}) };
}

async function subscribe(s: Setting, team: BenchTeam): Promise<void> {
  const driver = botOf(s, team).driver.asTeam(team.teamId);
  const ack = await driver.slashCommand({
    userId: team.userId,
    channelId: team.channelId,
    text: `alerts subscribe <#${team.channelId}|${team.channelName}>`,
  });
  if (ack.status !== 200) throw new Error(`subscribe in ${team.teamId}: HTTP ${ack.status}`);
  // Acknowledged at once (it asks Slack about the channel), answered on the response_url.
  const responseUrl = ack.payload.response_url ?? "";
  const ws = teamWorkspace(s, team);
  const answer = await until(
    `the subscription of ${team.channelId}`,
    () => ws.responses.find((r) => r.url === responseUrl),
    30_000,
    50,
  );
  const text = bodyText(answer.body);
  if (!/now gets alerts|updated/.test(text))
    throw new Error(`subscribe in ${team.teamId}: ${text.slice(0, 300)}`);
}

const isSweepCall = (u: Upstream) => u.path.toLowerCase().endsWith("/load-transports");

/** Per account, its first load-transports request from `since` on that the service answered (not a 429). */
function sweepsIn(upstream: readonly Upstream[], since: number): Map<string, Upstream> {
  const found = new Map<string, Upstream>();
  for (const u of upstream)
    if (
      u.at >= since &&
      u.user !== undefined &&
      isSweepCall(u) &&
      u.end !== undefined &&
      u.status !== undefined &&
      u.status < 400 &&
      !found.has(u.user)
    )
      found.set(u.user, u);
  return found;
}

/**
 * Waits until every team's account had a load-transports call answered from `since` on; returns
 * them per account, and every request from `since` on. Throws Timeout naming how many were swept.
 */
async function waitSwept(s: Setting, teams: readonly BenchTeam[], since: number, timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const upstream = await s.sim.upstream(since);
    const swept = sweepsIn(upstream, since);
    if (teams.every((t) => swept.has(t.username))) return { swept, upstream };
    if (performance.now() > deadline)
      throw new Timeout(`a sweep of all ${teams.length} accounts (${swept.size} swept)`);
    await sleep(250);
  }
}

/**
 * For up to `count` accounts with a 429 in [from, to): their requests from 5 s before their first
 * 429 to 5 s after it, as "bot endpoint status arrival→answer" in ms from `zero`.
 */
function refusedSamples(
  upstream: readonly Upstream[],
  from: number,
  to: number,
  zero = from,
  count = 4,
): string[] {
  const first = new Map<string, number>();
  for (const u of upstream)
    if (u.status === 429 && u.at >= from && u.at < to && u.user !== undefined && !first.has(u.user))
      first.set(u.user, u.at);
  return [...first].slice(0, count).map(
    ([user, at]) =>
      `${user}: ${upstream
        .filter((u) => u.user === user && u.at >= at - 5000 && u.at <= at + 5000)
        .map(
          (u) =>
            `${u.bot} ${u.path.split("/").at(-1)} ${u.status ?? "…"} ${u.at - zero}→${u.end === undefined ? "…" : u.end - zero}`,
        )
        .join("; ")}`,
  );
}

/** A slash command form as Slack posts it for the team (the fields SlackDriver.slashCommand sends). */
function slashForm(s: Setting, team: BenchTeam, text: string): { form: string; responseUrl: string } {
  const ws = teamWorkspace(s, team);
  const o = s.fake.options;
  const responseUrl = ws.issueResponseUrl(team.channelId, team.userId);
  const form = new URLSearchParams({
    token: o.verificationToken,
    team_id: team.teamId,
    team_domain: ws.options.teamDomain,
    channel_id: team.channelId,
    channel_name: team.channelName,
    user_id: team.userId,
    user_name: ws.users.get(team.userId)?.name ?? team.userId,
    command: "/fleet",
    text,
    api_app_id: o.appId,
    is_enterprise_install: "false",
    response_url: responseUrl,
    trigger_id: ws.issueTriggerId(team.userId),
  }).toString();
  return { form, responseUrl };
}

function runLoad(input: object): Promise<WorkspaceLoadOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join(import.meta.dirname, "workspaceLoad.ts")],
      {
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString("utf8");
    });
    child.stderr.on("data", (c: Buffer) => {
      err += c.toString("utf8");
    });
    child.once("exit", (code) => {
      if (code !== 0) return reject(new Error(`load client failed: ${err.slice(-500)}`));
      resolve(JSON.parse(out.trim().split("\n").at(-1) ?? "{}"));
    });
    child.stdin.end(JSON.stringify(input));
  });
}

interface Burst {
  load: WorkspaceLoadOutput;
  unanswered: number;
}

/** BURST `/fleet where` from BURST workspaces (from `offset` on), command j to bot j mod replicas. */
async function whereBurst(s: Setting, offset: number): Promise<Burst> {
  const commands = Array.from({ length: BURST }, (_, j) => {
    const team = s.teams[(offset + j) % s.teams.length]!;
    const plate = s.sim.plates[j % s.sim.plates.length]!;
    const bot = s.bots[j % s.bots.length]!;
    return { team, url: `${bot.url}/slack/events`, ...slashForm(s, team, `where ${plate}`) };
  });
  const load = await runLoad({
    requests: commands.map((c) => ({ url: c.url, form: c.form })),
    signingSecret: s.fake.options.signingSecret,
    timeoutMs: 30_000,
  });
  const answered = (c: (typeof commands)[number]) =>
    teamWorkspace(s, c.team).responses.some((r) => r.url === c.responseUrl && !isProgress(bodyText(r.body)));
  try {
    await until("the burst's answers", () => commands.every(answered), 60_000, 50);
  } catch (error) {
    if (!(error instanceof Timeout)) throw error;
  }
  return { load, unanswered: commands.filter((c) => !answered(c)).length };
}

// ------------------------------------------------------------------------- the measure

export interface WorkspaceFigures {
  label: string;
  workspaces: number;
  replicas: number;
  /** How the accounts were linked: `/fleet login workspace`, or `/fleet login` where it was refused. */
  linkedAs: Record<string, number>;
  refusal?: string;
  /** Login forms the bot opened too late (views.open answered expired_trigger_id: over Slack's 3 s). */
  expiredTriggers: number;
  installMs?: number;
  linkMs?: number;
  subscribeMs?: number;
  /** Per bot, MB: before the first install; after the first `firstCount` were set up and swept; after all. */
  rssBefore?: number[];
  firstCount: number;
  rssFirst?: number[];
  rssAfter?: number[];
  sweep?: {
    tick: number;
    /** Per account, ms from the tick to its load-transports answered; and to its request's arrival. */
    endMs: number[];
    startMs: number[];
    /** Per account that needed no login in the tick, ms from the tick to its load-transports answered. */
    endMsNoLogin: number[];
    logins: number;
    swept: number;
    calls: number;
    /** Which bot sent the tick's calls (A, B). */
    byBot: string;
    /** Every request of the tick's period, by endpoint and status ("load-transports 200": n). */
    requests: Record<string, number>;
    /** A few accounts the service answered 429 in the tick's period: their requests around it. */
    refused: string[];
  };
  sweepError?: string;
  rateLimited?: number;
  /** Every 429 of the row by endpoint, and a few accounts' requests around their first one. */
  refusedAll?: { byEndpoint: Record<string, number>; samples: string[] };
  bursts?: Burst[];
  warmBurst?: Burst;
  errorsLogged: number;
  warningsLogged: number;
  skippedTicks: number;
  errorSamples: string[];
  warningSamples: string[];
  /** What stopped the measure, if something did. */
  failure?: string;
}

async function measure(options: RowOptions, replicas: number): Promise<WorkspaceFigures> {
  const count = options.quick ? QUICK_WORKSPACES : WORKSPACES;
  const firstCount = Math.max(1, Math.round(count / 10));
  const label = replicas === 1 ? "one process" : `${replicas} replicas on Redis`;
  const figures: WorkspaceFigures = {
    label,
    workspaces: count,
    replicas,
    linkedAs: {},
    expiredTriggers: 0,
    firstCount,
    errorsLogged: 0,
    warningsLogged: 0,
    skippedTicks: 0,
    errorSamples: [],
    warningSamples: [],
  };
  const s = await startSetting(count, replicas, options.botNodeArgs ?? []);
  const step = (what: string) => process.stderr.write(`workspaces (${label}): ${what}\n`);
  try {
    await sleep(2000);
    figures.rssBefore = s.bots.map((b) => b.rssMb());
    const setUp = async (teams: readonly BenchTeam[]) => {
      let at = performance.now();
      await installAll(s, teams);
      figures.installMs = (figures.installMs ?? 0) + performance.now() - at;
      at = performance.now();
      await inPool(teams, SETUP_CONCURRENCY, async (team) => {
        const linked = await link(s, team);
        figures.linkedAs[linked.how] = (figures.linkedAs[linked.how] ?? 0) + 1;
        if (linked.refusal !== undefined) figures.refusal ??= linked.refusal;
        figures.expiredTriggers += linked.expiredTriggers;
      });
      figures.linkMs = (figures.linkMs ?? 0) + performance.now() - at;
      at = performance.now();
      await inPool(teams, SETUP_CONCURRENCY, (team) => subscribe(s, team));
      figures.subscribeMs = (figures.subscribeMs ?? 0) + performance.now() - at;
      // A tick after the last subscription sweeps them all (a sweep under way may have missed some).
      const subscribed = Date.now();
      await waitSwept(s, teams, subscribed, 3 * SWEEP_EVERY_S * 1000 + 60_000);
      // Its alerts posted too (the demo transports have problems) before memory is read.
      await sleep(5000);
    };

    step(`setting up the first ${firstCount}`);
    await setUp(s.teams.slice(0, firstCount));
    figures.rssFirst = s.bots.map((b) => b.rssMb());
    step(`setting up the other ${count - firstCount}`);
    await setUp(s.teams.slice(firstCount));
    figures.rssAfter = s.bots.map((b) => b.rssMb());

    // One tick at a known second, with nothing else under way.
    const period = SWEEP_EVERY_S * 1000;
    let tick = Math.ceil(Date.now() / period) * period;
    if (tick - Date.now() < 4000) tick += period;
    step(`measuring the tick at ${new Date(tick).toISOString()}`);
    try {
      await sleep(tick - Date.now());
      const { swept } = await waitSwept(s, s.teams, tick, 90_000);
      // Whatever else the tick caused (logins, 429s) has been sent by then too.
      await sleep(2 * SLOT_MS);
      const upstream = (await s.sim.upstream(tick)).filter((u) => u.at < tick + period);
      const records = s.teams.map((t) => swept.get(t.username)!);
      const byBot = new Map<string, number>();
      const kinds = new Map<string, number>();
      for (const u of upstream) {
        const kind = `${u.path.split("/").at(-1)} ${u.status ?? "…"}`;
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
        if (isSweepCall(u)) byBot.set(u.bot, (byBot.get(u.bot) ?? 0) + 1);
      }
      figures.sweep = {
        tick,
        endMs: records.map((r) => r.end! - tick),
        endMsNoLogin: records
          .filter((r) => !upstream.some((u) => u.user === r.user && u.path.toLowerCase().endsWith("/login")))
          .map((r) => r.end! - tick),
        logins: upstream.filter((u) => u.path.toLowerCase().endsWith("/login")).length,
        startMs: records.map((r) => r.at - tick),
        swept: records.length,
        calls: upstream.filter(isSweepCall).length,
        byBot: [...byBot].map(([bot, n]) => `${bot} ${n}`).join(", "),
        requests: Object.fromEntries(kinds),
        refused: refusedSamples(await s.sim.upstream(tick - period), tick, tick + period),
      };
    } catch (error) {
      figures.sweepError = error instanceof Timeout ? error.message : String(error);
    }
    // The tick's alerts (if any) settle before the bursts.
    await sleep(3000);

    step("ack bursts");
    figures.warmBurst = await whereBurst(s, (MEASURED_BURSTS * BURST) % count);
    await sleep(2 * SLOT_MS);
    figures.bursts = [];
    for (let i = 0; i < (options.quick ? 1 : MEASURED_BURSTS); i++) {
      figures.bursts.push(await whereBurst(s, i * BURST));
      await sleep(2 * SLOT_MS);
    }
    figures.rateLimited = await s.sim.rateLimited();
    const all = await s.sim.upstream(0);
    const kinds = new Map<string, number>();
    for (const u of all)
      if (u.status === 429) {
        const kind = u.path.split("/").at(-1) ?? "";
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
    figures.refusedAll = {
      byEndpoint: Object.fromEntries(kinds),
      samples: refusedSamples(all, 0, Number.POSITIVE_INFINITY, all[0]?.at ?? 0, 3),
    };
  } catch (error) {
    figures.failure = error instanceof Error ? error.message : String(error);
    for (const bot of s.bots)
      process.stderr.write(`workspaces (${label}): bot ${bot.name} log tail:\n${bot.tail(40)}\n`);
  } finally {
    figures.errorsLogged = s.bots.reduce((n, b) => n + b.errorCount(), 0);
    figures.warningsLogged = s.bots.reduce((n, b) => n + b.warningCount(), 0);
    figures.skippedTicks = s.bots.reduce((n, b) => n + b.skippedTicks(), 0);
    figures.errorSamples = [...new Set(s.bots.flatMap((b) => b.errors.map((e) => `${b.name}: ${e}`)))].slice(
      0,
      10,
    );
    figures.warningSamples = [
      ...new Set(s.bots.flatMap((b) => b.warnings.map((e) => `${b.name}: ${e}`))),
    ].slice(0, 10);
    await s.close();
  }
  return figures;
}

// ------------------------------------------------------------------------- the rows

function perBot(values: (number | undefined)[], bots: number, text: (v: number) => string): string {
  if (values.some((v) => v === undefined || !Number.isFinite(v))) return "n/a";
  const shown = values.map((v) => text(v!));
  return bots === 1 ? shown[0]! : shown.map((v, i) => `${String.fromCharCode(65 + i)} ${v}`).join(", ");
}

export function workspaceRowsOf(f: WorkspaceFigures): RealtimeRow[] {
  const n = f.workspaces;
  const bots = f.replicas;
  const delta = (after?: number[], before?: number[], divisor = n) =>
    perBot(
      Array.from({ length: bots }, (_, i) =>
        after?.[i] !== undefined && before?.[i] !== undefined
          ? (after[i]! - before[i]!) / divisor
          : undefined,
      ),
      bots,
      kb,
    );
  const sweep = f.sweep;
  const maxEnd = sweep ? Math.max(...sweep.endMs) : undefined;
  const bursts = f.bursts ?? [];
  const p99s = bursts.map((b) => quantile(b.load.ackMs, 0.99));
  const all = [...(f.warmBurst ? [f.warmBurst] : []), ...bursts];
  const late = all.reduce((k, b) => k + b.load.ackMs.filter((ms) => ms > 3000).length, 0);
  const failed = all.reduce((k, b) => k + b.load.failed, 0);
  const unanswered = all.reduce((k, b) => k + b.unanswered, 0);
  const linked = Object.entries(f.linkedAs)
    .map(([how, k]) => `${k} ${how === "workspace" ? "`login workspace`" : "`login`"}`)
    .join(", ");
  const refusedKinds = Object.entries(f.refusedAll?.byEndpoint ?? {})
    .map(([endpoint, k]) => `${k} ${endpoint}`)
    .join(", ");
  const rows: RealtimeRow[] = [
    {
      row: `11. ${n} installed workspaces (own fleet account and alert subscription each), ${f.label}`,
      figure: `install (one after the other) / link (${SETUP_CONCURRENCY} at a time) / subscribe, all ${n} (s)`,
      goal: "—",
      result: `${fmt((f.installMs ?? Number.NaN) / 1000, 1)} / ${fmt((f.linkMs ?? Number.NaN) / 1000, 1)} / ${fmt((f.subscribeMs ?? Number.NaN) / 1000, 1)}${linked ? ` (${linked})` : ""}`,
      naive: "—",
    },
    {
      row: "",
      figure: "login forms opened after Slack's 3 s (views.open: expired_trigger_id; asked again)",
      goal: "0",
      result: String(f.expiredTriggers),
      naive: "—",
    },
    {
      row: "",
      figure: `RSS per workspace: (after all ${n} − before the first install) ÷ ${n} (KB)`,
      goal: "—",
      result: `${delta(f.rssAfter, f.rssBefore)} (${perBot(f.rssBefore ?? [], bots, (v) => fmt(v, 0))} → ${perBot(f.rssAfter ?? [], bots, (v) => fmt(v, 0))} MB)`,
      naive: "—",
    },
    {
      row: "",
      figure: `RSS per workspace, marginal: (after all ${n} − after the first ${f.firstCount}) ÷ ${n - f.firstCount} (KB)`,
      goal: "—",
      result: delta(f.rssAfter, f.rssFirst, n - f.firstCount),
      naive: "—",
    },
    {
      row: "",
      figure: `one ALERTS_CRON tick → every account's load-transports answered: max (ms; ÷ slot), p50 / p99 (ms)`,
      goal: `max ≤ 1 slot (${SLOT_MS} ms)`,
      result: sweep
        ? `${fmt(maxEnd, 0)} (${fmt((maxEnd ?? Number.NaN) / SLOT_MS)}); ${fmt(quantile(sweep.endMs, 0.5), 0)} / ${fmt(quantile(sweep.endMs, 0.99), 0)}`
        : (f.sweepError ?? f.failure ?? "n/a"),
      naive: "—",
    },
    {
      row: "",
      figure:
        "accounts swept by the tick / its load-transports calls (sent by) / logins; first and last call sent after the tick (ms)",
      goal: `${n} / ${n} / 0`,
      result: sweep
        ? `${sweep.swept} / ${sweep.calls} (${sweep.byBot}) / ${sweep.logins}; ${fmt(Math.min(...sweep.startMs), 0)}, ${fmt(Math.max(...sweep.startMs), 0)}`
        : "n/a",
      naive: "—",
    },
    ...(sweep && sweep.logins > 0
      ? [
          {
            row: "",
            figure: `the same, accounts that needed no login in the tick (${sweep.endMsNoLogin.length}): max (ms; ÷ slot), p50 (ms)`,
            goal: `max ≤ 1 slot (${SLOT_MS} ms)`,
            result:
              sweep.endMsNoLogin.length > 0
                ? `${fmt(Math.max(...sweep.endMsNoLogin), 0)} (${fmt(Math.max(...sweep.endMsNoLogin) / SLOT_MS)}); ${fmt(quantile(sweep.endMsNoLogin, 0.5), 0)}`
                : "—",
            naive: "—",
          },
        ]
      : []),
    {
      row: "",
      figure: `ack, ${BURST} \`/fleet where\` from ${BURST} workspaces at once${bots > 1 ? `, spread over the ${bots} replicas` : ""}: p50 / p99 (ms), median of ${bursts.length} bursts (worst p99)`,
      goal: "p99 < 100",
      result:
        bursts.length > 0
          ? `${fmt(median(bursts.map((b) => quantile(b.load.ackMs, 0.5))), 0)} / ${fmt(median(p99s), 0)} (${fmt(Math.max(...p99s), 0)})`
          : (f.failure ?? "n/a"),
      naive: "—",
    },
    {
      row: "",
      figure: `acks over Slack's 3 s / failed / commands unanswered (all ${all.length} bursts)`,
      goal: "0 / 0 / 0",
      result: all.length > 0 ? `${late} / ${failed} / ${unanswered}` : "n/a",
      naive: "—",
    },
    {
      row: "",
      figure:
        "429s from the service during the row / bot log lines at error level / ticks skipped (previous run still under way)",
      goal: "0 / 0 / 0",
      result: `${f.rateLimited ?? "n/a"}${refusedKinds ? ` (${refusedKinds})` : ""} / ${f.errorsLogged} / ${f.skippedTicks}`,
      naive: "—",
    },
  ];
  if (f.failure)
    rows.push({
      row: "",
      figure: "stopped by",
      goal: "—",
      result: `error: ${f.failure.split("\n")[0]}`,
      naive: "—",
    });
  return rows;
}

/** The row: one process, then 2 replicas on Redis. */
export async function workspaceRows(options: RowOptions): Promise<RealtimeRow[]> {
  const rows: RealtimeRow[] = [];
  // WORKSPACES_SETTINGS=2 runs the replica setting alone (a quicker look at one of them).
  const settings = (process.env.WORKSPACES_SETTINGS ?? "1,2")
    .split(",")
    .map(Number)
    .filter((n) => n >= 1);
  for (const replicas of settings) {
    const figures = await measure(options, replicas);
    process.stderr.write(
      `workspaces (${figures.label}): ${JSON.stringify({
        ...figures,
        sweep: figures.sweep && {
          ...figures.sweep,
          endMs: undefined,
          startMs: undefined,
          endMsNoLogin: undefined,
          maxEndMs: Math.max(...figures.sweep.endMs),
          p50EndMs: quantile(figures.sweep.endMs, 0.5),
        },
        bursts: figures.bursts?.map((b) => ({
          p50: quantile(b.load.ackMs, 0.5),
          p99: quantile(b.load.ackMs, 0.99),
          max: Math.max(...b.load.ackMs),
          failed: b.load.failed,
          errors: b.load.errors,
          unanswered: b.unanswered,
        })),
        warmBurst: figures.warmBurst && {
          p99: quantile(figures.warmBurst.load.ackMs, 0.99),
          failed: figures.warmBurst.load.failed,
        },
      })}\n`,
    );
    rows.push(...workspaceRowsOf(figures));
  }
  return rows;
}

export const WORKSPACES_READING = `- 11: \`--rows=workspaces\` (bench/workspaces.ts). The bot in multi-workspace mode (SLACK_CLIENT_ID,
  SLACK_CLIENT_SECRET, SLACK_STATE_SECRET, SLACK_SIGNING_SECRET, CREDENTIALS_KEY; no bot token),
  ALERTS_CRON every ${SWEEP_EVERY_S} s, on ${WORKSPACES} teams of the fake Slack (T0000001…, one user and one
  channel each, in the bench process) and ${WORKSPACES} users of the simulator, one fleet account per
  workspace. The simulator runs in a process of its own (bench/workspaceSim.ts), behind one
  pass-through proxy per bot that records each request's arrival, its answer and its account.
  Each workspace is installed through "Add to Slack" over HTTP (GET /slack/install → the fake's
  authorize page → GET /slack/oauth_redirect with the state cookie), one after the other; then
  links its account with \`/fleet login workspace\` and the form (${SETUP_CONCURRENCY} workspaces at a time), and
  subscribes its channel with \`/fleet alerts subscribe <#C…|name>\`. RSS is the bot's VmRSS 5 s
  after the first sweep that covered every workspace, against the same before the first install;
  the marginal figure starts from after the first tenth (code loaded and compiled once left
  out). The sweep is one ALERTS_CRON tick at a known second T, once every account was swept at
  least once: per account, its load-transports answered (at the proxy) − T. Every account has a
  gate of its own, so the goal is each sweep within one slot. The acks are ${BURST} signed
  \`/fleet where <plate>\` from ${BURST} different workspaces, sent at once by a child process
  (bench/workspaceLoad.ts; round-robin over the replicas), after one warm-up burst. With 2
  replicas, both run on one redis-server (AOF on); each workspace's setup requests go to one of
  them (alternately), and the tick's sweep runs on whichever takes the BullMQ job.`;
