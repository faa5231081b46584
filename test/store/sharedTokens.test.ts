/**
 * The replicas' shared fleet token in a real redis-server: kept sealed with CREDENTIALS_KEY,
 * read back by another connection (another replica), expiring with the token, and dropped on a
 * refusal only while it is still the refused one.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { RedisSharedTokens } from "../../src/store/redis/sharedTokens.js";
import { redisForTests, redisSkipReason } from "../helpers/redisServer.js";

const TOKEN = "eyJhbGciOi.the-token-text.sig";
const skip = redisSkipReason;

describe.skipIf(skip !== undefined)(skip ?? "RedisSharedTokens", () => {
  const redis = redisForTests();
  const key = randomBytes(32);

  function replica(prefix: string, withKey = key) {
    return new RedisSharedTokens(redis.connect(), withKey, { prefix });
  }

  it("another replica reads the token one saved; Redis holds it sealed, with the token's expiry", async () => {
    const prefix = `t${Date.now()}a:`;
    const now = Date.now();
    await replica(prefix).save("demo", {
      value: TOKEN,
      obtainedAtMs: now,
      expiresInSeconds: 3600,
      scope: "openid",
    });
    expect(await replica(prefix).load("demo")).toEqual({
      value: TOKEN,
      obtainedAtMs: now,
      expiresInSeconds: 3600,
      scope: "openid",
    });
    expect(await replica(prefix).load("other")).toBeUndefined();
    const raw = redis.connect();
    const stored = await raw.hgetall(`${prefix}fleet-token:demo`);
    expect(JSON.stringify(stored)).not.toContain("the-token-text");
    const ttl = await raw.pttl(`${prefix}fleet-token:demo`);
    expect(ttl).toBeGreaterThan(3590_000);
    expect(ttl).toBeLessThanOrEqual(3600_000);
  });

  it("a token sealed with another CREDENTIALS_KEY is not handed out; an expired one is not kept", async () => {
    const prefix = `t${Date.now()}b:`;
    await replica(prefix).save("demo", { value: TOKEN, obtainedAtMs: Date.now(), expiresInSeconds: 3600 });
    expect(await replica(prefix, randomBytes(32)).load("demo")).toBeUndefined();
    await replica(prefix).save("gone", {
      value: TOKEN,
      obtainedAtMs: Date.now() - 7200_000,
      expiresInSeconds: 3600,
    });
    expect(await redis.connect().exists(`${prefix}fleet-token:gone`)).toBe(0);
  });

  it("drop forgets the token only while it is the refused one", async () => {
    const prefix = `t${Date.now()}c:`;
    const a = replica(prefix);
    await a.save("demo", { value: "new-token", obtainedAtMs: Date.now(), expiresInSeconds: 3600 });
    await a.drop("demo", "old-token");
    expect((await a.load("demo"))?.value).toBe("new-token");
    await replica(prefix).drop("demo", "new-token");
    expect(await a.load("demo")).toBeUndefined();
  });
});
