import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteAlertStore } from "../../../src/platform/store/alertStore.js";
import { openDatabase } from "../../../src/platform/store/database.js";
import { RedisAlertStore } from "../../../src/platform/store/redis/alertStore.js";
import { parseWatchOptions, watchText } from "../../../src/platform/store/watchOptions.js";
import { type RedisServer, redisSkipReason, startRedisServer } from "../../helpers/redisServer.js";

/** A subscription's vehicle-watch options as stored: what cannot be read is no options, never no subscription. */

describe("parseWatchOptions", () => {
  it("reads what watchText wrote, without absent options", () => {
    const watch = { volts: 11.5, zones: ["Depou"], hours: "22:00-05:00", tempMin: -20, tempMax: -15 };
    expect(parseWatchOptions(watchText(watch))).toEqual(watch);
    expect(watchText({ speedKmh: undefined, idleMinutes: 20 })).toBe('{"idleMinutes":20}');
    expect(watchText(undefined)).toBe("{}");
    expect(parseWatchOptions(undefined)).toEqual({});
  });

  it("reads unreadable text as {}; options a later version adds are left out", () => {
    for (const text of [
      "",
      "not json",
      "[]",
      "null",
      '{"volts":"12"}',
      '{"zones":"Depou"}',
      '{"speedKmh":null}',
    ])
      expect(parseWatchOptions(text)).toEqual({});
    expect(parseWatchOptions('{"speedKmh":90,"fuelDrop":10}')).toEqual({ speedKmh: 90 });
  });
});

describe("an unreadable stored watch reads as {}", () => {
  it("in SQLite", () => {
    const db = openDatabase(":memory:");
    const alerts = new SqliteAlertStore(db);
    alerts.upsertSubscription({ channel: "C1", account: "demo", watch: { speedKmh: 90 } });
    db.prepare("UPDATE alert_subscriptions SET watch = 'not json'").run();
    expect(alerts.subscription("C1", "demo")).toMatchObject({ account: "demo", watch: {} });
    db.close();
  });

  describe.skipIf(redisSkipReason !== undefined)("in Redis", () => {
    let server: RedisServer;
    let redis: Redis;
    beforeAll(async () => {
      server = await startRedisServer();
      redis = new Redis(server.url);
    });
    afterAll(async () => {
      redis.disconnect();
      await server.stop();
    });

    it("and a subscription stored before vehicle watch has none", async () => {
      const prefix = "watch:";
      const alerts = new RedisAlertStore(redis, { prefix });
      const { subscription } = await alerts.upsertSubscription({
        channel: "C1",
        account: "demo",
        watch: { speedKmh: 90 },
      });
      const key = `${prefix}alert:sub:${subscription.id}`;
      await redis.hset(key, "watch", '{"speedKmh":"fast"}');
      expect((await alerts.subscription("C1", "demo"))?.watch).toEqual({});
      await redis.hdel(key, "watch");
      expect(await alerts.subscriptions()).toMatchObject([{ account: "demo", watch: {} }]);
    });
  });
});
