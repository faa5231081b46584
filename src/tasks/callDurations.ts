import type { GateObserver } from "../gate/gate.js";

/**
 * How long an account's fleet calls take to answer, smoothed (exponential moving average), so
 * an estimate can end at the answer of a task's last call instead of at its start.
 */
export class CallDurations {
  private readonly typical = new Map<string, number>();

  /** `weight`: the share of a new observation in the average. */
  constructor(private readonly weight = 0.2) {}

  record(account: string, durationMs: number): void {
    const before = this.typical.get(account);
    this.typical.set(
      account,
      before === undefined ? durationMs : before + this.weight * (durationMs - before),
    );
  }

  /** The typical answer time of the account's calls; undefined before any answered. */
  typicalMs(account: string): number | undefined {
    return this.typical.get(account);
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
