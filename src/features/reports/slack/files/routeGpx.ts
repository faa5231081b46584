/** The route's GPX file: the track of one vehicle, its description in the reader's language. */
import type { Language } from "../../../../i18n/language.js";
import { periodText } from "../../../../i18n/periodText.js";
import type { RouteReport } from "../../route.js";

/** Text for XML content and attributes; characters XML 1.0 forbids are dropped. */
export function xmlEscape(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing characters XML 1.0 forbids
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&apos;")
  );
}

const utcIso = (ms: number): string => new Date(ms).toISOString();

function trackName(report: RouteReport): string {
  const { plate, name } = report.vehicle;
  return [plate, name].filter(Boolean).join(" — ") || `#${report.vehicle.vehicleId}`;
}

/**
 * GPX 1.1: one trk with one trkseg, a trkpt per point with its UTC time. GPX 1.1 has no
 * speed element (1.0 had), so speed is left to the CSV. The description is the period's label
 * in the reader's language.
 */
export function routeGpx(report: RouteReport, language: Language): string {
  const name = xmlEscape(trackName(report));
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<gpx version="1.1" creator="fleetbot" xmlns="http://www.topografix.com/GPX/1/1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">',
    "  <metadata>",
    `    <name>${name}</name>`,
    `    <desc>${xmlEscape(periodText(report.period.label, language))}</desc>`,
    `    <time>${utcIso(report.period.toMs)}</time>`,
    "  </metadata>",
    "  <trk>",
    `    <name>${name}</name>`,
    "    <trkseg>",
    ...report.points.map(
      (p) =>
        `      <trkpt lat="${p.lat.toFixed(6)}" lon="${p.lon.toFixed(6)}"><time>${utcIso(p.atMs)}</time></trkpt>`,
    ),
    "    </trkseg>",
    "  </trk>",
    "</gpx>",
  ];
  return `${lines.join("\n")}\n`;
}
