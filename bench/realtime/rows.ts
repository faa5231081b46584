/**
 * The rows of issue 12's table, measured on the built bot in real time (1 s interval, 50 ms
 * margin). Each row starts its own simulator, fake Slack and bot, is bounded in time, and
 * reports "timeout" instead of hanging when the bot does not answer in its bound.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { OTHER_ALERT_CODES, TRANSMISSION_ALERT_CODES, VEHICLE_CODES } from "../../src/commands/types.js";
import { openDatabase } from "../../src/platform/store/database.js";
import { SqliteTaskStore } from "../../src/platform/store/taskStore.js";
import {
  ALERTS_CHANNEL,
  accountRequests,
  answerTo,
  bodyText,
  CHANNEL,
  command,
  type Environment,
  median,
  quantile,
  type RunningBot,
  SLOT_MS,
  sleep,
  startEnvironment,
  Timeout,
  USER,
  until,
  upstreamCalls,
} from "./harness.js";
import type { LoadOutput } from "./loadClient.js";

export interface RealtimeRow {
  row: string;
  figure: string;
  goal: string;
  result: string;
  naive: string;
}

export interface RowOptions {
  quick: boolean;
  /** Node flags for the bot processes (profiling); none by default. */
  botNodeArgs?: readonly string[];
}

const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");
const slots = (ms: number) => fmt(ms / SLOT_MS);
const USERS = [USER, "U0NEWYORK", "U0VIEWER"];

/** Runs `body` in a fresh environment; a Timeout becomes "timeout" in every figure it owns. */
async function withEnvironment<T>(
  options: RowOptions,
  sim: Parameters<typeof startEnvironment>[0],
  body: (env: Environment) => Promise<T>,
): Promise<T> {
  const env = await startEnvironment(sim, { botNodeArgs: options.botNodeArgs });
  try {
    return await body(env);
  } finally {
    await env.close();
  }
}

const outcome = (error: unknown) => (error instanceof Timeout ? "timeout" : `error: ${String(error)}`);

/** A `where` through Slack, waited for: logs in and loads the vehicle list. */
async function warm(env: Environment, bot: RunningBot): Promise<void> {
  const sent = await command(bot, `where ${env.sim.vehicles[0]!.plate}`);
  await until("warm-up answer", () => answerTo(env.fake, sent.responseUrl), 30_000);
  await sleep(SLOT_MS);
}

function rateLimited(env: Environment): number {
  return Object.values(env.sim.control.stats().rateLimited).reduce((a, b) => a + b, 0);
}

// ---------------------------------------------------------------------------- row 1

/** 1. `where` after N three-call reports (stops for all 28 vehicles) are queued on one account. */
export async function whereBehindReports(options: RowOptions): Promise<RealtimeRow[]> {
  const reports = options.quick ? 10 : 30;
  return withEnvironment(options, {}, async (env) => {
    const bot = await env.startBot();
    await warm(env, bot);
    for (let i = 0; i < reports; i++) await command(bot, `stops all yesterday min=${5 + i}`);
    const callsBefore = upstreamCalls(env.sim, "stops");
    const where = await command(bot, `where ${env.sim.vehicles[1]!.plate}`);
    // FIFO with the same spacing: every report call not yet sent goes first.
    const naiveSlots = reports * 3 - callsBefore + 1;
    let result: string;
    try {
      const answer = await until(
        "where",
        () => answerTo(env.fake, where.responseUrl),
        (reports * 3 + 20) * SLOT_MS,
      );
      result = slots(answer.at - where.sentAt);
    } catch (error) {
      result = outcome(error);
    }
    const limited = rateLimited(env);
    return [
      {
        row: `1. \`where\` after ${reports} three-call reports are queued (one account)`,
        figure: "command → answer (slots)",
        goal: "≤ 1",
        result,
        naive: `${naiveSlots} (calls queued ahead)`,
      },
      {
        row: "",
        figure: "429s received during the row",
        goal: "0",
        result: String(limited),
        naive: "—",
      },
    ];
  });
}

// ---------------------------------------------------------------------------- rows 2, 3

const SWEEP_EVERY_S = 20;
const SWEEP_STATUSES = new Set([1, 2, 6]);

interface AlertCase {
  transportCount: number;
  /** Text of a report to queue just before the poll, or none (idle account). */
  report?: (env: Environment) => string;
}

interface AlertMeasure {
  pages: number;
  page: number;
  latencyMs: number | undefined;
  pagesBeforePost: number;
}

/**
 * Breaks one transport (on the sweep's first page) a second before a cron tick, and
 * measures from that tick to the alert's chat.postMessage.
 */
async function alertLatency(rowOptions: RowOptions, options: AlertCase): Promise<AlertMeasure> {
  return withEnvironment(rowOptions, { transportCount: options.transportCount }, async (env) => {
    const swept = env.sim.control
      .transports()
      .filter((t) => SWEEP_STATUSES.has(t.statusId))
      .sort((a, b) => b.createdAt - a.createdAt || a.codeUit.localeCompare(b.codeUit));
    const pages = Math.max(1, Math.ceil(swept.length / 100));
    const index = swept.findIndex(
      (t) => t.statusId === 2 && env.sim.control.transmission(t.codeUit)?.code === "Active",
    );
    const target = swept[index];
    if (!target) throw new Error("no In Progress transport with an active transmission");
    const bot = await env.startBot({
      env: { ALERTS_CRON: `*/${SWEEP_EVERY_S} * * * * *`, ALERTS_CHANNEL },
    });
    await warm(env, bot);
    // The first sweep (startup incidents of the demo set) must be over before the measured one.
    await until(
      "first sweep",
      () => upstreamCalls(env.sim, "load-transports") >= pages,
      60_000 + pages * 2000,
    );
    await sleep(3 * SLOT_MS);
    const period = SWEEP_EVERY_S * 1000;
    let tick = Math.ceil(Date.now() / period) * period;
    if (tick - Date.now() < 5000) tick += period;
    if (options.report) {
      await sleep(tick - 3000 - Date.now());
      await command(bot, options.report(env));
    }
    await sleep(tick - 1000 - Date.now());
    env.sim.control.setTransport(target.codeUit, { transmissionStatusCode: "NoGPSCoordinates" });
    const broken = Date.now();
    const bound = options.report ? 40 * SLOT_MS : (pages + 10) * SLOT_MS;
    let latencyMs: number | undefined;
    try {
      const post = await until(
        "alert post",
        () =>
          env.fake.calls.find(
            (c) =>
              c.method === "chat.postMessage" &&
              c.at > broken &&
              c.args.channel === ALERTS_CHANNEL &&
              JSON.stringify(c.args).includes(target.codeUit),
          ),
        tick - Date.now() + bound,
      );
      latencyMs = post.at - tick;
    } catch (error) {
      if (!(error instanceof Timeout)) throw error;
    }
    const end = latencyMs === undefined ? Date.now() : tick + latencyMs;
    const pagesBeforePost = accountRequests(env.sim).filter(
      (r) => r.endpoint === "load-transports" && r.atMs >= tick && r.atMs <= end,
    ).length;
    return { pages, page: Math.floor(index / 100) + 1, latencyMs, pagesBeforePost };
  });
}

export async function alertDuringReport(rowOptions: RowOptions): Promise<RealtimeRow[]> {
  // 20 vehicles × 300 days of fuel: 2 vehicle groups × 10 periods of 31 days = 20 calls.
  const m = await alertLatency(rowOptions, {
    transportCount: 0,
    report: (env) =>
      `fuel ${env.sim.vehicles
        .slice(0, 20)
        .map((v) => v.plate)
        .join(", ")} last 300d`,
  });
  return [
    {
      row: "2. alert after a transmission breaks, during one 20-call report",
      figure: "cron tick → alert post (slots)",
      goal: "≤ 1 after the poll",
      result: m.latencyMs === undefined ? "timeout" : slots(m.latencyMs),
      naive: "—",
    },
  ];
}

export async function alertFourPages(rowOptions: RowOptions): Promise<RealtimeRow[]> {
  // 12 demo transports plus generated ones; the sweep reads Pending, In Progress and Paused.
  const m = await alertLatency(rowOptions, { transportCount: 520 });
  return [
    {
      row: `3. alert latency, ${m.pages} pages of transports, idle account (broken one on page ${m.page})`,
      figure: "cron tick → alert post (slots)",
      goal: "posted once its page is read (≈ 1)",
      result: m.latencyMs === undefined ? "timeout" : slots(m.latencyMs),
      naive: "—",
    },
    {
      row: "",
      figure: "pages read before the post",
      goal: String(m.page),
      result: String(m.pagesBeforePost),
      naive: "—",
    },
  ];
}

// ---------------------------------------------------------------------------- row 4

/** 4. Spacing of the bot's calls before a forced 429, after it, after 10 clean calls, after a second. */
export async function marginAfter429(options: RowOptions): Promise<RealtimeRow[]> {
  return withEnvironment(options, {}, async (env) => {
    const bot = await env.startBot();
    await warm(env, bot);
    // All 28 vehicles × 366 days of fuel: 3 vehicle groups × 12 periods = 36 calls.
    const report = await command(bot, "fuel all last 366d");
    const consumption = () => upstreamCalls(env.sim, "consumption");
    const fault = { kind: "rateLimit" as const, count: 1, retryAfterSeconds: 1, endpoint: "consumption" };
    let result: RealtimeRow[];
    try {
      // 12 calls first: a margin the warm-up may have widened is back to normal by then.
      await until("12 report calls", () => consumption() >= 12, 40 * SLOT_MS);
      env.sim.control.addFault(fault);
      const limitedAt = () =>
        accountRequests(env.sim)
          .filter((r) => r.endpoint === "consumption")
          .findIndex((r) => r.status === 429);
      await until("the first 429", () => limitedAt() >= 0, 10 * SLOT_MS);
      // The retry and 11 clean calls after it, then the second 429.
      await until("12 calls after the 429", () => consumption() >= limitedAt() + 13, 40 * SLOT_MS);
      env.sim.control.addFault(fault);
      await until("answer", () => answerTo(env.fake, report.responseUrl), 50 * SLOT_MS);
      const calls = accountRequests(env.sim).filter((r) => r.endpoint === "consumption");
      const limited = calls.flatMap((c, i) => (c.status === 429 ? [i] : []));
      const gap = (i: number) =>
        i > 0 && i < calls.length ? calls[i]!.atMs - calls[i - 1]!.atMs : Number.NaN;
      const first = limited[0] ?? calls.length;
      const second = limited[1] ?? calls.length;
      // The three gaps just before the forced 429.
      const before = median([gap(first - 2), gap(first - 1), gap(first)]);
      // calls[first+1] is the retry; the gaps after it are the new slot length.
      const afterOne = median([gap(first + 2), gap(first + 3), gap(first + 4)]);
      // The retry is the first clean call: the gap after the tenth clean call.
      const afterTen = gap(first + 11);
      const afterTwo = median([gap(second + 2), gap(second + 3)]);
      result = [
        {
          row: "4. slot length around a forced 429",
          figure: "before (ms)",
          goal: `${SLOT_MS}`,
          result: fmt(before, 0),
          naive: "—",
        },
        { row: "", figure: "after one 429 (ms)", goal: "—", result: fmt(afterOne, 0), naive: "—" },
        {
          row: "",
          figure: "after 10 clean calls (ms)",
          goal: `${SLOT_MS}`,
          result: fmt(afterTen, 0),
          naive: "—",
        },
        { row: "", figure: "after a second 429 (ms)", goal: "—", result: fmt(afterTwo, 0), naive: "—" },
        {
          row: "",
          // The simulator's stats count its own spacing refusals, not the forced faults.
          figure: "429s not forced (the bot's own)",
          goal: "0",
          result: String(rateLimited(env)),
          naive: "—",
        },
      ];
    } catch (error) {
      result = [
        {
          row: "4. slot length around a forced 429",
          figure: "—",
          goal: "—",
          result: outcome(error),
          naive: "—",
        },
      ];
    }
    return result;
  });
}

// ---------------------------------------------------------------------------- row 10

/** Token lifetime the simulator gives in row 10: renewed every 10 s (half of it), six times a minute. */
const RENEWAL_TOKEN_S = 20;

/** How long one login takes to answer here: timed as another user, so the bot's account is untouched. */
async function loginAnswerMs(env: Environment): Promise<number> {
  const started = performance.now();
  const answer = await fetch(`${env.sim.url}/api/authentication/login?api-version=2.0`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: "viewer", password: "viewer" }).toString(),
  });
  await answer.text();
  if (!answer.ok) throw new Error(`timing login answered ${answer.status}`);
  return performance.now() - started;
}

/**
 * 10. A busy account whose token comes due again and again (20 s tokens): the largest gap between
 * two of its requests over three token lifetimes, against one slot plus one login's answer time.
 */
export async function renewalUnderLoad(options: RowOptions): Promise<RealtimeRow[]> {
  const reports = options.quick ? 20 : 30;
  const windowMs = 3 * RENEWAL_TOKEN_S * 1000;
  // A token is due half its lifetime after its login; the renewal takes the first slot after that.
  const renewalEveryMs = Math.ceil((RENEWAL_TOKEN_S * 1000) / 2 / SLOT_MS) * SLOT_MS;
  const row = `10. a busy account's token renewed under load (${RENEWAL_TOKEN_S} s tokens, ${reports} three-call reports queued)`;
  return withEnvironment(options, { tokenTtlSeconds: RENEWAL_TOKEN_S }, async (env) => {
    const loginMs = await loginAnswerMs(env);
    const goalMs = SLOT_MS + loginMs;
    const bot = await env.startBot();
    try {
      await warm(env, bot);
      for (let i = 0; i < reports; i++) await command(bot, `stops all yesterday min=${5 + i}`);
      const firstQueued = await until(
        "the first report call",
        () => accountRequests(env.sim).find((r) => r.endpoint === "stops"),
        10 * SLOT_MS,
      );
      const windowEnd = firstQueued.atMs + windowMs;
      // The window and the request after it, which closes its last gap.
      await until(
        "three token lifetimes of requests",
        () => accountRequests(env.sim).some((r) => r.atMs > windowEnd),
        windowMs + 20 * SLOT_MS,
        250,
      );
      const requests = accountRequests(env.sim).filter(
        (r) => r.endpoint !== null && r.atMs >= firstQueued.atMs,
      );
      const closing = requests.findIndex((r) => r.atMs > windowEnd);
      const inWindow = requests.slice(0, closing + 1);
      const gaps = inWindow.slice(1).map((r, i) => r.atMs - inWindow[i]!.atMs);
      const largest = Math.max(...gaps);
      const logins = inWindow.filter((r) => r.endpoint === "login").length;
      const refused = inWindow.filter((r) => r.status === 401 || r.status === 429).length;
      return [
        {
          row,
          figure: `largest gap between two requests of the account over ${windowMs / 1000} s (ms; ÷ goal)`,
          goal: `≤ slot + one login's answer (${SLOT_MS} + ${fmt(loginMs, 0)})`,
          result: `${largest} (${fmt(largest / goalMs)})`,
          naive: "—",
        },
        {
          row: "",
          figure: `logins in those ${windowMs / 1000} s / requests refused (401, 429)`,
          goal: `${Math.floor(windowMs / renewalEveryMs)}–${Math.ceil(windowMs / renewalEveryMs)} (one per renewal) / 0`,
          result: `${logins} / ${refused}`,
          naive: "—",
        },
      ];
    } catch (error) {
      return [{ row, figure: "—", goal: "—", result: outcome(error), naive: "—" }];
    }
  });
}

// ---------------------------------------------------------------------------- row 5

/** The form Slack posts for a slash command (fields as SlackDriver.slashCommand sends them). */
function slashForm(env: Environment, text: string, user: string): { form: string; responseUrl: string } {
  const o = env.fake.options;
  const responseUrl = env.fake.issueResponseUrl(CHANNEL, user);
  const form = new URLSearchParams({
    token: o.verificationToken,
    team_id: o.teamId,
    team_domain: o.teamDomain,
    channel_id: CHANNEL,
    channel_name: "general",
    user_id: user,
    user_name: env.fake.workspace.users.get(user)?.name ?? user,
    command: "/fleet",
    text,
    api_app_id: o.appId,
    is_enterprise_install: "false",
    response_url: responseUrl,
    trigger_id: env.fake.issueTriggerId(user),
  }).toString();
  return { form, responseUrl };
}

function runLoadClient(input: object): Promise<LoadOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "loadClient.ts")], {
      stdio: ["pipe", "pipe", "pipe"],
    });
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

/** One burst of `concurrent` `/fleet where` sent at once by the load client, its answers waited for. */
interface Burst {
  load: LoadOutput;
  /** The bot's CPU from the first request to the last answer, per command (NaN: answers timed out). */
  cpuPerCommand: number;
}

async function whereBurst(
  env: Environment,
  bot: RunningBot,
  concurrent: number,
  language: AckLanguage = "en",
): Promise<Burst> {
  const word = language === "ro" ? "unde" : "where";
  const commands = Array.from({ length: concurrent }, (_, i) =>
    slashForm(env, `${word} ${env.sim.vehicles[i % env.sim.vehicles.length]!.plate}`, USERS[i % 3]!),
  );
  const cpuBefore = bot.cpuMs();
  const load = await runLoadClient({
    botUrl: `${bot.url}/slack/events`,
    signingSecret: env.fake.options.signingSecret,
    forms: commands.map((c) => c.form),
    timeoutMs: 30_000,
    botPid: bot.pid,
  });
  // The bot's own work for the burst, acks and answers, whatever else the machine is doing.
  let cpuPerCommand = Number.NaN;
  try {
    await until(
      "answers",
      () => commands.every((c) => answerTo(env.fake, c.responseUrl)),
      concurrent * SLOT_MS + 30_000,
    );
    cpuPerCommand = (bot.cpuMs() - cpuBefore) / concurrent;
  } catch (error) {
    if (!(error instanceof Timeout)) throw error;
  }
  return { load, cpuPerCommand };
}

/** The language of row 5's users: English (no choice stored), or Romanian chosen with `/fleet limba ro`. */
type AckLanguage = "en" | "ro";

/** Row 5 for users who chose Romanian: the ack reads their setting and answers in Romanian. */
export const ackLatencyRomanian = (options: RowOptions) => ackLatency(options, "ro");

/** Commands a bot in service has answered before its bursts are measured (V8 has compiled its hot paths by then). */
export const IN_SERVICE_AFTER = 200;
/** Measured bursts per concurrency: the median one is reported, and the worst p99. */
export const MEASURED_BURSTS = 3;

/**
 * 5. Ack time of concurrent commands, two ways: the first burst a bot takes right after its start
 * (its code still interpreted: V8 compiles what runs often), and a bot in service, after it has
 * answered IN_SERVICE_AFTER commands, over MEASURED_BURSTS bursts (this machine is shared: one
 * burst's p99 moves by half from run to run). The goals are the bot in service's.
 */
export async function ackLatency(options: RowOptions, language: AckLanguage = "en"): Promise<RealtimeRow[]> {
  const rows: RealtimeRow[] = [];
  for (const concurrent of options.quick ? [50] : [50, 200]) {
    const { first, inService } = await withEnvironment(options, {}, async (env) => {
      const bot = await env.startBot();
      await warm(env, bot);
      // Romanian: each user chose it as a dispatcher would, so every ack reads the user's setting.
      if (language === "ro") for (const user of USERS) await command(bot, "limba ro", user);
      const first = await whereBurst(env, bot, concurrent, language);
      for (let answered = concurrent + 1; answered < IN_SERVICE_AFTER; answered += 50)
        await whereBurst(env, bot, 50, language);
      const inService: Burst[] = [];
      for (let i = 0; i < (options.quick ? 1 : MEASURED_BURSTS); i++)
        inService.push(await whereBurst(env, bot, concurrent, language));
      return { first, inService };
    });
    const p99s = inService.map((b) => quantile(b.load.ackMs, 0.99));
    const all = [first, ...inService];
    const late = all.reduce((n, b) => n + b.load.ackMs.filter((ms) => ms > 3000).length, 0);
    const failed = all.reduce((n, b) => n + b.load.failed, 0);
    const errors = new Map<string, number>();
    for (const b of all)
      for (const [error, n] of Object.entries(b.load.errors)) errors.set(error, (errors.get(error) ?? 0) + n);
    const why = [...errors].map(([error, n]) => `${n} × ${error}`).join("; ");
    const ackCpu = inService
      .map((b) => b.load.botCpuMs)
      .filter((ms): ms is number => ms !== undefined)
      .map((ms) => ms / concurrent);
    const answerCpu = inService.map((b) => b.cpuPerCommand).filter(Number.isFinite);
    rows.push(
      {
        row:
          rows.length > 0
            ? ""
            : language === "ro"
              ? "5 (ro). the same, `/fleet unde` from users who chose Romanian (`/fleet limba ro`)"
              : "5. ack time, concurrent `/fleet where` (client in its own process)",
        figure: `${concurrent} at once, bot in service: p50 / p99 (ms), median of ${inService.length} bursts (worst p99)`,
        goal: concurrent <= 50 ? "p99 < 100" : "p99 < 500",
        result: `${fmt(median(inService.map((b) => quantile(b.load.ackMs, 0.5))), 0)} / ${fmt(median(p99s), 0)} (${fmt(Math.max(...p99s), 0)})`,
        naive: "—",
      },
      {
        row: "",
        figure: `${concurrent} at once, the first burst after the bot's start: p50 / p99 (ms)`,
        goal: "—",
        result: `${fmt(quantile(first.load.ackMs, 0.5), 0)} / ${fmt(quantile(first.load.ackMs, 0.99), 0)}`,
        naive: "—",
      },
      {
        row: "",
        figure: `${concurrent} at once: over Slack's 3 s, or failed (all ${all.length} bursts)`,
        goal: "0",
        result: `${late}, ${failed}${why ? ` (${why})` : ""}`,
        naive: "—",
      },
      {
        row: "",
        figure: `${concurrent} at once, in service: bot CPU per ack, first request sent to last ack read (ms)`,
        goal: "—",
        result: ackCpu.length > 0 ? fmt(median(ackCpu), 2) : "—",
        naive: "—",
      },
      {
        row: "",
        figure: `${concurrent} at once, in service: bot CPU per command, ack and answer (ms)`,
        goal: "—",
        result: answerCpu.length > 0 ? fmt(median(answerCpu), 1) : "timeout",
        naive: "—",
      },
    );
  }
  return rows;
}

// ---------------------------------------------------------------------------- row 6

/** Sends `count` distinct one-call reports (so none is merged with another), 8 at a time. */
async function queueReports(env: Environment, bot: RunningBot, count: number): Promise<void> {
  const plates = env.sim.vehicles.map((v) => v.plate);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      await command(
        bot,
        `stops ${plates[i % plates.length]} yesterday min=${1 + Math.floor(i / plates.length)}`,
      );
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

export async function memory(options: RowOptions): Promise<RealtimeRow[]> {
  const queued = options.quick ? 300 : 1000;
  const plain = await withEnvironment(options, {}, async (env) => {
    const bot = await env.startBot();
    await warm(env, bot);
    const idle = bot.rssMb();
    await queueReports(env, bot, queued);
    await sleep(2000);
    return { idle, queued: bot.rssMb() };
  });
  const chart = await withEnvironment(options, {}, async (env) => {
    const bot = await env.startBot();
    await warm(env, bot);
    const idle = bot.rssMb();
    const reefer = env.sim.vehicles.find((v) => v.reefer)!;
    const files = env.fake.files.length;
    const temps = await command(bot, `temps ${reefer.plate} yesterday`);
    let afterChart = Number.NaN;
    try {
      await until(
        "chart",
        () => answerTo(env.fake, temps.responseUrl) && env.fake.files.length > files,
        60_000,
      );
      await sleep(2000);
      afterChart = bot.rssMb();
    } catch (error) {
      if (!(error instanceof Timeout)) throw error;
    }
    await queueReports(env, bot, queued);
    await sleep(2000);
    return { idle, afterChart, queued: bot.rssMb() };
  });
  return [
    {
      row: `6. RSS of the bot process (${queued.toLocaleString("en")} queued tasks)`,
      figure: "idle, after warm-up (MB)",
      goal: "—",
      result: fmt(plain.idle, 0),
      naive: "—",
    },
    {
      row: "",
      figure: `with ${queued.toLocaleString("en")} queued (MB)`,
      goal: "< 150",
      result: fmt(plain.queued, 0),
      naive: "—",
    },
    {
      row: "",
      figure: "after one temperature chart (MB)",
      goal: "back near idle",
      result: `${fmt(chart.afterChart, 0)} (idle ${fmt(chart.idle, 0)})`,
      naive: "—",
    },
    {
      row: "",
      figure: `chart, then ${queued.toLocaleString("en")} queued (MB)`,
      goal: "< 150",
      result: fmt(chart.queued, 0),
      naive: "—",
    },
  ];
}

// ---------------------------------------------------------------------------- row 7

/** 20,000 tasks written straight into a fresh store (SqliteTaskStore.create), as a backlog left by a stop. */
function seedStore(count: number): string {
  const dir = mkdtempSync(join(tmpdir(), "fleetbot-bench-"));
  const db = openDatabase(dir);
  const store = new SqliteTaskStore(db);
  const day = 24 * 3_600_000;
  const to = Math.floor(Date.now() / day) * day;
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      store.create({
        kind: "vehicle-report",
        params: {
          report: "stops",
          refs: [{ type: "all", raw: "all", normalised: "ALL" }],
          period: { fromMs: to - day, toMs: to, label: "yesterday" },
          minMinutes: 1 + (i % 60),
          timeZone: "Europe/Bucharest",
        },
        account: "demo",
        slackUser: USER,
        reply: { channel: CHANNEL },
        priority: "report",
      });
    }
  })();
  db.close();
  return dir;
}

async function healthzMs(bot: RunningBot): Promise<{ ms: number; ok: boolean }> {
  const started = performance.now();
  const res = await fetch(`${bot.url}/healthz`, { signal: AbortSignal.timeout(60_000) });
  await res.arrayBuffer();
  return { ms: performance.now() - started, ok: res.ok };
}

export async function bigQueue(options: RowOptions): Promise<RealtimeRow[]> {
  const count = options.quick ? 2000 : 20_000;
  const dir = seedStore(count);
  return withEnvironment(options, {}, async (env) => {
    const empty = await env.startBot();
    const emptyStart = empty.startMs;
    await empty.stop();
    const first = await env.startBot({ dataDir: dir, startTimeoutMs: 120_000 });
    const queue = await command(first, "queue");
    const health = await healthzMs(first);
    await first.stop();
    const started = performance.now();
    const again = await env.startBot({ dataDir: dir, startTimeoutMs: 120_000 });
    const listening = again.startMs;
    let healthOk = Number.NaN;
    for (;;) {
      const h = await healthzMs(again);
      if (h.ok) {
        healthOk = performance.now() - started;
        break;
      }
      if (performance.now() - started > 120_000) break;
      await sleep(50);
    }
    const n = count.toLocaleString("en");
    return [
      {
        row: `7. ${n} queued tasks (written into the SQLite store before the start)`,
        figure: "`/fleet queue` ack (ms)",
        goal: "< 200",
        result: `${fmt(queue.result.elapsedMs, 0)}${queue.result.elapsedMs > 3000 ? " (Slack gives up at 3 s)" : ""}`,
        naive: "—",
      },
      { row: "", figure: "/healthz answer (ms)", goal: "—", result: fmt(health.ms, 0), naive: "—" },
      {
        row: "",
        figure: "restart: spawn → listening, queue resumed (ms)",
        goal: "< 2000",
        result: `${fmt(listening, 0)} (empty store: ${fmt(emptyStart, 0)})`,
        naive: "—",
      },
      {
        row: "",
        figure: "restart: spawn → /healthz ok (ms)",
        goal: "< 2000",
        result: fmt(healthOk, 0),
        naive: "—",
      },
    ];
  });
}

// ---------------------------------------------------------------------------- row 8

export async function fortyDayStops(options: RowOptions): Promise<RealtimeRow[]> {
  const repeats = options.quick ? 4 : 10;
  return withEnvironment(options, {}, async (env) => {
    const plates = env.sim.vehicles.slice(0, 25).map((v) => v.plate);
    const text = `stops ${plates.join(", ")} last 40d`;
    const bot = await env.startBot();
    await warm(env, bot);
    let single: string;
    let repeated: string;
    const before = upstreamCalls(env.sim, "stops");
    try {
      const one = await command(bot, text);
      await until("one report", () => answerTo(env.fake, one.responseUrl), 60 * SLOT_MS + 30_000);
      single = String(upstreamCalls(env.sim, "stops") - before);
    } catch (error) {
      single = outcome(error);
    }
    await sleep(2 * SLOT_MS);
    // The same report again two slots later: answered from the first one's answers.
    let again: string;
    try {
      const before = upstreamCalls(env.sim, "stops");
      const one = await command(bot, text);
      await until("the same report again", () => answerTo(env.fake, one.responseUrl), 60 * SLOT_MS + 30_000);
      again = String(upstreamCalls(env.sim, "stops") - before);
    } catch (error) {
      again = outcome(error);
    }
    // The burst starts in the next minute, so its period ends at a new minute and the reports
    // above cannot answer it: the figure counts what the burst itself costs.
    await sleep(60_000 - (Date.now() % 60_000) + 200);
    const start = upstreamCalls(env.sim, "stops");
    try {
      const sent: Awaited<ReturnType<typeof command>>[] = [];
      for (let i = 0; i < repeats; i++) {
        sent.push(await command(bot, text));
        await sleep(1000);
      }
      await until(
        "all reports",
        () => sent.every((s) => answerTo(env.fake, s.responseUrl)),
        repeats * 8 * SLOT_MS + 60_000,
      );
      repeated = String(upstreamCalls(env.sim, "stops") - start);
    } catch (error) {
      repeated = `${outcome(error)} (${upstreamCalls(env.sim, "stops") - start} so far)`;
    }
    return [
      {
        row: "8. `stops <25 vehicles> last 40d` (service accepts any period)",
        figure: "upstream calls, one report",
        goal: "3",
        result: single,
        naive: "—",
      },
      {
        row: "",
        figure: "upstream calls, the same report 2 slots later",
        goal: "0",
        result: again,
        naive: "—",
      },
      {
        row: "",
        figure: `upstream calls, ${repeats} identical sent 1 s apart (in a later minute)`,
        goal: repeats === 10 ? "≤ 6" : "—",
        result: repeated,
        naive: "—",
      },
    ];
  });
}

// ---------------------------------------------------------------------------- row 9

/** The estimate in an ack text ("about 12 s", "about 3 min", "1 h 5 min"), in ms. */
export function estimateMs(text: string): number | undefined {
  if (/\bunder a second\b/.test(text)) return UNDER_A_SECOND;
  const about = /about (?:(\d+) h )?(\d+) (s|min)\b/.exec(text);
  if (!about) return undefined;
  const hours = Number(about[1] ?? 0);
  const value = Number(about[2]);
  return hours * 3_600_000 + value * (about[3] === "s" ? 1000 : 60_000);
}

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The task id an ack's progress message carries (its Cancel button's value). */
export function ackTaskId(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null || !("blocks" in body) || !Array.isArray(body.blocks))
    return undefined;
  for (const block of body.blocks as unknown[]) {
    if (typeof block !== "object" || block === null || !("accessory" in block)) continue;
    const button = block.accessory;
    if (
      typeof button === "object" &&
      button !== null &&
      "value" in button &&
      typeof button.value === "string"
    )
      return button.value;
  }
  return undefined;
}

/** One "task estimate" debug line of the bot (what the runner's estimate rests on). */
export interface EstimateLine {
  at: number;
  taskId: string;
  position: number;
  done: number;
  total: number;
  interleaved: number;
  answerMs: number;
  etaMs: number;
}

/** Reads the bot's JSON log lines for its estimates (LOG_LEVEL=debug). */
export function estimateLine(line: string): EstimateLine | undefined {
  if (!line.includes('"task estimate"')) return undefined;
  try {
    const parsed: unknown = JSON.parse(line);
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const r = parsed as Record<string, unknown>;
    const num = (key: string) => (typeof r[key] === "number" ? (r[key] as number) : Number.NaN);
    if (typeof r.taskId !== "string") return undefined;
    return {
      at: num("time"),
      taskId: r.taskId,
      position: num("position"),
      done: num("done"),
      total: num("total"),
      interleaved: num("interleaved"),
      answerMs: num("answerMs"),
      etaMs: num("etaMs"),
    };
  } catch {
    return undefined;
  }
}

/** What estimateMs gives for "under a second": a bound, not a figure (see row 9). */
export const UNDER_A_SECOND = -1;

/** Rounded as the ack words it ("about 3 s", minutes from 60 s on), for matching a log line to the ack. */
function wordedMs(ms: number): number {
  if (ms < 1000) return UNDER_A_SECOND;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return seconds * 1000;
  return Math.round(seconds / 60) * 60_000;
}

export async function estimateAccuracy(options: RowOptions): Promise<RealtimeRow[]> {
  const durationMs = options.quick ? 45_000 : Number(process.env.ROW9_MS ?? 150_000);
  return withEnvironment(options, {}, async (env) => {
    // Debug: the runner logs what each estimate rests on ("task estimate"), read here per command.
    const bot = await env.startBot({ env: { LOG_LEVEL: "debug" } });
    const estimates = new Map<string, EstimateLine[]>();
    const callsAnswered: Array<{ at: number; endpoint: string; ms: number }> = [];
    createInterface({ input: bot.child.stdout! }).on("line", (line) => {
      const e = estimateLine(line);
      if (e) {
        const list = estimates.get(e.taskId) ?? [];
        list.push(e);
        estimates.set(e.taskId, list);
      } else if (line.includes('"fleet call answered"')) {
        const r = JSON.parse(line) as { time: number; endpoint: string; ms: number };
        callsAnswered.push({ at: r.time, endpoint: r.endpoint, ms: r.ms });
      }
    });
    await warm(env, bot);
    const rand = random(20261122);
    const plates = env.sim.vehicles.map((v) => v.plate);
    const pick = () => plates[Math.floor(rand() * plates.length)]!;
    const sent: Awaited<ReturnType<typeof command>>[] = [];
    const t0 = Date.now();
    let at = t0;
    while (at < t0 + durationMs) {
      await sleep(at - Date.now());
      const r = rand();
      const user = USERS[Math.floor(rand() * 3)]!;
      const text =
        r < 0.55
          ? `where ${pick()}`
          : r < 0.8
            ? `stops ${pick()}, ${pick()} yesterday min=${5 + Math.floor(rand() * 20)}`
            : r < 0.95
              ? `fuel ${pick()} last ${2 + Math.floor(rand() * 60)}d`
              : "stops all yesterday";
      sent.push(await command(bot, text, user));
      at += -Math.log(1 - rand()) * 2500; // a command every 2.5 s on average: the queue builds up
    }
    const ratios: number[] = [];
    const reportRatios: number[] = [];
    const msRatios: number[] = [];
    const msReportRatios: number[] = [];
    let unanswered = 0;
    let answeringNow = 0;
    let answeringNowSlow = 0;
    let underASecond = 0;
    let underASecondLate = 0;
    try {
      await until("mix answers", () => sent.every((s) => answerTo(env.fake, s.responseUrl)), 200 * SLOT_MS);
    } catch (error) {
      if (!(error instanceof Timeout)) throw error;
    }
    const requests = accountRequests(env.sim);
    const diagnosis: string[] = [];
    for (const s of sent) {
      const answer = answerTo(env.fake, s.responseUrl);
      const estimate = estimateMs(s.ackText);
      const taskId = ackTaskId(s.result.body);
      const lines = (taskId && estimates.get(taskId)) || [];
      // The ack's own estimate: the first one logged before the ack returned whose wording is the ack's.
      const atAck = lines.filter((l) => l.done === 0 && l.at <= s.sentAt + 5_000);
      const ackLine =
        (estimate === undefined ? undefined : atAck.find((l) => wordedMs(l.etaMs) === estimate)) ?? atAck[0];
      const actual = answer ? Math.max(1, answer.at - s.sentAt) : undefined;
      if (!answer) unanswered++;
      else if (estimate === UNDER_A_SECOND) {
        // A bound, not a figure: it holds or it does not.
        underASecond++;
        if (actual! >= 1000) underASecondLate++;
      } else if (estimate !== undefined) {
        const ratio = estimate / actual!;
        ratios.push(ratio);
        if (!s.text.startsWith("where")) reportRatios.push(ratio);
      } else if (/answering now/.test(s.ackText)) {
        answeringNow++;
        if (actual! > SLOT_MS) answeringNowSlow++;
      }
      if (answer && ackLine && estimate !== undefined) {
        const ratio = Math.max(1, ackLine.etaMs) / actual!;
        msRatios.push(ratio);
        if (!s.text.startsWith("where")) msReportRatios.push(ratio);
      }
      const last = lines.at(-1);
      const calls = requests
        .filter((r) => r.atMs >= s.sentAt && (answer === undefined || r.atMs <= answer.at))
        .map((r) => `${r.endpoint ?? r.path}@${((r.atMs - s.sentAt) / 1000).toFixed(1)}`);
      diagnosis.push(
        [
          `+${((s.sentAt - t0) / 1000).toFixed(1)}s ${s.text.slice(0, 44).padEnd(44)}`,
          `ack "${(/: (.*)$/.exec(s.ackText.split("\n")[0] ?? "")?.[1] ?? s.ackText).slice(0, 40)}"`,
          ackLine
            ? `est ${ackLine.etaMs} ms pos ${ackLine.position} plan ${ackLine.total} inter ${ackLine.interleaved} ans ${ackLine.answerMs}`
            : "est —",
          `final ${last ? `${last.done}/${last.total}` : "—"}`,
          `actual ${actual ?? "—"} ms`,
          `calls in window: ${calls.join(" ")}`,
        ].join(" | "),
      );
    }
    process.stderr.write(`row 9, per command:\n${diagnosis.join("\n")}\n`);
    const answerTimes = callsAnswered.map((c) => c.ms);
    process.stderr.write(
      `fleet call answer time: p50 ${fmt(quantile(answerTimes, 0.5), 0)} ms, p90 ${fmt(quantile(answerTimes, 0.9), 0)} ms over ${answerTimes.length}\n`,
    );
    return [
      {
        row: `9. estimate ÷ actual, working-day mix (${sent.length} commands in ${Math.round(durationMs / 1000)} s)`,
        figure: "p50 / p90 (the ack's worded estimate)",
        goal: "≈ 1",
        result: `${fmt(quantile(ratios, 0.5))} / ${fmt(quantile(ratios, 0.9))}`,
        naive: "—",
      },
      {
        row: "",
        figure: "reports only (no `where`): p50 / p90",
        goal: "≈ 1",
        result: `${fmt(quantile(reportRatios, 0.5))} / ${fmt(quantile(reportRatios, 0.9))}`,
        naive: "—",
      },
      {
        row: "",
        figure: "p50 / p90 in ms (the bot's own estimate), all / reports only",
        goal: "0.75–1.25",
        result: `${fmt(quantile(msRatios, 0.5))} / ${fmt(quantile(msRatios, 0.9))}, ${fmt(quantile(msReportRatios, 0.5))} / ${fmt(quantile(msReportRatios, 0.9))}`,
        naive: "—",
      },
      {
        row: "",
        figure: '"under a second" / of them answered after 1 s',
        goal: "— / 0",
        result: `${underASecond} / ${underASecondLate}`,
        naive: "—",
      },
      {
        row: "",
        figure: "commands without an estimate / unanswered",
        goal: "0 / 0",
        result: `${sent.length - unanswered - ratios.length - underASecond - answeringNow} / ${unanswered}`,
        naive: "—",
      },
      {
        row: "",
        figure: '"answering now" / of them slower than one slot',
        goal: "— / 0",
        result: `${answeringNow} / ${answeringNowSlow}`,
        naive: "—",
      },
      {
        row: "",
        figure: "429s received during the mix",
        goal: "0",
        result: String(rateLimited(env)),
        naive: "—",
      },
    ];
  });
}

// ---------------------------------------------------------------------------- row 12

/** Row 12's fleet: issue 32's "200 vehicles" (the simulator's vehicleCount). */
export const WATCH_VEHICLES = 200;
/** Vehicles whose power is cut a second before each measured tick (a storm over 5: one grouped post). */
export const WATCH_CUTS = 10;
/** `/fleet where` sent during a loaded sweep: WATCH_WAVES waves of WATCH_WAVE, WATCH_WAVE_GAP_MS apart from the tick on. */
export const WATCH_WAVES = 8;
export const WATCH_WAVE = 10;
export const WATCH_WAVE_GAP_MS = 500;
/**
 * Variant (b)'s subscription: every vehicle kind with a reefer band (and, below, a zone at the
 * București depot), and every transport code as well, so that (b) gets all that (a) gets: a
 * subscription naming only vehicle kinds gets only those (README, "Watching vehicles"), and `all`
 * means "no filter", which keeps the transport kinds only.
 */
export const WATCH_SUBSCRIBE = `alerts subscribe ${[...TRANSMISSION_ALERT_CODES, ...OTHER_ALERT_CODES, ...VEHICLE_CODES].join(" ")} temp=2..8`;

type WatchVariant = "transport" | "vehicles";

interface WatchSweep {
  loaded: boolean;
  /** Cron tick → the last chat.postMessage / chat.update of the sweep (undefined: timed out). */
  latencyMs?: number;
  /** The bot's CPU (user + system) from just before the tick to the sweep's "alert poll" log line. */
  cpuMs?: number;
  /** The bot's CPU over as long a window just before the tick (nothing scheduled): its idle cost. */
  idleCpuMs?: number;
  /** Slack writes to the alerts channel in the sweep, and whether the broken transport / a cut vehicle is among them. */
  posts: number;
  transportPosted: boolean;
  powerCutPosted: boolean;
  /** Upstream calls of the account between the tick and the end of the sweep, by endpoint. */
  calls: Record<string, number>;
  /** Ack times of the `where` sent during a loaded sweep; statuses other than 200 counted as failed. */
  acks: number[];
  failed: number;
  /** "alert poll (tick) skipped" lines during the sweep. */
  skipped: number;
  /** What happened when, ms after the tick (upstream requests by arrival, Slack writes): for the log. */
  timeline: string[];
}

interface WatchRun {
  sweeps: WatchSweep[];
  limited: number;
  /** Alerts posted by the first sweep after the subscription (the demo set's and the fleet's own). */
  firstSweepPosts: number;
}

/** An answer to a command (ack, response_url or a message in the channel) matching `pattern`. */
async function expectAnswer(
  env: Environment,
  bot: RunningBot,
  text: string,
  channel: string,
  pattern: RegExp,
) {
  const sent = await command(bot, text, USER, channel);
  const seen = () => {
    const texts = [
      sent.ackText,
      ...env.fake.responses.filter((r) => r.url === sent.responseUrl).map((r) => bodyText(r.body)),
      ...env.fake.calls
        .filter((c) => c.at >= sent.sentAt && c.args.channel === channel && typeof c.args.text === "string")
        .map((c) => String(c.args.text)),
    ];
    return texts.find((t) => pattern.test(t));
  };
  try {
    return await until(`answer to ${text}`, seen, 20_000);
  } catch (error) {
    if (error instanceof Timeout)
      throw new Error(`\`${text}\` was not answered with ${pattern}: ${sent.ackText}`);
    throw error;
  }
}

/**
 * One variant of row 12: the built bot with ALERTS_CRON every 20 s, 200 simulated vehicles, a
 * subscription in #alerts typed as a command ((a) `alerts subscribe`, (b) every vehicle kind with a
 * zone), then `rounds` pairs of measured sweeps (quiet, then with `where` waves). Before each
 * measured tick one In Progress transport loses its GPS and WATCH_CUTS vehicles lose power, so both
 * variants post (a: the transport alert; b: it and the grouped power-cut storm).
 */
async function vehicleWatchSweeps(options: RowOptions, variant: WatchVariant): Promise<WatchRun> {
  const rounds = options.quick ? 1 : 2;
  return withEnvironment(options, { vehicleCount: WATCH_VEHICLES }, async (env) => {
    const period = SWEEP_EVERY_S * 1000;
    // Each measured sweep breaks a transport of its own: the demo set's In Progress ones (4).
    const targets = env.sim.control
      .transports()
      .filter((t) => t.statusId === 2 && env.sim.control.transmission(t.codeUit)?.code === "Active")
      .map((t) => t.codeUit);
    if (targets.length < 2 * rounds)
      throw new Error(`only ${targets.length} In Progress transports to break`);
    const onTransport = new Set(
      env.sim.control
        .transports()
        .filter((t) => t.statusId === 2)
        .map((t) => t.vehicleUId),
    );
    // Vehicles to cut: not on a transport, not the private car, not a reefer (only PowerCut moves).
    const cuttable = env.sim.vehicles.filter(
      (v, i) => i > 3 && !v.reefer && !onTransport.has(v.vehicleUId) && !v.privateOnSaturdays,
    );
    if (cuttable.length < 2 * rounds * WATCH_CUTS) throw new Error("not enough vehicles to cut");
    const bot = await env.startBot({ env: { ALERTS_CRON: `*/${SWEEP_EVERY_S} * * * * *` } });
    const polls: number[] = [];
    let skippedLines = 0;
    createInterface({ input: bot.child.stdout! }).on("line", (line) => {
      if (line.includes('"alert poll"')) {
        const time = (JSON.parse(line) as { time?: unknown }).time;
        polls.push(typeof time === "number" ? time : Date.now());
      } else if (/alert poll (tick )?skipped/.test(line)) skippedLines++;
    });
    await warm(env, bot);
    if (variant === "vehicles") {
      const depot = env.sim.depots[0]!;
      await expectAnswer(
        env,
        bot,
        `zones add Depou ${depot.latitude},${depot.longitude}`,
        ALERTS_CHANNEL,
        /Zone \*Depou\* added/,
      );
    }
    const subscribedAt = Date.now();
    await expectAnswer(
      env,
      bot,
      variant === "vehicles" ? WATCH_SUBSCRIBE : "alerts subscribe",
      ALERTS_CHANNEL,
      /now gets alerts of/,
    );
    // The first sweep after the subscription posts the demo set's problems (and, in b, what the
    // fleet shows by itself): over before anything is measured.
    await until(
      "the first sweep after the subscription",
      () => polls.some((t) => t > subscribedAt),
      2 * period + 60_000,
    );
    await sleep(2 * SLOT_MS);
    const firstSweepPosts = env.fake.calls.filter(
      (c) => c.method === "chat.postMessage" && c.args.channel === ALERTS_CHANNEL,
    ).length;
    // A bot in service: IN_SERVICE_AFTER `where` answered before the measured waves (see row 5).
    for (let answered = 0; answered < IN_SERVICE_AFTER; answered += 50) await whereBurst(env, bot, 50);
    const sweeps: WatchSweep[] = [];
    for (let k = 0; k < 2 * rounds; k++) {
      const loaded = k % 2 === 1;
      let tick = Math.ceil(Date.now() / period) * period;
      if (tick - Date.now() < 6000) tick += period;
      // The waves: forms signed now, sent by the load client (its own process) at their times.
      let load: Promise<LoadOutput> | undefined;
      if (loaded) {
        await sleep(tick - 4000 - Date.now());
        const forms = Array.from({ length: WATCH_WAVES * WATCH_WAVE }, (_, i) =>
          slashForm(
            env,
            `where ${env.sim.vehicles[(k * 37 + i) % env.sim.vehicles.length]!.plate}`,
            USERS[i % 3]!,
          ),
        );
        load = runLoadClient({
          botUrl: `${bot.url}/slack/events`,
          signingSecret: env.fake.options.signingSecret,
          forms: forms.map((f) => f.form),
          sendAtMs: forms.map((_, i) => tick + Math.floor(i / WATCH_WAVE) * WATCH_WAVE_GAP_MS),
          timeoutMs: 30_000,
        });
      }
      // Idle CPU over a window as long as the bound below is not known: 3 s just before the tick.
      await sleep(tick - 3300 - Date.now());
      const idleFrom = bot.cpuMs();
      const idleAt = performance.now();
      await sleep(tick - 1000 - Date.now());
      const transport = targets[k]!;
      env.sim.control.setTransport(transport, { transmissionStatusCode: "NoGPSCoordinates" });
      const cut = cuttable.slice(k * WATCH_CUTS, (k + 1) * WATCH_CUTS);
      for (const v of cut) env.sim.control.setVehicle(v.vehicleId, { power: "cut" });
      await sleep(tick - 300 - Date.now());
      const cpuFrom = bot.cpuMs();
      const idleCpu = ((cpuFrom - idleFrom) / (performance.now() - idleAt)) * 1000;
      const skippedBefore = skippedLines;
      const sweep: WatchSweep = {
        loaded,
        posts: 0,
        transportPosted: false,
        powerCutPosted: false,
        calls: {},
        acks: [],
        failed: 0,
        skipped: 0,
        timeline: [],
      };
      let end = tick + 40 * SLOT_MS;
      try {
        end = await until(
          "the measured sweep's alert poll line",
          () => polls.find((t) => t >= tick),
          40 * SLOT_MS + 1000,
        );
        const cpuTo = bot.cpuMs();
        const writes = env.fake.calls.filter(
          (c) =>
            (c.method === "chat.postMessage" || c.method === "chat.update") &&
            c.args.channel === ALERTS_CHANNEL &&
            c.at >= tick &&
            c.at <= end + 50,
        );
        const last = writes.at(-1);
        if (last) sweep.latencyMs = last.at - tick;
        sweep.cpuMs = cpuTo - cpuFrom;
        // The idle cost over the same length, so a reader can tell how much of the figure is the sweep's.
        sweep.idleCpuMs = (idleCpu * (end - tick + 300)) / 1000;
        sweep.posts = writes.filter((c) => c.method === "chat.postMessage").length;
        const written = JSON.stringify(writes.map((c) => c.args));
        sweep.transportPosted = written.includes(transport);
        sweep.powerCutPosted = cut.some((v) => written.includes(v.plate));
        sweep.timeline.push(
          ...writes.map((c) => `${c.method === "chat.update" ? "update" : "post"}@${c.at - tick}`),
        );
      } catch (error) {
        if (!(error instanceof Timeout)) throw error;
      }
      for (const r of accountRequests(env.sim).filter((r) => r.atMs >= tick && r.atMs <= end && r.endpoint)) {
        sweep.calls[r.endpoint!] = (sweep.calls[r.endpoint!] ?? 0) + 1;
        sweep.timeline.push(`${r.endpoint}@${r.atMs - tick}`);
      }
      sweep.timeline.sort((x, y) => Number(x.split("@")[1]) - Number(y.split("@")[1]));
      if (load) {
        const out = await load;
        sweep.acks = out.ackMs;
        sweep.failed = out.failed;
      }
      sweep.skipped = skippedLines - skippedBefore;
      sweeps.push(sweep);
      process.stderr.write(
        `row 12 (${variant}) sweep ${k + 1}${loaded ? " with where waves" : ""}: tick → last post ${sweep.latencyMs ?? "timeout"} ms, ` +
          `sweep end ${end - tick} ms, cpu ${sweep.cpuMs ?? "—"} ms (idle over as long ${fmt(sweep.idleCpuMs ?? Number.NaN, 0)} ms), ` +
          `posts ${sweep.posts} (transport ${sweep.transportPosted}, power cut ${sweep.powerCutPosted}), ` +
          `calls ${JSON.stringify(sweep.calls)}${loaded ? `, acks p50 ${fmt(quantile(sweep.acks, 0.5), 0)} / p99 ${fmt(quantile(sweep.acks, 0.99), 0)} / max ${fmt(Math.max(...sweep.acks), 0)} ms, failed ${sweep.failed}` : ""}, skipped ticks ${sweep.skipped}\n  timeline (ms after the tick): ${sweep.timeline.join(" ")}\n`,
      );
      // The where answers (and anything else of the sweep) settle before the next measured tick.
      await sleep(2 * SLOT_MS);
    }
    return { sweeps, limited: rateLimited(env), firstSweepPosts };
  });
}

/**
 * 12. Vehicle watch's cost (issue 32): one alert sweep of 200 vehicles with every vehicle kind
 * subscribed, against today's transport-only sweep, on the built bot in real time.
 */
export async function vehicleWatchSweep(options: RowOptions): Promise<RealtimeRow[]> {
  const row = `12. one alert sweep, ${WATCH_VEHICLES} vehicles: (a) \`alerts subscribe\` (transports only) / (b) every transport code + all 8 vehicle kinds, \`temp=2..8\`, a zone`;
  let a: WatchRun;
  let b: WatchRun;
  try {
    a = await vehicleWatchSweeps(options, "transport");
    b = await vehicleWatchSweeps(options, "vehicles");
  } catch (error) {
    return [{ row, figure: "—", goal: "—", result: outcome(error), naive: "—" }];
  }
  const quiet = (r: WatchRun) => r.sweeps.filter((s) => !s.loaded);
  const loaded = (r: WatchRun) => r.sweeps.filter((s) => s.loaded);
  /** The median of a figure over sweeps; "timeout" when any of them timed out. */
  const med = (sweeps: WatchSweep[], pick: (s: WatchSweep) => number | undefined) => {
    const values = sweeps.map(pick);
    return values.some((v) => v === undefined) ? undefined : median(values as number[]);
  };
  const pair = (x: number | undefined, y: number | undefined, show: (n: number) => string) => {
    const text = (n: number | undefined) => (n === undefined ? "timeout" : show(n));
    const ratio = x === undefined || y === undefined || x === 0 ? "n/a" : fmt(y / x);
    return `${text(x)} / ${text(y)} (b/a ${ratio})`;
  };
  const acks = (r: WatchRun) => loaded(r).flatMap((s) => s.acks);
  const failed = (r: WatchRun) => loaded(r).reduce((n, s) => n + s.failed, 0);
  const count = (r: WatchRun, pick: (s: WatchSweep) => boolean) => r.sweeps.filter(pick).length;
  const calls = (r: WatchRun) => {
    const s = quiet(r)[0];
    return s
      ? Object.entries(s.calls)
          .map(([e, n]) => `${e} ${n}`)
          .join(", ") || "none"
      : "—";
  };
  const n = quiet(a).length;
  const sent = loaded(a).length * WATCH_WAVES * WATCH_WAVE;
  return [
    {
      row,
      figure: `cron tick → last alert post (slots), median of ${n} quiet sweeps: (a) / (b)`,
      goal: "—",
      result: pair(
        med(quiet(a), (s) => s.latencyMs),
        med(quiet(b), (s) => s.latencyMs),
        slots,
      ),
      naive: "—",
    },
    {
      row: "",
      figure: `the same, sweeps with \`where\` waves (median of ${loaded(a).length})`,
      goal: "—",
      result: pair(
        med(loaded(a), (s) => s.latencyMs),
        med(loaded(b), (s) => s.latencyMs),
        slots,
      ),
      naive: "—",
    },
    {
      row: "",
      figure: `bot CPU per sweep, tick → its "alert poll" line (ms), median of ${n} quiet sweeps (idle over as long)`,
      goal: "—",
      result: `${pair(
        med(quiet(a), (s) => s.cpuMs),
        med(quiet(b), (s) => s.cpuMs),
        (v) => fmt(v, 0),
      )} (idle ${fmt(med(quiet(a), (s) => s.idleCpuMs) ?? Number.NaN, 0)} / ${fmt(med(quiet(b), (s) => s.idleCpuMs) ?? Number.NaN, 0)})`,
      naive: "—",
    },
    {
      row: "",
      figure: `\`/fleet where\` ack p99 during the sweep (ms): ${sent} sent in ${WATCH_WAVES} waves of ${WATCH_WAVE}, ${WATCH_WAVE_GAP_MS} ms apart from the tick`,
      goal: "—",
      result: pair(quantile(acks(a), 0.99), quantile(acks(b), 0.99), (v) => fmt(v, 0)),
      naive: "—",
    },
    {
      row: "",
      figure: "the same, p50 (ms) / acks failed or over 3 s",
      goal: "— / 0",
      result: `${pair(quantile(acks(a), 0.5), quantile(acks(b), 0.5), (v) => fmt(v, 0))} / ${failed(a) + acks(a).filter((ms) => ms > 3000).length}, ${failed(b) + acks(b).filter((ms) => ms > 3000).length}`,
      naive: "—",
    },
    {
      row: "",
      figure: "Slack posts per measured sweep (median; the storm is one grouped post + a reply per vehicle)",
      goal: "—",
      result: pair(
        med(a.sweeps, (s) => s.posts),
        med(b.sweeps, (s) => s.posts),
        (v) => fmt(v, 0),
      ),
      naive: "—",
    },
    {
      row: "",
      figure: "sweeps that posted the broken transport / a cut vehicle: (a); (b)",
      goal: `${a.sweeps.length} / 0; ${b.sweeps.length} / ${b.sweeps.length}`,
      result: `${count(a, (s) => s.transportPosted)} / ${count(a, (s) => s.powerCutPosted)}; ${count(b, (s) => s.transportPosted)} / ${count(b, (s) => s.powerCutPosted)}`,
      naive: "—",
    },
    {
      row: "",
      figure: "upstream calls of a quiet sweep: (a); (b)",
      goal: "—",
      result: `${calls(a)}; ${calls(b)}`,
      naive: "—",
    },
    {
      row: "",
      figure: "429s during the row / ticks skipped (previous sweep still running): (a); (b)",
      goal: "0 / 0",
      result: `${a.limited} / ${a.sweeps.reduce((s, x) => s + x.skipped, 0)}; ${b.limited} / ${b.sweeps.reduce((s, x) => s + x.skipped, 0)}`,
      naive: "—",
    },
  ];
}
