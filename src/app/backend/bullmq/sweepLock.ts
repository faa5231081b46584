import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";

/**
 * The lock that keeps two replicas' sweeps from overlapping (SET NX PX, one random token per
 * holder). It is renewed while the sweep runs, and only by its holder: a renewal that finds
 * another token (the lock lapsed while Redis or this replica stalled, and another sweep took
 * it) does not extend that sweep's lock; it aborts this sweep instead, so the same alert is
 * never posted by two sweeps at once.
 */

/** KEYS: lock. ARGV: token, ms → 1 renewed, 0 not ours (lapsed or taken). */
const RENEW_IF_OURS =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end";
/** KEYS: lock. ARGV: token → 1 released, 0 not ours. */
const RELEASE_IF_OURS =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";

export interface SweepLockOptions {
  redis: Redis;
  key: string;
  /** How long the lock lives without renewal (a killed replica's lock lapses after this). */
  lockMs: number;
  /** Between two renewals (default a third of lockMs: two may fail before it lapses). */
  renewEveryMs?: number;
  now?: () => number;
}

/** A held lock: `signal` aborts when the lock is lost. */
export interface HeldSweepLock {
  readonly token: string;
  readonly signal: AbortSignal;
  /** One renewal now; false (and the signal aborted) when the lock is no longer ours. */
  renew(): Promise<boolean>;
  /** Stops renewing and deletes the lock if it is still ours. */
  release(): Promise<void>;
}

export class SweepLock {
  private readonly now: () => number;

  constructor(private readonly options: SweepLockOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The lock, or undefined when another sweep holds it. */
  async acquire(): Promise<HeldSweepLock | undefined> {
    const { redis, key, lockMs } = this.options;
    const token = randomUUID();
    const taken = await redis.set(key, token, "PX", lockMs, "NX");
    if (taken !== "OK") return undefined;
    const controller = new AbortController();
    let renewedAt = this.now();
    let timer: NodeJS.Timeout | undefined;
    const renew = async (): Promise<boolean> => {
      if (controller.signal.aborted) return false;
      let ours: boolean;
      try {
        ours = (await redis.eval(RENEW_IF_OURS, 1, key, token, String(lockMs))) === 1;
      } catch {
        // Redis did not answer: the lock may still be ours, until lockMs after the last renewal.
        ours = this.now() - renewedAt < lockMs;
      }
      if (ours) renewedAt = this.now();
      else {
        clearInterval(timer);
        controller.abort(new Error("the sweep lock was lost (it lapsed or another sweep holds it)"));
      }
      return ours;
    };
    timer = setInterval(
      () => void renew(),
      this.options.renewEveryMs ?? Math.max(100, Math.floor(lockMs / 3)),
    );
    timer.unref();
    return {
      token,
      signal: controller.signal,
      renew,
      async release() {
        clearInterval(timer);
        // Only our own lock is released (it may have lapsed and been taken by another sweep).
        await redis.eval(RELEASE_IF_OURS, 1, key, token).catch(() => undefined);
      },
    };
  }
}
