import { describe, expect, it } from "vitest";
import { cronTickMs, sweepHealth } from "../../../src/features/alerts/sweepHealth.js";

describe("alert sweep health (issue 23, item 6)", () => {
  it("measures a tick from the cron expression", () => {
    expect(cronTickMs("* * * * * *")).toBe(1_000);
    expect(cronTickMs("*/5 * * * *", "Europe/Bucharest")).toBe(300_000);
  });

  it("is late once no sweep completed within three ticks, counted from the last sweep or the start", () => {
    const t0 = Date.UTC(2026, 10, 3, 8, 0, 0);
    const tickMs = 60_000;
    expect(sweepHealth({ lastSweepAt: undefined, startedAt: t0, tickMs, now: t0 + 3 * tickMs })).toEqual({
      lastSweep: null,
      state: "ok",
    });
    expect(
      sweepHealth({ lastSweepAt: undefined, startedAt: t0, tickMs, now: t0 + 3 * tickMs + 1 }).state,
    ).toBe("late");
    const last = t0 + 10 * tickMs;
    expect(sweepHealth({ lastSweepAt: last, startedAt: t0, tickMs, now: last + 2 * tickMs })).toEqual({
      lastSweep: new Date(last).toISOString(),
      state: "ok",
    });
    expect(sweepHealth({ lastSweepAt: last, startedAt: t0, tickMs, now: last + 3 * tickMs + 1 }).state).toBe(
      "late",
    );
  });
});
