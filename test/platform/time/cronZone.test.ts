/**
 * Alert checks every hour of the year (issue 29's calendar run found the gap): read in
 * Europe/Bucharest, node-cron 4.6 put the next run of "every 2 seconds" an hour late during the
 * first pass of the repeated hour on the last Sunday of October. Expressions that name no hour or
 * day are read in UTC; the others keep the company zone.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { AlertPoller } from "../../../src/features/alerts/poller.js";
import { cronTickMs, nextCronRunMs } from "../../../src/features/alerts/sweepHealth.js";
import { cronZone } from "../../../src/platform/time/cronZone.js";

const ZONE = "Europe/Bucharest";

describe("cronZone", () => {
  it.each([
    ["*/2 * * * * *", "UTC"],
    ["* * * * *", "UTC"],
    ["*/5 * * * *", "UTC"],
    ["30 * * * * *", "UTC"],
    ["0 8 * * *", ZONE],
    ["*/1 6-22 * * *", ZONE],
    ["0 7 * * 1-5", ZONE],
    ["0 0 1 * *", ZONE],
  ])("%s is read in %s", (expression, zone) => {
    expect(cronZone(expression, ZONE)).toBe(zone);
  });

  it("keeps a zone whose offset is not whole hours, and no zone when none is given", () => {
    expect(cronZone("* * * * *", "Asia/Kolkata")).toBe("Asia/Kolkata");
    expect(cronZone("* * * * *", undefined)).toBeUndefined();
  });
});

describe("the alert schedule on the last Sunday of October", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  // 03:30 EEST on 31 October 2027, the first pass of the hour the clocks repeat.
  const REPEATED_HOUR = Date.parse("2027-10-31T00:30:00Z");

  it("the next check of 'every 2 seconds' is within 2 seconds, not an hour later", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(REPEATED_HOUR);
    expect(nextCronRunMs("*/2 * * * * *", ZONE)! - REPEATED_HOUR).toBeLessThanOrEqual(2_000);
    expect(cronTickMs("*/2 * * * * *", ZONE)).toBe(2_000);
    const poller = new AlertPoller({
      store: {} as never,
      publisher: {
        post: async () => ({ ts: "1" }),
        markResolved: async () => {},
        replyResolved: async () => ({ ts: "1" }),
      },
      sessionFor: () => {
        throw new Error("no sweep in this test");
      },
      timeZone: ZONE,
    });
    poller.start("*/2 * * * * *");
    try {
      expect(poller.nextRunAt()! - REPEATED_HOUR).toBeLessThanOrEqual(2_000);
    } finally {
      await poller.stop();
    }
  });

  it("a digest at 08:00 stays at 08:00 Bucharest time", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(REPEATED_HOUR);
    // 08:00 EET on 31 October is 06:00 UTC.
    expect(nextCronRunMs("0 8 * * *", ZONE)).toBe(Date.parse("2027-10-31T06:00:00Z"));
  });
});
