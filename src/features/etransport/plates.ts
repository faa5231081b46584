/**
 * Registration plates of trailers (the API gives no format: fleet-api.md, Gaps). A Romanian
 * plate is a county code and digits and three letters (`B 123 ABC`, `CJ 12 XYZ`) or a
 * temporary red plate (`B 123456`); a foreign plate is taken as 3–10 letters and digits with
 * at least one of each (every European format has both; `xyz` or `1234` is a typo, not a
 * plate). Three, because German plates can be that short (`B A 1`); ten, because none is
 * longer without its separators. Letters with diacritics are allowed: German district codes
 * have umlauts.
 * Stored upper-case without spaces or dashes.
 */

const COUNTY_CODES =
  "AB AG AR BC BH BN BR BT BV BZ CJ CL CS CT CV DB DJ GJ GL GR HD HR IF IL IS MH MM MS NT OT PH SB SJ SM SV TL TM TR VL VN VS";
const COUNTY = COUNTY_CODES.split(" ").join("|");
const ROMANIAN_PLATE = new RegExp(`^(B\\d{2,3}[A-Z]{3}|(${COUNTY})\\d{2}[A-Z]{3}|(B|${COUNTY})\\d{3,6})$`);

export const EXAMPLE_PLATE = "B 123 ABC";

/** Upper-case, without spaces, dots and dashes. */
export function normalisePlate(raw: string): string {
  return raw.replace(/[\s.\-–—_]/g, "").toUpperCase();
}

export function isRomanianPlate(normalised: string): boolean {
  return ROMANIAN_PLATE.test(normalised);
}

/** A plausible plate: Romanian shape, or 3–10 letters and digits with at least one of each (foreign). */
export function isPlausiblePlate(normalised: string): boolean {
  return isRomanianPlate(normalised) || FOREIGN_PLATE.test(normalised);
}

const FOREIGN_PLATE = /^(?=.*\p{Lu})(?=.*[0-9])[\p{Lu}0-9]{3,10}$/u;
