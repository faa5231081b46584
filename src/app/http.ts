import type { FleetbotMetrics } from "../platform/metrics.js";
import type { RunningSimulator } from "../simulator/index.js";
import type { AlertParts } from "./alerts.js";
import type { Backend } from "./backend/backend.js";
import type { Config } from "./config.js";
import { type HealthState, healthRoutes } from "./health.js";
import { alertSchedule, type SandboxFirstList, sandboxPage } from "./sandbox.js";
import type { SlackSettings } from "./slack.js";

/** The HTTP routes beside Slack's: health and metrics, and the sandbox page when it runs. */
export async function httpRoutes(
  config: Config,
  parts: {
    stores: Backend;
    metrics: FleetbotMetrics;
    alerts: AlertParts;
    service: { simulator?: RunningSimulator };
    slackSide: SlackSettings;
    firstList?: SandboxFirstList;
  },
) {
  const { stores, metrics, alerts, service, slackSide } = parts;
  const health: HealthState = { ready: false, slack: "starting" };
  const routes = healthRoutes(config, {
    health,
    stores,
    metrics,
    alerts,
    simulated: service.simulator !== undefined,
  });
  const sandbox = slackSide.fake
    ? await sandboxPage(slackSide.fake, service.simulator, {
        alertSchedule: alertSchedule(config, alerts, health),
        fleetStatus: () => parts.firstList?.status() ?? "ready",
      })
    : undefined;
  if (sandbox) routes.push(...sandbox.routes);
  return { health, routes, sandbox };
}
