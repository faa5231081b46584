import type { Clock } from "./memoryGate.js";

interface Timer {
  id: number;
  at: number;
  fn: () => void;
}

/**
 * Virtual time for tests and benchmarks: a day of 30-second slots runs in milliseconds,
 * and the spacing the gate keeps can be checked exactly.
 */
export class VirtualClock implements Clock {
  private current: number;
  private timers: Timer[] = [];
  private nextId = 1;

  constructor(start = Date.UTC(2026, 10, 3, 8, 0, 0)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const timer = { id: this.nextId++, at: this.current + Math.max(0, ms), fn };
    this.timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  /** When the next timer fires, if any. */
  nextTimerAt(): number | undefined {
    let next: number | undefined;
    for (const timer of this.timers) if (next === undefined || timer.at < next) next = timer.at;
    return next;
  }

  /** Pending timers, for tests that wait for quiet. */
  get pending(): number {
    return this.timers.length;
  }

  /**
   * Moves time forward to `target`, firing timers in order and letting promise callbacks
   * settle after each one (so work a timer starts can schedule the next timer).
   */
  async advanceTo(target: number): Promise<void> {
    for (;;) {
      await settle();
      this.timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = this.timers[0];
      if (!next || next.at > target) break;
      this.timers.shift();
      this.current = Math.max(this.current, next.at);
      next.fn();
    }
    this.current = Math.max(this.current, target);
    await settle();
  }

  async advanceBy(ms: number): Promise<void> {
    await this.advanceTo(this.current + ms);
  }

  /** Runs timers until none is left or `limitMs` of virtual time has passed. */
  async runAll(limitMs = 7 * 24 * 3600_000): Promise<void> {
    const stopAt = this.current + limitMs;
    for (;;) {
      await settle();
      this.timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = this.timers[0];
      if (!next || next.at > stopAt) return;
      await this.advanceTo(next.at);
    }
  }
}

/**
 * Drives virtual time while real I/O (HTTP to the simulator) happens: jumps to the next
 * timer when nothing is in flight, otherwise yields real time briefly, until `work` settles.
 */
export async function runUntilSettled<T>(
  clock: VirtualClock,
  work: Promise<T>,
  /** True while real I/O is under way: time must not jump then (the simulator reads the same clock). */
  busy: () => boolean = () => false,
  realStepMs = 1,
): Promise<T> {
  let settled = false;
  const watched = work.finally(() => {
    settled = true;
  });
  watched.catch(() => undefined);
  while (!settled) {
    await settle();
    if (settled) break;
    if (clock.pending > 0 && !busy()) await clock.advanceTo(clock.nextTimerAt() ?? clock.now());
    else await new Promise<void>((resolve) => setTimeout(resolve, realStepMs));
  }
  return watched;
}

/** Lets queued promise callbacks run; a few macrotask turns cover chained awaits. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
