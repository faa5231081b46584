import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { SqliteAccountStore } from "../../../src/platform/store/accountStore.js";
import { CredentialsKeyMissingError } from "../../../src/platform/store/contract/index.js";
import { MIGRATIONS, openDatabase, SCHEMA_VERSION } from "../../../src/platform/store/database.js";
import { decryptSecret, encryptSecret } from "../../../src/platform/store/sealing.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function store(key: Buffer | undefined) {
  const dir = mkdtempSync(join(tmpdir(), "fleetbot-accounts-"));
  dirs.push(dir);
  const db = openDatabase(dir);
  return { dir, db, accounts: new SqliteAccountStore(db, key) };
}

describe("SqliteAccountStore", () => {
  it("keeps the password encrypted at rest and gives it back to its user", () => {
    const key = randomBytes(32);
    const { dir, db, accounts } = store(key);
    accounts.link("", "U1", "dispatcher@example.ro", "Parola-Secreta-42");
    expect(accounts.get("", "U1")).toMatchObject({
      username: "dispatcher@example.ro",
      password: "Parola-Secreta-42",
    });
    db.pragma("wal_checkpoint(TRUNCATE)");
    const raw = readFileSync(join(dir, "fleetbot.sqlite"));
    expect(raw.includes(Buffer.from("Parola-Secreta-42"))).toBe(false);
    expect(accounts.unlink("", "U1")).toBe(true);
    expect(accounts.get("", "U1")).toBeUndefined();
    db.close();
  });

  it("migration 12 keys the links by workspace, keeping every older link readable as the single workspace's", () => {
    const key = randomBytes(32);
    const dir = mkdtempSync(join(tmpdir(), "fleetbot-accounts-"));
    dirs.push(dir);
    const old = new Database(join(dir, "fleetbot.sqlite"));
    for (const migration of MIGRATIONS.slice(0, 11)) old.exec(migration);
    old.pragma("user_version = 11");
    const insert = old.prepare(
      "INSERT INTO linked_accounts (slack_user, username, secret, linked_at) VALUES (?, ?, ?, ?)",
    );
    insert.run("U2", "two@example.ro", encryptSecret(key, "pw-two", "U2"), 2);
    insert.run("U1", "one@example.ro", encryptSecret(key, "pw-one", "U1"), 1);
    old.close();

    const db = openDatabase(dir);
    expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    const accounts = new SqliteAccountStore(db, key);
    expect(accounts.get("", "U1")).toEqual({
      workspace: "",
      slackUser: "U1",
      username: "one@example.ro",
      password: "pw-one",
      linkedAt: 1,
    });
    // Their order is kept (unreadable() and the Redis copy list them as linked).
    expect(db.prepare("SELECT slack_user FROM linked_accounts ORDER BY rowid").pluck().all()).toEqual([
      "U2",
      "U1",
    ]);
    expect(accounts.unreadable()).toEqual([]);
    // The same user may now link in an installed workspace too.
    accounts.link("T:T123", "U1", "alpha@example.ro", "pw-alpha");
    expect(accounts.usernameOf("", "U1")).toBe("one@example.ro");
    expect(accounts.usernameOf("T:T123", "U1")).toBe("alpha@example.ro");
    db.close();
  });

  it("refuses to link without CREDENTIALS_KEY", () => {
    const { db, accounts } = store(undefined);
    expect(() => accounts.link("", "U1", "x", "y")).toThrow(CredentialsKeyMissingError);
    db.close();
  });

  it("a sealed password opens only with the same key and for the same user", () => {
    const key = randomBytes(32);
    const sealed = encryptSecret(key, "pw", "U1");
    expect(decryptSecret(key, sealed, "U1")).toBe("pw");
    expect(() => decryptSecret(key, sealed, "U2")).toThrow();
    expect(() => decryptSecret(randomBytes(32), sealed, "U1")).toThrow();
    expect(encryptSecret(key, "pw", "U1")).not.toBe(sealed); // fresh IV each time
  });

  it("a sealed value whose tag is cut short, or whose IV is not 12 bytes, is refused", () => {
    const key = randomBytes(32);
    const [version, iv, tag, body] = encryptSecret(key, "pw", "U1").split(":") as [
      string,
      string,
      string,
      string,
    ];
    // The genuine tag's first 4 bytes: GCM without a pinned tag length accepts them (a 2^-32 forgery).
    const shortTag = Buffer.from(tag, "base64").subarray(0, 4).toString("base64");
    expect(() => decryptSecret(key, [version, iv, shortTag, body].join(":"), "U1")).toThrow();
    const longIv = Buffer.concat([Buffer.from(iv, "base64"), Buffer.alloc(4)]).toString("base64");
    expect(() => decryptSecret(key, [version, longIv, tag, body].join(":"), "U1")).toThrow();
    expect(() => decryptSecret(key, [version, iv, tag, body, "extra"].join(":"), "U1")).toThrow();
    expect(decryptSecret(key, [version, iv, tag, body].join(":"), "U1")).toBe("pw");
  });
});
