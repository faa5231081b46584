/**
 * Slack views of the vehicle-data reports (pure: report object in, message out), one module per
 * report, in the reader's language (`options.language`, resolved once per task): every word from
 * the `reports` catalogue section, numbers, quantities, durations and dates in the one form of
 * src/i18n/format.ts. Reports are stored and rendered later, so nothing here reads a clock:
 * relative times use Slack's `{ago}` token in English, rendered at reading time (Romanian: the
 * age at the render's `nowMs`, since Slack writes `{ago}` in English). Pages are 0-based; a view
 * given a page out of range shows the nearest one. Every message stays inside Slack's limits
 * (vehicleFormat).
 *
 * This module: the forms every report view writes in (its words, whole numbers, speeds, litres,
 * places as map links, page labels) and the page sizes.
 */
import { messages } from "../../../../i18n/catalogue.js";
import { litres, number } from "../../../../i18n/format.js";
import type { Language } from "../../../../i18n/language.js";
import { clipMrkdwn } from "./vehicleFormat.js";

/** Vehicles per page of the vehicle list and the fuel report; stops per page. */
export const VEHICLES_PER_PAGE = 10;
export const STOPS_PER_PAGE = 25;
/** Characters of list lines per page (the rest of a message is well below 3,000). */
export const PAGE_CHARS = 7000;

export const words = (lang: Language) => messages(lang).reports;

/** A whole number in the reader's digits: "1,234" / "1.234". */
export const whole = (lang: Language, n: number) => number(lang, n, { maxFractionDigits: 0 });
/** A speed: "63 km/h". */
export const speedText = (lang: Language, kmh: number) => `${whole(lang, kmh)} km/h`;
/** Litres, or "—" when the service gave none. */
export const litresOr = (lang: Language, n: number | undefined) => (n === undefined ? "—" : litres(lang, n));

export function pageLabel(lang: Language, page: number, count: number): string | undefined {
  return count > 1 ? words(lang).page({ page: String(page + 1), count: String(count) }) : undefined;
}

/** "<map|address>" or "address" or "<map|lat, lon>" or undefined (coordinates stay in the dotted form maps use). */
export function placeMrkdwn(
  p: { address?: string; latitude?: number; longitude?: number; mapUrl?: string },
  maxAddress: number,
): string | undefined {
  const label =
    p.address !== undefined
      ? clipMrkdwn(p.address, maxAddress).replace(/\|/g, "¦")
      : p.latitude !== undefined && p.longitude !== undefined
        ? `${p.latitude.toFixed(5)}, ${p.longitude.toFixed(5)}`
        : undefined;
  const url =
    p.mapUrl ??
    (p.latitude !== undefined && p.longitude !== undefined
      ? `https://www.openstreetmap.org/?mlat=${p.latitude.toFixed(6)}&mlon=${p.longitude.toFixed(6)}#map=15/${p.latitude.toFixed(6)}/${p.longitude.toFixed(6)}`
      : undefined);
  if (label === undefined) return undefined;
  return url ? `<${url}|${label}>` : label;
}
