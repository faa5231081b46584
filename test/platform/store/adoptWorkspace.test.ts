import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SqliteAccountStore } from "../../../src/platform/store/accountStore.js";
import { adoptWorkspace, formatAdoptReport } from "../../../src/platform/store/adoptWorkspace.js";
import { LinkedAccountUnreadableError } from "../../../src/platform/store/contract/index.js";
import { openDatabase } from "../../../src/platform/store/database.js";
import { RedisAccountStore } from "../../../src/platform/store/redis/accountStore.js";
import { RedisSettingsStore } from "../../../src/platform/store/redis/settingsStore.js";
import { encryptSecret } from "../../../src/platform/store/sealing.js";
import { SqliteSettingsStore } from "../../../src/platform/store/settingsStore.js";
import { WORKSPACE_ACCOUNT_USER } from "../../../src/platform/workspaces/workspace.js";
import { redisForTests, redisSkipReason } from "../../helpers/redisServer.js";

const NOW = Date.UTC(2026, 10, 3, 8, 0, 0);
const TEAM = "T:TADOPT01";

/** The same steps on either backend: seed single-workspace links, adopt, look. */
interface Side {
  accounts: SqliteAccountStore | RedisAccountStore;
  settings: SqliteSettingsStore | RedisSettingsStore;
  adopt(key: Buffer, from: string, to: string): ReturnType<typeof adoptWorkspace>;
}

function adoptionCases(open: (key: Buffer) => Promise<Side>) {
  it("re-seals every single-workspace link as the installed workspace's, keeping who linked what and when", async () => {
    const key = randomBytes(32);
    const side = await open(key);
    await side.accounts.link("", "U1", "one@example.ro", "pw-one");
    await side.accounts.link("", "U2", "two@example.ro", "pw-two");
    await side.accounts.link("T:TOTHER01", "U1", "other@example.ro", "pw-other");

    const report = await side.adopt(key, "", TEAM);
    expect(report).toEqual({
      from: "",
      to: TEAM,
      moved: 2,
      replaced: 0,
      unreadable: 0,
      changed: 0,
      settingsMoved: 0,
      settingsKept: 0,
    });
    expect(await side.accounts.get(TEAM, "U1")).toEqual({
      workspace: TEAM,
      slackUser: "U1",
      username: "one@example.ro",
      password: "pw-one",
      linkedAt: NOW,
    });
    expect(await side.accounts.get(TEAM, "U2")).toMatchObject({ password: "pw-two" });
    expect(await side.accounts.get("", "U1")).toBeUndefined();
    expect(await side.accounts.usernameOf("", "U2")).toBeUndefined();
    // Another workspace's links are not touched.
    expect(await side.accounts.get("T:TOTHER01", "U1")).toMatchObject({ password: "pw-other" });
    expect(await side.accounts.isLinked("one@example.ro")).toBe(true);
    expect(await side.accounts.unreadable()).toEqual([]);
    expect(formatAdoptReport(report)).toEqual([
      `linked accounts: 2 moved from the single workspace to ${TEAM} (re-sealed), 0 dropped (the user had already linked in ${TEAM})`,
    ]);

    // A second run finds nothing to move.
    expect(await side.adopt(key, "", TEAM)).toMatchObject({ moved: 0, replaced: 0, unreadable: 0 });
    expect(await side.accounts.get(TEAM, "U1")).toMatchObject({ password: "pw-one" });
  });

  it("a user who already linked in the workspace keeps that link; a link the key cannot open stays behind", async () => {
    const key = randomBytes(32);
    const side = await open(key);
    await side.accounts.link("", "U1", "old@example.ro", "pw-old");
    await side.accounts.link(TEAM, "U1", "new@example.ro", "pw-new");
    await side.accounts.link("", "U2", "two@example.ro", "pw-two");
    // U3's link was sealed with another key.
    const other = await open(randomBytes(32));
    await other.accounts.link("", "U3", "three@example.ro", "pw-three");

    const report = await side.adopt(key, "", TEAM);
    expect(report).toMatchObject({ moved: 1, replaced: 1, unreadable: 1, changed: 0 });
    expect(await side.accounts.get(TEAM, "U1")).toMatchObject({
      username: "new@example.ro",
      password: "pw-new",
    });
    expect(await side.accounts.usernameOf("", "U1")).toBeUndefined();
    expect(await side.accounts.isLinked("old@example.ro")).toBe(false);
    expect(await side.accounts.get(TEAM, "U2")).toMatchObject({ password: "pw-two" });
    expect(await side.accounts.usernameOf("", "U3")).toBe("three@example.ro");
    expect(await side.accounts.usernameOf(TEAM, "U3")).toBeUndefined();
    const lines = formatAdoptReport(report).join("\n");
    expect(lines).toMatch(/1 moved .* 1 dropped/);
    expect(lines).toMatch(
      /warning: 1 linked account\(s\) do not open with this CREDENTIALS_KEY; they stay in the single workspace/,
    );
    expect(lines).not.toMatch(/U1|U3|example\.ro|pw-/);
  });

  it("moves the single workspace's language settings too; a user's own setting in the workspace is kept", async () => {
    const key = randomBytes(32);
    const side = await open(key);
    await side.accounts.link("", "U1", "one@example.ro", "pw-one");
    await side.settings.setUserLanguage("", "U1", "ro");
    // U2 chose a language without linking; U3 already chose one in the installed workspace.
    await side.settings.setUserLanguage("", "U2", "ro");
    await side.settings.setUserLanguage("", "U3", "ro");
    await side.settings.setUserLanguage(TEAM, "U3", "en");
    await side.settings.setUserLanguage("T:TOTHER01", "U1", "en");
    await side.settings.setWorkspaceLanguage(TEAM, "en");

    const report = await side.adopt(key, "", TEAM);
    expect(report).toMatchObject({ moved: 1, replaced: 0, settingsMoved: 2, settingsKept: 1 });
    expect(await side.settings.userLanguage(TEAM, "U1")).toBe("ro");
    expect(await side.settings.userLanguage(TEAM, "U2")).toBe("ro");
    expect(await side.settings.userLanguage(TEAM, "U3")).toBe("en");
    for (const user of ["U1", "U2", "U3"]) expect(await side.settings.userLanguage("", user)).toBeUndefined();
    // Other workspaces, and the workspace's own default, are not touched.
    expect(await side.settings.userLanguage("T:TOTHER01", "U1")).toBe("en");
    expect(await side.settings.workspaceLanguage(TEAM)).toBe("en");
    expect(formatAdoptReport(report)).toEqual([
      `linked accounts: 1 moved from the single workspace to ${TEAM} (re-sealed), 0 dropped (the user had already linked in ${TEAM})`,
      `language settings: 2 moved from the single workspace to ${TEAM}, 1 dropped (the user already had one in ${TEAM})`,
    ]);

    // A second run finds nothing to move, and says nothing about settings.
    const again = await side.adopt(key, "", TEAM);
    expect(again).toMatchObject({ moved: 0, settingsMoved: 0, settingsKept: 0 });
    expect(formatAdoptReport(again)).toHaveLength(1);
    expect(await side.settings.userLanguage(TEAM, "U2")).toBe("ro");
    // The moved settings belong to the workspace now: they go when it uninstalls (3 users and its default).
    expect(await side.settings.deleteWorkspace(TEAM)).toBe(4);
  });

  it("refuses a target that is not an installed workspace's key, or the source itself", async () => {
    const key = randomBytes(32);
    const side = await open(key);
    await expect(side.adopt(key, "", "")).rejects.toThrow(/Not a workspace key/);
    await expect(side.adopt(key, "", "TADOPT01")).rejects.toThrow(/Not a workspace key/);
    await expect(side.adopt(key, "", "T:")).rejects.toThrow(/Not a workspace key/);
    await expect(side.adopt(key, TEAM, TEAM)).rejects.toThrow(/already/);
  });
}

/** One store per test: every side a test opens shares it (a second key reads the same data). */
function perTest<T>(make: () => T): () => T {
  let made: { name: string | undefined; value: T } | undefined;
  return () => {
    const name = expect.getState().currentTestName;
    if (!made || made.name !== name) made = { name, value: make() };
    return made.value;
  };
}

describe("adoptWorkspace on SQLite", () => {
  const store = perTest(() => openDatabase(":memory:"));
  adoptionCases(async (key) => {
    const db = store();
    return {
      accounts: new SqliteAccountStore(db, key, () => NOW),
      settings: new SqliteSettingsStore(db, () => NOW),
      adopt: async (k, from, to) => await adoptWorkspace({ db }, k, from, to),
    };
  });

  it("moves all or nothing: the copy is one transaction", () => {
    const key = randomBytes(32);
    const db = openDatabase(":memory:");
    const accounts = new SqliteAccountStore(db, key, () => NOW);
    accounts.link("", "U1", "one@example.ro", "pw-one");
    accounts.link("", WORKSPACE_ACCOUNT_USER, "ws@example.ro", "pw-ws");
    // An insert that fails halfway (a trigger standing in for a full disk) leaves everything in place.
    db.exec(`CREATE TRIGGER refuse BEFORE INSERT ON linked_accounts WHEN NEW.slack_user = '${WORKSPACE_ACCOUNT_USER}'
             BEGIN SELECT RAISE(ABORT, 'disk full'); END;`);
    return adoptWorkspace({ db }, key, "", TEAM).then(
      () => expect.fail("should have failed"),
      (error: unknown) => {
        expect(String(error)).toMatch(/disk full/);
        expect(accounts.get("", "U1")).toMatchObject({ password: "pw-one" });
        expect(accounts.usernameOf(TEAM, "U1")).toBeUndefined();
        db.close();
      },
    );
  });

  it("a setting that cannot move undoes the links moved with it (one transaction)", async () => {
    const key = randomBytes(32);
    const db = openDatabase(":memory:");
    const accounts = new SqliteAccountStore(db, key, () => NOW);
    const settings = new SqliteSettingsStore(db, () => NOW);
    accounts.link("", "U1", "one@example.ro", "pw-one");
    settings.setUserLanguage("", "U1", "ro");
    db.exec(`CREATE TRIGGER refuse BEFORE INSERT ON user_settings WHEN NEW.workspace = '${TEAM}'
             BEGIN SELECT RAISE(ABORT, 'disk full'); END;`);
    await expect(adoptWorkspace({ db }, key, "", TEAM)).rejects.toThrow(/disk full/);
    expect(accounts.get("", "U1")).toMatchObject({ password: "pw-one" });
    expect(accounts.usernameOf(TEAM, "U1")).toBeUndefined();
    expect(settings.userLanguage("", "U1")).toBe("ro");
    expect(settings.userLanguage(TEAM, "U1")).toBeUndefined();
    db.close();
  });

  it("keeps each setting's time", async () => {
    const db = openDatabase(":memory:");
    new SqliteSettingsStore(db, () => NOW - 5000).setUserLanguage("", "U1", "ro");
    await adoptWorkspace({ db }, randomBytes(32), "", TEAM);
    expect(db.prepare("SELECT workspace, slack_user, language, updated_at FROM user_settings").all()).toEqual(
      [{ workspace: TEAM, slack_user: "U1", language: "ro", updated_at: NOW - 5000 }],
    );
    db.close();
  });

  it("a moved row only opens under its new workspace", async () => {
    const key = randomBytes(32);
    const db = openDatabase(":memory:");
    const accounts = new SqliteAccountStore(db, key, () => NOW);
    accounts.link("", "U1", "one@example.ro", "pw-one");
    await adoptWorkspace({ db }, key, "", TEAM);
    db.prepare("UPDATE linked_accounts SET workspace = '' WHERE slack_user = 'U1'").run();
    expect(() => accounts.get("", "U1")).toThrow(LinkedAccountUnreadableError);
    db.close();
  });
});

describe.skipIf(redisSkipReason !== undefined)("adoptWorkspace on Redis", () => {
  const redis = redisForTests();
  let sets = 0;
  const store = perTest(() => ({ redis: redis.connect(), prefix: `adopt${++sets}:` }));
  adoptionCases(async (key) => {
    const target = store();
    return {
      accounts: new RedisAccountStore(target.redis, { prefix: target.prefix, key, now: () => NOW }),
      settings: new RedisSettingsStore(target.redis, { prefix: target.prefix, now: () => NOW }),
      adopt: async (k, from, to) => await adoptWorkspace(target, k, from, to),
    };
  });

  it("reads and adopts a link written before workspaces existed (no workspace field, keyed by the user)", async () => {
    const client = redis.connect();
    const prefix = `legacy${++sets}:`;
    const key = randomBytes(32);
    await client.hset(`${prefix}account:U1`, {
      slackUser: "U1",
      username: "legacy@example.ro",
      secret: encryptSecret(key, "pw-legacy", "U1"),
      linkedAt: String(NOW),
    });
    await client.zadd(`${prefix}accounts`, await client.incr(`${prefix}accounts:seq`), "U1");
    await client.sadd(`${prefix}accounts:of:legacy@example.ro`, "U1");
    const accounts = new RedisAccountStore(client, { prefix, key, now: () => NOW });
    expect(await accounts.get("", "U1")).toMatchObject({ workspace: "", password: "pw-legacy" });
    expect(await accounts.credentialsOf("legacy@example.ro")).toMatchObject({ password: "pw-legacy" });

    expect(await adoptWorkspace({ redis: client, prefix }, key, "", TEAM)).toMatchObject({ moved: 1 });
    expect(await accounts.get(TEAM, "U1")).toMatchObject({ workspace: TEAM, password: "pw-legacy" });
    expect(await client.exists(`${prefix}account:U1`)).toBe(0);
    expect(await client.smembers(`${prefix}accounts:of:legacy@example.ro`)).toEqual([`${TEAM}/U1`]);
    expect(await client.zrange(`${prefix}accounts`, 0, -1)).toEqual([`${TEAM}/U1`]);
    // The workspace's links go with it when it uninstalls.
    expect(await accounts.deleteWorkspace(TEAM)).toBe(1);
    expect(await client.keys(`${prefix}account*`)).toEqual([`${prefix}accounts:seq`]);
  });

  it("moves a setting with its time, in one hash write; the single workspace's hash is gone once empty", async () => {
    const client = redis.connect();
    const prefix = `settings${++sets}:`;
    await new RedisSettingsStore(client, { prefix, now: () => NOW - 5000 }).setUserLanguage("", "U1", "ro");
    expect(await adoptWorkspace({ redis: client, prefix }, randomBytes(32), "", TEAM)).toMatchObject({
      settingsMoved: 1,
    });
    expect(await client.hgetall(`${prefix}settings:${TEAM}`)).toEqual({
      "user:U1": "ro",
      "user:U1:at": String(NOW - 5000),
    });
    expect(await client.exists(`${prefix}settings:`)).toBe(0);
  });
});
