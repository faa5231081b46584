import { describe, expect, it } from "vitest";
import { type Catalogue, ro, type SameCatalogue } from "../../src/i18n/catalogue.js";
import type { account as enAccount } from "../../src/i18n/en/account.js";
import type { Language } from "../../src/i18n/language.js";
import { count, plural } from "../../src/i18n/plural.js";
import type { SameParameters, Translation } from "../../src/i18n/section.js";

/**
 * Type tests: `npx tsc -p tsconfig.json --noEmit` checks this file (test/ is in tsconfig.json's
 * include). Each `@ts-expect-error` line must be an error, or the type check fails: so a missing
 * Romanian `few`, a missing key and a different parameter list are proven not to compile. The
 * calls that would run are inside functions that are never called.
 */

type AccountMessages = typeof enAccount;

describe("the compiler holds the catalogues to each other", () => {
  it("demands every CLDR form of the message's language", () => {
    const cases = [
      () => plural("en", 2, { one: "transport", other: "transports" }),
      () => plural("ro", 2, { one: "transport", few: "transporturi", other: "de transporturi" }),
      // @ts-expect-error Romanian without its `few` form does not compile.
      () => plural("ro", 2, { one: "transport", other: "de transporturi" }),
      // @ts-expect-error Nor through count.
      () => count("ro", 2, { one: "minut", other: "de minute" }),
      // @ts-expect-error English has no `few`: an extra form is refused too.
      () => plural("en", 2, { one: "transport", few: "transports", other: "transports" }),
      // @ts-expect-error A `Language` variable: the forms could not be checked.
      (lang: Language) => plural(lang, 2, { one: "transport", other: "transports" }),
    ];
    expect(cases).toHaveLength(6);
  });

  it("refuses a Romanian section with a missing key, an extra key or a parameter of another type", () => {
    const missingKey = () =>
      // @ts-expect-error Every key but languageChosen is missing.
      ({ languageChosen: ({ language }) => `limba ${language}` }) satisfies Translation<AccountMessages>;
    const extraKey = () =>
      ({
        ...ro.account,
        // @ts-expect-error A key English does not have.
        languageExtra: () => "în plus",
      }) satisfies Translation<AccountMessages>;
    const otherType = () =>
      ({
        ...ro.account,
        // @ts-expect-error `username` is a string in English.
        whoamiLinked: ({ username }: { username: number }) => `${username}`,
      }) satisfies Translation<AccountMessages>;
    expect([missingKey, extraKey, otherType]).toHaveLength(3);
  });

  it("refuses a Romanian message that takes fewer parameters than the English one", () => {
    const fewer = { ...ro.account, whoamiLinked: () => "cont asociat" };
    // Assignable (a function may ignore arguments), so `satisfies Translation` alone lets it through…
    fewer satisfies Translation<AccountMessages>;
    // @ts-expect-error …and SameParameters does not: { parametersDifferIn: "whoamiLinked" }.
    true satisfies SameParameters<AccountMessages, typeof fewer>;
    // The real sections pass.
    true satisfies SameParameters<AccountMessages, typeof ro.account>;
    expect(fewer.whoamiLinked()).toBe("cont asociat");
  });

  it("refuses a catalogue with a missing section or key", () => {
    const { reports: _reports, ...withoutReports } = ro;
    // @ts-expect-error The reports section is missing.
    const noSection: Catalogue = withoutReports;
    const { minutes: _minutes, ...commonWithoutMinutes } = ro.common;
    // @ts-expect-error common.minutes is missing.
    const noKey: Catalogue = { ...ro, common: commonWithoutMinutes };
    // @ts-expect-error { parametersDifferIn: "common (no such section)" | "reports (no such section)" … }
    true satisfies SameCatalogue<Catalogue, { account: typeof ro.account }>;
    expect([noSection, noKey]).toHaveLength(2);
  });
});
