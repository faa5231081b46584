/**
 * Alert benchmarks (called from bench/run.ts): the real poller, client, gate and simulator
 * in virtual time, with the fake Slack Web API and a real SQLite store.
 *
 * - latencySlots: from a transmission status change to the alert's chat.postMessage, when
 *   the poll tick comes right after the change (the cron interval itself is not counted),
 *   in gate slots (interval + margin).
 * - callsPerSweep: load-transports calls of one sweep over 150 generated transports (plus
 *   the demo set); the goal is `pages` = ceil(listed / 100), no more.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AlertPoller } from "../src/features/alerts/poller.js";
import type { AlertPublisher } from "../src/features/alerts/publisher.js";
import { createAlertWebClient, SlackAlertPublisher } from "../src/features/alerts/slackPublisher.js";
import { AlertSubscriptions } from "../src/features/alerts/subscriptions.js";
import { FleetClient } from "../src/platform/fleet/client.js";
import { createFleetGate } from "../src/platform/gate/fleetGate.js";
import { runUntilSettled, VirtualClock } from "../src/platform/gate/virtualClock.js";
import { SqliteAlertStore } from "../src/platform/store/alertStore.js";
import { openDatabase } from "../src/platform/store/database.js";
import { promised } from "../src/platform/store/promised.js";
import { startFakeSlack } from "../src/sandbox/fakeSlack/index.js";
import { startSimulator } from "../src/simulator/index.js";

const INTERVAL = 30_000;
const MARGIN = 250;
const ZONE = "Europe/Bucharest";
const START = Date.UTC(2026, 10, 3, 6, 0, 0);
const PAGE_SIZE = 100;

export async function alertBenchmarks(): Promise<{
  latencySlots: number;
  callsPerSweep: number;
  pages: number;
}> {
  const clock = new VirtualClock(START);
  const now = () => clock.now();
  const sim = await startSimulator({
    port: 0,
    minIntervalMs: INTERVAL,
    control: true,
    drift: false,
    transportCount: 150,
    now,
  });
  const gate = createFleetGate({ minIntervalMs: INTERVAL, safetyMarginMs: MARGIN, clock });
  const client = new FleetClient({ baseUrl: sim.url, apiVersion: "2.0", timeZone: ZONE, gate, now });
  const session = client.session({ username: "demo", password: "demo" });
  const fake = await startFakeSlack();
  const dataDir = mkdtempSync(join(tmpdir(), "fleetbot-bench-alerts-"));
  const db = openDatabase(dataDir);
  try {
    const store = new SqliteAlertStore(db, now);
    const alertClient = createAlertWebClient(fake.options.botToken, { slackApiUrl: fake.apiUrl });
    const slack = new SlackAlertPublisher({
      clientFor: async () => alertClient,
      now,
      timeZone: ZONE,
    });
    const postedAt = new Map<string, number>();
    const publisher: AlertPublisher = {
      post: async (channel, incident) => {
        const answer = await slack.post(channel, incident);
        postedAt.set(incident.codeUit, now());
        return answer;
      },
      markResolved: (channel, ts, incident) => slack.markResolved(channel, ts, incident),
      replyResolved: (channel, ts, incident) => slack.replyResolved(channel, ts, incident),
    };
    const silent = { info() {}, warn() {}, debug() {}, error() {} };
    const poller = new AlertPoller({
      store: promised(store),
      publisher,
      sessionFor: () => session,
      now,
      logger: silent,
    });
    await new AlertSubscriptions(promised(store), now).subscribe("C0GENERAL", "demo", "U0DISPATCH");
    const poll = () => runUntilSettled(clock, poller.runOnce(), () => gate.inFlight() > 0);

    // A first poll logs in and opens the demo fleet's standing problems.
    await poll();
    const listed = sim.control.transports().filter((t) => [1, 2, 6].includes(t.statusId)).length;
    const pages = Math.ceil(listed / PAGE_SIZE);

    // Five minutes later (the default ALERTS_CRON) a transmission fails right before the tick.
    await clock.advanceBy(5 * 60_000);
    const target = sim.control
      .transports()
      .find((t) => t.statusId === 2 && !t.pinnedTransmission && !t.changeRequest);
    if (!target) throw new Error("no healthy In Progress transport");
    const before = sim.control.stats().requests.demo?.["load-transports"] ?? 0;
    const changedAt = now();
    sim.control.setTransport(target.codeUit, { transmissionStatusCode: "NoGPSCoordinates" });
    const result = await poll();
    const callsPerSweep = (sim.control.stats().requests.demo?.["load-transports"] ?? 0) - before;
    const posted = postedAt.get(target.codeUit);
    if (posted === undefined || result.accounts[0]?.sweep?.complete !== true) {
      throw new Error("the alert was not posted");
    }
    const latencySlots = Math.round(((posted - changedAt) / gate.slotMs("demo")) * 100) / 100;
    return { latencySlots, callsPerSweep, pages };
  } finally {
    db.close();
    rmSync(dataDir, { recursive: true, force: true });
    await gate.close();
    await fake.close();
    await sim.close();
  }
}

// `npx tsx bench/alerts.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  alertBenchmarks().then(
    (r) => console.log(JSON.stringify(r)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
