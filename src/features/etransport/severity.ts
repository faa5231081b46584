import type { IncidentKind } from "../../platform/store/contract/incidentRecords.js";
import type { TransportView } from "./types.js";

/**
 * How serious an alert is (pure). Severity follows what the code means to a dispatcher
 * (etransport-notes.md, issue 14): a fault that risks a fine is red, a condition that may
 * pass on its own is amber, and a fact that is expected (a vehicle abroad on an
 * international route) is informational.
 */
export type AlertSeverity = "fault" | "warning" | "info";

/** Transmission codes whose meaning is "may pass on its own, watch it". */
const WARNING_CODES: ReadonlySet<string> = new Set(["OldData", "WithoutTransmission"]);

export interface AlertSeverityInput {
  kind: IncidentKind;
  code: string;
  facts: Pick<TransportView, "startLocation" | "endLocation">;
}

export function alertSeverity(incident: AlertSeverityInput): AlertSeverity {
  // Positions stopped but may resume, and there are hours before they can no longer be sent.
  if (incident.kind === "stalled") return "warning";
  if (incident.kind !== "transmission") return "fault";
  if (incident.code === "NotInRomania") {
    // Abroad is expected on an international route; on a domestic one the vehicle should
    // not be abroad, so the positions the platform needs are missing: a real fault.
    return isDomesticRoute(incident.facts) ? "fault" : "info";
  }
  return WARNING_CODES.has(incident.code) ? "warning" : "fault";
}

/** True when both places of the route are known to be in Romania. */
export function isDomesticRoute(route: Pick<TransportView, "startLocation" | "endLocation">): boolean {
  return placeCountry(route.startLocation) === "RO" && placeCountry(route.endLocation) === "RO";
}

/**
 * Where a free-text place is, as far as its words tell: "RO" when it names Romania, a
 * Romanian county seat or a Romanian county; "abroad" when it names another country, a
 * foreign city or a border crossing (the route leaves Romania there); "unknown" otherwise.
 * Foreign words win, so "Budapesta, Ungaria" is abroad and "Nădlac II, punct de trecere a
 * frontierei" is the way out.
 */
export function placeCountry(place: string | undefined): "RO" | "abroad" | "unknown" {
  if (place === undefined) return "unknown";
  const words = ` ${normalise(place)} `;
  if (FOREIGN.some((name) => words.includes(` ${name} `))) return "abroad";
  if (ROMANIAN.some((name) => words.includes(` ${name} `))) return "RO";
  return "unknown";
}

/** Lower case, no diacritics (ș, ş, ț, ţ, ă, â, î), words separated by single spaces. */
function normalise(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

const ROMANIAN: readonly string[] = [
  "romania",
  "ro",
  "jud",
  "judetul",
  // County seats (and Bucharest in both languages).
  "bucuresti",
  "bucharest",
  "alba iulia",
  "arad",
  "pitesti",
  "bacau",
  "oradea",
  "bistrita",
  "botosani",
  "braila",
  "brasov",
  "buzau",
  "calarasi",
  "cluj napoca",
  "resita",
  "constanta",
  "sfantu gheorghe",
  "targoviste",
  "craiova",
  "galati",
  "giurgiu",
  "targu jiu",
  "miercurea ciuc",
  "deva",
  "slobozia",
  "iasi",
  "baia mare",
  "drobeta turnu severin",
  "targu mures",
  "piatra neamt",
  "slatina",
  "ploiesti",
  "zalau",
  "satu mare",
  "sibiu",
  "suceava",
  "alexandria",
  "timisoara",
  "tulcea",
  "vaslui",
  "ramnicu valcea",
  "focsani",
  // Counties whose name differs from their seat.
  "ilfov",
  "arges",
  "bihor",
  "cluj",
  "covasna",
  "dambovita",
  "dolj",
  "gorj",
  "harghita",
  "hunedoara",
  "ialomita",
  "maramures",
  "mehedinti",
  "mures",
  "neamt",
  "olt",
  "prahova",
  "salaj",
  "teleorman",
  "timis",
  "valcea",
  "vrancea",
  "caras severin",
  "bistrita nasaud",
];

const FOREIGN: readonly string[] = [
  // Border crossings: the route ends where it leaves Romania.
  "punct de trecere",
  "frontiera",
  "frontierei",
  "vama",
  "border",
  // Neighbours and the usual destinations, in Romanian and English.
  "ungaria",
  "hungary",
  "bulgaria",
  "serbia",
  "republica moldova",
  "moldova republic",
  "ucraina",
  "ukraine",
  "austria",
  "germania",
  "germany",
  "italia",
  "italy",
  "polonia",
  "poland",
  "slovacia",
  "slovakia",
  "cehia",
  "czechia",
  "franta",
  "france",
  "olanda",
  "netherlands",
  "belgia",
  "belgium",
  "spania",
  "spain",
  "grecia",
  "greece",
  "turcia",
  "turkey",
  "budapesta",
  "budapest",
  "sofia",
  "belgrad",
  "belgrade",
  "chisinau",
  "viena",
  "vienna",
  "wien",
];
