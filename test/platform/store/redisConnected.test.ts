/** connected(): a replica's start waits for Redis, at most timeoutMs, and leaves no listener behind. */
import { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { connected } from "../../../src/platform/store/redis/health.js";

describe("connected", () => {
  let redis: Redis;
  beforeEach(() => {
    vi.useFakeTimers();
    // Never connects by itself: the test says when it is ready, or lets the time run out.
    redis = new Redis({ lazyConnect: true });
  });
  afterEach(() => {
    redis.disconnect();
    vi.useRealTimers();
  });

  it("resolves on the connection's ready event, then stops listening", async () => {
    const listeners = redis.listenerCount("ready");
    const waiting = connected(redis, 1_000);
    await vi.advanceTimersByTimeAsync(500);
    redis.emit("ready");
    await expect(waiting).resolves.toBeUndefined();
    expect(redis.listenerCount("ready")).toBe(listeners);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("throws after timeoutMs without a ready event, then stops listening", async () => {
    const listeners = redis.listenerCount("ready");
    const waiting = connected(redis, 1_000);
    const failed = expect(waiting).rejects.toThrow("Redis did not answer within 1000 ms");
    await vi.advanceTimersByTimeAsync(1_000);
    await failed;
    expect(redis.listenerCount("ready")).toBe(listeners);
    expect(vi.getTimerCount()).toBe(0);
  });
});
