import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { taskErrorText } from "../../../../src/platform/slack/views/taskEnding.js";
import { SqliteAccountStore } from "../../../../src/platform/store/accountStore.js";
import {
  CredentialsKeyMissingError,
  LinkedAccountUnreadableError,
} from "../../../../src/platform/store/contract/index.js";
import { openDatabase } from "../../../../src/platform/store/database.js";
import { encryptSecret, linkAssociatedData } from "../../../../src/platform/store/sealing.js";
import { describeTaskError } from "../../../../src/platform/tasks/failures.js";
import { WORKSPACE_ACCOUNT_USER } from "../../../../src/platform/workspaces/workspace.js";
import { describeContract, NOW } from "./backends.js";

const TA = "T:TALPHA01";
const TB = "T:TBRAVO02";

describeContract("AccountRepository", (backend) => {
  describe("linking", () => {
    it("keeps the password sealed at rest and gives it back to its user", async () => {
      const s = await backend.open();
      expect(s.accounts.canStore).toBe(true);
      await s.accounts.link("", "U1", "dispatcher@example.ro", "Parola-Secreta-42");
      expect(await s.accounts.get("", "U1")).toEqual({
        workspace: "",
        slackUser: "U1",
        username: "dispatcher@example.ro",
        password: "Parola-Secreta-42",
        linkedAt: NOW,
      });
      expect(await s.rawContains("dispatcher@example.ro")).toBe(true);
      expect(await s.rawContains("Parola-Secreta-42")).toBe(false);
      expect(await s.accounts.get("", "U2")).toBeUndefined();
    });

    it("refuses to link without CREDENTIALS_KEY", async () => {
      const s = await backend.open({ key: undefined });
      expect(s.accounts.canStore).toBe(false);
      await expect(s.accounts.link("", "U1", "x", "y")).rejects.toThrow(CredentialsKeyMissingError);
      await expect(s.accounts.link(TA, "U1", "x", "y")).rejects.toThrow(CredentialsKeyMissingError);
      expect(await s.accounts.usernameOf("", "U1")).toBeUndefined();
    });

    it("linking again replaces the account; unlinking says whether there was one", async () => {
      const s = await backend.open();
      await s.accounts.link("", "U1", "first@example.ro", "one");
      s.clock.now = NOW + 1000;
      await s.accounts.link("", "U1", "second@example.ro", "two");
      expect(await s.accounts.get("", "U1")).toMatchObject({
        username: "second@example.ro",
        password: "two",
        linkedAt: NOW + 1000,
      });
      expect(await s.accounts.isLinked("first@example.ro")).toBe(false);
      expect(await s.accounts.isLinked("second@example.ro")).toBe(true);
      expect(await s.accounts.unlink("", "U1")).toBe(true);
      expect(await s.accounts.unlink("", "U1")).toBe(false);
      expect(await s.accounts.get("", "U1")).toBeUndefined();
      expect(await s.accounts.isLinked("second@example.ro")).toBe(false);
    });

    it("isLinked and usernameOf, with two users on one fleet account", async () => {
      const s = await backend.open();
      await s.accounts.link("", "U1", "shared@example.ro", "pw");
      await s.accounts.link("", "U2", "shared@example.ro", "pw");
      expect(await s.accounts.usernameOf("", "U2")).toBe("shared@example.ro");
      expect(await s.accounts.usernameOf("", "U3")).toBeUndefined();
      await s.accounts.unlink("", "U1");
      expect(await s.accounts.isLinked("shared@example.ro")).toBe(true);
      await s.accounts.unlink("", "U2");
      expect(await s.accounts.isLinked("shared@example.ro")).toBe(false);
      expect(await s.accounts.isLinked("nobody@example.ro")).toBe(false);
    });
  });

  describe("workspaces", () => {
    it("the same Slack user id in two workspaces is two links", async () => {
      const s = await backend.open();
      await s.accounts.link(TA, "U1", "alpha@example.ro", "pw-alpha");
      await s.accounts.link(TB, "U1", "bravo@example.ro", "pw-bravo");
      await s.accounts.link("", "U1", "single@example.ro", "pw-single");
      expect(await s.accounts.get(TA, "U1")).toEqual({
        workspace: TA,
        slackUser: "U1",
        username: "alpha@example.ro",
        password: "pw-alpha",
        linkedAt: NOW,
      });
      expect(await s.accounts.get(TB, "U1")).toMatchObject({ workspace: TB, password: "pw-bravo" });
      expect(await s.accounts.get("", "U1")).toMatchObject({ workspace: "", password: "pw-single" });
      expect(await s.accounts.usernameOf(TB, "U1")).toBe("bravo@example.ro");
      expect(await s.accounts.usernameOf(TA, "U2")).toBeUndefined();

      // Unlinking in one workspace leaves the others.
      expect(await s.accounts.unlink(TA, "U1")).toBe(true);
      expect(await s.accounts.get(TA, "U1")).toBeUndefined();
      expect(await s.accounts.usernameOf(TB, "U1")).toBe("bravo@example.ro");
      expect(await s.accounts.usernameOf("", "U1")).toBe("single@example.ro");
      expect(await s.accounts.isLinked("alpha@example.ro")).toBe(false);
    });

    it("a fleet account linked in two workspaces stays linked until both let go", async () => {
      const s = await backend.open();
      await s.accounts.link(TA, WORKSPACE_ACCOUNT_USER, "shared@example.ro", "pw");
      await s.accounts.link(TB, "U7", "shared@example.ro", "pw");
      await s.accounts.unlink(TA, WORKSPACE_ACCOUNT_USER);
      expect(await s.accounts.isLinked("shared@example.ro")).toBe(true);
      await s.accounts.unlink(TB, "U7");
      expect(await s.accounts.isLinked("shared@example.ro")).toBe(false);
    });

    it("deleteWorkspace drops one workspace's links, is idempotent, and refuses the single workspace", async () => {
      const s = await backend.open();
      await s.accounts.link(TA, "U1", "alpha@example.ro", "pw1");
      await s.accounts.link(TA, WORKSPACE_ACCOUNT_USER, "shared@example.ro", "pw2");
      await s.accounts.link(TB, "U1", "shared@example.ro", "pw2");
      await s.accounts.link("", "U1", "single@example.ro", "pw3");

      expect(await s.accounts.deleteWorkspace(TA)).toBe(2);
      expect(await s.accounts.get(TA, "U1")).toBeUndefined();
      expect(await s.accounts.usernameOf(TA, WORKSPACE_ACCOUNT_USER)).toBeUndefined();
      expect(await s.accounts.isLinked("alpha@example.ro")).toBe(false);
      // Another workspace's link of the same fleet account stays.
      expect(await s.accounts.isLinked("shared@example.ro")).toBe(true);
      expect(await s.accounts.get(TB, "U1")).toMatchObject({ password: "pw2" });
      expect(await s.accounts.get("", "U1")).toMatchObject({ password: "pw3" });
      expect((await s.accounts.unreadable()).length).toBe(0);

      expect(await s.accounts.deleteWorkspace(TA)).toBe(0);
      expect(await s.accounts.deleteWorkspace("T:TNEVER00")).toBe(0);
      await expect(s.accounts.deleteWorkspace("")).rejects.toThrow(/single-workspace/);
      expect(await s.accounts.usernameOf("", "U1")).toBe("single@example.ro");

      // A workspace that installs again starts afresh.
      await s.accounts.link(TA, "U1", "again@example.ro", "pw4");
      expect(await s.accounts.get(TA, "U1")).toMatchObject({ username: "again@example.ro", password: "pw4" });
    });

    it("credentialsOf: any readable link of the fleet account, in any workspace, the newest first", async () => {
      const s = await backend.open();
      expect(await s.accounts.credentialsOf("shared@example.ro")).toBeUndefined();
      await s.accounts.link(TA, "U1", "shared@example.ro", "older-pw");
      s.clock.now = NOW + 1000;
      await s.accounts.link(TB, WORKSPACE_ACCOUNT_USER, "shared@example.ro", "newer-pw");
      await s.accounts.link("", "U2", "other@example.ro", "other-pw");
      expect(await s.accounts.credentialsOf("shared@example.ro")).toEqual({
        username: "shared@example.ro",
        password: "newer-pw",
      });
      expect(await s.accounts.credentialsOf("other@example.ro")).toEqual({
        username: "other@example.ro",
        password: "other-pw",
      });
      await s.accounts.unlink(TB, WORKSPACE_ACCOUNT_USER);
      expect(await s.accounts.credentialsOf("shared@example.ro")).toMatchObject({ password: "older-pw" });

      // A link this key cannot open is passed over; none readable: undefined.
      const changedKey = s.replica({ key: randomBytes(32) });
      expect(await changedKey.accounts.credentialsOf("shared@example.ro")).toBeUndefined();
      s.clock.now = NOW + 2000;
      await changedKey.accounts.link("", "U3", "shared@example.ro", "third-pw");
      expect(await changedKey.accounts.credentialsOf("shared@example.ro")).toMatchObject({
        password: "third-pw",
      });
      expect(await s.accounts.credentialsOf("shared@example.ro")).toMatchObject({ password: "older-pw" });
      expect(await s.replica({ key: undefined }).accounts.credentialsOf("shared@example.ro")).toBeUndefined();
    });
  });

  describe("a changed key", () => {
    it("an account this key cannot open is named, with the way out, and listed by unreadable()", async () => {
      const s = await backend.open();
      await s.accounts.link("", "U1", "one@example.ro", "pw1");
      await s.accounts.link(TA, "U2", "two@example.ro", "pw2");
      const changedKey = s.replica({ key: randomBytes(32) });
      await expect(changedKey.accounts.get("", "U1")).rejects.toThrow(LinkedAccountUnreadableError);
      const unreadable = await changedKey.accounts.get("", "U1").catch((e: unknown) => e);
      expect(unreadable).toMatchObject({ slackUser: "U1", username: "one@example.ro" });
      // The user reads the way out in their language (the error itself holds no words).
      expect(taskErrorText(describeTaskError(unreadable), "en")).toMatch(/one@example.ro.*\/fleet login/);
      expect(taskErrorText(describeTaskError(unreadable), "ro")).toMatch(/one@example.ro.*\/fleet login/);
      await changedKey.accounts.link("", "U3", "three@example.ro", "pw3");
      expect(await changedKey.accounts.unreadable()).toEqual([
        { workspace: "", slackUser: "U1", username: "one@example.ro" },
        { workspace: TA, slackUser: "U2", username: "two@example.ro" },
      ]);
      expect(await s.accounts.unreadable()).toEqual([
        { workspace: "", slackUser: "U3", username: "three@example.ro" },
      ]);

      const noKey = s.replica({ key: undefined });
      await expect(noKey.accounts.get(TA, "U2")).rejects.toThrow(LinkedAccountUnreadableError);
      expect((await noKey.accounts.unreadable()).map((a) => a.slackUser)).toEqual(["U1", "U2", "U3"]);
      // Reading a username needs no key.
      expect(await noKey.accounts.usernameOf(TA, "U2")).toBe("two@example.ro");
    });

    it("the workspace account's unreadable link says who may link it again", async () => {
      const s = await backend.open();
      await s.accounts.link(TA, WORKSPACE_ACCOUNT_USER, "fleet@example.ro", "pw");
      const changedKey = s.replica({ key: randomBytes(32) });
      const unreadable = await changedKey.accounts.get(TA, WORKSPACE_ACCOUNT_USER).catch((e: unknown) => e);
      expect(taskErrorText(describeTaskError(unreadable), "en")).toMatch(
        /workspace's fleet account fleet@example.ro.*\/fleet login workspace/,
      );
    });
  });
});

describe("the associated data of a linked account's password", () => {
  it('is the bare Slack user in the single workspace (rows from before workspaces), "<workspace>/<user>" elsewhere', () => {
    expect(linkAssociatedData("", "U1")).toBe("U1");
    expect(linkAssociatedData(TA, "U1")).toBe(`${TA}/U1`);
    expect(linkAssociatedData("E:EORG0001", WORKSPACE_ACCOUNT_USER)).toBe("E:EORG0001/@workspace");
  });

  it("a row sealed before workspaces existed (AAD = the Slack user) still opens", () => {
    const key = randomBytes(32);
    const db = openDatabase(":memory:");
    db.prepare(
      "INSERT INTO linked_accounts (slack_user, username, secret, linked_at) VALUES (?, ?, ?, ?)",
    ).run("U1", "legacy@example.ro", encryptSecret(key, "legacy-pw", "U1"), NOW);
    expect(new SqliteAccountStore(db, key).get("", "U1")).toMatchObject({
      workspace: "",
      password: "legacy-pw",
    });
    db.close();
  });

  it("binds the workspace: a sealed row moved to another workspace does not open (SQLite)", () => {
    const key = randomBytes(32);
    const db = openDatabase(":memory:");
    const accounts = new SqliteAccountStore(db, key, () => NOW);
    accounts.link(TA, "U1", "alpha@example.ro", "pw-alpha");
    accounts.link("", "U2", "single@example.ro", "pw-single");
    const move = db.prepare(
      "UPDATE linked_accounts SET workspace = ? WHERE workspace = ? AND slack_user = ?",
    );

    move.run(TB, TA, "U1");
    expect(() => accounts.get(TB, "U1")).toThrow(LinkedAccountUnreadableError);
    expect(accounts.credentialsOf("alpha@example.ro")).toBeUndefined();
    // Into the single workspace (whose AAD is the bare user id): still refused.
    move.run("", TB, "U1");
    expect(() => accounts.get("", "U1")).toThrow(LinkedAccountUnreadableError);
    // Back where it was sealed: it opens again.
    move.run(TA, "", "U1");
    expect(accounts.get(TA, "U1")).toMatchObject({ password: "pw-alpha" });

    // A single-workspace row moved into an installed workspace is refused too.
    move.run(TA, "", "U2");
    expect(() => accounts.get(TA, "U2")).toThrow(LinkedAccountUnreadableError);
    expect(accounts.unreadable()).toEqual([
      { workspace: TA, slackUser: "U2", username: "single@example.ro" },
    ]);
    db.close();
  });
});
