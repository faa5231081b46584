import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_DAYS, MAX_HOURS, type Period, parseCommandLine, parsePeriod } from "../../src/commands/index.js";
import { withoutDiacritics } from "../../src/commands/period.js";
import { periodText } from "../../src/i18n/periodText.js";
import { msg } from "./problemText.js";

const BUC = "Europe/Bucharest";
const NY = "America/New_York";
const HOUR = 3_600_000;

function ok(text: string, timeZone: string, now: string): Period {
  const r = parsePeriod(text, { timeZone, now: new Date(now) });
  if (!r.ok) throw new Error(`expected ${text} to parse: ${msg(r)}`);
  return r.period;
}
const iso = (p: Period) => [p.from.toISOString(), p.to.toISOString()];

describe("parsePeriod: each form, Europe/Bucharest (now Sun 2026-11-22 12:00 local)", () => {
  const now = "2026-11-22T10:00:00.000Z";
  it.each([
    ["", "today", "2026-11-21T22:00:00.000Z", now],
    ["today", "today", "2026-11-21T22:00:00.000Z", now],
    ["TODAY", "today", "2026-11-21T22:00:00.000Z", now],
    ["yesterday", "yesterday", "2026-11-20T22:00:00.000Z", "2026-11-21T22:00:00.000Z"],
    ["last 3h", "hours", "2026-11-22T07:00:00.000Z", now],
    ["last 3 hours", "hours", "2026-11-22T07:00:00.000Z", now],
    ["last 1d", "days", "2026-11-21T10:00:00.000Z", now],
    ["last 7 days", "days", "2026-11-15T10:00:00.000Z", now],
    ["this week", "this-week", "2026-11-15T22:00:00.000Z", now],
    ["last week", "last-week", "2026-11-08T22:00:00.000Z", "2026-11-15T22:00:00.000Z"],
    // this month and day-first dotted dates (CONTRACT.md); a dotted date without its year is the
    // last such day up to today.
    ["this month", "this-month", "2026-10-31T22:00:00.000Z", now],
    ["03.11.2026", "date", "2026-11-02T22:00:00.000Z", "2026-11-03T22:00:00.000Z"],
    ["3.11", "date", "2026-11-02T22:00:00.000Z", "2026-11-03T22:00:00.000Z"],
    ["23.11", "date", "2025-11-22T22:00:00.000Z", "2025-11-23T22:00:00.000Z"],
    ["03.11..05.11", "dates", "2026-11-02T22:00:00.000Z", "2026-11-05T22:00:00.000Z"],
    ["03.11.2026 08:00..17:30", "datetimes", "2026-11-03T06:00:00.000Z", "2026-11-03T15:30:00.000Z"],
    ["2026-11-03", "date", "2026-11-02T22:00:00.000Z", "2026-11-03T22:00:00.000Z"],
    ["2026-11-3", "date", "2026-11-02T22:00:00.000Z", "2026-11-03T22:00:00.000Z"],
    ["2026-11-03..2026-11-05", "dates", "2026-11-02T22:00:00.000Z", "2026-11-05T22:00:00.000Z"],
    ["2026-11-03 .. 2026-11-05", "dates", "2026-11-02T22:00:00.000Z", "2026-11-05T22:00:00.000Z"],
    ["2026-11-03…2026-11-05", "dates", "2026-11-02T22:00:00.000Z", "2026-11-05T22:00:00.000Z"],
    ["2026-11-03..2026-11-03", "dates", "2026-11-02T22:00:00.000Z", "2026-11-03T22:00:00.000Z"],
    [
      "2026-11-03 08:00..2026-11-03 17:30",
      "datetimes",
      "2026-11-03T06:00:00.000Z",
      "2026-11-03T15:30:00.000Z",
    ],
    ["2026-11-03 8:00..17:30", "datetimes", "2026-11-03T06:00:00.000Z", "2026-11-03T15:30:00.000Z"],
    ["2026-11-03 22:00..2026-11-04", "datetimes", "2026-11-03T20:00:00.000Z", "2026-11-04T22:00:00.000Z"],
    ["2026-11-21..2026-11-25", "dates", "2026-11-20T22:00:00.000Z", now],
    ["2026-11-22", "date", "2026-11-21T22:00:00.000Z", now],
  ])("%j → %s", (text, kind, from, to) => {
    const p = ok(text, BUC, now);
    expect(p.kind).toBe(kind);
    expect(iso(p)).toEqual([from, to]);
  });

  it("marks a period cut at now, and labels it", () => {
    const p = ok("2026-11-22", BUC, now);
    expect(p.clipped).toBe(true);
    expect(periodText(p.label, "en")).toContain("until now");
    expect(periodText(ok("yesterday", BUC, now).label, "en")).toBe("yesterday (Sat 21 Nov)");
    expect(periodText(ok("last week", BUC, now).label, "en")).toBe("last week (Mon 9 Nov – Sun 15 Nov)");
  });

  it("weeks start on Monday even when today is Monday or Sunday", () => {
    // Monday 2026-11-16 09:00 local
    expect(ok("this week", BUC, "2026-11-16T07:00:00Z").from.toISOString()).toBe("2026-11-15T22:00:00.000Z");
    // Sunday 2026-11-22 23:30 local
    expect(ok("this week", BUC, "2026-11-22T21:30:00Z").from.toISOString()).toBe("2026-11-15T22:00:00.000Z");
  });
});

describe("parsePeriod: DST change days have 23 and 25 hours", () => {
  it.each([
    [BUC, "2026-03-29", 23, "2026-03-28T22:00:00.000Z"],
    [BUC, "2026-10-25", 25, "2026-10-24T21:00:00.000Z"],
    [NY, "2026-03-08", 23, "2026-03-08T05:00:00.000Z"],
    [NY, "2026-11-01", 25, "2026-11-01T04:00:00.000Z"],
    [BUC, "2026-03-30", 24, "2026-03-29T21:00:00.000Z"],
  ])("%s %s", (zone, date, hours, from) => {
    const p = ok(date, zone, "2026-11-22T10:00:00Z");
    expect(p.from.toISOString()).toBe(from);
    expect((p.to.getTime() - p.from.getTime()) / HOUR).toBe(hours);
  });

  it("yesterday and last week across a change are whole calendar days", () => {
    const y = ok("yesterday", BUC, "2026-10-26T09:00:00Z");
    expect((y.to.getTime() - y.from.getTime()) / HOUR).toBe(25);
    const w = ok("last week", BUC, "2026-10-27T09:00:00Z");
    expect(w.from.toISOString()).toBe("2026-10-18T21:00:00.000Z");
    expect((w.to.getTime() - w.from.getTime()) / HOUR).toBe(7 * 24 + 1);
  });

  it("today on a spring-forward day starts at midnight and has lost an hour by noon", () => {
    const p = ok("today", BUC, "2026-03-29T09:00:00Z"); // 12:00 EEST
    expect(p.from.toISOString()).toBe("2026-03-28T22:00:00.000Z");
    expect((p.to.getTime() - p.from.getTime()) / HOUR).toBe(11);
  });

  it("last 1d is a calendar day (same wall time), last 24h is 24 real hours", () => {
    const now = "2026-10-25T12:00:00Z"; // 14:00 EET, the day after 03:00 EEST became 03:00 EET... same day
    expect(ok("last 1d", BUC, now).from.toISOString()).toBe("2026-10-24T11:00:00.000Z");
    expect(ok("last 24h", BUC, now).from.toISOString()).toBe("2026-10-24T12:00:00.000Z");
  });

  it("a wall time skipped by the change moves forward; a repeated one takes the first", () => {
    const gap = ok("2026-03-29 03:30..2026-03-29 05:00", BUC, "2026-11-22T10:00:00Z");
    expect(gap.from.toISOString()).toBe("2026-03-29T01:30:00.000Z"); // 04:30 EEST
    const twice = ok("2026-10-25 03:30..2026-10-25 05:00", BUC, "2026-11-22T10:00:00Z");
    expect(twice.from.toISOString()).toBe("2026-10-25T00:30:00.000Z"); // first 03:30, EEST
    expect((twice.to.getTime() - twice.from.getTime()) / HOUR).toBe(2.5);
  });
});

describe("parsePeriod: the user's zone, not the company's", () => {
  // 03:00 UTC: 22:00 on Saturday 21 in New York, 05:00 on Sunday 22 in Bucharest.
  const now = "2026-11-22T03:00:00Z";
  it("today and yesterday follow the user's calendar", () => {
    expect(iso(ok("today", NY, now))).toEqual(["2026-11-21T05:00:00.000Z", "2026-11-22T03:00:00.000Z"]);
    expect(iso(ok("today", BUC, now))).toEqual(["2026-11-21T22:00:00.000Z", "2026-11-22T03:00:00.000Z"]);
    expect(iso(ok("yesterday", NY, now))).toEqual(["2026-11-20T05:00:00.000Z", "2026-11-21T05:00:00.000Z"]);
  });
  it("a date is that day in the user's zone", () => {
    expect(iso(ok("2026-11-03", NY, now))).toEqual(["2026-11-03T05:00:00.000Z", "2026-11-04T05:00:00.000Z"]);
    expect(iso(ok("2026-11-03 08:00..2026-11-03 17:00", NY, now))).toEqual([
      "2026-11-03T13:00:00.000Z",
      "2026-11-03T22:00:00.000Z",
    ]);
  });
  it("the 22nd has started in Bucharest but not yet in New York", () => {
    expect(parsePeriod("2026-11-22", { timeZone: BUC, now: new Date(now) }).ok).toBe(true);
    expect(parsePeriod("2026-11-22", { timeZone: NY, now: new Date(now) }).ok).toBe(false);
  });
  it("refuses an unknown zone as a programming error", () => {
    expect(() => parsePeriod("today", { timeZone: "Mars/Olympus", now: new Date(now) })).toThrow(RangeError);
  });
});

describe("parsePeriod: errors say what is wrong and give an example that works", () => {
  const ctx = { timeZone: BUC, now: new Date("2026-11-22T10:00:00Z") };
  it.each([
    ["2026-13-01", "no month 13"],
    ["2026-02-30", "February 2026 has 28 days"],
    ["2028-02-30", "February 2028 has 29 days"],
    ["2026-04-31", "April 2026 has 30 days"],
    ["03/11/2026", "YYYY-MM-DD"],
    ["31.02", "February 2026 has 28 days"],
    ["2026/11/03", "YYYY-MM-DD"],
    ["1999-01-01", "too far back"],
    ["2026-11-23", "not started yet"],
    ["2026-11-22 13:00..2026-11-22 15:00", "not started yet"],
    ["2027-01-01..2027-01-05", "not started yet"],
    ["2026-11-05..2026-11-03", "ends before it starts"],
    ["2026-11-03 17:00..2026-11-03 08:00", "ends before it starts"],
    ["2026-11-03 08:00..2026-11-03 08:00", "ends before it starts"],
    ["2026-11-03 25:00..2026-11-03 26:00", "`25:00` is not a time"],
    ["2026-11-03 08:60..2026-11-03 09:00", "`08:60` is not a time"],
    ["2026-11-03 0800..2026-11-03 0900", "`0800` is not a time"],
    ["2026-11-03 08:00", "a time needs an end"],
    ["2026-11-03..", "not an end"],
    ["2026-11-01..2026-11-02..2026-11-03", "one `..`"],
    ["2024-01-01..2026-01-01", "at most 366 days"],
    ["last 0h", "from 1 to 8,784"],
    ["last 0d", "from 1 to 366"],
    [`last ${MAX_DAYS + 1}d`, "from 1 to 366"],
    [`last ${MAX_HOURS + 1}h`, "from 1 to 8,784"],
    ["last 3", "Add the unit"],
    ["last 1.5h", "whole number"],
    ["luna viitoare", "not a period"],
    ["ultimele 0 zile", "from 1 to 366"],
    ["ultimele trei zile", "not a period"],
    ["tomorrow", "not a period"],
    ["next week", "not a period"],
  ])("%j", (text, fragment) => {
    const r = parsePeriod(text, ctx);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(msg(r)).toContain(fragment);
    expect(r.example.startsWith("/fleet stops all ")).toBe(true);
    expect(parseCommandLine(r.example, ctx).result.ok).toBe(true);
  });

  it("uses the given command in the example", () => {
    const r = parsePeriod("2026-13-01", ctx, "/fleet route B-123-ABC");
    expect(r.ok ? "" : r.example).toBe("/fleet route B-123-ABC 2026-11-21");
  });

  it("accepts the limits themselves", () => {
    expect(parsePeriod(`last ${MAX_DAYS}d`, ctx).ok).toBe(true);
    expect(parsePeriod(`last ${MAX_HOURS}h`, ctx).ok).toBe(true);
    expect(parsePeriod("2025-11-22..2026-11-21", ctx).ok).toBe(true);
  });
});

describe("parsePeriod: properties", () => {
  const zones = fc.constantFrom(
    BUC,
    NY,
    "UTC",
    "Asia/Kolkata",
    "Australia/Lord_Howe",
    "America/Santiago",
    "Pacific/Apia",
  );
  const nows = fc.date({
    min: new Date("2001-01-01T00:00:00Z"),
    max: new Date("2040-01-01T00:00:00Z"),
    noInvalidDate: true,
  });
  const dateText = (d: Date) => d.toISOString().slice(0, 10);
  const texts = fc.oneof(
    fc.constantFrom("", "today", "yesterday", "this week", "last week", "last month", "azi", "alaltăieri"),
    fc.constantFrom("săptămâna aceasta", "luna trecută", "ultimele 24 de ore", "ultimele 2 zile"),
    fc
      .tuple(fc.integer({ min: -2, max: 9000 }), fc.constantFrom("h", "d", " hours", " days"))
      .map(([n, u]) => `last ${n}${u}`),
    fc
      .date({
        min: new Date("1998-01-01T00:00:00Z"),
        max: new Date("2041-01-01T00:00:00Z"),
        noInvalidDate: true,
      })
      .map(dateText),
    fc
      .tuple(
        fc.date({
          min: new Date("2000-01-01T00:00:00Z"),
          max: new Date("2041-01-01T00:00:00Z"),
          noInvalidDate: true,
        }),
        fc.integer({ min: -3 * 86_400_000, max: 400 * 86_400_000 }),
        fc.boolean(),
      )
      .map(([d, span, timed]) => {
        const e = new Date(d.getTime() + span);
        return timed
          ? `${dateText(d)} ${d.toISOString().slice(11, 16)}..${dateText(e)} ${e.toISOString().slice(11, 16)}`
          : `${dateText(d)}..${dateText(e)}`;
      }),
    fc.string(),
  );

  it("any period parsed has from before to, and to not after now", () => {
    fc.assert(
      fc.property(zones, nows, texts, (timeZone, now, text) => {
        const r = parsePeriod(text, { timeZone, now });
        if (!r.ok) {
          expect(msg(r).length).toBeGreaterThan(0);
          return;
        }
        const { from, to, kind } = r.period;
        expect(to.getTime()).toBeLessThanOrEqual(now.getTime());
        if (kind === "today" || kind === "this-week")
          expect(from.getTime()).toBeLessThanOrEqual(to.getTime());
        else expect(from.getTime()).toBeLessThan(to.getTime());
        expect(to.getTime() - from.getTime()).toBeLessThanOrEqual((MAX_DAYS + 1) * 86_400_000);
      }),
      { numRuns: 3000 },
    );
  });

  it("every error example parses", () => {
    fc.assert(
      fc.property(zones, nows, texts, (timeZone, now, text) => {
        const ctx = { timeZone, now };
        const r = parsePeriod(text, ctx);
        if (r.ok) return;
        const again = parseCommandLine(r.example, ctx).result;
        expect(again.ok, `${text} → ${r.example}`).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("a day that the clocks skipped entirely is refused", () => {
    const r = parsePeriod("2011-12-30", { timeZone: "Pacific/Apia", now: new Date("2026-01-01T00:00:00Z") });
    expect(r.ok ? "" : msg(r)).toContain("does not exist in your time zone");
  });

  it("a whole day lasts 22.5 to 25 hours whatever the zone", () => {
    fc.assert(
      fc.property(
        zones,
        fc.date({
          min: new Date("2001-01-01T00:00:00Z"),
          max: new Date("2035-01-01T00:00:00Z"),
          noInvalidDate: true,
        }),
        (timeZone, day) => {
          const r = parsePeriod(dateText(day), { timeZone, now: new Date("2040-01-01T00:00:00Z") });
          if (!r.ok) {
            expect(timeZone === "Pacific/Apia" && dateText(day) === "2011-12-30").toBe(true);
            return;
          }
          const hours = (r.period.to.getTime() - r.period.from.getTime()) / HOUR;
          expect(hours).toBeGreaterThanOrEqual(22.5);
          expect(hours).toBeLessThanOrEqual(25);
        },
      ),
    );
  });
});

describe("parsePeriod: Romanian words, with and without diacritics (now Sun 2026-11-22 12:00 local)", () => {
  const now = "2026-11-22T10:00:00.000Z";
  const english = (text: string) => {
    const p = ok(text, BUC, now);
    return [p.kind, ...iso(p), p.label];
  };
  it.each([
    ["azi", "today"],
    ["astăzi", "today"],
    ["astazi", "today"],
    ["Astăzi", "today"],
    ["ieri", "yesterday"],
    ["IERI", "yesterday"],
    ["săptămâna aceasta", "this week"],
    ["saptamana aceasta", "this week"],
    ["săptămâna trecută", "last week"],
    ["saptamana trecuta", "last week"],
    ["săptămâna  trecuta", "last week"],
    ["luna trecută", "last month"],
    ["luna trecuta", "last month"],
    ["ultimele 3 zile", "last 3d"],
    ["ultimele 30 de zile", "last 30d"],
    ["ultimele 12 ore", "last 12h"],
    ["ultimele 24 de ore", "last 24h"],
    ["ultimele 2zile", "last 2d"],
  ])("%j is %j", (romanian, englishText) => {
    expect(english(romanian)).toEqual(english(englishText));
    expect(ok(romanian, BUC, now).text).toBe(romanian.toLowerCase().replace(/\s+/g, " "));
  });

  it("reads decomposed and partly written diacritics alike", () => {
    expect(english("sa\u0306pta\u0306ma\u0302na trecuta\u0306")).toEqual(english("last week")); // NFD input
    expect(english("săptamâna trecuta")).toEqual(english("last week"));
    expect(english("ALALTĂIERI")).toEqual(english("alaltaieri"));
  });

  it("drops comma-below ș/ț and cedilla ş/ţ alike", () => {
    expect(withoutDiacritics("\u0219\u015f\u021b\u0163 ăâî ĂÂÎ")).toBe("sstt aai AAI");
  });

  it("alaltăieri is the day before yesterday, a whole day", () => {
    for (const text of ["alaltăieri", "alaltaieri", "day before yesterday"]) {
      const p = ok(text, BUC, now);
      expect(iso(p)).toEqual(["2026-11-19T22:00:00.000Z", "2026-11-20T22:00:00.000Z"]);
      expect(periodText(p.label, "en")).toBe("day before yesterday (Fri 20 Nov)");
    }
  });

  it("luna trecută / last month is the previous calendar month, DST change included", () => {
    const p = ok("luna trecută", BUC, now);
    expect(p.kind).toBe("last-month");
    // October 2026 in Bucharest: EEST until the 25th, then EET.
    expect(iso(p)).toEqual(["2026-09-30T21:00:00.000Z", "2026-10-31T22:00:00.000Z"]);
    expect(periodText(p.label, "en")).toBe("last month (Thu 1 Oct – Sat 31 Oct)");
    // In January, last month is December of the year before.
    expect(iso(ok("last month", BUC, "2027-01-01T10:00:00Z"))).toEqual([
      "2026-11-30T22:00:00.000Z",
      "2026-12-31T22:00:00.000Z",
    ]);
  });
});

describe("parsePeriod: a period running until now ends at the start of the minute", () => {
  const at = (iso: string) => ({ timeZone: BUC, now: new Date(iso) });
  it.each(["today", "azi", "last 3h", "last 3d", "ultimele 2 zile", "this week", "2026-11-22"])(
    "%j asked a second apart within a minute is the same period",
    (text) => {
      const first = parsePeriod(text, at("2026-11-22T10:17:05.250Z"));
      const second = parsePeriod(text, at("2026-11-22T10:17:06.250Z"));
      if (!first.ok || !second.ok) throw new Error(`${text} should parse`);
      expect(second.period).toEqual(first.period);
      expect(first.period.to.toISOString()).toBe("2026-11-22T10:17:00.000Z");
    },
  );

  it("the next minute is another period", () => {
    const a = parsePeriod("last 3h", at("2026-11-22T10:17:59.999Z"));
    const b = parsePeriod("last 3h", at("2026-11-22T10:18:00.000Z"));
    expect(a.ok && b.ok && b.period.to.getTime() - a.period.to.getTime()).toBe(60_000);
  });

  it("a period younger than a minute ends at now, not before its start", () => {
    // 00:00:30 local in Bucharest
    const r = parsePeriod("today", at("2026-11-21T22:00:30.000Z"));
    expect(r.ok && iso(r.period)).toEqual(["2026-11-21T22:00:00.000Z", "2026-11-21T22:00:30.000Z"]);
  });
});
