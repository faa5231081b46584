/**
 * The `/privacy` page says what private mode does (issue 30): which answers show no place of a
 * vehicle in private use, what stays, and that places are not stored either.
 */
import { describe, expect, it } from "vitest";
import { privacyPage } from "../../src/web/publicPages.js";

const words = privacyPage({
  supportUrl: "https://support.example.com",
  taskRetentionDays: 14,
  auditRetentionDays: 400,
})
  .replace(/<[^>]+>/g, "")
  .replace(/\s+/g, " ");

describe("/privacy: private mode", () => {
  it("says that a vehicle in private mode is not located, in which answers, and what stays", () => {
    expect(words).toContain("Private mode");
    expect(words).toContain("isPrivate");
    expect(words).toMatch(
      /where and vehicles show 🔒 and “in private mode” instead of its position, address and map link/,
    );
    expect(words).toMatch(
      /stops and refuellings are listed with their times, durations and litres but no place/,
    );
    expect(words).toMatch(/its route is not shown for any period/);
    expect(words).toContain("transmission status");
    expect(words).toMatch(/places are dropped before a result is stored/);
  });
});
