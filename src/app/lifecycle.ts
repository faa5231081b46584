import type { FleetAccounts } from "../platform/accounts/fleetAccounts.js";
import type { FleetSession } from "../platform/fleet/client.js";
import type { Logger } from "../platform/log.js";
import type { RunningSlackApp } from "../platform/slack/app.js";
import type { TaskDelivery } from "../platform/slack/delivery.js";
import type { TaskRunner } from "../platform/tasks/runner.js";
import type { RunningSimulator } from "../simulator/index.js";
import type { AlertParts } from "./alerts.js";
import type { Backend, SharedTaskQueue } from "./backend/backend.js";
import type { Config } from "./config.js";
import type { StartOptions } from "./fleetbot.js";
import type { HealthState } from "./health.js";
import type { SlackSettings } from "./slack.js";

/** Stops everything startFleetbot started, the work first and the stores last. */
export async function shutdown(parts: {
  health: HealthState;
  upkeep: { stop(): void };
  background: { stop(): void };
  alerts: AlertParts;
  schedules: { stop(): Promise<void> };
  runner: TaskRunner<FleetSession>;
  delivery: TaskDelivery;
  sandbox: { close(): void } | undefined;
  slack: RunningSlackApp;
  queue: { close(): Promise<void> } | undefined;
  gate: { close(): Promise<void> };
  slackSide: SlackSettings;
  service: { simulator?: RunningSimulator };
  stores: Backend;
}): Promise<void> {
  parts.health.ready = false;
  parts.upkeep.stop();
  parts.background.stop();
  await parts.alerts.poller.stop();
  await parts.schedules.stop();
  await parts.runner.stop();
  parts.delivery.stop();
  // Open event streams of the sandbox page would keep the HTTP server from closing.
  parts.sandbox?.close();
  await parts.slack.stop();
  await parts.queue?.close();
  await parts.alerts.schedule?.close();
  await parts.gate.close();
  await parts.slackSide.fake?.close();
  await parts.service.simulator?.close();
  await parts.stores.close();
}

// ---------------------------------------------------------------------------------------------
// The pieces, in the order startFleetbot uses them.

/** What runs on its own once the bot listens: resumed tasks, retention, the store probe, alerts. */
export async function startBackground(
  config: Config,
  parts: {
    stores: Backend;
    runner: TaskRunner<FleetSession>;
    queue?: SharedTaskQueue;
    alerts: AlertParts;
    fleet: FleetAccounts;
    options: StartOptions;
    sandboxed: boolean;
    /** The sandbox's #alerts subscription and demo zone, made in a fresh store (absent: not the sandbox). */
    sandboxAlerts?: (account: string) => Promise<void>;
    /** The sandbox's first vehicle list: the alert checks wait for it (settles either way). */
    firstList?: Promise<void>;
    health: HealthState;
    logger: Logger;
  },
): Promise<{ stop(): void }> {
  const { stores, runner, alerts, fleet, options } = parts;
  await runner.resume();
  stores.retention.start();
  // A full or read-only disk is probed every 10 s until it takes writes; then interrupted tasks resume.
  stores.health.onRecovered(() => {
    runner.resume().catch((error: unknown) => parts.logger.error({ err: error }, "resuming tasks failed"));
  });
  const storeProbe = setInterval(() => stores.health.check(), 10_000);
  storeProbe.unref();
  // ALERTS_CHANNEL: alerts of the workspace account without anyone typing a command. In the
  // sandbox (no ALERTS_CHANNEL) the fake #alerts gets the demo account's through an ordinary
  // subscription: nobody set anything, so nothing in chat may be refused in a setting's name.
  const workspace = fleet.workspaceAccount?.username;
  if (config.alerts.channel && workspace)
    await alerts.subscriptions.ensureWorkspaceSubscription(config.alerts.channel, workspace);
  else if (parts.sandboxAlerts && workspace) await parts.sandboxAlerts(workspace);
  // Redis mode: this replica's workers take task jobs from now on (resumed ones included).
  await parts.queue?.start();
  let stopped = false;
  const startAlerts = async () => {
    if (stopped) return;
    parts.health.alertsSince = Date.now();
    if (alerts.schedule) {
      await alerts.schedule.start();
    } else {
      alerts.poller.start(config.alerts.cron);
      if (config.alerts.digestCron) alerts.poller.startDigest(config.alerts.digestCron);
    }
  };
  if (options.alertPolling !== false) {
    if (parts.firstList)
      void parts.firstList.then(startAlerts).catch((error: unknown) => {
        parts.logger.error({ err: error }, "starting the alert checks failed");
      });
    else await startAlerts();
  }
  return {
    stop() {
      stopped = true;
      clearInterval(storeProbe);
      stores.retention.stop();
    },
  };
}
