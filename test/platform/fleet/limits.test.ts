import { describe, expect, it } from "vitest";
import {
  CallLimitBook,
  type LimitBookStorage,
  limitAfterRefusal,
  readLimitRefusal,
} from "../../../src/platform/fleet/limits.js";
import type { CallLimits, PlannedCall, SplittableEndpoint } from "../../../src/platform/fleet/split.js";
import { DAY_MS } from "./helpers.js";

const reason = (errorCode: string, ...errorParameters: string[]) => ({ errorCode, errorParameters });
const from = new Date("2026-09-01T00:00:00Z");
const call = (vehicles: number, days: number): PlannedCall => ({
  vehicleIds: Array.from({ length: vehicles }, (_, i) => i + 1),
  from,
  to: new Date(from.getTime() + days * DAY_MS),
});

describe("readLimitRefusal", () => {
  it("reads vehicle-count and period refusals, with the numbers they carry", () => {
    expect(readLimitRefusal([reason("TooManyVehicles", "10", "25")])).toEqual({
      dimension: "vehicles",
      numbers: [10, 25],
    });
    expect(readLimitRefusal([reason("PeriodTooLong", "31")])).toEqual({ dimension: "period", numbers: [31] });
    // Generic codes: the parameters name the subject.
    expect(readLimitRefusal([reason("ValidationError", "The period may not exceed 7 days")])).toEqual({
      dimension: "period",
      numbers: [7],
    });
    expect(readLimitRefusal([reason("LimitExceeded", "vehiclesList")])).toEqual({
      dimension: "vehicles",
      numbers: [],
    });
    // The first reason that is a limit wins.
    expect(readLimitRefusal([reason("Other"), reason("MaxDaysExceeded")])?.dimension).toBe("period");
  });

  it("other 400s are not limits: wrong order, missing or invalid fields", () => {
    expect(readLimitRefusal([reason("InvalidPeriod", "startDate", "endDate")])).toBeUndefined();
    expect(readLimitRefusal([reason("MissingParameter", "vehiclesList")])).toBeUndefined();
    expect(readLimitRefusal([reason("InvalidParameter", "startDate", "unreadable date")])).toBeUndefined();
    expect(readLimitRefusal([reason("TooManyStatuses", "5")])).toBeUndefined();
    expect(readLimitRefusal([])).toBeUndefined();
  });
});

describe("limitAfterRefusal", () => {
  const vehicles = (...numbers: number[]) => ({ dimension: "vehicles" as const, numbers });
  const period = (...numbers: number[]) => ({ dimension: "period" as const, numbers });

  it("takes the stated limit when it is below what was sent", () => {
    expect(limitAfterRefusal(vehicles(10, 25), call(25, 40))).toEqual({ maxVehicles: 10 });
    expect(limitAfterRefusal(period(31), call(10, 40))).toEqual({ maxDays: 31 });
  });

  it("halves when no usable number is given (none, or not below what was sent)", () => {
    expect(limitAfterRefusal(vehicles(), call(25, 40))).toEqual({ maxVehicles: 12 });
    expect(limitAfterRefusal(vehicles(30), call(7, 40))).toEqual({ maxVehicles: 3 });
    expect(limitAfterRefusal(period(), call(10, 40))).toEqual({ maxDays: 20 });
    expect(limitAfterRefusal(period(40), call(10, 40))).toEqual({ maxDays: 20 });
    expect(limitAfterRefusal(period(), call(10, 1))).toEqual({ maxDays: 0.5 });
  });

  it("cannot cut one vehicle, or a period of an hour", () => {
    expect(limitAfterRefusal(vehicles(), call(1, 40))).toBeUndefined();
    expect(limitAfterRefusal(period(), call(3, 1 / 24))).toBeUndefined();
  });
});

class MemoryRepository implements LimitBookStorage {
  readonly rows = new Map<string, CallLimits>();
  load(service: string): Partial<Record<SplittableEndpoint, CallLimits>> {
    const out: Partial<Record<SplittableEndpoint, CallLimits>> = {};
    for (const endpoint of ["way", "stops", "consumption", "temperatures", "refills"] as const) {
      const row = this.rows.get(`${service} ${endpoint}`);
      if (row) out[endpoint] = row;
    }
    return out;
  }
  save(service: string, endpoint: SplittableEndpoint, limits: CallLimits): void {
    this.rows.set(`${service} ${endpoint}`, { ...limits });
  }
}

describe("CallLimitBook", () => {
  it("documented limits stay hard; lessons only tighten, are saved, and are read back by a new book", () => {
    const repository = new MemoryRepository();
    const book = new CallLimitBook("http://fleet.test", repository);
    expect(book.limitsFor("stops")).toEqual({ maxVehicles: 10 });
    expect(book.limitsFor("temperatures")).toEqual({});
    expect(book.learn("stops", { maxDays: 31 })).toEqual({ maxVehicles: 10, maxDays: 31 });
    // A looser lesson changes nothing; a vehicle lesson above the documented 10 does not loosen it.
    expect(book.learn("stops", { maxDays: 40, maxVehicles: 20 })).toEqual({ maxVehicles: 10, maxDays: 31 });
    expect(book.learned("stops")).toEqual({ maxVehicles: 20, maxDays: 31 });
    book.learn("temperatures", { maxVehicles: 5 });

    const restarted = new CallLimitBook("http://fleet.test", repository);
    expect(restarted.limitsFor("stops")).toEqual({ maxVehicles: 10, maxDays: 31 });
    expect(restarted.limitsFor("temperatures")).toEqual({ maxVehicles: 5 });
    // Another service knows nothing of it.
    expect(new CallLimitBook("http://other.test", repository).limitsFor("stops")).toEqual({
      maxVehicles: 10,
    });
  });

  it("ignores stored values no plan can use", () => {
    const repository = new MemoryRepository();
    repository.save("s", "stops", { maxVehicles: 0, maxDays: Number.NaN });
    repository.save("s", "refills", { maxDays: -3 });
    const book = new CallLimitBook("s", repository);
    expect(book.limitsFor("stops")).toEqual({ maxVehicles: 10 });
    expect(book.limitsFor("refills")).toEqual({ maxVehicles: 1 });
  });

  it("without a repository, lessons live in memory only", () => {
    const book = new CallLimitBook("s");
    expect(book.learn("refills", { maxDays: 7 })).toEqual({ maxVehicles: 1, maxDays: 7 });
    expect(new CallLimitBook("s").limitsFor("refills")).toEqual({ maxVehicles: 1 });
  });
});
