import { cronTickMs, sweepHealth } from "../features/alerts/sweepHealth.js";
import type { FleetbotMetrics } from "../platform/metrics.js";
import type { HttpRoute } from "../platform/slack/app.js";
import type { AlertParts } from "./alerts.js";
import type { Backend } from "./backend/backend.js";
import type { Config } from "./config.js";

export interface HealthState {
  ready: boolean;
  slack: string;
  /** When the alert schedule started (undefined: not started, e.g. tests that sweep by hand). */
  alertsSince?: number;
}

/**
 * /healthz (503 until ready, or while Slack or the store is not) and /metrics. Late alert sweeps
 * (none completed within three ALERTS_CRON ticks) are reported in `alerts` and `degraded`, not
 * by a 503: every replica would fail at once and be taken out of service for an alerts-only fault.
 */
export function healthRoutes(
  config: Config,
  parts: {
    health: HealthState;
    stores: Backend;
    metrics: FleetbotMetrics;
    alerts: AlertParts;
    simulated: boolean;
  },
): HttpRoute[] {
  const { health, stores, metrics, alerts } = parts;
  const tickMs = cronTickMs(config.alerts.cron, config.companyTimeZone);
  stores.report.observe(metrics);
  const alertsHealth = async () => {
    if (health.alertsSince === undefined) return undefined;
    const lastSweepAt = alerts.schedule ? await alerts.schedule.lastSweepAt() : alerts.poller.lastRunAt;
    return sweepHealth({ lastSweepAt, startedAt: health.alertsSince, tickMs, now: Date.now() });
  };
  return [
    {
      path: "/healthz",
      handler: async (_req, res) => {
        const store = stores.health.check();
        const unfinished = await stores.tasks.countUnfinished().catch(() => undefined);
        // Multi-workspace mode depends on no one workspace's token: nothing to be refused.
        const ok = health.ready && (health.slack === "ok" || health.slack === "multi-workspace") && store.ok;
        const sweeps = await alertsHealth();
        const degraded = [...(sweeps?.state === "late" ? ["alerts"] : []), ...stores.report.degraded()];
        const body = {
          ok,
          slack: health.slack,
          store: store.ok ? "ok" : store.reason,
          ...stores.report.healthFields(store),
          fleet: parts.simulated ? "simulator" : "configured",
          queue: { unfinished },
          ...(sweeps ? { alerts: sweeps } : {}),
          ...(degraded.length > 0 ? { degraded } : {}),
        };
        res.writeHead(ok ? 200 : 503, { "content-type": "application/json" }).end(JSON.stringify(body));
      },
    },
    {
      path: "/metrics",
      handler: async (_req, res) => {
        const unfinished = await stores.tasks.countUnfinished().catch(() => undefined);
        if (unfinished !== undefined) metrics.queueDepth.set({ state: "unfinished" }, unfinished);
        res.writeHead(200, { "content-type": metrics.contentType }).end(await metrics.text());
      },
    },
  ];
}
