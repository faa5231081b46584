import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AlertPoller, type TransportSource } from "../../../src/features/alerts/poller.js";
import type { AlertPublisher } from "../../../src/features/alerts/publisher.js";
import { createAlertWebClient, SlackAlertPublisher } from "../../../src/features/alerts/slackPublisher.js";
import { AlertSubscriptions } from "../../../src/features/alerts/subscriptions.js";
import { runUntilSettled } from "../../../src/platform/gate/virtualClock.js";
import { SqliteAlertStore } from "../../../src/platform/store/alertStore.js";
import { type Db, openDatabase } from "../../../src/platform/store/database.js";
import { promised } from "../../../src/platform/store/promised.js";
import { type FakeSlack, startFakeSlack } from "../../../src/sandbox/fakeSlack/index.js";
import type { SimulatorOptions, TransportControl } from "../../../src/simulator/index.js";
import { startFleetHarness } from "../../helpers/fleetHarness.js";

const silent = { info() {}, warn() {}, debug() {}, error() {} };

/**
 * The alert poller against the real simulator, client and gate (virtual time) and the fake
 * Slack Web API, with a real SQLite store in a temporary directory.
 */
export async function startAlertHarness(
  options: {
    sim?: SimulatorOptions;
    pollerSettings?: object;
    /** Wraps the fleet session the poller reads (to watch pages as they are answered). */
    wrapSession?: (session: TransportSource) => TransportSource;
  } = {},
) {
  const fleet = await startFleetHarness({ sim: { drift: false, ...options.sim } });
  const fake: FakeSlack = await startFakeSlack();
  const dataDir = mkdtempSync(join(tmpdir(), "fleetbot-alerts-it-"));
  const now = () => fleet.clock.now();
  const web = createAlertWebClient(fake.options.botToken, { slackApiUrl: fake.apiUrl });
  const slackPublisher = new SlackAlertPublisher({
    clientFor: async () => web,
    now,
    timeZone: "Europe/Bucharest",
    // Retry-After is waited out at once: the fake's rate limits here count calls, not time.
    sleep: async () => undefined,
  });
  // Slack calls are real I/O too: virtual time must not jump while one is under way, or a
  // post would seem to take a slot. `posted` records the virtual instant each post landed.
  let slackInFlight = 0;
  const posted: { codeUit: string; at: number }[] = [];
  const watched = async <T>(work: () => Promise<T>): Promise<T> => {
    slackInFlight++;
    try {
      return await work();
    } finally {
      slackInFlight--;
    }
  };
  const publisher: AlertPublisher = {
    post: (target, incident) =>
      watched(async () => {
        const answer = await slackPublisher.post(target, incident);
        posted.push({ codeUit: incident.codeUit, at: now() });
        return answer;
      }),
    markResolved: (target, ts, incident) => watched(() => slackPublisher.markResolved(target, ts, incident)),
    replyResolved: (target, ts, incident) =>
      watched(() => slackPublisher.replyResolved(target, ts, incident)),
    postDigest: (target, digest) => watched(() => slackPublisher.postDigest(target, digest)),
  };
  const sessions: { account: string; slackUser?: string; workspace: string }[] = [];

  const open = () => {
    const db: Db = openDatabase(dataDir);
    const store = new SqliteAlertStore(db, now);
    const subscriptions = new AlertSubscriptions(promised(store), now);
    const poller = new AlertPoller({
      store: promised(store),
      publisher,
      sessionFor: (who) => {
        sessions.push(who);
        return options.wrapSession ? options.wrapSession(fleet.session) : fleet.session;
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
    publisher: slackPublisher,
    posted,
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
      return runUntilSettled(
        fleet.clock,
        current.poller.runOnce(),
        () => fleet.gate.inFlight() > 0 || slackInFlight > 0,
      );
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
