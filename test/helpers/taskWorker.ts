/**
 * A fleetbot task process for crash tests: the real store, gate, client and runner with
 * the production handlers, against a simulator given by FLEET_API_URL. With SUBMIT (JSON
 * list of new tasks) it submits them first; it then resumes whatever is unfinished and
 * prints one JSON line per finished task. It exits when nothing is left to do.
 */

import { transportActionHandler } from "../../src/features/etransport/handlers/transportActions.js";
import { transportSaveHandler } from "../../src/features/etransport/handlers/transports.js";
import { FleetClient, type FleetSession } from "../../src/platform/fleet/client.js";
import { isUpstreamTransportError } from "../../src/platform/fleet/errors.js";
import { createFleetGate } from "../../src/platform/gate/fleetGate.js";
import { openDatabase } from "../../src/platform/store/database.js";
import { promised } from "../../src/platform/store/promised.js";
import { SqliteTaskStore } from "../../src/platform/store/taskStore.js";
import { describeTaskError as describeError } from "../../src/platform/tasks/failures.js";
import { TaskRunner } from "../../src/platform/tasks/runner.js";
import type { NewTask } from "../../src/platform/tasks/task.js";

const dataDir = process.env.DATA_DIR!;
const db = openDatabase(dataDir);
const store = new SqliteTaskStore(db);
const gate = createFleetGate({
  minIntervalMs: Number(process.env.FLEET_MIN_INTERVAL_MS ?? 100),
  safetyMarginMs: 20,
});
const client = new FleetClient({
  baseUrl: process.env.FLEET_API_URL!,
  apiVersion: "2.0",
  timeZone: "Europe/Bucharest",
  gate,
  timeoutMs: 10_000,
});
const runner = new TaskRunner<FleetSession>({
  store: promised(store),
  gate,
  handlers: [transportActionHandler, transportSaveHandler],
  sessionFor: async () => client.session({ username: "demo", password: "demo" }),
  describeError,
  isRetryable: isUpstreamTransportError,
  maxActivePerAccount: 1,
});
runner.on({
  finished: (task) => {
    process.stdout.write(
      `${JSON.stringify({ finished: task.id, state: task.state, result: task.result })}\n`,
    );
    runner.markDelivered(task.id);
  },
});
for (const task of JSON.parse(process.env.SUBMIT ?? "[]") as NewTask[]) {
  const { task: stored } = await runner.submit(task);
  process.stdout.write(`${JSON.stringify({ submitted: stored.id })}\n`);
}
await runner.resume();
await runner.idle();
db.close();
process.exit(0);
