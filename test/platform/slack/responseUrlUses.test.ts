import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESPONSE_URL_USES, takeResponseUrlUse } from "../../../src/platform/slack/responseUrlUses.js";
import { RedisSharedState } from "../../../src/platform/store/redis/sharedState.js";
import { type RedisServer, redisSkipReason, startRedisServer } from "../../helpers/redisServer.js";

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
    const replicaA = new RedisSharedState(a, { prefix: "t1:" });
    const replicaB = new RedisSharedState(b, { prefix: "t1:" });
    const url = "https://hooks.slack.test/commands/T0/1/secret";
    // Progress updates from both replicas at once: at most four (one is kept for the answer).
    const progress = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        takeResponseUrlUse(i % 2 ? replicaA : replicaB, url, RESPONSE_URL_USES - 1),
      ),
    );
    expect(progress.filter(Boolean)).toHaveLength(4);
    expect(await takeResponseUrlUse(replicaB, url, RESPONSE_URL_USES)).toBe(true); // the answer
    expect(await takeResponseUrlUse(replicaA, url, RESPONSE_URL_USES)).toBe(false); // Slack would refuse a sixth
    // Another URL has its own count; the URL itself is not stored, only its hash.
    expect(await takeResponseUrlUse(replicaA, `${url}x`, RESPONSE_URL_USES)).toBe(true);
    const keys = await a.keys("t1:*");
    expect(keys.join(" ")).not.toContain("secret");
    expect(await a.pttl(keys[0]!)).toBeGreaterThan(30 * 60_000);
  });
});
