import cron from "node-cron";
import { countingPublisher } from "../features/alerts/countingPublisher.js";
import { AlertPoller } from "../features/alerts/poller.js";
import { SlackAlertPublisher } from "../features/alerts/slackPublisher.js";
import { AlertSubscriptions } from "../features/alerts/subscriptions.js";
import { resolveLanguage } from "../i18n/resolve.js";
import type { FleetAccounts } from "../platform/accounts/fleetAccounts.js";
import { type FleetClient, FleetSession } from "../platform/fleet/client.js";
import type { Logger } from "../platform/log.js";
import type { FleetbotMetrics } from "../platform/metrics.js";
import type { Workspaces } from "../platform/workspaces/registry.js";
import { workspaceClient } from "../platform/workspaces/registry.js";
import type { Backend } from "./backend/backend.js";
import type { Config } from "./config.js";

/** Subscriptions, the Slack publisher (counted for /metrics) and the ALERTS_CRON poller. */
export type AlertParts = ReturnType<typeof alertParts>;

/** The poller's sources are FleetAccounts' sessions (sessionFor below). */
function fleetSession(source: unknown): FleetSession {
  if (source instanceof FleetSession) return source;
  throw new Error("vehicle watch needs a fleet session");
}

export function alertParts(
  config: Config,
  parts: {
    stores: Backend;
    fleet: FleetAccounts;
    /** The fleet client: its call limits size the temperatures call. */
    client: Pick<FleetClient, "plan">;
    metrics: FleetbotMetrics;
    workspaces: Workspaces;
    logger: Logger;
    sleep?: (ms: number) => Promise<void>;
    /** The sweeps' clock (StartOptions.alertClock). */
    now?: () => number;
  },
) {
  const { stores, fleet, metrics, logger } = parts;
  // node-cron's own messages (an overlapping tick skipped…) go to the one log stream, at debug:
  // the poller already logs the skip in its own words.
  const cronLog = logger.child({ module: "node-cron" });
  cron.setLogger({
    info: (message) => cronLog.debug(message),
    warn: (message) => cronLog.debug(message),
    error: (message, err) => cronLog.error({ err: err ?? message }, String(message)),
    debug: (message) => cronLog.debug(String(message)),
  });
  const subscriptions = new AlertSubscriptions(stores.alerts, Date.now, stores.zones);
  const publisher = new SlackAlertPublisher({
    clientFor: (key) => workspaceClient(parts.workspaces, key, "alerts"),
    timeZone: config.companyTimeZone,
    // An alert's language: its subscription's lang=, else the workspace's default, else DEFAULT_LANGUAGE.
    languageFor: async ({ workspace, channel, account }) =>
      (account === undefined ? undefined : await stores.alerts.subscription(channel, account, workspace))
        ?.language ??
      (await stores.settings.workspaceLanguage(workspace)) ??
      config.defaultLanguage,
    // A direct message (alerts paused): the one resolution order (i18n/resolve.ts), without the
    // Slack locale, which a sweep does not ask Slack for.
    userLanguage: async (workspace, userId) =>
      resolveLanguage({
        user: await stores.settings.userLanguage(workspace, userId),
        workspace: await stores.settings.workspaceLanguage(workspace),
        configured: config.defaultLanguage,
      }),
    ...(parts.sleep ? { sleep: parts.sleep } : {}),
  });
  const poller = new AlertPoller({
    ...(parts.now ? { now: parts.now } : {}),
    store: stores.alerts,
    publisher: countingPublisher(publisher, metrics.alertPosts),
    sessionFor: (who) => fleet.sessionFor(who),
    // A paused channel is told once, on any replica (memory of this process without Redis).
    ...(stores.sharedState ? { notices: stores.sharedState } : {}),
    timeZone: config.companyTimeZone,
    logger: logger.child({ module: "alerts" }),
    groupOver: config.alerts.groupOver,
    vehicleWatch: {
      zonesOf: (workspaces) => stores.zones.zonesOf(workspaces),
      // Fresh, and kept in the cache for `where` and the pickers (bound to these credentials).
      vehicles: async (source, ctx) => (await fleet.vehicles.get(fleetSession(source), ctx, 0)).vehicles,
      temperatures: (source, params, ctx) => fleetSession(source).temperaturesOnce(params, ctx),
      // The first planned call holds as many vehicles as one call may name (learned limits included).
      temperaturesCapacity: (params) => {
        const [first, second] = parts.client.plan("temperatures", params);
        return second === undefined ? undefined : first?.vehicleIds.length;
      },
      timeZone: config.companyTimeZone,
    },
    // A transport fleetbot removed itself is gone, not hidden in Error (the audit trail knows).
    removedByFleetbot: async (account, codeUit) =>
      (await stores.audit.history(account, codeUit, 50)).entries.some(
        // Only a remove the service confirmed: after a timeout the transport may still be there
        // (maybe in Error), and a false red alert costs less than a false all-clear.
        (e) => e.action === "remove" && e.outcome === "success",
      ),
  });
  // Redis mode: one sweep per ALERTS_CRON tick over all replicas (a BullMQ job scheduler), not one per replica.
  const schedule = stores.alertSchedule?.({
    cron: config.alerts.cron,
    ...(config.alerts.digestCron ? { digestCron: config.alerts.digestCron } : {}),
    timeZone: config.companyTimeZone,
    // Aborted when this replica loses the sweep: nothing more is posted by it.
    sweep: (signal) => poller.runOnce({ signal }),
    digest: () => poller.runDigest(),
    logger: logger.child({ module: "alerts" }),
  });
  return { subscriptions, publisher, poller, schedule };
}
