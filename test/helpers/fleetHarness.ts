import { FleetClient } from "../../src/platform/fleet/client.js";
import { createFleetGate } from "../../src/platform/gate/fleetGate.js";
import { runUntilSettled, VirtualClock } from "../../src/platform/gate/virtualClock.js";
import { type SimulatorOptions, startSimulator } from "../../src/simulator/index.js";

export const COMPANY_ZONE = "Europe/Bucharest";
/** A Tuesday morning in Bucharest: trucks are on the road. */
export const HARNESS_START = Date.UTC(2026, 10, 3, 8, 0, 0);

/**
 * The real client, the real gate and the real simulator over HTTP, sharing one virtual
 * clock: 30-second slots pass in milliseconds and the simulator enforces the same spacing.
 */
export async function startFleetHarness(
  options: { minIntervalMs?: number; safetyMarginMs?: number; sim?: SimulatorOptions } = {},
) {
  const minIntervalMs = options.minIntervalMs ?? 30_000;
  const clock = new VirtualClock(HARNESS_START);
  const sim = await startSimulator({
    port: 0,
    minIntervalMs,
    control: true,
    drift: false,
    now: () => clock.now(),
    ...options.sim,
  });
  const gate = createFleetGate({ minIntervalMs, safetyMarginMs: options.safetyMarginMs ?? 250, clock });
  const client = new FleetClient({
    baseUrl: sim.url,
    apiVersion: "2.0",
    timeZone: COMPANY_ZONE,
    gate,
    now: () => clock.now(),
  });
  const session = client.session({ username: "demo", password: "demo" });
  const run = <T>(work: Promise<T>) => runUntilSettled(clock, work, () => gate.inFlight() > 0);
  return {
    clock,
    sim,
    gate,
    client,
    session,
    run,
    async close() {
      await gate.close();
      await sim.close();
    },
  };
}

export type FleetHarness = Awaited<ReturnType<typeof startFleetHarness>>;
