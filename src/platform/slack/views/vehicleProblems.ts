/** The vehicles a request named that were not found: each in a sentence, and a few of them as lines. */
import { type Language, messages } from "../../../i18n/index.js";
import { normalisePlate, type VehicleLike, type VehicleResolution } from "../../vehicles/vehicleRefs.js";
import { ECHO_MAX, userText } from "./text.js";

/** At most this many vehicle problems are listed; the rest are counted. */
const PROBLEMS_SHOWN = 5;

/**
 * Vehicles that were not found, as plain sentences naming what the user typed (with backticks):
 * each escaped and cut, a few listed and the rest counted, so any number of them fits a section.
 */
export function vehicleProblemsMrkdwn(problems: readonly string[], language: Language): string {
  const shown = problems.slice(0, PROBLEMS_SHOWN).map((p) => userText(p, 400));
  const more = problems.length - shown.length;
  return [...shown, ...(more > 0 ? [messages(language).common.andMore(more)] : [])].join("\n");
}

/** A resolution that did not find one vehicle. */
export type ResolutionProblem = Exclude<VehicleResolution<VehicleLike>, { kind: "found" | "all" }>;

/** At most this many candidates of an ambiguous name are listed; the rest are counted. */
const CANDIDATES_SHOWN = 5;

function describeVehicle(v: VehicleLike): string {
  return v.name && normalisePlate(v.name) !== normalisePlate(v.plate) ? `${v.plate} (${v.name})` : v.plate;
}

/**
 * A vehicle that a reference did not find, as a sentence in `language` naming what was typed.
 * Not yet escaped (echoes in backticks, vehicle names as the service gives them): it goes through
 * vehicleProblemsMrkdwn, which escapes and cuts each line.
 */
export function resolutionProblemText(r: ResolutionProblem, language: Language): string {
  const t = messages(language).grammar;
  // What was typed is cut to an echo's budget here (escaping comes later, per line): a 5,000-character
  // "vehicle" is not told back at the line's full length.
  const c = (text: string) => {
    const chars = [...text.replace(/`/g, "'")];
    return `\`${chars.length > ECHO_MAX ? `${chars.slice(0, ECHO_MAX - 1).join("")}…` : chars.join("")}\``;
  };
  switch (r.kind) {
    case "ambiguous": {
      const shown = r.candidates.slice(0, CANDIDATES_SHOWN).map(describeVehicle).join(", ");
      const more = r.candidates.length - CANDIDATES_SHOWN;
      return t.vehicleAmbiguous({
        given: c(r.ref.raw),
        count: r.candidates.length,
        candidates: more > 0 ? `${shown} ${t.andMoreShort(more)}` : shown,
      });
    }
    case "unknown": {
      const suggestions = r.suggestions.map((v) => c(v.plate)).join(` ${t.or()} `);
      return r.ref.type === "plate"
        ? t.vehicleUnknownPlate({ given: c(r.ref.raw), suggestions })
        : t.vehicleUnknownName({ given: c(r.ref.raw), suggestions });
    }
    case "not-visible":
      return t.vehicleNotVisible({ vehicle: c(`#${r.vehicleId}`) });
  }
}
