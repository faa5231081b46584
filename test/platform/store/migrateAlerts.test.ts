import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IncidentChange } from "../../../src/features/alerts/incidents.js";
import { SqliteAlertStore } from "../../../src/platform/store/alertStore.js";
import { openDatabase } from "../../../src/platform/store/database.js";
import { formatMigrationReport, migrateToRedis } from "../../../src/platform/store/migrate.js";
import { RedisAlertStore } from "../../../src/platform/store/redis/alertStore.js";
import { type RedisServer, redisSkipReason, startRedisServer } from "../../helpers/redisServer.js";

const NOW = Date.UTC(2026, 10, 3, 8, 0, 0);
const A = "T:ALPHA";
const B = "E:BRAVO";

const facts = (i: number) => ({ uId: `t-${i}`, codeUit: `UIT${String(i).padStart(13, "0")}`, statusId: 2 });
const open = (i: number): IncidentChange => ({
  type: "open",
  account: "demo",
  transportUId: `t-${i}`,
  codeUit: `UIT${String(i).padStart(13, "0")}`,
  kind: "transmission",
  code: "Error",
  at: NOW,
  state: "open",
  facts: facts(i),
});

/** The alert side of `npm run migrate -- --to-redis` with several workspaces. */
describe.skipIf(redisSkipReason !== undefined)("migrateToRedis: alerts by workspace", () => {
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

  it("keeps each row's workspace, and copies grouped alerts and the last sweeps along", async () => {
    const db = openDatabase(":memory:");
    const sqlite = new SqliteAlertStore(db, () => NOW);
    for (const workspace of ["", A, B])
      sqlite.upsertSubscription({ workspace, channel: "C1", account: "demo", createdBy: "U1" });
    const ids = sqlite.applyChanges([open(1), open(2), open(3)]).map((i) => i.id);
    const [first, second, third] = ids as [string, string, string];
    // The same incident and channel id in three workspaces: three posts.
    sqlite.ensurePost(first, "C1");
    sqlite.recordPosted(first, "C1", "1.1");
    sqlite.ensurePost(first, "C1", A);
    sqlite.recordFailure(first, "C1", "not_in_channel", A);
    // B's storm: a group posted with its members' replies.
    const group = sqlite.createGroup("demo", "C1", [first, second, third], B);
    sqlite.recordGroupPosted(group.id, "9.0", 3);
    sqlite.recordPosted(second, "C1", "9.1", B);
    sqlite.mute("C1", "UIT0000000000003", NOW + 3_600_000, A);
    sqlite.mute("C1", "UIT0000000000003", NOW + 7_200_000, B);
    sqlite.replaceListed("demo", [facts(1), facts(2)]);

    const prefix = "migrate-ws:";
    const report = await migrateToRedis({ source: { db }, redis, prefix, now: () => NOW });
    expect(formatMigrationReport(report)).toEqual(
      expect.arrayContaining([
        "alert subscriptions: 3 copied, 0 already in Redis",
        "alert groups: 1 copied, 0 already in Redis",
        "incidents: 3 copied, 0 already in Redis [5 posts with them]",
        "mutes: 2 copied, 0 already in Redis",
        "last sweeps: 1 copied, 0 already in Redis",
      ]),
    );
    const target = new RedisAlertStore(redis, { prefix, now: () => NOW });
    expect(await target.subscriptions()).toEqual(sqlite.subscriptions());
    for (const workspace of ["", A, B])
      expect(await target.subscription("C1", "demo", workspace)).toEqual(
        sqlite.subscription("C1", "demo", workspace),
      );
    for (const id of ids) expect(await target.posts(id)).toEqual(sqlite.posts(id));
    expect(await target.lastFailure("C1", A)).toEqual(sqlite.lastFailure("C1", A));
    expect(await target.lastFailure("C1")).toBeUndefined();
    expect(await target.hasPostFor("C1", "UIT0000000000002", "demo", B)).toBe(true);
    expect(await target.hasPostFor("C1", "UIT0000000000002", "demo", A)).toBe(false);
    expect(await target.mutedUntil("C1", "UIT0000000000003", undefined, A)).toBe(NOW + 3_600_000);
    expect(await target.mutedUntil("C1", "UIT0000000000003", undefined, B)).toBe(NOW + 7_200_000);
    expect(await target.mutedUntil("C1", "UIT0000000000003")).toBeUndefined();
    expect(await target.group(group.id)).toEqual(sqlite.group(group.id));
    expect(await target.groupMembers(group.id)).toEqual(sqlite.groupMembers(group.id));
    expect(await target.listedTransports("demo")).toEqual(sqlite.listedTransports("demo"));

    // A second run copies nothing.
    const again = await migrateToRedis({ source: { db }, redis, prefix, now: () => NOW });
    expect(again.outcomes.every((o) => o.copied === 0)).toBe(true);

    // What was copied is the workspace's in Redis too: an uninstall removes it there.
    expect(await target.deleteWorkspace(B)).toEqual({
      subscriptions: 1,
      posts: 3,
      mutes: 1,
      groups: 1,
      incidents: 0,
    });
    expect(await target.group(group.id)).toBeUndefined();
    expect((await target.posts(first)).map((p) => p.workspace)).toEqual(["", A]);
    db.close();
  });
});
