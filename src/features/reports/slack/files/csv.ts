/**
 * A small RFC 4180 CSV writer: CRLF line ends, fields quoted when they hold the separator, a
 * double quote, CR or LF (quotes doubled inside). The text starts with a UTF-8 byte order
 * mark so Excel opens it as UTF-8 and shows Romanian diacritics (ă â î ș ț) right; without
 * it Excel guesses the ANSI code page.
 *
 * The reader's language sets the dialect, so the file opens in columns in their spreadsheet:
 * English uses "," and a decimal point; Romanian uses ";" and a decimal comma, as a spreadsheet
 * set to Romanian expects (its list separator is ";" because "," is its decimal mark). Numbers
 * have no grouping in either, so every spreadsheet reads them as numbers.
 *
 * Formula injection: a spreadsheet runs a cell that starts with =, +, -, @ (and tab or CR)
 * as a formula, so a vehicle name or address typed by anyone ("=HYPERLINK(...)") could
 * run when a dispatcher opens the file. Such text fields are prefixed with an apostrophe
 * (OWASP's advice), which makes the cell plain text. Numbers are written as numbers and
 * never prefixed, so −18.5 °C stays a number.
 */
import { messages } from "../../../../i18n/catalogue.js";
import type { CsvColumn } from "../../../../i18n/en/reports.js";
import type { Language } from "../../../../i18n/language.js";

export type CsvValue = string | number | boolean | null | undefined;

export const CSV_BOM = "\uFEFF";

/** The field separator of a language's spreadsheets. */
const CSV_SEPARATOR: Readonly<Record<Language, string>> = { en: ",", ro: ";" };

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES: Readonly<Record<Language, RegExp>> = { en: /[",\r\n]/, ro: /[";\r\n]/ };

/**
 * One field in `lang`'s dialect: numbers as plain decimals (a decimal comma in Romanian),
 * booleans as the language's words ("true"/"false", "da"/"nu"), absent values empty.
 */
export function csvField(value: CsvValue, lang: Language): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return "";
    const text = String(value);
    return lang === "ro" ? text.replace(".", ",") : text;
  }
  if (typeof value === "boolean") return messages(lang).reports.csvWord(value ? "true" : "false");
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES[lang].test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole file in `lang`'s dialect: BOM, header row, data rows, each line ended by CRLF. */
export function toCsv(
  header: readonly string[],
  rows: readonly (readonly CsvValue[])[],
  lang: Language,
): string {
  const separator = CSV_SEPARATOR[lang];
  const lines = [header, ...rows].map((row) => row.map((value) => csvField(value, lang)).join(separator));
  return `${CSV_BOM}${lines.map((line) => `${line}\r\n`).join("")}`;
}

/** The header row of `columns` in `lang` (src/i18n/<lang>/reports.ts). */
export function csvHeader(columns: readonly CsvColumn[], lang: Language): string[] {
  const m = messages(lang).reports;
  return columns.map((column) => m.csvHeader(column));
}
