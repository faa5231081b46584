import { describe, expect, it } from "vitest";
import { scheduleListMessage } from "../../../../../src/features/schedules/slack/views/scheduleList.js";
import type { ReportSchedule } from "../../../../../src/platform/store/contract/schedules.js";
import { textOf } from "../../../../helpers/botHarness.js";
import { dailyFuel } from "../../scheduleFixtures.js";

const schedule = (fields: Partial<ReportSchedule>): ReportSchedule => ({
  ...dailyFuel(),
  id: "7K2Q",
  state: "active",
  failuresInRow: 0,
  createdAt: 0,
  ...fields,
});

const listed = (s: ReportSchedule, language: "en" | "ro") =>
  textOf(scheduleListMessage({ channel: "C1", here: [s], ownElsewhere: [] }, language));

describe("/fleet schedules: the last run skipped", () => {
  it("says how many runs were skipped while fleetbot was down, in both languages", () => {
    const three = schedule({ lastOutcome: "skipped", skippedRuns: 3 });
    expect(listed(three, "en")).toContain("last 3 runs skipped (fleetbot was down more than 12 hours)");
    expect(listed(three, "ro")).toContain(
      "ultimele 3 rulări sărite (fleetbot a fost oprit mai mult de 12 ore)",
    );
    expect(listed(schedule({ lastOutcome: "skipped", skippedRuns: 20 }), "ro")).toContain(
      "ultimele 20 de rulări sărite",
    );
  });

  it("one, or a count not kept (stored before it was), reads as the last run", () => {
    for (const s of [
      schedule({ lastOutcome: "skipped", skippedRuns: 1 }),
      schedule({ lastOutcome: "skipped" }),
    ]) {
      expect(listed(s, "en")).toContain("last run skipped");
      expect(listed(s, "ro")).toContain("ultima rulare sărită");
    }
  });
});
