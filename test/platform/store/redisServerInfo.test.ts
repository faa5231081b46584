/** Issue 23: Redis memory in /metrics, and the durability settings warned about at start. */
import { describe, expect, it } from "vitest";
import { FleetbotMetrics } from "../../../src/platform/metrics.js";
import {
  durabilityWarnings,
  observeRedisMemory,
  parseInfo,
  readRedisDurability,
  readRedisMemory,
} from "../../../src/platform/store/redis/serverInfo.js";
import { redisForTests, redisSkipReason } from "../../helpers/redisServer.js";

describe("Redis server info", () => {
  it("parses INFO and names unsafe settings only", () => {
    expect(parseInfo("# Memory\r\nused_memory:1024\r\nmaxmemory:0\r\n")).toEqual({
      used_memory: "1024",
      maxmemory: "0",
    });
    expect(durabilityWarnings({ appendonly: "yes", maxmemoryPolicy: "noeviction" })).toEqual([]);
    expect(durabilityWarnings({})).toEqual([]);
    const unsafe = durabilityWarnings({ appendonly: "no", maxmemoryPolicy: "allkeys-lru" });
    expect(unsafe).toHaveLength(2);
    expect(unsafe[0]).toMatch(/appendonly is no/);
    expect(unsafe[1]).toMatch(/maxmemory-policy is allkeys-lru/);
  });

  describe.skipIf(redisSkipReason)("on a real redis-server", () => {
    const redisServer = redisForTests();

    it("serves used_memory and maxmemory as gauges, read on scrape", async () => {
      const redis = redisServer.connect();
      await redis.config("SET", "maxmemory", "104857600");
      const metrics = new FleetbotMetrics();
      observeRedisMemory(metrics.registry, () => readRedisMemory(redis));
      const text = await metrics.text();
      const used = Number(/^fleetbot_redis_used_memory_bytes (\d+)$/m.exec(text)?.[1]);
      expect(used).toBeGreaterThan(0);
      expect(text).toMatch(/^fleetbot_redis_maxmemory_bytes 104857600$/m);
    });

    it("reads appendonly and the eviction policy, and says what is unsafe", async () => {
      const redis = redisServer.connect();
      expect((await readRedisDurability(redis)).unsafe).toEqual([]);
      await redis.config("SET", "maxmemory-policy", "allkeys-lru");
      await redis.config("SET", "appendonly", "no");
      const durability = await readRedisDurability(redis);
      expect(durability).toMatchObject({ appendonly: "no", maxmemoryPolicy: "allkeys-lru" });
      expect(durability.unsafe).toHaveLength(2);
      // appendonly stays off: this file's server is thrown away (turning it on starts a rewrite).
      await redis.config("SET", "maxmemory-policy", "noeviction");
    });

    it("tolerates CONFIG being refused", async () => {
      const redis = redisServer.connect();
      await redis.call("ACL", "SETUSER", "limited", "on", "nopass", "+@all", "-config", "~*");
      await redis.call("AUTH", "limited", "x");
      expect(await readRedisDurability(redis)).toEqual({ unsafe: [] });
    });
  });
});
