import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import type { TaskRepository } from "../../../../src/platform/store/contract/index.js";
import { MIGRATIONS, openDatabase } from "../../../../src/platform/store/database.js";
import { promised } from "../../../../src/platform/store/promised.js";
import { RedisTaskStore } from "../../../../src/platform/store/redis/taskStore.js";
import { SqliteTaskStore } from "../../../../src/platform/store/taskStore.js";
import type { NewTask } from "../../../../src/platform/tasks/task.js";
import { type BackendName, describeContract, NOW } from "./backends.js";

const task = (overrides: Partial<NewTask> = {}): NewTask => ({
  kind: "vehicle-report",
  params: { report: "stops", vehicles: ["B-123-ABC"], period: { from: 1, to: 2 } },
  account: "demo",
  slackUser: "U1",
  reply: { responseUrl: "https://hooks.slack.test/r/1", channel: "C1" },
  priority: "report",
  ...overrides,
});

describeContract("TaskRepository", (backend) => {
  describe("create and get", () => {
    it("stores a queued task as data and reads it back the same", async () => {
      const s = await backend.open();
      const { task: created, created: isNew } = await s.tasks.create(
        task({ params: { when: new Date(NOW), nested: { list: [1, 2.5, "x"], none: null } } }),
      );
      expect(isNew).toBe(true);
      expect(created).toEqual({
        id: expect.any(String),
        kind: "vehicle-report",
        // Parameters are stored as JSON: a Date comes back as its ISO text.
        params: { when: new Date(NOW).toISOString(), nested: { list: [1, 2.5, "x"], none: null } },
        account: "demo",
        workspace: "",
        slackUser: "U1",
        reply: { responseUrl: "https://hooks.slack.test/r/1", channel: "C1" },
        priority: "report",
        state: "queued",
        progressDone: 0,
        progressTotal: 0,
        attempts: 0,
        createdAt: NOW,
        updatedAt: NOW,
      });
      expect(await s.tasks.get(created.id)).toEqual(created);
      expect(await s.tasks.get("no-such-task")).toBeUndefined();
    });

    it("keeps undefined parameters as null and a task without a Slack user without one", async () => {
      const s = await backend.open();
      const { task: created } = await s.tasks.create(task({ params: undefined, slackUser: undefined }));
      const read = await s.tasks.get(created.id);
      expect(read?.params).toBeNull();
      expect(read?.slackUser).toBeUndefined();
    });

    it("refuses a priority a stored task cannot have, and stores nothing", async () => {
      const s = await backend.open();
      await expect(s.tasks.create(task({ priority: "alert" }))).rejects.toThrow();
      expect(await s.tasks.countUnfinished()).toBe(0);
      expect(await s.tasks.recent("demo", 10)).toEqual([]);
    });
  });

  describe("dedupe keys", () => {
    it("a second submission while the first is pending returns the pending task; after it ends, a new one", async () => {
      const s = await backend.open();
      const first = await s.tasks.create(task({ dedupeKey: "start:U1" }));
      s.clock.now += 5;
      const again = await s.tasks.create(task({ dedupeKey: "start:U1", params: { other: true } }));
      expect(again).toEqual({ task: first.task, created: false });
      await s.tasks.markRunning(first.task.id);
      const whileRunning = await s.tasks.create(task({ dedupeKey: "start:U1" }));
      expect(whileRunning.created).toBe(false);
      expect(whileRunning.task.id).toBe(first.task.id);
      expect(whileRunning.task.state).toBe("running");

      const other = await s.tasks.create(task({ dedupeKey: "start:U2" }));
      expect(other.created).toBe(true);

      await s.tasks.finish(first.task.id, "done", { result: "ok" });
      const after = await s.tasks.create(task({ dedupeKey: "start:U1" }));
      expect(after.created).toBe(true);
      expect(after.task.id).not.toBe(first.task.id);
      const withoutKey = [await s.tasks.create(task()), await s.tasks.create(task())];
      expect(withoutKey.map((c) => c.created)).toEqual([true, true]);
    });

    it("holds across replicas: concurrent submissions of one key from two connections store one task", async () => {
      const s = await backend.open();
      const other = s.replica();
      const outcomes = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          (i % 2 === 0 ? s : other).tasks.create(task({ dedupeKey: "end:UIT42" })),
        ),
      );
      expect(outcomes.filter((o) => o.created)).toHaveLength(1);
      expect(new Set(outcomes.map((o) => o.task.id)).size).toBe(1);
      expect(await s.tasks.countUnfinished()).toBe(1);
      expect(await other.tasks.countUnfinished("demo")).toBe(1);
    });
  });

  describe("running and finishing", () => {
    it("markRunning counts attempts of an unfinished task and leaves a finished one alone", async () => {
      const s = await backend.open();
      const { task: t } = await s.tasks.create(task());
      s.clock.now = NOW + 10;
      await s.tasks.markRunning(t.id);
      s.clock.now = NOW + 20;
      await s.tasks.markRunning(t.id);
      expect(await s.tasks.get(t.id)).toMatchObject({ state: "running", attempts: 2, updatedAt: NOW + 20 });
      await s.tasks.finish(t.id, "done", {});
      s.clock.now = NOW + 30;
      await s.tasks.markRunning(t.id);
      expect(await s.tasks.get(t.id)).toMatchObject({ state: "done", attempts: 2, updatedAt: NOW + 20 });
      await expect(s.tasks.markRunning("no-such-task")).resolves.toBeUndefined();
      expect(await s.tasks.get("no-such-task")).toBeUndefined();
    });

    it("finish keeps the first ending; params replaced only when given", async () => {
      const s = await backend.open();
      const { task: t } = await s.tasks.create(task());
      s.clock.now = NOW + 100;
      expect(
        await s.tasks.finish(t.id, "cancelled", {
          error: { kind: "cancelled", message: "cancelled by <@U2>" },
          params: { scrubbed: true },
        }),
      ).toBe(true);
      s.clock.now = NOW + 200;
      expect(await s.tasks.finish(t.id, "done", { result: { rows: 3 }, params: { late: true } })).toBe(false);
      expect(await s.tasks.get(t.id)).toMatchObject({
        state: "cancelled",
        error: { kind: "cancelled", message: "cancelled by <@U2>" },
        params: { scrubbed: true },
        finishedAt: NOW + 100,
        updatedAt: NOW + 100,
      });
      expect((await s.tasks.get(t.id))?.result).toBeUndefined();

      const { task: kept } = await s.tasks.create(task({ params: { keep: 1 } }));
      await s.tasks.finish(kept.id, "done", { result: null });
      const read = await s.tasks.get(kept.id);
      expect(read?.params).toEqual({ keep: 1 });
      // A null result is a result (JSON null), not a missing one.
      expect(read).toHaveProperty("result", null);
      expect(await s.tasks.finish("no-such-task", "done", {})).toBe(false);
    });

    it("finish writes its result and error as given: no result clears an earlier one", async () => {
      const s = await backend.open();
      const { task: t } = await s.tasks.create(task());
      await s.tasks.updateResult(t.id, { partial: true });
      expect((await s.tasks.get(t.id))?.result).toEqual({ partial: true });
      await s.tasks.finish(t.id, "failed", {
        error: { kind: "fleet", message: "the service answered 500", correlationId: "c-1", detail: { n: 1 } },
      });
      const read = await s.tasks.get(t.id);
      expect(read?.result).toBeUndefined();
      expect(read?.error).toEqual({
        kind: "fleet",
        message: "the service answered 500",
        correlationId: "c-1",
        detail: { n: 1 },
      });
    });

    it("concurrent endings from two replicas: exactly one wins", async () => {
      const s = await backend.open();
      const other = s.replica();
      const { task: t } = await s.tasks.create(task());
      const [a, b] = await Promise.all([
        s.tasks.finish(t.id, "done", { result: "a" }),
        other.tasks.finish(t.id, "cancelled", { result: "b" }),
      ]);
      expect([a, b].filter(Boolean)).toHaveLength(1);
      const read = await s.tasks.get(t.id);
      expect(read?.state).toBe(a ? "done" : "cancelled");
      expect(read?.result).toBe(a ? "a" : "b");
      expect(await s.tasks.undelivered()).toHaveLength(1);
    });
  });

  describe("updates", () => {
    it("result, params, progress and reply are replaced in place, with the update time", async () => {
      const s = await backend.open();
      const { task: t } = await s.tasks.create(task());
      s.clock.now = NOW + 1;
      await s.tasks.setProgress(t.id, 2, 7);
      s.clock.now = NOW + 2;
      await s.tasks.updateParams(t.id, { zone: "Europe/Bucharest" });
      s.clock.now = NOW + 3;
      await s.tasks.setReply(t.id, {
        channel: "C9",
        responseUrlUses: 2,
        posted: { channel: "C9", ts: "1.2" },
      });
      await s.tasks.finish(t.id, "done", { result: { list: [1] } });
      s.clock.now = NOW + 4;
      await s.tasks.updateResult(t.id, { list: [1, 2] });
      expect(await s.tasks.get(t.id)).toMatchObject({
        progressDone: 2,
        progressTotal: 7,
        params: { zone: "Europe/Bucharest" },
        reply: { channel: "C9", responseUrlUses: 2, posted: { channel: "C9", ts: "1.2" } },
        result: { list: [1, 2] },
        state: "done",
        updatedAt: NOW + 4,
        finishedAt: NOW + 3,
      });
    });

    it("an update of a task that is not there stores nothing", async () => {
      const s = await backend.open();
      await s.tasks.setProgress("gone", 1, 2);
      await s.tasks.updateParams("gone", { a: 1 });
      await s.tasks.updateResult("gone", { a: 1 });
      await s.tasks.setReply("gone", {});
      await s.tasks.markDelivered("gone");
      expect(await s.tasks.get("gone")).toBeUndefined();
      expect(await s.tasks.undelivered()).toEqual([]);
    });
  });

  describe("queries", () => {
    it("unfinished: by creation time, then by insertion; of one account with a limit", async () => {
      const s = await backend.open();
      const at = async (now: number, overrides: Partial<NewTask> = {}) => {
        s.clock.now = now;
        return (await s.tasks.create(task(overrides))).task.id;
      };
      const late = await at(NOW + 200);
      const early1 = await at(NOW + 100);
      const early2 = await at(NOW + 100, { account: "other" });
      const early3 = await at(NOW + 100);
      const done = await at(NOW + 50);
      await s.tasks.finish(done, "done", {});
      const running = await at(NOW + 150);
      await s.tasks.markRunning(running);

      expect((await s.tasks.unfinished()).map((t) => t.id)).toEqual([early1, early2, early3, running, late]);
      expect((await s.tasks.unfinished("demo")).map((t) => t.id)).toEqual([early1, early3, running, late]);
      expect((await s.tasks.unfinished("demo", 2)).map((t) => t.id)).toEqual([early1, early3]);
      expect(await s.tasks.unfinished("demo", 0)).toEqual([]);
      expect((await s.tasks.unfinished("other", 5)).map((t) => t.id)).toEqual([early2]);
      expect(await s.tasks.unfinished("nobody")).toEqual([]);
      expect(await s.tasks.countUnfinished()).toBe(5);
      expect(await s.tasks.countUnfinished("demo")).toBe(4);
      expect(await s.tasks.countUnfinished("other")).toBe(1);
      expect(await s.tasks.countUnfinished("nobody")).toBe(0);
      await s.tasks.finish(late, "failed", { error: { kind: "x", message: "y" } });
      expect(await s.tasks.countUnfinished("demo")).toBe(3);
    });

    it("recent: an account's tasks newest first (ties: the later stored first), finished ones included", async () => {
      const s = await backend.open();
      const ids: string[] = [];
      for (const now of [NOW, NOW + 10, NOW + 10, NOW + 5]) {
        s.clock.now = now;
        ids.push((await s.tasks.create(task())).task.id);
      }
      await s.tasks.create(task({ account: "other" }));
      await s.tasks.finish(ids[0]!, "done", {});
      expect((await s.tasks.recent("demo", 10)).map((t) => t.id)).toEqual([ids[2], ids[1], ids[3], ids[0]]);
      expect((await s.tasks.recent("demo", 2)).map((t) => t.id)).toEqual([ids[2], ids[1]]);
      expect(await s.tasks.recent("demo", 0)).toEqual([]);
      expect(await s.tasks.recent("nobody", 5)).toEqual([]);
    });

    it("undelivered: finished tasks whose answer is not out, by finish time, until marked delivered", async () => {
      const s = await backend.open();
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) ids.push((await s.tasks.create(task())).task.id);
      s.clock.now = NOW + 30;
      await s.tasks.finish(ids[0]!, "done", {});
      s.clock.now = NOW + 10;
      await s.tasks.finish(ids[1]!, "failed", { error: { kind: "x", message: "y" } });
      s.clock.now = NOW + 20;
      await s.tasks.finish(ids[2]!, "cancelled", {});
      // Marked delivered before it ends (an answer sent early): never listed.
      await s.tasks.markDelivered(ids[3]!);
      await s.tasks.finish(ids[3]!, "done", {});
      expect((await s.tasks.undelivered()).map((t) => t.id)).toEqual([ids[1], ids[2], ids[0]]);
      s.clock.now = NOW + 40;
      await s.tasks.markDelivered(ids[2]!);
      expect((await s.tasks.undelivered()).map((t) => t.id)).toEqual([ids[1], ids[0]]);
      expect((await s.tasks.get(ids[2]!))?.deliveredAt).toBe(NOW + 40);
    });
  });

  describe("the mutation journal", () => {
    it("records sending, then done with the answer; per task and step", async () => {
      const s = await backend.open();
      const { task: t } = await s.tasks.create(task({ kind: "transport-start" }));
      const { task: u } = await s.tasks.create(task({ kind: "transport-start" }));
      expect(await s.tasks.step(t.id, "start:UIT1")).toBeUndefined();
      await s.tasks.markStepSending(t.id, "start:UIT1");
      expect(await s.tasks.step(t.id, "start:UIT1")).toEqual({ state: "sending" });
      expect(await s.tasks.step(u.id, "start:UIT1")).toBeUndefined();
      expect(await s.tasks.step(t.id, "end:UIT1")).toBeUndefined();
      await s.tasks.markStepDone(t.id, "start:UIT1", { applied: true, at: NOW });
      expect(await s.tasks.step(t.id, "start:UIT1")).toEqual({
        state: "done",
        result: { applied: true, at: NOW },
      });
      await s.tasks.markStepDone(u.id, "end:UIT1", undefined);
      const done = await s.tasks.step(u.id, "end:UIT1");
      expect(done?.state).toBe("done");
      expect(done?.state === "done" ? done.result : "missing").toBeUndefined();
      // Another replica resuming the task reads the same journal.
      expect(await s.replica().tasks.step(t.id, "start:UIT1")).toEqual({
        state: "done",
        result: { applied: true, at: NOW },
      });
    });

    it("a journal step belongs to a stored task", async () => {
      const s = await backend.open();
      await expect(s.tasks.markStepSending("no-such-task", "start:X")).rejects.toThrow(/FOREIGN KEY/);
      expect(await s.tasks.step("no-such-task", "start:X")).toBeUndefined();
    });
  });

  describe("retention", () => {
    it("purges tasks finished before the instant, with their journal; never an unfinished one", async () => {
      const s = await backend.open();
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) ids.push((await s.tasks.create(task())).task.id);
      await s.tasks.markStepSending(ids[0]!, "start:A");
      s.clock.now = NOW + 100;
      await s.tasks.finish(ids[0]!, "done", {});
      s.clock.now = NOW + 200;
      await s.tasks.finish(ids[1]!, "failed", { error: { kind: "x", message: "y" } });
      s.clock.now = NOW + 300;
      await s.tasks.finish(ids[2]!, "done", {});

      expect(await s.tasks.purgeFinishedBefore(NOW + 200)).toBe(1);
      expect(await s.tasks.get(ids[0]!)).toBeUndefined();
      expect(await s.tasks.step(ids[0]!, "start:A")).toBeUndefined();
      // Strictly before: the task finished at the instant stays.
      expect(await s.tasks.get(ids[1]!)).toBeDefined();
      expect(await s.tasks.purgeFinishedBefore(NOW + 10_000)).toBe(2);
      expect(await s.tasks.get(ids[3]!)).toMatchObject({ state: "queued" });
      expect((await s.tasks.recent("demo", 10)).map((t) => t.id)).toEqual([ids[3]]);
      expect(await s.tasks.undelivered()).toEqual([]);
      expect(await s.tasks.purgeFinishedBefore(NOW + 10_000)).toBe(0);
    });

    it("purges any number of tasks in one call", async () => {
      const s = await backend.open();
      const count = 520;
      const created = await Promise.all(Array.from({ length: count }, () => s.tasks.create(task())));
      await Promise.all(created.map(({ task: t }) => s.tasks.finish(t.id, "done", {})));
      s.clock.now = NOW + 1;
      const kept = (await s.tasks.create(task())).task.id;
      await s.tasks.finish(kept, "done", {});
      expect(await s.tasks.purgeFinishedBefore(NOW + 1)).toBe(count);
      expect((await s.tasks.recent("demo", 1000)).map((t) => t.id)).toEqual([kept]);
    });
  });

  describe("workspaces", () => {
    it("a task keeps its workspace; without one it is the single workspace's", async () => {
      const s = await backend.open();
      const { task: single } = await s.tasks.create(task());
      const { task: mine } = await s.tasks.create(task({ workspace: "T:A" }));
      const { task: org } = await s.tasks.create(task({ workspace: "E:ORG" }));
      expect(single.workspace).toBe("");
      expect(mine.workspace).toBe("T:A");
      expect(org.workspace).toBe("E:ORG");
      expect(await s.tasks.get(single.id)).toEqual(single);
      expect(await s.tasks.get(mine.id)).toEqual(mine);
      expect(await s.replica().tasks.get(org.id)).toEqual(org);
      await s.tasks.finish(mine.id, "done", { result: { ok: true } });
      expect((await s.tasks.get(mine.id))?.workspace).toBe("T:A");
    });

    it("unfinished, countUnfinished and recent of one workspace: never another's, even of the same account", async () => {
      const s = await backend.open();
      const at = async (now: number, overrides: Partial<NewTask>) => {
        s.clock.now = now;
        return (await s.tasks.create(task(overrides))).task.id;
      };
      const a1 = await at(NOW + 30, { workspace: "T:A" });
      const b1 = await at(NOW + 10, { workspace: "T:B" });
      const a2 = await at(NOW + 20, { workspace: "T:A" });
      const single = await at(NOW + 5, {});
      const aOther = await at(NOW + 15, { workspace: "T:A", account: "other" });
      const aDone = await at(NOW + 1, { workspace: "T:A" });
      await s.tasks.finish(aDone, "done", {});
      await s.tasks.markRunning(a2);

      // Without a workspace: every workspace's (the runner's resume at start).
      expect((await s.tasks.unfinished()).map((t) => t.id)).toEqual([single, b1, aOther, a2, a1]);
      expect((await s.tasks.unfinished("demo")).map((t) => t.id)).toEqual([single, b1, a2, a1]);
      expect(await s.tasks.countUnfinished()).toBe(5);
      expect(await s.tasks.countUnfinished("demo")).toBe(4);

      const ids = (list: { id: string }[]) => list.map((t) => t.id);
      expect(ids(await s.tasks.unfinished(undefined, -1, "T:A"))).toEqual([aOther, a2, a1]);
      expect(ids(await s.tasks.unfinished(undefined, 2, "T:A"))).toEqual([aOther, a2]);
      expect(ids(await s.tasks.unfinished("demo", -1, "T:A"))).toEqual([a2, a1]);
      expect(ids(await s.tasks.unfinished("demo", 1, "T:A"))).toEqual([a2]);
      expect(await s.tasks.unfinished("demo", 0, "T:A")).toEqual([]);
      expect(ids(await s.tasks.unfinished("demo", 10, "T:B"))).toEqual([b1]);
      expect(ids(await s.tasks.unfinished("demo", 10, ""))).toEqual([single]);
      expect(ids(await s.tasks.unfinished(undefined, -1, ""))).toEqual([single]);
      expect(await s.tasks.unfinished("other", 10, "T:B")).toEqual([]);
      expect(await s.tasks.unfinished("demo", 10, "T:NONE")).toEqual([]);

      expect(await s.tasks.countUnfinished(undefined, "T:A")).toBe(3);
      expect(await s.tasks.countUnfinished("demo", "T:A")).toBe(2);
      expect(await s.tasks.countUnfinished("other", "T:A")).toBe(1);
      expect(await s.tasks.countUnfinished("demo", "T:B")).toBe(1);
      expect(await s.tasks.countUnfinished("other", "T:B")).toBe(0);
      expect(await s.tasks.countUnfinished("demo", "")).toBe(1);
      expect(await s.tasks.countUnfinished(undefined, "")).toBe(1);

      expect(ids(await s.tasks.recent("demo", 10))).toEqual([a1, a2, b1, single, aDone]);
      expect(ids(await s.tasks.recent("demo", 10, "T:A"))).toEqual([a1, a2, aDone]);
      expect(ids(await s.tasks.recent("demo", 2, "T:A"))).toEqual([a1, a2]);
      expect(ids(await s.tasks.recent("demo", 10, "T:B"))).toEqual([b1]);
      expect(ids(await s.tasks.recent("demo", 10, ""))).toEqual([single]);
      expect(await s.tasks.recent("demo", 0, "")).toEqual([]);

      await s.tasks.finish(a1, "failed", { error: { kind: "x", message: "y" } });
      await s.tasks.finish(single, "done", {});
      expect(await s.tasks.countUnfinished("demo", "T:A")).toBe(1);
      expect(await s.tasks.countUnfinished(undefined, "T:A")).toBe(2);
      expect(await s.tasks.countUnfinished("demo", "")).toBe(0);
      expect(ids(await s.tasks.unfinished("demo", -1, "T:A"))).toEqual([a2]);
      expect(await s.tasks.unfinished("demo", -1, "")).toEqual([]);
      expect(ids(await s.tasks.recent("demo", 10, ""))).toEqual([single]);
    });

    it("the same dedupe key in two workspaces makes two tasks; within one it still runs once", async () => {
      const s = await backend.open();
      const a = await s.tasks.create(task({ workspace: "T:A", dedupeKey: "end:UIT42" }));
      const b = await s.tasks.create(task({ workspace: "T:B", dedupeKey: "end:UIT42" }));
      const single = await s.tasks.create(task({ dedupeKey: "end:UIT42" }));
      expect([a.created, b.created, single.created]).toEqual([true, true, true]);
      expect(new Set([a.task.id, b.task.id, single.task.id]).size).toBe(3);
      expect(await s.tasks.create(task({ workspace: "T:A", dedupeKey: "end:UIT42" }))).toEqual({
        task: a.task,
        created: false,
      });
      const again = await s.replica().tasks.create(task({ workspace: "T:B", dedupeKey: "end:UIT42" }));
      expect(again).toEqual({ task: b.task, created: false });
      expect((await s.tasks.create(task({ dedupeKey: "end:UIT42" }))).task.id).toBe(single.task.id);

      await s.tasks.finish(a.task.id, "done", {});
      const later = await s.tasks.create(task({ workspace: "T:A", dedupeKey: "end:UIT42" }));
      expect(later.created).toBe(true);
      expect((await s.tasks.create(task({ workspace: "T:B", dedupeKey: "end:UIT42" }))).created).toBe(false);
    });

    it("deleteWorkspace deletes every task of that workspace with its journal, and nothing else", async () => {
      const s = await backend.open();
      const create = async (overrides: Partial<NewTask>) => (await s.tasks.create(task(overrides))).task.id;
      const queued = await create({ workspace: "T:A", dedupeKey: "start:U1" });
      const running = await create({ workspace: "T:A", account: "other" });
      await s.tasks.markRunning(running);
      await s.tasks.markStepSending(running, "start:UIT1");
      const undelivered = await create({ workspace: "T:A" });
      await s.tasks.markStepDone(undelivered, "end:UIT1", { ended: true });
      await s.tasks.finish(undelivered, "done", { result: { rows: 1 } });
      const delivered = await create({ workspace: "T:A" });
      await s.tasks.finish(delivered, "done", { result: { rows: 2 } });
      await s.tasks.markDelivered(delivered);
      const theirs = await create({ workspace: "T:B", dedupeKey: "start:U1" });
      await s.tasks.markStepSending(theirs, "start:UIT1");
      const single = await create({ dedupeKey: "start:U1" });
      const org = await create({ workspace: "E:A" });

      const outcome = await s.tasks.deleteWorkspace("T:A");
      expect(outcome.tasks).toBe(4);
      expect([...outcome.ids].sort()).toEqual([queued, running, undelivered, delivered].sort());
      for (const id of outcome.ids) expect(await s.tasks.get(id)).toBeUndefined();
      expect(await s.tasks.step(running, "start:UIT1")).toBeUndefined();
      expect(await s.tasks.step(undelivered, "end:UIT1")).toBeUndefined();

      expect((await s.tasks.unfinished()).map((t) => t.id)).toEqual([theirs, single, org]);
      expect(await s.tasks.countUnfinished()).toBe(3);
      expect(await s.tasks.countUnfinished("other")).toBe(0);
      expect(await s.tasks.countUnfinished(undefined, "T:A")).toBe(0);
      expect(await s.tasks.unfinished(undefined, -1, "T:A")).toEqual([]);
      expect(await s.tasks.recent("demo", 10, "T:A")).toEqual([]);
      expect(await s.tasks.recent("other", 10)).toEqual([]);
      expect(await s.tasks.undelivered()).toEqual([]);
      expect(await s.tasks.step(theirs, "start:UIT1")).toEqual({ state: "sending" });
      expect((await s.tasks.get(theirs))?.workspace).toBe("T:B");
      expect((await s.tasks.get(single))?.workspace).toBe("");
      expect(await s.tasks.countUnfinished("demo", "")).toBe(1);

      // The deleted pending task no longer holds its dedupe key; the other workspaces' still do.
      const reinstalled = await s.tasks.create(task({ workspace: "T:A", dedupeKey: "start:U1" }));
      expect(reinstalled.created).toBe(true);
      expect((await s.tasks.create(task({ workspace: "T:B", dedupeKey: "start:U1" }))).task.id).toBe(theirs);
      expect((await s.tasks.create(task({ dedupeKey: "start:U1" }))).task.id).toBe(single);
      expect((await s.tasks.unfinished("demo", -1, "T:A")).map((t) => t.id)).toEqual([reinstalled.task.id]);

      expect(await s.tasks.deleteWorkspace("T:A")).toEqual({ tasks: 1, ids: [reinstalled.task.id] });
      // Idempotent: nothing left to delete.
      expect(await s.tasks.deleteWorkspace("T:A")).toEqual({ tasks: 0, ids: [] });
      expect(await s.tasks.deleteWorkspace("T:NEVER")).toEqual({ tasks: 0, ids: [] });
      expect(await s.tasks.countUnfinished()).toBe(3);
    });

    it("deleteWorkspace refuses the single workspace and deletes nothing", async () => {
      const s = await backend.open();
      const { task: single } = await s.tasks.create(task());
      await expect(s.tasks.deleteWorkspace("")).rejects.toThrow(/single workspace/);
      expect(await s.tasks.get(single.id)).toEqual(single);
    });

    it("deleteWorkspace deletes any number of tasks in one call; a purged task is not counted", async () => {
      const s = await backend.open();
      const count = 520;
      const created = await Promise.all(
        Array.from({ length: count }, (_, i) =>
          s.tasks.create(task({ workspace: "T:A", dedupeKey: `k${i}` })),
        ),
      );
      const purged = created[0]!.task.id;
      await s.tasks.finish(purged, "done", {});
      s.clock.now = NOW + 1;
      expect(await s.tasks.purgeFinishedBefore(NOW + 1)).toBe(1);
      const kept = (await s.tasks.create(task({ workspace: "T:B" }))).task.id;
      const outcome = await s.tasks.deleteWorkspace("T:A");
      expect(outcome.tasks).toBe(count - 1);
      expect(new Set(outcome.ids)).toEqual(new Set(created.slice(1).map((c) => c.task.id)));
      expect((await s.tasks.unfinished()).map((t) => t.id)).toEqual([kept]);
      expect((await s.tasks.recent("demo", 1000)).map((t) => t.id)).toEqual([kept]);
    });
  });
});

describeContract("TaskRepository results (issue 23: a full Redis refuses every write)", (backend) => {
  const DAY = 86_400_000;
  /** About 200 KB of report-like JSON: bulk, and compressible. */
  const bulky = {
    kind: "stops",
    report: {
      kind: "stops",
      vehicles: 3,
      rows: Array.from({ length: 3000 }, (_, i) => ({ at: NOW + i, place: `Stop ${i % 40}` })),
    },
  };
  /** Above the 4 MiB cap even compressed (random text does not compress). */
  const huge = { kind: "route", report: { kind: "route", noise: randomBytes(4_000_000).toString("base64") } };

  it("a large result reads back the same; one past the cap keeps a summary and a too-large marker", async () => {
    const s = await backend.open();
    const { task: big } = await s.tasks.create(task());
    await s.tasks.finish(big.id, "done", { result: bulky });
    expect((await s.tasks.get(big.id))?.result).toEqual(bulky);
    expect((await s.tasks.get(big.id))?.resultNotKept).toBeUndefined();

    const { task: tooBig } = await s.tasks.create(task());
    await s.tasks.finish(tooBig.id, "done", { result: huge });
    const read = await s.tasks.get(tooBig.id);
    expect(read?.state).toBe("done");
    expect(read?.result).toBeUndefined();
    expect(read?.resultNotKept).toEqual({
      reason: "too-large",
      bytes: JSON.stringify(huge).length,
      summary: { kind: "route", "report.kind": "route" },
    });
    expect(await s.rawContains(huge.report.noise.slice(0, 64))).toBe(false);
  });

  it("a delivered result's bulk is dropped a day later; small and undelivered results stay", async () => {
    const s = await backend.open();
    const { task: delivered } = await s.tasks.create(task());
    const { task: undelivered } = await s.tasks.create(task());
    const { task: small } = await s.tasks.create(task());
    await s.tasks.finish(delivered.id, "done", { result: bulky });
    await s.tasks.finish(undelivered.id, "done", { result: bulky });
    await s.tasks.finish(small.id, "done", { result: { kind: "resolution", problems: [] } });
    await s.tasks.markDelivered(delivered.id);
    await s.tasks.markDelivered(small.id);

    expect(await s.tasks.dropResultsDeliveredBefore(NOW)).toBe(0);
    s.clock.now = NOW + DAY + 1;
    expect(await s.tasks.dropResultsDeliveredBefore(s.clock.now - DAY)).toBe(1);
    const dropped = await s.tasks.get(delivered.id);
    expect(dropped?.state).toBe("done");
    expect(dropped?.result).toBeUndefined();
    expect(dropped?.resultNotKept).toMatchObject({ reason: "expired", bytes: JSON.stringify(bulky).length });
    expect((await s.tasks.get(undelivered.id))?.result).toEqual(bulky);
    expect((await s.tasks.get(small.id))?.result).toEqual({ kind: "resolution", problems: [] });
    // Once dropped, nothing more to drop; the row still goes with retention.
    expect(await s.tasks.dropResultsDeliveredBefore(s.clock.now)).toBe(0);
    expect(await s.tasks.purgeFinishedBefore(s.clock.now)).toBe(3);
  });
});

/**
 * Tasks stored before workspaces existed: a SQLite row from schema 9 (no workspace column), a Redis
 * hash without a `workspace` field. The tests above write through the stores; these two are built
 * as the earlier fleetbot left them.
 */
describeContract("TaskRepository: tasks stored before workspaces", (backend, name: BackendName) => {
  const cleanup: (() => void)[] = [];
  afterEach(() => {
    for (const done of cleanup.splice(0)) done();
  });

  /** A store holding one pending task (dedupe key "start:U1") and one finished task of "demo", both legacy. */
  async function legacyStore(): Promise<{ tasks: TaskRepository; pending: string; finished: string }> {
    if (name === "sqlite") {
      const dir = mkdtempSync(join(tmpdir(), "fleetbot-legacy-"));
      const old = new Database(join(dir, "fleetbot.sqlite"));
      old.exec(MIGRATIONS.slice(0, 9).join(";\n"));
      old.pragma("user_version = 9");
      old
        .prepare(
          `INSERT INTO tasks (id, kind, params, account, reply, priority, state, dedupe_key, created_at, updated_at, finished_at)
           VALUES ('old-pending', 'transport-start', '{}', 'demo', '{}', 'interactive', 'queued', 'start:U1', ?, ?, NULL),
                  ('old-done', 'vehicle-report', '{}', 'demo', '{}', 'report', 'done', NULL, ?, ?, ?)`,
        )
        .run(NOW, NOW, NOW + 1, NOW + 1, NOW + 2);
      old.close();
      const db = openDatabase(dir);
      cleanup.push(() => {
        db.close();
        rmSync(dir, { recursive: true, force: true });
      });
      return {
        tasks: promised(new SqliteTaskStore(db, () => NOW + 10)),
        pending: "old-pending",
        finished: "old-done",
      };
    }
    const server = backend.server();
    if (!server) throw new Error("redis-server not started");
    const redis = new Redis(server.url, { maxRetriesPerRequest: 3 });
    cleanup.push(() => redis.disconnect());
    const prefix = `legacy:${randomBytes(4).toString("hex")}:`;
    let now = NOW;
    const store = new RedisTaskStore(redis, { prefix, now: () => now });
    const pending = (await store.create(task({ kind: "transport-start", dedupeKey: "start:U1" }))).task.id;
    now = NOW + 1;
    const finished = (await store.create(task())).task.id;
    now = NOW + 2;
    await store.finish(finished, "done", {});
    now = NOW + 10;
    // The single workspace's tasks have no index of their own: without the field, a hash is as an
    // earlier fleetbot wrote it.
    for (const id of [pending, finished]) await redis.hdel(`${prefix}task:${id}`, "workspace");
    expect(await redis.hexists(`${prefix}task:${pending}`, "workspace")).toBe(0);
    return { tasks: store, pending, finished };
  }

  it("reads as the single workspace's: listed, counted, deduped and finished there, never in an installed one", async () => {
    const { tasks, pending, finished } = await legacyStore();
    expect((await tasks.get(pending))?.workspace).toBe("");
    expect((await tasks.get(finished))?.workspace).toBe("");
    expect((await tasks.unfinished("demo", 10, "")).map((t) => t.id)).toEqual([pending]);
    expect((await tasks.unfinished(undefined, -1, "")).map((t) => t.id)).toEqual([pending]);
    expect(await tasks.countUnfinished("demo", "")).toBe(1);
    expect(await tasks.countUnfinished(undefined, "")).toBe(1);
    expect((await tasks.recent("demo", 10, "")).map((t) => t.id)).toEqual([finished, pending]);
    expect(await tasks.unfinished("demo", 10, "T:A")).toEqual([]);
    expect(await tasks.countUnfinished("demo", "T:A")).toBe(0);
    expect(await tasks.recent("demo", 10, "T:A")).toEqual([]);

    // Its dedupe key still holds in the single workspace, and only there.
    const again = await tasks.create(task({ kind: "transport-start", dedupeKey: "start:U1" }));
    expect(again).toMatchObject({ created: false, task: { id: pending, workspace: "" } });
    const installed = await tasks.create(task({ workspace: "T:A", dedupeKey: "start:U1" }));
    expect(installed.created).toBe(true);
    expect(await tasks.countUnfinished("demo", "")).toBe(1);
    expect(await tasks.countUnfinished("demo", "T:A")).toBe(1);

    // Uninstalling a workspace leaves them alone; they finish as before.
    expect(await tasks.deleteWorkspace("T:A")).toEqual({ tasks: 1, ids: [installed.task.id] });
    expect(await tasks.finish(pending, "done", {})).toBe(true);
    expect(await tasks.countUnfinished("demo", "")).toBe(0);
    expect(await tasks.countUnfinished()).toBe(0);
    expect((await tasks.create(task({ dedupeKey: "start:U1" }))).created).toBe(true);
  });
});
