/**
 * Romanian, shared words. Register: the informal second person ("tu": „alege”, „îți”), as in a
 * Slack conversation, the same in every section. Diacritics with the comma below (ș, ț), never
 * the cedilla (U+015F, U+0163): test/i18n/catalogue.test.ts checks it. Plurals go through
 * `count("ro", …)` / `plural("ro", …)`, which demand the `few` form; the `other` form carries its
 * "de" ("20 de transporturi").
 */

import type { common as en } from "../en/common.js";
import { number } from "../format.js";
import { count } from "../plural.js";
import type { SameParameters, Translation } from "../section.js";

export const common = {
  languageName: (language) => (language === "ro" ? "română" : "engleză"),
  zoneGuessed: ({ zone }) => `Orele sunt în fusul ${zone}: Slack nu ne-a transmis fusul tău orar.`,
  transports: (n) => count("ro", n, { one: "transport", few: "transporturi", other: "de transporturi" }),
  vehicles: (n) => count("ro", n, { one: "vehicul", few: "vehicule", other: "de vehicule" }),
  minutes: (n) => count("ro", n, { one: "minut", few: "minute", other: "de minute" }),
  ago: ({ duration }) => `acum ${duration}`,
  justNow: () => "chiar acum",
  close: () => "Închide",
  andMore: (n) => `…și încă ${number("ro", n)}.`,
} satisfies Translation<typeof en>;
true satisfies SameParameters<typeof en, typeof common>;
