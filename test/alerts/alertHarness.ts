import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AlertPoller } from "../../src/alerts/poller.js";
import { createAlertWebClient, SlackAlertPublisher } from "../../src/alerts/slackPublisher.js";
import { AlertSubscriptions } from "../../src/alerts/subscriptions.js";
import { type FakeSlack, startFakeSlack } from "../../src/sandbox/fakeSlack/index.js";
import type { SimulatorOptions, TransportControl } from "../../src/simulator/index.js";
import { AlertStore } from "../../src/store/alertStore.js";
import { type Db, openDatabase } from "../../src/store/database.js";
import { startFleetHarness } from "../helpers/fleetHarness.js";

const silent = { info() {}, warn() {}, debug() {}, error() {} };

/**
 * The alert poller against the real simulator, client and gate (virtual time) and the fake
 * Slack Web API, with a real SQLite store in a temporary directory.
 */
export async function startAlertHarness(options: { sim?: SimulatorOptions; pollerSettings?: object } = {}) {
  const fleet = await startFleetHarness({ sim: { drift: false, ...options.sim } });
  const fake: FakeSlack = await startFakeSlack();
  const dataDir = mkdtempSync(join(tmpdir(), "fleetbot-alerts-it-"));
  const now = () => fleet.clock.now();
  const web = createAlertWebClient(fake.options.botToken, { slackApiUrl: fake.apiUrl });
  const publisher = new SlackAlertPublisher({ client: web, now, timeZone: "Europe/Bucharest" });
  const sessions: { account: string; slackUser?: string }[] = [];

  const open = () => {
    const db: Db = openDatabase(dataDir);
    const store = new AlertStore(db, now);
    const subscriptions = new AlertSubscriptions(store, now);
    const poller = new AlertPoller({
      store,
      publisher,
      sessionFor: (who) => {
        sessions.push(who);
        return fleet.session;
      },
      now,
      logger: silent,
      timeZone: "Europe/Bucharest",
      ...(options.pollerSettings ? { settings: options.pollerSettings } : {}),
    });
    return { db, store, subscriptions, poller };
  };

  let current = open();
  const harness = {
    fleet,
    fake,
    publisher,
    sessions,
    get store() {
      return current.store;
    },
    get subscriptions() {
      return current.subscriptions;
    },
    get poller() {
      return current.poller;
    },
    /** One poll, driving virtual time while it waits in the gate. */
    poll() {
      return fleet.run(current.poller.runOnce());
    },
    /** Moves virtual time on (between polls). */
    advance(ms: number) {
      return fleet.clock.advanceBy(ms);
    },
    /** Like a process restart: new database handle, store and poller on the same file. */
    restart() {
      current.db.close();
      current = open();
    },
    /** The simulator's control endpoint, over HTTP. */
    async control(codeUit: string, body: TransportControl): Promise<void> {
      const answer = await fetch(`${fleet.sim.url}/__control/transports/${encodeURIComponent(codeUit)}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (!answer.ok) throw new Error(`control ${codeUit}: ${answer.status} ${await answer.text()}`);
    },
    /** An In Progress transport with an Active transmission, no change request and a long validity. */
    healthyTransport(skip: readonly string[] = []) {
      const t = fleet.sim.control
        .transports()
        .find(
          (x) =>
            x.statusId === 2 &&
            !x.pinnedTransmission &&
            !x.changeRequest &&
            x.validityEndDate - now() > 2 * 86_400_000 &&
            !skip.includes(x.codeUit),
        );
      if (!t) throw new Error("no healthy In Progress transport in the simulator");
      return t;
    },
    /** Top-level (not thread) bot messages of a channel. */
    alerts(channel: string) {
      return fake.messages(channel).filter((m) => m.threadTs === undefined);
    },
    replies(channel: string) {
      return fake.messages(channel).filter((m) => m.threadTs !== undefined);
    },
    async close() {
      await current.poller.stop();
      current.db.close();
      await fake.close();
      await fleet.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

export type AlertHarness = Awaited<ReturnType<typeof startAlertHarness>>;
