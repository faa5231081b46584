import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisResponseUrlUses } from "../../src/slack/responseUrlUses.js";
import { type RedisServer, redisSkipReason, startRedisServer } from "../helpers/redisServer.js";

describe.skipIf(redisSkipReason)("response_url uses counted in Redis", () => {
  let server: RedisServer;
  let a: Redis;
  let b: Redis;
  beforeAll(async () => {
    server = await startRedisServer();
    a = new Redis(server.url);
    b = new Redis(server.url);
  });
  afterAll(async () => {
    a?.disconnect();
    b?.disconnect();
    await server?.stop();
  });

  it("two replicas together never take more than five uses, and progress leaves the answer's one", async () => {
    const replicaA = new RedisResponseUrlUses(a, "t1:");
    const replicaB = new RedisResponseUrlUses(b, "t1:");
    const url = "https://hooks.slack.test/commands/T0/1/secret";
    // Progress updates from both replicas at once: at most four (one is kept for the answer).
    const progress = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? replicaA : replicaB).take(url, 4)),
    );
    expect(progress.filter(Boolean)).toHaveLength(4);
    expect(await replicaB.take(url, 5)).toBe(true); // the answer
    expect(await replicaA.take(url, 5)).toBe(false); // Slack would refuse a sixth
    // Another URL has its own count; the URL itself is not stored, only its hash.
    expect(await replicaA.take(`${url}x`, 5)).toBe(true);
    const keys = await a.keys("t1:*");
    expect(keys.join(" ")).not.toContain("secret");
    expect(await a.pttl(keys[0]!)).toBeGreaterThan(30 * 60_000);
  });
});
