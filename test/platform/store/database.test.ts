import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import {
  MIGRATIONS,
  openDatabase,
  SCHEMA_VERSION,
  StoreError,
} from "../../../src/platform/store/database.js";

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
