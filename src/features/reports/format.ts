export { wallText } from "../../platform/time/wallText.js";

/** Rounds to `digits` decimals (JSON-friendly numbers in stored reports). */
export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Plates compared as people type them: upper case, without spaces, dashes or dots. */
export function normalizePlate(plate: string): string {
  return plate.toUpperCase().replace(/[\s\-.]/g, "");
}

/** Code-unit order (locale-independent, so sorting is identical on every machine). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const EARTH_RADIUS_KM = 6371.0088;

/** Great-circle distance in km (haversine, mean Earth radius). */
export function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}
