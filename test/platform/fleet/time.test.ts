import { describe, expect, it } from "vitest";
import {
  formatCompanyLocal,
  formatDurationHours,
  formatUtcIso,
  parseDurationSeconds,
  parseLooseServiceDate,
  parseServiceDate,
} from "../../../src/platform/fleet/time.js";

const TZ = "Europe/Bucharest";
const iso = (s: string, tz = TZ) => parseServiceDate(s, tz)?.toISOString();

describe("parseServiceDate", () => {
  it("reads a bare date as company-local wall time (EEST in summer, EET in winter)", () => {
    expect(iso("2024-09-09T08:52:55")).toBe("2024-09-09T05:52:55.000Z");
    expect(iso("2026-11-03T14:05:00")).toBe("2026-11-03T12:05:00.000Z");
  });

  it("accepts 0 to 7 fractional digits, truncating beyond milliseconds", () => {
    expect(iso("2024-09-09T08:52:55.005")).toBe("2024-09-09T05:52:55.005Z");
    expect(iso("2024-09-09T08:52:55.5")).toBe("2024-09-09T05:52:55.500Z");
    expect(iso("2024-09-09T08:52:55.1234567")).toBe("2024-09-09T05:52:55.123Z");
    expect(iso("2024-09-09T08:52")).toBe("2024-09-09T05:52:00.000Z");
  });

  it("takes Z and explicit offsets as given", () => {
    expect(iso("2025-04-09T07:38:24.380Z")).toBe("2025-04-09T07:38:24.380Z");
    expect(iso("2025-04-09T07:38:24.3801234z")).toBe("2025-04-09T07:38:24.380Z");
    expect(iso("2025-04-09T10:38:24+03:00")).toBe("2025-04-09T07:38:24.000Z");
    expect(iso("2025-04-09T05:38:24-0200")).toBe("2025-04-09T07:38:24.000Z");
  });

  it("accepts a space instead of T", () => {
    expect(iso("2024-09-09 08:52:55")).toBe("2024-09-09T05:52:55.000Z");
  });

  it("handles the spring-forward day: the hour 03:00–04:00 does not exist and moves forward", () => {
    // 2025-03-30: 03:00 EET jumps to 04:00 EEST.
    expect(iso("2025-03-30T02:59:59")).toBe("2025-03-30T00:59:59.000Z");
    expect(iso("2025-03-30T03:30:00")).toBe("2025-03-30T01:30:00.000Z");
    expect(iso("2025-03-30T04:00:00")).toBe("2025-03-30T01:00:00.000Z");
    expect(iso("2025-03-30T12:00:00")).toBe("2025-03-30T09:00:00.000Z");
  });

  it("handles the fall-back day: the repeated hour takes the earlier instant", () => {
    // 2025-10-26: 04:00 EEST goes back to 03:00 EET.
    expect(iso("2025-10-26T02:59:00")).toBe("2025-10-25T23:59:00.000Z");
    expect(iso("2025-10-26T03:30:00")).toBe("2025-10-26T00:30:00.000Z");
    expect(iso("2025-10-26T04:00:00")).toBe("2025-10-26T02:00:00.000Z");
  });

  it("rejects what is not a date", () => {
    for (const s of [
      "",
      "yesterday",
      "2025-02-30T10:00:00",
      "2025-13-01T00:00:00",
      "2025-01-01T24:00:00",
      "2025-01-01",
    ]) {
      expect(parseServiceDate(s, TZ), s).toBeUndefined();
    }
  });

  it("does not depend on the process time zone", () => {
    expect(iso("2024-01-15T10:00:00", "UTC")).toBe("2024-01-15T10:00:00.000Z");
    expect(iso("2024-01-15T10:00:00", "America/New_York")).toBe("2024-01-15T15:00:00.000Z");
  });
});

describe("parseLooseServiceDate (refill dates, format not documented)", () => {
  it("reads ISO-like, dd.MM.yyyy HH:mm(:ss) and yyyy-MM-dd HH:mm:ss as company-local", () => {
    expect(parseLooseServiceDate("2025-04-11T14:33:30.175", TZ)?.toISOString()).toBe(
      "2025-04-11T11:33:30.175Z",
    );
    expect(parseLooseServiceDate("11.04.2025 14:33", TZ)?.toISOString()).toBe("2025-04-11T11:33:00.000Z");
    expect(parseLooseServiceDate("1.4.2025 14:33:05", TZ)?.toISOString()).toBe("2025-04-01T11:33:05.000Z");
    expect(parseLooseServiceDate("2025-04-11 14:33:30", TZ)?.toISOString()).toBe("2025-04-11T11:33:30.000Z");
    expect(parseLooseServiceDate("string", TZ)).toBeUndefined();
  });
});

describe("formatting", () => {
  it("formatCompanyLocal writes company wall time without offset or fraction", () => {
    expect(formatCompanyLocal(new Date("2026-11-03T12:05:00.789Z"), TZ)).toBe("2026-11-03T14:05:00");
    expect(formatCompanyLocal(new Date("2025-07-01T21:30:00Z"), TZ)).toBe("2025-07-02T00:30:00");
  });

  it("formatCompanyLocal and parseServiceDate round-trip to the second", () => {
    const d = new Date("2025-10-26T00:30:00Z"); // first 03:30 of the fall-back day
    expect(parseServiceDate(formatCompanyLocal(d, TZ), TZ)?.toISOString()).toBe(d.toISOString());
  });

  it("formatUtcIso writes UTC with milliseconds and Z", () => {
    expect(formatUtcIso(new Date(Date.UTC(2025, 3, 9, 7, 38, 24, 380)))).toBe("2025-04-09T07:38:24.380Z");
  });
});

describe("durations", () => {
  it("reads hours:minutes:seconds and .NET day notation", () => {
    expect(parseDurationSeconds("12:30:05")).toBe(45005);
    expect(parseDurationSeconds("49:05:00")).toBe(176700);
    expect(parseDurationSeconds("1.02:00:00")).toBe(93600);
    expect(parseDurationSeconds("00:10:00.1234567")).toBe(600);
    expect(parseDurationSeconds("ten hours")).toBeUndefined();
  });

  it("writes hours unbounded", () => {
    expect(formatDurationHours(176700)).toBe("49:05:00");
    expect(formatDurationHours(0)).toBe("0:00:00");
  });
});
