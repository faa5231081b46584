/**
 * One token renewal per workspace across replicas: two "replicas" (two connections, two lock
 * objects) on a real redis-server never run a renewal of the same workspace at once, and a
 * holder that dies releases it after lockMs.
 */
import { describe, expect, it } from "vitest";
import { RedisRenewalLock } from "../../../src/platform/store/redis/renewalLock.js";
import { redisForTests, redisSkipReason } from "../../helpers/redisServer.js";

const skip = redisSkipReason;

describe.skipIf(skip !== undefined)(skip ?? "RedisRenewalLock", () => {
  const redis = redisForTests();

  it("runs one renewal of a workspace at a time across replicas, others side by side", async () => {
    const prefix = `lock-${Date.now()}:`;
    const replicaA = new RedisRenewalLock(redis.connect(), { prefix, pollMs: 5 });
    const replicaB = new RedisRenewalLock(redis.connect(), { prefix, pollMs: 5 });
    let inside = 0;
    let most = 0;
    const renew = (lock: RedisRenewalLock, key: string) =>
      lock.run(key, async () => {
        inside++;
        most = Math.max(most, inside);
        await new Promise((resolve) => setTimeout(resolve, 15));
        inside--;
        return key;
      });
    const results = await Promise.all([
      renew(replicaA, "T:T1"),
      renew(replicaB, "T:T1"),
      renew(replicaA, "T:T1"),
      renew(replicaB, "T:T1"),
    ]);
    expect(results).toEqual(["T:T1", "T:T1", "T:T1", "T:T1"]);
    expect(most).toBe(1);
    // Another workspace is not held up by T1's renewal.
    let otherRan = false;
    const held = replicaA.run("T:T1", () => new Promise((resolve) => setTimeout(resolve, 50)));
    await replicaB.run("T:T2", async () => {
      otherRan = true;
    });
    expect(otherRan).toBe(true);
    await held;
  });

  it("a holder that never releases (a dead replica) holds the workspace for lockMs only", async () => {
    const prefix = `lapse-${Date.now()}:`;
    const connection = redis.connect();
    // The dead replica's lock, as SET NX PX left it.
    await connection.set(`${prefix}token-renewal:T:T9`, "dead-replica", "PX", 150, "NX");
    const lock = new RedisRenewalLock(redis.connect(), { prefix, pollMs: 10, waitMs: 2_000 });
    const started = Date.now();
    await lock.run("T:T9", async () => undefined);
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    // And a wait past waitMs gives up with a clear error rather than renewing without the lock.
    await connection.set(`${prefix}token-renewal:T:T8`, "busy", "PX", 10_000, "NX");
    const impatient = new RedisRenewalLock(redis.connect(), { prefix, pollMs: 10, waitMs: 50 });
    await expect(impatient.run("T:T8", async () => undefined)).rejects.toThrow(/held by another replica/);
  });
});
