import { describe, expect, it } from "vitest";
import { LINK_FAILURE_LIMITS, LinkFailures } from "../../../src/features/account/handlers/linkFailures.js";
import { RedisSharedState } from "../../../src/platform/store/redis/sharedState.js";
import { MemorySharedState } from "../../../src/platform/store/sharedState.js";
import { redisForTests, redisSkipReason } from "../../helpers/redisServer.js";

const MIN = 60_000;
const HOUR = 60 * MIN;

describe("LinkFailures", () => {
  it("defaults: 5 failures per 15 minutes per user name, 10 per day from one workspace", () => {
    expect(LINK_FAILURE_LIMITS).toEqual({
      perAccount: { limit: 5, windowMs: 15 * MIN },
      perWorkspace: { limit: 10, windowMs: 24 * HOUR },
    });
  });

  it("caps failures per user name across workspaces; a success is given back; another name is untouched", async () => {
    let now = 0;
    const failures = new LinkFailures(new MemorySharedState({ now: () => now }));
    for (let i = 0; i < 3; i++)
      expect(await failures.reserve("T:TB", "carrier-x", `b${i}`)).toEqual({ ok: true });
    now = 2 * MIN;
    // A correct password: reserved while its login waits, then given back.
    expect(await failures.reserve("T:TA", "carrier-x", "a-ok")).toEqual({ ok: true });
    await failures.giveBack("T:TA", "carrier-x", "a-ok");
    for (let i = 3; i < 5; i++)
      expect(await failures.reserve("T:TB", "carrier-x", `b${i}`)).toEqual({ ok: true });
    // Full for everyone, whatever the spelling; the first failure leaves at 15 minutes.
    expect(await failures.reserve("T:TA", "Carrier-X ", "a1")).toEqual({ ok: false, retryAt: 15 * MIN });
    expect(await failures.reserve("T:TB", "carrier-x", "b5")).toEqual({ ok: false, retryAt: 15 * MIN });
    expect(await failures.reserve("T:TA", "carrier-y", "a2")).toEqual({ ok: true });
    // The same attempt run again (a retried task) is the same one, not another failure.
    expect(await failures.reserve("T:TB", "carrier-x", "b4")).toEqual({ ok: true });
    now = 15 * MIN;
    expect(await failures.reserve("T:TA", "carrier-x", "a3")).toEqual({ ok: true });
  });

  it("one workspace gets at most 10 failures a day for a user name, so it cannot keep the shared cap full", async () => {
    let now = 0;
    const failures = new LinkFailures(new MemorySharedState({ now: () => now }));
    for (let window = 0; window < 2; window++) {
      for (let i = 0; i < 5; i++)
        expect(await failures.reserve("T:TB", "carrier-x", `b${window}-${i}`)).toEqual({ ok: true });
      now += 15 * MIN;
    }
    // B's day is spent: refused until its first failure is a day old…
    expect(await failures.reserve("T:TB", "carrier-x", "b-more")).toEqual({ ok: false, retryAt: 24 * HOUR });
    // …and its refusal took no place in the shared window: A may try at once.
    expect(await failures.reserve("T:TA", "carrier-x", "a1")).toEqual({ ok: true });
  });

  it("a refusal of the shared cap does not count against the workspace's own", async () => {
    const failures = new LinkFailures(new MemorySharedState({ now: () => 0 }), {
      perAccount: { limit: 1, windowMs: MIN },
      perWorkspace: { limit: 2, windowMs: HOUR },
    });
    expect(await failures.reserve("T:TA", "x", "a1")).toEqual({ ok: true });
    for (let i = 0; i < 5; i++) expect((await failures.reserve("T:TB", "x", `b${i}`)).ok).toBe(false);
    await failures.giveBack("T:TA", "x", "a1");
    expect(await failures.reserve("T:TB", "x", "b9")).toEqual({ ok: true });
  });
});

describe.skipIf(redisSkipReason !== undefined)("LinkFailures on two replicas sharing Redis", () => {
  const redis = redisForTests();
  const replica = () =>
    new LinkFailures(new RedisSharedState(redis.connect(), { prefix: "link-failures-test:" }));

  it("the cap is one count for all replicas, and keys hold no user name or Slack id", async () => {
    const one = replica();
    const two = replica();
    const took = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 ? one : two).reserve(i < 4 ? "T:TB" : "T:TC", "carrier-x", `t${i}`),
      ),
    );
    expect(took.filter((t) => t.ok)).toHaveLength(5);
    const refused = await one.reserve("T:TA", "carrier-x", "a1");
    expect(refused.ok).toBe(false);
    expect(await two.reserve("T:TA", "carrier-x", "a1")).toEqual(refused);
    const keys = await redis.connect().keys("link-failures-test:*");
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.join(" ")).not.toMatch(/carrier|T:T[ABC]/);
  });
});
