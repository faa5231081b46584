/**
 * Registration plates of trailers (the API gives no format: fleet-api.md, Gaps). A Romanian
 * plate is a county code and digits and three letters (`B 123 ABC`, `CJ 12 XYZ`) or a
 * temporary red plate (`B 123456`); a foreign plate is taken as 2–10 letters and digits
 * (letters with diacritics allowed: German district codes have umlauts).
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

/** A plausible plate: Romanian shape or 2–10 letters and digits (foreign). */
export function isPlausiblePlate(normalised: string): boolean {
  return isRomanianPlate(normalised) || /^[\p{Lu}0-9]{2,10}$/u.test(normalised);
}
