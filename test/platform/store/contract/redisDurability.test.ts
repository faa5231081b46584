import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisAccountStore } from "../../../../src/platform/store/redis/accountStore.js";
import { RedisAlertStore } from "../../../../src/platform/store/redis/alertStore.js";
import { createRedisRepositories } from "../../../../src/platform/store/redis/index.js";
import { RedisLearnedLimitsStore } from "../../../../src/platform/store/redis/learnedLimits.js";
import { RedisTaskStore } from "../../../../src/platform/store/redis/taskStore.js";
import { type RedisServer, redisSkipReason, startRedisServer } from "../../../helpers/redisServer.js";
import { NOW } from "./backends.js";

/**
 * What the README asks of Redis (appendonly yes, appendfsync always) is what keeps a queue:
 * every write the stores acknowledged is there after redis-server is killed with SIGKILL and
 * started again, and the stores' scripts run again on the restarted server (which forgot them).
 */
describe.skipIf(redisSkipReason !== undefined)(
  "Redis stores across a redis-server kill -9 and restart (AOF)",
  () => {
    let server: RedisServer;
    let redis: Redis;
    beforeAll(async () => {
      server = await startRedisServer({ appendonly: true });
      redis = new Redis(server.url, { maxRetriesPerRequest: 50, retryStrategy: () => 50 });
    });
    afterAll(async () => {
      redis.disconnect();
      await server.stop();
    });

    it("keeps every acknowledged write: tasks, journal, accounts, alerts, limits", async () => {
      const key = randomBytes(32);
      const options = { prefix: "durable:", now: () => NOW };
      const tasks = new RedisTaskStore(redis, options);
      const accounts = new RedisAccountStore(redis, { ...options, key });
      const alerts = new RedisAlertStore(redis, options);
      const limits = new RedisLearnedLimitsStore(redis, options);

      const queued = await tasks.create({
        kind: "vehicle-report",
        params: { report: "stops" },
        account: "demo",
        reply: { channel: "C1" },
        priority: "report",
        dedupeKey: "stops:U1",
      });
      const started = await tasks.create({
        kind: "transport-start",
        params: { uit: "U9" },
        account: "demo",
        reply: {},
        priority: "interactive",
      });
      await tasks.markRunning(started.task.id);
      await tasks.markStepSending(started.task.id, "start:U9");
      await accounts.link("", "U1", "dispatcher@example.ro", "Parola-42");
      await alerts.upsertSubscription({ channel: "C1", account: "demo", createdBy: "U1" });
      const [incident] = await alerts.applyChanges([
        {
          type: "open",
          account: "demo",
          transportUId: "t-1",
          codeUit: "Y45R577UN544GY4S",
          kind: "transmission",
          code: "Error",
          at: NOW,
          state: "open",
          facts: { uId: "t-1", codeUit: "Y45R577UN544GY4S", statusId: 2 },
        },
      ]);
      await alerts.ensurePost(incident!.id, "C1");
      await alerts.recordPosted(incident!.id, "C1", "1.0001");
      await alerts.mute("C1", "OTHERUIT00000000", NOW + 60_000);
      await limits.save("https://fleet.example", "stops", { maxDays: 7 });

      await server.kill();
      await server.restart();

      expect(await tasks.get(queued.task.id)).toEqual(queued.task);
      expect(await tasks.unfinished()).toHaveLength(2);
      expect(await tasks.step(started.task.id, "start:U9")).toEqual({ state: "sending" });
      expect((await tasks.get(started.task.id))?.attempts).toBe(1);
      // The dedupe key still holds after the restart (the scripts are loaded again as needed).
      expect(
        await tasks.create({
          kind: "vehicle-report",
          params: {},
          account: "demo",
          reply: {},
          priority: "report",
          dedupeKey: "stops:U1",
        }),
      ).toMatchObject({ created: false, task: { id: queued.task.id } });
      expect(await accounts.get("", "U1")).toMatchObject({ password: "Parola-42" });
      expect(await alerts.subscription("C1", "demo")).toMatchObject({ createdBy: "U1" });
      expect(await alerts.post(incident!.id, "C1")).toMatchObject({ ts: "1.0001", attempts: 1 });
      expect(await alerts.hasPostFor("C1", "Y45R577UN544GY4S", "demo")).toBe(true);
      expect(await alerts.mutedUntil("C1", "OTHERUIT00000000")).toBe(NOW + 60_000);
      expect(await limits.load("https://fleet.example")).toEqual({ stops: { maxDays: 7 } });
      await expect(
        alerts.applyChanges([
          {
            type: "open",
            account: "demo",
            transportUId: "t-1",
            codeUit: "Y45R577UN544GY4S",
            kind: "transmission",
            code: "OldData",
            at: NOW + 1,
            state: "open",
            facts: { uId: "t-1", codeUit: "Y45R577UN544GY4S", statusId: 2 },
          },
        ]),
      ).rejects.toThrow(/UNIQUE/);
    });

    it("refuses a client with ioredis' keyPrefix (scripts derive keys it would not prefix)", () => {
      const prefixed = new Redis(server.url, { keyPrefix: "app:", lazyConnect: true });
      expect(() => createRedisRepositories(prefixed, { key: undefined })).toThrow(/without keyPrefix/);
      prefixed.disconnect();
    });
  },
);
