/**
 * Benchmark 5 in a process of its own: submit 1,000 tasks to a real TaskRunner with its
 * SQLite store and gate, then report the time taken and the resident memory as JSON.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { createFleetGate } from "../src/platform/gate/fleetGate.js";
import type { AccountGate } from "../src/platform/gate/gate.js";
import { VirtualClock } from "../src/platform/gate/virtualClock.js";
import { openDatabase } from "../src/platform/store/database.js";
import { promised } from "../src/platform/store/promised.js";
import { SqliteTaskStore } from "../src/platform/store/taskStore.js";
import { type TaskHandler, TaskRunner } from "../src/platform/tasks/runner.js";
import { NaiveFifoGate } from "./naiveFifoGate.js";

const mode = process.argv[2] === "naive" ? "naive" : "fleetbot";
const INTERVAL = 30_000;
const dir = mkdtempSync(join(tmpdir(), "fleetbot-bench-"));
const clock = new VirtualClock();
const gate: AccountGate =
  mode === "fleetbot"
    ? createFleetGate({ minIntervalMs: INTERVAL, clock })
    : new NaiveFifoGate(INTERVAL, clock);
const db = openDatabase(dir);
const handler: TaskHandler<{ vehicleIds: number[]; day: number }, number, null> = {
  kind: "stops",
  params: z.object({ vehicleIds: z.array(z.number()), day: z.number() }),
  run: (ctx) =>
    gate.run({ account: "demo", endpoint: "stops", context: ctx.call }, async () => ctx.params.day),
};
const runner = new TaskRunner<null>({
  store: promised(new SqliteTaskStore(db, () => clock.now())),
  gate,
  handlers: [handler],
  sessionFor: async () => null,
  describeError: (e) => ({ kind: "bench", message: String(e) }),
  now: () => clock.now(),
});
const baseline = process.memoryUsage().rss;
const started = performance.now();
for (let i = 0; i < 1000; i++) {
  runner.submit({
    kind: "stops",
    params: { vehicleIds: [i % 28], day: i },
    account: "demo",
    slackUser: `U${i % 8}`,
    reply: { channel: "C0GENERAL", responseUrl: `https://hooks.slack.com/commands/T0/${i}/x` },
    priority: "report",
  });
}
const enqueueMs = performance.now() - started;
await new Promise((resolve) => setImmediate(resolve));
const rss = process.memoryUsage().rss;
await runner.stop();
await gate.close();
db.close();
rmSync(dir, { recursive: true, force: true });
process.stdout.write(
  `${JSON.stringify({ enqueueMs, rssMb: rss / 2 ** 20, baselineMb: baseline / 2 ** 20 })}\n`,
);
