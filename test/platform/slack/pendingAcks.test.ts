import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PendingAcks } from "../../../src/platform/slack/pendingAcks.js";

/** A response as PendingAcks sees it: something that emits "finish" (or "close"). */
const response = () => new EventEmitter() as unknown as ServerResponse;

describe("PendingAcks: a task's work waits for the acks of the requests being read", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const make = (maxWaitMs = 2_000) => new PendingAcks({ quietMs: 20, maxWaitMs, now: () => Date.now() });
  const watch = (p: Promise<void>) => {
    const seen = { done: false };
    void p.then(() => {
      seen.done = true;
    });
    return seen;
  };

  it("lets work start after this turn when no request waits and none came in lately", async () => {
    const acks = make();
    const work = watch(acks.settled());
    expect(work.done).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(work.done).toBe(true);
  });

  it("holds work until the last ack is sent and the requests have stopped coming for the quiet time", async () => {
    const acks = make();
    const first = response();
    const second = response();
    acks.track(first);
    acks.track(second);
    const work = watch(acks.settled());
    await vi.advanceTimersByTimeAsync(100);
    expect(work.done).toBe(false);
    first.emit("finish");
    await vi.advanceTimersByTimeAsync(100);
    expect(work.done).toBe(false); // one ack still to go
    // A third request is read just before the second ack goes out: more of the burst may be
    // coming, so the work waits until none has come in for the quiet time (20 ms).
    const third = response();
    acks.track(third);
    second.emit("finish");
    await vi.advanceTimersByTimeAsync(5);
    third.emit("close"); // a closed connection ends its wait too
    expect(acks.pending).toBe(0);
    await vi.advanceTimersByTimeAsync(10);
    expect(work.done).toBe(false);
    await vi.advanceTimersByTimeAsync(6);
    expect(work.done).toBe(true);
  });

  it("never holds work longer than maxWaitMs under a steady stream of requests", async () => {
    const acks = make(500);
    acks.track(response()); // never answered
    const work = watch(acks.settled());
    await vi.advanceTimersByTimeAsync(499);
    expect(work.done).toBe(false);
    await vi.advanceTimersByTimeAsync(2);
    expect(work.done).toBe(true);
  });

  it("lets a lookup go first, then the rest in their order", async () => {
    const acks = make();
    const res = response();
    acks.track(res);
    const order: string[] = [];
    const waits = ["report 1", "report 2", "lookup", "report 3"].map((name) =>
      acks.settled(name === "lookup").then(() => order.push(name)),
    );
    await vi.advanceTimersByTimeAsync(5);
    res.emit("finish");
    await vi.advanceTimersByTimeAsync(25); // quiet: let go, the lookup first
    await Promise.all(waits);
    expect(order).toEqual(["lookup", "report 1", "report 2", "report 3"]);
  });

  it("counts a response once, whether it finishes, closes, or both", async () => {
    const acks = make();
    const res = response();
    acks.track(res);
    acks.track(response());
    res.emit("finish");
    res.emit("close");
    expect(acks.pending).toBe(1);
  });
});
