/**
 * The languages fleetbot speaks. Slack has no Romanian interface, so the choice is fleetbot's:
 * per person, with a workspace default (DEFAULT_LANGUAGE). Codes are BCP 47 primary subtags.
 */
export const LANGUAGES = ["en", "ro"] as const;

export type Language = (typeof LANGUAGES)[number];

export function isLanguage(value: unknown): value is Language {
  return value === "en" || value === "ro";
}

/**
 * A hint from Slack's `locale` of a user (`users.info` with `include_locale`, or a request's
 * `locale`): "en-US", "en-GB", "ro-RO" if Slack ever offers it. Only the primary subtag counts,
 * in any case, with `-` or `_`. `mo` is the withdrawn code of Romanian as written in Moldova.
 * Undefined for any other language, or none: the caller keeps the person's choice or the
 * workspace default. A hint only: a person's explicit choice always wins.
 */
export function languageFromSlackLocale(locale?: string): Language | undefined {
  if (locale === undefined) return undefined;
  const primary = locale.trim().toLowerCase().split(/[-_]/, 1)[0];
  if (primary === "en") return "en";
  if (primary === "ro" || primary === "mo") return "ro";
  return undefined;
}
