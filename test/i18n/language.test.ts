import { describe, expect, it } from "vitest";
import { isLanguage, LANGUAGES, languageFromSlackLocale } from "../../src/i18n/language.js";

describe("languages", () => {
  it("are English and Romanian", () => {
    expect(LANGUAGES).toEqual(["en", "ro"]);
    expect(LANGUAGES.every(isLanguage)).toBe(true);
    for (const other of ["fr", "EN", "", "english", undefined, 1]) expect(isLanguage(other)).toBe(false);
  });

  it("take a hint from Slack's locale, by its primary subtag only", () => {
    expect(languageFromSlackLocale("en-US")).toBe("en");
    expect(languageFromSlackLocale("en-GB")).toBe("en");
    expect(languageFromSlackLocale("ro-RO")).toBe("ro");
    expect(languageFromSlackLocale("RO_md")).toBe("ro");
    expect(languageFromSlackLocale("mo")).toBe("ro");
    expect(languageFromSlackLocale("fr-FR")).toBeUndefined();
    expect(languageFromSlackLocale("")).toBeUndefined();
    expect(languageFromSlackLocale(undefined)).toBeUndefined();
    expect(languageFromSlackLocale()).toBeUndefined();
  });
});
