/**
 * A small RFC 4180 CSV writer: CRLF line ends, fields quoted when they hold a comma, a
 * double quote, CR or LF (quotes doubled inside). The text starts with a UTF-8 byte order
 * mark so Excel opens it as UTF-8 and shows Romanian diacritics (ă â î ș ț) right; without
 * it Excel guesses the ANSI code page.
 *
 * Formula injection: a spreadsheet runs a cell that starts with =, +, -, @ (and tab or CR)
 * as a formula, so a vehicle name or address typed by anyone ("=HYPERLINK(...)") could
 * run when a dispatcher opens the file. Such text fields are prefixed with an apostrophe
 * (OWASP's advice), which makes the cell plain text. Numbers are written as numbers and
 * never prefixed, so −18.5 °C stays a number.
 */

export type CsvValue = string | number | boolean | null | undefined;

export const CSV_BOM = "\uFEFF";

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field: numbers as plain decimals, booleans "true"/"false", absent values empty. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "true" : "false";
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole file: BOM, header row, data rows, each line ended by CRLF. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  const lines = [header, ...rows].map((row) => row.map(csvField).join(","));
  return `${CSV_BOM}${lines.map((line) => `${line}\r\n`).join("")}`;
}
