import type { AlertPoller } from "../features/alerts/poller.js";
import type { ClaimedRun, ScheduleRuns } from "../features/schedules/index.js";
import type { AccountUpkeep } from "../platform/accounts/accountUpkeep.js";
import type { FleetAccounts } from "../platform/accounts/fleetAccounts.js";
import type { FleetClient, FleetSession } from "../platform/fleet/client.js";
import type { Vehicle } from "../platform/fleet/schemas.js";
import type { Logger } from "../platform/log.js";
import type { FleetbotMetrics } from "../platform/metrics.js";
import type { TaskDelivery } from "../platform/slack/delivery.js";
import type { TaskRepository } from "../platform/store/contract/index.js";
import type { TaskRunner } from "../platform/tasks/runner.js";
import type { VehicleCache } from "../platform/vehicles/vehicleCache.js";
import type { WorkspaceRemoval } from "../platform/workspaces/removal.js";
import type { FakeSlack } from "../sandbox/fakeSlack/index.js";
import type { RunningSimulator, SimulatorOptions } from "../simulator/index.js";
import type { Config } from "./config.js";
import type { FleetbotSlack } from "./slack.js";

/**
 * The one place that wires fleetbot together. `startFleetbot` reads top to bottom: stores,
 * the fleet service (or the embedded simulator), the gate and the accounts behind it, the
 * task runner, Slack (delivery first, then the app), alerts, and the background work.
 */
export interface Fleetbot {
  config: Config;
  logger: Logger;
  fleetUrl: string;
  simulator?: RunningSimulator;
  /** The in-process fake Slack of the sandbox mode (no Slack configured). */
  fakeSlack?: FakeSlack;
  client: FleetClient;
  /** The fleet accounts acted as (sessions, vehicle lists; let go of when nobody links one). */
  accounts: FleetAccounts;
  /** Token renewal and list refresh ahead of time; `tick` runs one pass (tests, with upkeepEveryMs 0). */
  upkeep: Pick<AccountUpkeep, "tick">;
  runner: TaskRunner<FleetSession>;
  tasks: TaskRepository;
  vehicles: VehicleCache<Vehicle>;
  metrics: FleetbotMetrics;
  slack: FleetbotSlack;
  alerts: AlertPoller;
  /** Scheduled reports: `tick()` claims and starts the runs due now (tests, with schedulePolling false). */
  schedules: { tick(): Promise<ClaimedRun[]>; runs: ScheduleRuns };
  delivery: TaskDelivery;
  /** Uninstalls and dead tokens (multi-workspace mode): `idle()` resolves when no removal is under way. */
  removal: Pick<WorkspaceRemoval, "idle">;
  url: string;
  close(): Promise<void>;
}

export interface StartOptions {
  logger?: Logger;
  /** Simulator settings for the embedded mode (tests scale time with them). */
  simulator?: Omit<SimulatorOptions, "port">;
  /** The account upkeep period (0: off). */
  upkeepEveryMs?: number;
  /** Least time between two progress updates of one message (tests shorten it). */
  progressEveryMs?: number;
  /** Start the ALERTS_CRON poller (default true; tests call `alerts.runOnce()` themselves). */
  alertPolling?: boolean;
  /** How the alert publisher waits out Slack's Retry-After (tests advance the fake Slack's clock). */
  alertSleep?: (ms: number) => Promise<void>;
  /**
   * The alert sweeps' clock (default Date.now): tests that move the simulator's clock to make a
   * vehicle idle for 20 minutes move the sweeps' with it.
   */
  alertClock?: () => number;
  /** Tick the schedules every 20 s (default true; tests call `schedules.tick()` themselves). */
  schedulePolling?: boolean;
  /** The schedules' clock (default Date.now): tests move it to 07:30 on the day the clocks change. */
  scheduleClock?: () => number;
}
