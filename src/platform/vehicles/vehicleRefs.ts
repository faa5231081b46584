/**
 * Vehicle references (as users name vehicles: plate, name, `#id`, `all`) and their
 * resolution against the account's vehicle list. Pure; the grammar parses the text into
 * references, the vehicle-report task resolves them. Resolution rules:
 * - Text, first tier that matches anything wins (one match = found, several = ambiguous):
 *   1. same normalised plate, or same vehicleUId (GUID, any case);
 *   2. same name (case and spacing ignored), then same name with letters and digits only;
 *   3. names starting with the text;
 *   4. names containing the text, or plates containing the normalised text (at least 3 characters).
 * - Unknown text gets up to 3 suggestions: vehicles whose normalised plate or name is within an edit
 *   distance of max(2, 40 % of the text's length), closest first.
 * - `#id` not in the list is "not visible": the id is well-formed but this account cannot see it.
 * - Resolved vehicles are deduplicated by vehicleId, in the order first referred to.
 */

/**
 * A vehicle as the user wrote it, not yet resolved. `plate` and `name` differ only as a hint
 * (plate-shaped text or not); resolveVehicles tries plates first, then names, for both.
 */
export type VehicleRef =
  | { type: "all"; raw: string; normalised: "ALL" }
  | { type: "id"; raw: string; normalised: string; vehicleId: number }
  | { type: "plate"; raw: string; normalised: string }
  | { type: "name"; raw: string; normalised: string };

export interface VehicleLike {
  vehicleId: number;
  vehicleUId?: string;
  name: string;
  plate: string;
}

export function normalisePlate(text: string): string {
  return text.replace(/[^\p{L}\p{N}]/gu, "").toUpperCase();
}

/** Optimal-string-alignment edit distance (Levenshtein plus adjacent transpositions: `stosp` → `stops` is 1). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [];
    for (let j = 0; j <= b.length; j++) row.push(i === 0 ? j : j === 0 ? i : 0);
    rows.push(row);
  }
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i]!;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      row[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * Slack sends the text of a slash command with `&`, `<` and `>` escaped; undo that for free text
 * (vehicle names, search words). Channel links (`<#C…|name>`) are read before this is applied.
 */
export function decodeSlackEntities(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/** Trim and collapse every run of white space (including no-break spaces) to one space. */
export function squeeze(text: string): string {
  return text.replace(/\s+/g, " ").trim();
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

interface VehicleKeys {
  plate: string;
  name: string;
  nameAsPlate: string;
}

const keysByVehicle = new WeakMap<VehicleLike, VehicleKeys>();

/**
 * A vehicle's plate and name as references are compared with them, worked out once per vehicle
 * object: a cached list is resolved against on every command, and the Unicode-aware
 * normalising of every vehicle, each time, was most of a resolution's cost.
 */
function keysOf(vehicle: VehicleLike): VehicleKeys {
  let keys = keysByVehicle.get(vehicle);
  if (!keys) {
    keys = {
      plate: normalisePlate(vehicle.plate),
      name: nameKey(vehicle.name),
      nameAsPlate: normalisePlate(vehicle.name),
    };
    keysByVehicle.set(vehicle, keys);
  }
  return keys;
}

function resolveText<V extends VehicleLike>(ref: VehicleRef, vehicles: readonly V[]): VehicleResolution<V> {
  const n = ref.normalised;
  const key = nameKey(ref.raw);
  const guid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(ref.raw)
    ? ref.raw.toLowerCase()
    : "";
  const hits = firstTier(vehicles, [
    (v) => keysOf(v).plate === n || (guid !== "" && v.vehicleUId?.toLowerCase() === guid),
    (v) => keysOf(v).name === key,
    (v) => keysOf(v).nameAsPlate === n,
    (v) => keysOf(v).name.startsWith(key) || keysOf(v).nameAsPlate.startsWith(n),
    (v) =>
      (key.length >= 2 && keysOf(v).name.includes(key)) ||
      (n.length >= 3 && (keysOf(v).plate.includes(n) || keysOf(v).nameAsPlate.includes(n))),
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

/**
 * What to write instead of a reference: itself when it resolved, the closest plate when it did not
 * (the first suggestion or candidate); undefined when nothing comes close or the id is not visible.
 */
export function replacementFor(r: VehicleResolution): string | undefined {
  switch (r.kind) {
    case "found":
    case "all":
      return r.ref.raw;
    case "ambiguous":
      return r.candidates[0]?.plate;
    case "unknown":
      return r.suggestions[0]?.plate;
    case "not-visible":
      return undefined;
  }
}
