import type { GateObserver } from "../gate/gate.js";

/** An exponential moving average: `weight` is the share of the new observation (the first one is taken whole). */
function smoothed(before: number | undefined, observed: number, weight: number): number {
  return before === undefined ? observed : before + weight * (observed - before);
}

/** How long an account's typical answer time outlives its last call (as the gate's own state). */
const IDLE_ACCOUNT_MS = 60 * 60_000;

/**
 * How long an account's fleet calls take to answer, smoothed (exponential moving average), so
 * an estimate can end at the answer of a task's last call instead of at its start. An account
 * without a call for `idleMs` is forgotten (every username tried at /fleet login has calls).
 */
export class CallDurations {
  private readonly typical = new Map<string, { ms: number; at: number }>();
  private readonly idleMs: number;
  private readonly now: () => number;
  private sweptAt: number;

  /** `weight`: the share of a new observation in the average. */
  constructor(
    private readonly weight = 0.2,
    options: { idleMs?: number; now?: () => number } = {},
  ) {
    this.idleMs = options.idleMs ?? IDLE_ACCOUNT_MS;
    this.now = options.now ?? Date.now;
    this.sweptAt = this.now();
  }

  record(account: string, durationMs: number): void {
    const now = this.now();
    this.forgetIdle(now);
    this.typical.set(account, {
      ms: smoothed(this.typical.get(account)?.ms, durationMs, this.weight),
      at: now,
    });
  }

  /** The typical answer time of the account's calls; undefined before any answered. */
  typicalMs(account: string): number | undefined {
    return this.typical.get(account)?.ms;
  }

  /** Accounts with a typical answer time kept. */
  knownAccounts(): string[] {
    return [...this.typical.keys()];
  }

  /** Drops accounts whose last call is idleMs old; a pass at most every idleMs / 4. */
  private forgetIdle(now: number): void {
    if (now - this.sweptAt < this.idleMs / 4) return;
    this.sweptAt = now;
    for (const [account, kept] of this.typical)
      if (now - kept.at >= this.idleMs) this.typical.delete(account);
  }

  /** A gate observer feeding this record, passed on to `next` (the metrics). */
  observer(next?: GateObserver): GateObserver {
    return {
      ...next,
      callFinished: (call, outcome, durationMs, callers) => {
        // A refused (rate-limited) call says nothing about how long an answer takes.
        if (outcome !== "rate_limited") this.record(call.account, durationMs);
        next?.callFinished?.(call, outcome, durationMs, callers);
      },
    };
  }
}

/**
 * The bot's own share of a task's time, smoothed like CallDurations: from the task's admission to
 * the point its calls may start (the acks it lets go first, store writes), and from its last
 * answer to the answer delivered in Slack (rendering, the response_url post). An estimate that
 * ends at the last call's answer is short by both; for a lookup whose call goes out at once they
 * are most of the wait.
 */
export class TaskOverhead {
  private start: number | undefined;
  private delivery: number | undefined;

  constructor(private readonly weight = 0.2) {}

  recordStart(ms: number): void {
    this.start = smoothed(this.start, ms, this.weight);
  }

  recordDelivery(ms: number): void {
    this.delivery = smoothed(this.delivery, ms, this.weight);
  }

  /** Typical time from admission to the first call's turn (0 before any task started). */
  startMs(): number {
    return this.start ?? 0;
  }

  /** Typical time from the last answer to the delivered answer (0 before any was delivered). */
  deliveryMs(): number {
    return this.delivery ?? 0;
  }
}
