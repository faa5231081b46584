/**
 * Short-lived memory that every replica must see alike: which Slack requests were already
 * taken (a retry may reach another replica), how many /fleet login attempts a user made, how
 * many times a response_url was used. One process keeps it in a MemorySharedState; several
 * replicas share a RedisSharedState (src/platform/store/redis/sharedState.ts).
 *
 * Keys are the caller's (e.g. `slack-request:<hash>`); each operation has a key space of its
 * own, so the same key given to two operations names two things.
 */
export interface SharedState {
  /**
   * Remembers `key` for `ttlMs`; false when it was already remembered (and not yet forgotten),
   * in which case it is then remembered at least `ttlMs` from now (never less than before).
   */
  firstSeen(key: string, ttlMs: number): Promise<boolean>;
  /**
   * A short mark others can wait on (an ack not yet sent): set for at most `ttlMs`, or until
   * `unmark`. `isMarked` says whether it is still there.
   */
  mark(key: string, ttlMs: number): Promise<void>;
  unmark(key: string): Promise<void>;
  isMarked(key: string): Promise<boolean>;
  /**
   * Counts one use of `key` when fewer than `limit` were counted in the last `windowMs`;
   * otherwise counts nothing and says when the oldest counted use leaves the window.
   * `id` names the use, so it can be given back (`giveBackInWindow`); a use already counted
   * under the same `id` and still in the window is ok without a second count (a retried step).
   */
  takeInWindow(key: string, limit: number, windowMs: number, id?: string): Promise<WindowTake>;
  /**
   * Un-counts the use `id` of `key` (a reservation that turned out not to be what the window
   * counts, e.g. a login that succeeded); false when it was not counted (or has left the window).
   */
  giveBackInWindow(key: string, id: string): Promise<boolean>;
  /**
   * Forgets every counted window whose key starts with `prefix` (an uninstalled workspace's link
   * attempts); how many. Rare: it may scan.
   */
  forgetWindows(prefix: string): Promise<number>;
}

export type WindowTake = { ok: true } | { ok: false; retryAt: number };

/**
 * Times and limits are whole positive numbers in both implementations (Redis' PX takes only
 * those), so a caller's mistake fails the same way with or without Redis.
 */
export function checkPositiveInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`${name} must be a positive whole number (got ${value})`);
  }
}

export interface MemorySharedStateOptions {
  now?: () => number;
  /** Keys remembered at most per operation (the oldest go first); default 10,000. */
  maxEntries?: number;
}

/**
 * A map that forgets: entries leave when their expiry has passed, and the oldest inserted leave
 * first once there are more than `maxEntries`, so a flood of distinct keys cannot grow memory.
 * Entries are in insertion order; with one ttl for all that is expiry order, so expired entries
 * are dropped from the front without scanning the rest. With ttls that differ (a request's
 * memory ends with its own window) an expired entry behind a live one waits for its turn, but
 * `get` never returns it.
 */
class ExpiringMap<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(private readonly maxEntries: number) {}

  /** When `key`'s entry expires (undefined when there is none, or it has expired). */
  expiresAt(key: string, now: number): number | undefined {
    return this.get(key, now) === undefined ? undefined : this.entries.get(key)?.expiresAt;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Deletes every entry whose key starts with `prefix`; how many. */
  deleteStartingWith(prefix: string): number {
    let deleted = 0;
    for (const key of [...this.entries.keys()])
      if (key.startsWith(prefix)) {
        this.entries.delete(key);
        deleted++;
      }
    return deleted;
  }

  get(key: string, now: number): V | undefined {
    this.expire(now);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > now) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Sets the value; a new key goes to the back (the newest), an existing one keeps its place. */
  set(key: string, value: V, expiresAt: number): void {
    this.entries.set(key, { value, expiresAt });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private expire(now: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt > now) break;
      this.entries.delete(key);
    }
  }
}

/** The one-process SharedState: in memory, bounded, forgotten at a restart. */
export class MemorySharedState implements SharedState {
  private readonly now: () => number;
  private readonly seen: ExpiringMap<true>;
  private readonly marks: ExpiringMap<true>;
  /** The counted uses in the window (their time, and id when named), oldest first. */
  private readonly windows: ExpiringMap<{ at: number; id?: string }[]>;

  constructor(options: MemorySharedStateOptions = {}) {
    this.now = options.now ?? Date.now;
    const max = options.maxEntries ?? 10_000;
    this.seen = new ExpiringMap(max);
    this.marks = new ExpiringMap(max);
    this.windows = new ExpiringMap(max);
  }

  async firstSeen(key: string, ttlMs: number): Promise<boolean> {
    checkPositiveInteger("ttlMs", ttlMs);
    const now = this.now();
    const until = this.seen.expiresAt(key, now);
    if (until !== undefined) {
      if (until < now + ttlMs) {
        // To the back, with its new expiry: the front stays the soonest to expire and the first evicted.
        this.seen.delete(key);
        this.seen.set(key, true, now + ttlMs);
      }
      return false;
    }
    this.seen.set(key, true, now + ttlMs);
    return true;
  }

  async mark(key: string, ttlMs: number): Promise<void> {
    checkPositiveInteger("ttlMs", ttlMs);
    this.marks.set(key, true, this.now() + ttlMs);
  }

  async unmark(key: string): Promise<void> {
    this.marks.delete(key);
  }

  async isMarked(key: string): Promise<boolean> {
    return this.marks.get(key, this.now()) === true;
  }

  async forgetWindows(prefix: string): Promise<number> {
    return this.windows.deleteStartingWith(prefix);
  }

  async takeInWindow(key: string, limit: number, windowMs: number, id?: string): Promise<WindowTake> {
    checkPositiveInteger("limit", limit);
    checkPositiveInteger("windowMs", windowMs);
    const now = this.now();
    const recent = (this.windows.get(key, now) ?? []).filter((use) => use.at > now - windowMs);
    const newest = recent.at(-1);
    if (id !== undefined && recent.some((use) => use.id === id)) {
      if (newest) this.windows.set(key, recent, newest.at + windowMs);
      return { ok: true };
    }
    const oldest = recent[0];
    if (oldest !== undefined && recent.length >= limit) {
      // Nothing is counted; the list lives until its newest use leaves the window.
      this.windows.set(key, recent, (newest ?? oldest).at + windowMs);
      return { ok: false, retryAt: oldest.at + windowMs };
    }
    recent.push(id === undefined ? { at: now } : { at: now, id });
    this.windows.set(key, recent, now + windowMs);
    return { ok: true };
  }

  async giveBackInWindow(key: string, id: string): Promise<boolean> {
    const now = this.now();
    const recent = this.windows.get(key, now);
    const at = recent?.findIndex((use) => use.id === id) ?? -1;
    if (!recent || at < 0) return false;
    const expiresAt = this.windows.expiresAt(key, now) ?? now;
    recent.splice(at, 1);
    if (recent.length === 0) this.windows.delete(key);
    else this.windows.set(key, recent, expiresAt);
    return true;
  }

  /** Keys remembered by firstSeen (for tests of the bound). */
  get rememberedCount(): number {
    return this.seen.size;
  }
}
