import type { ServerResponse } from "node:http";

/**
 * Slack requests that have been read but not yet answered (HTTP mode). Work that can wait, a
 * task's answer, waits for them: when 200 commands arrive together their acks go out first,
 * instead of taking turns with answers already under way. Slack gives an ack 3 s and an answer
 * 30 minutes. No library does this: it is a counter over Node's own request and response events.
 */
export class PendingAcks {
  private count = 0;
  private lastReadAt = Number.NEGATIVE_INFINITY;
  private waiters: (() => void)[] = [];
  private releaseTimer: NodeJS.Timeout | undefined;

  /**
   * `quietMs`: how long no new request must have come in. A burst is read over several turns of
   * the event loop (a connection at a time), so "none pending right now" alone would let answers
   * start between two parts of one burst. `maxWaitMs`: the longest a piece of work waits under a
   * steady stream of requests.
   */
  private readonly quietMs: number;
  private readonly maxWaitMs: number;
  private readonly now: () => number;

  constructor(options: { quietMs?: number; maxWaitMs?: number; now?: () => number } = {}) {
    this.quietMs = options.quietMs ?? 20;
    this.maxWaitMs = options.maxWaitMs ?? 2_000;
    this.now = options.now ?? (() => performance.now());
  }

  get pending(): number {
    return this.count;
  }

  /** A Slack request was read; its response ends the wait it adds (sent, or the connection closed). */
  track(res: ServerResponse): void {
    this.count++;
    this.lastReadAt = this.now();
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      this.count--;
      if (this.count === 0) this.release();
    };
    res.once("finish", end);
    res.once("close", end);
  }

  /**
   * Resolves once no Slack request waits for its ack and none came in for `quietMs`, or after
   * `maxWaitMs`. It looks after this turn's I/O, so requests read in the same turn are counted.
   */
  settled(): Promise<void> {
    return new Promise<void>((resolve) => {
      setImmediate(() => {
        if (this.isQuiet()) {
          resolve();
          return;
        }
        const waiter = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          resolve();
        }, this.maxWaitMs);
        this.waiters.push(waiter);
        this.release();
      });
    });
  }

  private isQuiet(): boolean {
    return this.count === 0 && this.now() - this.lastReadAt >= this.quietMs;
  }

  /** Lets the waiters go once it is quiet: looked at again when the quiet time has passed. */
  private release(): void {
    if (this.releaseTimer || this.waiters.length === 0) return;
    const wait = Math.max(0, this.quietMs - (this.now() - this.lastReadAt));
    this.releaseTimer = setTimeout(() => {
      this.releaseTimer = undefined;
      if (this.count > 0) return; // the last response to end calls release again
      if (!this.isQuiet()) {
        this.release();
        return;
      }
      for (const waiter of this.waiters.splice(0)) waiter();
    }, wait);
    this.releaseTimer.unref();
  }
}
