/**
 * The SharedState contract, one test body for the process' memory and for Redis (a real
 * redis-server). Each test gets a fresh state and a second handle on the same memory, as
 * another replica sees it (for Redis: another connection; in memory: the same object, since
 * one process has one memory).
 *
 * Time: the memory runs on a fake clock; Redis on its own (`TIME`, its key expiry), so a Redis
 * test waits until the server's clock has passed the instant it needs. Assertions that a thing
 * is still remembered use minutes; only the "forgotten" steps use short spans, and they wait
 * for the server clock to pass them rather than for a fixed time.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisSharedState } from "../../../src/platform/store/redis/sharedState.js";
import { MemorySharedState, type SharedState } from "../../../src/platform/store/sharedState.js";
import {
  type RedisServer,
  redisForTests,
  redisSkipReason,
  startRedisServer,
} from "../../helpers/redisServer.js";

const MIN = 60_000;
/** A span short enough to wait out on a real Redis, long enough for a few round trips inside it. */
const SHORT = 400;

interface Opened {
  state: SharedState;
  /** The same memory through another handle (another replica). */
  replica: SharedState;
  /** The clock the state reads (Redis: its server time), in ms. */
  now(): Promise<number>;
  /** Returns once the state's clock has reached `at`. */
  waitUntil(at: number): Promise<void>;
}

interface Backend {
  open(): Promise<Opened>;
}

function memoryBackend(): Backend {
  return {
    async open() {
      const clock = { now: Date.UTC(2026, 10, 3, 8, 0, 0) };
      const state = new MemorySharedState({ now: () => clock.now });
      return {
        state,
        replica: state,
        now: async () => clock.now,
        async waitUntil(at) {
          clock.now = Math.max(clock.now, at);
        },
      };
    },
  };
}

/** Redis' own clock, in ms (what its scripts and expiry read). */
async function serverTime(redis: Redis): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

function redisBackend(): Backend {
  const redis = redisForTests();
  const connect = () => redis.connect();
  return {
    async open() {
      const prefix = `shared-test:${randomBytes(4).toString("hex")}:`;
      const redis = connect();
      return {
        state: new RedisSharedState(redis, { prefix }),
        replica: new RedisSharedState(connect(), { prefix }),
        now: () => serverTime(redis),
        async waitUntil(at) {
          for (;;) {
            const left = at - (await serverTime(redis));
            if (left <= 0) return;
            await new Promise((resolve) => setTimeout(resolve, left));
          }
        },
      };
    },
  };
}

describe.each(["memory", "redis"] as const)("SharedState on %s", (name) => {
  const skip = name === "redis" ? redisSkipReason : undefined;
  describe.skipIf(skip !== undefined)(skip ?? "contract", () => {
    const backend = name === "memory" ? memoryBackend() : redisBackend();

    it("firstSeen: true once per key within its ttl, on every replica; forgotten after it", async () => {
      const s = await backend.open();
      expect(await s.state.firstSeen("a", 5 * MIN)).toBe(true);
      expect(await s.state.firstSeen("a", 5 * MIN)).toBe(false);
      expect(await s.replica.firstSeen("a", 5 * MIN)).toBe(false);
      expect(await s.replica.firstSeen("b", 5 * MIN)).toBe(true);
      expect(await s.state.firstSeen("b", 5 * MIN)).toBe(false);

      expect(await s.state.firstSeen("short", SHORT)).toBe(true);
      const rememberedBy = (await s.now()) + SHORT;
      expect(await s.replica.firstSeen("short", SHORT)).toBe(false);
      await s.waitUntil(rememberedBy + 1);
      expect(await s.replica.firstSeen("short", SHORT)).toBe(true);
      expect(await s.state.firstSeen("short", SHORT)).toBe(false);
      // The long ones are still remembered.
      expect(await s.state.firstSeen("a", 5 * MIN)).toBe(false);
    });

    it("firstSeen: a repeat with a longer ttl keeps the key that much longer; a shorter one does not shorten it", async () => {
      const s = await backend.open();
      expect(await s.state.firstSeen("retried", SHORT)).toBe(true);
      // Slack's retry of the request, with a later timestamp: remembered to the end of its own window.
      expect(await s.replica.firstSeen("retried", 5 * MIN)).toBe(false);
      await s.waitUntil((await s.now()) + SHORT + 1);
      expect(await s.state.firstSeen("retried", SHORT)).toBe(false);
      // A shorter ttl given later leaves the longer memory as it was.
      expect(await s.state.firstSeen("long", 5 * MIN)).toBe(true);
      expect(await s.replica.firstSeen("long", SHORT)).toBe(false);
      await s.waitUntil((await s.now()) + SHORT + 1);
      expect(await s.state.firstSeen("long", 5 * MIN)).toBe(false);
    });

    it("mark: seen by every replica until unmarked or its ttl ends", async () => {
      const s = await backend.open();
      expect(await s.replica.isMarked("ack")).toBe(false);
      await s.state.mark("ack", 5 * MIN);
      expect(await s.replica.isMarked("ack")).toBe(true);
      await s.replica.unmark("ack");
      expect(await s.state.isMarked("ack")).toBe(false);
      await s.state.mark("lapses", SHORT);
      const until = (await s.now()) + SHORT;
      expect(await s.replica.isMarked("lapses")).toBe(true);
      await s.waitUntil(until + 1);
      expect(await s.replica.isMarked("lapses")).toBe(false);
      await expect(s.state.mark("x", 0)).rejects.toThrow(RangeError);
    });

    it("firstSeen: of concurrent calls from two replicas, exactly one is first", async () => {
      const s = await backend.open();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? s.replica : s.state).firstSeen("race", 5 * MIN)),
      );
      expect(answers.filter((first) => first)).toHaveLength(1);
    });

    it("takeInWindow: `limit` uses per key in the window, then says when the oldest leaves", async () => {
      const s = await backend.open();
      const before = await s.now();
      expect(await s.state.takeInWindow("u1", 3, 10 * MIN)).toEqual({ ok: true });
      const after = await s.now();
      expect(await s.replica.takeInWindow("u1", 3, 10 * MIN)).toEqual({ ok: true });
      expect(await s.state.takeInWindow("u1", 3, 10 * MIN)).toEqual({ ok: true });
      const refused = await s.replica.takeInWindow("u1", 3, 10 * MIN);
      if (refused.ok) throw new Error("a fourth use in the window was counted");
      expect(refused.retryAt).toBeGreaterThanOrEqual(before + 10 * MIN);
      expect(refused.retryAt).toBeLessThanOrEqual(after + 10 * MIN);
      // Another key has a budget of its own.
      expect(await s.state.takeInWindow("u2", 3, 10 * MIN)).toEqual({ ok: true });
    });

    it("forgetWindows: every window under the prefix is forgotten on every replica, others stay (glob characters are literal)", async () => {
      const s = await backend.open();
      for (const key of ["ws:T:A/u1", "ws:T:A/u2", "ws:T:AB/u1", "ws:T:*/u1"])
        for (let i = 0; i < 3; i++) await s.state.takeInWindow(key, 3, 10 * MIN);
      expect(await s.replica.forgetWindows("ws:T:A/")).toBe(2);
      expect(await s.state.takeInWindow("ws:T:A/u1", 3, 10 * MIN)).toEqual({ ok: true });
      expect((await s.state.takeInWindow("ws:T:AB/u1", 3, 10 * MIN)).ok).toBe(false);
      expect(await s.state.forgetWindows("ws:T:*/")).toBe(1);
      expect((await s.state.takeInWindow("ws:T:AB/u1", 3, 10 * MIN)).ok).toBe(false);
      expect(await s.state.forgetWindows("ws:T:A/")).toBe(1);
    });

    it("takeInWindow: each use leaves the window windowMs after it was counted; a refusal is not counted", async () => {
      const s = await backend.open();
      expect(await s.state.takeInWindow("u", 2, SHORT)).toEqual({ ok: true });
      const firstBy = await s.now();
      await s.waitUntil(firstBy + SHORT / 2);
      expect(await s.replica.takeInWindow("u", 2, SHORT)).toEqual({ ok: true });
      const refused = await s.state.takeInWindow("u", 2, SHORT);
      if (refused.ok) throw new Error("a third use in the window was counted");
      expect(refused.retryAt).toBeLessThanOrEqual(firstBy + SHORT);
      await s.waitUntil(refused.retryAt);
      // The first use has left; the second is still in. Had the refusal counted, this would be refused.
      expect(await s.replica.takeInWindow("u", 2, SHORT)).toEqual({ ok: true });
      const next = await s.state.takeInWindow("u", 2, SHORT);
      if (next.ok) throw new Error("a third use in the window was counted");
      // Now the second use is the oldest.
      expect(next.retryAt).toBeGreaterThanOrEqual(refused.retryAt + SHORT / 2);
    });

    it("takeInWindow: concurrent uses from two replicas count exactly `limit`", async () => {
      const s = await backend.open();
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (i % 2 ? s.replica : s.state).takeInWindow("burst", 3, 10 * MIN),
        ),
      );
      expect(answers.filter((answer) => answer.ok)).toHaveLength(3);
    });

    it("takeInWindow with an id: counted once however often retaken, and given back on any replica", async () => {
      const s = await backend.open();
      expect(await s.state.takeInWindow("named", 2, 10 * MIN, "t1")).toEqual({ ok: true });
      // The same use again (a retried step) is not a second one.
      expect(await s.replica.takeInWindow("named", 2, 10 * MIN, "t1")).toEqual({ ok: true });
      expect(await s.state.takeInWindow("named", 2, 10 * MIN, "t2")).toEqual({ ok: true });
      // Full: a new use is refused, one already counted is still ok.
      expect((await s.replica.takeInWindow("named", 2, 10 * MIN, "t3")).ok).toBe(false);
      expect(await s.replica.takeInWindow("named", 2, 10 * MIN, "t2")).toEqual({ ok: true });
      // Given back (on the other replica): its place is free.
      expect(await s.replica.giveBackInWindow("named", "t1")).toBe(true);
      expect(await s.state.giveBackInWindow("named", "t1")).toBe(false);
      expect(await s.state.giveBackInWindow("other", "t2")).toBe(false);
      expect(await s.state.takeInWindow("named", 2, 10 * MIN, "t3")).toEqual({ ok: true });
      expect((await s.state.takeInWindow("named", 2, 10 * MIN)).ok).toBe(false);
      // The uses left keep their window.
      expect(await s.state.giveBackInWindow("named", "t2")).toBe(true);
      expect(await s.state.giveBackInWindow("named", "t3")).toBe(true);
      expect(await s.state.takeInWindow("named", 2, 10 * MIN)).toEqual({ ok: true });
    });

    it("each operation has its own key space", async () => {
      const s = await backend.open();
      expect(await s.state.firstSeen("k", 5 * MIN)).toBe(true);
      expect(await s.state.takeInWindow("k", 1, 5 * MIN)).toEqual({ ok: true });
      expect(await s.state.firstSeen("k", 5 * MIN)).toBe(false);
      expect((await s.state.takeInWindow("k", 1, 5 * MIN)).ok).toBe(false);
    });

    it("refuses times and limits that are not positive whole numbers, and remembers nothing", async () => {
      const s = await backend.open();
      await expect(s.state.firstSeen("x", 0)).rejects.toThrow(RangeError);
      await expect(s.state.firstSeen("x", 1.5)).rejects.toThrow(RangeError);
      await expect(s.state.takeInWindow("x", 0, MIN)).rejects.toThrow(RangeError);
      await expect(s.state.takeInWindow("x", 1, -1)).rejects.toThrow(RangeError);
      await expect(s.state.takeInWindow("x", 1, Number.NaN)).rejects.toThrow(RangeError);
      expect(await s.state.firstSeen("x", MIN)).toBe(true);
      expect(await s.state.takeInWindow("x", 1, MIN)).toEqual({ ok: true });
    });
  });
});

describe("MemorySharedState (the one-process memory)", () => {
  it("firstSeen forgets a key exactly at its ttl; a repeat remembers it its own ttl from then", async () => {
    let now = 0;
    const state = new MemorySharedState({ now: () => now });
    expect(await state.firstSeen("a", 300_000)).toBe(true);
    now = 299_999;
    expect(await state.firstSeen("a", 1)).toBe(false);
    now = 300_000;
    expect(await state.firstSeen("a", 300_000)).toBe(true);
    now = 400_000;
    expect(await state.firstSeen("a", 300_000)).toBe(false);
    now = 699_999;
    expect(await state.firstSeen("a", 1)).toBe(false);
    now = 700_000;
    expect(await state.firstSeen("a", 1)).toBe(true);
  });

  it("keeps at most maxEntries keys, dropping the oldest", async () => {
    let now = 1;
    const state = new MemorySharedState({ now: () => now, maxEntries: 3 });
    for (const key of ["a", "b", "c", "d"]) expect(await state.firstSeen(key, 300_000)).toBe(true);
    expect(state.rememberedCount).toBe(3);
    now = 2;
    expect(await state.firstSeen("a", 300_000)).toBe(true);
    expect(await state.firstSeen("d", 300_000)).toBe(false);
  });

  it("a key whose memory a repeat lengthened is not the first to go when the bound is reached", async () => {
    let now = 0;
    const state = new MemorySharedState({ now: () => now, maxEntries: 2 });
    expect(await state.firstSeen("a", 1000)).toBe(true);
    expect(await state.firstSeen("b", 1000)).toBe(true);
    now = 10;
    expect(await state.firstSeen("a", 5000)).toBe(false); // Slack's retry: remembered longer
    expect(await state.firstSeen("c", 1000)).toBe(true); // the bound drops the oldest: "b"
    expect(await state.firstSeen("a", 1000)).toBe(false);
    expect(await state.firstSeen("b", 1000)).toBe(true);
  });

  it("a window ends exactly windowMs after its oldest use; a full window's memory stays bounded", async () => {
    let now = 0;
    const state = new MemorySharedState({ now: () => now, maxEntries: 2 });
    expect(await state.takeInWindow("u", 2, 1000)).toEqual({ ok: true });
    now = 400;
    expect(await state.takeInWindow("u", 2, 1000)).toEqual({ ok: true });
    now = 999;
    expect(await state.takeInWindow("u", 2, 1000)).toEqual({ ok: false, retryAt: 1000 });
    now = 1000;
    expect(await state.takeInWindow("u", 2, 1000)).toEqual({ ok: true });
    expect(await state.takeInWindow("u", 2, 1000)).toEqual({ ok: false, retryAt: 1400 });
    // Two other keys push "u" out (the bound); it starts over.
    expect(await state.takeInWindow("v", 2, 1000)).toEqual({ ok: true });
    expect(await state.takeInWindow("w", 2, 1000)).toEqual({ ok: true });
    expect(await state.takeInWindow("u", 2, 1000)).toEqual({ ok: true });
  });
});

describe.skipIf(redisSkipReason !== undefined)("RedisSharedState's keys", () => {
  let server: RedisServer;
  let redis: Redis;
  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url, { maxRetriesPerRequest: 3 });
  });
  afterAll(async () => {
    redis.disconnect();
    await server.stop();
  });

  it("live under the prefix, expire with their ttl, and two prefixes never meet", async () => {
    const one = new RedisSharedState(redis, { prefix: "one:" });
    const two = new RedisSharedState(redis, { prefix: "two:" });
    expect(await one.firstSeen("k", MIN)).toBe(true);
    expect(await two.firstSeen("k", MIN)).toBe(true);
    await one.takeInWindow("k", 3, 2 * MIN);
    expect((await redis.keys("one:*")).sort()).toEqual(["one:shared:once:k", "one:shared:window:k"]);
    const ttl = async (key: string) => await redis.pttl(key);
    expect(await ttl("one:shared:once:k")).toBeGreaterThan(0);
    expect(await ttl("one:shared:once:k")).toBeLessThanOrEqual(MIN);
    expect(await ttl("one:shared:window:k")).toBeGreaterThan(MIN);
    expect(await ttl("one:shared:window:k")).toBeLessThanOrEqual(2 * MIN);
  });

  it("defaults to the stores' prefix and refuses a client with ioredis' keyPrefix", async () => {
    expect(await new RedisSharedState(redis).firstSeen("default", MIN)).toBe(true);
    expect(await redis.get("fleetbot:shared:once:default")).toBe("1");
    const prefixed = new Redis(server.url, { keyPrefix: "x:", lazyConnect: true });
    expect(() => new RedisSharedState(prefixed)).toThrow(/keyPrefix/);
    prefixed.disconnect();
  });

  it("still works after the server forgot its scripts (a restarted Redis)", async () => {
    const state = new RedisSharedState(redis, { prefix: "flush:" });
    expect((await state.takeInWindow("w", 2, MIN)).ok).toBe(true);
    await redis.script("FLUSH");
    expect((await state.takeInWindow("w", 2, MIN)).ok).toBe(true);
    expect((await state.takeInWindow("w", 2, MIN)).ok).toBe(false);
  });
});
