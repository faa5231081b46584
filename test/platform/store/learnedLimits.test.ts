import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { MIGRATIONS, openDatabase, SCHEMA_VERSION } from "../../../src/platform/store/database.js";
import { SqliteLearnedLimitsStore } from "../../../src/platform/store/learnedLimits.js";

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "fleetbot-learned-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const SERVICE = "https://fleet.example";

describe("SqliteLearnedLimitsStore", () => {
  it("keeps limits per service and endpoint across a reopen", () => {
    const dir = freshDir();
    const db = openDatabase(dir);
    const store = new SqliteLearnedLimitsStore(db, () => 1_000);
    expect(store.load(SERVICE)).toEqual({});
    store.save(SERVICE, "stops", { maxDays: 31 });
    store.save(SERVICE, "temperatures", { maxVehicles: 10, maxDays: 7.5 });
    store.save("http://127.0.0.1:4010", "stops", { maxDays: 3 });
    db.close();

    const reopened = openDatabase(dir);
    const again = new SqliteLearnedLimitsStore(reopened);
    expect(again.load(SERVICE)).toEqual({
      stops: { maxDays: 31 },
      temperatures: { maxVehicles: 10, maxDays: 7.5 },
    });
    expect(again.load("http://127.0.0.1:4010")).toEqual({ stops: { maxDays: 3 } });
    reopened.close();
  });

  it("each dimension keeps the tighter value; a missing one does not erase what is stored", () => {
    const db = openDatabase(":memory:");
    const store = new SqliteLearnedLimitsStore(db);
    store.save(SERVICE, "stops", { maxDays: 31 });
    store.save(SERVICE, "stops", { maxVehicles: 5 });
    store.save(SERVICE, "stops", { maxDays: 40, maxVehicles: 8 });
    expect(store.load(SERVICE)).toEqual({ stops: { maxVehicles: 5, maxDays: 31 } });
    store.save(SERVICE, "stops", { maxDays: 14 });
    expect(store.load(SERVICE)).toEqual({ stops: { maxVehicles: 5, maxDays: 14 } });
    store.forget(SERVICE);
    expect(store.load(SERVICE)).toEqual({});
    db.close();
  });

  it("rows of endpoints this version does not split are ignored; the schema refuses nonsense", () => {
    const db = openDatabase(":memory:");
    db.prepare(
      "INSERT INTO learned_limits (service, endpoint, max_vehicles, max_days, learned_at) VALUES (?, 'load-transports', 3, NULL, 1)",
    ).run(SERVICE);
    expect(new SqliteLearnedLimitsStore(db).load(SERVICE)).toEqual({});
    expect(() =>
      db
        .prepare(
          "INSERT INTO learned_limits (service, endpoint, max_vehicles, max_days, learned_at) VALUES (?, 'stops', 0, NULL, 1)",
        )
        .run(SERVICE),
    ).toThrow(/CHECK/);
    db.close();
  });

  it("a store from before the migration is upgraded with an empty table, its tasks kept", () => {
    const dir = freshDir();
    const old = new Database(join(dir, "fleetbot.sqlite"));
    for (const migration of MIGRATIONS.slice(0, 3)) old.exec(migration);
    old.pragma("user_version = 3");
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
    expect(new SqliteLearnedLimitsStore(db).load(SERVICE)).toEqual({});
    db.close();
  });
});
