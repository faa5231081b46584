import { describe, expect, it } from "vitest";
import { localeHint, resolveLanguage, resolveLanguageWithSource } from "../../src/i18n/resolve.js";

describe("resolveLanguage", () => {
  it("the user's own choice wins over everything", () => {
    expect(
      resolveLanguageWithSource({ user: "en", workspace: "ro", configured: "ro", slackLocale: "ro-RO" }),
    ).toEqual({ language: "en", source: "user" });
    expect(resolveLanguageWithSource({ user: "ro", configured: "en", slackLocale: "en-US" })).toEqual({
      language: "ro",
      source: "user",
    });
  });

  it("without a choice, the workspace's default set in Slack", () => {
    expect(resolveLanguageWithSource({ workspace: "ro", configured: "en" })).toEqual({
      language: "ro",
      source: "workspace",
    });
    expect(resolveLanguageWithSource({ workspace: "en", configured: "ro", slackLocale: "ro-RO" })).toEqual({
      language: "en",
      source: "workspace",
    });
  });

  it("without either, DEFAULT_LANGUAGE", () => {
    expect(resolveLanguageWithSource({ configured: "en" })).toEqual({ language: "en", source: "configured" });
    expect(resolveLanguageWithSource({ configured: "ro" })).toEqual({ language: "ro", source: "configured" });
    expect(resolveLanguage({ user: undefined, workspace: undefined, configured: "ro" })).toBe("ro");
  });

  it("an English Slack locale never turns DEFAULT_LANGUAGE=ro into English (Slack has no Romanian)", () => {
    for (const slackLocale of ["en-US", "en-GB", "EN_us", "en"]) {
      expect(resolveLanguageWithSource({ configured: "ro", slackLocale })).toEqual({
        language: "ro",
        source: "configured",
      });
      expect(resolveLanguage({ configured: "en", slackLocale })).toBe("en");
    }
  });

  it("a locale in another language fleetbot has is followed before DEFAULT_LANGUAGE", () => {
    for (const slackLocale of ["ro-RO", "ro", "RO_ro", "ro-MD"]) {
      expect(resolveLanguageWithSource({ configured: "en", slackLocale })).toEqual({
        language: "ro",
        source: "slack",
      });
    }
  });

  it("a locale naming a language fleetbot does not have is ignored", () => {
    for (const slackLocale of ["de-DE", "fr-FR", "ja-JP", "", " ", "roman", "x"]) {
      expect(resolveLanguageWithSource({ configured: "ro", slackLocale })).toEqual({
        language: "ro",
        source: "configured",
      });
      expect(resolveLanguage({ configured: "en", slackLocale })).toBe("en");
    }
  });

  it("localeHint: only a fleetbot language other than Slack's default English", () => {
    expect(localeHint("ro-RO")).toBe("ro");
    expect(localeHint("en-US")).toBeUndefined();
    expect(localeHint("es-LA")).toBeUndefined();
    expect(localeHint(undefined)).toBeUndefined();
  });
});
