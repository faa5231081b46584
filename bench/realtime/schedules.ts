/**
 * Row 13 of the real-time part (`npm run bench -- --realtime --rows=schedules`, issue 34):
 * "100 schedules at 07:30 across 20 accounts; every post within its account's own slot
 * arithmetic (runs spread, none late by more than the slots ahead of it), and an interactive
 * `where` at 07:30 still answered within one slot."
 *
 * The BUILT bot (`node dist/main.js`) has no fake clock, so the shared minute is not 07:30 but
 * the first whole minute at least SETUP_MS after the setup starts, written as each author's own
 * HH:MM (their Slack zones differ; the instant is one). The row's point is the arithmetic of many
 * runs due at one minute, not the wall-clock 07:30.
 *
 * A workspace keeps at most MAX_SCHEDULES_PER_WORKSPACE schedules, so 100 need several: the bot
 * runs in multi-workspace mode ("Add to Slack" installs through its OAuth endpoints), each of
 * SCHEDULE_TEAMS workspaces with ACCOUNTS_PER_TEAM users who link their own fleet account (`/fleet login`
 * and its form) and type RUNS_PER_ACCOUNT `/fleet schedule … every day at HH:MM` in the team's
 * channel. Everything goes through signed Slack requests; posts are read from the fake Slack's
 * records, upstream calls from the simulator's request log and stats.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { SCHEDULE_TICK_MS } from "../../src/app/schedules.js";
import { MAX_SCHEDULES_PER_WORKSPACE } from "../../src/features/schedules/index.js";
import {
  type FakeSlack,
  type FakeTeamInput,
  type FakeWorkspace,
  SlackDriver,
  startFakeSlack,
} from "../../src/sandbox/fakeSlack/index.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/index.js";
import { listeningUrl } from "../../test/helpers/botLog.js";
import { installWorkspace } from "../../test/helpers/installFlow.js";
import { loginFormOpened, submitLoginForm } from "../loginForm.js";
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
} from "./harness.js";
import type { RealtimeRow, RowOptions } from "./rows.js";

// ------------------------------------------------------------------------- the setting

/** Workspaces (quick mode: half), each with ACCOUNTS_PER_TEAM authors. */
export const SCHEDULE_TEAMS = 4;
export const ACCOUNTS_PER_TEAM = 5;
export const RUNS_PER_ACCOUNT = 5;
/**
 * Each author's schedules: five different reports (no two share an upstream request, so the gate
 * cannot serve two runs with one call), each three calls on the 28 demo vehicles (10 a call).
 */
export const SCHEDULED_REPORTS = [
  "stops all yesterday min=5",
  "stops all yesterday min=10",
  "stops all yesterday min=20",
  "fuel all yesterday",
  "fuel all last 2d",
] as const;
export const CALLS_PER_RUN = 3;
/** The authors' zones, one per workspace: one instant, different HH:MM. */
const ZONES = ["Europe/Bucharest", "Europe/London", "America/New_York", "Europe/Bucharest"];
/** The shared minute is at least this far after the setup starts (installs, links, 100 commands). */
const SETUP_MS = 75_000;
/**
 * The bot ticks every SCHEDULE_TICK_MS (20 s) from its start, and claims a run once the tick is
 * within the run's lead (its own calls, about 2 slots + an answer for 3 calls). With 30 s slots the
 * tick's phase costs less than a slot; with the bench's 1 s slots it could cost 19. So the bot is
 * started (again, if need be) until its ticks fall TICK_AIM_MS ± TICK_AIM_WINDOW_MS before the
 * minute: inside every run's lead, so the claiming tick is the one just before the minute.
 */
const TICK_AIM_MS = 1300;
const TICK_AIM_WINDOW_MS = 450;
const ALIGN_ATTEMPTS = 6;
/** A post may be this much later than its account's arithmetic (the tick, the claims, the post itself). */
const TOLERANCE_SLOTS = 1;
/** Never an ack; a recognisable value only. */
const STATE_SECRET = "bench-schedules-install-state";

const MINUTE_MS = 60_000;
const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");
const inSlots = (ms: number) => ms / SLOT_MS;

interface Author {
  teamId: string;
  userId: string;
  channelId: string;
  zone: string;
  /** The author's own fleet account at the simulator (never printed with its password). */
  username: string;
  password: string;
}

interface ScheduleTeam {
  teamId: string;
  channelId: string;
  authors: Author[];
}

function scheduleTeams(count: number): ScheduleTeam[] {
  return Array.from({ length: count }, (_, t) => {
    const teamId = `T0SCHED${t + 1}`;
    const channelId = `C0REPORTS${t + 1}`;
    const zone = ZONES[t % ZONES.length]!;
    const authors = Array.from({ length: ACCOUNTS_PER_TEAM }, (_, a) => ({
      teamId,
      channelId,
      zone,
      userId: `U0S${t + 1}A${a + 1}`,
      username: `sched${t + 1}a${a + 1}`,
      password: `pw-sched-${t + 1}-${a + 1}`,
    }));
    return { teamId, channelId, authors };
  });
}

function fakeTeam(team: ScheduleTeam, index: number): FakeTeamInput {
  return {
    teamId: team.teamId,
    teamName: `Carrier ${index + 1}`,
    teamDomain: `carrier-sched-${index + 1}`,
    users: team.authors.map((a, i) => ({
      id: a.userId,
      name: `dispatch${index + 1}${i + 1}`,
      realName: `Dispatcher ${index + 1}.${i + 1}`,
      tz: a.zone,
    })),
    channels: [{ id: team.channelId, name: `reports-${index + 1}`, isPrivate: false, botIsMember: true }],
  };
}

/** "HH:MM" of an instant in a zone: what an author types to mean that instant. */
function wallTime(instant: number, zone: string): string {
  return new Intl.DateTimeFormat("en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: zone,
  }).format(new Date(instant));
}

// ------------------------------------------------------------------------- the bot

interface ScheduleBot {
  url: string;
  driver: SlackDriver;
  /** When the bot logged "listening" (its own clock, epoch ms): its schedule ticker started just before. */
  listeningAt: number;
  startupMs: number;
  /** Per schedule id, when the bot logged its run as submitted (the claiming tick, per run). */
  submitted: Map<string, number>;
  /** Error lines (level ≥ 50), for the report. */
  errors: string[];
  stop(): Promise<void>;
}

interface LogLine {
  time?: number;
  level?: number;
  msg?: string;
  schedule?: string;
}

function parseLine(line: string): LogLine | undefined {
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === "object" && parsed !== null ? (parsed as LogLine) : undefined;
  } catch {
    return undefined;
  }
}

/** The built bot in multi-workspace mode against the simulator and the fake Slack. */
async function spawnScheduleBot(
  sim: RunningSimulator,
  fake: FakeSlack,
  dataDir: string,
  nodeArgs: readonly string[],
): Promise<ScheduleBot> {
  const spawnedAt = Date.now();
  const child: ChildProcess = spawn(
    process.execPath,
    [...BOT_NODE_FLAGS, ...nodeArgs, join(REPO, "dist", "main.js")],
    {
      cwd: REPO,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        PATH: process.env.PATH ?? "",
        NODE_ENV: "production",
        PORT: "0",
        FLEET_API_URL: sim.url,
        FLEET_MIN_INTERVAL_MS: String(INTERVAL_MS),
        FLEET_SAFETY_MARGIN_MS: String(MARGIN_MS),
        SLACK_API_URL: fake.apiUrl,
        SLACK_CLIENT_ID: fake.options.oauth.clientId,
        SLACK_CLIENT_SECRET: fake.options.oauth.clientSecret,
        SLACK_STATE_SECRET: STATE_SECRET,
        SLACK_SIGNING_SECRET: fake.options.signingSecret,
        // A bench-only key: the links' passwords are sealed with it in this temp directory.
        CREDENTIALS_KEY: Buffer.alloc(32, 13).toString("base64"),
        DATA_DIR: dataDir,
        LOG_LEVEL: "info",
        // No alert sweep: nothing is subscribed, and a year from now is never reached.
        ALERTS_CRON: "0 0 1 1 *",
      },
    },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const submitted = new Map<string, number>();
  const errors: string[] = [];
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-4000);
  });
  let listeningAt = Number.NaN;
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the bot did not start in time: ${stderr}`)), 60_000);
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const parsed = parseLine(line);
      if (parsed?.msg === "scheduled report submitted" && parsed.schedule && parsed.time)
        submitted.set(parsed.schedule, parsed.time);
      else if ((parsed?.level ?? 0) >= 50 && errors.length < 20) errors.push(String(parsed?.msg));
      const found = listeningUrl(line);
      if (found) {
        listeningAt = parsed?.time ?? Date.now();
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the bot exited (${code}) before listening: ${stderr}`));
    });
  });
  let stopped = false;
  return {
    url,
    driver: new SlackDriver({ botUrl: `${url}/slack/events`, fake, ackTimeoutMs: 30_000 }),
    listeningAt,
    startupMs: listeningAt - spawnedAt,
    submitted,
    errors,
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

/**
 * How far the bot's ticks fall from TICK_AIM_MS before a whole minute (−10 s … +10 s). Its ticks
 * are at `listeningAt` + k × SCHEDULE_TICK_MS, and a whole minute is a whole number of ticks.
 */
function tickPhaseError(listeningAt: number): number {
  const aim = SCHEDULE_TICK_MS - TICK_AIM_MS;
  const off = (((listeningAt - aim) % SCHEDULE_TICK_MS) + SCHEDULE_TICK_MS) % SCHEDULE_TICK_MS;
  return off >= SCHEDULE_TICK_MS / 2 ? off - SCHEDULE_TICK_MS : off;
}

/** How long to wait before a spawn taking `startupMs` to listen puts the ticks on the aim. */
function waitBeforeSpawn(startupMs: number): number {
  const aim = SCHEDULE_TICK_MS - TICK_AIM_MS;
  const wait = (((aim - startupMs - Date.now()) % SCHEDULE_TICK_MS) + SCHEDULE_TICK_MS) % SCHEDULE_TICK_MS;
  return wait < 200 ? wait + SCHEDULE_TICK_MS : wait;
}

/** Starts the bot, again if need be, until its ticks fall on the aim; each miss teaches the startup time. */
async function startAlignedBot(
  sim: RunningSimulator,
  fake: FakeSlack,
  dataDir: string,
  nodeArgs: readonly string[],
): Promise<{ bot: ScheduleBot; attempts: number; phaseErrorMs: number }> {
  let startupMs = 1500;
  for (let attempt = 1; attempt <= ALIGN_ATTEMPTS; attempt++) {
    await sleep(waitBeforeSpawn(startupMs));
    const bot = await spawnScheduleBot(sim, fake, dataDir, nodeArgs);
    const phaseErrorMs = tickPhaseError(bot.listeningAt);
    if (Math.abs(phaseErrorMs) <= TICK_AIM_WINDOW_MS) return { bot, attempts: attempt, phaseErrorMs };
    startupMs = bot.startupMs;
    await bot.stop();
  }
  throw new Error(`the bot's schedule ticks could not be aligned in ${ALIGN_ATTEMPTS} starts`);
}

// ------------------------------------------------------------------------- setup through Slack

function teamWorkspace(fake: FakeSlack, teamId: string): FakeWorkspace {
  const ws = fake.team(teamId);
  if (!ws) throw new Error(`the fake has no team ${teamId}`);
  return ws;
}

/** "Add to Slack" for the team, as a browser does it, by its first author. */
async function install(fake: FakeSlack, bot: ScheduleBot, team: ScheduleTeam): Promise<void> {
  fake.oauth.configuredRedirectUri = `${bot.url}/slack/oauth_redirect`;
  const result = await installWorkspace(bot.url, fake, {
    teamId: team.teamId,
    userId: team.authors[0]!.userId,
  });
  if (result.status !== 200)
    throw new Error(`install of ${team.teamId}: HTTP ${result.status} ${result.body.slice(0, 200)}`);
}

/** The author's own link: `/fleet login`, its form submitted, the "Linked" answer waited for. */
async function linkOwnAccount(fake: FakeSlack, bot: ScheduleBot, author: Author): Promise<void> {
  const driver = bot.driver.asTeam(author.teamId);
  const ws = teamWorkspace(fake, author.teamId);
  const mark = ws.calls.length;
  const ack = await driver.slashCommand({
    userId: author.userId,
    channelId: author.channelId,
    text: "login",
  });
  if (ack.status !== 200 || bodyText(ack.body) !== "")
    throw new Error(
      `/fleet login of ${author.userId}: HTTP ${ack.status} ${bodyText(ack.body).slice(0, 200)}`,
    );
  const opened = await loginFormOpened(ws, mark, author.userId);
  if (!opened.ok) throw new Error(`views.open for ${author.userId}: ${opened.error}`);
  await submitLoginForm(driver, ws, author, 30_000);
}

/** A signed `/fleet` command of the author; the ack and the response_url to watch. */
async function fleetCommand(bot: ScheduleBot, author: Author, text: string) {
  const sentAt = Date.now();
  const result = await bot.driver
    .asTeam(author.teamId)
    .slashCommand({ userId: author.userId, channelId: author.channelId, text });
  return { sentAt, result, responseUrl: result.payload.response_url ?? "" };
}

/** The first answer (not a progress update) posted to a response_url in the team. */
function answerIn(ws: FakeWorkspace, responseUrl: string) {
  return ws.responses.find((r) => r.url === responseUrl && !isProgress(bodyText(r.body)));
}

/** A `where` answered: the account's token and vehicle list, as a dispatcher's morning has them. */
async function warm(fake: FakeSlack, bot: ScheduleBot, author: Author, plate: string): Promise<void> {
  const sent = await fleetCommand(bot, author, `where ${plate}`);
  const ws = teamWorkspace(fake, author.teamId);
  await until(`the warm-up of ${author.username}`, () => answerIn(ws, sent.responseUrl), 30_000, 50);
}

/** `/fleet schedule <report> every day at HH:MM` typed in the team's channel; the schedule's id. */
async function typeSchedule(
  fake: FakeSlack,
  bot: ScheduleBot,
  author: Author,
  report: string,
  at: string,
): Promise<string> {
  const sent = await fleetCommand(bot, author, `schedule ${report} every day at ${at}`);
  if (sent.result.status !== 200) throw new Error(`schedule of ${author.userId}: HTTP ${sent.result.status}`);
  // In the ack, or on the response_url when the bot acknowledged first (it asks Slack about the channel).
  const ws = teamWorkspace(fake, author.teamId);
  const answer =
    bodyText(sent.result.body) ||
    bodyText((await until("the schedule's answer", () => answerIn(ws, sent.responseUrl), 15_000, 25)).body);
  const id = /id `([0-9A-Z]+)`/.exec(answer)?.[1];
  if (!id) throw new Error(`schedule of ${author.userId} refused: ${answer.slice(0, 300)}`);
  return id;
}

/** Runs `work` for every team at once, one author after the other within a team. */
async function perTeam(
  teams: readonly ScheduleTeam[],
  work: (author: Author) => Promise<void>,
): Promise<void> {
  await Promise.all(
    teams.map(async (team) => {
      for (const author of team.authors) await work(author);
    }),
  );
}

/** One company-vehicles answer's time, as another user (the bot's accounts untouched): the call time. */
async function companyVehiclesAnswerMs(sim: RunningSimulator, username: string, password: string) {
  const login = await fetch(`${sim.url}/api/authentication/login?api-version=2.0`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username, password }).toString(),
  });
  if (!login.ok) throw new Error(`timing login answered ${login.status}`);
  const token = ((await login.json()) as { access_token?: string }).access_token ?? "";
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    await sleep(SLOT_MS);
    const started = performance.now();
    const answer = await fetch(`${sim.url}/api/carriers/company-vehicles?api-version=2.0`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await answer.arrayBuffer();
    if (!answer.ok) throw new Error(`timing company-vehicles answered ${answer.status}`);
    times.push(performance.now() - started);
  }
  return median(times);
}

// ------------------------------------------------------------------------- measuring

interface Post {
  author: Author;
  at: number;
  late: boolean;
}

/** The scheduled posts in the teams' channels: top-level chat.postMessage with an author's footnote. */
function scheduledPosts(fake: FakeSlack, teams: readonly ScheduleTeam[]): Post[] {
  const posts: Post[] = [];
  for (const team of teams) {
    for (const call of teamWorkspace(fake, team.teamId).calls) {
      if (call.method !== "chat.postMessage" || !call.ok || call.args.channel !== team.channelId) continue;
      if (call.args.thread_ts !== undefined) continue;
      const text = JSON.stringify(call.args);
      const author = team.authors.find((a) => text.includes(`Scheduled by <@${a.userId}>`));
      if (author) posts.push({ author, at: call.at, late: text.includes("Late: due") });
    }
  }
  return posts;
}

/** One post against its account's arithmetic: `ahead` runs of the account landed before it. */
interface RunFigure {
  author: Author;
  ahead: number;
  latenessMs: number;
  /** (ahead + 1) runs of calls, one slot each, plus the tolerance. */
  boundMs: number;
  /** Lateness beyond the runs ahead of it: what the run itself cost after the minute. */
  beyondMs: number;
}

function arithmetic(posts: readonly Post[], minute: number): RunFigure[] {
  const byAuthor = new Map<string, Post[]>();
  for (const p of posts) byAuthor.set(p.author.userId, [...(byAuthor.get(p.author.userId) ?? []), p]);
  const runSlots = CALLS_PER_RUN * SLOT_MS;
  return [...byAuthor.values()].flatMap((own) =>
    own
      .sort((a, b) => a.at - b.at)
      .map((p, ahead) => ({
        author: p.author,
        ahead,
        latenessMs: p.at - minute,
        boundMs: (ahead + 1) * runSlots + TOLERANCE_SLOTS * SLOT_MS,
        beyondMs: p.at - minute - ahead * runSlots,
      })),
  );
}

/** Gaps between an account's consecutive posts: a run's calls apart when its runs are spread. */
function postGaps(figures: readonly RunFigure[]): number[] {
  const gaps: number[] = [];
  for (const f of figures) {
    if (f.ahead === 0) continue;
    const before = figures.find((g) => g.author === f.author && g.ahead === f.ahead - 1);
    if (before) gaps.push(f.latenessMs - before.latenessMs);
  }
  return gaps;
}

/**
 * A cron that starts every run at the minute (no lead) with the same spacing: the account's run k
 * posts after (k + 1) runs of calls, the first call at once.
 */
function naiveLatenessSlots(accounts: number): number[] {
  return Array.from(
    { length: accounts * RUNS_PER_ACCOUNT },
    (_, i) => ((i % RUNS_PER_ACCOUNT) + 1) * CALLS_PER_RUN - 1,
  );
}

const distribution = (values: readonly number[]) =>
  `${fmt(quantile(values, 0.5))} / ${fmt(quantile(values, 0.95))} / ${fmt(Math.max(...values))}`;

/** Report calls (stops, consumption) of each account so far, from the simulator's stats. */
function reportCalls(sim: RunningSimulator, authors: readonly Author[]): Map<string, number> {
  const stats = sim.control.stats().requests;
  return new Map(
    authors.map((a) => [a.username, (stats[a.username]?.stops ?? 0) + (stats[a.username]?.consumption ?? 0)]),
  );
}

interface WhereFigure {
  answerMs?: number;
  /** Command → its company-vehicles request's arrival at the simulator. */
  waitMs?: number;
  /** What a FIFO queue would serve first: the account's report calls not yet sent, plus its own. */
  naiveSlots: number;
}

/** `/fleet where` of a busy account at the minute: its answer, and how long its call waited. */
async function whereAtTheMinute(
  fake: FakeSlack,
  sim: RunningSimulator,
  bot: ScheduleBot,
  author: Author,
  plate: string,
): Promise<WhereFigure> {
  const sent = await fleetCommand(bot, author, `where ${plate}`);
  const ws = teamWorkspace(fake, author.teamId);
  let answerMs: number | undefined;
  try {
    const answer = await until("the where at the minute", () => answerIn(ws, sent.responseUrl), 30 * SLOT_MS);
    answerMs = answer.at - sent.sentAt;
  } catch (error) {
    if (!(error instanceof Timeout)) throw error;
  }
  // The account's runs go on: their calls not yet sent when the where came are what FIFO puts first.
  await sleep(RUNS_PER_ACCOUNT * CALLS_PER_RUN * SLOT_MS);
  const requests = sim.control
    .requests(500)
    .filter((r) => r.username === author.username)
    .map((r) => ({ endpoint: r.endpoint, atMs: Date.parse(r.at) }));
  const call = requests.find((r) => r.endpoint === "company-vehicles" && r.atMs >= sent.sentAt);
  const reportsAfter = requests.filter(
    (r) => (r.endpoint === "stops" || r.endpoint === "consumption") && r.atMs >= sent.sentAt,
  ).length;
  return {
    ...(answerMs !== undefined ? { answerMs } : {}),
    ...(call ? { waitMs: call.atMs - sent.sentAt } : {}),
    naiveSlots: reportsAfter + 1,
  };
}

/** 429s the simulator answered so far, all accounts. */
function rateLimited(sim: RunningSimulator): number {
  return Object.values(sim.control.stats().rateLimited).reduce((a, b) => a + b, 0);
}

/**
 * The order of an account's report calls from `from` on, for the log: each call named by its run
 * (a letter per distinct request but its vehicles, in order of first call), its arrival in slots
 * after the minute, "!" when the service answered 429. "A A B A C…" is runs interleaved call by call.
 */
function callOrder(sim: RunningSimulator, author: Author, from: number, minute: number): string {
  const runs = new Map<string, string>();
  return sim.control
    .requests(500)
    .filter((r) => r.username === author.username && (r.endpoint === "stops" || r.endpoint === "consumption"))
    .map((r) => ({ ...r, atMs: Date.parse(r.at) }))
    .filter((r) => r.atMs >= from)
    .map((r) => {
      const { vehiclesList: _vehicles, ...request } = (r.body ?? {}) as Record<string, unknown>;
      const key = `${r.endpoint} ${JSON.stringify(request)}`;
      if (!runs.has(key)) runs.set(key, String.fromCharCode(65 + runs.size));
      return `${runs.get(key)}@${fmt(inSlots(r.atMs - minute), 1)}${r.status === 429 ? "!" : ""}`;
    })
    .join(" ");
}

// ------------------------------------------------------------------------- the row

interface ScheduleRun {
  accounts: number;
  schedules: number;
  minute: number;
  posts: Post[];
  /** Per schedule id, its author. */
  authorOf: Map<string, Author>;
  submitted: Map<string, number>;
  where: WhereFigure;
  callMs: number;
  /** Report calls per account from just before the minute to the last post. */
  callsPerAccount: number[];
  /** 429s from the minute's tick on (the runs and the where), and during the setup. */
  limited: number;
  limitedInSetup: number;
  /** Per account, its report calls in order (callOrder), for the log. */
  orders: Map<Author, string>;
  alignAttempts: number;
  phaseErrorMs: number;
  botErrors: string[];
}

/** The workspaces of the row: half in quick mode. */
const teamCount = (options: RowOptions) => (options.quick ? SCHEDULE_TEAMS / 2 : SCHEDULE_TEAMS);

async function measureSchedules(options: RowOptions): Promise<ScheduleRun> {
  const teams = scheduleTeams(teamCount(options));
  const authors = teams.flatMap((t) => t.authors);
  if (ACCOUNTS_PER_TEAM * RUNS_PER_ACCOUNT > MAX_SCHEDULES_PER_WORKSPACE)
    throw new Error(`a workspace keeps at most ${MAX_SCHEDULES_PER_WORKSPACE} schedules`);
  if (MINUTE_MS % SCHEDULE_TICK_MS !== 0) throw new Error("the tick does not divide a minute: no alignment");
  const setupStarted = Date.now();
  const timer = { username: "clock", password: "pw-clock" };
  const sim = await startSimulator({
    port: 0,
    minIntervalMs: INTERVAL_MS,
    control: true,
    drift: false,
    users: [...authors.map((a) => ({ username: a.username, password: a.password })), timer],
  });
  const fake = await startFakeSlack({ port: 0, teams: teams.map(fakeTeam) });
  const dataDir = mkdtempSync(join(tmpdir(), "fleetbot-bench-schedules-"));
  let bot: ScheduleBot | undefined;
  try {
    const callMs = await companyVehiclesAnswerMs(sim, timer.username, timer.password);
    const aligned = await startAlignedBot(sim, fake, dataDir, options.botNodeArgs ?? []);
    bot = aligned.bot;
    const started = bot;
    for (const team of teams) await install(fake, started, team);
    await perTeam(teams, (author) => linkOwnAccount(fake, started, author));
    const plates = sim.vehicles.map((v) => v.plate);
    await Promise.all(authors.map((a, i) => warm(fake, started, a, plates[i % plates.length]!)));
    const minute = Math.ceil((setupStarted + SETUP_MS) / MINUTE_MS) * MINUTE_MS;
    const authorOf = new Map<string, Author>();
    await perTeam(teams, async (author) => {
      for (const report of SCHEDULED_REPORTS)
        authorOf.set(
          await typeSchedule(fake, started, author, report, wallTime(minute, author.zone)),
          author,
        );
    });
    // The claiming tick comes TICK_AIM_MS before the minute: the schedules must all be stored by then.
    if (Date.now() > minute - TICK_AIM_MS - 2000)
      throw new Error(
        `the setup ran past the shared minute's tick (${Math.round((Date.now() - minute) / 1000)} s)`,
      );
    process.stderr.write(
      `row 13: setup ${Math.round((Date.now() - setupStarted) / 1000)} s (bot started ${aligned.attempts}× to align its ticks, ` +
        `phase ${aligned.phaseErrorMs} ms); ${authorOf.size} schedules at ${new Date(minute).toISOString()}\n`,
    );
    const before = reportCalls(sim, authors);
    const limitedInSetup = rateLimited(sim);
    const tickFrom = minute - TICK_AIM_MS - TICK_AIM_WINDOW_MS;
    await sleep(minute - Date.now());
    const busy = authors[0]!;
    const where = await whereAtTheMinute(fake, sim, started, busy, plates[1]!);
    const total = authorOf.size;
    try {
      await until(
        "every scheduled post",
        () => scheduledPosts(fake, teams).length >= total,
        (RUNS_PER_ACCOUNT * CALLS_PER_RUN + 30) * SLOT_MS + 30_000,
        100,
      );
    } catch (error) {
      if (!(error instanceof Timeout)) throw error;
    }
    const after = reportCalls(sim, authors);
    return {
      accounts: authors.length,
      schedules: total,
      minute,
      posts: scheduledPosts(fake, teams),
      authorOf,
      submitted: started.submitted,
      where,
      callMs,
      callsPerAccount: authors.map((a) => (after.get(a.username) ?? 0) - (before.get(a.username) ?? 0)),
      limited: rateLimited(sim) - limitedInSetup,
      limitedInSetup,
      orders: new Map(authors.map((a) => [a, callOrder(sim, a, tickFrom, minute)])),
      alignAttempts: aligned.attempts,
      phaseErrorMs: aligned.phaseErrorMs,
      botErrors: started.errors,
    };
  } finally {
    await bot?.stop();
    await fake.close();
    await sim.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Per account, its runs' lateness in slots, and when the tick submitted them: for the log. */
function logPerAccount(run: ScheduleRun, figures: readonly RunFigure[]): void {
  const lines: string[] = [];
  for (const author of new Set(figures.map((f) => f.author))) {
    const own = figures.filter((f) => f.author === author).sort((a, b) => a.ahead - b.ahead);
    const submits = [...run.authorOf]
      .filter(([, a]) => a === author)
      .map(([id]) => run.submitted.get(id))
      .filter((t): t is number => t !== undefined)
      .map((t) => t - run.minute);
    lines.push(
      `  ${author.username} (${author.zone}): submitted ${fmt(Math.min(...submits) / 1000)}…${fmt(Math.max(...submits) / 1000)} s, ` +
        `posts at ${own.map((f) => fmt(inSlots(f.latenessMs), 1)).join(", ")} slots after the minute\n` +
        `    report calls (run@slots after the minute, ! = 429): ${run.orders.get(author) ?? "—"}`,
    );
  }
  process.stderr.write(`row 13, per account:\n${lines.join("\n")}\n`);
  if (run.botErrors.length > 0) process.stderr.write(`row 13, bot errors: ${run.botErrors.join(" | ")}\n`);
}

/**
 * 13. Scheduled reports at one shared minute (issue 34): every post against its account's own
 * arithmetic, and an interactive `where` of a busy account at that minute.
 */
export async function schedulesAtOneMinute(options: RowOptions): Promise<RealtimeRow[]> {
  const accounts = teamCount(options) * ACCOUNTS_PER_TEAM;
  const row = `13. ${accounts * RUNS_PER_ACCOUNT} schedules at one minute across ${accounts} accounts (${RUNS_PER_ACCOUNT} runs of ${CALLS_PER_RUN} calls each), \`where\` at that minute`;
  let run: ScheduleRun;
  try {
    run = await measureSchedules(options);
  } catch (error) {
    const result = error instanceof Timeout ? "timeout" : `error: ${String(error)}`;
    return [{ row, figure: "—", goal: "—", result, naive: "—" }];
  }
  const figures = arithmetic(run.posts, run.minute);
  logPerAccount(run, figures);
  const lateness = figures.map((f) => inSlots(f.latenessMs));
  const naive = naiveLatenessSlots(run.accounts);
  const within = figures.filter((f) => f.latenessMs <= f.boundMs);
  const worst = Math.max(...figures.map((f) => f.latenessMs / f.boundMs));
  const gaps = postGaps(figures).map(inSlots);
  const submitted = [...run.submitted.values()].map((t) => (t - run.minute) / 1000);
  const callSlots = inSlots(run.callMs);
  const whereGoal = 1 + callSlots;
  const w = run.where;
  return [
    {
      row,
      figure: "posts in the channels (marked late) / runs the ticks submitted",
      goal: `${run.schedules} (0) / ${run.schedules}`,
      result: `${run.posts.length} (${run.posts.filter((p) => p.late).length}) / ${run.submitted.size}`,
      naive: "—",
    },
    {
      row: "",
      figure: "lateness, post − the minute: p50 / p95 / max (slots)",
      goal: "—",
      result: `${distribution(lateness)} (p50 ÷ naive p50 ${fmt(quantile(lateness, 0.5) / quantile(naive, 0.5))})`,
      naive: `${distribution(naive)} (cron at the minute, no lead)`,
    },
    {
      row: "",
      figure: `posts within (runs of the account ahead + 1) × ${CALLS_PER_RUN} slots + ${TOLERANCE_SLOTS}; worst lateness ÷ its bound`,
      goal: `${run.schedules}; ≤ 1`,
      result: `${within.length} / ${figures.length}; ${fmt(worst)}`,
      naive: "—",
    },
    {
      row: "",
      figure: `lateness beyond the runs ahead (− ahead × ${CALLS_PER_RUN} slots): p50 / p95 / max (slots)`,
      goal: `≤ ${CALLS_PER_RUN + TOLERANCE_SLOTS}`,
      result: distribution(figures.map((f) => inSlots(f.beyondMs))),
      naive: "—",
    },
    {
      row: "",
      figure: "runs spread: gap between an account's consecutive posts, p50 / min (slots)",
      goal: `≈ ${CALLS_PER_RUN} (one run's calls)`,
      result: `${fmt(median(gaps))} / ${fmt(Math.min(...gaps))}`,
      naive: String(CALLS_PER_RUN),
    },
    {
      row: "",
      figure: `runs submitted by the tick, first / last, relative to the minute (s; a run's lead ≈ ${fmt(((CALLS_PER_RUN - 1) * SLOT_MS) / 1000)} s + an answer)`,
      goal: "—",
      result: `${fmt(Math.min(...submitted))} / ${fmt(Math.max(...submitted))}`,
      naive: "0 (at the minute)",
    },
    {
      row: "",
      figure: `\`where\` of a busy account at the minute: command → answer (slots); its call's wait (slots)`,
      goal: `≤ 1 slot + one company-vehicles answer (${fmt(whereGoal)}); ≤ 1`,
      result: `${w.answerMs === undefined ? "timeout" : `${fmt(inSlots(w.answerMs))} (÷ goal ${fmt(inSlots(w.answerMs) / whereGoal)})`}; ${w.waitMs === undefined ? "—" : fmt(inSlots(w.waitMs))}`,
      naive: `${w.naiveSlots} (calls queued ahead)`,
    },
    {
      row: "",
      figure: "report calls per account from the minute's tick on: min / max",
      goal: `${RUNS_PER_ACCOUNT * CALLS_PER_RUN}`,
      result: `${Math.min(...run.callsPerAccount)} / ${Math.max(...run.callsPerAccount)}`,
      naive: "—",
    },
    {
      row: "",
      figure: "429s from the minute's tick on / during the setup (links, warm-ups)",
      goal: "0 / 0",
      result: `${run.limited} / ${run.limitedInSetup}`,
      naive: "—",
    },
  ];
}

export const SCHEDULES_READING = `- 13: \`--rows=schedules\` (bench/realtime/schedules.ts, issue 34). The built bot in multi-workspace mode
  (a workspace keeps at most ${MAX_SCHEDULES_PER_WORKSPACE} schedules): ${SCHEDULE_TEAMS} workspaces installed through its "Add to
  Slack" endpoints, ${ACCOUNTS_PER_TEAM} users each, every user linked to a fleet account of their own (\`/fleet login\` and its
  form; the simulator has one user per account) and warmed with a \`where\` (token, vehicle list). Each
  types ${RUNS_PER_ACCOUNT} \`/fleet schedule <report> every day at HH:MM\` in the workspace's channel (stops for all with
  min=5, 10, 20, fuel for all yesterday and last 2d: ${CALLS_PER_RUN} calls each). There is no fake clock in the built
  bot, so "07:30" is the first whole minute at least ${SETUP_MS / 1000} s after the setup starts, typed as each author's
  own HH:MM (zones Bucharest, London, New York: one instant). The bot ticks every ${SCHEDULE_TICK_MS / 1000} s from its
  start and claims a run once within its lead; with 30 s slots the tick's phase costs under a slot,
  with these 1 s slots up to 19, so the bot is started (again if need be) until its ticks fall
  ${fmt(TICK_AIM_MS / 1000, 1)} ± ${fmt(TICK_AIM_WINDOW_MS / 1000, 2)} s before a whole minute, inside every run's lead. Lateness is the post's
  chat.postMessage (the fake's record) − the minute; "runs ahead" is how many of the account's own
  posts landed before it; the bound is (ahead + 1) × ${CALLS_PER_RUN} slots + ${TOLERANCE_SLOTS} slot (the tick, the claims, the post).
  The naive column is a cron starting every run at the minute with the same spacing (run k of an
  account posts after (k + 1) × ${CALLS_PER_RUN} − 1 slots). At the minute one author sends \`/fleet where\` (a fresh
  position needs one company-vehicles call); its goal is one slot plus that call's answer time,
  timed as another user before the bot starts; "its call's wait" is command → the call's arrival
  at the simulator. Quick mode: half the workspaces.`;
