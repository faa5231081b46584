import { createLogger } from "../platform/log.js";
import { FleetbotMetrics } from "../platform/metrics.js";
import { PendingAcks } from "../platform/slack/pendingAcks.js";
import { WorkspaceEvents } from "../platform/workspaces/events.js";
import { alertParts } from "./alerts.js";
import { openBackend } from "./backend/index.js";
import type { Config } from "./config.js";
import { accountUpkeep, fleetParts, startFleetService } from "./fleet.js";
import type { Fleetbot, StartOptions } from "./fleetbot.js";
import { httpRoutes } from "./http.js";
import { shutdown, startBackground } from "./lifecycle.js";
import { sandboxAlerts, sandboxFirstList } from "./sandbox.js";
import { scheduleParts } from "./schedules.js";
import { peopleParts, slackSettings, slackWorkspaces, startSlack } from "./slack.js";
import { taskDelivery, taskRunner } from "./tasks.js";
import { removeStoredData } from "./workspaceData.js";

export type { Fleetbot, StartOptions };

/**
 * The composition root: each part built once, in the order the next needs it. The backend is
 * chosen here and only here; every part below takes it as it is.
 */
export async function startFleetbot(config: Config, options: StartOptions = {}): Promise<Fleetbot> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const metrics = new FleetbotMetrics();
  const stores = await openBackend(config, logger);
  const service = await startFleetService(config, options);
  const { callDurations, gate, client, fleet } = await fleetParts(config, {
    stores,
    service,
    metrics,
    logger,
  });
  const slackSide = await slackSettings(config);
  // What happens to workspaces: each part that keeps something of one subscribes where it is built.
  const events = new WorkspaceEvents();
  removeStoredData(events, stores);
  const { workspaces, removal } = slackWorkspaces(config, slackSide, stores, logger, events);
  const { people, zones } = peopleParts(config, { stores, fleet, workspaces, events });
  // HTTP mode: tasks let the acks of the Slack requests being read go out first.
  const pendingAcks = new PendingAcks();
  // A lookup goes first when a burst's tasks are let go together.
  const beforeWork = (task: { priority: string }) => pendingAcks.settled(task.priority === "interactive");
  const { runner, queue } = taskRunner(config, {
    stores,
    gate,
    client,
    fleet,
    zones,
    logger,
    callDurations,
    beforeWork,
    events,
  });
  const upkeep = accountUpkeep(gate, fleet, logger, options.upkeepEveryMs ?? 15_000);
  const slackApiUrl = slackSide.apiUrl;
  const delivery = taskDelivery(config, { stores, runner, workspaces, slackApiUrl, options, logger });
  const sleep = options.alertSleep ? { sleep: options.alertSleep } : {};
  const clock = options.alertClock ? { now: options.alertClock } : {};
  const alerts = alertParts(config, {
    stores,
    fleet,
    client,
    metrics,
    workspaces,
    logger,
    ...sleep,
    ...clock,
  });
  const schedules = scheduleParts(config, {
    ...{ stores, runner, gate, people, alerts, workspaces, logger },
    ...(options.scheduleClock ? { now: options.scheduleClock } : {}),
  });
  // The sandbox: the demo account's vehicle list comes first (login, then company-vehicles).
  const firstList = slackSide.fake ? sandboxFirstList(fleet) : undefined;
  const { health, routes, sandbox } = await httpRoutes(config, {
    ...{ stores, metrics, alerts, service, slackSide },
    ...(firstList ? { firstList } : {}),
  });
  const slack = await startSlack(config, {
    ...{ stores, client, fleet, runner, delivery, alerts, schedules, people, workspaces, events },
    ...{ slackSide, routes, pendingAcks, sandbox, health, logger, ...(removal ? { removal } : {}) },
  });
  const background = await startBackground(config, {
    ...{ stores, runner, queue, alerts, fleet, options, sandboxed: !!slackSide.fake, health, logger },
    ...(firstList ? { firstList: firstList.start() } : {}),
    ...(slackSide.fake
      ? {
          sandboxAlerts: sandboxAlerts(
            alerts.subscriptions,
            stores.zones,
            service.simulator,
            stores.schedules,
          ),
        }
      : {}),
  });
  if (options.schedulePolling !== false) schedules.start();
  health.ready = true;
  const running = {
    ...{ health, upkeep, background, alerts, schedules, runner, delivery, sandbox, slack, queue, gate },
  };
  return {
    ...{ config, logger, fleetUrl: service.url, simulator: service.simulator, fakeSlack: slackSide.fake },
    ...{
      client,
      accounts: fleet,
      upkeep: upkeep.upkeep,
      runner,
      tasks: stores.tasks,
      vehicles: fleet.vehicles,
    },
    ...{ metrics, slack, alerts: alerts.poller, delivery, url: slack.url },
    schedules: { tick: () => schedules.tick(), runs: schedules.runs },
    // Single-workspace mode removes nothing: always idle.
    removal: removal ?? { idle: async () => {} },
    close: () => shutdown({ ...running, slackSide, service, stores }),
  };
}
