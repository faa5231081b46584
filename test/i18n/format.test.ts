import { describe, expect, it } from "vitest";
import {
  consumption,
  date,
  dateTime,
  duration,
  km,
  litres,
  number,
  numberFormat,
  slackDate,
  temperature,
  time,
} from "../../src/i18n/format.js";

const BUCHAREST = "Europe/Bucharest";
/** Tuesday 24 November 2026, 14:05 in Bucharest (EET, UTC+2). */
const NOV_24_1405 = Date.UTC(2026, 10, 24, 12, 5);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe("numbers and quantities (the issue's examples)", () => {
  it("write 1.234,5 l and 7,8 l/100 km in Romanian, 1,234.5 l and 7.8 l/100 km in English", () => {
    expect(litres("ro", 1234.5)).toBe("1.234,5 l");
    expect(consumption("ro", 7.8)).toBe("7,8 l/100 km");
    expect(litres("en", 1234.5)).toBe("1,234.5 l");
    expect(consumption("en", 7.8)).toBe("7.8 l/100 km");
  });

  it("show a measured quantity with one decimal, always", () => {
    expect(litres("ro", 20)).toBe("20,0 l");
    expect(km("ro", 12345.67)).toBe("12.345,7 km");
    expect(km("en", 0.04)).toBe("0.0 km");
    expect(temperature("ro", -18.5)).toBe("-18,5 °C");
    expect(temperature("en", -18.5)).toBe("-18.5 °C");
    expect(temperature("ro", -0.04)).toBe("0,0 °C");
  });

  it("group thousands in both languages, four-digit numbers included", () => {
    expect(number("ro", 1234.5)).toBe("1.234,5");
    expect(number("en", 1234.5)).toBe("1,234.5");
    expect(number("ro", 1234)).toBe("1.234");
    expect(number("ro", 1234567.891, { maxFractionDigits: 2 })).toBe("1.234.567,89");
    expect(number("en", 2, { minFractionDigits: 2, maxFractionDigits: 2 })).toBe("2.00");
    expect(number("ro", 0.25, { maxFractionDigits: 0 })).toBe("0");
  });

  it("make each number format once", () => {
    expect(numberFormat("ro", 0, 1)).toBe(numberFormat("ro", 0, 1));
    expect(numberFormat("ro", 0, 1)).not.toBe(numberFormat("en", 0, 1));
    expect(() => number("en", 1, { maxFractionDigits: 21 })).toThrow(RangeError);
    expect(() => number("en", 1, { maxFractionDigits: 1.5 })).toThrow(RangeError);
  });
});

describe("duration: one form, the same in both languages", () => {
  it("is seconds under a minute, minutes under an hour, else hours and minutes", () => {
    expect(duration("ro", 45_000)).toBe("45 s");
    expect(duration("ro", 59_400)).toBe("59 s");
    expect(duration("ro", 59_600)).toBe("1 min");
    expect(duration("en", 47 * MINUTE)).toBe("47 min");
    expect(duration("en", 17 * HOUR + 47 * MINUTE)).toBe("17 h 47 min");
    expect(duration("ro", 17 * HOUR + 47 * MINUTE)).toBe("17 h 47 min");
    expect(duration("ro", 4 * HOUR + 22 * MINUTE + 12_000)).toBe("4 h 22 min");
    expect(duration("en", 3 * HOUR)).toBe("3 h");
    expect(duration("en", 59 * MINUTE + 40_000)).toBe("1 h");
  });

  it("never rolls hours into days, and groups them like other numbers", () => {
    expect(duration("en", 53 * HOUR + 10 * MINUTE)).toBe("53 h 10 min");
    expect(duration("ro", 1234 * HOUR)).toBe("1.234 h");
    expect(duration("en", 1234 * HOUR + MINUTE)).toBe("1,234 h 1 min");
  });

  it("reads 0 s for nothing, a negative or a broken duration", () => {
    for (const ms of [0, -5 * MINUTE, Number.NaN, Number.POSITIVE_INFINITY])
      expect(duration("ro", ms)).toBe("0 s");
  });
});

describe("dates: one form per language, 24-hour clock", () => {
  it("write marți, 24 nov., 14:05 in Romanian and Tue 24 Nov, 14:05 in English", () => {
    expect(dateTime("ro", NOV_24_1405, BUCHAREST)).toBe("marți, 24 nov., 14:05");
    expect(dateTime("en", NOV_24_1405, BUCHAREST)).toBe("Tue 24 Nov, 14:05");
    expect(date("ro", NOV_24_1405, BUCHAREST)).toBe("marți, 24 nov.");
    expect(date("en", NOV_24_1405, BUCHAREST)).toBe("Tue 24 Nov");
    expect(time("ro", NOV_24_1405, BUCHAREST)).toBe("14:05");
    expect(time("en", NOV_24_1405, BUCHAREST)).toBe("14:05");
  });

  it("follow the zone, summer time and midnight included", () => {
    expect(dateTime("ro", NOV_24_1405, "UTC")).toBe("marți, 24 nov., 12:05");
    expect(dateTime("ro", Date.UTC(2026, 6, 15, 10, 0), BUCHAREST)).toBe("miercuri, 15 iul., 13:00");
    expect(dateTime("en", Date.UTC(2026, 8, 6, 21, 5), BUCHAREST)).toBe("Mon 7 Sep, 00:05");
    expect(dateTime("ro", Date.UTC(2026, 4, 1, 6, 30), BUCHAREST)).toBe("vineri, 1 mai, 09:30");
  });

  it("add the year only for another year than now's", () => {
    const now = Date.UTC(2027, 0, 10, 9, 0);
    expect(dateTime("ro", NOV_24_1405, BUCHAREST, { nowMs: now })).toBe("marți, 24 nov. 2026, 14:05");
    expect(date("en", NOV_24_1405, BUCHAREST, { nowMs: now })).toBe("Tue 24 Nov 2026");
    expect(dateTime("en", NOV_24_1405, BUCHAREST, { nowMs: NOV_24_1405 + HOUR })).toBe("Tue 24 Nov, 14:05");
  });

  it("refuse a zone the runtime does not know", () => {
    expect(() => dateTime("ro", NOV_24_1405, "Mars/Olympus")).toThrow(RangeError);
  });
});

describe("Slack date tokens", () => {
  const seconds = NOV_24_1405 / 1000;

  it("use the numeric tokens in Romanian (Slack has no Romanian), with the Romanian text as fallback", () => {
    expect(slackDate("ro", NOV_24_1405, BUCHAREST)).toBe(
      `<!date^${seconds}^{date_num} {time}|marți, 24 nov., 14:05>`,
    );
    expect(slackDate("ro", NOV_24_1405, BUCHAREST, { time: false })).toBe(
      `<!date^${seconds}^{date_num}|marți, 24 nov.>`,
    );
  });

  it("use Slack's pretty date in English", () => {
    expect(slackDate("en", NOV_24_1405, BUCHAREST)).toBe(
      `<!date^${seconds}^{date_short_pretty} {time}|Tue 24 Nov, 14:05>`,
    );
    expect(slackDate("en", NOV_24_1405 + 999, "UTC", { time: false })).toBe(
      `<!date^${seconds}^{date_short_pretty}|Tue 24 Nov>`,
    );
  });
});
