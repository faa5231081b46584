import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RateLimitedError, UnauthorizedError } from "../../../src/platform/fleet/errors.js";
import type { Priority, UpstreamCall } from "../../../src/platform/fleet/seam.js";
import { CallCancelledError } from "../../../src/platform/gate/gate.js";
import { createRedisFleetGate } from "../../../src/platform/gate/redisFleetGate.js";
import { RedisGate, type RedisGateOptions } from "../../../src/platform/gate/redisGate.js";
import { type RedisServer, redisSkipReason, startRedisServer } from "../../helpers/redisServer.js";

// Scaled-down spacing: 60 ms interval + 20 ms margin = an 80 ms slot.
const INTERVAL = 60;
const MARGIN = 20;
const SLOT = INTERVAL + MARGIN;
const LEASE = 300;
const ACCOUNT = "demo";

interface Replica {
  name: string;
  redis: Redis;
  gate: RedisGate;
}

let server: RedisServer;
let prefix: string;
let opened: Replica[] = [];

beforeAll(async () => {
  if (!redisSkipReason) server = await startRedisServer();
});
afterAll(async () => {
  await server?.stop();
});
afterEach(async () => {
  for (const replica of opened) {
    await replica.gate.close().catch(() => undefined);
    replica.redis.disconnect();
  }
  opened = [];
});

/** One "replica": its own connection and gate, the shared prefix of the test. */
function replica(name: string, extra: Partial<RedisGateOptions> = {}, url = server.url): Replica {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  redis.on("error", () => undefined); // a killed server is part of some tests
  const gate = createRedisFleetGate({
    redis,
    replicaId: name,
    keyPrefix: prefix,
    minIntervalMs: INTERVAL,
    safetyMarginMs: MARGIN,
    leaseMs: LEASE,
    ...extra,
  });
  const made = { name, redis, gate };
  opened.push(made);
  return made;
}

function call(
  priority: Priority,
  extra: {
    shareKey?: string;
    signal?: AbortSignal;
    taskId?: string;
    endpoint?: UpstreamCall["endpoint"];
    history?: boolean;
  } = {},
): UpstreamCall {
  return {
    account: ACCOUNT,
    endpoint: extra.endpoint ?? "stops",
    shareKey: extra.shareKey,
    history: extra.history,
    context: { priority, signal: extra.signal, taskId: extra.taskId },
  };
}

/** Redis server time in ms, read on the replica's own connection (the clock the gate uses). */
async function serverTime(redis: Redis): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

/** Records each send's start with Redis TIME, in the order the sends began. */
class StartRecorder {
  readonly starts: { label: string; at: number }[] = [];

  send<T>(replica: Replica, label: string, value: T): () => Promise<T> {
    return async () => {
      this.starts.push({ label, at: await serverTime(replica.redis) });
      return value;
    };
  }

  gaps(): number[] {
    const sorted = this.starts.map((s) => s.at).sort((a, b) => a - b);
    return sorted.slice(1).map((at, i) => at - sorted[i]!);
  }

  labels(): string[] {
    return [...this.starts].sort((a, b) => a.at - b.at).map((s) => s.label);
  }
}

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Polls (bounded) until a condition holds; for states, never for timing assertions. */
async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** How many replicas wait on the entry of a shareKey (read straight from Redis). */
async function redisMembers(on: Replica, shareKey: string): Promise<number> {
  const base = `${prefix}:{${encodeURIComponent(ACCOUNT)}}`;
  const id = await on.redis.hget(`${base}:share`, shareKey);
  if (id === null) return 0;
  const fields = await on.redis.hkeys(`${base}:e:${id}`);
  return fields.filter((f) => f.startsWith("m:")).length;
}

/** Holds the account's turn on `owner` until released: the calls queued meanwhile all wait. */
async function holdTurn(owner: Replica, recorder?: StartRecorder) {
  const release = deferred();
  const started = deferred();
  const done = owner.gate.run(
    call("interactive", { endpoint: "company-vehicles", taskId: "holder" }),
    async () => {
      if (recorder) recorder.starts.push({ label: "holder", at: await serverTime(owner.redis) });
      started.resolve();
      await release.promise;
      return "held";
    },
  );
  await started.promise;
  return { release: () => release.resolve(), done };
}

describe.skipIf(redisSkipReason)("RedisGate across replicas (real redis-server)", () => {
  beforeAll(() => {
    prefix = "";
  });
  // Each test its own key prefix: nothing of one test is seen by the next.
  afterEach(() => {
    prefix = "";
  });
  const fresh = () => {
    prefix = `test:${randomUUID()}`;
  };

  it("gives every key of an account a TTL (refreshed on use, never with calls waiting), so a username tried once does not stay", async () => {
    fresh();
    const TTL = 60_000;
    const a = replica("a", { idleKeyTtlMs: TTL });
    const b = replica("b", { idleKeyTtlMs: TTL });
    const base = `${prefix}:{${encodeURIComponent(ACCOUNT)}}`;
    const ttls = async () => {
      const keys = await a.redis.keys(`${base}:*`);
      return Promise.all(keys.map(async (key) => ({ key, pttl: await a.redis.pttl(key) })));
    };
    // A turn held on A while B's call waits: the keys of a waiting account, an entry among them.
    const held = await holdTurn(a);
    const waiting = b.gate.run(call("report", { shareKey: "k" }), async () => "answered");
    await until(async () => (await redisMembers(b, "k")) === 1, "b's call waiting");
    for (const { key, pttl } of await ttls()) {
      if (key.endsWith(":turn")) continue; // the lease
      expect(pttl, key).toBeGreaterThan(TTL - 5_000);
    }
    held.release();
    expect(await waiting).toBe("answered");
    await held.done;
    // Idle now: whatever is left (schedule, counter, last answers) expires; none is kept for ever.
    const left = await ttls();
    expect(left.map((k) => k.key)).toContain(`${base}:s`);
    for (const { key, pttl } of left) {
      expect(pttl, key).toBeGreaterThan(0);
      expect(pttl, key).toBeLessThanOrEqual(TTL);
    }
  });

  it("drops its own record of an idle account; the account's next call is still spaced by Redis", async () => {
    fresh();
    const recorder = new StartRecorder();
    const a = replica("a", { idleAccountMs: 0 });
    await a.gate.run(call("interactive"), recorder.send(a, "first", 1));
    await a.gate.drained();
    await a.gate.run({ ...call("interactive"), account: "other" }, async () => 0);
    expect(a.gate.knownAccounts()).toEqual(["other"]);
    await a.gate.run(call("interactive"), recorder.send(a, "second", 2));
    expect(recorder.gaps()[0]).toBeGreaterThanOrEqual(SLOT);
  });

  it("spaces the starts of one account by interval + margin across two replicas (Redis TIME)", async () => {
    fresh();
    const a = replica("a");
    const b = replica("b");
    const recorder = new StartRecorder();
    const priorities: Priority[] = ["interactive", "report", "alert", "background"];
    const calls: Promise<string>[] = [];
    for (let i = 0; i < 16; i++) {
      const on = i % 2 === 0 ? a : b;
      const label = `${on.name}${i}`;
      calls.push(on.gate.run(call(priorities[i % 4]!), recorder.send(on, label, label)));
    }
    const answers = await Promise.all(calls);
    expect(answers).toEqual(Array.from({ length: 16 }, (_, i) => `${i % 2 === 0 ? "a" : "b"}${i}`));
    expect(recorder.starts).toHaveLength(16);
    const gaps = recorder.gaps();
    expect(gaps.filter((gap) => gap < SLOT)).toEqual([]);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(SLOT);
    await a.gate.drained();
    await b.gate.drained();
  });

  it("keeps accounts apart: another account's calls do not wait for this one's slot", async () => {
    fresh();
    const a = replica("a");
    const b = replica("b");
    const held = await holdTurn(a);
    const other = await b.gate.run({ ...call("report"), account: "other" }, async () => "free");
    expect(other).toBe("free");
    held.release();
    await held.done;
  });

  it("serves an interactive call queued on A before reports queued earlier on B", async () => {
    fresh();
    const a = replica("a");
    const b = replica("b");
    const recorder = new StartRecorder();
    const release = deferred();
    const firstStarted = deferred();
    const reports = [0, 1, 2].map((i) =>
      b.gate.run(call("report", { taskId: `r${i}` }), async () => {
        recorder.starts.push({ label: `report${i}`, at: await serverTime(b.redis) });
        if (i === 0) {
          firstStarted.resolve();
          await release.promise;
        }
        return i;
      }),
    );
    await firstStarted.promise;
    // B's other two reports are in Redis (seen from A) before A's lookup arrives.
    await until(
      async () => (await a.gate.schedule(ACCOUNT)).waiting.length === 2,
      "B's reports in the queue",
    );
    const lookup = a.gate.run(
      call("interactive", { endpoint: "company-vehicles", taskId: "lookup" }),
      recorder.send(a, "lookup", "vehicles"),
    );
    await until(async () => (await b.gate.schedule(ACCOUNT)).waiting.length === 3, "A's lookup in the queue");
    const schedule = await b.gate.schedule(ACCOUNT);
    expect(schedule.waiting.map((w) => w.taskIds)).toEqual([["lookup"], ["r1"], ["r2"]]);
    release.resolve();
    expect(await lookup).toBe("vehicles");
    expect(await Promise.all(reports)).toEqual([0, 1, 2]);
    expect(recorder.labels()).toEqual(["report0", "lookup", "report1", "report2"]);
  });

  it("makes identical waiting calls of two replicas once; both get equal values, Dates intact", async () => {
    fresh();
    const a = replica("a");
    const b = replica("b");
    const held = await holdTurn(a);
    let sends = 0;
    const answer = (by: string) => async () => {
      sends++;
      return {
        by,
        stops: [
          { vehicleId: 7, from: new Date("2026-11-03T06:10:00Z"), to: new Date("2026-11-03T06:45:00Z") },
          { vehicleId: 7, from: new Date("2026-11-03T09:00:00Z"), to: null },
        ],
        totals: new Map([["km", 412.5]]),
      };
    };
    const key = 'stops {"vehicleIds":[7]}';
    const onA = a.gate.run(call("report", { shareKey: key, taskId: "ta" }), answer("a"));
    await until(async () => (await b.gate.schedule(ACCOUNT)).waiting.length === 1, "A's report queued");
    const onB = b.gate.run(call("report", { shareKey: key, taskId: "tb" }), answer("b"));
    await until(
      async () => (await a.gate.schedule(ACCOUNT)).waiting[0]?.taskIds.length === 2,
      "B joined A's entry",
    );
    expect((await a.gate.schedule(ACCOUNT)).waiting.map((w) => w.taskIds.sort())).toEqual([["ta", "tb"]]);
    held.release();
    const [valueA, valueB] = await Promise.all([onA, onB]);
    expect(sends).toBe(1);
    expect(valueB).toEqual(valueA);
    expect(valueB.stops[0]!.from).toBeInstanceOf(Date);
    expect(valueB.stops[0]!.from.toISOString()).toBe("2026-11-03T06:10:00.000Z");
    expect(valueB.totals.get("km")).toBe(412.5);

    // The same report asked again within a slot, on the other replica: answered from that call.
    let shared = 0;
    const c = replica("c", { observer: { callShared: () => shared++ } });
    const again = await c.gate.run(call("report", { shareKey: key }), answer("c"));
    expect(sends).toBe(1);
    expect(shared).toBe(1);
    expect(again).toEqual(valueA);
  });

  it("a history answer serves identical reports on every replica for the reuse time, a present-state one for a slot", async () => {
    fresh();
    const REUSE = 8 * SLOT; // scaled from REPORT_ANSWER_REUSE_MS
    const a = replica("a", { reportAnswerReuseMs: REUSE });
    const b = replica("b", { reportAnswerReuseMs: REUSE });
    let sends = 0;
    const send = async () => ++sends;
    const history = call("report", { shareKey: "stops 25 40d", history: true });
    const present = call("report", { endpoint: "company-vehicles", shareKey: "company-vehicles null" });
    expect(await a.gate.run(history, send)).toBe(1);
    expect(await a.gate.run(present, send)).toBe(2);
    await sleep(3 * SLOT); // older than a slot, younger than the reuse time
    expect(await b.gate.run(history, send)).toBe(1);
    expect(await b.gate.run(present, send)).toBe(3);
    await sleep(REUSE);
    expect(await b.gate.run(history, send)).toBe(4);
  });

  it("joins a call already under way on the other replica, and a more urgent joiner raises a waiting one", async () => {
    fresh();
    const a = replica("a");
    const b = replica("b");
    let sends = 0;
    const release = deferred();
    const started = deferred();
    const running = a.gate.run(call("report", { shareKey: "run" }), async () => {
      sends++;
      started.resolve();
      await release.promise;
      return { at: new Date("2026-11-03T08:00:00Z") };
    });
    await started.promise;
    const joined = b.gate.run(call("report", { shareKey: "run" }), async () => {
      sends++;
      return { at: new Date(0) };
    });
    await until(async () => (await redisMembers(a, "run")) === 2, "B joined the running call");
    // Meanwhile two reports wait on A; B asks the second one as an interactive lookup.
    const r1 = a.gate.run(call("report", { shareKey: "r1", taskId: "r1" }), async () => "r1");
    const r2 = a.gate.run(call("report", { shareKey: "r2", taskId: "r2" }), async () => "r2");
    await until(async () => (await b.gate.schedule(ACCOUNT)).waiting.length === 2, "reports queued");
    const urgent = b.gate.run(call("interactive", { shareKey: "r2", taskId: "look" }), async () => "r2 by b");
    await until(async () => (await redisMembers(a, "r2")) === 2, "B joined r2");
    const schedule = await a.gate.schedule(ACCOUNT);
    expect(schedule.waiting.map((w) => [w.priority, w.taskIds.sort()])).toEqual([
      ["interactive", ["look", "r2"]],
      ["report", ["r1"]],
    ]);
    release.resolve();
    expect((await joined).at).toEqual(new Date("2026-11-03T08:00:00Z"));
    expect(await running).toEqual(await joined);
    expect(sends).toBe(1);
    const [first, second, third] = await Promise.all([r2, urgent, r1]);
    expect(first).toBe(second);
    expect(third).toBe("r1");
  });

  it("shares a fleet error as the same class; an unknown error makes the other replica ask itself", async () => {
    fresh();
    const a = replica("a");
    const b = replica("b");
    // Either replica may send a shared call (any live member takes the entry): count sends on both.
    let held = await holdTurn(a);
    const senders: string[] = [];
    const refuse = (by: string) => async () => {
      senders.push(by);
      throw new UnauthorizedError("stops", "access", { correlationId: `c-${by}` });
    };
    const onA = a.gate.run(call("report", { shareKey: "k1" }), refuse("a"));
    await until(async () => (await b.gate.schedule(ACCOUNT)).waiting.length === 1, "A's call queued");
    const onB = b.gate.run(call("report", { shareKey: "k1" }), refuse("b"));
    await until(async () => (await redisMembers(a, "k1")) === 2, "B joined A's entry");
    held.release();
    const [errorA, errorB] = await Promise.all([onA.catch((e: unknown) => e), onB.catch((e: unknown) => e)]);
    expect(senders).toHaveLength(1);
    for (const error of [errorA, errorB]) {
      expect(error).toBeInstanceOf(UnauthorizedError);
      if (!(error instanceof UnauthorizedError)) throw new Error("unreachable");
      expect(error.reason).toBe("access");
      expect(error.kind).toBe("unauthorized");
      expect(error.status).toBe(401);
      expect(error.correlationId).toBe(`c-${senders[0]}`);
      expect(error.userFailure()).toEqual({ code: "unauthorized-vehicles" });
      expect(error.describeForSupport()).toContain("fleet stops | unauthorized | HTTP 401");
    }

    // An error class the gate does not know cannot cross faithfully: the other replica's caller
    // sends its own call (the first send fails, any later one answers).
    held = await holdTurn(a);
    class TokenTrouble extends Error {}
    const sends: string[] = [];
    const flaky = (by: string) => async () => {
      sends.push(by);
      if (sends.length === 1) throw new TokenTrouble("token expired while queued");
      return `answer of ${by}`;
    };
    const onA2 = a.gate.run(call("report", { shareKey: "k2" }), flaky("a"));
    await until(async () => (await b.gate.schedule(ACCOUNT)).waiting.length === 1, "A's call queued");
    const onB2 = b.gate.run(call("report", { shareKey: "k2" }), flaky("b"));
    await until(async () => (await redisMembers(a, "k2")) === 2, "B joined A's entry");
    held.release();
    const outcomes = await Promise.all([onA2.catch((e: unknown) => e), onB2.catch((e: unknown) => e)]);
    expect(sends).toHaveLength(2);
    const first = sends[0]!;
    const second = sends[1]!;
    expect(first).not.toBe(second);
    const byReplica = new Map([
      ["a", outcomes[0]],
      ["b", outcomes[1]],
    ]);
    expect(byReplica.get(first)).toBeInstanceOf(TokenTrouble);
    expect(byReplica.get(second)).toBe(`answer of ${second}`);
  });

  it("a 429 on A widens B's spacing; the margin is dropped after N clean calls", async () => {
    fresh();
    const STEP = 40;
    const options = { marginStepMs: STEP, maxExtraMarginMs: 100, marginRecoveryCalls: 3 };
    const a = replica("a", options);
    const b = replica("b", options);
    const recorder = new StartRecorder();
    let limited = false;
    const limitedNow = deferred();
    const first = a.gate.run(call("interactive", { endpoint: "company-vehicles" }), async () => {
      recorder.starts.push({ label: "a429", at: await serverTime(a.redis) });
      if (!limited) {
        limited = true;
        limitedNow.resolve();
        throw new RateLimitedError("company-vehicles", 0);
      }
      return "after retry";
    });
    // B's calls queue behind A's (retried first: interactive); their spacing comes from A's 429.
    await limitedNow.promise;
    const later = [0, 1, 2, 3, 4].map((i) =>
      b.gate.run(call("report", { taskId: `b${i}` }), recorder.send(b, `b${i}`, i)),
    );
    expect(await first).toBe("after retry");
    expect(await Promise.all(later)).toEqual([0, 1, 2, 3, 4]);
    const sorted = [...recorder.starts].sort((x, y) => x.at - y.at);
    expect(sorted[0]!.label).toBe("a429");
    const gaps = recorder.gaps();
    // Blocked for one widened slot after the 429, then widened spacing until 3 clean calls,
    // then interval + margin again.
    expect(gaps[0]).toBeGreaterThanOrEqual(SLOT + STEP);
    expect(gaps[1]).toBeGreaterThanOrEqual(SLOT + STEP);
    expect(gaps[2]).toBeGreaterThanOrEqual(SLOT + STEP);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(SLOT);
    // The margin is state in Redis: B saw it widen and drop.
    expect(b.gate.slotMs(ACCOUNT)).toBe(SLOT);
    const c = replica("c", options);
    expect((await c.gate.schedule(ACCOUNT)).slotMs).toBe(SLOT);
  });

  it("B sees the widened margin while it lasts; the observer hears of the 429", async () => {
    fresh();
    const options = { marginStepMs: 40, maxExtraMarginMs: 100, marginRecoveryCalls: 5 };
    const events: string[] = [];
    const a = replica("a", {
      ...options,
      observer: {
        callStarted: (c) => events.push(`started ${c.endpoint}`),
        callFinished: (c, outcome, _ms, callers) => events.push(`${outcome} ${c.endpoint} x${callers}`),
        rateLimited: (account, retryAfterMs, consecutive) =>
          events.push(`429 ${account} ${retryAfterMs} #${consecutive}`),
      },
    });
    const b = replica("b", options);
    let limited = false;
    await a.gate.run(call("interactive"), async () => {
      if (!limited) {
        limited = true;
        throw new RateLimitedError("stops", 0);
      }
      return 1;
    });
    expect(events).toEqual([
      "started stops",
      "rate_limited stops x1",
      "429 demo 0 #1",
      "started stops",
      "ok stops x1",
    ]);
    expect((await b.gate.schedule(ACCOUNT)).slotMs).toBe(SLOT + 40);
    expect(b.gate.slotMs(ACCOUNT)).toBe(SLOT + 40);
    await b.gate.run(call("report"), async () => 2);
    expect(b.gate.slotMs(ACCOUNT)).toBe(SLOT + 40);
  });

  it("a replica that dies holding the turn stalls the account for at most a slot plus the lease", async () => {
    fresh();
    const a = replica("a");
    const b = replica("b");
    const recorder = new StartRecorder();
    const aStarted = deferred();
    // A takes the turn; its send never ends, and A loses Redis for good (no release, no renewal).
    void a.gate
      .run(call("report"), async () => {
        recorder.starts.push({ label: "a", at: await serverTime(a.redis) });
        aStarted.resolve();
        return await new Promise<never>(() => undefined);
      })
      .catch(() => undefined);
    await aStarted.promise;
    a.redis.disconnect();
    const onB = b.gate.run(call("interactive"), recorder.send(b, "b", "b went on"));
    expect(await onB).toBe("b went on");
    const [gap] = recorder.gaps();
    expect(gap).toBeGreaterThanOrEqual(SLOT);
    // The bound, slot + lease, with room for one renewal already sent and timer lateness.
    expect(gap).toBeLessThanOrEqual(SLOT + LEASE + LEASE / 3 + 150);
  });

  it("a dead replica's waiting call does not block the head of the queue", async () => {
    fresh();
    const a = replica("a");
    const b = replica("b");
    const c = replica("c");
    const recorder = new StartRecorder();
    const held = await holdTurn(c, recorder);
    // A's interactive call heads the queue, B's report is behind it; then A dies.
    void a.gate.run(call("interactive", { taskId: "dead" }), async () => "never").catch(() => undefined);
    await until(async () => (await b.gate.schedule(ACCOUNT)).waiting.length === 1, "A's call queued");
    const onB = b.gate.run(call("report", { taskId: "alive" }), recorder.send(b, "b", "b served"));
    await until(async () => (await c.gate.schedule(ACCOUNT)).waiting.length === 2, "B's call queued");
    a.redis.disconnect();
    held.release();
    const releasedAt = await serverTime(c.redis);
    expect(await onB).toBe("b served");
    const bStart = recorder.starts.find((s) => s.label === "b")!.at;
    expect(bStart - releasedAt).toBeLessThanOrEqual(SLOT + LEASE + 150);
    // The dead replica's entry is gone from the schedule.
    expect((await c.gate.schedule(ACCOUNT)).waiting).toEqual([]);
  });

  it("cancels a waiting call on one replica; the other's identical call is still made, once", async () => {
    fresh();
    const a = replica("a");
    const b = replica("b");
    const held = await holdTurn(a);
    const abortA = new AbortController();
    const abortSolo = new AbortController();
    let sendsA = 0;
    let sendsB = 0;
    const solo = a.gate.run(call("report", { signal: abortSolo.signal, taskId: "solo" }), async () => {
      sendsA++;
      return "solo";
    });
    const sharedA = a.gate.run(
      call("report", { shareKey: "s", signal: abortA.signal, taskId: "ta" }),
      async () => {
        sendsA++;
        return "from a";
      },
    );
    await until(async () => (await b.gate.schedule(ACCOUNT)).waiting.length === 2, "A's calls queued");
    const sharedB = b.gate.run(call("report", { shareKey: "s", taskId: "tb" }), async () => {
      sendsB++;
      return "from b";
    });
    await until(
      async () => (await a.gate.schedule(ACCOUNT)).waiting.some((w) => w.taskIds.length === 2),
      "B joined A's entry",
    );
    abortSolo.abort();
    abortA.abort();
    await expect(solo).rejects.toBeInstanceOf(CallCancelledError);
    await expect(sharedA).rejects.toBeInstanceOf(CallCancelledError);
    const schedule = await b.gate.schedule(ACCOUNT);
    expect(schedule.waiting.map((w) => w.taskIds)).toEqual([["tb"]]);
    expect(schedule.running?.taskIds).toEqual(["holder"]);
    held.release();
    expect(await sharedB).toBe("from b");
    expect(sendsA).toBe(0);
    expect(sendsB).toBe(1);
  });

  it("schedule() shows both replicas' waiting calls in serving order with expected starts a slot apart", async () => {
    fresh();
    const a = replica("a");
    const b = replica("b");
    const held = await holdTurn(a);
    const runs = [
      a.gate.run(call("report", { taskId: "a-report" }), async () => 1),
      b.gate.run(call("background", { taskId: "b-upkeep", endpoint: "login" }), async () => 2),
    ];
    await until(async () => (await a.gate.schedule(ACCOUNT)).waiting.length === 2, "two queued");
    runs.push(b.gate.run(call("alert", { taskId: "b-alert", endpoint: "load-transports" }), async () => 3));
    runs.push(a.gate.run(call("interactive", { taskId: "a-lookup" }), async () => 4));
    await until(async () => (await b.gate.schedule(ACCOUNT)).waiting.length === 4, "four queued");
    for (const view of [a, b]) {
      const schedule = await view.gate.schedule(ACCOUNT);
      expect(schedule.running).toMatchObject({ endpoint: "company-vehicles", taskIds: ["holder"] });
      expect(schedule.waiting.map((w) => [w.position, w.priority, w.endpoint, w.taskIds])).toEqual([
        [0, "interactive", "stops", ["a-lookup"]],
        [1, "alert", "load-transports", ["b-alert"]],
        [2, "report", "stops", ["a-report"]],
        [3, "background", "login", ["b-upkeep"]],
      ]);
      expect(schedule.slotMs).toBe(SLOT);
      const starts = schedule.waiting.map((w) => w.expectedStartAt);
      expect(starts.slice(1).map((at, i) => at - starts[i]!)).toEqual([SLOT, SLOT, SLOT]);
      expect(schedule.nextSlotAt).toBe(starts[0]);
      expect(schedule.nextSlotAt).toBeGreaterThanOrEqual(schedule.running!.startedAt);
    }
    held.release();
    expect(await Promise.all(runs)).toEqual([1, 2, 3, 4]);
    const idle = await a.gate.schedule(ACCOUNT);
    expect(idle.running).toBeUndefined();
    expect(idle.waiting).toEqual([]);
  });

  it("close() cancels this replica's waiting calls, leaves the given client open, and the other goes on", async () => {
    fresh();
    const a = replica("a");
    const b = replica("b");
    const held = await holdTurn(b);
    const onA = a.gate
      .run(call("report", { taskId: "a1" }), async () => "never sent")
      .catch((e: unknown) => e);
    const onB = b.gate.run(call("report", { taskId: "b1" }), async () => "sent");
    await until(async () => (await b.gate.schedule(ACCOUNT)).waiting.length === 2, "both queued");
    await a.gate.close();
    expect(await onA).toBeInstanceOf(CallCancelledError);
    expect(a.redis.status).toBe("ready");
    await expect(a.gate.run(call("report"), async () => 1)).rejects.toThrow("closed");
    expect((await b.gate.schedule(ACCOUNT)).waiting.map((w) => w.taskIds)).toEqual([["b1"]]);
    held.release();
    expect(await onB).toBe("sent");
    await b.gate.drained();
    expect(b.gate.inFlight()).toBe(0);
  });

  it("an identical call whose first replica dies before it is sent is still made, by the replica left", async () => {
    fresh();
    const a = replica("a");
    const b = replica("b");
    const c = replica("c");
    const held = await holdTurn(c);
    void a.gate.run(call("report", { shareKey: "same" }), async () => "from a").catch(() => undefined);
    await until(async () => (await redisMembers(b, "same")) === 1, "A's entry");
    let sendsB = 0;
    const onB = b.gate.run(call("report", { shareKey: "same" }), async () => {
      sendsB++;
      return "from b";
    });
    await until(async () => (await redisMembers(b, "same")) === 2, "B joined");
    a.redis.disconnect();
    held.release();
    expect(await onB).toBe("from b");
    expect(sendsB).toBe(1);
  });

  it("a Redis restart (AOF) in the middle loses no call and keeps the spacing", async () => {
    fresh();
    const own = await startRedisServer();
    try {
      // The first call's end (its release tried) and what the gates warn of, on either replica.
      const firstFinished = deferred();
      const warnings: unknown[] = [];
      const watched: Partial<RedisGateOptions> = {
        observer: { callFinished: () => firstFinished.resolve() },
        logger: {
          warn: (_detail: unknown, message?: string) => warnings.push(message),
          debug: () => undefined,
        },
      };
      const a = replica("a", watched, own.url);
      const b = replica("b", watched, own.url);
      // One process, one clock: Date.now() at each send is comparable with Redis TIME here.
      const starts: { label: string; at: number }[] = [];
      const firstStarted = deferred();
      const redisDown = deferred();
      const send = (label: string) => async () => {
        starts.push({ label, at: Date.now() });
        if (starts.length === 1) {
          firstStarted.resolve();
          await redisDown.promise; // answered while Redis is down: its release is lost
        }
        return label;
      };
      const labels = ["a0", "b0", "a1", "b1", "a2", "b2"];
      const calls = labels.map((label) =>
        (label.startsWith("a") ? a : b).gate.run(call("report", { taskId: label }), send(label)),
      );
      await firstStarted.promise;
      await until(async () => (await a.gate.schedule(ACCOUNT)).waiting.length === 5, "all queued");
      await own.kill();
      redisDown.resolve();
      // Redis comes back only once the first call's release has been tried, and lost.
      await firstFinished.promise;
      expect(warnings).toContain("gate could not release its turn");
      await own.restart();
      expect(await Promise.all(calls)).toEqual(labels);
      expect(starts.map((s) => s.label).sort()).toEqual([...labels].sort());
      const sorted = starts.map((s) => s.at).sort((x, y) => x - y);
      const gaps = sorted.slice(1).map((at, i) => at - sorted[i]!);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(SLOT);
    } finally {
      for (const replicaLeft of opened.splice(0)) {
        await replicaLeft.gate.close().catch(() => undefined);
        replicaLeft.redis.disconnect();
      }
      await own.stop();
    }
  });

  it("refuses a client with an ioredis keyPrefix (its scripts build keys themselves)", () => {
    const redis = new Redis(server.url, { keyPrefix: "x:", lazyConnect: true });
    expect(() => new RedisGate({ redis, replicaId: "x", minIntervalMs: INTERVAL })).toThrow("keyPrefix");
    redis.disconnect();
  });
});
