/**
 * English, shared words. English is the reference catalogue: its parameter types are the ones
 * Romanian must take (src/i18n/section.ts). Values are inserted as given: escape user text for
 * mrkdwn before passing it. Plurals go through `count("en", …)` / `plural("en", …)`, never
 * a hand-written test of `n` against 1.
 */

import { number } from "../format.js";
import type { Language } from "../language.js";
import { count } from "../plural.js";
import type { Section } from "../section.js";

export const common = {
  /** A language's name, in this language: "English", "Romanian". */
  languageName: (language: Language) => (language === "ro" ? "Romanian" : "English"),
  /** Under an answer whose times are in the company's zone because Slack did not say the user's. */
  zoneGuessed: ({ zone }: { zone: string }) => `Times in ${zone}: Slack did not say your time zone.`,
  transports: (n: number) => count("en", n, { one: "transport", other: "transports" }),
  vehicles: (n: number) => count("en", n, { one: "vehicle", other: "vehicles" }),
  minutes: (n: number) => count("en", n, { one: "minute", other: "minutes" }),
  /** How long ago, for the places where Slack's `{ago}` cannot be used: `duration` from format.ts. */
  ago: ({ duration }: { duration: string }) => `${duration} ago`,
  /** An age under a minute ("0 s ago" reads as a glitch). */
  justNow: () => "just now",
  /** A modal's close button. */
  close: () => "Close",
  /** The rest of a list cut short: "…and 3 more." */
  andMore: (n: number) => `…and ${number("en", n)} more.`,
} satisfies Section;
