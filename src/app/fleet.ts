import { AccountUpkeep } from "../platform/accounts/accountUpkeep.js";
import { FleetAccounts } from "../platform/accounts/fleetAccounts.js";
import { FleetClient } from "../platform/fleet/client.js";
import type { FleetGateOptions } from "../platform/gate/fleetGate.js";
import type { AccountGate } from "../platform/gate/gate.js";
import type { Logger } from "../platform/log.js";
import type { FleetbotMetrics } from "../platform/metrics.js";
import { CallDurations } from "../platform/tasks/callDurations.js";
import type { RunningSimulator } from "../simulator/index.js";
import type { Backend } from "./backend/backend.js";
import type { Config } from "./config.js";
import type { StartOptions } from "./fleetbot.js";

/** FLEET_API_URL, or the embedded simulator when none is set. */
export async function startFleetService(
  config: Config,
  options: StartOptions,
): Promise<{ url: string; simulator?: RunningSimulator }> {
  if (config.fleet.apiUrl) return { url: config.fleet.apiUrl };
  // Imported only when used: a bot on a real fleet service does not carry the simulator.
  const { startSimulator } = await import("../simulator/index.js");
  const simulator = await startSimulator({
    minIntervalMs: config.fleet.minIntervalMs,
    control: true,
    // The sandbox starts calm, so that a break forced from its panel is the alert that stands out.
    ...(config.slack.mode === "sandbox" ? { demoProblems: false } : {}),
    ...options.simulator,
    port: 0,
  });
  return { url: simulator.url, simulator };
}

/** The fleet side: the account gate (memory or Redis), the client behind it, and the accounts it acts as. */
export async function fleetParts(
  config: Config,
  parts: {
    stores: Backend;
    service: { url: string; simulator?: RunningSimulator };
    metrics: FleetbotMetrics;
    logger: Logger;
  },
) {
  const { stores, service, metrics, logger } = parts;
  const callDurations = new CallDurations();
  const gateOptions: FleetGateOptions = {
    minIntervalMs: config.fleet.minIntervalMs,
    safetyMarginMs: config.fleet.safetyMarginMs,
    observer: callDurations.observer(metrics.gateObserver()),
    logger: logger.child({ module: "gate" }),
  };
  const gate: AccountGate = stores.gate(gateOptions);
  const client = new FleetClient({
    baseUrl: service.url,
    apiVersion: config.fleet.apiVersion,
    timeZone: config.companyTimeZone,
    gate,
    timeoutMs: config.fleet.timeoutMs,
    learnedLimits: await stores.learnedLimits(service.url),
    ...(stores.sharedTokens ? { sharedTokens: stores.sharedTokens } : {}),
    ...(stores.acceptedPasswords ? { acceptedPasswords: stores.acceptedPasswords } : {}),
  });
  const fleet = new FleetAccounts({
    client,
    linked: stores.accounts,
    // On the simulator with no workspace account configured, everyone uses its demo login.
    workspaceAccount:
      config.fleet.workspaceAccount ??
      (service.simulator ? { username: "demo", password: "demo" } : undefined),
    vehicleCacheTtlMs: config.fleet.vehicleCacheTtlMs,
    logger,
    gate,
  });
  return { callDurations, gate, client, fleet };
}

/** Tokens renewed and vehicle lists refreshed ahead of time, while the gate is idle. */
export function accountUpkeep(gate: AccountGate, fleet: FleetAccounts, logger: Logger, everyMs: number) {
  const upkeep = new AccountUpkeep({
    gate,
    vehicles: fleet.vehicles,
    sessions: () => fleet.sessions(),
    onLoginRejected: (account) => {
      logger.warn(
        { account },
        "the fleet service refused this account's login; it is no longer kept logged in",
      );
      fleet.forget(account);
    },
    tokenLeadMs: 5 * 60_000,
    logger: logger.child({ module: "upkeep" }),
  });
  const timer =
    everyMs > 0
      ? setInterval(() => {
          // An account nobody links any more is let go of first: a replica that missed an
          // uninstall's announcement (Redis pub/sub is at most once) stops its calls within a tick.
          fleet
            .releaseUnused()
            .then(() => upkeep.tick())
            .catch((error: unknown) => logger.warn({ err: error }, "account upkeep failed"));
        }, everyMs)
      : undefined;
  timer?.unref();
  return { upkeep, stop: () => timer && clearInterval(timer) };
}
