import { describe, expect, it } from "vitest";
import { LinkAttempts } from "../../../src/features/account/slack/listeners.js";
import { RedisSharedState } from "../../../src/platform/store/redis/sharedState.js";
import { MemorySharedState } from "../../../src/platform/store/sharedState.js";
import { redisForTests, redisSkipReason } from "../../helpers/redisServer.js";

const MIN = 60_000;

describe("LinkAttempts", () => {
  it("allows three attempts in ten minutes per user, then says when the oldest leaves the window", async () => {
    let now = 0;
    const attempts = new LinkAttempts(new MemorySharedState({ now: () => now }));
    expect(await attempts.take("", "U1")).toEqual({ ok: true });
    now = 2 * MIN;
    expect(await attempts.take("", "U1")).toEqual({ ok: true });
    now = 4 * MIN;
    expect(await attempts.take("", "U1")).toEqual({ ok: true });
    now = 5 * MIN;
    expect(await attempts.take("", "U1")).toEqual({ ok: false, retryAt: 10 * MIN });
    // Another user has a budget of their own.
    expect(await attempts.take("", "U2")).toEqual({ ok: true });
    // A refusal does not count: at 10 minutes the first attempt has left the window.
    now = 10 * MIN;
    expect(await attempts.take("", "U1")).toEqual({ ok: true });
    now = 10 * MIN + 1;
    expect(await attempts.take("", "U1")).toEqual({ ok: false, retryAt: 12 * MIN });
  });

  it("counts per workspace: the same user id in another workspace is another person", async () => {
    const attempts = new LinkAttempts(new MemorySharedState({ now: () => 0 }));
    for (let i = 0; i < 3; i++) expect(await attempts.take("T:TALPHA01", "U1")).toEqual({ ok: true });
    expect((await attempts.take("T:TALPHA01", "U1")).ok).toBe(false);
    expect(await attempts.take("T:TBRAVO02", "U1")).toEqual({ ok: true });
    expect(await attempts.take("", "U1")).toEqual({ ok: true });
  });
});

describe.skipIf(redisSkipReason !== undefined)("LinkAttempts on two replicas sharing Redis", () => {
  const redis = redisForTests();
  const replica = () => new LinkAttempts(new RedisSharedState(redis.connect(), { prefix: "link-test:" }));

  it("a user gets three attempts in all, not three per replica", async () => {
    const a = replica();
    const b = replica();
    expect(await a.take("", "U1")).toEqual({ ok: true });
    expect(await b.take("", "U1")).toEqual({ ok: true });
    expect(await a.take("", "U1")).toEqual({ ok: true });
    const onB = await b.take("", "U1");
    const onA = await a.take("", "U1");
    expect(onB.ok).toBe(false);
    expect(onA.ok).toBe(false);
    // Both replicas name the same instant: ten minutes after the first attempt, by Redis' clock.
    expect(onA).toEqual(onB);
    expect(await b.take("", "U2")).toEqual({ ok: true });
  });
});
