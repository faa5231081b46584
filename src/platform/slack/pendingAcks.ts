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
  private waiters: { urgent: boolean; go: () => void }[] = [];
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
   * `urgent` (a lookup) goes before the others when many are let go at once.
   */
  settled(urgent = false): Promise<void> {
    return new Promise<void>((resolve) => {
      setImmediate(() => {
        if (this.isQuiet()) {
          resolve();
          return;
        }
        const waiter = {
          urgent,
          go: () => {
            clearTimeout(timer);
            resolve();
          },
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
      const waiting = this.waiters.splice(0);
      this.letGo([...waiting.filter((w) => w.urgent), ...waiting.filter((w) => !w.urgent)]);
    }, wait);
    this.releaseTimer.unref();
  }

  /**
   * One waiter per turn of the event loop: thirty tasks let go at once would otherwise run their
   * first steps back to back, and the fleet call the first of them sends would leave the process
   * late, after the gate had already counted its slot as started (measured: a 429 from the
   * service, and a lookup answered 1.3 s late instead of at once, with a 200 ms interval).
   */
  private letGo(waiting: { go: () => void }[]): void {
    const next = waiting.shift();
    if (!next) return;
    next.go();
    if (waiting.length > 0) setImmediate(() => this.letGo(waiting));
  }
}
