/**
 * Issue 23 (items 6, 7), on a real redis-server: the alert schedule comes back after a FLUSHALL
 * (re-registered), and the sweep lock is renewed by its holder only; a holder that lost it
 * stops its sweep.
 */
import { describe, expect, it } from "vitest";
import { RedisAlertSchedule } from "../../../../src/app/backend/bullmq/alertSchedule.js";
import { SweepLock } from "../../../../src/app/backend/bullmq/sweepLock.js";
import { redisForTests, redisSkipReason } from "../../../helpers/redisServer.js";

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.skipIf(redisSkipReason)("alert schedule in Redis", () => {
  const redisServer = redisForTests({ maxRetriesPerRequest: null });

  it("a lock taken over by another holder is not renewed by the old one, whose sweep is aborted", async () => {
    const redis = redisServer.connect();
    // Renewal by hand only (renew()), so nothing here depends on timing.
    const lock = new SweepLock({ redis, key: "t:lock", lockMs: 5_000, renewEveryMs: 3_600_000 });
    const held = await lock.acquire();
    expect(held).toBeDefined();
    expect(await lock.acquire()).toBeUndefined();
    expect(await held!.renew()).toBe(true);
    expect(held!.signal.aborted).toBe(false);

    // The lock lapsed and another sweep took it, with no expiry of its own.
    await redis.set("t:lock", "another-holder");
    expect(await held!.renew()).toBe(false);
    expect(held!.signal.aborted).toBe(true);
    // The other holder's lock is untouched: not given the old holder's expiry, not deleted.
    expect(await redis.get("t:lock")).toBe("another-holder");
    expect(await redis.pttl("t:lock")).toBe(-1);
    await held!.release();
    expect(await redis.get("t:lock")).toBe("another-holder");
  });

  it("a sweep whose lock is lost mid-run sees its signal aborted and records no completed sweep", async () => {
    const connection = redisServer.connect();
    let sawAbort = false;
    let release: () => void = () => undefined;
    const sweeping = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = 0;
    const schedule = new RedisAlertSchedule({
      connection,
      workerConnection: redisServer.connect(),
      prefix: "t2",
      cron: "* * * * * *",
      lockMs: 600,
      sweep: async (signal) => {
        started++;
        signal.addEventListener("abort", () => {
          sawAbort = true;
          release();
        });
        await sweeping;
      },
      digest: async () => undefined,
    });
    await schedule.start();
    try {
      await until(() => started > 0, "a sweep");
      await connection.set("t2:alerts:sweep-lock", "another-holder");
      await until(() => sawAbort, "the sweep aborted");
      expect(await schedule.lastSweepAt()).toBeUndefined();
      expect(await connection.get("t2:alerts:sweep-lock")).toBe("another-holder");
    } finally {
      release();
      await schedule.close();
    }
  });

  it("after a FLUSHALL the schedule is registered again and sweeps run again", async () => {
    const connection = redisServer.connect();
    let sweeps = 0;
    const schedule = new RedisAlertSchedule({
      connection,
      workerConnection: redisServer.connect(),
      prefix: "t3",
      cron: "* * * * * *",
      lockMs: 2_000,
      // Scaled: the periodic re-registration every 300 ms instead of 5 minutes.
      reregisterEveryMs: 300,
      sweep: async () => {
        sweeps++;
      },
      digest: async () => undefined,
    });
    await schedule.start();
    try {
      await until(() => sweeps >= 1, "a first sweep");
      const first = await schedule.lastSweepAt();
      expect(first).toBeDefined();
      await connection.flushall();
      expect(await connection.keys("t3:*")).toEqual([]);
      const before = sweeps;
      await until(() => sweeps > before, "a sweep after the FLUSHALL");
      await until(async () => (await connection.get("t3:alerts:last-sweep")) !== null, "the sweep recorded");
      expect(await schedule.lastSweepAt()).toBeGreaterThan(first!);
      // Upserted many times, still one scheduler.
      expect(await connection.zcard("t3:alerts:repeat")).toBe(1);
      // …and at most one next tick waiting: no sweep is doubled by the upserts.
      expect(await connection.zcard("t3:alerts:delayed")).toBeLessThanOrEqual(1);
    } finally {
      await schedule.close();
    }
  }, 30_000);
});
