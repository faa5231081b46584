import type { Logger } from "pino";
import type { FleetSession } from "../fleet/client.js";
import { isUnauthorizedError } from "../fleet/errors.js";
import type { Vehicle } from "../fleet/schemas.js";
import type { AccountGate } from "../gate/gate.js";
import type { VehicleCache } from "../vehicles/vehicleCache.js";

export interface AccountUpkeepOptions {
  gate: AccountGate;
  vehicles: VehicleCache<Vehicle>;
  /** Sessions of the accounts in use (those that made a call since start). */
  sessions(): Iterable<FleetSession>;
  /** Renew a token this long before the token manager would (a login costs a slot). */
  tokenLeadMs: number;
  /** Refresh a vehicle list in use this long before it expires (default 2 minutes: several ticks). */
  vehicleLeadMs?: number;
  logger?: Pick<Logger, "debug" | "warn">;
  now?: () => number;
  /** The service refused an account's login (password changed, user deactivated): stop keeping it. */
  onLoginRejected?(account: string): void;
}

/**
 * Background work that keeps accounts ready so users do not pay for it: a token about to
 * expire is renewed, and a stale vehicle list refreshed, but only while the account's gate
 * is idle, at background priority, so they never delay a user's call by more than a slot.
 */
export class AccountUpkeep {
  private readonly now: () => number;

  constructor(private readonly options: AccountUpkeepOptions) {
    this.now = options.now ?? Date.now;
  }

  /** One pass over the accounts; returns what it started (for tests and logs). */
  async tick(): Promise<{ renewed: string[]; refreshed: string[] }> {
    const renewed: string[] = [];
    const refreshed: string[] = [];
    const work: Promise<unknown>[] = [];
    for (const session of this.options.sessions()) {
      const account = session.account;
      // A schedule that cannot be read (the gate's Redis closing, or gone) skips the account
      // this tick: upkeep runs on a timer, and a rejection there would end the process.
      const schedule = await this.options.gate.schedule(account).catch((error: unknown) => {
        this.options.logger?.warn({ account, err: error }, "account upkeep could not read the gate; skipped");
        return undefined;
      });
      if (!schedule) continue;
      if (schedule.running || schedule.waiting.length > 0) continue;
      const renewAt = session.tokens.renewAt()?.getTime();
      if (renewAt !== undefined && renewAt - this.options.tokenLeadMs <= this.now()) {
        renewed.push(account);
        work.push(
          session.tokens.renew({ priority: "background" }).catch((error: unknown) => {
            // Retrying a refused login every tick could get the account locked upstream.
            if (isUnauthorizedError(error) && error.reason === "login")
              this.options.onLoginRejected?.(account);
            throw error;
          }),
        );
      } else if (
        (this.options.vehicles.isStale(account) && this.options.vehicles.peek(account)) ||
        this.options.vehicles.expiresInUse(account, this.options.vehicleLeadMs ?? 2 * 60_000)
      ) {
        // Only lists someone has used: an account nobody looks at costs nothing. One in use is
        // refreshed before it expires, so its picker and lookups never wait for it.
        refreshed.push(account);
        work.push(this.options.vehicles.get(session, { priority: "background" }, 0));
      }
    }
    const outcomes = await Promise.allSettled(work);
    for (const outcome of outcomes) {
      if (outcome.status === "rejected")
        this.options.logger?.warn({ err: outcome.reason }, "account upkeep failed");
    }
    return { renewed, refreshed };
  }
}
