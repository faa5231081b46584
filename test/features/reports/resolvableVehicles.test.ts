import { describe, expect, it } from "vitest";
import { parseVehicleRef } from "../../../src/commands/vehicles.js";
import { resolvableVehicles } from "../../../src/features/reports/catalogue.js";
import type { Vehicle } from "../../../src/platform/fleet/schemas.js";
import { resolveVehicles, type VehicleRef } from "../../../src/platform/vehicles/vehicleRefs.js";

function refOf(text: string): VehicleRef {
  const parsed = parseVehicleRef(text);
  if (!parsed.ok) throw new Error(`not a vehicle reference: ${text}`);
  return parsed.ref;
}

const vehicle = (vehicleId: number, plate: string | undefined, name: string): Vehicle =>
  ({
    vehicleId,
    vehicleRegistrationNumber: plate,
    vehicleName: name,
    vehicleUId: `uid-${vehicleId}`,
  }) as Vehicle;

describe("resolvableVehicles", () => {
  it("makes a list's resolvable vehicles once; a new list gets its own", () => {
    const list = [vehicle(1, "B-01-AAA", "Volvo"), vehicle(2, undefined, "Dacia")];
    const first = resolvableVehicles(list);
    expect(first).toEqual([
      { vehicleId: 1, plate: "B-01-AAA", name: "Volvo", vehicleUId: "uid-1", vehicle: list[0] },
      { vehicleId: 2, plate: "#2", name: "Dacia", vehicleUId: "uid-2", vehicle: list[1] },
    ]);
    expect(resolvableVehicles(list)).toBe(first);
    expect(resolvableVehicles([...list])).not.toBe(first);
  });

  it("a refreshed list (a plate changed) resolves by its own plates, not the old list's", () => {
    const ref = refOf("B-02-BBB");
    const before = [vehicle(1, "B-01-AAA", "Volvo")];
    expect(resolveVehicles([ref], resolvableVehicles(before)).ok).toBe(false);
    const after = [vehicle(1, "B-02-BBB", "Volvo")];
    const resolved = resolveVehicles([ref], resolvableVehicles(after));
    expect(resolved.ok).toBe(true);
    expect(resolved.vehicles.map((v) => v.vehicleId)).toEqual([1]);
    // And the old list still reads as it did.
    expect(resolveVehicles([ref], resolvableVehicles(before)).ok).toBe(false);
  });
});
