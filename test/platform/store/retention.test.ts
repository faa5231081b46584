import { afterEach, describe, expect, it } from "vitest";
import { SqliteAlertStore } from "../../../src/platform/store/alertStore.js";
import { type Db, openDatabase } from "../../../src/platform/store/database.js";
import { promised } from "../../../src/platform/store/promised.js";
import { DAY_MS, StoreRetention } from "../../../src/platform/store/retention.js";
import { SqliteTaskStore } from "../../../src/platform/store/taskStore.js";

let db: Db | undefined;
afterEach(() => db?.close());

const NOW = Date.UTC(2026, 10, 22, 12);

function stores(now: () => number) {
  db = openDatabase(":memory:");
  return { tasks: new SqliteTaskStore(db, now), alerts: new SqliteAlertStore(db, now) };
}

function finishedTask(tasks: SqliteTaskStore, finishedAt: number, state: "done" | "failed" = "done") {
  const { task } = tasks.create({
    kind: "vehicle-report",
    params: {},
    account: "demo",
    reply: {},
    priority: "report",
  });
  db!
    .prepare("UPDATE tasks SET state = ?, finished_at = ?, result = ? WHERE id = ?")
    .run(state, finishedAt, JSON.stringify({ big: "x".repeat(1000) }), task.id);
  return task.id;
}

describe("StoreRetention", () => {
  it("deletes finished tasks older than TASK_RETENTION_DAYS and keeps newer and unfinished ones", async () => {
    const s = stores(() => NOW);
    const old = finishedTask(s.tasks, NOW - 15 * DAY_MS);
    const oldFailed = finishedTask(s.tasks, NOW - 20 * DAY_MS, "failed");
    const recent = finishedTask(s.tasks, NOW - 13 * DAY_MS);
    const { task: queued } = s.tasks.create({
      kind: "vehicle-report",
      params: {},
      account: "demo",
      reply: {},
      priority: "report",
    });
    db!.prepare("UPDATE tasks SET created_at = ? WHERE id = ?").run(NOW - 60 * DAY_MS, queued.id);

    const outcome = await new StoreRetention({
      stores: { tasks: promised(s.tasks), alerts: promised(s.alerts) },
      taskRetentionDays: 14,
      now: () => NOW,
    }).run();

    expect(outcome.tasks).toBe(2);
    expect(s.tasks.get(old)).toBeUndefined();
    expect(s.tasks.get(oldFailed)).toBeUndefined();
    expect(s.tasks.get(recent)).toBeDefined();
    expect(s.tasks.get(queued.id)?.state).toBe("queued");
  });

  it("follows the configured number of days", () => {
    const s = stores(() => NOW);
    const threeDays = finishedTask(s.tasks, NOW - 3 * DAY_MS);
    new StoreRetention({
      stores: { tasks: promised(s.tasks), alerts: promised(s.alerts) },
      taskRetentionDays: 2,
      now: () => NOW,
    }).run();
    expect(s.tasks.get(threeDays)).toBeUndefined();
  });

  it("deletes resolved incidents after 30 days and never an open one", async () => {
    const s = stores(() => NOW);
    const insert = db!.prepare(
      `INSERT INTO alert_incidents (id, account, transport_uid, code_uit, kind, code, first_seen_at, opened_at, resolved_at, state, last_seen_at, facts)
       VALUES (?, 'demo', ?, 'AB12CD34EF56GH78', 'transmission', 'Error', ?, ?, ?, ?, ?, '{}')`,
    );
    insert.run(
      "old-resolved",
      "t1",
      NOW - 40 * DAY_MS,
      NOW - 40 * DAY_MS,
      NOW - 31 * DAY_MS,
      "resolved",
      NOW - 31 * DAY_MS,
    );
    insert.run(
      "new-resolved",
      "t2",
      NOW - 40 * DAY_MS,
      NOW - 40 * DAY_MS,
      NOW - 29 * DAY_MS,
      "resolved",
      NOW - 29 * DAY_MS,
    );
    insert.run("old-open", "t3", NOW - 90 * DAY_MS, NOW - 90 * DAY_MS, null, "open", NOW - 90 * DAY_MS);

    const outcome = await new StoreRetention({
      stores: { tasks: promised(s.tasks), alerts: promised(s.alerts) },
      taskRetentionDays: 14,
      now: () => NOW,
    }).run();

    expect(outcome.incidents).toBe(1);
    const ids = (db!.prepare("SELECT id FROM alert_incidents ORDER BY id").all() as { id: string }[]).map(
      (r) => r.id,
    );
    expect(ids).toEqual(["new-resolved", "old-open"]);
  });
});
