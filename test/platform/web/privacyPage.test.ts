/**
 * The `/privacy` page says what private mode, an uninstall and a password change do (issue 30):
 * which answers show no place of a vehicle in private use, what stays, and that places are not
 * stored either; that an uninstall stops the fleet calls; that a changed password cuts the old
 * links off at once, and within how long when nobody links the new one.
 */
import { describe, expect, it } from "vitest";
import { privacyPage } from "../../../src/platform/web/publicPages.js";

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

describe("/privacy: uninstall and password change", () => {
  it("says an uninstall stops every fleet call made for the workspace", () => {
    expect(words).toMatch(/The uninstall also stops, while it is handled, every call to the fleet service/);
  });

  it("says a changed password cuts the old links off at once, or within an hour", () => {
    expect(words).toContain("When a fleet password changes");
    expect(words).toMatch(/every link still holding the old password is cut off at once, in every workspace/);
    expect(words).toMatch(/the old one stops at its next login, within an hour/);
    expect(words).toContain("keyed digest");
  });
});
