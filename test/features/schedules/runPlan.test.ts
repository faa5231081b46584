import { describe, expect, it } from "vitest";
import { decideRun } from "../../../src/features/schedules/runPlan.js";

const BUC = "Europe/Bucharest";
const daily = { recurrence: { every: "day", time: "07:30" } as const, timeZone: BUC };
const at730 = (day: number) => Date.UTC(2026, 10, day, 5, 30);
const HOUR = 3_600_000;

describe("what a due schedule does now", () => {
  it("not due yet: nothing", () => {
    expect(decideRun({ ...daily, nextRunAt: at730(30) }, at730(29) + HOUR)).toEqual({
      skipped: 0,
      nextRunAt: at730(30),
    });
  });

  it("on time: its run, then tomorrow's", () => {
    expect(decideRun({ ...daily, nextRunAt: at730(29) }, at730(29) + 30_000)).toEqual({
      run: { scheduledAt: at730(29), late: false },
      skipped: 0,
      nextRunAt: at730(30),
    });
  });

  it("missed while fleetbot was down, back within 12 hours: made once, late; older misses skipped", () => {
    const d = decideRun({ ...daily, nextRunAt: at730(26) }, at730(29) + 3 * HOUR);
    expect(d).toEqual({ run: { scheduledAt: at730(29), late: true }, skipped: 3, nextRunAt: at730(30) });
  });

  it("missed by more than 12 hours: none made, all skipped, the next one kept", () => {
    const d = decideRun({ ...daily, nextRunAt: at730(28) }, at730(28) + 13 * HOUR);
    expect(d).toEqual({ skipped: 1, nextRunAt: at730(29) });
  });
});
