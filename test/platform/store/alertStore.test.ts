import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { IncidentChange } from "../../../src/features/alerts/incidents.js";
import { AlertSubscriptions, InvalidAlertFilterError } from "../../../src/features/alerts/subscriptions.js";
import type { TransportView } from "../../../src/features/etransport/types.js";
import { SqliteAlertStore } from "../../../src/platform/store/alertStore.js";
import { MIGRATIONS, openDatabase, SCHEMA_VERSION } from "../../../src/platform/store/database.js";
import { promised } from "../../../src/platform/store/promised.js";

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "fleetbot-alerts-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const NOW = Date.UTC(2026, 10, 3, 8, 0, 0);
const facts: TransportView = {
  uId: "t-1",
  codeUit: "Y45R577UN544GY4S",
  statusId: 2,
  carrierCode: "B-123-ABC",
};
type OpenChange = Extract<IncidentChange, { type: "open" }>;
const open = (at = NOW, kind: "transmission" | "expiry" = "transmission"): OpenChange => ({
  type: "open",
  account: "demo",
  transportUId: "t-1",
  codeUit: facts.codeUit,
  kind,
  code: "Error",
  at,
  state: "open",
  facts,
});

describe("migration 3 (alerts)", () => {
  it("upgrades a version-2 store, keeping its tasks and linked accounts", () => {
    const dir = freshDir();
    const old = new Database(join(dir, "fleetbot.sqlite"));
    old.exec(MIGRATIONS[0]!);
    old.exec(MIGRATIONS[1]!);
    old.pragma("user_version = 2");
    old
      .prepare(
        `INSERT INTO tasks (id, kind, params, account, reply, priority, state, created_at, updated_at)
         VALUES ('t1', 'stops', '{}', 'demo', '{}', 'report', 'queued', 1, 1)`,
      )
      .run();
    old.prepare("INSERT INTO linked_accounts VALUES ('U1', 'demo', 'sealed', 1)").run();
    old.close();

    const db = openDatabase(dir);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(3);
    expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.prepare("SELECT id FROM tasks").all()).toEqual([{ id: "t1" }]);
    expect(db.prepare("SELECT username FROM linked_accounts").all()).toEqual([{ username: "demo" }]);
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'alert_%' ORDER BY name")
      .all();
    expect(tables).toEqual([
      { name: "alert_groups" },
      { name: "alert_incidents" },
      { name: "alert_listed" },
      { name: "alert_mutes" },
      { name: "alert_posts" },
      { name: "alert_subscriptions" },
      { name: "alert_watch_state" },
    ]);
    db.close();
  });

  it("allows one active incident per (account, transport, kind) but any number of resolved ones", () => {
    const db = openDatabase(":memory:");
    const store = new SqliteAlertStore(db, () => NOW);
    const [first] = store.applyChanges([open()]);
    expect(() => store.applyChanges([open(NOW + 1)])).toThrow(/UNIQUE/);
    store.applyChanges([{ type: "resolve", id: first!.id, at: NOW + 2, reason: "recovered", wasOpen: true }]);
    store.applyChanges([open(NOW + 3)]);
    store.applyChanges([open(NOW + 3, "expiry")]);
    expect(store.incidents("demo").map((i) => `${i.kind}:${i.state}`)).toEqual([
      "transmission:resolved",
      "transmission:open",
      "expiry:open",
    ]);
    db.close();
  });
});

describe("migration 11 (alerts by workspace)", () => {
  it("keeps a version-10 store's subscriptions, posts (in order, with their groups) and mutes, in workspace ''", () => {
    const dir = freshDir();
    const old = new Database(join(dir, "fleetbot.sqlite"));
    for (const migration of MIGRATIONS.slice(0, 10)) old.exec(migration);
    old.pragma("user_version = 10");
    old.exec(`
      INSERT INTO alert_subscriptions (id, channel, account, created_by, codes, created_at, stale_minutes)
        VALUES ('s1', 'C1', 'demo', 'U1', '["Error"]', 5, 0), ('s2', 'C2', 'demo', NULL, '[]', 4, 30);
      INSERT INTO alert_incidents (id, account, transport_uid, code_uit, kind, code, first_seen_at, state, last_seen_at, facts)
        VALUES ('i1', 'demo', 't-1', 'UIT1', 'transmission', 'Error', 1, 'open', 1, '{"uId":"t-1","codeUit":"UIT1","statusId":2}'),
               ('i2', 'demo', 't-2', 'UIT2', 'transmission', 'Error', 1, 'open', 1, '{"uId":"t-2","codeUit":"UIT2","statusId":2}');
      INSERT INTO alert_groups (id, account, channel, created_at, ts, shown) VALUES ('g1', 'demo', 'C2', 1, '9.9', 2);
      INSERT INTO alert_posts (incident_id, channel, ts, attempts, last_error) VALUES ('i2', 'C1', NULL, 1, 'late');
      INSERT INTO alert_posts (incident_id, channel, ts, attempts, last_error) VALUES ('i1', 'C1', NULL, 2, 'early');
      INSERT INTO alert_posts (incident_id, channel, ts, attempts, group_id) VALUES ('i1', 'C2', '1.1', 1, 'g1');
      INSERT INTO alert_posts (incident_id, channel, ts, attempts, group_id) VALUES ('i2', 'C2', '1.2', 1, 'g1');
      INSERT INTO alert_mutes (channel, code_uit, until) VALUES ('C1', 'UIT1', 99);
    `);
    old.close();

    const db = openDatabase(dir);
    expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    const store = new SqliteAlertStore(db, () => 50);
    expect(store.subscriptions().map((x) => [x.id, x.workspace, x.channel, x.staleMinutes])).toEqual([
      ["s2", "", "C2", 30],
      ["s1", "", "C1", 0],
    ]);
    expect(store.subscription("C1", "demo")).toMatchObject({ createdBy: "U1", codes: ["Error"] });
    // Rows keep their order: the channel's latest failure is still the later row.
    expect(store.lastFailure("C1")).toEqual({ codeUit: "UIT1", error: "early", attempts: 2 });
    expect(store.group("g1")).toMatchObject({ workspace: "", channel: "C2", ts: "9.9" });
    expect(store.groupMembers("g1").map((m) => m.post)).toEqual([
      { incidentId: "i1", workspace: "", channel: "C2", ts: "1.1", attempts: 1, groupId: "g1" },
      { incidentId: "i2", workspace: "", channel: "C2", ts: "1.2", attempts: 1, groupId: "g1" },
    ]);
    expect(store.mutedUntil("C1", "UIT1")).toBe(99);
    // The new keys hold: the same channel and account again, in another workspace.
    expect(store.upsertSubscription({ workspace: "T:1", channel: "C1", account: "demo" }).created).toBe(true);
    expect(store.ensurePost("i1", "C1", "T:1")).toMatchObject({ workspace: "T:1", attempts: 0 });
    expect(store.mute("C1", "UIT1", 100, "T:1")).toMatchObject({ workspace: "T:1" });
    expect(db.pragma("foreign_key_check")).toEqual([]);
    expect(db.pragma("foreign_keys", { simple: true })).toBe(1);
    db.close();
  });
});

describe("SqliteAlertStore", () => {
  it("stores incidents with their facts and applies changes in one transaction", () => {
    const db = openDatabase(":memory:");
    const store = new SqliteAlertStore(db, () => NOW);
    const [incident] = store.applyChanges([{ ...open(), state: "pending" }]);
    expect(incident).toMatchObject({ state: "pending", firstSeenAt: NOW, facts });
    expect(incident!.openedAt).toBeUndefined();
    store.applyChanges([{ type: "still", id: incident!.id, at: NOW + 5 }]);
    store.applyChanges([
      { type: "confirm", id: incident!.id, at: NOW + 10, facts: { ...facts, lastGpsMs: NOW } },
    ]);
    expect(store.incident(incident!.id)).toMatchObject({
      state: "open",
      openedAt: NOW + 10,
      lastSeenAt: NOW + 10,
      facts: { lastGpsMs: NOW },
    });
    // Resolve then open in one batch is fine; a failing batch is rolled back whole.
    expect(() =>
      store.applyChanges([
        { type: "resolve", id: incident!.id, at: NOW + 20, reason: "gone", wasOpen: true },
        open(),
      ]),
    ).not.toThrow();
    const [active] = store.activeIncidents("demo");
    expect(() =>
      store.applyChanges([
        { type: "resolve", id: active!.id, at: NOW + 30, reason: "gone", wasOpen: true },
        open(),
        open(),
      ]),
    ).toThrow(/UNIQUE/);
    expect(store.activeIncidents("demo").map((i) => i.id)).toEqual([active!.id]);
    db.close();
  });

  it("records posts: failure, success (once), resolution steps", () => {
    const db = openDatabase(":memory:");
    let now = NOW;
    const store = new SqliteAlertStore(db, () => now);
    const [incident] = store.applyChanges([open()]);
    const id = incident!.id;
    store.ensurePost(id, "C1");
    store.recordFailure(id, "C1", "ratelimited");
    expect(store.post(id, "C1")).toMatchObject({ attempts: 1, lastError: "ratelimited" });
    expect(store.post(id, "C1")!.ts).toBeUndefined();
    now += 1000;
    store.recordPosted(id, "C1", "1.0001");
    store.recordPosted(id, "C1", "2.0002");
    expect(store.post(id, "C1")).toMatchObject({ ts: "1.0001", attempts: 2, postedAt: NOW + 1000 });
    expect(store.post(id, "C1")!.lastError).toBeUndefined();

    store.applyChanges([{ type: "resolve", id, at: now, reason: "recovered", wasOpen: true }]);
    expect(store.unresolvedPosts("demo").map((p) => p.channel)).toEqual(["C1"]);
    store.recordResolvedUpdate(id, "C1");
    store.recordResolvedReply(id, "C1", "3.0003");
    store.recordResolutionDone(id, "C1");
    expect(store.unresolvedPosts("demo")).toEqual([]);
    expect(store.post(id, "C1")).toMatchObject({ replyTs: "3.0003", resolvedPostedAt: now });
    expect(store.purge(now + 1)).toEqual({ mutes: 0, incidents: 1 });
    expect(store.posts(id)).toEqual([]);
    db.close();
  });

  it("mutes a UIT in a channel until a time", async () => {
    const db = openDatabase(":memory:");
    let now = NOW;
    const store = new SqliteAlertStore(db, () => now);
    const subs = new AlertSubscriptions(promised(store), () => now);
    await subs.mute("C1", "UIT1", 1000);
    expect(store.mutedUntil("C1", "UIT1")).toBe(NOW + 1000);
    expect(store.mutedUntil("C2", "UIT1")).toBeUndefined();
    now += 1000;
    expect(store.mutedUntil("C1", "UIT1")).toBeUndefined();
    expect(store.purge(0).mutes).toBe(1);
    db.close();
  });
});

describe("AlertSubscriptions", () => {
  it("subscribes, replaces, lists, unsubscribes; one per channel and account", async () => {
    const db = openDatabase(":memory:");
    const store = new SqliteAlertStore(db, () => NOW);
    const subs = new AlertSubscriptions(promised(store), () => NOW);
    const a = await subs.subscribe("C1", "demo", "U1", {
      codes: ["error", "OLDDATA"],
      minDurationMinutes: 10,
    });
    expect(a.created).toBe(true);
    expect(a.subscription).toMatchObject({
      channel: "C1",
      account: "demo",
      createdBy: "U1",
      codes: ["Error", "OldData"],
      minDurationMinutes: 10,
    });
    const b = await subs.subscribe("C1", "demo", "U2", { vehicles: ["B-123-ABC"], exclude: ["expiry"] });
    expect(b.created).toBe(false);
    expect(b.subscription).toMatchObject({
      codes: [],
      excludeCodes: ["expiry"],
      vehicles: ["B-123-ABC"],
      createdBy: "U2",
    });
    await subs.subscribe("C2", "demo", "U1");
    await subs.subscribe("C2", "other", "U3");
    expect((await subs.list()).map((s) => `${s.channel}/${s.account}`)).toEqual([
      "C1/demo",
      "C2/demo",
      "C2/other",
    ]);
    expect(await subs.list({ channel: "C2" })).toHaveLength(2);
    expect(await subs.list({ account: "demo" })).toHaveLength(2);
    expect(store.subscribedAccounts()).toEqual(["demo", "other"]);
    expect(await subs.unsubscribe("C2", "other")).toBe(1);
    expect(await subs.unsubscribe("C1")).toBe(1);
    expect(await subs.unsubscribe("C1")).toBe(0);
    expect((await subs.list()).map((s) => s.channel)).toEqual(["C2"]);
    db.close();
  });

  it("refuses unknown codes and silly durations, saying which", async () => {
    const db = openDatabase(":memory:");
    const subs = new AlertSubscriptions(promised(new SqliteAlertStore(db)));
    await expect(subs.subscribe("C1", "demo", "U1", { codes: ["Error", "Bogus"] })).rejects.toThrow(
      InvalidAlertFilterError,
    );
    // Codes and data, no words: the Slack side words them in the reader's language.
    await expect(subs.subscribe("C1", "demo", "U1", { codes: ["Bogus", "Error"] })).rejects.toMatchObject({
      detail: { problem: "unknown-codes", unknownCodes: ["Bogus"] },
    });
    await expect(subs.subscribe("C1", "demo", "U1", { minDurationMinutes: -1 })).rejects.toMatchObject({
      detail: { problem: "min-range", min: 0, max: 1440 },
    });
    await expect(subs.subscribe("C1", "demo", "U1", { staleMinutes: 400 })).rejects.toMatchObject({
      detail: { problem: "stale-range", min: 0, max: 360 },
    });
    db.close();
  });

  it("seeds the sandbox's #alerts in a fresh store only: once removed, a restart does not bring it back", async () => {
    const db = openDatabase(":memory:");
    const store = new SqliteAlertStore(db);
    const subs = new AlertSubscriptions(promised(store));
    expect((await subs.seedSubscription("C0ALERTS", "demo"))?.channel).toBe("C0ALERTS");
    expect(subs.isConfigured("C0ALERTS", "demo")).toBe(false);
    // The sandbox ran: an incident was seen; then the user removed #alerts.
    store.applyChanges([
      {
        type: "open",
        account: "demo",
        transportUId: "t-1",
        codeUit: "UIT1",
        kind: "transmission",
        code: "Error",
        at: 1,
        state: "open",
        facts: { uId: "t-1", codeUit: "UIT1", statusId: 2 },
      },
    ]);
    expect(await subs.unsubscribe("C0ALERTS", "demo")).toBe(1);
    expect(await subs.seedSubscription("C0ALERTS", "demo")).toBeUndefined();
    expect(await subs.list()).toHaveLength(0);
    db.close();
  });

  it("ensures the workspace subscription without replacing an existing one", async () => {
    const db = openDatabase(":memory:");
    const subs = new AlertSubscriptions(promised(new SqliteAlertStore(db)));
    const first = await subs.ensureWorkspaceSubscription("C0ALERTS", "demo");
    expect(first.createdBy).toBeUndefined();
    await subs.subscribe("C0ALERTS", "demo", "U1", { codes: ["Error"] });
    expect((await subs.ensureWorkspaceSubscription("C0ALERTS", "demo")).codes).toEqual(["Error"]);
    expect(await subs.list()).toHaveLength(1);
    db.close();
  });
});
