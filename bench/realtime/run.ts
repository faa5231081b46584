/**
 * The real-time part of `npm run bench`: builds the bot, then measures issue 12's table row
 * by row on `node dist/main.js` (see rows.ts). Returns the table as markdown rows.
 */
import { spawnSync } from "node:child_process";
import { WORKSPACES_READING, workspaceRows } from "../workspaces.js";
import { INTERVAL_MS, MARGIN_MS, REPO, SLOT_MS } from "./harness.js";
import {
  ackLatency,
  ackLatencyRomanian,
  alertDuringReport,
  alertFourPages,
  bigQueue,
  estimateAccuracy,
  fortyDayStops,
  IN_SERVICE_AFTER,
  MEASURED_BURSTS,
  marginAfter429,
  memory,
  type RealtimeRow,
  type RowOptions,
  renewalUnderLoad,
  vehicleWatchSweep,
  WATCH_CUTS,
  WATCH_SUBSCRIBE,
  WATCH_VEHICLES,
  WATCH_WAVE,
  WATCH_WAVE_GAP_MS,
  WATCH_WAVES,
  whereBehindReports,
} from "./rows.js";
import { SCHEDULES_READING, schedulesAtOneMinute } from "./schedules.js";

export const REALTIME_ROWS: Record<string, (o: RowOptions) => Promise<RealtimeRow[]>> = {
  where: whereBehindReports,
  "alert-report": alertDuringReport,
  "alert-pages": alertFourPages,
  margin: marginAfter429,
  ack: ackLatency,
  "ack-ro": ackLatencyRomanian,
  memory,
  queue: bigQueue,
  stops40: fortyDayStops,
  estimate: estimateAccuracy,
  renewal: renewalUnderLoad,
  workspaces: workspaceRows,
  "vehicle-watch": vehicleWatchSweep,
  schedules: schedulesAtOneMinute,
};

export interface RealtimeResult {
  table: string;
  settings: string;
}

export function buildBot(): void {
  const build = spawnSync("npm", ["run", "build"], { cwd: REPO, encoding: "utf8" });
  if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
}

/** Runs the chosen rows (default all) one after the other; a failing row is reported, not fatal. */
export async function runRealtime(options: RowOptions & { only?: string[] }): Promise<RealtimeResult> {
  buildBot();
  const rows: RealtimeRow[] = [];
  const names = options.only?.length ? options.only : Object.keys(REALTIME_ROWS);
  for (const name of names) {
    const measure = REALTIME_ROWS[name];
    if (!measure) throw new Error(`unknown row ${name}; rows: ${Object.keys(REALTIME_ROWS).join(", ")}`);
    const started = performance.now();
    process.stderr.write(`realtime: ${name}…\n`);
    try {
      rows.push(...(await measure(options)));
    } catch (error) {
      rows.push({ row: name, figure: "—", goal: "—", result: `error: ${String(error)}`, naive: "—" });
    }
    process.stderr.write(`realtime: ${name} done in ${Math.round((performance.now() - started) / 1000)} s\n`);
  }
  const table = [
    "| row | figure | goal | fleetbot (built, real time) | naive FIFO |",
    "|---|---|---|---|---|",
    ...rows.map((r) => `| ${r.row} | ${r.figure} | ${r.goal} | ${r.result} | ${r.naive} |`),
  ].join("\n");
  const settings = `interval ${INTERVAL_MS} ms, margin ${MARGIN_MS} ms, slot ${SLOT_MS} ms${options.quick ? ", quick mode (smaller loads)" : ""}`;
  return { table, settings };
}

export function realtimeNotes(settings: string): string {
  return `\`node dist/main.js\` (built by the bench first) as a child process, against the fleet
simulator (real clock, so it enforces the spacing with real 429s on its own clock) and the fake
Slack, both in the bench process, over loopback HTTP. The bot is driven only through signed Slack
requests (SlackDriver; the load client of row 5 signs the same way in its own process); answers
are read from the fake Slack's records, upstream calls from the simulator's request log.
Settings: ${settings}; "slots" are measured times ÷ slot. Each row starts a fresh simulator,
fake Slack and bot (fresh DATA_DIR), and gives "timeout" instead of hanging. The naive FIFO
figure of row 1 is what a FIFO queue with the same spacing would wait on the same load: every
report call not yet sent when the \`where\` arrived, plus its own.`;
}

export const REALTIME_READING = `- 1: the account's first \`where\` warms the token and vehicle list; then N different
  \`stops all yesterday min=…\` (28 vehicles: 3 calls each) are acknowledged one after the
  other, then one \`where\`; the figure is command → its answer on the response_url.
- 2, 3: alerts polled by \`ALERTS_CRON\` every ${20} s (seconds field) for \`ALERTS_CHANNEL\`. After the
  startup sweep, one In Progress transport on the sweep's first page is set to NoGPSCoordinates
  (simulator control) 1 s before a tick; the figure is that tick → the alert's
  chat.postMessage. Row 2 acknowledges \`fuel <20 vehicles> last 300d\` (2 × 10 = 20 calls) 3 s
  before the tick; row 3 has 520 generated transports (the sweep reads 4 pages of 100).
- 4: \`fuel all last 366d\` (36 calls); the simulator answers one of them 429 (a fault,
  Retry-After 1 s, which does not move its window) after 12 calls and again 12 calls later. Slot
  lengths are gaps between the simulator's arrival times of successive calls ("before": the
  three gaps before the first 429; "after": the gaps after the retry). "429s not forced"
  are real 429s the bot drew from the simulator's own spacing check.
- 5: N signed \`/fleet where <plate>\` forms (3 users, 28 plates) sent at once by a child process;
  the figure is the HTTP acknowledgement time it sees. The client signs every form before its
  clock starts, sends each on a connection of its own through node:http and first warms its own
  code with 20 requests to /healthz (global fetch cost the client 60–180 ms per burst by itself).
  Each N gets a fresh bot: its first burst comes right after its start, while V8 still
  interprets the code (it compiles what runs often); then bursts of 50 until the bot has
  answered ${IN_SERVICE_AFTER} commands, as a bot in service has; then ${MEASURED_BURSTS} measured bursts of N, each answered
  before the next: the median burst's p50 and p99 are given, and the worst p99 (one burst's
  p99 moves by half between runs on this shared machine). The goals are the bot in service's.
  "Bot CPU per ack" is the bot process's user + system time (/proc/<pid>/stat, read by the
  client) from the first request sent to the last ack read, ÷ N; "per command, ack and answer"
  runs to the last answer.
- 6: VmRSS of the bot process (/proc/<pid>/status) 2 s after the last of N distinct one-call
  reports was acknowledged (8 in flight at a time); the chart line renders
  \`temps <chilled reefer> yesterday\` first and reads the RSS 2 s after its file was shared.
- 7: the tasks are written with SqliteTaskStore.create into a fresh DATA_DIR before the start (sending
  20,000 commands through Slack would take longer than the bench); the bot is started, asked
  \`/fleet queue\`, stopped with SIGTERM and started again on the same directory. "listening" is
  the bot's own log line, written after the store was opened and the queue resumed.
- 8: one report first (calls counted from the simulator's stats); the same report again two
  slots later (a period running until now ends at a whole minute, so it is the same request, and
  the gate reuses a history answer for that minute); then, from the start of the next minute (a
  new period end, which the answers above cannot serve), 10 identical ones sent 1 s apart, all
  answered. A burst that straddles a minute boundary costs the calls of two reports.
- 9: commands at random (a mean gap of 2.5 s, so a queue builds): \`where\` 55 %, two-vehicle
  stops 25 %, one-vehicle fuel up to 61 days 15 %, stops for all 5 %. Actual is command →
  answer. The worded estimate is the "about …" of the ack (whole seconds, minutes from 60 s
  on); below a second the ack says "under a second", a bound counted on its own line (it holds
  or it does not). The ms estimate is the one the ack was worded from (the runner's debug log):
  the next call's expected start, one slot per call after it, the typical answer time, and the
  bot's own measured start and delivery time. A \`where\` answered from the cached vehicle list
  says "answering now" (no estimate needed).
- 10: the simulator gives ${20}-second tokens (the bot renews one 10 s after its login: its renewal
  margin is capped at half the lifetime); after the warm-up \`where\`, N different
  \`stops all yesterday min=…\` are queued. From the first report call on, the simulator's arrival
  times of the account's requests over three token lifetimes: the largest gap between two of them,
  against one slot plus one login's answer time (a login as another user, timed before the bot
  starts); and the logins among them, and the requests the service refused.
${WORKSPACES_READING}
- 12: \`--rows=vehicle-watch\` (issue 32). Two fresh environments, each with a simulator of ${WATCH_VEHICLES}
  vehicles (its \`vehicleCount\`; the demo set's 12 transports) and the bot with ALERTS_CRON every ${20} s.
  Typed in #alerts: (a) \`/fleet alerts subscribe\` (today's transport-only sweep: one
  load-transports page); (b) \`/fleet zones add Depou <București depot>\` and
  \`/fleet ${WATCH_SUBSCRIBE}\`: every vehicle kind and every transport code, so (b) gets what
  (a) gets (naming only vehicle kinds would filter the transport alerts out, and \`all\` is "no
  filter", transport kinds only). (b)'s sweep adds one company-vehicles and one temperatures call
  and evaluates every vehicle against every watch. After the first sweep (the demo set's own
  alerts) and ${IN_SERVICE_AFTER} answered \`where\` (a bot in service, as row 5), four measured ticks: a
  quiet one, one with \`where\` waves, again both (one each in quick mode). A second before each
  measured tick an In Progress transport (one of the demo set's, a different one each tick) is set
  to NoGPSCoordinates and ${WATCH_CUTS} vehicles (new ones each tick) have their power cut (simulator
  control), so both post the transport's alert and (b) the power-cut storm as well: more than 5
  in one sweep are one grouped post with each vehicle's alert as a reply in its thread (so
  "posts" counts chat.postMessage calls, replies included). The sweep's end is its "alert poll"
  log line (written after the account's last post); "last alert post" is the last
  chat.postMessage or chat.update to #alerts between the tick and that line. Bot CPU is
  /proc/<pid>/stat from 0.3 s before the tick to that line, on the quiet ticks; "idle over as
  long" is the bot's CPU rate over the 3 s before the tick times the same length. The waves:
  ${WATCH_WAVES} × ${WATCH_WAVE} signed \`/fleet where <plate>\` (3 users, ${WATCH_VEHICLES} plates), ${WATCH_WAVE_GAP_MS} ms apart
  from the tick on, sent by the load client of row 5 in its own process; p99 over both loaded
  ticks' acks. Variants (a) and (b) get the same stimulus and the same schedule; (b)/(a) is given
  for each figure. The demo fleet also shows alerts by itself in (b) (vans faster than 90 km/h,
  arrivals at the depot zone, at night driving after hours), posted in the measured sweeps too
  when they happen then.
${SCHEDULES_READING}
- The machine is shared (the load average at the start of the run is given above the tables):
  timings, rows 5 and 7 above all, vary from run to run.`;
