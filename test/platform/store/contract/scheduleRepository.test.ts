import { describe, expect, it } from "vitest";
import type { NewReportSchedule, ReportSchedule } from "../../../../src/platform/store/contract/index.js";
import { scheduleIdOf } from "../../../../src/platform/store/scheduleRecords.js";
import { describeContract, NOW } from "./backends.js";

const A = "T:ALPHA";
const B = "E:BRAVO";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Crockford base32 without I, L, O, U; 4 to 6 characters. */
const TYPEABLE = /^[0-9A-HJKMNP-TV-Z]{4,6}$/;

const daily = (overrides: Partial<NewReportSchedule> = {}): NewReportSchedule => ({
  workspace: A,
  channel: "C1",
  createdBy: "U1",
  command: "fuel all yesterday",
  recurrence: { every: "day", time: "07:30" },
  timeZone: "Europe/Bucharest",
  nextRunAt: NOW + HOUR,
  ...overrides,
});

describeContract("ScheduleRepository", (backend, name) => {
  describe("add, get, list, count", () => {
    it("adds an active schedule with a fresh id and the time; get answers it, as typed too", async () => {
      const s = await backend.open();
      const added = await s.schedules.add(daily({ language: "ro" }));
      expect(added).toEqual({
        id: expect.stringMatching(TYPEABLE),
        workspace: A,
        channel: "C1",
        createdBy: "U1",
        command: "fuel all yesterday",
        recurrence: { every: "day", time: "07:30" },
        timeZone: "Europe/Bucharest",
        language: "ro",
        state: "active",
        nextRunAt: NOW + HOUR,
        failuresInRow: 0,
        createdAt: NOW,
      } satisfies ReportSchedule);
      expect(await s.schedules.get(A, added.id)).toEqual(added);
      // Read the Crockford way: case ignored, O as 0, I and L as 1, a dash dropped.
      const typed = added.id.toLowerCase().replace(/0/g, "o").replace(/1/g, "l");
      expect(await s.schedules.get(A, `${typed.slice(0, 2)}-${typed.slice(2)}`)).toEqual(added);
      expect(await s.schedules.get(B, added.id)).toBeUndefined();
      expect(await s.schedules.get(A, "NOPE!")).toBeUndefined();
      expect(await s.schedules.get(A, "")).toBeUndefined();
    });

    it("keeps each recurrence as given; absent fields stay absent", async () => {
      const s = await backend.open();
      const recurrences = [
        { every: "weekday", time: "06:00" },
        { every: "week", weekday: 1, time: "08:15" },
        { every: "month", day: 31, time: "23:59" },
      ] as const;
      for (const recurrence of recurrences) {
        const added = await s.schedules.add(daily({ recurrence, createdAt: NOW - 7 }));
        const stored = await s.schedules.get(A, added.id);
        expect(stored?.recurrence).toEqual(recurrence);
        expect(stored?.createdAt).toBe(NOW - 7);
        for (const key of [
          "language",
          "pausedBecause",
          "lastRunAt",
          "lastRunMadeAt",
          "lastTaskId",
          "lastOutcome",
        ])
          expect(stored && key in stored).toBe(false);
      }
    });

    it("refuses a record it could not read back", async () => {
      const s = await backend.open();
      await expect(
        s.schedules.add(daily({ recurrence: { every: "week", weekday: 9, time: "07:00" } })),
      ).rejects.toThrow();
      await expect(s.schedules.add(daily({ nextRunAt: NOW + 0.5 }))).rejects.toThrow();
      expect(await s.schedules.count(A)).toBe(0);
    });

    it("lists a workspace's schedules oldest first, by channel and/or author; counts them", async () => {
      const s = await backend.open();
      const first = await s.schedules.add(daily());
      s.clock.now = NOW + 1;
      const second = await s.schedules.add(daily({ channel: "C2" }));
      const third = await s.schedules.add(daily({ createdBy: "U2" }));
      // Made earlier (a copy): listed first.
      const older = await s.schedules.add(daily({ channel: "C2", createdBy: "U2", createdAt: NOW - 10 }));
      await s.schedules.add(daily({ workspace: B }));
      await s.schedules.add(daily({ workspace: "" }));
      const ids = (list: ReportSchedule[]) => list.map((x) => x.id);
      expect(ids(await s.schedules.list(A))).toEqual([older.id, first.id, second.id, third.id]);
      expect(ids(await s.schedules.list(A, {}))).toEqual([older.id, first.id, second.id, third.id]);
      expect(ids(await s.schedules.list(A, { channel: "C2" }))).toEqual([older.id, second.id]);
      expect(ids(await s.schedules.list(A, { createdBy: "U2" }))).toEqual([older.id, third.id]);
      expect(ids(await s.schedules.list(A, { channel: "C1", createdBy: "U2" }))).toEqual([third.id]);
      expect(await s.schedules.list(A, { channel: "C9" })).toEqual([]);
      expect((await s.schedules.list(A))[1]).toEqual(first);
      expect(await s.schedules.count(A)).toBe(4);
      expect(await s.schedules.count(B)).toBe(1);
      expect(await s.schedules.count("")).toBe(1);
      expect(await s.schedules.count("T:EMPTY")).toBe(0);
      expect(await s.schedules.list("T:EMPTY")).toEqual([]);
    });

    it("ids are unique in a workspace and typeable", async () => {
      const s = await backend.open();
      const added = await Promise.all(
        Array.from({ length: 150 }, (_, i) => s.schedules.add(daily({ channel: `C${i % 5}` }))),
      );
      const ids = added.map((x) => x.id);
      expect(new Set(ids).size).toBe(150);
      for (const id of ids) {
        expect(id).toMatch(TYPEABLE);
        expect(scheduleIdOf(id)).toBe(id);
      }
      expect(await s.schedules.count(A)).toBe(150);
      expect(new Set((await s.schedules.list(A)).map((x) => x.id))).toEqual(new Set(ids));
    });
  });

  describe("due", () => {
    it("answers the active schedules due at an instant, soonest first, at most `limit`, of every workspace", async () => {
      const s = await backend.open();
      const late = await s.schedules.add(daily({ nextRunAt: NOW + 3 * HOUR }));
      const soon = await s.schedules.add(daily({ workspace: B, nextRunAt: NOW + HOUR }));
      const middle = await s.schedules.add(daily({ workspace: "", nextRunAt: NOW + 2 * HOUR }));
      const future = await s.schedules.add(daily({ nextRunAt: NOW + DAY }));
      const ids = (list: ReportSchedule[]) => list.map((x) => x.id);
      expect(await s.schedules.due(NOW, 10)).toEqual([]);
      // At the instant itself: due.
      expect(ids(await s.schedules.due(NOW + HOUR, 10))).toEqual([soon.id]);
      expect(ids(await s.schedules.due(NOW + 3 * HOUR, 10))).toEqual([soon.id, middle.id, late.id]);
      expect(ids(await s.schedules.due(NOW + 3 * HOUR, 2))).toEqual([soon.id, middle.id]);
      expect(await s.schedules.due(NOW + 3 * HOUR, 0)).toEqual([]);
      expect(ids(await s.schedules.due(NOW + 2 * DAY, 10))).toEqual([soon.id, middle.id, late.id, future.id]);
      expect((await s.schedules.due(NOW + HOUR, 1))[0]).toEqual(soon);
    });

    it("a paused schedule is never due; resumed, it is again", async () => {
      const s = await backend.open();
      const one = await s.schedules.add(daily({ nextRunAt: NOW - HOUR }));
      const other = await s.schedules.add(daily({ nextRunAt: NOW }));
      await s.schedules.setState(A, one.id, { state: "paused", because: "user" });
      expect((await s.schedules.due(NOW + DAY, 10)).map((x) => x.id)).toEqual([other.id]);
      await s.schedules.setState(A, other.id, { state: "paused", because: "left-channel" });
      expect(await s.schedules.due(NOW + 100 * DAY, 10)).toEqual([]);
      await s.schedules.setState(A, one.id, { state: "active", nextRunAt: NOW + HOUR });
      expect((await s.schedules.due(NOW + DAY, 10)).map((x) => [x.id, x.nextRunAt])).toEqual([
        [one.id, NOW + HOUR],
      ]);
    });
  });

  describe("claimRun", () => {
    it("moves the schedule to its next run and records the claimed one; the run is not due again", async () => {
      const s = await backend.open();
      const added = await s.schedules.add(daily({ nextRunAt: NOW }));
      s.clock.now = NOW + 5_000;
      expect(
        await s.schedules.claimRun(A, added.id, NOW, { nextRunAt: NOW + DAY, madeAt: NOW + 5_000 }),
      ).toBe(true);
      expect(await s.schedules.get(A, added.id)).toEqual({
        ...added,
        nextRunAt: NOW + DAY,
        lastRunAt: NOW,
        lastRunMadeAt: NOW + 5_000,
      });
      expect(await s.schedules.due(NOW + HOUR, 10)).toEqual([]);
      expect((await s.schedules.due(NOW + DAY, 10)).map((x) => x.id)).toEqual([added.id]);
    });

    it("exactly one of many concurrent claims of the same run wins, across replicas", async () => {
      const s = await backend.open();
      const other = s.replica();
      const added = await s.schedules.add(daily({ nextRunAt: NOW }));
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? s : other).schedules.claimRun(A, added.id, NOW, {
            nextRunAt: NOW + DAY + i,
            madeAt: NOW + i,
          }),
        ),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
      const winner = claims.indexOf(true);
      expect(await other.schedules.get(A, added.id)).toMatchObject({
        nextRunAt: NOW + DAY + winner,
        lastRunAt: NOW,
        lastRunMadeAt: NOW + winner,
      });
    });

    it("a stale expected instant loses; so does a paused, removed or unknown schedule", async () => {
      const s = await backend.open();
      const added = await s.schedules.add(daily({ nextRunAt: NOW }));
      const next = { nextRunAt: NOW + DAY, madeAt: NOW };
      expect(await s.schedules.claimRun(A, added.id, NOW - DAY, next)).toBe(false);
      expect(await s.schedules.claimRun(A, added.id, NOW, next)).toBe(true);
      // The same run again: already claimed.
      expect(await s.schedules.claimRun(A, added.id, NOW, { nextRunAt: NOW + 2 * DAY, madeAt: NOW })).toBe(
        false,
      );
      expect((await s.schedules.get(A, added.id))?.nextRunAt).toBe(NOW + DAY);

      const paused = await s.schedules.add(daily({ nextRunAt: NOW }));
      await s.schedules.setState(A, paused.id, { state: "paused", because: "failures" });
      expect(await s.schedules.claimRun(A, paused.id, NOW, next)).toBe(false);
      expect(await s.schedules.get(A, paused.id)).toMatchObject({ state: "paused", nextRunAt: NOW });
      expect((await s.schedules.get(A, paused.id))?.lastRunAt).toBeUndefined();

      // Another workspace's id, a removed one, one never made.
      expect(await s.schedules.claimRun(B, added.id, NOW + DAY, next)).toBe(false);
      const removed = await s.schedules.add(daily({ nextRunAt: NOW }));
      await s.schedules.remove(A, removed.id);
      expect(await s.schedules.claimRun(A, removed.id, NOW, next)).toBe(false);
      expect(await s.schedules.claimRun(A, "ZZZZZZ", NOW, next)).toBe(false);
      expect(await s.schedules.get(A, removed.id)).toBeUndefined();
    });
  });

  describe("recordOutcome", () => {
    it("counts failures in a row, skipped leaves them, ok resets them; keeps the last task and outcome", async () => {
      const s = await backend.open();
      const added = await s.schedules.add(daily());
      const failed = await s.schedules.recordOutcome(A, added.id, { taskId: "t1", result: "failed" });
      expect(failed).toEqual({ ...added, failuresInRow: 1, lastTaskId: "t1", lastOutcome: "failed" });
      expect(await s.schedules.recordOutcome(A, added.id, { taskId: "t2", result: "failed" })).toMatchObject({
        failuresInRow: 2,
        lastTaskId: "t2",
      });
      // Skipped (no task): the failures stay, the last task is no longer one of this run.
      const skipped = await s.schedules.recordOutcome(A, added.id, { result: "skipped" });
      expect(skipped).toMatchObject({ failuresInRow: 2, lastOutcome: "skipped" });
      expect(skipped && "lastTaskId" in skipped).toBe(false);
      expect(await s.schedules.recordOutcome(A, added.id, { taskId: "t3", result: "failed" })).toMatchObject({
        failuresInRow: 3,
      });
      const ok = await s.schedules.recordOutcome(A, added.id, { taskId: "t4", result: "ok" });
      expect(ok).toEqual({ ...added, failuresInRow: 0, lastTaskId: "t4", lastOutcome: "ok" });
      expect(await s.schedules.get(A, added.id)).toEqual(ok);
      expect(await s.schedules.recordOutcome(B, added.id, { result: "ok" })).toBeUndefined();
      expect(await s.schedules.recordOutcome(A, "ZZZZ", { result: "ok" })).toBeUndefined();
    });

    it("skipped runs add up until a run is made, which clears them; none is absent", async () => {
      const s = await backend.open();
      const other = s.replica();
      const added = await s.schedules.add(daily());
      expect(added).not.toHaveProperty("skippedRuns");
      expect(await s.schedules.recordOutcome(A, added.id, { result: "skipped", skipped: 3 })).toMatchObject({
        skippedRuns: 3,
        lastOutcome: "skipped",
      });
      // Another replica's skip, one by default, adds to them.
      expect(await other.schedules.recordOutcome(A, added.id, { result: "skipped" })).toMatchObject({
        skippedRuns: 4,
      });
      expect((await s.schedules.get(A, added.id))?.skippedRuns).toBe(4);
      const made = await s.schedules.recordOutcome(A, added.id, { taskId: "t1", result: "failed" });
      expect(made).not.toHaveProperty("skippedRuns");
      expect(await s.schedules.get(A, added.id)).toEqual(made);
    });

    it("concurrent failures are each counted", async () => {
      const s = await backend.open();
      const other = s.replica();
      const added = await s.schedules.add(daily());
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 === 0 ? s : other).schedules.recordOutcome(A, added.id, { result: "failed" }),
        ),
      );
      expect((await s.schedules.get(A, added.id))?.failuresInRow).toBe(10);
    });
  });

  describe("setState", () => {
    it("pauses with why and resumes with the next run (the reason and the failures go)", async () => {
      const s = await backend.open();
      const added = await s.schedules.add(daily());
      await s.schedules.recordOutcome(A, added.id, { taskId: "t1", result: "failed" });
      const paused = await s.schedules.setState(A, added.id, { state: "paused", because: "failures" });
      expect(paused).toEqual({
        ...added,
        state: "paused",
        pausedBecause: "failures",
        failuresInRow: 1,
        lastTaskId: "t1",
        lastOutcome: "failed",
      });
      // Paused again for another reason: the latest one.
      expect(await s.schedules.setState(A, added.id, { state: "paused", because: "user" })).toMatchObject({
        pausedBecause: "user",
      });
      const resumed = await s.schedules.setState(A, added.id, { state: "active", nextRunAt: NOW + 2 * DAY });
      expect(resumed).toEqual({
        ...added,
        nextRunAt: NOW + 2 * DAY,
        lastTaskId: "t1",
        lastOutcome: "failed",
      });
      expect(await s.schedules.get(A, added.id)).toEqual(resumed);
      expect(await s.schedules.setState(B, added.id, { state: "paused", because: "user" })).toBeUndefined();
      expect(await s.schedules.setState(A, "ZZZZ", { state: "active", nextRunAt: NOW })).toBeUndefined();
    });
  });

  describe("remove and deleteWorkspace", () => {
    it("removes one, saying whether it existed; it is gone from the list, the count and due", async () => {
      const s = await backend.open();
      const gone = await s.schedules.add(daily({ nextRunAt: NOW }));
      const kept = await s.schedules.add(daily({ nextRunAt: NOW }));
      expect(await s.schedules.remove(B, gone.id)).toBe(false);
      expect(await s.schedules.remove(A, gone.id.toLowerCase())).toBe(true);
      expect(await s.schedules.remove(A, gone.id)).toBe(false);
      expect(await s.schedules.get(A, gone.id)).toBeUndefined();
      expect((await s.schedules.list(A)).map((x) => x.id)).toEqual([kept.id]);
      expect(await s.schedules.count(A)).toBe(1);
      expect((await s.schedules.due(NOW, 10)).map((x) => x.id)).toEqual([kept.id]);
    });

    it("deleteWorkspace drops that workspace's schedules only and says how many", async () => {
      const s = await backend.open();
      await s.schedules.add(daily({ nextRunAt: NOW }));
      const paused = await s.schedules.add(daily({ channel: "C2" }));
      await s.schedules.setState(A, paused.id, { state: "paused", because: "unlinked" });
      const b = await s.schedules.add(daily({ workspace: B, nextRunAt: NOW }));
      const single = await s.schedules.add(daily({ workspace: "", nextRunAt: NOW }));
      expect(await s.schedules.deleteWorkspace(A)).toBe(2);
      expect(await s.schedules.deleteWorkspace(A)).toBe(0);
      expect(await s.schedules.list(A)).toEqual([]);
      expect(await s.schedules.count(A)).toBe(0);
      expect((await s.schedules.due(NOW, 10)).map((x) => x.id).sort()).toEqual([b.id, single.id].sort());
      expect(await s.schedules.count(B)).toBe(1);
      if (name === "redis") expect(await s.rawContains(A)).toBe(false);
      // The single workspace's too, when asked.
      expect(await s.schedules.deleteWorkspace("")).toBe(1);
      expect((await s.schedules.due(NOW, 10)).map((x) => x.id)).toEqual([b.id]);
    });
  });
});
