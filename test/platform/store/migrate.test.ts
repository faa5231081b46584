import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SqliteAccountStore } from "../../../src/platform/store/accountStore.js";
import { SqliteAlertStore } from "../../../src/platform/store/alertStore.js";
import { SqliteAuditStore } from "../../../src/platform/store/auditStore.js";
import { openDatabase } from "../../../src/platform/store/database.js";
import {
  readSealedInstallations,
  SqliteInstallationStore,
} from "../../../src/platform/store/installationStore.js";
import { SqliteLearnedLimitsStore } from "../../../src/platform/store/learnedLimits.js";
import { formatMigrationReport, migrateToRedis } from "../../../src/platform/store/migrate.js";
import { RedisMigrationTarget } from "../../../src/platform/store/migrationTarget.js";
import { RedisAccountStore } from "../../../src/platform/store/redis/accountStore.js";
import { RedisAlertStore } from "../../../src/platform/store/redis/alertStore.js";
import { RedisAuditStore } from "../../../src/platform/store/redis/auditStore.js";
import { RedisInstallationStore } from "../../../src/platform/store/redis/installationStore.js";
import { RedisLearnedLimitsStore } from "../../../src/platform/store/redis/learnedLimits.js";
import { RedisScheduleStore } from "../../../src/platform/store/redis/scheduleStore.js";
import { RedisSettingsStore } from "../../../src/platform/store/redis/settingsStore.js";
import { RedisTaskStore } from "../../../src/platform/store/redis/taskStore.js";
import { SqliteScheduleStore } from "../../../src/platform/store/scheduleStore.js";
import { SqliteSettingsStore } from "../../../src/platform/store/settingsStore.js";
import { SqliteTaskStore } from "../../../src/platform/store/taskStore.js";
import { type RedisServer, redisSkipReason, startRedisServer } from "../../helpers/redisServer.js";
import {
  addInstallations,
  dumpRedis,
  type Fixture,
  INSTALL_SECRETS,
  makeDataDir,
  NOW,
  northInstall,
  orgInstall,
  PASSWORDS,
} from "./migrateFixture.js";

describe.skipIf(redisSkipReason !== undefined)("migrateToRedis", () => {
  let server: RedisServer;
  let redis: Redis;
  let fixtures: Fixture[] = [];
  let prefixes = 0;
  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis.disconnect();
    await server.stop();
  });
  afterEach(() => {
    for (const f of fixtures) rmSync(f.dataDir, { recursive: true, force: true });
    fixtures = [];
  });
  const setup = () => {
    const fixture = makeDataDir();
    fixtures.push(fixture);
    return { fixture, prefix: `migrate${++prefixes}:` };
  };
  const clock = () => NOW;

  it("copies accounts, subscriptions, live incidents with posts and mutes, tasks with their journal", async () => {
    const { fixture, prefix } = setup();
    // No key given: the sealed passwords are copied as they are.
    const report = await migrateToRedis({ source: { dataDir: fixture.dataDir }, redis, prefix, now: clock });
    expect(report.outcomes.map((o) => [o.kind, o.copied, o.present, o.skipped])).toEqual([
      ["linked accounts", 2, 0, 0],
      ["alert subscriptions", 2, 0, 0],
      ["incidents", 3, 0, 0],
      ["mutes", 1, 0, 0],
      ["tasks", 3, 0, 0],
      ["learned limits", 2, 0, 0],
      ["audit entries", 2, 0, 0],
    ]);
    const audit = new RedisAuditStore(redis, { prefix });
    const source = openDatabase(fixture.dataDir);
    expect(await audit.all()).toEqual(new SqliteAuditStore(source).all());
    source.close();
    expect((await audit.history("demo", "AB12CD34EF56GH78", 10)).entries.map((e) => e.action)).toEqual([
      "end",
      "start",
    ]);

    const db = openDatabase(fixture.dataDir);
    const sqlite = {
      accounts: new SqliteAccountStore(db, fixture.key, clock),
      alerts: new SqliteAlertStore(db, clock),
      tasks: new SqliteTaskStore(db, clock),
      limits: new SqliteLearnedLimitsStore(db, clock),
    };
    const options = { prefix, now: clock };
    const target = {
      accounts: new RedisAccountStore(redis, { ...options, key: fixture.key }),
      alerts: new RedisAlertStore(redis, options),
      tasks: new RedisTaskStore(redis, options),
      limits: new RedisLearnedLimitsStore(redis, options),
    };

    // Accounts open with the key, as they did in SQLite; the sealed text is the same.
    expect(await target.accounts.get("", "U1")).toEqual(sqlite.accounts.get("", "U1"));
    expect((await target.accounts.get("", "U2"))?.password).toBe(PASSWORDS.U2);
    expect(await target.accounts.isLinked("two@example.ro")).toBe(true);
    const sealedInSqlite = db.prepare("SELECT secret FROM linked_accounts ORDER BY rowid").pluck().all();
    expect((await new RedisMigrationTarget(redis, options).sealedAccounts()).map((a) => a.secret)).toEqual(
      sealedInSqlite,
    );

    expect(await target.alerts.subscriptions()).toEqual(sqlite.alerts.subscriptions());
    expect(await target.alerts.subscribedAccounts()).toEqual(["demo"]);

    const { ids } = fixture;
    expect(await target.alerts.activeIncidents("demo")).toEqual(sqlite.alerts.activeIncidents("demo"));
    expect(await target.alerts.openIncidents()).toEqual(sqlite.alerts.openIncidents());
    expect((await target.alerts.activeIncidents("demo")).map((i) => i.id)).toEqual([
      ids.openIncident,
      ids.pendingIncident,
    ]);
    // A resolved incident whose resolution is still owed comes along; the others stay behind.
    expect(await target.alerts.incident(ids.resolvedOwed)).toEqual(sqlite.alerts.incident(ids.resolvedOwed));
    expect(await target.alerts.incident(ids.resolvedDone)).toBeUndefined();
    expect(await target.alerts.incident(ids.resolvedNeverPosted)).toBeUndefined();
    for (const id of [ids.openIncident, ids.resolvedOwed])
      expect(await target.alerts.posts(id)).toEqual(sqlite.alerts.posts(id));
    expect(await target.alerts.unresolvedPosts("demo")).toEqual(
      sqlite.alerts.unresolvedPosts("demo").filter((p) => p.incidentId === ids.resolvedOwed),
    );
    expect(await target.alerts.lastFailure("C2")).toEqual(sqlite.alerts.lastFailure("C2"));
    expect(await target.alerts.hasPostFor("C1", "UIT-t-open000000", "demo")).toBe(true);
    expect(await target.alerts.mutedUntil("C1", "MUTEDUIT00000000")).toBe(NOW + 3_600_000);
    expect(await target.alerts.mutedUntil("C1", "ENDEDUIT00000000", 0)).toBeUndefined();
    // The one-active-incident rule holds for the copied incidents.
    await expect(
      target.alerts.applyChanges([
        {
          type: "open",
          account: "demo",
          transportUId: "t-open",
          codeUit: "UIT-t-open000000",
          kind: "transmission",
          code: "OldData",
          at: NOW,
          state: "open",
          facts: { uId: "t-open", codeUit: "UIT-t-open000000", statusId: 2 },
        },
      ]),
    ).rejects.toThrow(/UNIQUE/);

    expect(await target.tasks.unfinished()).toEqual(sqlite.tasks.unfinished());
    expect(await target.tasks.countUnfinished("demo")).toBe(2);
    expect(await target.tasks.undelivered()).toEqual(sqlite.tasks.undelivered());
    expect((await target.tasks.undelivered()).map((t) => t.id)).toEqual([ids.finishedUndelivered]);
    expect(await target.tasks.get(ids.finishedDelivered)).toBeUndefined();
    expect(await target.tasks.get(ids.running)).toEqual(sqlite.tasks.get(ids.running));
    for (const step of ["start:U9", "load:U9"])
      expect(await target.tasks.step(ids.running, step)).toEqual(sqlite.tasks.step(ids.running, step));
    expect(await target.tasks.recent("demo", 10)).toEqual(
      sqlite.tasks.recent("demo", 10).filter((t) => t.id !== ids.finishedDelivered),
    );
    // A pending dedupe key still holds in Redis.
    const again = await target.tasks.create({
      kind: "vehicle-report",
      params: {},
      account: "demo",
      reply: {},
      priority: "report",
      dedupeKey: "stops:U1",
    });
    expect(again).toMatchObject({ created: false, task: { id: ids.queued } });

    expect(await target.limits.load("https://fleet.example")).toEqual(
      sqlite.limits.load("https://fleet.example"),
    );
    db.close();
  });

  it("a second run changes nothing and says so", async () => {
    const { fixture, prefix } = setup();
    const source = { dataDir: fixture.dataDir };
    const first = await migrateToRedis({ source, redis, prefix, now: clock, key: fixture.key });
    const before = await dumpRedis(redis, prefix);
    expect(before.length).toBeGreaterThan(20);
    const second = await migrateToRedis({ source, redis, prefix, now: clock, key: fixture.key });
    expect(second.outcomes.map((o) => o.copied)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(second.outcomes.map((o) => o.present)).toEqual(first.outcomes.map((o) => o.copied));
    expect(await dumpRedis(redis, prefix)).toEqual(before);
    expect(formatMigrationReport(second)).toEqual([
      "linked accounts: 0 copied, 2 already in Redis",
      "alert subscriptions: 0 copied, 2 already in Redis",
      "incidents: 0 copied, 3 already in Redis [3 posts with them]",
      "mutes: 0 copied, 1 already in Redis",
      "tasks: 0 copied, 3 already in Redis [2 unfinished, 1 finished with the answer not out; 2 journal steps]",
      "learned limits: 0 copied, 2 already in Redis",
      "audit entries: 0 copied, 2 already in Redis",
    ]);
  });

  it("leaves what Redis already has: a user's newer link, an incident opened by a replica", async () => {
    const { fixture, prefix } = setup();
    const options = { prefix, now: () => NOW + 60_000 };
    const accounts = new RedisAccountStore(redis, { ...options, key: fixture.key });
    const alerts = new RedisAlertStore(redis, options);
    await accounts.link("", "U1", "relinked@example.ro", "Newer-Password");
    await alerts.applyChanges([
      {
        type: "open",
        account: "demo",
        transportUId: "t-open",
        codeUit: "UIT-t-open000000",
        kind: "transmission",
        code: "Error",
        at: NOW + 60_000,
        state: "open",
        facts: { uId: "t-open", codeUit: "UIT-t-open000000", statusId: 2 },
      },
    ]);
    const report = await migrateToRedis({ source: { dataDir: fixture.dataDir }, redis, prefix, now: clock });
    expect(report.outcomes.find((o) => o.kind === "linked accounts")).toMatchObject({
      copied: 1,
      present: 1,
    });
    expect(report.outcomes.find((o) => o.kind === "incidents")).toMatchObject({ copied: 2, skipped: 1 });
    expect(formatMigrationReport(report)[2]).toMatch(/1 skipped \(Redis already has another active incident/);
    expect(await accounts.get("", "U1")).toMatchObject({
      username: "relinked@example.ro",
      password: "Newer-Password",
    });
    expect(await alerts.incident(fixture.ids.openIncident)).toBeUndefined();
    expect(await alerts.activeIncidents("demo")).toHaveLength(2);
  });

  it("counts the accounts a given CREDENTIALS_KEY cannot open, without naming or printing any", async () => {
    const { fixture, prefix } = setup();
    const report = await migrateToRedis({
      source: { dataDir: fixture.dataDir },
      redis,
      prefix,
      now: clock,
      key: randomBytes(32),
    });
    expect(report.unreadableAccounts).toBe(2);
    const lines = formatMigrationReport(report).join("\n");
    expect(lines).toMatch(/warning: 2 linked account\(s\) do not open with this CREDENTIALS_KEY/);
    expect(lines).not.toMatch(/U1|one@example|Parola/);
    // Copied all the same: the right key opens them in Redis.
    const accounts = new RedisAccountStore(redis, { prefix, key: fixture.key });
    expect((await accounts.get("", "U1"))?.password).toBe(PASSWORDS.U1);
  });

  it("copies each link with its workspace: it opens in Redis under the same (workspace, user)", async () => {
    const { fixture, prefix } = setup();
    const source = openDatabase(fixture.dataDir);
    new SqliteAccountStore(source, fixture.key, clock).link(
      "T:T123",
      "U1",
      "alpha@example.ro",
      "Parola-Alfa",
    );
    source.close();
    const report = await migrateToRedis({
      source: { dataDir: fixture.dataDir },
      redis,
      prefix,
      now: clock,
      key: fixture.key,
    });
    expect(report.outcomes[0]).toMatchObject({ kind: "linked accounts", copied: 3 });
    expect(report.unreadableAccounts).toBe(0);
    const accounts = new RedisAccountStore(redis, { prefix, key: fixture.key });
    expect(await accounts.get("T:T123", "U1")).toMatchObject({
      workspace: "T:T123",
      username: "alpha@example.ro",
      password: "Parola-Alfa",
    });
    expect((await accounts.get("", "U1"))?.password).toBe(PASSWORDS.U1);
  });

  it("copies the language settings with their times; a setting already in Redis is kept; a second run copies none", async () => {
    const { fixture, prefix } = setup();
    const db = openDatabase(fixture.dataDir);
    const sqlite = new SqliteSettingsStore(db, () => NOW - 5000);
    sqlite.setUserLanguage("", "U1", "ro");
    sqlite.setUserLanguage("", "U2", "en");
    sqlite.setUserLanguage("T:T123", "U1", "ro");
    sqlite.setWorkspaceLanguage("T:T123", "ro");
    db.close();
    // A replica already has U2's newer choice.
    const target = new RedisSettingsStore(redis, { prefix, now: () => NOW + 60_000 });
    await target.setUserLanguage("", "U2", "ro");

    const source = { dataDir: fixture.dataDir };
    const first = await migrateToRedis({ source, redis, prefix, now: clock });
    expect(first.outcomes.map((o) => [o.kind, o.copied, o.present, o.skipped])).toEqual([
      ["linked accounts", 2, 0, 0],
      ["language settings", 3, 1, 0],
      ["alert subscriptions", 2, 0, 0],
      ["incidents", 3, 0, 0],
      ["mutes", 1, 0, 0],
      ["tasks", 3, 0, 0],
      ["learned limits", 2, 0, 0],
      ["audit entries", 2, 0, 0],
    ]);
    expect(formatMigrationReport(first)[1]).toBe("language settings: 3 copied, 1 already in Redis");
    expect(await target.userLanguage("", "U1")).toBe("ro");
    expect(await target.userLanguage("", "U2")).toBe("ro");
    expect(await target.userLanguage("T:T123", "U1")).toBe("ro");
    expect(await target.workspaceLanguage("T:T123")).toBe("ro");
    // Each with the time it was chosen, not the migration's; U2's stays the replica's.
    expect(await redis.hgetall(`${prefix}settings:`)).toEqual({
      "user:U1": "ro",
      "user:U1:at": String(NOW - 5000),
      "user:U2": "ro",
      "user:U2:at": String(NOW + 60_000),
    });
    expect(await redis.hgetall(`${prefix}settings:T:T123`)).toEqual({
      "user:U1": "ro",
      "user:U1:at": String(NOW - 5000),
      workspace: "ro",
      "workspace:at": String(NOW - 5000),
    });

    const before = await dumpRedis(redis, prefix);
    const second = await migrateToRedis({ source, redis, prefix, now: clock });
    expect(second.outcomes.map((o) => o.copied)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(formatMigrationReport(second)[1]).toBe("language settings: 0 copied, 4 already in Redis");
    expect(await dumpRedis(redis, prefix)).toEqual(before);
  });

  it("copies the scheduled reports with their ids, state and runs; one already in Redis is kept, an id taken there is skipped", async () => {
    const { fixture, prefix } = setup();
    const db = openDatabase(fixture.dataDir);
    const sqlite = new SqliteScheduleStore(db, () => NOW - 5000);
    const make = (workspace: string, channel: string, nextRunAt: number) =>
      sqlite.add({
        workspace,
        channel,
        createdBy: "U1",
        command: "fuel all yesterday",
        recurrence: { every: "week", weekday: 1, time: "07:30" },
        timeZone: "Europe/Bucharest",
        language: "ro",
        nextRunAt,
      });
    const ran = make("T:T123", "C1", NOW - 60_000);
    sqlite.claimRun("T:T123", ran.id, NOW - 60_000, { nextRunAt: NOW + 3_600_000, madeAt: NOW - 59_000 });
    sqlite.recordOutcome("T:T123", ran.id, { taskId: "task-1", result: "failed" });
    const paused = make("T:T123", "C2", NOW + 1000);
    sqlite.setState("T:T123", paused.id, { state: "paused", because: "left-channel" });
    const single = make("", "C1", NOW + 2000);
    const present = make("E:E9", "C1", NOW + 3000);
    const clash = make("E:E9", "C7", NOW + 4000);
    db.close();
    // Already in Redis: the same schedule (a run before), and another one under clash's id.
    const migration = new RedisMigrationTarget(redis, { prefix, now: clock });
    expect(await migration.importSchedule(present)).toBe("copied");
    const theirs = { ...clash, channel: "C8", command: "stops all today", createdAt: NOW };
    expect(await migration.importSchedule(theirs)).toBe("copied");

    const source = { dataDir: fixture.dataDir };
    const first = await migrateToRedis({ source, redis, prefix, now: clock });
    expect(formatMigrationReport(first)).toContain(
      "scheduled reports: 3 copied, 1 already in Redis, 1 skipped (Redis already has another schedule of that id in its workspace)",
    );
    const check = openDatabase(fixture.dataDir);
    const source17 = new SqliteScheduleStore(check);
    const target = new RedisScheduleStore(redis, { prefix, now: clock });
    for (const workspace of ["T:T123", ""])
      expect(await target.list(workspace)).toEqual(source17.list(workspace));
    expect(await target.get("T:T123", ran.id)).toMatchObject({
      lastRunAt: NOW - 60_000,
      lastRunMadeAt: NOW - 59_000,
      lastTaskId: "task-1",
      lastOutcome: "failed",
      failuresInRow: 1,
      nextRunAt: NOW + 3_600_000,
    });
    expect(await target.get("E:E9", clash.id)).toEqual(theirs);
    expect(await target.count("E:E9")).toBe(2);
    // Due as in SQLite (the paused one never); each run is claimed once, now on Redis.
    expect((await target.due(NOW + 3_600_000, 10)).map((x) => x.id)).toEqual([
      single.id,
      present.id,
      clash.id,
      ran.id,
    ]);
    expect(await target.claimRun("", single.id, NOW + 2000, { nextRunAt: NOW + 90_000, madeAt: NOW })).toBe(
      true,
    );
    expect(await target.claimRun("", single.id, NOW + 2000, { nextRunAt: NOW + 90_000, madeAt: NOW })).toBe(
      false,
    );
    check.close();

    const second = await migrateToRedis({ source, redis, prefix, now: clock });
    expect(formatMigrationReport(second)).toContain(
      "scheduled reports: 0 copied, 4 already in Redis, 1 skipped (Redis already has another schedule of that id in its workspace)",
    );
    // A copy already there is kept as it is (its claimed run included).
    expect((await target.get("", single.id))?.nextRunAt).toBe(NOW + 90_000);
  });

  describe("Slack installations (multi-workspace mode)", () => {
    const teamQuery = (teamId: string, enterpriseId?: string) => ({
      teamId,
      enterpriseId,
      isEnterpriseInstall: false,
    });
    const orgQuery = (enterpriseId: string) => ({
      teamId: undefined,
      enterpriseId,
      isEnterpriseInstall: true,
    });

    it("copies them sealed as they are: the Redis store opens them with the same key", async () => {
      const { fixture, prefix } = setup();
      await addInstallations(fixture, NOW - 1000);
      const report = await migrateToRedis({
        source: { dataDir: fixture.dataDir },
        redis,
        prefix,
        now: clock,
        key: fixture.key,
      });
      expect(report.outcomes.map((o) => [o.kind, o.copied, o.present, o.skipped])).toEqual([
        ["Slack installations", 2, 0, 0],
        ["linked accounts", 2, 0, 0],
        ["alert subscriptions", 2, 0, 0],
        ["incidents", 3, 0, 0],
        ["mutes", 1, 0, 0],
        ["tasks", 3, 0, 0],
        ["learned limits", 2, 0, 0],
        ["audit entries", 2, 0, 0],
      ]);
      expect(report.unreadableInstallations).toBe(0);
      expect(formatMigrationReport(report)[0]).toBe("Slack installations: 2 copied, 0 already in Redis");

      const target = new RedisInstallationStore(redis, { prefix, key: fixture.key });
      const db = openDatabase(fixture.dataDir);
      const sqlite = new SqliteInstallationStore(db, fixture.key);
      try {
        // The same bot token, and the whole installation as SQLite gives it.
        const north = await target.fetchInstallation(teamQuery("T0NORTH"));
        expect(north.bot?.token).toBe(INSTALL_SECRETS.north);
        expect(north).toEqual(northInstall);
        expect(north).toEqual(await sqlite.fetchInstallation(teamQuery("T0NORTH")));
        const org = await target.fetchInstallation(orgQuery("E0CARRIER"));
        expect(org.bot?.token).toBe(INSTALL_SECRETS.org);
        expect(org).toEqual(orgInstall);
        // The org-wide install serves a workspace of the org that has no install of its own.
        expect((await target.fetchInstallation(teamQuery("T0ORGTWO", "E0CARRIER"))).bot?.token).toBe(
          INSTALL_SECRETS.org,
        );
        // Installed when SQLite says, not when the migration ran (a late uninstall event still compares right).
        expect(await target.installedAt(orgQuery("E0CARRIER"))).toBe(NOW - 1000);
        expect(await target.all()).toEqual(await sqlite.all());
        expect((await target.all()).map((r) => r.key)).toEqual(["E:E0CARRIER", "T:T0NORTH"]);
        // Sealed text copied byte for byte; no token in clear anywhere in Redis.
        for (const sealed of readSealedInstallations(db))
          expect(await redis.hget(`${prefix}installation:${sealed.key}`, "secrets")).toBe(sealed.secrets);
        const dump = JSON.stringify(await dumpRedis(redis, prefix));
        for (const secret of Object.values(INSTALL_SECRETS)) expect(dump).not.toContain(secret);
      } finally {
        db.close();
      }
    });

    it("a second run copies nothing; an installation already in Redis (a newer install) is kept", async () => {
      const { fixture, prefix } = setup();
      await addInstallations(fixture, NOW - 1000);
      // A replica already serves T0NORTH, reinstalled after the single instance stopped.
      const reinstalled = new RedisInstallationStore(redis, {
        prefix,
        key: fixture.key,
        now: () => NOW + 60_000,
      });
      const newerToken = "bot:T0NORTH-reinstalled-0002";
      await reinstalled.storeInstallation({
        ...northInstall,
        bot: { ...northInstall.bot!, token: newerToken },
      });

      const source = { dataDir: fixture.dataDir };
      const first = await migrateToRedis({ source, redis, prefix, now: clock, key: fixture.key });
      expect(first.outcomes[0]).toMatchObject({ kind: "Slack installations", copied: 1, present: 1 });
      const target = new RedisInstallationStore(redis, { prefix, key: fixture.key });
      expect((await target.fetchInstallation(teamQuery("T0NORTH"))).bot?.token).toBe(newerToken);
      expect(await target.installedAt(teamQuery("T0NORTH"))).toBe(NOW + 60_000);
      expect((await target.fetchInstallation(orgQuery("E0CARRIER"))).bot?.token).toBe(INSTALL_SECRETS.org);

      const before = await dumpRedis(redis, prefix);
      const second = await migrateToRedis({ source, redis, prefix, now: clock, key: fixture.key });
      expect(second.outcomes.map((o) => o.copied)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
      expect(formatMigrationReport(second)[0]).toBe("Slack installations: 0 copied, 2 already in Redis");
      expect(await dumpRedis(redis, prefix)).toEqual(before);
    });

    it("counts the installations a given CREDENTIALS_KEY cannot open, copied all the same", async () => {
      const { fixture, prefix } = setup();
      await addInstallations(fixture);
      const report = await migrateToRedis({
        source: { dataDir: fixture.dataDir },
        redis,
        prefix,
        now: clock,
        key: randomBytes(32),
      });
      expect(report.unreadableInstallations).toBe(2);
      const lines = formatMigrationReport(report);
      expect(lines).toContain(
        "warning: 2 Slack installation(s) do not open with this CREDENTIALS_KEY; they were copied as they are, " +
          "and their workspaces must install fleetbot again unless the old key is restored",
      );
      for (const secret of Object.values(INSTALL_SECRETS)) expect(lines.join("\n")).not.toContain(secret);
      const target = new RedisInstallationStore(redis, { prefix, key: fixture.key });
      expect((await target.fetchInstallation(orgQuery("E0CARRIER"))).bot?.token).toBe(INSTALL_SECRETS.org);
    });
  });

  it("refuses a DATA_DIR without a store instead of copying nothing", async () => {
    await expect(
      migrateToRedis({ source: { dataDir: "/nonexistent/fleetbot-data" }, redis, prefix: "none:" }),
    ).rejects.toThrow(/No fleetbot store at \/nonexistent\/fleetbot-data\/fleetbot.sqlite/);
    expect(await redis.keys("none:*")).toEqual([]);
  });
});
