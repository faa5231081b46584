/**
 * Key-case normalisation of service answers.
 *
 * fleet-api.md shows camelCase keys, but public clients of the real service type its
 * answers in PascalCase (`Payload`, `IsSuccess`, `VehicleId`, `GpsDate`): the backend is
 * ASP.NET and its casing depends on serializer settings. Lower-casing the first character
 * of every key, recursively, before zod parsing makes both spellings one shape
 * (`VehicleUId` → `vehicleUId`, `CodeUit` → `codeUit`, `UId` → `uId`) and keeps the
 * schemas single. Login's snake_case keys (`access_token`) are unaffected.
 *
 * Keys that are data rather than field names (the keys of a stops `results` object) are
 * lower-cased too; the client never relies on them (each stop carries its vehicleId).
 */
export function lowerFirstChar(key: string): string {
  if (key.length === 0) return key;
  const first = key.charAt(0);
  const lower = first.toLowerCase();
  return first === lower ? key : lower + key.slice(1);
}

export function normalizeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalizeKeys);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      const normalized = lowerFirstChar(key);
      // Should both spellings ever arrive, the camelCase one (the documented form) wins.
      if (normalized !== key && Object.hasOwn(value, normalized)) continue;
      out[normalized] = normalizeKeys(inner);
    }
    return out;
  }
  return value;
}

/** Stable JSON: object keys sorted, so equal bodies give equal strings (gate shareKey). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner !== null && typeof inner === "object" && !Array.isArray(inner)) {
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(inner).sort()) sorted[k] = (inner as Record<string, unknown>)[k];
      return sorted;
    }
    return inner;
  });
}
