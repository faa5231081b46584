import { expect, it } from "vitest";
import type { AuditEntry } from "../../../../src/platform/store/contract/index.js";
import { DAY_MS, StoreRetention } from "../../../../src/platform/store/retention.js";
import { describeContract, NOW } from "./backends.js";

const UIT = "AB12CD34EF56GH78";
const OTHER_UIT = "ZX98YW76VU54TS32";

let ids = 0;
function entry(fields: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: `task${++ids}:start:${fields.uit ?? UIT}`,
    at: NOW,
    account: "demo",
    slackUser: "U0DISPATCH",
    uit: UIT,
    action: "start",
    outcome: "success",
    taskId: `task${ids}`,
    ...fields,
  };
}

describeContract("AuditRepository", (backend) => {
  it("gives one account's history of a UIT newest first, with every field as stored; another connection reads it", async () => {
    const s = await backend.open();
    const created = entry({ action: "create", at: NOW - 3_000 });
    const refused = entry({
      action: "pause",
      at: NOW - 2_000,
      outcome: "failure",
      code: "TransportNotStarted",
      message: "TransportNotStarted (AB12CD34EF56GH78); correlation id c-17",
    });
    const unknown = entry({ action: "end", at: NOW - 1_000, outcome: "unknown", code: "timeout" });
    const noUser = entry({ action: "remove", at: NOW });
    delete noUser.slackUser;
    delete noUser.taskId;
    expect(await s.audit.record([refused, created])).toBe(2);
    expect(await s.audit.record([unknown, noUser])).toBe(2);
    // Other UITs and other accounts do not mix in.
    await s.audit.record([entry({ uit: OTHER_UIT }), entry({ account: "viewer", at: NOW + 5 })]);

    const history = await s.replica().audit.history("demo", UIT, 10);
    expect(history.total).toBe(4);
    expect(history.entries).toEqual([noUser, unknown, refused, created]);
    expect(await s.audit.history("viewer", UIT, 10)).toMatchObject({ total: 1 });
    expect(await s.audit.history("demo", "QQQQQQQQQQQQQQQQ", 10)).toEqual({ entries: [], total: 0 });
  });

  it("cuts at the limit and still counts them all; equal times come in the same order on both backends", async () => {
    const s = await backend.open();
    const many = Array.from({ length: 7 }, (_, i) => entry({ id: `t-${i}`, at: NOW + (i % 3) }));
    await s.audit.record(many);
    const { entries, total } = await s.audit.history("demo", UIT, 4);
    expect(total).toBe(7);
    expect(entries.map((e) => e.id)).toEqual(["t-5", "t-2", "t-4", "t-1"]);
    expect((await s.audit.history("demo", UIT, 0)).entries).toEqual([]);
  });

  it("an id recorded again (a resumed task) keeps the first entry", async () => {
    const s = await backend.open();
    const first = entry({ id: "same", message: "first" });
    expect(await s.audit.record([first])).toBe(1);
    expect(await s.audit.record([{ ...first, message: "second", at: NOW + 10 }])).toBe(0);
    expect((await s.audit.history("demo", UIT, 10)).entries).toEqual([first]);
  });

  it("an account name with ':' stays its own account", async () => {
    const s = await backend.open();
    await s.audit.record([entry({ account: "a:b" }), entry({ account: "a" })]);
    expect((await s.audit.history("a:b", UIT, 10)).total).toBe(1);
    expect((await s.audit.history("a", UIT, 10)).total).toBe(1);
  });

  it("refuses an entry that is not one (an unknown action)", async () => {
    const s = await backend.open();
    await expect(s.audit.record([{ ...entry(), action: "delete" as "remove" }])).rejects.toThrow();
    expect((await s.audit.history("demo", UIT, 10)).total).toBe(0);
  });

  it("retention deletes entries older than AUDIT_RETENTION_DAYS and keeps the rest, whole UIT histories included", async () => {
    const s = await backend.open();
    const gone = entry({ at: NOW - 401 * DAY_MS });
    const edge = entry({ at: NOW - 400 * DAY_MS });
    const recent = entry({ at: NOW - 5 * DAY_MS });
    const otherGone = entry({ uit: OTHER_UIT, at: NOW - 500 * DAY_MS });
    await s.audit.record([gone, edge, recent, otherGone]);
    const retention = new StoreRetention({
      stores: { tasks: s.tasks, alerts: s.alerts, audit: s.audit },
      taskRetentionDays: 14,
      auditRetentionDays: 400,
      now: () => NOW,
    });
    expect((await retention.run()).auditEntries).toBe(2);
    expect((await s.audit.history("demo", UIT, 10)).entries).toEqual([recent, edge]);
    expect(await s.audit.history("demo", OTHER_UIT, 10)).toEqual({ entries: [], total: 0 });
    expect(await s.audit.all()).toEqual([edge, recent]);
    // A later pass finds the edge entry old enough.
    expect(await s.audit.purgeBefore(NOW - 400 * DAY_MS + 1)).toBe(1);
    expect(await s.audit.all()).toEqual([recent]);
    expect(await s.audit.purgeBefore(NOW - 400 * DAY_MS + 1)).toBe(0);
  });
});
