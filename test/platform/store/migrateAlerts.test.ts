import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IncidentChange } from "../../../src/features/alerts/incidents.js";
import { SqliteAlertStore } from "../../../src/platform/store/alertStore.js";
import { openDatabase } from "../../../src/platform/store/database.js";
import { formatMigrationReport, migrateToRedis } from "../../../src/platform/store/migrate.js";
import { RedisAlertStore } from "../../../src/platform/store/redis/alertStore.js";
import { RedisZoneStore } from "../../../src/platform/store/redis/zoneStore.js";
import { SqliteZoneStore } from "../../../src/platform/store/zoneStore.js";
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

  it("copies vehicle watch: subscriptions' options, each account's memory, the zones with their ids; Redis' own are kept", async () => {
    const db = openDatabase(":memory:");
    const sqlite = new SqliteAlertStore(db, () => NOW);
    const zones = new SqliteZoneStore(db, () => NOW);
    sqlite.upsertSubscription({
      workspace: A,
      channel: "C1",
      account: "demo",
      watch: { volts: 11.5, zones: ["Depou"], speedKmh: 90 },
    });
    sqlite.upsertSubscription({ channel: "C1", account: "solo" });
    const vehicle = { uId: "vehicle:7|speeding:90", codeUit: "B-7-XYZ", statusId: 0 };
    const [speeding] = sqlite.applyChanges([
      {
        type: "open",
        account: "demo",
        transportUId: vehicle.uId,
        codeUit: vehicle.codeUit,
        kind: "speeding",
        code: "speeding",
        at: NOW,
        state: "open",
        facts: { ...vehicle, vehicle: { vehicleId: 7, watch: "speeding:90", peakSpeedKmh: 121 } },
      },
    ]);
    sqlite.replaceWatchState("demo", '{"last":{"7":[46.77,23.62]}}');
    sqlite.replaceWatchState("solo", '{"last":{}}');
    const depot = zones.addZone({
      workspace: A,
      name: "Depou",
      nameKey: "depou",
      latitude: 46.77,
      longitude: 23.62,
      radiusMeters: 500,
      createdBy: "U1",
    });
    zones.addZone({
      workspace: B,
      name: "Baza",
      nameKey: "baza",
      latitude: 44.4,
      longitude: 26.1,
      radiusMeters: 80,
    });
    zones.addZone({
      workspace: "",
      name: "Demo",
      nameKey: "demo",
      latitude: 45,
      longitude: 25,
      radiusMeters: 50,
    });

    const prefix = "migrate-watch:";
    const target = new RedisAlertStore(redis, { prefix, now: () => NOW });
    const targetZones = new RedisZoneStore(redis, { prefix, now: () => NOW });
    // Written by a replica before the migration: the live ones, kept.
    await target.replaceWatchState("solo", '{"live":true}');
    await targetZones.addZone({
      workspace: B,
      name: "BAZA",
      nameKey: "baza",
      latitude: 1,
      longitude: 2,
      radiusMeters: 300,
    });

    const report = await migrateToRedis({ source: { db }, redis, prefix, now: () => NOW });
    expect(formatMigrationReport(report)).toEqual(
      expect.arrayContaining([
        "alert subscriptions: 2 copied, 0 already in Redis",
        "incidents: 1 copied, 0 already in Redis [0 posts with them]",
        "vehicle watch states: 1 copied, 1 already in Redis",
        "zones: 2 copied, 1 already in Redis",
      ]),
    );
    expect(await target.subscriptions()).toEqual(sqlite.subscriptions());
    expect((await target.subscription("C1", "demo", A))?.watch).toEqual({
      volts: 11.5,
      zones: ["Depou"],
      speedKmh: 90,
    });
    expect(await target.incident(speeding!.id)).toEqual(sqlite.incident(speeding!.id));
    expect(await target.watchState("demo")).toBe('{"last":{"7":[46.77,23.62]}}');
    expect(await target.watchState("solo")).toBe('{"live":true}');
    // With its id: incidents name the zone by it.
    expect(await targetZones.zones(A)).toEqual([depot.added ? depot.zone : undefined]);
    expect(await targetZones.zones("")).toEqual(zones.zones(""));
    expect((await targetZones.zones(B)).map((z) => [z.name, z.radiusMeters])).toEqual([["BAZA", 300]]);

    const again = formatMigrationReport(
      await migrateToRedis({ source: { db }, redis, prefix, now: () => NOW }),
    );
    expect(again).toEqual(
      expect.arrayContaining([
        "vehicle watch states: 0 copied, 2 already in Redis",
        "zones: 0 copied, 3 already in Redis",
      ]),
    );
    db.close();
  });
});
