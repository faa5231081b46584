/**
 * UIT codes (the e-Transport platform's transport id): 16 letters and digits, written in any
 * case with dashes or spaces anywhere (`y45r-577u-n544-gy4s` → `Y45R577UN544GY4S`).
 */

export const UIT_LENGTH = 16;
export const EXAMPLE_UIT = "Y45R-577U-N544-GY4S";

/** The canonical UIT (upper-case, no separators), or undefined when the text is not one UIT. */
export function normaliseUit(text: string): string | undefined {
  const joined = text.replace(/[\s\-–—_]/g, "").toUpperCase();
  return /^[A-Z0-9]{16}$/.test(joined) ? joined : undefined;
}

/** A canonical UIT written in groups of four, as the platform shows it; any other text as it is. */
export function formatUit(uit: string): string {
  return /^[A-Z0-9]{16}$/i.test(uit) ? (uit.match(/.{4}/g) ?? [uit]).join("-") : uit;
}
