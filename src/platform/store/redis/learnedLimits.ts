import { type CallLimits, SPLITTABLE_ENDPOINTS, type SplittableEndpoint } from "../../fleet/split.js";
import type { LearnedLimitsRepository } from "../contract/learnedLimits.js";
import { LuaScript, numberText, RedisStore, storedNumber } from "./lua.js";

/**
 * Limits the fleet service revealed by refusing, in Redis: one hash per service base URL,
 *   limits:<service>   fields <endpoint>:maxVehicles, <endpoint>:maxDays, <endpoint>:learnedAt
 * (an endpoint with a learnedAt field is a row, even with no dimension learned).
 */

/** A service's hash. */
export const limitsKey = (prefix: string, service: string) => `${prefix}limits:${service}`;

/** One stored row of a service. */
interface LearnedRow {
  service: string;
  endpoint: string;
  maxVehicles?: number;
  maxDays?: number;
  learnedAt: number;
}

const ENDPOINTS: ReadonlySet<string> = new Set<string>(SPLITTABLE_ENDPOINTS);

function isSplittableEndpoint(name: string): name is SplittableEndpoint {
  return ENDPOINTS.has(name);
}

/** KEYS: the service's hash. ARGV: endpoint, maxVehicles or '', maxDays or '', learnedAt. Keeps the tighter value. */
const SAVE = new LuaScript(`
local endpoint = ARGV[1]
local function tighter(field, value)
  if value == '' then return end
  local stored = redis.call('HGET', KEYS[1], endpoint .. ':' .. field)
  if not stored or tonumber(value) < tonumber(stored) then
    redis.call('HSET', KEYS[1], endpoint .. ':' .. field, value)
  end
end
tighter('maxVehicles', ARGV[2])
tighter('maxDays', ARGV[3])
redis.call('HSET', KEYS[1], endpoint .. ':learnedAt', ARGV[4])
return 1
`);

/** The database's CHECK constraints, so both stores (and the migration) refuse the same nonsense. */
export function checkLimits(limits: CallLimits): void {
  if (limits.maxVehicles !== undefined && !(limits.maxVehicles >= 1))
    throw new RangeError(`CHECK constraint failed: max_vehicles >= 1 (got ${limits.maxVehicles})`);
  if (limits.maxDays !== undefined && !(limits.maxDays > 0))
    throw new RangeError(`CHECK constraint failed: max_days > 0 (got ${limits.maxDays})`);
}

export class RedisLearnedLimitsStore extends RedisStore implements LearnedLimitsRepository {
  private key(service: string): string {
    return limitsKey(this.prefix, service);
  }

  /** Every row of a service, endpoints this version does not split included. */
  private async records(service: string): Promise<LearnedRow[]> {
    const hash = await this.redis.hgetall(this.key(service));
    const rows = new Map<string, LearnedRow>();
    for (const [field, value] of Object.entries(hash)) {
      const split = field.lastIndexOf(":");
      const endpoint = field.slice(0, split);
      const row = rows.get(endpoint) ?? { service, endpoint, learnedAt: 0 };
      const number = storedNumber.parse(value);
      const dimension = field.slice(split + 1);
      if (dimension === "maxVehicles") row.maxVehicles = number;
      else if (dimension === "maxDays") row.maxDays = number;
      else if (dimension === "learnedAt") row.learnedAt = number;
      rows.set(endpoint, row);
    }
    return [...rows.values()].filter((row) => `${row.endpoint}:learnedAt` in hash);
  }

  async load(service: string): Promise<Partial<Record<SplittableEndpoint, CallLimits>>> {
    const limits: Partial<Record<SplittableEndpoint, CallLimits>> = {};
    for (const row of await this.records(service)) {
      // A row of an endpoint this version does not split is left alone, not an error.
      if (!isSplittableEndpoint(row.endpoint)) continue;
      const learned: CallLimits = {};
      if (row.maxVehicles !== undefined) learned.maxVehicles = row.maxVehicles;
      if (row.maxDays !== undefined) learned.maxDays = row.maxDays;
      limits[row.endpoint] = learned;
    }
    return limits;
  }

  async save(service: string, endpoint: SplittableEndpoint, limits: CallLimits): Promise<void> {
    checkLimits(limits);
    await SAVE.run(
      this.redis,
      [this.key(service)],
      [endpoint, numberText(limits.maxVehicles) ?? "", numberText(limits.maxDays) ?? "", String(this.now())],
    );
  }

  async forget(service: string): Promise<void> {
    await this.redis.del(this.key(service));
  }
}
