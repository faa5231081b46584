import type { CallLimits, SplittableEndpoint } from "../../fleet/split.js";

/**
 * Limits the fleet service revealed by refusing requests as too large (src/platform/fleet/limits.ts),
 * kept so a restarted bot plans with them from its first call instead of paying a refused call
 * (one 30-second slot) to learn each again; one row per service base URL and endpoint.
 * Implemented by SqliteLearnedLimitsStore (learnedLimits.ts) and RedisLearnedLimitsStore
 * (redis/learnedLimits.ts). A fleet client does not hold the repository: the backend reads a
 * service's limits once and gives the client a LimitBookStorage (src/platform/fleet/limits.ts) over it.
 */
export interface LearnedLimitsRepository {
  /** Every limit learned from the service at `service` (rows of endpoints this version does not split are left out). */
  load(service: string): Promise<Partial<Record<SplittableEndpoint, CallLimits>>>;
  /** Remembers limits of one endpoint; each dimension keeps the tighter of the stored and the new value. */
  save(service: string, endpoint: SplittableEndpoint, limits: CallLimits): Promise<void>;
  /** Forgets what was learned from a service (an operator's reset, e.g. after the service raised its limits). */
  forget(service: string): Promise<void>;
}
