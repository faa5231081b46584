/**
 * Carrier VAT numbers for add/update-transport (the API gives no format: fleet-api.md, Gaps).
 *
 * Romanian CIF/CUI: 2–10 digits, the last one a control digit (key 753217532, the ANAF
 * algorithm), written with or without the "RO" prefix (the prefix marks a VAT-registered
 * company and is kept as written). Other EU member states: the prefix and the shape VIES
 * uses (no check digits), XI for Northern Ireland.
 */

const CIF_KEY = [7, 5, 3, 2, 1, 7, 5, 3, 2] as const;

/**
 * The control digit of a Romanian CIF body (the digits without the control digit, 1–9 of
 * them): the body is padded with zeros on the left to 9 digits, each digit multiplied by
 * 753217532, the sum × 10 modulo 11; 10 becomes 0.
 */
export function cifControlDigit(body: string): number {
  if (!/^\d{1,9}$/.test(body)) throw new RangeError(`not a CIF body: ${body}`);
  const padded = body.padStart(9, "0");
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(padded[i]) * CIF_KEY[i]!;
  const digit = (sum * 10) % 11;
  return digit === 10 ? 0 : digit;
}

/** True when `digits` (2–10 digits, no prefix) is a Romanian CIF with a correct control digit. */
export function isValidRomanianCif(digits: string): boolean {
  if (!/^\d{2,10}$/.test(digits) || digits.startsWith("0")) return false;
  return cifControlDigit(digits.slice(0, -1)) === Number(digits.slice(-1));
}

/** Shapes per member state (the part after the prefix), as VIES checks them. */
export const EU_VAT_SHAPES: Readonly<Record<string, RegExp>> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  // a letter or digit, 7 digits, a letter or digit — never nine digits
  ES: /^(?=.*[A-Z])[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  SE: /^\d{12}$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
  XI: /^(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
};

/** An example per prefix, shown when a number has that prefix but the wrong shape. */
const EU_VAT_EXAMPLES: Readonly<Record<string, string>> = {
  AT: "ATU12345678",
  BE: "BE0123456789",
  BG: "BG123456789",
  CY: "CY12345678L",
  CZ: "CZ12345678",
  DE: "DE123456789",
  DK: "DK12345678",
  EE: "EE123456789",
  EL: "EL123456789",
  ES: "ESX1234567X",
  FI: "FI12345678",
  FR: "FRXX123456789",
  HR: "HR12345678901",
  HU: "HU12345678",
  IE: "IE1234567WA",
  IT: "IT12345678901",
  LT: "LT123456789",
  LU: "LU12345678",
  LV: "LV12345678901",
  MT: "MT12345678",
  NL: "NL123456789B01",
  PL: "PL1234567890",
  PT: "PT123456789",
  SE: "SE123456789001",
  SI: "SI12345678",
  SK: "SK1234567890",
  XI: "XI123456789",
};

export const EXAMPLE_RO_VAT = "RO16341004";

/**
 * Why a VAT number was refused, as data (the Slack side words it, src/i18n/<lang>/etransport.ts):
 * `example` is a number of the expected shape to show.
 */
export type VatProblem =
  | { problem: "missing"; example: string }
  | { problem: "cifLength"; length: number; example: string }
  | { problem: "cifChecksum"; vat: string; example: string }
  | { problem: "prefix"; example: string; euExample: string }
  | { problem: "shape"; vat: string; prefix: string; example: string };

export type VatCheck = { ok: true; vat: string; country: string } | { ok: false; error: VatProblem };

/** An EU VAT number shown with the Romanian example when a prefix is unknown. */
const EXAMPLE_EU_VAT = "DE123456789";

/**
 * Checks a VAT number as typed: spaces, dots and dashes are ignored, letters upper-cased.
 * The normalised value keeps the prefix as written for Romania ("RO16341004" or "16341004");
 * GR is taken as EL (the prefix VIES uses for Greece).
 */
export function checkVatNumber(raw: string): VatCheck {
  const vat = raw.replace(/[\s.\-–—_/]/g, "").toUpperCase();
  if (vat === "") return { ok: false, error: { problem: "missing", example: EXAMPLE_RO_VAT } };
  if (/^(RO)?\d+$/.test(vat)) {
    const digits = vat.startsWith("RO") ? vat.slice(2) : vat;
    if (digits.length < 2 || digits.length > 10) {
      return { ok: false, error: { problem: "cifLength", length: digits.length, example: EXAMPLE_RO_VAT } };
    }
    if (!isValidRomanianCif(digits)) {
      return { ok: false, error: { problem: "cifChecksum", vat, example: EXAMPLE_RO_VAT } };
    }
    return { ok: true, vat, country: "RO" };
  }
  const prefix = vat.slice(0, 2) === "GR" ? "EL" : vat.slice(0, 2);
  const rest = vat.slice(2);
  const shape = EU_VAT_SHAPES[prefix];
  if (!shape) {
    return { ok: false, error: { problem: "prefix", example: EXAMPLE_RO_VAT, euExample: EXAMPLE_EU_VAT } };
  }
  if (!shape.test(rest)) {
    return {
      ok: false,
      error: { problem: "shape", vat, prefix, example: EU_VAT_EXAMPLES[prefix] ?? `${prefix}…` },
    };
  }
  return { ok: true, vat: `${prefix}${rest}`, country: prefix };
}
