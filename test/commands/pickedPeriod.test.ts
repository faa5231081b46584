import { describe, expect, it } from "vitest";
import { parsePeriod } from "../../src/commands/index.js";
import { periodLabelSchema } from "../../src/commands/periodLabel.js";
import { pickedPeriodLabel } from "../../src/commands/pickedPeriod.js";
import type { Period } from "../../src/commands/types.js";
import { type PeriodLabel, periodText } from "../../src/i18n/periodText.js";

const BUC = "Europe/Bucharest";
// Wednesday 2026-11-25 14:30 in Bucharest.
const NOW = new Date("2026-11-25T12:30:00Z");

function period(text: string, now = NOW): Period {
  const r = parsePeriod(text, { timeZone: BUC, now });
  if (!r.ok) throw new Error(`${text}: ${JSON.stringify(r)}`);
  return r.period;
}
const both = (text: string, now = NOW) => {
  const label = period(text, now).label;
  return [periodText(label, "en"), periodText(label, "ro")];
};

describe("periodText: every period form in both languages", () => {
  it.each([
    ["today", "today", "azi"],
    ["azi", "today", "azi"],
    ["yesterday", "yesterday (Tue 24 Nov)", "ieri (marți, 24 nov.)"],
    ["ieri", "yesterday (Tue 24 Nov)", "ieri (marți, 24 nov.)"],
    ["alaltăieri", "day before yesterday (Mon 23 Nov)", "alaltăieri (luni, 23 nov.)"],
    ["last 1d", "last 1 day", "ultima zi"],
    ["last 2d", "last 2 days", "ultimele 2 zile"],
    ["ultimele 3 zile", "last 3 days", "ultimele 3 zile"],
    ["last 20d", "last 20 days", "ultimele 20 de zile"],
    ["last 1h", "last 1 hour", "ultima oră"],
    ["last 2h", "last 2 hours", "ultimele 2 ore"],
    ["ultimele 24 de ore", "last 24 hours", "ultimele 24 de ore"],
    ["this week", "this week (since Mon 23 Nov)", "săptămâna aceasta (de la luni, 23 nov.)"],
    [
      "last week",
      "last week (Mon 16 Nov – Sun 22 Nov)",
      "săptămâna trecută (luni, 16 nov. – duminică, 22 nov.)",
    ],
    ["last month", "last month (Thu 1 Oct – Sat 31 Oct)", "luna trecută (joi, 1 oct. – sâmbătă, 31 oct.)"],
    ["2026-11-20", "Fri 20 Nov", "vineri, 20 nov."],
    ["2026-11-20..2026-11-22", "Fri 20 Nov – Sun 22 Nov", "vineri, 20 nov. – duminică, 22 nov."],
    [
      "2026-11-24 08:00..17:30",
      "Tue 24 Nov, 08:00 – Tue 24 Nov, 17:30",
      "marți, 24 nov., 08:00 – marți, 24 nov., 17:30",
    ],
  ])("%j", (text, english, romanian) => {
    expect(both(text)).toEqual([english, romanian]);
  });

  it("a period cut at now says so", () => {
    expect(both("2026-11-25")).toEqual(["Wed 25 Nov (until now)", "miercuri, 25 nov. (până acum)"]);
  });

  it("a date of another year shows its year", () => {
    expect(both("2025-12-30")).toEqual(["Tue 30 Dec 2025", "marți, 30 dec. 2025"]);
    expect(both("last month", new Date("2027-01-05T10:00:00Z"))).toEqual([
      "last month (Tue 1 Dec 2026 – Thu 31 Dec 2026)",
      "luna trecută (marți, 1 dec. 2026 – joi, 31 dec. 2026)",
    ]);
  });

  it("the labels the Romanian side writes for 1 read back as periods", () => {
    expect(period("ultima zi").label).toEqual(period("last 1d").label);
    expect(period("ultima oră").label).toEqual(period("last 1h").label);
    expect(period("ultima ora").label).toEqual(period("last 1h").label);
  });

  it("a period picked in a form is a range of times in the user's zone", () => {
    const label = pickedPeriodLabel(
      Date.parse("2026-11-24T06:00:00Z"),
      Date.parse("2026-11-24T15:00:00Z"),
      BUC,
      NOW.getTime(),
    );
    expect(periodText(label, "en")).toBe("Tue 24 Nov, 08:00 – Tue 24 Nov, 17:00");
    expect(periodText(label, "ro")).toBe("marți, 24 nov., 08:00 – marți, 24 nov., 17:00");
  });
});

describe("a stored label", () => {
  it("round-trips through JSON and the task schema", () => {
    for (const text of [
      "today",
      "yesterday",
      "last 3d",
      "last week",
      "2026-11-20..2026-11-22",
      "2026-11-25",
    ]) {
      const label = period(text).label;
      const stored = periodLabelSchema.parse(JSON.parse(JSON.stringify(label)));
      expect(stored).toEqual(label);
    }
  });

  it("an old task's English string is still accepted and shown as it was, in both languages", () => {
    const legacy: PeriodLabel = periodLabelSchema.parse("last week (Mon 2026-11-09 – Sun 2026-11-15)");
    expect(periodText(legacy, "en")).toBe("last week (Mon 2026-11-09 – Sun 2026-11-15)");
    expect(periodText(legacy, "ro")).toBe("last week (Mon 2026-11-09 – Sun 2026-11-15)");
  });

  it("refuses a label of an unknown kind", () => {
    expect(periodLabelSchema.safeParse({ kind: "fortnight" }).success).toBe(false);
  });
});
