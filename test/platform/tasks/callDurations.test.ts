import { describe, expect, it } from "vitest";
import { CallDurations } from "../../../src/platform/tasks/callDurations.js";

describe("CallDurations", () => {
  it("forgets an account without a call for the idle time, keeps an active one's average", () => {
    let now = 0;
    const durations = new CallDurations(0.5, { idleMs: 60 * 60_000, now: () => now });
    durations.record("tried-once", 800);
    durations.record("busy", 400);
    for (let minute = 10; minute <= 120; minute += 10) {
      now = minute * 60_000;
      durations.record("busy", 400);
    }
    expect(durations.knownAccounts()).toEqual(["busy"]);
    expect(durations.typicalMs("tried-once")).toBeUndefined();
    expect(durations.typicalMs("busy")).toBe(400);
  });
});
