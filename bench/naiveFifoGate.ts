import type { UpstreamCall } from "../src/platform/fleet/seam.js";
import type { AccountGate, GateSchedule } from "../src/platform/gate/gate.js";
import type { Clock } from "../src/platform/gate/memoryGate.js";

/**
 * The baseline the benchmark compares against: one FIFO queue per account with the same
 * spacing, but no priorities, no shared calls and no retry after a 429 (a 429 fails the call).
 */
export class NaiveFifoGate implements AccountGate {
  private readonly queues = new Map<
    string,
    { tail: Promise<unknown>; lastStartAt?: number; depth: number }
  >();

  constructor(
    private readonly minIntervalMs: number,
    private readonly clock: Clock,
  ) {}

  run<T>(call: UpstreamCall, send: () => Promise<T>): Promise<T> {
    const queue = this.queues.get(call.account) ?? { tail: Promise.resolve(), depth: 0 };
    this.queues.set(call.account, queue);
    queue.depth++;
    const result = queue.tail.then(async () => {
      if (queue.lastStartAt !== undefined) {
        const wait = queue.lastStartAt + this.minIntervalMs - this.clock.now();
        if (wait > 0) await new Promise<void>((resolve) => this.clock.setTimeout(resolve, wait));
      }
      queue.lastStartAt = this.clock.now();
      try {
        return await send();
      } finally {
        queue.depth--;
      }
    });
    queue.tail = result.catch(() => undefined);
    return result;
  }

  async schedule(account: string): Promise<GateSchedule> {
    const queue = this.queues.get(account);
    const now = this.clock.now();
    return { account, nextSlotAt: now, slotMs: this.minIntervalMs, waiting: [], ...(queue ? {} : {}) };
  }

  slotMs(): number {
    return this.minIntervalMs;
  }

  async drained(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.tail));
  }

  async close(): Promise<void> {}
}
