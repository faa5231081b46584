import { describe, expect, it } from "vitest";
import { type ClaimedRun, ScheduleTicker } from "../../../src/features/schedules/scheduleTicker.js";
import { describeContract } from "../../platform/store/contract/backends.js";
import { dailyFuel } from "./scheduleFixtures.js";

/**
 * Exactly one run per scheduled time (issue 34): two replicas ticking at once make each run once,
 * and a run missed while fleetbot was down is made once, late, when it is back — on both backends.
 */
const HOUR = 3_600_000;
const at730 = (day: number) => Date.UTC(2026, 10, day, 5, 30);

const daily = (nextRunAt: number) => dailyFuel({ nextRunAt });

describeContract("ScheduleTicker", (backend) => {
  it("two replicas ticking at the same moment make each due run once", async () => {
    const set = await backend.open();
    for (let i = 0; i < 10; i++) await set.schedules.add(daily(at730(29)));
    const replica = set.replica();
    let now = at730(29) + 20_000;
    const made: ClaimedRun[] = [];
    const start = async (run: ClaimedRun) => {
      made.push(run);
    };
    const a = new ScheduleTicker(set.schedules, start, () => now);
    const b = new ScheduleTicker(replica.schedules, start, () => now);
    const [ra, rb] = await Promise.all([a.tick(), b.tick()]);
    expect(ra.length + rb.length).toBe(10);
    expect(new Set(made.map((r) => r.schedule.id)).size).toBe(10);
    expect(made.every((r) => r.scheduledAt === at730(29) && !r.late)).toBe(true);
    // The next tick the same minute makes nothing; the next day's makes each once more.
    expect([...(await a.tick()), ...(await b.tick())]).toHaveLength(0);
    now = at730(30) + 10_000;
    const [na, nb] = await Promise.all([a.tick(), b.tick()]);
    expect(na.length + nb.length).toBe(10);
  });

  it("a run missed while fleetbot was down is made once, marked late, after the restart", async () => {
    const set = await backend.open();
    const added = await set.schedules.add(daily(at730(27)));
    const made: ClaimedRun[] = [];
    // Back on the 29th at 10:30 Bucharest: the 27th's and 28th's are skipped, the 29th's made late.
    const ticker = new ScheduleTicker(
      set.replica().schedules,
      async (run) => {
        made.push(run);
      },
      () => at730(29) + 3 * HOUR,
    );
    await ticker.tick();
    await ticker.tick();
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ scheduledAt: at730(29), late: true, skipped: 2 });
    expect((await set.schedules.get(added.workspace, added.id))?.nextRunAt).toBe(at730(30));
  });

  it("runs skipped by a tick that made none are all said by the next run made, then cleared", async () => {
    const set = await backend.open();
    const added = await set.schedules.add(daily(at730(20)));
    const made: ClaimedRun[] = [];
    let now = at730(23) + 20 * HOUR; // the 20th to the 23rd missed, the latest 20 h ago: none made
    const ticker = new ScheduleTicker(
      set.schedules,
      async (run) => {
        made.push(run);
      },
      () => now,
    );
    expect(await ticker.tick()).toEqual([]);
    expect(await set.schedules.get(added.workspace, added.id)).toMatchObject({
      lastOutcome: "skipped",
      skippedRuns: 4,
      nextRunAt: at730(24),
    });
    // Down again over the 24th and 25th, back 2 h after the 26th's: it is made, late, saying all 6.
    now = at730(26) + 2 * HOUR;
    await ticker.tick();
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ scheduledAt: at730(26), late: true, skipped: 6 });
    await set.schedules.recordOutcome(added.workspace, added.id, { taskId: "t1", result: "ok" });
    now = at730(27) + 60_000;
    await ticker.tick();
    expect(made[1]).toMatchObject({ scheduledAt: at730(27), late: false, skipped: 0 });
  });
});

describe("a schedule whose recurrence cannot be read", () => {
  it("is never claimed", async () => {
    const claims: unknown[] = [];
    const ticker = new ScheduleTicker(
      {
        due: async () => [
          {
            ...daily(0),
            id: "AAAA",
            recurrence: { every: "day", time: "99:99" },
            state: "active",
            failuresInRow: 0,
            createdAt: 0,
          },
        ],
        claimRun: async (...args) => {
          claims.push(args);
          return true;
        },
        recordOutcome: async () => undefined,
      },
      async () => undefined,
      () => at730(29),
    );
    expect(await ticker.tick()).toEqual([]);
    expect(claims).toEqual([]);
  });
});

describeContract("ScheduleTicker ahead of time and on a fault", (backend) => {
  it("claims a run its lead ahead (on time, read at its own instant), not earlier", async () => {
    const set = await backend.open();
    const added = await set.schedules.add(daily(at730(29)));
    let now = at730(29) - 5 * 60_000;
    const made: ClaimedRun[] = [];
    const ticker = new ScheduleTicker(
      set.schedules,
      async (run) => {
        made.push(run);
      },
      () => now,
      100,
      { leadMs: async () => 3 * 60_000, maxLeadMs: 30 * 60_000 },
    );
    expect(await ticker.tick()).toEqual([]);
    now = at730(29) - 3 * 60_000;
    expect((await ticker.tick()).map((r) => [r.scheduledAt, r.late])).toEqual([[at730(29), false]]);
    expect((await set.schedules.get(added.workspace, added.id))?.nextRunAt).toBe(at730(30));
    now = at730(29) + 60_000;
    expect(await ticker.tick()).toEqual([]);
    expect(made).toHaveLength(1);
  });

  it("a claimed run whose start throws counts as a failed run, and the tick goes on to the next", async () => {
    const set = await backend.open();
    const first = await set.schedules.add(daily(at730(29)));
    const second = await set.schedules.add(daily(at730(29)));
    const started: string[] = [];
    const errors: string[] = [];
    const ticker = new ScheduleTicker(
      set.schedules,
      async (run) => {
        if (run.schedule.id === first.id) throw new Error("store unreachable");
        started.push(run.schedule.id);
      },
      () => at730(29) + 10_000,
      100,
      undefined,
      (error, schedule) => errors.push(`${schedule.id}: ${String(error)}`),
    );
    expect(await ticker.tick()).toHaveLength(2);
    expect(started).toEqual([second.id]);
    expect(errors).toEqual([`${first.id}: Error: store unreachable`]);
    const failed = await set.schedules.get(first.workspace, first.id);
    expect(failed).toMatchObject({ lastOutcome: "failed", failuresInRow: 1, nextRunAt: at730(30) });
  });
});
