import type { CallContext } from "../fleet/seam.js";

export interface CachedVehicles<V> {
  vehicles: V[];
  fetchedAt: number;
}

export interface VehicleCacheOptions {
  /** How long a list is good for resolving plates and names (VEHICLE_CACHE_TTL_MS). */
  ttlMs: number;
  now?: () => number;
}

/**
 * Where a list comes from: an account's session (company-vehicles through the gate). Every read
 * names it, so a fetch always runs with the asking caller's own credentials and no session has
 * to exist beforehand.
 */
export interface VehicleSource<V> {
  account: string;
  vehicles(ctx: CallContext): Promise<V[]>;
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

  constructor(private readonly options: VehicleCacheOptions) {
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
    source: VehicleSource<V>,
    ctx: CallContext,
    maxAgeMs = this.options.ttlMs,
  ): Promise<CachedVehicles<V>> {
    const cached = this.entries.get(source.account);
    if (cached && this.now() - cached.fetchedAt <= maxAgeMs) return cached;
    return this.fetch(source, ctx);
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
  private async fetch(source: VehicleSource<V>, ctx: CallContext): Promise<CachedVehicles<V>> {
    const vehicles = await source.vehicles(ctx);
    const entry = { vehicles, fetchedAt: this.now() };
    this.entries.set(source.account, entry);
    return entry;
  }
}
