import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { withTimeout } from "../../../src/platform/time/withTimeout.js";

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Settles `promise` into an inspectable record, so a test can see whether it settled yet. */
function watch<T>(promise: Promise<T>) {
  const seen: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => Object.assign(seen, { settled: true, value }),
    (error: unknown) => Object.assign(seen, { settled: true, error }),
  );
  return seen;
}

describe("withTimeout", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("gives the work's value when it settles in time, and leaves no timer behind", async () => {
    const work = deferred<string>();
    const result = watch(withTimeout(work.promise, 1_000, "late"));
    await vi.advanceTimersByTimeAsync(999);
    expect(result.settled).toBe(false);
    work.resolve("answer");
    await vi.advanceTimersByTimeAsync(0);
    expect(result).toEqual({ settled: true, value: "answer" });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("gives the fallback at exactly `ms`, not before; the work's later answer changes nothing", async () => {
    const work = deferred<string>();
    const result = watch(withTimeout(work.promise, 1_000, undefined));
    await vi.advanceTimersByTimeAsync(999);
    expect(result.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toEqual({ settled: true, value: undefined });
    work.resolve("too late");
    await vi.advanceTimersByTimeAsync(0);
    expect(result.value).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("passes the work's rejection through when it comes in time, and clears the timer", async () => {
    const work = deferred<string>();
    const result = watch(withTimeout(work.promise, 1_000, "late"));
    const failure = new Error("refused");
    work.reject(failure);
    await vi.advanceTimersByTimeAsync(0);
    expect(result).toEqual({ settled: true, error: failure });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("ignores a rejection after the fallback was given (no unhandled rejection)", async () => {
    const work = deferred<string>();
    const result = watch(withTimeout(work.promise, 10, false));
    await vi.advanceTimersByTimeAsync(10);
    expect(result).toEqual({ settled: true, value: false });
    // An unhandled rejection would fail the run.
    work.reject(new Error("after the time was up"));
    await vi.advanceTimersByTimeAsync(0);
    expect(result.value).toBe(false);
  });
});
