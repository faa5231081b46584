import { normalisePlate, type VehicleRef } from "../platform/vehicles/vehicleRefs.js";
import type { GrammarProblem } from "./problems.js";
import { decodeSlackEntities, foldWord, squeeze } from "./text.js";

export {
  normalisePlate,
  type ResolvedVehicles,
  resolveVehicle,
  resolveVehicles,
  type VehicleLike,
  type VehicleResolution,
} from "../platform/vehicles/vehicleRefs.js";

/** The words for every vehicle: `all`, and Romanian `toate`/`toți` (any case, with or without diacritics). */
const ALL_WORDS: ReadonlySet<string> = new Set(["all", "toate", "toti"]);

export function isAllWord(token: string): boolean {
  return ALL_WORDS.has(foldWord(token));
}

/**
 * Parsing of vehicle references (the text side); their resolution against the account's list
 * lives in the domain (src/platform/vehicles/vehicleRefs.ts) and is re-exported here for the grammar's users.
 *
 * Rules:
 * - `normalisePlate` keeps letters and digits only, upper-cased (`b 123-abc` → `B123ABC`).
 * - `#<digits>` is a vehicle id; `all` (any case) is every vehicle; anything else is text.
 * - Text is typed `plate` when it is plate-shaped (Romanian: 1–2 letters, 2–3 digits, 3 letters;
 *   foreign-looking: 4–10 letters and digits with at least one of each, no run of 4 letters, only
 *   letters, digits, spaces and dashes), otherwise `name`. The type is a hint for messages only:
 *   both are resolved the same way, plates first, then names.
 */

const ROMANIAN_PLATE = /^[A-Z]{1,2}\d{2,3}[A-Z]{3}$/;

export function isRomanianPlate(text: string): boolean {
  return ROMANIAN_PLATE.test(normalisePlate(text));
}

function isPlateShaped(raw: string): boolean {
  const n = normalisePlate(raw);
  if (ROMANIAN_PLATE.test(n)) return true;
  return (
    /^[\p{L}\p{N}\s-]+$/u.test(raw) &&
    n.length >= 4 &&
    n.length <= 10 &&
    /\p{L}/u.test(n) &&
    /\p{N}/u.test(n) &&
    !/\p{L}{4}/u.test(n)
  );
}

export type RefProblem = { ok: false; problem: GrammarProblem };

/** One reference from its text (already split on commas). */
export function parseVehicleRef(rawIn: string): { ok: true; ref: VehicleRef } | RefProblem {
  const raw = squeeze(decodeSlackEntities(rawIn));
  if (isAllWord(raw)) return { ok: true, ref: { type: "all", raw, normalised: "ALL" } };
  if (raw.startsWith("#")) {
    const id = raw.slice(1).trim();
    if (/^\d{1,15}$/.test(id) && Number(id) > 0) {
      return { ok: true, ref: { type: "id", raw, normalised: String(Number(id)), vehicleId: Number(id) } };
    }
    return { ok: false, problem: { code: "notAVehicleId", given: raw } };
  }
  const normalised = normalisePlate(raw);
  if (normalised === "") {
    return { ok: false, problem: { code: "notAVehicle", given: raw } };
  }
  return { ok: true, ref: { type: isPlateShaped(raw) ? "plate" : "name", raw, normalised } };
}

/**
 * Split a vehicle list on commas. Inside one comma-free part, several plate-shaped words or `#ids`
 * separated by spaces (`B-123-ABC CJ-07-XYZ`) are several vehicles, unless the whole part is itself
 * one plate (`b 123 abc`). Empty parts are ignored; duplicates (same type and normalised text) are dropped.
 */
export function parseVehicleList(text: string): { ok: true; refs: VehicleRef[] } | RefProblem {
  const refs: VehicleRef[] = [];
  const seen = new Set<string>();
  for (const part of text.split(",")) {
    const words = squeeze(part)
      .split(" ")
      .filter((w) => w !== "");
    if (words.length === 0) continue;
    const whole = words.join(" ");
    const separate =
      words.length > 1 &&
      !isRomanianPlate(whole) &&
      words.every((w) => isRomanianPlate(w) || /^#\d+$/.test(w) || isAllWord(w));
    for (const piece of separate ? words : [whole]) {
      const parsed = parseVehicleRef(piece);
      if (!parsed.ok) return parsed;
      const key = `${parsed.ref.type === "id" ? "id" : parsed.ref.type === "all" ? "all" : "text"}:${parsed.ref.normalised}`;
      if (seen.has(key)) continue;
      seen.add(key);
      refs.push(parsed.ref);
    }
  }
  return { ok: true, refs };
}
