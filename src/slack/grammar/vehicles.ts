import { code, decodeSlackEntities, editDistance, squeeze } from "./text.js";
import type { VehicleRef } from "./types.js";

/**
 * Vehicle references and their resolution against the account's vehicle list. Pure.
 *
 * Rules:
 * - `normalisePlate` keeps letters and digits only, upper-cased (`b 123-abc` → `B123ABC`).
 * - `#<digits>` is a vehicle id; `all` (any case) is every vehicle; anything else is text.
 * - Text is typed `plate` when it is plate-shaped (Romanian: 1–2 letters, 2–3 digits, 3 letters;
 *   foreign-looking: 4–10 letters and digits with at least one of each, no run of 4 letters, only
 *   letters, digits, spaces and dashes), otherwise `name`. The type is a hint for messages only:
 *   both are resolved the same way, plates first, then names.
 * - Resolution of text, first tier that matches anything wins (one match = found, several = ambiguous):
 *   1. same normalised plate, or same vehicleUId (GUID, any case);
 *   2. same name (case and spacing ignored), then same name with letters and digits only;
 *   3. names starting with the text;
 *   4. names containing the text, or plates containing the normalised text (at least 3 characters).
 * - Unknown text gets up to 3 suggestions: vehicles whose normalised plate or name is within an edit
 *   distance of max(2, 40 % of the text's length), closest first.
 * - `#id` not in the list is "not visible": the id is well-formed but this account cannot see it.
 * - Resolved vehicles are deduplicated by vehicleId, in the order first referred to.
 */

export interface VehicleLike {
  vehicleId: number;
  vehicleUId?: string;
  name: string;
  plate: string;
}

export function normalisePlate(text: string): string {
  return text.replace(/[^\p{L}\p{N}]/gu, "").toUpperCase();
}

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

export type RefProblem = { ok: false; message: string };

/** One reference from its text (already split on commas). */
export function parseVehicleRef(rawIn: string): { ok: true; ref: VehicleRef } | RefProblem {
  const raw = squeeze(decodeSlackEntities(rawIn));
  if (/^all$/i.test(raw)) return { ok: true, ref: { type: "all", raw, normalised: "ALL" } };
  if (raw.startsWith("#")) {
    const id = raw.slice(1).trim();
    if (/^\d{1,15}$/.test(id) && Number(id) > 0) {
      return { ok: true, ref: { type: "id", raw, normalised: String(Number(id)), vehicleId: Number(id) } };
    }
    return {
      ok: false,
      message: `${code(raw)} is not a vehicle id: ids are whole numbers after #, like ${code("#1234")}.`,
    };
  }
  const normalised = normalisePlate(raw);
  if (normalised === "") {
    return { ok: false, message: `${code(raw)} is not a vehicle: give a registration number or a name.` };
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
      words.every((w) => isRomanianPlate(w) || /^#\d+$/.test(w) || /^all$/i.test(w));
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

export type VehicleResolution<V extends VehicleLike = VehicleLike> =
  | { kind: "found"; ref: VehicleRef; vehicle: V }
  | { kind: "all"; ref: VehicleRef; vehicles: V[] }
  | { kind: "ambiguous"; ref: VehicleRef; candidates: V[] }
  | { kind: "unknown"; ref: VehicleRef; suggestions: V[] }
  | { kind: "not-visible"; ref: VehicleRef; vehicleId: number };

export interface ResolvedVehicles<V extends VehicleLike = VehicleLike> {
  /** True when every reference resolved to one vehicle or to `all`. */
  ok: boolean;
  /** Found vehicles, deduplicated by vehicleId, in the order first referred to. */
  vehicles: V[];
  /** One entry per reference, in order. */
  resolutions: VehicleResolution<V>[];
  /** The resolutions that are not found/all, in order. */
  problems: Exclude<VehicleResolution<V>, { kind: "found" | "all" }>[];
}

function nameKey(name: string): string {
  return squeeze(decodeSlackEntities(name)).toLowerCase();
}

function firstTier<V extends VehicleLike>(vehicles: readonly V[], tests: ((v: V) => boolean)[]): V[] {
  for (const test of tests) {
    const hits = vehicles.filter(test);
    if (hits.length > 0) return hits;
  }
  return [];
}

function suggestionsFor<V extends VehicleLike>(ref: VehicleRef, vehicles: readonly V[]): V[] {
  const needle = ref.normalised;
  const limit = Math.max(2, Math.floor(needle.length * 0.4));
  return vehicles
    .map((v, index) => ({
      v,
      index,
      d: Math.min(
        editDistance(needle, normalisePlate(v.plate)),
        editDistance(needle, normalisePlate(v.name)),
      ),
    }))
    .filter((x) => x.d <= limit)
    .sort((x, y) => x.d - y.d || x.index - y.index)
    .slice(0, 3)
    .map((x) => x.v);
}

function resolveText<V extends VehicleLike>(ref: VehicleRef, vehicles: readonly V[]): VehicleResolution<V> {
  const n = ref.normalised;
  const key = nameKey(ref.raw);
  const guid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(ref.raw)
    ? ref.raw.toLowerCase()
    : "";
  const hits = firstTier(vehicles, [
    (v) => normalisePlate(v.plate) === n || (guid !== "" && v.vehicleUId?.toLowerCase() === guid),
    (v) => nameKey(v.name) === key,
    (v) => normalisePlate(v.name) === n,
    (v) => nameKey(v.name).startsWith(key) || normalisePlate(v.name).startsWith(n),
    (v) =>
      (key.length >= 2 && nameKey(v.name).includes(key)) ||
      (n.length >= 3 && (normalisePlate(v.plate).includes(n) || normalisePlate(v.name).includes(n))),
  ]);
  if (hits.length === 1) return { kind: "found", ref, vehicle: hits[0]! };
  if (hits.length > 1) return { kind: "ambiguous", ref, candidates: hits };
  return { kind: "unknown", ref, suggestions: suggestionsFor(ref, vehicles) };
}

export function resolveVehicle<V extends VehicleLike>(
  ref: VehicleRef,
  vehicles: readonly V[],
): VehicleResolution<V> {
  switch (ref.type) {
    case "all":
      return { kind: "all", ref, vehicles: [...vehicles] };
    case "id": {
      const hit = vehicles.find((v) => v.vehicleId === ref.vehicleId);
      return hit
        ? { kind: "found", ref, vehicle: hit }
        : { kind: "not-visible", ref, vehicleId: ref.vehicleId };
    }
    default:
      return resolveText(ref, vehicles);
  }
}

/** Resolve references against the vehicles the account may see. */
export function resolveVehicles<V extends VehicleLike>(
  refs: readonly VehicleRef[],
  vehicles: readonly V[],
): ResolvedVehicles<V> {
  const resolutions = refs.map((ref) => resolveVehicle(ref, vehicles));
  const seen = new Set<number>();
  const found: V[] = [];
  const add = (v: V): void => {
    if (seen.has(v.vehicleId)) return;
    seen.add(v.vehicleId);
    found.push(v);
  };
  const problems: ResolvedVehicles<V>["problems"] = [];
  for (const r of resolutions) {
    if (r.kind === "found") add(r.vehicle);
    else if (r.kind === "all") for (const v of r.vehicles) add(v);
    else problems.push(r);
  }
  return { ok: problems.length === 0, vehicles: found, resolutions, problems };
}

function describe(v: VehicleLike): string {
  return v.name && normalisePlate(v.name) !== normalisePlate(v.plate) ? `${v.plate} (${v.name})` : v.plate;
}

/** A dispatcher-facing sentence for a resolution that did not find one vehicle; undefined when it did. */
export function describeResolutionProblem(r: VehicleResolution): string | undefined {
  switch (r.kind) {
    case "found":
    case "all":
      return undefined;
    case "ambiguous": {
      const shown = r.candidates.slice(0, 5).map(describe).join(", ");
      const more = r.candidates.length > 5 ? ` and ${r.candidates.length - 5} more` : "";
      return `${code(r.ref.raw)} matches ${r.candidates.length} vehicles: ${shown}${more}. Give the registration number.`;
    }
    case "unknown": {
      const what = r.ref.type === "plate" ? "with registration number" : "named";
      const hint =
        r.suggestions.length > 0
          ? ` Did you mean ${r.suggestions.map((v) => code(v.plate)).join(" or ")}?`
          : "";
      return `No vehicle ${what} ${code(r.ref.raw)} in this account.${hint}`;
    }
    case "not-visible":
      return `Vehicle ${code(`#${r.vehicleId}`)} is not visible to this fleet account.`;
  }
}
