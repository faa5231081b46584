import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { SqliteAlertStore } from "../../../src/platform/store/alertStore.js";
import {
  MIGRATIONS,
  openDatabase,
  SCHEMA_VERSION,
  StoreError,
} from "../../../src/platform/store/database.js";
import { SqliteScheduleStore } from "../../../src/platform/store/scheduleStore.js";
import { SqliteZoneStore } from "../../../src/platform/store/zoneStore.js";

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "fleetbot-store-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("openDatabase", () => {
  it("creates the schema at the latest version and reopens without change", () => {
    const dir = freshDir();
    const db = openDatabase(dir);
    expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
    const again = openDatabase(dir);
    expect(again.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    again.close();
  });

  it("upgrades a store left at an older version and keeps its tasks", () => {
    const dir = freshDir();
    const old = new Database(join(dir, "fleetbot.sqlite"));
    old.exec(MIGRATIONS[0]!);
    old.pragma("user_version = 1");
    old
      .prepare(
        `INSERT INTO tasks (id, kind, params, account, reply, priority, state, created_at, updated_at)
         VALUES ('t1', 'stops', '{}', 'demo', '{}', 'report', 'queued', 1, 1)`,
      )
      .run();
    old.close();
    const db = openDatabase(dir);
    expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.prepare("SELECT id FROM tasks").all()).toEqual([{ id: "t1" }]);
    db.close();
  });

  it("migration 16 (vehicle watch) keeps a version-15 store's incidents, in order, with their posts and groups", () => {
    const dir = freshDir();
    const old = new Database(join(dir, "fleetbot.sqlite"));
    for (const migration of MIGRATIONS.slice(0, 15)) old.exec(migration);
    old.pragma("user_version = 15");
    old.exec(`
      INSERT INTO alert_subscriptions (id, workspace, channel, account, codes, created_at, stale_minutes, language)
        VALUES ('s1', 'T:A', 'C1', 'demo', '["Error"]', 5, 15, 'ro');
      INSERT INTO alert_incidents (id, account, transport_uid, code_uit, kind, code, first_seen_at, opened_at,
          resolved_at, resolve_reason, state, last_seen_at, facts, end_evidence_at)
        VALUES ('i2', 'demo', 't-2', 'UIT2', 'stalled', 'Stalled', 1, 1, NULL, NULL, 'open', 3, '{"uId":"t-2","codeUit":"UIT2","statusId":2}', NULL),
               ('i1', 'demo', 't-1', 'UIT1', 'transmission', 'Error', 1, 1, 4, 'recovered', 'resolved', 4, '{"uId":"t-1","codeUit":"UIT1","statusId":2}', 2),
               ('i3', 'demo', 't-1', 'UIT1', 'vanished', 'Vanished', 2, NULL, NULL, NULL, 'pending', 2, '{"uId":"t-1","codeUit":"UIT1","statusId":2}', NULL);
      INSERT INTO alert_groups (id, account, workspace, channel, created_at, ts, shown) VALUES ('g1', 'demo', 'T:A', 'C2', 1, '9.9', 2);
      INSERT INTO alert_posts (incident_id, workspace, channel, ts, attempts, group_id) VALUES ('i2', 'T:A', 'C2', '1.2', 1, 'g1');
      INSERT INTO alert_posts (incident_id, workspace, channel, ts, attempts, group_id) VALUES ('i1', 'T:A', 'C2', '1.1', 1, 'g1');
      INSERT INTO alert_posts (incident_id, workspace, channel, ts, attempts, last_error) VALUES ('i1', 'T:A', 'C1', NULL, 2, 'late');
      INSERT INTO alert_listed (account, transport_uid, facts) VALUES ('demo', 't-2', '{"uId":"t-2","codeUit":"UIT2","statusId":2}');
    `);
    const before = old.prepare("SELECT rowid, * FROM alert_incidents ORDER BY rowid").all();
    const postsBefore = old.prepare("SELECT rowid, * FROM alert_posts ORDER BY rowid").all();
    old.close();

    const db = openDatabase(dir);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(16);
    expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    // Every row as it was, rowids included (incidents first seen together keep their order).
    expect(db.prepare("SELECT rowid, * FROM alert_incidents ORDER BY rowid").all()).toEqual(before);
    expect(db.prepare("SELECT rowid, * FROM alert_posts ORDER BY rowid").all()).toEqual(postsBefore);
    expect(db.pragma("foreign_key_check")).toEqual([]);
    expect(db.pragma("foreign_keys", { simple: true })).toBe(1);
    const alerts = new SqliteAlertStore(db, () => 10);
    expect(alerts.incidents("demo").map((i) => i.id)).toEqual(["i2", "i1", "i3"]);
    expect(alerts.incident("i1")).toMatchObject({
      state: "resolved",
      endEvidenceMs: 2,
      resolveReason: "recovered",
    });
    expect(alerts.groupMembers("g1").map((m) => m.incident.id)).toEqual(["i2", "i1"]);
    expect(alerts.lastFailure("C1", "T:A")).toEqual({ codeUit: "UIT1", error: "late", attempts: 2 });
    expect(alerts.listedTransports("demo")).toEqual([{ uId: "t-2", codeUit: "UIT2", statusId: 2 }]);
    // A subscription from before has no watch options; it keeps its other settings.
    expect(alerts.subscription("C1", "demo", "T:A")).toMatchObject({
      codes: ["Error"],
      staleMinutes: 15,
      language: "ro",
      watch: {},
    });
    // The rebuilt table still holds one active incident per transport and kind, and takes the vehicle kinds.
    expect(() =>
      db
        .prepare(
          `INSERT INTO alert_incidents (id, account, transport_uid, code_uit, kind, code, first_seen_at, state, last_seen_at, facts)
             VALUES ('dup', 'demo', 't-2', 'UIT2', 'stalled', 'Stalled', 5, 'open', 5, '{}')`,
        )
        .run(),
    ).toThrow(/UNIQUE/);
    expect(() =>
      db
        .prepare(
          `INSERT INTO alert_incidents (id, account, transport_uid, code_uit, kind, code, first_seen_at, state, last_seen_at, facts)
             VALUES ('bad', 'demo', 't-9', 'UIT9', 'parking', 'x', 5, 'open', 5, '{}')`,
        )
        .run(),
    ).toThrow(/CHECK/);
    const [towed] = alerts.applyChanges([
      {
        type: "open",
        account: "demo",
        transportUId: "vehicle:7|towed",
        codeUit: "B-7-XYZ",
        kind: "towed",
        code: "towed",
        at: 6,
        state: "open",
        facts: {
          uId: "vehicle:7|towed",
          codeUit: "B-7-XYZ",
          statusId: 0,
          vehicle: { vehicleId: 7, watch: "towed" },
        },
      },
    ]);
    expect(towed).toMatchObject({ kind: "towed", facts: { vehicle: { vehicleId: 7, watch: "towed" } } });
    // Deleting an incident still takes its posts with it (the reference survived the rebuild).
    db.prepare("DELETE FROM alert_incidents WHERE id = 'i1'").run();
    expect(alerts.posts("i1")).toEqual([]);
    alerts.replaceWatchState("demo", "{}");
    expect(alerts.watchState("demo")).toBe("{}");
    const zones = new SqliteZoneStore(db, () => 10);
    expect(
      zones.addZone({
        workspace: "T:A",
        name: "Depou",
        nameKey: "depou",
        latitude: 1,
        longitude: 2,
        radiusMeters: 50,
      }).added,
    ).toBe(true);
    db.close();
  });

  it("migration 17 (scheduled reports) upgrades a version-16 store: its rows kept, schedules stored", () => {
    const dir = freshDir();
    const old = new Database(join(dir, "fleetbot.sqlite"));
    for (const migration of MIGRATIONS.slice(0, 16)) old.exec(migration);
    old.pragma("user_version = 16");
    old.exec(`
      INSERT INTO zones (workspace, id, name, name_key, latitude, longitude, radius_meters, created_by, created_at)
        VALUES ('T:A', 'z1', 'Depou', 'depou', 1, 2, 50, 'U1', 5);
      INSERT INTO tasks (id, kind, params, account, reply, priority, state, created_at, updated_at, workspace)
        VALUES ('t1', 'stops', '{}', 'demo', '{}', 'report', 'queued', 1, 1, 'T:A');
    `);
    old.close();

    const db = openDatabase(dir);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(17);
    expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    expect(new SqliteZoneStore(db).zones("T:A").map((z) => z.id)).toEqual(["z1"]);
    expect(db.prepare("SELECT id, workspace FROM tasks").all()).toEqual([{ id: "t1", workspace: "T:A" }]);
    const schedules = new SqliteScheduleStore(db, () => 10);
    const added = schedules.add({
      workspace: "T:A",
      channel: "C1",
      createdBy: "U1",
      command: "fuel all yesterday",
      recurrence: { every: "week", weekday: 1, time: "07:30" },
      timeZone: "Europe/Bucharest",
      nextRunAt: 100,
    });
    expect(schedules.due(100, 5)).toEqual([added]);
    expect(schedules.claimRun("T:A", added.id, 100, { nextRunAt: 200, madeAt: 101 })).toBe(true);
    // The id is unique in its workspace; the state is one of two.
    const insert = db.prepare(
      `INSERT INTO report_schedules (workspace, id, channel, created_by, command, recurrence, time_zone, state,
          next_run_at, created_at) VALUES ('T:A', ?, 'C1', 'U1', 'x', '{}', 'UTC', ?, 1, 1)`,
    );
    expect(() => insert.run(added.id, "active")).toThrow(/UNIQUE|PRIMARY/);
    expect(() => insert.run("ZZZZ", "running")).toThrow(/CHECK/);
    // The due sweep reads the index of the active ones.
    const plan = db
      .prepare(
        "EXPLAIN QUERY PLAN SELECT * FROM report_schedules WHERE state = 'active' AND next_run_at <= ? ORDER BY next_run_at, workspace, id LIMIT ?",
      )
      .all(1, 1);
    expect(JSON.stringify(plan)).toContain("report_schedules_due");
    db.close();
  });

  it("migration 18 (skipped runs counted) upgrades a version-17 store: a schedule last skipped counts one", () => {
    const dir = freshDir();
    const old = new Database(join(dir, "fleetbot.sqlite"));
    for (const migration of MIGRATIONS.slice(0, 17)) old.exec(migration);
    old.pragma("user_version = 17");
    const row = (id: string, outcome: string | null) =>
      old
        .prepare(
          `INSERT INTO report_schedules (workspace, id, channel, created_by, command, recurrence, time_zone, state,
             next_run_at, last_outcome, created_at)
           VALUES ('T:A', ?, 'C1', 'U1', 'fuel all yesterday', '{"every":"day","time":"07:30"}', 'UTC', 'active', 100, ?, 1)`,
        )
        .run(id, outcome);
    row("SK1P", "skipped");
    row("0KAY", "ok");
    row("NEWW", null);
    old.close();

    const db = openDatabase(dir);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(18);
    expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    const schedules = new SqliteScheduleStore(db, () => 10);
    expect(schedules.get("T:A", "SK1P")).toMatchObject({ lastOutcome: "skipped", skippedRuns: 1 });
    for (const id of ["0KAY", "NEWW"]) {
      expect(schedules.get("T:A", id)?.id).toBe(id);
      expect(schedules.get("T:A", id)).not.toHaveProperty("skippedRuns");
    }
    expect(schedules.recordOutcome("T:A", "SK1P", { result: "skipped", skipped: 2 })?.skippedRuns).toBe(3);
    // A count below zero cannot be stored.
    expect(() => db.prepare("UPDATE report_schedules SET skipped_runs = -1 WHERE id = '0KAY'").run()).toThrow(
      /CHECK/,
    );
    db.close();
  });

  it("refuses a file that is not a database, saying what to do", () => {
    const dir = freshDir();
    writeFileSync(join(dir, "fleetbot.sqlite"), "this is not a database, it is a grocery list ".repeat(200));
    expect(() => openDatabase(dir)).toThrow(StoreError);
    expect(() => openDatabase(dir)).toThrow(/unreadable or corrupt.*restore it from a backup/);
  });

  it("refuses a store written by a newer fleetbot", () => {
    const dir = freshDir();
    const db = new Database(join(dir, "fleetbot.sqlite"));
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openDatabase(dir)).toThrow(/newer than this fleetbot knows/);
  });
});
