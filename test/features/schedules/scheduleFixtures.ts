import type { NewReportSchedule } from "../../../src/platform/store/contract/schedules.js";

/** The schedule the feature's tests start from: yesterday's fuel, every day at 07:30 in Bucharest. */
export const dailyFuel = (overrides: Partial<NewReportSchedule> = {}): NewReportSchedule => ({
  workspace: "T:ALPHA",
  channel: "C1",
  createdBy: "U1",
  command: "fuel all yesterday",
  recurrence: { every: "day", time: "07:30" },
  timeZone: "Europe/Bucharest",
  nextRunAt: Date.UTC(2026, 10, 30, 5, 30),
  ...overrides,
});
