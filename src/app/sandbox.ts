import { TRANSPORT_INCIDENT_KINDS } from "../features/alerts/incidents.js";
import type { AlertSubscriptions } from "../features/alerts/subscriptions.js";
import { cronTickMs, nextCronRunMs } from "../features/alerts/sweepHealth.js";
import { VEHICLE_ALERT_CODES, zoneNameKey } from "../features/alerts/vehicleWatch/watches.js";
import { nextRunAfter } from "../features/schedules/index.js";
import type { FleetAccounts } from "../platform/accounts/fleetAccounts.js";
import type { NewReportSchedule, ScheduleRepository } from "../platform/store/contract/schedules.js";
import type { ZoneRepository } from "../platform/store/contract/zones.js";
import { ONLY_WORKSPACE } from "../platform/workspaces/workspace.js";
import type { FakeSlack } from "../sandbox/fakeSlack/index.js";
import type { SandboxDeps } from "../sandbox/web/index.js";
import { DEMO_ZONE } from "../sandbox/web/routes.js";
import type { RunningSimulator } from "../simulator/index.js";
import type { AlertParts } from "./alerts.js";
import type { Config } from "./config.js";
import type { HealthState } from "./health.js";

/**
 * The sandbox page (no Slack configured): served beside /slack/events, it reaches the bot through
 * a driver that signs requests exactly as Slack does, which needs the bot's URL once it listens.
 */
export async function sandboxPage(
  fake: FakeSlack,
  simulator: RunningSimulator | undefined,
  bot: Pick<SandboxDeps, "alertSchedule" | "fleetStatus">,
) {
  const [{ SlackDriver }, { sandboxRoutes }] = await Promise.all([
    import("../sandbox/fakeSlack/index.js"),
    import("../sandbox/web/index.js"),
  ]);
  let driver: InstanceType<typeof SlackDriver> | undefined;
  const page = sandboxRoutes({
    fake,
    simulator,
    ...bot,
    driver: () => {
      if (!driver) throw new Error("The bot is not listening yet");
      return driver;
    },
  });
  return {
    routes: page,
    listening(url: string) {
      driver = new SlackDriver({ botUrl: `${url}/slack/events`, fake });
    },
    close: () => page.close(),
  };
}

export type SandboxFirstList = { status(): "connecting" | "ready" | "failed"; start(): Promise<void> };

/**
 * A newcomer opens the report form first thing: the sandbox fetches the demo account's vehicle list
 * before anything else (its login, then company-vehicles; the alert checks start after), and the page
 * says "connecting to the fleet service…" until the list is there.
 */
export function sandboxFirstList(fleet: FleetAccounts): SandboxFirstList {
  const account = fleet.workspaceAccount?.username;
  let settled = account === undefined;
  let ready = account === undefined;
  let started: Promise<void> | undefined;
  return {
    // Once there, the list stays ready for the page, even when the cache lets it go later.
    status: () => {
      ready ||= account !== undefined && fleet.vehicles.peek(account) !== undefined;
      return ready ? "ready" : settled ? "failed" : "connecting";
    },
    start() {
      started ??=
        account === undefined
          ? Promise.resolve()
          : fleet.warmVehicles({ account }).finally(() => {
              settled = true;
            });
      return started;
    },
  };
}

/**
 * The alert schedule as the sandbox page tells it ("next alert check in 23 s"): node-cron's own
 * next run, or in Redis mode the expression's next tick; none while no schedule runs.
 */
export function alertSchedule(config: Config, alerts: AlertParts, health: HealthState) {
  const zone = config.companyTimeZone;
  const everyMs = cronTickMs(config.alerts.cron, zone);
  return () => {
    const running = health.alertsSince !== undefined;
    const nextCheckAt =
      alerts.poller.nextRunAt() ??
      (running && alerts.schedule ? nextCronRunMs(config.alerts.cron, zone) : undefined);
    return nextCheckAt === undefined ? { everyMs } : { nextCheckAt, everyMs };
  };
}

/**
 * The sandbox's #alerts, in a fresh store: every transport kind and every vehicle kind but
 * AfterHours, with
 * thresholds a newcomer sees within a minute of pressing a Simulator button (idling 2 min, speeding
 * above 100 km/h, a reefer
 * out of −25..8 °C for 1 min: both demo reefers, 4 °C and −18 °C, sit inside it until warmed), and
 * the demo zone "Depou București" around the simulator's București depot, where vehicles leave
 * from and come back to by themselves.
 */
export function sandboxAlerts(
  subscriptions: AlertSubscriptions,
  zones: ZoneRepository,
  simulator: RunningSimulator | undefined,
  schedules?: Pick<ScheduleRepository, "add">,
): (account: string) => Promise<void> {
  return async (account) => {
    const seeded = await subscriptions.seedSubscription("C0ALERTS", account, ONLY_WORKSPACE, {
      // Not AfterHours: the demo fleet's multi-day trips drive on after their night's rest (from
      // about 02:00), which would post a burst of them at random hours of a fresh sandbox.
      codes: [
        ...TRANSPORT_INCIDENT_KINDS,
        ...Object.values(VEHICLE_ALERT_CODES).filter((code) => code !== VEHICLE_ALERT_CODES.afterhours),
      ],
      // Speeding above 100 km/h: the demo vans cruise up to 95 (a first check must be calm); the
      // Simulator panel's Speed button drives at 120.
      watch: { idleMinutes: 2, speedKmh: 100, tempMin: -25, tempMax: 8, tempForMinutes: 1 },
    });
    // A scheduled report in #general, made by the demo dispatcher: `/fleet schedules` there lists
    // it, and its Run now posts it at once.
    if (seeded && schedules) await schedules.add(sandboxSchedule(Date.now()));
    const depot = simulator?.depots.find((d) => d.town === "București") ?? simulator?.depots[0];
    if (!seeded || !depot) return;
    await zones.addZone({
      workspace: ONLY_WORKSPACE,
      name: DEMO_ZONE.name,
      nameKey: zoneNameKey(DEMO_ZONE.name),
      latitude: depot.latitude,
      longitude: depot.longitude,
      radiusMeters: DEMO_ZONE.radiusMeters,
    });
  };
}

/** The sandbox's demo schedule: yesterday's fuel of every vehicle, in #general, every day at 07:30. */
export function sandboxSchedule(now: number): NewReportSchedule {
  const recurrence = { every: "day", time: "07:30" } as const;
  const timeZone = "Europe/Bucharest";
  return {
    workspace: ONLY_WORKSPACE,
    channel: "C0GENERAL",
    createdBy: "U0DISPATCH",
    command: "fuel all yesterday",
    recurrence,
    timeZone,
    nextRunAt: nextRunAfter(recurrence, timeZone, now) ?? now + 86_400_000,
  };
}
