import { describe, expect, it } from "vitest";
import { temperatureVehicles } from "../../../../src/features/alerts/vehicleWatch/vehicleSweep.js";

describe("which vehicles the sweep's one temperatures call names", () => {
  const ids = Array.from({ length: 25 }, (_, i) => i + 1);

  it("all of them when one call may", () => {
    expect(temperatureVehicles(ids, {}, undefined).vehicleIds).toHaveLength(25);
    expect(temperatureVehicles(ids, {}, 25).vehicleIds).toHaveLength(25);
  });

  it("over a limit: known reefers first, the others probed in turn until every vehicle was asked", () => {
    let state: { sensorVehicles?: number[]; probeCursor?: number } = {};
    const seen = new Set<number>();
    for (let sweep = 0; sweep < 3; sweep++) {
      const asked = temperatureVehicles(ids, state, 10);
      expect(asked.vehicleIds.length).toBeLessThanOrEqual(10);
      for (const id of asked.vehicleIds) seen.add(id);
      state = { ...state, ...(asked.probeCursor === undefined ? {} : { probeCursor: asked.probeCursor }) };
    }
    expect(seen.size).toBe(25);
    // Two reefers found: they are named at every sweep from then on, with 8 others probed.
    state = { sensorVehicles: [7, 19], probeCursor: 0 };
    for (let sweep = 0; sweep < 4; sweep++) {
      const asked = temperatureVehicles(ids, state, 10);
      expect(asked.vehicleIds.slice(0, 2)).toEqual([7, 19]);
      expect(new Set(asked.vehicleIds).size).toBe(10);
      state = { ...state, probeCursor: asked.probeCursor ?? 0 };
    }
  });

  it("more reefers than room: they take turns", () => {
    const sensors = Array.from({ length: 12 }, (_, i) => i + 1);
    const first = temperatureVehicles(ids, { sensorVehicles: sensors }, 5);
    const second = temperatureVehicles(
      ids,
      { sensorVehicles: sensors, probeCursor: first.probeCursor ?? 0 },
      5,
    );
    expect(first.vehicleIds).toEqual([1, 2, 3, 4, 5]);
    expect(second.vehicleIds).toEqual([6, 7, 8, 9, 10]);
  });
});
