import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { Language } from "../../../../src/i18n/language.js";
import { MIGRATIONS, openDatabase, SCHEMA_VERSION } from "../../../../src/platform/store/database.js";
import { SqliteSettingsStore } from "../../../../src/platform/store/settingsStore.js";
import { describeContract, NOW } from "./backends.js";

const TA = "T:TALPHA01";
const TB = "T:TBRAVO02";
const ORG = "E:EORG0001";

describeContract("SettingsRepository", (backend) => {
  describe("a user's language", () => {
    it("is undefined until chosen, then the choice; choosing again replaces it", async () => {
      const s = await backend.open();
      expect(await s.settings.userLanguage("", "U1")).toBeUndefined();
      await s.settings.setUserLanguage("", "U1", "ro");
      expect(await s.settings.userLanguage("", "U1")).toBe("ro");
      s.clock.now = NOW + 1000;
      await s.settings.setUserLanguage("", "U1", "en");
      expect(await s.settings.userLanguage("", "U1")).toBe("en");
      expect(await s.settings.userLanguage("", "U2")).toBeUndefined();
    });

    it("is per (workspace, user): the same user id in two workspaces is two people", async () => {
      const s = await backend.open();
      await s.settings.setUserLanguage(TA, "U1", "ro");
      await s.settings.setUserLanguage(TB, "U1", "en");
      expect(await s.settings.userLanguage(TA, "U1")).toBe("ro");
      expect(await s.settings.userLanguage(TB, "U1")).toBe("en");
      expect(await s.settings.userLanguage("", "U1")).toBeUndefined();
      expect(await s.settings.userLanguage(ORG, "U1")).toBeUndefined();
    });

    it("refuses a language fleetbot does not have", async () => {
      const s = await backend.open();
      await expect(s.settings.setUserLanguage("", "U1", "de" as Language)).rejects.toThrow(
        /CHECK constraint/,
      );
      expect(await s.settings.userLanguage("", "U1")).toBeUndefined();
    });

    it("is seen by another replica", async () => {
      const s = await backend.open();
      await s.settings.setUserLanguage(TA, "U1", "ro");
      await s.settings.setWorkspaceLanguage(TA, "ro");
      const other = s.replica();
      expect(await other.settings.userLanguage(TA, "U1")).toBe("ro");
      expect(await other.settings.workspaceLanguage(TA)).toBe("ro");
    });
  });

  describe("a workspace's default language", () => {
    it("is undefined until set, then the last one set, per workspace", async () => {
      const s = await backend.open();
      expect(await s.settings.workspaceLanguage(TA)).toBeUndefined();
      await s.settings.setWorkspaceLanguage(TA, "ro");
      await s.settings.setWorkspaceLanguage(ORG, "en");
      expect(await s.settings.workspaceLanguage(TA)).toBe("ro");
      expect(await s.settings.workspaceLanguage(TB)).toBeUndefined();
      expect(await s.settings.workspaceLanguage(ORG)).toBe("en");
      await s.settings.setWorkspaceLanguage(TA, "en");
      expect(await s.settings.workspaceLanguage(TA)).toBe("en");
    });

    it("is not a user's setting, nor the other way round", async () => {
      const s = await backend.open();
      await s.settings.setWorkspaceLanguage(TA, "ro");
      expect(await s.settings.userLanguage(TA, "workspace")).toBeUndefined();
      await s.settings.setUserLanguage(TB, "workspace", "ro");
      expect(await s.settings.workspaceLanguage(TB)).toBeUndefined();
    });

    it('is never stored for the single workspace (""): DEFAULT_LANGUAGE is its default', async () => {
      const s = await backend.open();
      await expect(s.settings.setWorkspaceLanguage("", "ro")).rejects.toThrow(/DEFAULT_LANGUAGE/);
      expect(await s.settings.workspaceLanguage("")).toBeUndefined();
      await expect(s.settings.setWorkspaceLanguage(TA, "fr" as Language)).rejects.toThrow(/CHECK constraint/);
      expect(await s.settings.workspaceLanguage(TA)).toBeUndefined();
    });
  });

  describe("deleteWorkspace (uninstall)", () => {
    it("drops every setting of that workspace only, says how many, and is idempotent", async () => {
      const s = await backend.open();
      await s.settings.setUserLanguage(TA, "U1", "ro");
      await s.settings.setUserLanguage(TA, "U2", "en");
      await s.settings.setWorkspaceLanguage(TA, "ro");
      await s.settings.setUserLanguage(TB, "U1", "ro");
      await s.settings.setWorkspaceLanguage(TB, "en");
      await s.settings.setUserLanguage("", "U1", "ro");
      expect(await s.settings.deleteWorkspace(TA)).toBe(3);
      expect(await s.settings.userLanguage(TA, "U1")).toBeUndefined();
      expect(await s.settings.userLanguage(TA, "U2")).toBeUndefined();
      expect(await s.settings.workspaceLanguage(TA)).toBeUndefined();
      expect(await s.settings.userLanguage(TB, "U1")).toBe("ro");
      expect(await s.settings.workspaceLanguage(TB)).toBe("en");
      expect(await s.settings.userLanguage("", "U1")).toBe("ro");
      expect(await s.settings.deleteWorkspace(TA)).toBe(0);
      expect(await s.settings.deleteWorkspace("T:TNEVER00")).toBe(0);
      // A reinstall starts afresh.
      await s.settings.setUserLanguage(TA, "U1", "en");
      expect(await s.settings.userLanguage(TA, "U1")).toBe("en");
    });

    it('refuses the single workspace (""): its settings are never removed wholesale', async () => {
      const s = await backend.open();
      await s.settings.setUserLanguage("", "U1", "ro");
      await expect(s.settings.deleteWorkspace("")).rejects.toThrow(/not removed wholesale/);
      expect(await s.settings.userLanguage("", "U1")).toBe("ro");
    });
  });
});

describe("SqliteSettingsStore on SQLite: migration 13", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("a store at version 12 gains the settings tables, its links kept", () => {
    const dir = mkdtempSync(join(tmpdir(), "fleetbot-settings-"));
    dirs.push(dir);
    const old = new Database(join(dir, "fleetbot.sqlite"));
    for (const migration of MIGRATIONS.slice(0, 12)) old.exec(migration);
    old.pragma("user_version = 12");
    old
      .prepare(
        "INSERT INTO linked_accounts (workspace, slack_user, username, secret, linked_at) VALUES ('', 'U1', 'a', 's', 1)",
      )
      .run();
    old.close();
    const db = openDatabase(dir);
    try {
      expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(13);
      expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.prepare("SELECT slack_user FROM linked_accounts").all()).toEqual([{ slack_user: "U1" }]);
      const settings = new SqliteSettingsStore(db, () => NOW);
      settings.setUserLanguage("", "U1", "ro");
      settings.setWorkspaceLanguage(TA, "en");
      expect(db.prepare("SELECT * FROM user_settings").all()).toEqual([
        { workspace: "", slack_user: "U1", language: "ro", updated_at: NOW },
      ]);
      expect(db.prepare("SELECT * FROM workspace_settings").all()).toEqual([
        { workspace: TA, language: "en", updated_at: NOW },
      ]);
      // The table refuses what the store refuses, whoever writes.
      expect(() => db.prepare("INSERT INTO user_settings VALUES ('', 'U2', 'de', 1)").run()).toThrow(
        /CHECK constraint/,
      );
    } finally {
      db.close();
    }
  });
});
