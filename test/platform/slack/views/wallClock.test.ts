import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wallText } from "../../../../src/features/reports/format.js";
import { wallDateTime, wallDay } from "../../../../src/platform/slack/views/wallClock.js";

/** Zones with DST both ways, half- and quarter-hour offsets, a 30-minute DST shift, a date-line jump. */
const ZONES = [
  "UTC",
  "Europe/Bucharest",
  "Europe/London",
  "America/New_York",
  "America/St_Johns",
  "America/Sao_Paulo",
  "Asia/Kathmandu",
  "Asia/Kolkata",
  "Australia/Lord_Howe",
  "Pacific/Apia",
  "Pacific/Chatham",
  "Africa/Monrovia",
] as const;

const DATE_TIME = "d MMM yyyy HH:mm xxx";
const HOUR = 3_600_000;

describe("wall clock text (the date-fns text, from a cached Intl formatter)", () => {
  it("matches date-fns for any instant from 1950 to 2250 in zones with odd offsets and DST", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1950, 0, 1), max: Date.UTC(2250, 0, 1) }),
        fc.constantFrom(...ZONES),
        (ms, zone) => {
          expect(wallDateTime(ms, zone)).toBe(wallText(ms, zone, DATE_TIME));
          expect(wallDay(ms, zone)).toBe(wallText(ms, zone, "yyyy-MM-dd"));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("matches date-fns minute by minute around DST switches (Bucharest, New York, Lord Howe)", () => {
    const switches: [string, number][] = [
      ["Europe/Bucharest", Date.UTC(2026, 2, 29, 1)],
      ["Europe/Bucharest", Date.UTC(2026, 9, 25, 1)],
      ["America/New_York", Date.UTC(2026, 2, 8, 7)],
      ["America/New_York", Date.UTC(2026, 10, 1, 6)],
      ["Australia/Lord_Howe", Date.UTC(2026, 3, 4, 15)],
    ];
    for (const [zone, at] of switches) {
      for (let ms = at - 2 * HOUR; ms <= at + 2 * HOUR; ms += 60_000 - 1) {
        expect(wallDateTime(ms, zone)).toBe(wallText(ms, zone, DATE_TIME));
      }
    }
  });

  it("writes the known text of a Bucharest afternoon and a Kathmandu morning", () => {
    expect(wallDateTime(Date.UTC(2026, 10, 3, 12, 5, 59), "Europe/Bucharest")).toBe(
      "3 Nov 2026 14:05 +02:00",
    );
    expect(wallDateTime(Date.UTC(2026, 6, 1, 0, 0), "Asia/Kathmandu")).toBe("1 Jul 2026 05:45 +05:45");
    expect(wallDateTime(Date.UTC(2026, 0, 9, 23, 30), "America/St_Johns")).toBe("9 Jan 2026 20:00 -03:30");
    expect(wallDay(Date.UTC(2026, 10, 3, 22, 30), "Europe/Bucharest")).toBe("2026-11-04");
  });

  it("leaves instants before 1970 and zones Intl does not take to date-fns (same text, same errors)", () => {
    const early = Date.UTC(1900, 5, 1, 10);
    expect(wallDateTime(early, "Europe/Bucharest")).toBe(wallText(early, "Europe/Bucharest", DATE_TIME));
    expect(() => wallDateTime(Date.UTC(2026, 0, 1), "Not/AZone")).toThrow(RangeError);
    expect(() => wallText(Date.UTC(2026, 0, 1), "Not/AZone", DATE_TIME)).toThrow(RangeError);
  });
});
