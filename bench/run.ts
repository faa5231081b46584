/**
 * Queue benchmarks (npm run bench): the real client, gate and task runner against the
 * real simulator over HTTP, in virtual time (one shared clock, so a working day of
 * 30-second slots runs in seconds). Each scenario also runs on a naive FIFO queue
 * (same spacing; no priorities, no shared calls, no cache, no 429 retry) on the same load.
 * Then the real-time part (bench/realtime): the built bot as its own process, driven through
 * signed Slack requests. Results are printed and, for a whole run, written to docs/BENCHMARKS.md.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { FleetClient } from "../src/platform/fleet/client.js";
import type { Vehicle } from "../src/platform/fleet/schemas.js";
import type { CallContext, Priority } from "../src/platform/fleet/seam.js";
import { createFleetGate } from "../src/platform/gate/fleetGate.js";
import type { AccountGate } from "../src/platform/gate/gate.js";
import type { MemoryGate } from "../src/platform/gate/memoryGate.js";
import { runUntilSettled, VirtualClock } from "../src/platform/gate/virtualClock.js";
import { VehicleCache } from "../src/platform/vehicles/vehicleCache.js";
import { startSimulator } from "../src/simulator/index.js";
import { alertBenchmarks } from "./alerts.js";
import { NaiveFifoGate } from "./naiveFifoGate.js";
import {
  REALTIME_READING,
  REALTIME_ROWS,
  type RealtimeResult,
  realtimeNotes,
  runRealtime,
} from "./realtime/run.js";
import { REPLICA_READING, type ReplicaResult, replicaNotes, runReplicas } from "./replicas.js";

const INTERVAL = 30_000;
const MARGIN = 250;
const ZONE = "Europe/Bucharest";
const START = Date.UTC(2026, 10, 3, 6, 0, 0); // 08:00 in Bucharest, a Tuesday
const HOUR = 3_600_000;

type Mode = "fleetbot" | "naive";

/** A deterministic random source, so both modes see the very same load. */
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

async function environment(mode: Mode) {
  const clock = new VirtualClock(START);
  const sim = await startSimulator({
    port: 0,
    minIntervalMs: INTERVAL,
    control: true,
    drift: false,
    now: () => clock.now(),
  });
  const gate: AccountGate =
    mode === "fleetbot"
      ? createFleetGate({ minIntervalMs: INTERVAL, safetyMarginMs: MARGIN, clock })
      : new NaiveFifoGate(INTERVAL, clock);
  const client = new FleetClient({
    baseUrl: sim.url,
    apiVersion: "2.0",
    timeZone: ZONE,
    gate,
    now: () => clock.now(),
  });
  const session = client.session({ username: "demo", password: "demo" });
  const busy = () => (mode === "fleetbot" ? (gate as MemoryGate).inFlight() > 0 : true);
  // The naive gate has no in-flight view: step real time whenever work is pending.
  const run = <T>(work: Promise<T>) =>
    mode === "fleetbot" ? runUntilSettled(clock, work, busy) : runNaive(clock, work);
  const cache = new VehicleCache<Vehicle>({ ttlMs: 15 * 60_000, now: () => clock.now() });
  /** "Where are my trucks": fleetbot reuses an answer younger than one interval; naive asks every time. */
  const lookup = (ctx: CallContext) =>
    mode === "fleetbot" ? cache.get(session, ctx, INTERVAL).then((c) => c.vehicles) : session.vehicles(ctx);
  // Warm the token so measurements count data calls, then let one interval pass.
  await run(session.login({ priority: "interactive" }));
  await clock.advanceBy(INTERVAL + MARGIN);
  const stats = () => sim.control.stats();
  return { clock, sim, gate, session, run, lookup, stats, vehicles: sim.vehicles, close: () => sim.close() };
}

/** Virtual time for the naive queue: advance to the next timer only after real I/O had a moment. */
async function runNaive<T>(clock: VirtualClock, work: Promise<T>): Promise<T> {
  let settled = false;
  const watched = work.finally(() => {
    settled = true;
  });
  watched.catch(() => undefined);
  while (!settled) {
    await new Promise<void>((resolve) => setTimeout(resolve, 2));
    if (settled) break;
    const next = clock.nextTimerAt();
    if (next !== undefined) await clock.advanceTo(next);
  }
  return watched;
}

function dayPeriod(dayOffset: number): { from: Date; to: Date } {
  const from = new Date(START - (dayOffset + 1) * 24 * HOUR);
  return { from, to: new Date(from.getTime() + 24 * HOUR) };
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");

interface Row {
  scenario: string;
  figure: string;
  goal: string;
  fleetbot: string;
  naive: string;
}

/** 1. Backlog of 40 calls from 8 users: time ÷ (calls × interval), and 429s. */
async function backlog(mode: Mode) {
  const env = await environment(mode);
  const t0 = env.clock.now();
  const work: Promise<unknown>[] = [];
  for (let user = 0; user < 8; user++) {
    for (let call = 0; call < 5; call++) {
      const vehicle = env.vehicles[user]!.vehicleId;
      work.push(
        env.session
          .stops(
            { vehicleIds: [vehicle], ...dayPeriod(call), stationaryMarginMinutes: 5 },
            { priority: "report" },
          )
          .catch((e) => e),
      );
    }
  }
  await env.run(Promise.all(work));
  const total = env.clock.now() - t0;
  const limited = Object.values(env.stats().rateLimited).reduce((a, b) => a + b, 0);
  const failed = (await Promise.all(work)).filter((r) => r instanceof Error).length;
  await env.close();
  return { ratio: total / (40 * INTERVAL), limited, failed };
}

/** 2. A quick lookup arriving during a 20-call report: its wait in slots. */
async function lookupDuringReport(mode: Mode) {
  const env = await environment(mode);
  const report = Array.from({ length: 20 }, (_, i) =>
    env.session.stops(
      { vehicleIds: [env.vehicles[i % 10]!.vehicleId], ...dayPeriod(i), stationaryMarginMinutes: 5 },
      { priority: "report" },
    ),
  );
  const all = Promise.all(report);
  await env.run(report[4]!); // five report calls done
  await env.clock.advanceBy(INTERVAL / 2);
  const arrival = env.clock.now();
  let startedAt = 0;
  const lookup = env.lookup({ priority: "interactive" }).then(() => {
    startedAt = env.clock.now();
  });
  await env.run(lookup);
  const waitSlots = (startedAt - arrival) / INTERVAL;
  await env.run(all);
  await env.close();
  return { waitSlots };
}

/** 3. Ten users asking the same thing at once: upstream calls. */
async function tenSameQuestions(mode: Mode) {
  const env = await environment(mode);
  const before = env.stats().requests.demo?.["company-vehicles"] ?? 0;
  await env.run(Promise.all(Array.from({ length: 10 }, () => env.lookup({ priority: "interactive" }))));
  const calls = (env.stats().requests.demo?.["company-vehicles"] ?? 0) - before;
  await env.close();
  return { calls };
}

/** 4. A working day: 8 users, commands at random, alert polls every 5 minutes. */
async function workingDay(mode: Mode) {
  const env = await environment(mode);
  const rand = random(20261103);
  const dayMs = 8 * HOUR;
  const t0 = env.clock.now();
  interface Command {
    at: number;
    kind: "where" | "stops" | "fuel" | "transport-start";
    user: number;
  }
  const commands: Command[] = [];
  for (let user = 0; user < 8; user++) {
    let at = t0;
    for (;;) {
      at += -Math.log(1 - rand()) * (HOUR / 5); // about five commands an hour each
      if (at >= t0 + dayMs) break;
      const r = rand();
      commands.push({
        at,
        user,
        kind: r < 0.55 ? "where" : r < 0.8 ? "stops" : r < 0.95 ? "fuel" : "transport-start",
      });
    }
  }
  commands.sort((a, b) => a.at - b.at);
  const interactiveWaits: number[] = [];
  const pending: Promise<unknown>[] = [];
  const startCalls = () => Object.values(env.stats().requests.demo ?? {}).reduce((a, b) => a + b, 0);
  const callsBefore = startCalls();
  let polls = 0;
  const runCommand = async (command: Command) => {
    const arrival = env.clock.now();
    const priority: Priority =
      command.kind === "where" || command.kind === "transport-start" ? "interactive" : "report";
    const first = (p: Promise<unknown>) =>
      p.then(() => {
        if (priority === "interactive") interactiveWaits.push((env.clock.now() - arrival) / INTERVAL);
      });
    const vehicles = env.vehicles.slice(command.user * 3, command.user * 3 + 3).map((v) => v.vehicleId);
    const today = { from: new Date(arrival - 4 * HOUR), to: new Date(arrival) };
    if (command.kind === "where") return first(env.lookup({ priority }));
    if (command.kind === "transport-start")
      return first(env.session.loadTransports({ statusIds: [1], pageSize: 20, pageIndex: 0 }, { priority }));
    if (command.kind === "stops")
      return first(
        env.session.stops({ vehicleIds: vehicles, ...today, stationaryMarginMinutes: 5 }, { priority }),
      );
    return first(env.session.consumption({ vehicleIds: vehicles, ...today }, { priority }));
  };
  let next = 0;
  for (let at = t0; at < t0 + dayMs; at += 5 * 60_000) {
    // Commands arriving before this poll, then the poll at background priority.
    while (next < commands.length && commands[next]!.at < at + 5 * 60_000) {
      const command = commands[next++]!;
      await env.run(Promise.resolve());
      if (command.at > env.clock.now()) await env.clock.advanceTo(command.at);
      pending.push(runCommand(command).catch(() => undefined));
    }
    if (at > env.clock.now()) await env.clock.advanceTo(at);
    polls++;
    pending.push(
      env.session
        .loadTransports({ statusIds: [1, 2, 6], pageSize: 100, pageIndex: 0 }, { priority: "alert" })
        .catch(() => undefined),
    );
  }
  await env.run(Promise.all(pending));
  const calls = startCalls() - callsBefore;
  const limited = Object.values(env.stats().rateLimited).reduce((a, b) => a + b, 0);
  await env.close();
  return {
    commands: commands.length,
    polls,
    p50: quantile(interactiveWaits, 0.5),
    p95: quantile(interactiveWaits, 0.95),
    callsPerCommand: (calls - polls) / commands.length,
    limited,
  };
}

/**
 * 5. 1,000 queued tasks: measured in a fresh process (bench/queuedTasks.ts) so the figure is
 * the runner's, not what the earlier scenarios left in this one.
 */
function thousandTasks(mode: Mode): Promise<{ enqueueMs: number; rssMb: number; baselineMb: number }> {
  const child = spawnSync(
    process.execPath,
    ["--import", "tsx", join(import.meta.dirname, "queuedTasks.ts"), mode],
    {
      encoding: "utf8",
      env: { ...process.env, LOG_LEVEL: "silent" },
    },
  );
  if (child.status !== 0) throw new Error(`queuedTasks.ts failed: ${child.stderr}`);
  return Promise.resolve(JSON.parse(child.stdout.trim().split("\n").at(-1)!));
}

async function virtualTime(): Promise<string> {
  const rows: Row[] = [];
  const both = async <T>(f: (m: Mode) => Promise<T>) => ({
    fleetbot: await f("fleetbot"),
    naive: await f("naive"),
  });

  const b = await both(backlog);
  rows.push({
    scenario: "1. backlog, 40 calls from 8 users",
    figure: "time ÷ (calls × interval)",
    goal: "≤ 1.02",
    fleetbot: fmt(b.fleetbot.ratio, 3),
    naive: fmt(b.naive.ratio, 3),
  });
  rows.push({
    scenario: "",
    figure: "429s received",
    goal: "0",
    fleetbot: String(b.fleetbot.limited),
    naive: String(b.naive.limited),
  });

  const l = await both(lookupDuringReport);
  rows.push({
    scenario: "2. lookup during a 20-call report",
    figure: "lookup wait (slots)",
    goal: "≤ 1",
    fleetbot: fmt(l.fleetbot.waitSlots),
    naive: fmt(l.naive.waitSlots),
  });

  const s = await both(tenSameQuestions);
  rows.push({
    scenario: "3. 10 users, same question",
    figure: "upstream calls",
    goal: "1",
    fleetbot: String(s.fleetbot.calls),
    naive: String(s.naive.calls),
  });

  const d = await both(workingDay);
  rows.push({
    scenario: `4. working day (8 users, ${d.fleetbot.commands} commands, ${d.fleetbot.polls} alert polls)`,
    figure: "interactive wait p50 (slots)",
    goal: "—",
    fleetbot: fmt(d.fleetbot.p50),
    naive: fmt(d.naive.p50),
  });
  rows.push({
    scenario: "",
    figure: "interactive wait p95 (slots)",
    goal: "—",
    fleetbot: fmt(d.fleetbot.p95),
    naive: fmt(d.naive.p95),
  });
  rows.push({
    scenario: "",
    figure: "upstream calls per command",
    goal: "—",
    fleetbot: fmt(d.fleetbot.callsPerCommand),
    naive: fmt(d.naive.callsPerCommand),
  });
  rows.push({
    scenario: "",
    figure: "429s received",
    goal: "0",
    fleetbot: String(d.fleetbot.limited),
    naive: String(d.naive.limited),
  });

  const t = await both(thousandTasks);
  rows.push({
    scenario: "5. 1,000 queued tasks",
    figure: "resident memory (MB)",
    goal: "< 150",
    fleetbot: fmt(t.fleetbot.rssMb, 0),
    naive: fmt(t.naive.rssMb, 0),
  });
  rows.push({
    scenario: "",
    figure: "of which before enqueueing (MB)",
    goal: "—",
    fleetbot: fmt(t.fleetbot.baselineMb, 0),
    naive: fmt(t.naive.baselineMb, 0),
  });
  rows.push({
    scenario: "",
    figure: "time to enqueue (ms)",
    goal: "—",
    fleetbot: fmt(t.fleetbot.enqueueMs, 0),
    naive: fmt(t.naive.enqueueMs, 0),
  });

  const alerts = await alertBenchmarks();
  rows.push({
    scenario: "6. alerts, 150 transports",
    figure: "status change → alert post (slots)",
    goal: "≤ 1 after the poll",
    fleetbot: String(alerts.latencySlots),
    naive: "—",
  });
  rows.push({
    scenario: "",
    figure: "load-transports calls per sweep (pages)",
    goal: `= pages (${alerts.pages})`,
    fleetbot: String(alerts.callsPerSweep),
    naive: "—",
  });

  const header = "| scenario | figure | goal | fleetbot | naive FIFO |\n|---|---|---|---|---|";
  return [
    header,
    ...rows.map((r) => `| ${r.scenario} | ${r.figure} | ${r.goal} | ${r.fleetbot} | ${r.naive} |`),
  ].join("\n");
}

interface BenchArgs {
  virtual: boolean;
  realtime: boolean;
  replicas: boolean;
  quick: boolean;
  only: string[];
  /** Node flags for the real-time part's bot processes (`--profile=<dir>`: CPU profiles there). */
  botNodeArgs: string[];
}

/** `npm run bench [-- --realtime | --virtual | --replicas] [--quick] [--rows=where,ack,…] [--profile=<dir> [--profile-interval=<µs>]]` */
function parseArgs(argv: readonly string[]): BenchArgs {
  const realtimeOnly = argv.includes("--realtime");
  const virtualOnly = argv.includes("--virtual");
  const replicasOnly = argv.includes("--replicas");
  const rows = argv.find((a) => a.startsWith("--rows="))?.slice("--rows=".length);
  const profileDir = argv.find((a) => a.startsWith("--profile="))?.slice("--profile=".length);
  // Sampling interval in µs (Node's default 1000 is too coarse for a 1 ms ack).
  const profileInterval = argv
    .find((a) => a.startsWith("--profile-interval="))
    ?.slice("--profile-interval=".length);
  return {
    virtual: !realtimeOnly && !replicasOnly,
    realtime: !virtualOnly && !replicasOnly,
    replicas: !virtualOnly && !realtimeOnly,
    quick: argv.includes("--quick"),
    only: rows ? rows.split(",").filter(Boolean) : [],
    // Each bot writes a .cpuprofile (Chrome DevTools format) into the directory when it exits.
    botNodeArgs: profileDir
      ? [
          "--cpu-prof",
          `--cpu-prof-dir=${profileDir}`,
          ...(profileInterval ? [`--cpu-prof-interval=${profileInterval}`] : []),
        ]
      : [],
  };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average ${load} at the start`;
  let virtualTable: string | undefined;
  if (args.virtual) {
    virtualTable = await virtualTime();
    process.stdout.write(`Virtual time (interval ${INTERVAL / 1000} s):\n${virtualTable}\n\n`);
  }
  let realtime: RealtimeResult | undefined;
  if (args.realtime) {
    realtime = await runRealtime({ quick: args.quick, only: args.only, botNodeArgs: args.botNodeArgs });
    process.stdout.write(`Real time, built bot (${realtime.settings}):\n${realtime.table}\n\n`);
  }
  let replicas: ReplicaResult | undefined;
  if (args.replicas && !args.quick && args.only.length === 0) {
    // The realtime part has built the bot already when it ran.
    replicas = await runReplicas({ build: !args.realtime });
    process.stdout.write(`Replicas on Redis, built bot (${replicas.settings}):\n${replicas.table}\n\n`);
  }
  process.stdout.write(`${machine}\n`);
  if (replicas && !args.virtual && !args.realtime) {
    // `--replicas` alone: its own section is replaced in place, the rest of the document stays.
    writeReplicaSection(replicaSection(replicas, machine));
    return;
  }
  // Only a whole run is recorded: a partial one would leave the document half old, half new.
  const whole =
    args.virtual && args.realtime && !args.quick && args.only.length === 0 && args.botNodeArgs.length === 0;
  if (!whole || !virtualTable || !realtime || !replicas) {
    process.stdout.write("(partial run: docs/BENCHMARKS.md left as it is)\n");
    return;
  }
  const doc = `# Benchmarks

\`npm run bench\` (bench/run.ts) runs three parts and writes this file. \`npm run bench -- --realtime\`
runs the second part only, \`--virtual\` the first only, \`--quick\` smaller loads, \`--rows=where,ack\`
chosen rows of the second part (rows: ${Object.keys(REALTIME_ROWS).join(", ")}); those print
without writing this file. \`--replicas\` runs the third part only and replaces its section here.
Before-and-after measurements made for single issues are in
[BENCHMARKS-HISTORY.md](BENCHMARKS-HISTORY.md), which no run rewrites.

Run on ${new Date().toISOString().slice(0, 10)}, ${machine}.

## Real time: the built bot

${realtimeNotes(realtime.settings)}

${realtime.table}

How to read it:
${REALTIME_READING}

## Virtual time: client, gate and runner

The real client, gate and task runner against the real
simulator over HTTP, in virtual time: simulator and gate read one shared clock, so a day of
30-second slots runs in seconds. Interval ${INTERVAL / 1000} s, safety margin ${MARGIN} ms. The
naive FIFO column runs the same load through one FIFO queue per account with the same spacing
and no priorities, no shared calls, no vehicle-list cache and no 429 retry. Because the
simulator reads the gate's own clock here, the "429s received" lines of this part cannot show
a skew between the two; the real-time part above counts real 429s.

${virtualTable}

How to read it:
- 1: the ratio is below 1 because the first call starts at once (39 gaps for 40 calls); the
  margin costs ${MARGIN} ms a slot (${fmt((MARGIN / INTERVAL) * 100, 1)} %).
- 2: the naive queue serves the lookup after every report call queued before it.
- 4: commands arrive at random (about five an hour per user: lookups, stops and fuel reports,
  transport lists), with a load-transports poll every 5 minutes at background priority.
- 6: a transport's transmission breaks just before a poll; the latency counts slots from the
  poll's start to the alert's post (the wait for the ALERTS_CRON tick itself is not included:
  at most 5 minutes with the default). 150 generated transports, of which the pending, in
  progress and paused ones are swept in pages of 100.
- 5: memory is the resident set of a fresh process holding the runner, the gate and the SQLite
  store after 1,000 tasks were submitted (25 per account are active, the rest wait in order);
  the line below it is the same process before the first submit.

${replicaSection(replicas, machine)}`;
  writeFileSync(BENCHMARKS, doc);
}

const BENCHMARKS = join(import.meta.dirname, "..", "docs", "BENCHMARKS.md");
const REPLICA_HEADING = "## Replicas on Redis: throughput, lookup wait, kill -9";

function replicaSection(result: ReplicaResult, machine: string): string {
  return `${REPLICA_HEADING}

Run on ${new Date().toISOString().slice(0, 10)}, ${machine}. ${replicaNotes(result.settings)}

${result.table}

How to read it:
${REPLICA_READING}
`;
}

/** Replaces the replica section (up to the next \`## \` heading) or appends it. */
function writeReplicaSection(section: string): void {
  const doc = existsSync(BENCHMARKS) ? readFileSync(BENCHMARKS, "utf8") : "# Benchmarks\n";
  const start = doc.indexOf(REPLICA_HEADING);
  if (start < 0) {
    writeFileSync(BENCHMARKS, `${doc.trimEnd()}\n\n${section}`);
    return;
  }
  const next = doc.indexOf("\n## ", start + REPLICA_HEADING.length);
  const rest = next < 0 ? "" : `\n${doc.slice(next + 1)}`;
  writeFileSync(BENCHMARKS, `${doc.slice(0, start)}${section}${rest}`);
}

await main();
process.exit(0);
