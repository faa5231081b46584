import type { CallContext } from "../fleet/seam.js";

export interface CachedVehicles<V> {
  vehicles: V[];
  fetchedAt: number;
}

/** A list and whose credentials fetched it: it is answered to the same credentials only. */
interface Entry<V> extends CachedVehicles<V> {
  fetchedWith: object;
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
  /**
   * Which credentials the source holds (one object per account and password: FleetSession's token
   * manager). A list is served to the credentials that fetched it, never to a link with another
   * password, which must fetch (and so log in) itself: a changed password then cuts it off.
   */
  readonly credentialsId: object;
  /** Throws when the source's credentials may not be used any more (the service took a newer password). */
  assertUsable(): Promise<void>;
  vehicles(ctx: CallContext): Promise<V[]>;
}

/**
 * Each account's vehicle list: needed to turn `B-123-ABC` into vehicleId and vehicleUId,
 * and it carries every vehicle's last position. Reads say how old an answer they accept,
 * so ten people asking where the trucks are within one interval cost one call, and a
 * plate the list does not know triggers one refresh, not one per keystroke.
 */
export class VehicleCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /** Fetches under way, so a picker can wait briefly for the list instead of showing none. */
  private readonly loading = new Map<string, Promise<CachedVehicles<V>>>();
  /** When a person last read each account's list (upkeep keeps these warm). */
  private readonly lastUsed = new Map<string, number>();
  /** Accounts let go of (drop) while a fetch of theirs was under way: its answer is not kept. */
  private readonly dropped = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly options: VehicleCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * The cached list, however old, without any call: for estimates and planning only, never shown
   * (an answer to a person goes through `peekFor` or `get`, which check whose list it is).
   */
  peek(account: string): CachedVehicles<V> | undefined {
    return this.entries.get(account);
  }

  /**
   * The cached list, however old, without any call (Slack options requests must answer in 3 s),
   * when `credentials` fetched it: a link with another password gets none.
   */
  peekFor(account: string, credentials: object): CachedVehicles<V> | undefined {
    const cached = this.entries.get(account);
    return cached?.fetchedWith === credentials ? cached : undefined;
  }

  /**
   * A list no older than `maxAgeMs` (default: the time to live); fetches when the cached
   * one is older, or another link's credentials fetched it. Concurrent fetches of one account are
   * one call (the gate shares them). A cached answer is given only while the source's password is
   * still the service's (a fetch checks that itself, in the client).
   */
  get(source: VehicleSource<V>, ctx: CallContext, maxAgeMs = this.options.ttlMs): Promise<CachedVehicles<V>> {
    if (ctx.priority !== "background") this.noteUse(source.account);
    const cached = this.entries.get(source.account);
    if (cached && cached.fetchedWith === source.credentialsId && this.now() - cached.fetchedAt <= maxAgeMs)
      return source.assertUsable().then(() => cached);
    return this.fetch(source, ctx);
  }

  /** The fetch of the account's list under way, if any (it settles when the list is stored or fails). */
  pending(account: string): Promise<CachedVehicles<V>> | undefined {
    return this.loading.get(account);
  }

  /** A person read the account's list (a picker, a lookup): the account counts as in use. */
  noteUse(account: string): void {
    this.lastUsed.set(account, this.now());
  }

  /**
   * True when a list someone read within its time to live expires within `leadMs`: refreshed
   * ahead, it never expires under a person using it (a picker or lookup would otherwise wait a slot).
   */
  expiresInUse(account: string, leadMs: number): boolean {
    const cached = this.entries.get(account);
    const used = this.lastUsed.get(account);
    if (!cached || used === undefined) return false;
    const now = this.now();
    return now - used <= this.options.ttlMs && now - cached.fetchedAt > this.options.ttlMs - leadMs;
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

  /** Every account the cache holds anything of: a list, a fetch under way, or a person's last read. */
  known(): string[] {
    return [...new Set([...this.entries.keys(), ...this.loading.keys(), ...this.lastUsed.keys()])];
  }

  /**
   * Lets go of an account (nobody links it any more): its list, its fetch under way (whose answer
   * is then not kept) and its last read, so upkeep has nothing of it to refresh.
   */
  drop(account: string): void {
    this.entries.delete(account);
    this.lastUsed.delete(account);
    if (this.loading.delete(account)) this.dropped.set(account, (this.dropped.get(account) ?? 0) + 1);
  }

  /** Identical concurrent calls are made once by the gate; the promise is kept only so pickers can wait. */
  private async fetch(source: VehicleSource<V>, ctx: CallContext): Promise<CachedVehicles<V>> {
    const account = source.account;
    const drops = this.dropped.get(account);
    const fetching = source.vehicles(ctx).then((vehicles) => {
      const entry = { vehicles, fetchedAt: this.now(), fetchedWith: source.credentialsId };
      // Dropped while it was fetched: the caller gets its answer, the cache keeps nothing of it.
      if (this.dropped.get(account) === drops) this.entries.set(account, entry);
      return entry;
    });
    this.loading.set(account, fetching);
    try {
      return await fetching;
    } finally {
      if (this.loading.get(account) === fetching) this.loading.delete(account);
      if (!this.loading.has(account)) this.dropped.delete(account);
    }
  }
}
