import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assertTimeZone, instantToWall, isTimeZone, wallToInstant } from "../../../src/platform/time/zone.js";

const BUCHAREST = "Europe/Bucharest";
const wall = (iso: string): number => Date.parse(`${iso}Z`);

describe("isTimeZone / assertTimeZone", () => {
  it("knows IANA zones and refuses the rest, the same on a second ask", () => {
    for (let round = 0; round < 2; round++) {
      expect(isTimeZone(BUCHAREST)).toBe(true);
      expect(isTimeZone("UTC")).toBe(true);
      expect(isTimeZone("Mars/Olympus")).toBe(false);
      expect(isTimeZone("")).toBe(false);
    }
    expect(() => assertTimeZone("Mars/Olympus")).toThrow(RangeError);
    expect(() => assertTimeZone(BUCHAREST)).not.toThrow();
  });
});

describe("instantToWall", () => {
  it("is the zone's wall clock written as UTC (EET in winter, EEST in summer)", () => {
    expect(instantToWall(new Date("2026-01-15T10:00:00Z"), BUCHAREST)).toBe(wall("2026-01-15T12:00:00"));
    expect(instantToWall(new Date("2026-07-15T10:00:00Z"), BUCHAREST)).toBe(wall("2026-07-15T13:00:00"));
    expect(instantToWall(new Date("2026-07-15T10:00:00Z"), "UTC")).toBe(wall("2026-07-15T10:00:00"));
  });
});

describe("wallToInstant", () => {
  it("resolves a wall time in the spring-forward gap forward, or before the gap when asked", () => {
    // 2025-03-30 in Bucharest: 03:00 EET jumps to 04:00 EEST.
    expect(wallToInstant(wall("2025-03-30T03:30:00"), BUCHAREST).toISOString()).toBe(
      "2025-03-30T01:30:00.000Z",
    );
    expect(wallToInstant(wall("2025-03-30T03:30:00"), BUCHAREST, "before").toISOString()).toBe(
      "2025-03-30T00:30:00.000Z",
    );
  });

  it("takes the earlier instant of a repeated wall time (fall back)", () => {
    // 2025-10-26 in Bucharest: 04:00 EEST goes back to 03:00 EET, so 03:30 happens twice.
    expect(wallToInstant(wall("2025-10-26T03:30:00"), BUCHAREST).toISOString()).toBe(
      "2025-10-26T00:30:00.000Z",
    );
    expect(wallToInstant(wall("2025-10-26T03:30:00"), BUCHAREST, "before").toISOString()).toBe(
      "2025-10-26T00:30:00.000Z",
    );
  });

  it("inverts instantToWall for every instant, except the later of two repeated wall times", () => {
    const zones = [BUCHAREST, "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "UTC"];
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }),
        fc.constantFrom(...zones),
        (ms, zone) => {
          const w = instantToWall(new Date(ms), zone);
          const back = wallToInstant(w, zone).getTime();
          // Either the same instant, or an earlier one that shows the same wall clock (fall back).
          expect(back <= ms).toBe(true);
          expect(instantToWall(new Date(back), zone)).toBe(w);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("never shows a later wall time than asked with gap 'before', and never an earlier one with 'after'", () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }), (w) => {
        expect(instantToWall(wallToInstant(w, BUCHAREST, "before"), BUCHAREST)).toBeLessThanOrEqual(w);
        expect(instantToWall(wallToInstant(w, BUCHAREST, "after"), BUCHAREST)).toBeGreaterThanOrEqual(w);
      }),
      { numRuns: 500 },
    );
  });
});
