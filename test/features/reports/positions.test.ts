import { describe, expect, it } from "vitest";
import { engineState, positionReport, vehicleListReport } from "../../../src/features/reports/index.js";
import type { Vehicle } from "../../../src/platform/fleet/schemas.js";
import { schemas } from "./helpers.js";

const NOW = Date.UTC(2026, 10, 3, 12, 0);

function vehicle(overrides: Record<string, unknown>): Vehicle {
  return schemas.vehicle.parse({
    vehicleId: 1,
    vehicleName: "Volvo FH",
    vehicleRegistrationNumber: "B-123-ABC",
    latitude: 44.4268,
    longitude: 26.1025,
    gpsDate: "2026-11-03T13:45:00", // company-local (UTC+2) = 11:45Z
    address: "Bulevardul Unirii, București",
    speed: 62.4,
    course: 245,
    engineEvent: 1,
    isPrivate: false,
    vehicleIdentificationNumber: "YV2RT40A5LB123456",
    vehicleManufacturer: "Volvo",
    vehicleModel: "FH 500",
    ...overrides,
  });
}

describe("positionReport", () => {
  it("gives the facts of the last position, JSON-safe", () => {
    const r = positionReport(vehicle({}), NOW);
    expect(r).toEqual({
      vehicle: { vehicleId: 1, plate: "B-123-ABC", name: "Volvo FH" },
      latitude: 44.4268,
      longitude: 26.1025,
      mapUrl: "https://www.openstreetmap.org/?mlat=44.426800&mlon=26.102500#map=15/44.426800/26.102500",
      address: "Bulevardul Unirii, București",
      speedKmh: 62.4,
      courseDeg: 245,
      engine: "on",
      gpsAtMs: Date.UTC(2026, 10, 3, 11, 45),
      ageMinutes: 15,
      isPrivate: false,
      vin: "YV2RT40A5LB123456",
      model: "Volvo FH 500",
    });
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
  });

  it("maps engineEvent 1 → on, 0 and 2 → off, anything else → unknown", () => {
    expect(engineState(1)).toBe("on");
    expect(engineState(0)).toBe("off");
    expect(engineState(2)).toBe("off");
    expect(engineState(3)).toBe("unknown");
    expect(engineState(undefined)).toBe("unknown");
  });

  it("invents nothing when the service sent no position, date or address", () => {
    const r = positionReport(
      vehicle({
        latitude: null,
        longitude: null,
        gpsDate: null,
        address: null,
        speed: null,
        engineEvent: null,
      }),
      NOW,
    );
    expect(r.latitude).toBeUndefined();
    expect(r.mapUrl).toBeUndefined();
    expect(r.gpsAtMs).toBeUndefined();
    expect(r.ageMinutes).toBeUndefined();
    expect(r.speedKmh).toBeUndefined();
    expect(r.engine).toBe("unknown");
  });
});

describe("vehicleListReport", () => {
  const fleet = [
    vehicle({
      vehicleId: 3,
      vehicleRegistrationNumber: "CJ-07-XYZ",
      vehicleName: "Frigo Cluj",
      address: "Turda",
    }),
    vehicle({
      vehicleId: 1,
      vehicleRegistrationNumber: "B-123-ABC",
      vehicleName: "Volvo FH",
      address: "Pitești",
    }),
    vehicle({
      vehicleId: 2,
      vehicleRegistrationNumber: "B-99-ZZZ",
      vehicleName: "Sprinter",
      address: "Ploiești",
    }),
  ];

  it("sorts by plate and counts", () => {
    const r = vehicleListReport(fleet, undefined, NOW);
    expect(r.items.map((i) => i.vehicle.plate)).toEqual(["B-123-ABC", "B-99-ZZZ", "CJ-07-XYZ"]);
    expect(r).toMatchObject({ total: 3, fleetTotal: 3, atMs: NOW });
    expect(r.filter).toBeUndefined();
  });

  it("matches plates without spaces and dashes, names and addresses case-insensitively", () => {
    expect(vehicleListReport(fleet, "b123abc", NOW).items.map((i) => i.vehicle.vehicleId)).toEqual([1]);
    expect(vehicleListReport(fleet, "CJ 07", NOW).items.map((i) => i.vehicle.vehicleId)).toEqual([3]);
    expect(vehicleListReport(fleet, "frigo", NOW).items.map((i) => i.vehicle.vehicleId)).toEqual([3]);
    expect(vehicleListReport(fleet, "PLOIEȘTI", NOW).items.map((i) => i.vehicle.vehicleId)).toEqual([2]);
    const none = vehicleListReport(fleet, " nowhere ", NOW);
    expect(none).toMatchObject({ filter: "nowhere", total: 0, fleetTotal: 3, items: [] });
  });
});
