/**
 * CLDR plurals through the platform's Intl.PluralRules (one cached rule set per language and
 * number of decimals). The forms each language must supply are the categories CLDR gives it for
 * cardinal numbers, and the compiler holds every message to them:
 *
 * - English: `one` (1) and `other` (0, 2, 1.5 …).
 * - Romanian: `one` (1), `few` (0, 2–19, 101–119 …, and every non-integer: "1,5 litri") and
 *   `other` (20–100, 120 …). A Romanian `other` form carries the "de" itself ("de transporturi"),
 *   because it stands between the number and the noun: "20 de transporturi".
 *
 * `plural("ro", n, { one, other })` does not compile: `few` is missing. The language must be a
 * literal ("en" or "ro"), not a `Language` variable, so the forms can be checked: a message lives
 * in its language's catalogue file and names that language.
 */
import { numberFormat } from "./format.js";
import type { Language } from "./language.js";

export interface PluralForms {
  en: { one: string; other: string };
  ro: { one: string; few: string; other: string };
}

/** The forms of exactly one language; `never` for a union, so `Language` variables are refused. */
export type FormsOf<L extends Language> = [L] extends ["en"]
  ? PluralForms["en"]
  : [L] extends ["ro"]
    ? PluralForms["ro"]
    : never;

export interface PluralOptions {
  /** Decimals shown (0–20, default 0); the category is chosen for the number as shown. */
  maxFractionDigits?: number;
}

const rules = new Map<number, Intl.PluralRules>();

function rulesOf(lang: Language, maxFractionDigits: number): Intl.PluralRules {
  const key = (lang === "ro" ? 1000 : 0) + maxFractionDigits;
  let rule = rules.get(key);
  if (!rule) {
    // The same digits as the number's format, so 1.04 shown as "1" is `one`, not `few`.
    rule = new Intl.PluralRules(lang, { minimumFractionDigits: 0, maximumFractionDigits: maxFractionDigits });
    rules.set(key, rule);
  }
  return rule;
}

/**
 * Counts are mostly small whole numbers, and an Intl call costs about half a microsecond: the
 * category and the digits of 0–999 are asked of Intl once each and kept (a whole number has the
 * same category and digits whatever the decimals allowed, since none are shown).
 */
const SMALL = 1000;
const smallCategories: Record<Language, Intl.LDMLPluralRule[]> = { en: [], ro: [] };
const smallDigits: Record<Language, string[]> = { en: [], ro: [] };

const isSmall = (n: number): boolean => Number.isInteger(n) && n >= 0 && n < SMALL;

/** The CLDR category of `n` in `lang`: "one", "few", "other" (for debugging and tests). */
export function pluralCategory(lang: Language, n: number, options: PluralOptions = {}): Intl.LDMLPluralRule {
  if (!isSmall(n)) return rulesOf(lang, options.maxFractionDigits ?? 0).select(n);
  const known = smallCategories[lang];
  let category = known[n];
  if (category === undefined) {
    category = rulesOf(lang, 0).select(n);
    known[n] = category;
  }
  return category;
}

/** The form of `forms` that CLDR chooses for `n`: `plural("ro", 20, …)` → its `other`. */
export function plural<L extends Language>(
  lang: L,
  n: number,
  forms: FormsOf<L>,
  options: PluralOptions = {},
): string {
  const chosen = (forms as Readonly<Record<string, string>>)[pluralCategory(lang, n, options)];
  return chosen ?? forms.other;
}

function digitsOf(lang: Language, n: number, maxFractionDigits: number): string {
  if (!isSmall(n)) return numberFormat(lang, 0, maxFractionDigits).format(n);
  const known = smallDigits[lang];
  let text = known[n];
  if (text === undefined) {
    text = numberFormat(lang, 0, 0).format(n);
    known[n] = text;
  }
  return text;
}

/**
 * The number in `lang`'s digits followed by its form: "1 transport", "2 transporturi",
 * "20 de transporturi", "1.234 de transporturi", "2 transports".
 */
export function count<L extends Language>(
  lang: L,
  n: number,
  forms: FormsOf<L>,
  options: PluralOptions = {},
): string {
  return `${digitsOf(lang, n, options.maxFractionDigits ?? 0)} ${plural(lang, n, forms, options)}`;
}
