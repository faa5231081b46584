/**
 * The real-time part of `npm run bench`: builds the bot, then measures issue 12's table row
 * by row on `node dist/main.js` (see rows.ts). Returns the table as markdown rows.
 */
import { spawnSync } from "node:child_process";
import { INTERVAL_MS, MARGIN_MS, REPO, SLOT_MS } from "./harness.js";
import {
  ackLatency,
  alertDuringReport,
  alertFourPages,
  bigQueue,
  estimateAccuracy,
  fortyDayStops,
  marginAfter429,
  memory,
  type RealtimeRow,
  type RowOptions,
  whereBehindReports,
} from "./rows.js";

export const REALTIME_ROWS: Record<string, (o: RowOptions) => Promise<RealtimeRow[]>> = {
  where: whereBehindReports,
  "alert-report": alertDuringReport,
  "alert-pages": alertFourPages,
  margin: marginAfter429,
  ack: ackLatency,
  memory,
  queue: bigQueue,
  stops40: fortyDayStops,
  estimate: estimateAccuracy,
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

export const REALTIME_READING = "TODO";
