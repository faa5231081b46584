import { type CallLimits, SPLITTABLE_ENDPOINTS, type SplittableEndpoint } from "../fleet/split.js";
import type { LearnedLimitsRepository } from "./contract/learnedLimits.js";
import type { Synchronous } from "./contract/synchronous.js";
import type { Db } from "./database.js";

interface LearnedLimitRow {
  endpoint: string;
  max_vehicles: number | null;
  max_days: number | null;
}

const ENDPOINTS: ReadonlySet<string> = new Set<string>(SPLITTABLE_ENDPOINTS);

function isSplittableEndpoint(name: string): name is SplittableEndpoint {
  return ENDPOINTS.has(name);
}

/**
 * Limits the fleet service revealed by refusing requests as too large, in SQLite (the contract:
 * contract/learnedLimits.ts): one row per service base URL and endpoint. Being synchronous, it is
 * also the LimitBookStorage the SQLite backend hands a fleet client (src/platform/fleet/limits.ts).
 */
export class SqliteLearnedLimitsStore implements Synchronous<LearnedLimitsRepository> {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  load(service: string): Partial<Record<SplittableEndpoint, CallLimits>> {
    const rows = this.db
      .prepare<[string], LearnedLimitRow>(
        "SELECT endpoint, max_vehicles, max_days FROM learned_limits WHERE service = ?",
      )
      .all(service);
    const limits: Partial<Record<SplittableEndpoint, CallLimits>> = {};
    for (const row of rows) {
      // A row of an endpoint this version does not split is left alone, not an error.
      if (!isSplittableEndpoint(row.endpoint)) continue;
      const learned: CallLimits = {};
      if (row.max_vehicles !== null) learned.maxVehicles = row.max_vehicles;
      if (row.max_days !== null) learned.maxDays = row.max_days;
      limits[row.endpoint] = learned;
    }
    return limits;
  }

  /** Upserts; each dimension keeps the tighter of the stored and the new value. */
  save(service: string, endpoint: SplittableEndpoint, limits: CallLimits): void {
    this.db
      .prepare(
        `INSERT INTO learned_limits (service, endpoint, max_vehicles, max_days, learned_at)
         VALUES (@service, @endpoint, @maxVehicles, @maxDays, @at)
         ON CONFLICT (service, endpoint) DO UPDATE SET
           max_vehicles = CASE
             WHEN excluded.max_vehicles IS NULL THEN max_vehicles
             WHEN max_vehicles IS NULL THEN excluded.max_vehicles
             ELSE min(max_vehicles, excluded.max_vehicles) END,
           max_days = CASE
             WHEN excluded.max_days IS NULL THEN max_days
             WHEN max_days IS NULL THEN excluded.max_days
             ELSE min(max_days, excluded.max_days) END,
           learned_at = excluded.learned_at`,
      )
      .run({
        service,
        endpoint,
        maxVehicles: limits.maxVehicles ?? null,
        maxDays: limits.maxDays ?? null,
        at: this.now(),
      });
  }

  /** Forgets what was learned from a service (operator's reset, e.g. after the service raised its limits). */
  forget(service: string): void {
    this.db.prepare("DELETE FROM learned_limits WHERE service = ?").run(service);
  }
}
