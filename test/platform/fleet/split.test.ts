import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LocationPoint, StopRecord } from "../../../src/platform/fleet/schemas.js";
import {
  chunkVehicles,
  combineLimits,
  DAY_MS,
  DOCUMENTED_LIMITS,
  mergeStops,
  mergeWay,
  periodWithinDays,
  planCalls,
  planReport,
  splitPeriod,
} from "../../../src/platform/fleet/split.js";

const TZ = "Europe/Bucharest";
const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe("chunkVehicles", () => {
  it("cuts into groups of at most 10 in order", () => {
    expect(chunkVehicles(ids(25)).map((c) => c.length)).toEqual([10, 10, 5]);
    expect(chunkVehicles(ids(10))).toEqual([ids(10)]);
    expect(chunkVehicles([])).toEqual([]);
    expect(() => chunkVehicles(ids(3), 0)).toThrow(RangeError);
  });
});

describe("splitPeriod", () => {
  it("cuts 40 days into 31 + 9 sharing the boundary", () => {
    const from = new Date("2026-01-01T00:00:00Z");
    const to = new Date(from.getTime() + 40 * DAY_MS);
    const spans = splitPeriod(from, to, 31);
    expect(spans).toEqual([
      { from, to: new Date(from.getTime() + 31 * DAY_MS) },
      { from: new Date(from.getTime() + 31 * DAY_MS), to },
    ]);
  });

  it("keeps a period of exactly 31 days whole, and an empty period as one span", () => {
    const from = new Date("2026-01-01T00:00:00Z");
    expect(splitPeriod(from, new Date(from.getTime() + 31 * DAY_MS))).toHaveLength(1);
    expect(splitPeriod(from, from)).toEqual([{ from, to: from }]);
    expect(() => splitPeriod(from, new Date(from.getTime() - 1))).toThrow(RangeError);
  });

  it("with a time zone, no span is longer than 31 days on the company clock (spring forward)", () => {
    // 2026-03-29 is the spring-forward night: 31 elapsed days show as 31 d 1 h on the wall clock.
    const from = new Date("2026-03-10T00:00:00+02:00");
    const to = new Date(from.getTime() + 31 * DAY_MS);
    expect(periodWithinDays(from, to, 31)).toBe(true);
    expect(periodWithinDays(from, to, 31, TZ)).toBe(false);
    const spans = splitPeriod(from, to, 31, TZ);
    expect(spans).toHaveLength(2);
    for (const span of spans) expect(periodWithinDays(span.from, span.to, 31, TZ)).toBe(true);
  });

  it("property: spans cover [from, to] without gaps or overlaps, each at most 31 days", () => {
    const start = Date.UTC(2024, 0, 1);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3 * 365 * DAY_MS }),
        fc.integer({ min: 0, max: 400 * DAY_MS }),
        fc.constantFrom(undefined, TZ, "America/New_York"),
        fc.integer({ min: 1, max: 40 }),
        (offset, length, timeZone, maxDays) => {
          const from = new Date(start + offset);
          const to = new Date(start + offset + length);
          const spans = splitPeriod(from, to, maxDays, timeZone);
          expect(spans[0]?.from.getTime()).toBe(from.getTime());
          expect(spans.at(-1)?.to.getTime()).toBe(to.getTime());
          spans.forEach((span, i) => {
            expect(span.to.getTime()).toBeGreaterThanOrEqual(span.from.getTime());
            if (length > 0) expect(span.to.getTime()).toBeGreaterThan(span.from.getTime());
            expect(periodWithinDays(span.from, span.to, maxDays, timeZone)).toBe(true);
            if (i > 0) expect(span.from.getTime()).toBe(spans[i - 1]?.to.getTime());
          });
          // Not more spans than needed (allowing one extra for DST hours).
          expect(spans.length).toBeLessThanOrEqual(
            Math.max(1, Math.ceil(length / (maxDays * DAY_MS - 3_600_000))),
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("planCalls", () => {
  it("40 days × 25 vehicles is exactly 6 way requests (3 groups × 2 spans)", () => {
    const from = new Date("2026-01-01T00:00:00+02:00");
    const plan = planReport(
      "way",
      { vehicleIds: ids(25), from, to: new Date(from.getTime() + 40 * DAY_MS) },
      TZ,
    );
    expect(plan).toHaveLength(6);
    expect(plan.map((c) => c.vehicleIds.length)).toEqual([10, 10, 10, 10, 5, 5]);
    // Every vehicle appears in exactly the spans that cover the period.
    const covered = new Map<number, number>();
    for (const call of plan) for (const id of call.vehicleIds) covered.set(id, (covered.get(id) ?? 0) + 1);
    expect([...covered.values()].every((n) => n === 2)).toBe(true);
  });

  it("refills plan one call per vehicle; duplicates are ignored; the period is not cut", () => {
    const from = new Date("2026-01-01T00:00:00Z");
    const plan = planReport("refills", {
      vehicleIds: [3, 1, 3],
      from,
      to: new Date(from.getTime() + 40 * DAY_MS),
    });
    expect(plan.map((c) => c.vehicleIds)).toEqual([[3], [1]]);
    expect(plan.every((c) => c.from === from && c.to.getTime() === from.getTime() + 40 * DAY_MS)).toBe(true);
  });

  it("documented limits only: stops cut by vehicles, temperatures not at all", () => {
    const from = new Date("2026-01-01T00:00:00+02:00");
    const request = { vehicleIds: ids(25), from, to: new Date(from.getTime() + 40 * DAY_MS) };
    const stops = planReport("stops", request, TZ);
    expect(stops.map((c) => c.vehicleIds.length)).toEqual([10, 10, 5]);
    expect(stops.every((c) => c.to.getTime() - c.from.getTime() === 40 * DAY_MS)).toBe(true);
    expect(planReport("temperatures", request, TZ)).toEqual([request]);
    expect(planReport("consumption", request, TZ)).toHaveLength(6);
  });

  it("what fleet-api.md states, and nothing it leaves open", () => {
    expect(DOCUMENTED_LIMITS).toEqual({
      way: { maxVehicles: 10, maxDays: 31 },
      stops: { maxVehicles: 10 },
      consumption: { maxVehicles: 10, maxDays: 31 },
      temperatures: {},
      refills: { maxVehicles: 1 },
    });
  });

  it("explicit limits cut both ways; learned limits tighten documented ones field by field", () => {
    const from = new Date("2026-01-01T00:00:00Z");
    const limits = combineLimits(DOCUMENTED_LIMITS.stops, { maxDays: 7, maxVehicles: 20 });
    expect(limits).toEqual({ maxVehicles: 10, maxDays: 7 });
    expect(
      planCalls({ vehicleIds: ids(11), from, to: new Date(from.getTime() + 62 * DAY_MS) }, limits),
    ).toHaveLength(18);
    expect(planCalls({ vehicleIds: [], from, to: from }, {})).toEqual([]);
  });
});

describe("merging", () => {
  const point = (vehicleId: number, iso: string): LocationPoint => ({
    vehicleId,
    gpsDate: new Date(iso),
    latitude: 45,
    longitude: 25,
    speed: undefined,
    course: undefined,
  });

  it("way: by vehicle then time, a boundary point kept once", () => {
    const merged = mergeWay([
      [point(2, "2026-01-01T00:00:00Z"), point(1, "2026-01-31T00:00:00Z"), point(1, "2026-02-01T00:00:00Z")],
      [point(1, "2026-02-01T00:00:00Z"), point(1, "2026-02-05T00:00:00Z")],
    ]);
    expect(merged.map((p) => [p.vehicleId, p.gpsDate.toISOString().slice(0, 10)])).toEqual([
      [1, "2026-01-31"],
      [1, "2026-02-01"],
      [1, "2026-02-05"],
      [2, "2026-01-01"],
    ]);
  });

  it("stops: identical stops of two spans kept once", () => {
    const stop = {
      vehicleId: 1,
      startDate: new Date(1000),
      endDate: new Date(2000),
    } as unknown as StopRecord;
    expect(mergeStops([[stop], [{ ...stop }]])).toHaveLength(1);
  });

  it("stops: a stop the first span cut at its end gives way to the whole one of the next span", () => {
    const at = (ms: number) => new Date(ms);
    const stop = (vehicleId: number, start: number, end: number) =>
      ({ vehicleId, startDate: at(start), endDate: at(end) }) as unknown as StopRecord;
    const merged = mergeStops([
      [stop(1, 1000, 2000), stop(1, 5000, 9000), stop(2, 5000, 9000)],
      [stop(1, 5000, 12_000), stop(1, 13_000, 14_000)],
    ]);
    expect(merged.map((s) => [s.vehicleId, s.startDate.getTime(), s.endDate.getTime()])).toEqual([
      [1, 1000, 2000],
      [1, 5000, 12_000],
      [1, 13_000, 14_000],
      [2, 5000, 9000],
    ]);
  });
});
