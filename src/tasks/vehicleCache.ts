import type { CallContext } from "../fleet/seam.js";

export interface CachedVehicles<V> {
  vehicles: V[];
  fetchedAt: number;
}

export interface VehicleCacheOptions<V> {
  /** How long a list is good for resolving plates and names (VEHICLE_CACHE_TTL_MS). */
  ttlMs: number;
  /** company-vehicles of one account, through the gate. */
  fetch(account: string, ctx: CallContext): Promise<V[]>;
  now?: () => number;
}

/**
 * Each account's vehicle list: needed to turn `B-123-ABC` into vehicleId and vehicleUId,
 * and it carries every vehicle's last position. Reads say how old an answer they accept,
 * so ten people asking where the trucks are within one interval cost one call, and a
 * plate the list does not know triggers one refresh, not one per keystroke.
 */
export class VehicleCache<V> {
  private readonly entries = new Map<string, CachedVehicles<V>>();
  private readonly now: () => number;

  constructor(private readonly options: VehicleCacheOptions<V>) {
    this.now = options.now ?? Date.now;
  }

  /** The cached list, however old, without any call (Slack options requests must answer in 3 s). */
  peek(account: string): CachedVehicles<V> | undefined {
    return this.entries.get(account);
  }

  /**
   * A list no older than `maxAgeMs` (default: the time to live); fetches when the cached
   * one is older. Concurrent fetches of one account are one call (the gate shares them).
   */
  async get(
    account: string,
    ctx: CallContext,
    maxAgeMs = this.options.ttlMs,
    /** Fetch with this session (the asking task's own credentials) instead of the default one. */
    load?: () => Promise<V[]>,
  ): Promise<CachedVehicles<V>> {
    const cached = this.entries.get(account);
    if (cached && this.now() - cached.fetchedAt <= maxAgeMs) return cached;
    return this.fetch(account, ctx, load);
  }

  /** True when the list is older than its time to live (the refresher's question). */
  isStale(account: string): boolean {
    const cached = this.entries.get(account);
    return !cached || this.now() - cached.fetchedAt > this.options.ttlMs;
  }

  accounts(): string[] {
    return [...this.entries.keys()];
  }

  invalidate(account: string): void {
    this.entries.delete(account);
  }

  /** Concurrent fetches need no bookkeeping here: the gate makes identical calls once. */
  private async fetch(
    account: string,
    ctx: CallContext,
    load?: () => Promise<V[]>,
  ): Promise<CachedVehicles<V>> {
    const vehicles = await (load ? load() : this.options.fetch(account, ctx));
    const entry = { vehicles, fetchedAt: this.now() };
    this.entries.set(account, entry);
    return entry;
  }
}
