import { describe, expect, it } from "vitest";
import { missedRuns, nextRunAfter } from "../../../src/features/schedules/recurrence.js";

const BUC = "Europe/Bucharest";
const iso = (ms: number | undefined) => (ms === undefined ? "none" : new Date(ms).toISOString());

describe("the next run of a schedule, in the author's zone", () => {
  it("every day at 07:30 stays 07:30 in Bucharest across both clock changes (its UTC moves)", () => {
    // Summer time ends on Sunday 25 October 2026 at 04:00 → 03:00.
    const before = nextRunAfter({ every: "day", time: "07:30" }, BUC, Date.UTC(2026, 9, 24, 5, 0));
    expect(iso(before)).toBe("2026-10-25T05:30:00.000Z");
    const after = nextRunAfter({ every: "day", time: "07:30" }, BUC, before!);
    expect(iso(after)).toBe("2026-10-26T05:30:00.000Z");
    // Summer time starts on Sunday 29 March 2026 at 03:00 → 04:00.
    const spring = nextRunAfter({ every: "day", time: "07:30" }, BUC, Date.UTC(2026, 2, 28, 6, 0));
    expect(iso(spring)).toBe("2026-03-29T04:30:00.000Z");
  });

  it("on the day the clocks move, the skipped hour runs right after the gap, the repeated hour once", () => {
    const gap = nextRunAfter({ every: "day", time: "03:30" }, BUC, Date.UTC(2026, 2, 28, 12, 0));
    expect(iso(gap)).toBe("2026-03-29T01:30:00.000Z");
    const repeated = nextRunAfter({ every: "day", time: "03:30" }, BUC, Date.UTC(2026, 9, 24, 12, 0));
    expect(iso(repeated)).toBe("2026-10-25T00:30:00.000Z");
    const next = nextRunAfter({ every: "day", time: "03:30" }, BUC, repeated!);
    expect(iso(next)).toBe("2026-10-26T01:30:00.000Z");
  });

  it("every weekday skips Saturday and Sunday; every monday is a Monday", () => {
    // Friday 27 November 2026, after 07:30: next is Monday 30.
    const friday = Date.UTC(2026, 10, 27, 6, 0);
    expect(iso(nextRunAfter({ every: "weekday", time: "07:30" }, BUC, friday))).toBe(
      "2026-11-30T05:30:00.000Z",
    );
    expect(iso(nextRunAfter({ every: "week", weekday: 1, time: "08:00" }, BUC, friday))).toBe(
      "2026-11-30T06:00:00.000Z",
    );
  });

  it("every month on 31 runs on the last day of shorter months", () => {
    const r = { every: "month", day: 31, time: "08:00" } as const;
    const jan = nextRunAfter(r, BUC, Date.UTC(2027, 0, 15));
    expect(iso(jan)).toBe("2027-01-31T06:00:00.000Z");
    const feb = nextRunAfter(r, BUC, jan!);
    expect(iso(feb)).toBe("2027-02-28T06:00:00.000Z");
    const apr = nextRunAfter(r, BUC, nextRunAfter(r, BUC, feb!)!);
    expect(iso(apr)).toBe("2027-04-30T05:00:00.000Z");
  });

  it("an unreadable recurrence has no next run", () => {
    expect(nextRunAfter({ every: "day", time: "25:00" }, BUC, 0)).toBeUndefined();
    expect(nextRunAfter({ every: "month", day: 0, time: "08:00" }, BUC, 0)).toBeUndefined();
  });

  it("lists the runs missed while fleetbot was down", () => {
    const missed = missedRuns(
      { every: "day", time: "07:30" },
      BUC,
      Date.UTC(2026, 10, 26, 6),
      Date.UTC(2026, 10, 29, 10),
    );
    expect(missed.map(iso)).toEqual([
      "2026-11-27T05:30:00.000Z",
      "2026-11-28T05:30:00.000Z",
      "2026-11-29T05:30:00.000Z",
    ]);
  });
});
