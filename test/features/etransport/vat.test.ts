import { describe, expect, it } from "vitest";
import {
  isPlausiblePlate,
  isRomanianPlate,
  normalisePlate,
} from "../../../src/features/etransport/plates.js";
import {
  checkVatNumber,
  cifControlDigit,
  isValidRomanianCif,
  type VatProblem,
} from "../../../src/features/etransport/vat.js";
import { messages } from "../../../src/i18n/catalogue.js";

/** The refusal as the English form words it (the domain gives codes and data). */
const english = (problem: VatProblem): string => messages("en").etransport.errorVat(problem);
const romanian = (problem: VatProblem): string => messages("ro").etransport.errorVat(problem);

describe("Romanian CIF control digit (key 753217532)", () => {
  // Public CIFs of well-known companies; each verified by the algorithm step by step below.
  it.each([
    ["16341004", 4],
    ["14399840", 0], // Dante International (eMAG)
    ["160796", 6], // Automobile Dacia
    ["1590082", 2], // OMV Petrom
  ])("%s has control digit %i", (cif, digit) => {
    expect(cifControlDigit(cif.slice(0, -1))).toBe(digit);
    expect(isValidRomanianCif(cif)).toBe(true);
  });

  it("computes 16341004 by hand: 001634100 · 753217532 = 51; 510 mod 11 = 4", () => {
    const body = "001634100";
    const key = [7, 5, 3, 2, 1, 7, 5, 3, 2];
    const sum = [...body].reduce((s, d, i) => s + Number(d) * key[i]!, 0);
    expect(sum).toBe(51);
    expect((sum * 10) % 11).toBe(4);
  });

  it("maps a remainder of 10 to 0", () => {
    // the first body whose weighted sum × 10 leaves 10 modulo 11
    const bodies = Array.from({ length: 2000 }, (_, i) => String(i + 1));
    const ten = bodies.find((b) => {
      const padded = b.padStart(9, "0");
      const key = [7, 5, 3, 2, 1, 7, 5, 3, 2];
      const sum = [...padded].reduce((s, d, i) => s + Number(d) * key[i]!, 0);
      return (sum * 10) % 11 === 10;
    });
    expect(ten).toBeDefined();
    expect(cifControlDigit(ten!)).toBe(0);
    expect(isValidRomanianCif(`${ten}0`)).toBe(true);
  });

  it.each(["16341005", "16341003", "14399841", "160797", "1590083"])(
    "rejects %s (wrong check digit)",
    (cif) => {
      expect(isValidRomanianCif(cif)).toBe(false);
    },
  );

  it("rejects too short, too long and leading-zero numbers", () => {
    expect(isValidRomanianCif("1")).toBe(false);
    expect(isValidRomanianCif("12345678901")).toBe(false);
    expect(isValidRomanianCif("016341004")).toBe(false);
    expect(isValidRomanianCif("19")).toBe(true); // 2 digits: body 1 → 2 → 20 mod 11 = 9
  });
});

describe("checkVatNumber", () => {
  it.each([
    ["16341004", "16341004"],
    ["RO16341004", "RO16341004"],
    ["ro16341004", "RO16341004"],
    ["RO 1634 1004", "RO16341004"],
    [" 16 341 004 ", "16341004"],
    ["RO-14399840", "RO14399840"],
  ])("accepts the Romanian CIF %j as %s", (raw, vat) => {
    expect(checkVatNumber(raw)).toEqual({ ok: true, vat, country: "RO" });
  });

  it.each(["RO16341005", "16341005", "RO1", "RO12345678901", ""])("rejects %j", (raw) => {
    const result = checkVatNumber(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(english(result.error)).toMatch(/RO16341004/);
  });

  it("says the check digit is wrong, as data and in both languages", () => {
    const result = checkVatNumber("RO16341005");
    expect(result).toEqual({
      ok: false,
      error: { problem: "cifChecksum", vat: "RO16341005", example: "RO16341004" },
    });
    if (result.ok) return;
    expect(english(result.error)).toBe(
      "RO16341005 is not a valid Romanian CIF: its check digit is wrong. Example: RO16341004.",
    );
    expect(romanian(result.error)).toBe(
      "RO16341005 nu este un CIF românesc valid: cifra de control este greșită. Exemplu: RO16341004.",
    );
  });

  it("counts the digits of a CIF of the wrong length in Romanian plurals", () => {
    const one = checkVatNumber("RO1");
    const eleven = checkVatNumber("12345678901");
    expect(one.ok || romanian(one.error)).toContain("ai introdus 1 cifră");
    expect(eleven.ok || romanian(eleven.error)).toContain("ai introdus 11 cifre");
    expect(eleven.ok || english(eleven.error)).toContain("11 given");
  });

  it.each([
    ["AT", "ATU12345678", "AT12345678"],
    ["BE", "BE0123456789", "BE2123456789"],
    ["BG", "BG1234567890", "BG12345678"],
    ["CY", "CY12345678L", "CY123456789"],
    ["CZ", "CZ12345678", "CZ1234567"],
    ["DE", "DE123456789", "DE12345678"],
    ["DK", "DK12345678", "DK123456789"],
    ["EE", "EE123456789", "EE12345678"],
    ["EL", "EL123456789", "EL12345678"],
    ["ES", "ESX1234567X", "ES123456789"],
    ["FI", "FI12345678", "FI1234567"],
    ["FR", "FRXX123456789", "FRXX12345678"],
    ["HR", "HR12345678901", "HR1234567890"],
    ["HU", "HU12345678", "HU123456789"],
    ["IE", "IE1234567WA", "IE12345678"],
    ["IT", "IT12345678901", "IT1234567890"],
    ["LT", "LT123456789012", "LT1234567890"],
    ["LU", "LU12345678", "LU1234567"],
    ["LV", "LV12345678901", "LV1234567890"],
    ["MT", "MT12345678", "MT1234567"],
    ["NL", "NL123456789B01", "NL123456789001"],
    ["PL", "PL1234567890", "PL123456789"],
    ["PT", "PT123456789", "PT12345678"],
    ["SE", "SE123456789001", "SE1234567890"],
    ["SI", "SI12345678", "SI1234567"],
    ["SK", "SK1234567890", "SK123456789"],
    ["XI", "XI123456789", "XI12345678"],
  ])("%s: %s valid, %s not", (country, valid, invalid) => {
    expect(checkVatNumber(valid)).toEqual({ ok: true, vat: valid, country });
    const bad = checkVatNumber(invalid);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(english(bad.error)).toContain(country);
  });

  it("normalises case, spaces and dots, and reads GR as EL", () => {
    expect(checkVatNumber("de 123.456.789")).toEqual({ ok: true, vat: "DE123456789", country: "DE" });
    expect(checkVatNumber("GR123456789")).toEqual({ ok: true, vat: "EL123456789", country: "EL" });
  });

  it("refuses unknown prefixes with an example of both kinds", () => {
    const result = checkVatNumber("US123456789");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(english(result.error)).toMatch(/RO16341004.*DE123456789/);
    if (!result.ok)
      expect(romanian(result.error)).toMatch(/CIF românesc \(RO16341004\).*prefixul țării \(DE123456789\)/);
  });
});

describe("plates", () => {
  it.each(["B 123 ABC", "B-12-XYZ", "cj 12 abc", "IF-07-KLM", "B 123456"])("%s is Romanian", (raw) => {
    expect(isRomanianPlate(normalisePlate(raw))).toBe(true);
  });
  it.each(["M-AB 1234", "MÜ XY 12", "12ABC", "WX 1234A", "B A 1"])(
    "%s is a plausible foreign plate",
    (raw) => {
      expect(isRomanianPlate(normalisePlate(raw))).toBe(false);
      expect(isPlausiblePlate(normalisePlate(raw))).toBe(true);
    },
  );
  it.each(["X", "ABCDEFGHIJK1", "B#123", "ÉÉ/1", "xyz", "trailer", "1234", "A1"])(
    "%s is not a plate",
    (raw) => {
      expect(isPlausiblePlate(normalisePlate(raw))).toBe(false);
    },
  );
});
