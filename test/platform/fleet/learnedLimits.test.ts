import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FleetClient, type FleetSession } from "../../../src/platform/fleet/client.js";
import { BadRequestError } from "../../../src/platform/fleet/errors.js";
import { DAY_MS } from "../../../src/platform/fleet/split.js";
import { type Db, openDatabase } from "../../../src/platform/store/database.js";
import { SqliteLearnedLimitsStore } from "../../../src/platform/store/learnedLimits.js";
import { type RunningSimulator, startSimulator } from "../../../src/simulator/index.js";
import { recordingGate } from "./helpers.js";

/**
 * Calls per report against the simulator over HTTP. The simulator enforces fleet-api.md's
 * stated limits by default and, in strict mode, tighter limits the document leaves open;
 * the client must not guess those up front, and must learn them from the refusals.
 */

const TZ = "Europe/Bucharest";
const NOW = Date.parse("2026-11-10T12:00:00Z");
const from = new Date(NOW - 45 * DAY_MS);
const to = new Date(from.getTime() + 40 * DAY_MS);

let lenient: RunningSimulator;
let strict: RunningSimulator;
let allIds: number[];
const dirs: string[] = [];
const dbs: Db[] = [];

const simulator = (strictLimits: boolean) =>
  startSimulator({ port: 0, minIntervalMs: 0, control: true, seed: 7, now: () => NOW, strictLimits });

beforeAll(async () => {
  [lenient, strict] = await Promise.all([simulator(false), simulator(true)]);
  allIds = lenient.vehicles.map((v) => v.vehicleId);
});
afterAll(async () => {
  await Promise.all([lenient.close(), strict.close()]);
});
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  lenient.control.reset();
  strict.control.reset();
});

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "fleetbot-limits-"));
  dirs.push(dir);
  return dir;
}

/** A bot process's view: its store in `dataDir`, a client on `sim`, the demo account. */
function start(sim: RunningSimulator, dataDir?: string) {
  const db = dataDir ? openDatabase(dataDir) : undefined;
  if (db) dbs.push(db);
  const store = db ? new SqliteLearnedLimitsStore(db) : undefined;
  const gate = recordingGate();
  const client = new FleetClient({
    baseUrl: sim.url,
    apiVersion: "2.0",
    timeZone: TZ,
    gate,
    learnedLimits: store,
  });
  const session: FleetSession = client.session({ username: "demo", password: "demo" });
  return { client, session, gate, store };
}

/** The vehicle-data requests the simulator saw for `endpoint`, oldest first. */
function sent(sim: RunningSimulator, endpoint: string) {
  return sim.control
    .requests(500)
    .filter((r) => r.endpoint === endpoint)
    .map((r) => {
      const body = r.body as { vehiclesList?: number[]; startDate: string; endDate: string };
      return {
        status: r.status,
        vehicles: body.vehiclesList?.length ?? 1,
        span: `${body.startDate}..${body.endDate}`,
      };
    });
}

function progressLog() {
  const seen: Array<[number, number]> = [];
  return { seen, listener: (done: number, total: number) => seen.push([done, total]) };
}

describe("with the service accepting what the document leaves open", () => {
  it("a 40-day stops report for 25 vehicles takes 3 calls, and temperatures for all vehicles 1", async () => {
    const { session, client } = start(lenient);
    const stopsRequest = { vehicleIds: allIds.slice(0, 25), from, to, stationaryMarginMinutes: 10 };
    expect(client.plan("stops", stopsRequest)).toHaveLength(3);
    const stops = await session.stopsAll(stopsRequest);
    expect(sent(lenient, "stops").map((r) => [r.status, r.vehicles])).toEqual([
      [200, 10],
      [200, 10],
      [200, 5],
    ]);
    expect(new Set(stops.map((s) => s.vehicleId)).size).toBeGreaterThan(20);

    expect(client.plan("temperatures", { vehicleIds: allIds, from, to })).toHaveLength(1);
    const temps = await session.temperaturesAll({ vehicleIds: allIds, from, to });
    expect(sent(lenient, "temperatures")).toHaveLength(1);
    expect(temps.temperature.length).toBeGreaterThan(0);

    const refills = await session.refillsAll({ vehicleIds: allIds.slice(0, 2), from, to });
    expect(sent(lenient, "refills")).toHaveLength(2);
    expect(refills.map((r) => r.vehicleId)).toEqual(allIds.slice(0, 2));
  });
});

describe("with strict undocumented limits", () => {
  it("stops: the first call is refused, the client splits, the data equals the lenient run, and the limit is stored", async () => {
    const request = { vehicleIds: allIds.slice(0, 25), from, to, stationaryMarginMinutes: 10 };
    const expected = await start(lenient).session.stopsAll(request);

    const dataDir = freshDir();
    const bot = start(strict, dataDir);
    const progress = progressLog();
    const stops = await bot.session.stopsAll(request, {}, progress.listener);
    expect(stops).toEqual(expected);

    const calls = sent(strict, "stops");
    expect(calls[0]).toMatchObject({ status: 400, vehicles: 10 });
    // After the lesson: 3 groups × (31 + 9 days), nothing refused again.
    expect(calls.slice(1).map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(calls.slice(1).map((r) => r.vehicles)).toEqual([10, 10, 10, 10, 5, 5]);
    // Every attempt went through the gate, the refused one included.
    expect(bot.gate.calls.filter((c) => c.endpoint === "stops")).toHaveLength(7);
    // Progress stays honest: the total grows by the added calls and ends at done = total.
    expect(progress.seen[0]).toEqual([0, 3]);
    expect(progress.seen.at(-1)).toEqual([6, 6]);
    for (const [done, total] of progress.seen) expect(done).toBeLessThanOrEqual(total);

    expect(bot.store?.load(strict.url)).toEqual({ stops: { maxDays: 31 } });
    expect(bot.client.plan("stops", request)).toHaveLength(6);
  });

  it("a restarted bot plans with the stored limit from its first call", async () => {
    const dataDir = freshDir();
    const first = start(strict, dataDir);
    const twoVehicles = { vehicleIds: allIds.slice(0, 2), from, to, stationaryMarginMinutes: 10 };
    await first.session.stopsAll(twoVehicles);
    expect(sent(strict, "stops").map((r) => r.status)).toEqual([400, 200, 200]);
    for (const db of dbs.splice(0)) db.close();
    strict.control.reset();

    const restarted = start(strict, dataDir);
    expect(restarted.client.plan("stops", { ...twoVehicles, vehicleIds: allIds.slice(0, 25) })).toHaveLength(
      6,
    );
    const stops = await restarted.session.stopsAll(twoVehicles);
    expect(sent(strict, "stops").map((r) => r.status)).toEqual([200, 200]);
    expect(stops.length).toBeGreaterThan(0);
  });

  it("temperatures: vehicle count, then period, are learned; the readings equal the lenient run", async () => {
    const request = { vehicleIds: allIds, from, to };
    const expected = await start(lenient).session.temperaturesAll(request);

    const bot = start(strict, freshDir());
    const progress = progressLog();
    const temps = await bot.session.temperaturesAll(request, {}, progress.listener);
    expect(temps).toEqual(expected);
    expect(temps.temperature.length).toBeGreaterThan(0);

    const calls = sent(strict, "temperatures");
    // TooManyVehicles [10, n] first, then PeriodTooLong [31] on the first group of 10.
    expect(calls.slice(0, 2).map((r) => [r.status, r.vehicles])).toEqual([
      [400, allIds.length],
      [400, 10],
    ]);
    const groups = Math.ceil(allIds.length / 10);
    expect(calls.slice(2).every((r) => r.status === 200 && r.vehicles <= 10)).toBe(true);
    expect(calls.slice(2)).toHaveLength(groups * 2);
    // Progress: 0/1, then 0/3 after the vehicle lesson, 0/6 after the period lesson, then 1/6 … 6/6.
    expect(progress.seen).toEqual([
      [0, 1],
      [0, groups],
      [0, groups * 2],
      ...Array.from({ length: groups * 2 }, (_, i) => [i + 1, groups * 2]),
    ]);
    expect(bot.store?.load(strict.url)).toEqual({ temperatures: { maxVehicles: 10, maxDays: 31 } });
  });

  it("refills: the period is learned; the events of both spans are those of one long call", async () => {
    const request = { vehicleIds: [allIds[0]!], from, to };
    // FuelStart, Total* and RemainingFuel are computed per call, so only real events compare.
    const happenings = (refills: Awaited<ReturnType<FleetSession["refillsAll"]>>) =>
      refills
        .flatMap((r) => r.events)
        .filter((e) => e.event === "Fueling" || e.event === "PossibleFuelTheft")
        .map((e) => [e.event, e.dateText, e.estimation]);
    const expected = happenings(await start(lenient).session.refillsAll(request));
    expect(expected.length).toBeGreaterThan(0);

    const bot = start(strict, freshDir());
    const refills = await bot.session.refillsAll(request);
    expect(sent(strict, "refills").map((r) => r.status)).toEqual([400, 200, 200]);
    expect(happenings(refills)).toEqual(expected);
    expect(bot.store?.load(strict.url)).toEqual({ refills: { maxDays: 31 } });
  });

  it("a 400 that is not about size is not learned from", async () => {
    const bot = start(strict, freshDir());
    // Sent past the client's own rules on purpose: a stationaryMargin of 0 minutes.
    const unruly = new FleetClient({
      baseUrl: strict.url,
      apiVersion: "2.0",
      timeZone: TZ,
      gate: bot.gate,
      enforceRequestRules: false,
      learnedLimits: bot.store,
    });
    const error = await unruly
      .session({ username: "demo", password: "demo" })
      .stopsAll({
        vehicleIds: allIds.slice(0, 2),
        from,
        to: new Date(from.getTime() + 5 * DAY_MS),
        stationaryMarginMinutes: 0,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(sent(strict, "stops").map((r) => r.status)).toEqual([400]);
    expect(bot.store?.load(strict.url)).toEqual({});
  });
});
