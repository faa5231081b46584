import { describe, expect, it } from "vitest";
import { messages } from "../../src/i18n/catalogue.js";
import { count, plural, pluralCategory } from "../../src/i18n/plural.js";

const TRANSPORT_RO = { one: "transport", few: "transporturi", other: "de transporturi" } as const;

describe("CLDR plural categories (Intl.PluralRules)", () => {
  it("gives Romanian one for 1, few for 0, 2–19 and 101–119, other for 20–100 and 120", () => {
    const categories = Object.fromEntries(
      [0, 1, 2, 19, 20, 21, 100, 101, 102, 119, 120, 1234].map((n) => [n, pluralCategory("ro", n)]),
    );
    expect(categories).toEqual({
      0: "few",
      1: "one",
      2: "few",
      19: "few",
      20: "other",
      21: "other",
      100: "other",
      101: "few",
      102: "few",
      119: "few",
      120: "other",
      1234: "other",
    });
  });

  it("gives a shown fraction few in Romanian and other in English; a fraction shown as 1 stays one", () => {
    expect(pluralCategory("ro", 1.5, { maxFractionDigits: 1 })).toBe("few");
    expect(pluralCategory("en", 1.5, { maxFractionDigits: 1 })).toBe("other");
    expect(pluralCategory("ro", 1.04, { maxFractionDigits: 1 })).toBe("one");
    expect(
      count("ro", 1.5, { one: "litru", few: "litri", other: "de litri" }, { maxFractionDigits: 1 }),
    ).toBe("1,5 litri");
    expect(
      count("ro", 1.04, { one: "litru", few: "litri", other: "de litri" }, { maxFractionDigits: 1 }),
    ).toBe("1 litru");
  });

  it("are Intl's own for every kept small count", () => {
    for (const lang of ["en", "ro"] as const) {
      const rules = new Intl.PluralRules(lang);
      // Asked twice: the first ask fills the cache, the second reads it.
      const wrong = Array.from({ length: 1000 }, (_, n) => n).filter(
        (n) => pluralCategory(lang, n) !== rules.select(n) || pluralCategory(lang, n) !== rules.select(n),
      );
      expect({ lang, wrong }).toEqual({ lang, wrong: [] });
    }
  });

  it("gives English one for 1 only", () => {
    expect([0, 1, 2, 20, 101].map((n) => pluralCategory("en", n))).toEqual([
      "other",
      "one",
      "other",
      "other",
      "other",
    ]);
  });
});

describe("plural and count", () => {
  it("choose the Romanian form, the `other` one with its de", () => {
    expect([1, 2, 19, 20, 101, 120].map((n) => count("ro", n, TRANSPORT_RO))).toEqual([
      "1 transport",
      "2 transporturi",
      "19 transporturi",
      "20 de transporturi",
      "101 transporturi",
      "120 de transporturi",
    ]);
    expect(plural("ro", 20, TRANSPORT_RO)).toBe("de transporturi");
  });

  it("write the number in the language's digits", () => {
    expect(count("ro", 1234, TRANSPORT_RO)).toBe("1.234 de transporturi");
    expect(count("en", 1234, { one: "transport", other: "transports" })).toBe("1,234 transports");
  });
});

describe("the catalogue's plural messages", () => {
  const ro = messages("ro").common;
  const en = messages("en").common;

  it("count transports, vehicles and minutes in Romanian at 1, 2, 19, 20, 101, 120", () => {
    const at = [1, 2, 19, 20, 101, 120];
    expect(at.map((n) => ro.transports(n))).toEqual([
      "1 transport",
      "2 transporturi",
      "19 transporturi",
      "20 de transporturi",
      "101 transporturi",
      "120 de transporturi",
    ]);
    expect(at.map((n) => ro.minutes(n))).toEqual([
      "1 minut",
      "2 minute",
      "19 minute",
      "20 de minute",
      "101 minute",
      "120 de minute",
    ]);
    expect(at.map((n) => ro.vehicles(n))).toEqual([
      "1 vehicul",
      "2 vehicule",
      "19 vehicule",
      "20 de vehicule",
      "101 vehicule",
      "120 de vehicule",
    ]);
  });

  it("count in English", () => {
    expect([0, 1, 2, 20].map((n) => en.transports(n))).toEqual([
      "0 transports",
      "1 transport",
      "2 transports",
      "20 transports",
    ]);
    expect([1, 2].map((n) => en.minutes(n))).toEqual(["1 minute", "2 minutes"]);
  });
});
