import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FleetClient, type FleetSession } from "../../../src/platform/fleet/client.js";
import { vehicleConsumptionTotals } from "../../../src/platform/fleet/consumption.js";
import {
  ApplicationFailureError,
  BadRequestError,
  RateLimitedError,
  RequestRuleError,
  UnauthorizedError,
  UpstreamTransportError,
} from "../../../src/platform/fleet/errors.js";
import { directGate } from "../../../src/platform/fleet/seam.js";
import { splitPeriod } from "../../../src/platform/fleet/split.js";
import { formatCompanyLocal } from "../../../src/platform/fleet/time.js";
import {
  type RunningSimulator,
  type SimulatorOptions,
  startSimulator,
} from "../../../src/simulator/index.js";
import { DAY_MS } from "./helpers.js";

/**
 * The client against the simulator over real HTTP. The simulator is an independent
 * reading of fleet-api.md (it shares no code with src/fleet), so agreement here is
 * evidence both read the document the same way.
 */

const TZ = "Europe/Bucharest";
const NOW = Date.parse("2026-11-10T12:00:00Z");
const HOUR_MS = 3_600_000;

interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  endpoint: string | null;
  username: string | null;
  status: number;
  body: unknown;
  contentType: string | null;
}
interface SimStats {
  requests: Record<string, Record<string, number>>;
  total: number;
}

async function simulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  return startSimulator({ port: 0, minIntervalMs: 0, control: true, seed: 7, now: () => NOW, ...options });
}

async function controlPost(sim: RunningSimulator, path: string, body: unknown): Promise<unknown> {
  const answer = await request(`${sim.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await answer.body.json()) as unknown;
  expect(answer.statusCode, `${path} ${JSON.stringify(json)}`).toBe(200);
  return json;
}

async function controlGet<T>(sim: RunningSimulator, path: string): Promise<T> {
  const answer = await request(`${sim.url}${path}`);
  return (await answer.body.json()) as T;
}

const recorded = (sim: RunningSimulator, limit = 500) =>
  controlGet<RecordedRequest[]>(sim, `/__requests?limit=${limit}`);
const stats = (sim: RunningSimulator) => controlGet<SimStats>(sim, "/__stats");

function clientFor(sim: RunningSimulator, extra: Partial<ConstructorParameters<typeof FleetClient>[0]> = {}) {
  return new FleetClient({ baseUrl: sim.url, apiVersion: "2.0", timeZone: TZ, gate: directGate, ...extra });
}

const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const UTC_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const VARIANTS = [
  { keyCase: "camel", dateStyle: "local", transportActionPayload: "array" },
  { keyCase: "camel", dateStyle: "offset", transportActionPayload: "object" },
  { keyCase: "pascal", dateStyle: "local", transportActionPayload: "boolean" },
  { keyCase: "pascal", dateStyle: "offset", transportActionPayload: "array" },
  { keyCase: "pascal", dateStyle: "localMillis", transportActionPayload: "object" },
] as const;

/** An instant to the second: localMillis answers carry milliseconds the other styles drop. */
const sec = (d: Date | undefined) =>
  d === undefined ? undefined : new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString();

/** What each variant read; all variants must read the same instants. */
const digests = new Map<string, unknown>();

describe.each(VARIANTS)(
  "endpoints with keyCase $keyCase, dateStyle $dateStyle, actions as $transportActionPayload",
  (variant) => {
    let sim: RunningSimulator;
    let session: FleetSession;
    const digest: Record<string, unknown> = {};

    beforeAll(async () => {
      sim = await simulator(variant);
      session = clientFor(sim).session({ username: "demo", password: "demo" });
    });
    afterAll(async () => {
      digests.set(`${variant.keyCase}/${variant.dateStyle}`, digest);
      await sim.close();
    });

    it("login verifies the credentials and reports the token's expiry (not the token)", async () => {
      const info = await session.login();
      expect(info.account).toBe("demo");
      expect(info.expiresAt.getTime()).toBeGreaterThan(Date.now() + 3500_000);
      expect(info.scopes).toContain("openid");
      expect(JSON.stringify(info)).not.toMatch(/eyJ|access_token/);
    });

    it("company-vehicles", async () => {
      const vehicles = await session.vehicles();
      expect(vehicles.map((v) => v.vehicleId).sort()).toEqual(sim.vehicles.map((v) => v.vehicleId).sort());
      const first = sim.vehicles[0]!;
      const mine = vehicles.find((v) => v.vehicleId === first.vehicleId)!;
      expect(mine).toMatchObject({ vehicleUId: first.vehicleUId, vehicleRegistrationNumber: first.plate });
      for (const v of vehicles) {
        expect(v.gpsDate!.getTime()).toBeLessThanOrEqual(NOW);
        expect(v.gpsDate!.getTime()).toBeGreaterThan(NOW - 30 * DAY_MS);
      }
      expect(vehicles[0]?.serverDate?.getTime()).toBe(NOW);
      digest.vehicles = vehicles.map((v) => [v.vehicleId, sec(v.gpsDate), sec(v.engineEventDate)]);
    });

    it("way", async () => {
      const ids = sim.vehicles.slice(0, 3).map((v) => v.vehicleId);
      const from = new Date(NOW - 2 * DAY_MS);
      const points = await session.way({ vehicleIds: ids, from, to: new Date(NOW) });
      expect(points.length).toBeGreaterThan(10);
      for (const p of points) {
        expect(ids).toContain(p.vehicleId);
        expect(p.gpsDate.getTime()).toBeGreaterThanOrEqual(from.getTime() - 1000);
        expect(p.gpsDate.getTime()).toBeLessThanOrEqual(NOW);
      }
      digest.way = points.map((p) => `${p.vehicleId}@${sec(p.gpsDate)}`);
    });

    it("stops", async () => {
      const ids = sim.vehicles.slice(0, 3).map((v) => v.vehicleId);
      const stops = await session.stops({
        vehicleIds: ids,
        from: new Date(NOW - 3 * DAY_MS),
        to: new Date(NOW),
        stationaryMarginMinutes: 5,
      });
      expect(stops.length).toBeGreaterThan(0);
      expect(new Set(stops.map((s) => s.vehicleId)).size).toBeGreaterThan(1);
      for (const s of stops) expect(s.endDate.getTime()).toBeGreaterThanOrEqual(s.startDate.getTime());
      digest.stops = stops.map((s) => `${s.vehicleId}@${sec(s.startDate)}-${sec(s.endDate)}`);
    });

    it("consumption, with the LPG vehicle's secondary source", async () => {
      const lpg = sim.vehicles.find((v) => v.secondaryFuel)!;
      const diesel = sim.vehicles.find((v) => !v.secondaryFuel)!;
      const records = await session.consumption({
        vehicleIds: [lpg.vehicleId, diesel.vehicleId],
        from: new Date(NOW - 7 * DAY_MS),
        to: new Date(NOW),
      });
      const lpgRecord = records.find((r) => r.licensePlate === lpg.plate)!;
      const dieselRecord = records.find((r) => r.licensePlate === diesel.plate)!;
      expect(lpgRecord.secondarySource?.distance).toBeGreaterThan(0);
      expect(dieselRecord.secondarySource).toBeUndefined();
      const totals = vehicleConsumptionTotals(lpgRecord);
      expect(totals.distance).toBeCloseTo(lpgRecord.distance + lpgRecord.secondarySource!.distance, 6);
      digest.consumption = records;
    });

    it("refills: every date readable", async () => {
      const lpg = sim.vehicles.find((v) => v.secondaryFuel)!;
      const events = await session.refills({
        vehicleId: lpg.vehicleId,
        from: new Date(NOW - 7 * DAY_MS),
        to: new Date(NOW),
      });
      expect(events.length).toBeGreaterThan(0);
      for (const e of events) expect(e.date, e.dateText).toBeInstanceOf(Date);
      digest.refills = events.map((e) => `${e.event}@${sec(e.date)}`);
    });

    it("temperatures of a reefer", async () => {
      const reefer = sim.vehicles.find((v) => v.reefer)!;
      const readings = await session.temperatures({
        vehicleIds: [reefer.vehicleId],
        from: new Date(NOW - DAY_MS),
        to: new Date(NOW),
      });
      expect(readings.temperature.length).toBeGreaterThan(0);
      expect(readings.temperature.every((r) => r.vehicleId === reefer.vehicleId)).toBe(true);
      digest.temperatures = readings.temperature.map((r) => `${r.sensorNumber}@${sec(r.date)}=${r.value}`);
    });

    it("load-transports", async () => {
      const page = await session.loadTransports({
        statusIds: [1, 2, 3, 4, 5, 6],
        pageSize: 50,
        pageIndex: 0,
      });
      expect(page.totalRecords).toBeGreaterThan(0);
      expect(page.transports.length).toBe(Math.min(50, page.totalRecords));
      expect(page.transports.some((t) => t.statusId === 5)).toBe(false);
      for (const t of page.transports) {
        expect(t.uId).toMatch(/^[0-9a-f-]{36}$/);
        expect(t.validityEndDate).toBeInstanceOf(Date);
      }
      digest.transports = page.transports.map((t) => `${t.codeUit}:${sec(t.validityStartDate)}`).sort();
    });

    it("transport life cycle: add, update, start, pause, start, end, remove", async () => {
      const vehicle = sim.vehicles[1]!;
      const codeUit =
        `UITCONTRACT${variant.keyCase === "camel" ? "C" : "P"}${variant.dateStyle.slice(0, 4).toUpperCase()}`
          .padEnd(16, "0")
          .slice(0, 16);
      const validityStart = new Date(NOW - HOUR_MS);
      const validityEnd = new Date(NOW + 2 * DAY_MS + 123);
      const base = { vehicleUId: vehicle.vehicleUId, vatNumber: "RO12345678", validityStart, validityEnd };

      expect(
        await session.addTransport({ ...base, codeUit, notes: "paleți", startLocation: "București" }),
      ).toBe(true);
      const found = await session.loadTransports({ statusIds: [1], searchValue: codeUit });
      expect(found.transports).toHaveLength(1);
      const transport = found.transports[0]!;
      expect(transport).toMatchObject({
        codeUit,
        statusId: 1,
        carrierUId: vehicle.vehicleUId,
        notes: "paleți",
      });
      // Sent in UTC, read back in company time: the same instants (to the second the simulator keeps).
      expect(Math.abs(transport.validityEndDate!.getTime() - validityEnd.getTime())).toBeLessThan(1000);
      expect(Math.abs(transport.validityStartDate!.getTime() - validityStart.getTime())).toBeLessThan(1000);

      expect(await session.updateTransport({ ...base, transportUId: transport.uId, notes: "schimbat" })).toBe(
        true,
      );

      const started = await session.startTransports([codeUit]);
      expect(started).toEqual([expect.objectContaining({ codeUit, isSuccess: true })]);
      expect((await session.pauseTransports([codeUit]))[0]?.isSuccess).toBe(true);
      expect((await session.startTransports([codeUit]))[0]?.isSuccess).toBe(true);
      const ended = await session.endTransports([codeUit]);
      expect(ended[0]).toMatchObject({
        codeUit,
        isSuccess: true,
        reported: variant.transportActionPayload !== "boolean",
      });
      const done = await session.loadTransports({ statusIds: [3], searchValue: codeUit });
      expect(done.transports[0]).toMatchObject({ statusId: 3, notes: "schimbat" });

      expect(await session.removeTransports([transport.uId])).toBe(true);
      expect(
        (await session.loadTransports({ statusIds: [1, 2, 3, 4, 6], searchValue: codeUit })).totalRecords,
      ).toBe(0);

      const requests = await recorded(sim, 20);
      const add = requests.find((r) => r.endpoint === "add-transport")!;
      const addBody = add.body as Record<string, string>;
      expect(addBody.validityStartDate).toMatch(UTC_DATE);
      expect(addBody.validityStartDate).toBe(validityStart.toISOString());
      expect(addBody.validityEndDate).toBe(validityEnd.toISOString());
      const update = requests.find((r) => r.endpoint === "update-transport")!;
      expect(update.body).toMatchObject({
        transportUId: transport.uId,
        validityEndDate: validityEnd.toISOString(),
      });
      expect(requests.find((r) => r.endpoint === "start-transports")?.body).toEqual({
        transports: [{ codeUit }],
      });
      expect(requests.find((r) => r.endpoint === "remove-transports")?.body).toEqual({
        transportsUids: [transport.uId],
      });
    });

    it("a start naming a known and an unknown UIT reports each (or fails whole when only a boolean comes)", async () => {
      const pending = (await session.loadTransports({ statusIds: [1] })).transports[0]!;
      const run = session.startTransports([pending.codeUit, "NOSUCHUIT0000000"]);
      if (variant.transportActionPayload === "boolean") {
        const error = await run.catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ApplicationFailureError);
        expect((error as ApplicationFailureError).failureReasons.map((r) => r.errorCode)).toContain(
          "TransportNotFound",
        );
        return;
      }
      const results = await run;
      const unknown = results.find((r) => r.codeUit === "NOSUCHUIT0000000")!;
      expect(unknown.isSuccess).toBe(false);
      if (variant.transportActionPayload === "array") expect(unknown.errors).toEqual(["TransportNotFound"]);
    });

    it("every request carried api-version 2.0; login was form data; vehicle dates went company-local", async () => {
      const requests = await recorded(sim);
      expect(requests.length).toBeGreaterThan(15);
      for (const r of requests) expect(r.query["api-version"], `${r.method} ${r.path}`).toBe("2.0");
      const logins = requests.filter((r) => r.endpoint === "login");
      expect(logins.length).toBeGreaterThan(0);
      for (const r of logins) expect(r.contentType).toBe("application/x-www-form-urlencoded");
      // The simulator identifies the user by the bearer token: every other call was authorised.
      for (const r of requests.filter((x) => x.endpoint !== "login")) expect(r.username).toBe("demo");
      const way = requests.find((r) => r.endpoint === "way")!;
      const body = way.body as { startDate: string; endDate: string };
      expect(body.startDate).toMatch(LOCAL_DATE);
      expect(body.startDate).toBe(formatCompanyLocal(new Date(NOW - 2 * DAY_MS), TZ));
      expect(body.endDate).toBe("2026-11-10T14:00:00");
      const stops = requests.find((r) => r.endpoint === "stops")!;
      expect(stops.body).toMatchObject({ stationaryMargin: 5 });
    });
  },
);

describe("all key cases and date styles read the same instants", () => {
  it("digests agree", () => {
    const all = [...digests.values()];
    expect(all).toHaveLength(VARIANTS.length);
    for (const d of all.slice(1)) expect(d).toEqual(all[0]);
  });
});

describe("documented errors", () => {
  let sim: RunningSimulator;
  let client: FleetClient;
  let demo: FleetSession;

  beforeAll(async () => {
    sim = await simulator();
    client = clientFor(sim);
    demo = client.session({ username: "demo", password: "demo" });
    await demo.login();
  });
  afterAll(async () => {
    await sim.close();
  });

  const ids = () => sim.vehicles.map((v) => v.vehicleId);
  const from = new Date(NOW - 2 * DAY_MS);
  const to = new Date(NOW);

  describe("400: caught by the client, and refused by the service when sent anyway", () => {
    const cases = [
      {
        label: "11 vehicles on way",
        run: (s: FleetSession) => s.way({ vehicleIds: ids().slice(0, 11), from, to }),
        rule: "max-vehicles",
        code: "TooManyVehicles",
      },
      {
        label: "32 days of consumption",
        run: (s: FleetSession) =>
          s.consumption({ vehicleIds: ids().slice(0, 1), from: new Date(NOW - 32 * DAY_MS), to }),
        rule: "max-period",
        code: "PeriodTooLong",
      },
      {
        label: "stationaryMargin 0",
        run: (s: FleetSession) =>
          s.stops({ vehicleIds: ids().slice(0, 1), from, to, stationaryMarginMinutes: 0 }),
        rule: "min-stationary-margin",
        code: "InvalidParameter",
      },
      {
        label: "period ending before it starts",
        run: (s: FleetSession) => s.way({ vehicleIds: ids().slice(0, 1), from: to, to: from }),
        rule: "period-order",
        code: "InvalidPeriod",
      },
      {
        label: "no UIT",
        run: (s: FleetSession) => s.startTransports([]),
        rule: "empty-list",
        code: "InvalidParameter",
      },
    ];

    it.each(cases)("$label", async ({ run, rule, code }) => {
      const before = (await stats(sim)).total;
      const caught = await run(demo).catch((e: unknown) => e);
      expect(caught).toBeInstanceOf(RequestRuleError);
      expect((caught as RequestRuleError).rule).toBe(rule);
      expect((await stats(sim)).total).toBe(before);

      const unchecked = clientFor(sim, { enforceRequestRules: false }).session({
        username: "demo",
        password: "demo",
      });
      const refused = await run(unchecked).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(BadRequestError);
      expect((refused as BadRequestError).status).toBe(400);
      expect((refused as BadRequestError).failureReasons.map((r) => r.errorCode)).toContain(code);
      expect((refused as BadRequestError).correlationId).toBeTruthy();
    });
  });

  it("401 at login: wrong password, inactive user", async () => {
    for (const [username, password] of [
      ["demo", "wrong"],
      ["inactive", "inactive"],
    ] as const) {
      const error = await client
        .session({ username, password })
        .vehicles()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect(error).toMatchObject({ reason: "login", endpoint: "login" });
    }
  });

  it("401 for a vehicle the viewer cannot access: stops, refills, temperatures", async () => {
    const viewer = client.session({ username: "viewer", password: "viewer" });
    const visible = (await viewer.vehicles()).map((v) => v.vehicleId);
    expect(visible.length).toBeLessThan(ids().length);
    const hidden = ids().find((id) => !visible.includes(id))!;
    const mine = visible[0]!;
    const calls = [
      () => viewer.stops({ vehicleIds: [mine, hidden], from, to, stationaryMarginMinutes: 5 }),
      () => viewer.refills({ vehicleId: hidden, from, to }),
      () => viewer.temperatures({ vehicleIds: [hidden], from, to }),
    ];
    for (const call of calls) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect((error as UnauthorizedError).reason).toBe("access");
      expect((error as UnauthorizedError).userFailure()).toEqual({ code: "unauthorized-vehicles" });
      expect((error as UnauthorizedError).failureReasons[0]?.errorCode).toBe("AccessDenied");
    }
    // way only leaves out what the viewer cannot see.
    const points = await viewer.way({ vehicleIds: [mine, hidden], from, to });
    expect(points.every((p) => p.vehicleId === mine)).toBe(true);
    // The viewer's own data still works with the same token.
    await expect(
      viewer.stops({ vehicleIds: [mine], from, to, stationaryMarginMinutes: 5 }),
    ).resolves.toBeDefined();
  });

  it("429 surfaces as RateLimitedError with retryAfterMs through directGate", async () => {
    await controlPost(sim, "/__control/users", { username: "slow", password: "slow", minIntervalMs: 60_000 });
    const slow = client.session({ username: "slow", password: "slow" });
    const error = await slow.vehicles().catch((e: unknown) => e); // login takes the slot, the call is early
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(60_000);

    await controlPost(sim, "/__control/faults", {
      kind: "rateLimit",
      count: 1,
      endpoint: "company-vehicles",
      retryAfterSeconds: 3,
    });
    await expect(demo.vehicles()).rejects.toMatchObject({
      kind: "rate-limited",
      retryAfterMs: 3000,
      status: 429,
    });
  });

  it("429 without Retry-After leaves retryAfterMs undefined", async () => {
    const bare = await simulator({ retryAfterHeader: false });
    try {
      await controlPost(bare, "/__control/faults", { kind: "rateLimit", count: 1, endpoint: "login" });
      const error = await clientFor(bare)
        .session({ username: "demo", password: "demo" })
        .login()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RateLimitedError);
      expect((error as RateLimitedError).retryAfterMs).toBeUndefined();
    } finally {
      await bare.close();
    }
  });

  it("an expired token: one new login and one retry", async () => {
    await demo.vehicles();
    await controlPost(sim, "/__control/expire-tokens", { username: "demo" });
    await expect(demo.vehicles()).resolves.toHaveLength(sim.vehicles.length);
    const last = (await recorded(sim, 3)).map((r) => `${r.endpoint}:${r.status}`);
    expect(last).toEqual(["company-vehicles:401", "login:200", "company-vehicles:200"]);

    // The service's clock passing the token lifetime: the same.
    await controlPost(sim, "/__control/clock", { advanceMs: 3601_000 });
    await expect(demo.vehicles()).resolves.toHaveLength(sim.vehicles.length);
    expect((await recorded(sim, 3)).map((r) => `${r.endpoint}:${r.status}`)).toEqual([
      "company-vehicles:401",
      "login:200",
      "company-vehicles:200",
    ]);
  });

  it("a 401 repeated after a new login is an error, not a loop", async () => {
    await controlPost(sim, "/__control/faults", { kind: "http401", count: 2, endpoint: "company-vehicles" });
    const error = await demo.vehicles().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((await recorded(sim, 3)).map((r) => `${r.endpoint}:${r.status}`)).toEqual([
      "company-vehicles:401",
      "login:200",
      "company-vehicles:401",
    ]);
  });

  it("500 and malformed bodies are UpstreamTransportError", async () => {
    await controlPost(sim, "/__control/faults", { kind: "http500", count: 1, endpoint: "way" });
    const e500 = await demo.way({ vehicleIds: ids().slice(0, 1), from, to }).catch((e: unknown) => e);
    expect(e500).toBeInstanceOf(UpstreamTransportError);
    expect(e500).toMatchObject({ failure: "http", status: 500 });

    await controlPost(sim, "/__control/faults", {
      kind: "malformed",
      count: 1,
      endpoint: "company-vehicles",
    });
    const bad = await demo.vehicles().catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(UpstreamTransportError);
    expect(bad).toMatchObject({ failure: "malformed" });
    expect((bad as UpstreamTransportError).describeForSupport()).toContain("not JSON");
  });

  it("a slow answer is a timeout", async () => {
    const impatient = clientFor(sim, { timeoutMs: 150 }).session({ username: "demo", password: "demo" });
    await impatient.login();
    await controlPost(sim, "/__control/faults", {
      kind: "delay",
      count: 1,
      delayMs: 600,
      endpoint: "company-vehicles",
    });
    const error = await impatient.vehicles().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamTransportError);
    expect(error).toMatchObject({ failure: "timeout" });
  });

  it("an unknown vehicle at add-transport is an application failure with its reason", async () => {
    const error = await demo
      .addTransport({
        vehicleUId: "00000000-0000-4000-8000-000000000000",
        codeUit: "ABCDEFGHIJKLMNOP",
        vatNumber: "RO1",
        validityStart: new Date(NOW),
        validityEnd: new Date(NOW + DAY_MS),
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApplicationFailureError);
    expect((error as ApplicationFailureError).errorCode).toBe("VehicleNotFound");
    expect((error as ApplicationFailureError).correlationId).toBeTruthy();
  });
});

describe("splitting against the simulator", () => {
  let sim: RunningSimulator;
  let session: FleetSession;

  beforeAll(async () => {
    sim = await simulator({ vehicleCount: 25 });
    session = clientFor(sim).session({ username: "demo", password: "demo" });
    await session.login();
  });
  afterAll(async () => {
    await sim.close();
  });

  const from = new Date(NOW - 40 * DAY_MS);
  const to = new Date(NOW);

  it("40 days × 25 vehicles of way is exactly 6 requests, merged complete", async () => {
    const vehicleIds = sim.vehicles.map((v) => v.vehicleId);
    expect(vehicleIds).toHaveLength(25);
    await controlPost(sim, "/__control/reset", {});
    const progress: number[] = [];
    const points = await session.wayAll({ vehicleIds, from, to }, {}, (done) => progress.push(done));
    expect((await stats(sim)).requests.demo?.way).toBe(6);
    expect(progress).toEqual([0, 1, 2, 3, 4, 5, 6]);

    const boundary = splitPeriod(from, to, 31, TZ)[0]!.to.getTime();
    expect(points.some((p) => p.gpsDate.getTime() < boundary)).toBe(true);
    expect(points.some((p) => p.gpsDate.getTime() > boundary)).toBe(true);
    expect(new Set(points.map((p) => p.vehicleId)).size).toBe(25);
    for (let i = 1; i < points.length; i++) {
      const a = points[i - 1]!;
      const b = points[i]!;
      expect(a.vehicleId < b.vehicleId || (a.vehicleId === b.vehicleId && a.gpsDate < b.gpsDate)).toBe(true);
    }
    const sentBodies = (await recorded(sim, 6)).map(
      (r) => r.body as { vehiclesList: number[]; startDate: string },
    );
    expect(sentBodies.every((b) => b.vehiclesList.length <= 10)).toBe(true);
  });

  it("consumption over 40 days adds up the spans per vehicle", async () => {
    const lpg = sim.vehicles.find((v) => v.secondaryFuel)!;
    const vehicleIds = sim.vehicles.map((v) => v.vehicleId);
    await controlPost(sim, "/__control/reset", {});
    const merged = await session.consumptionAll({ vehicleIds, from, to });
    expect((await stats(sim)).requests.demo?.consumption).toBe(6);
    expect(merged).toHaveLength(25);
    const spans = splitPeriod(from, to, 31, TZ);
    const parts = await Promise.all(
      spans.map((s) => session.consumption({ vehicleIds: [lpg.vehicleId], ...s })),
    );
    const mergedLpg = merged.find((r) => r.licensePlate === lpg.plate)!;
    expect(mergedLpg.distance).toBeCloseTo(
      parts.reduce((sum, p) => sum + p[0]!.distance, 0),
      6,
    );
    expect(mergedLpg.secondarySource?.distance).toBeCloseTo(
      parts.reduce((sum, p) => sum + (p[0]!.secondarySource?.distance ?? 0), 0),
      6,
    );
  });

  it("stops, temperatures and refills plans run through the simulator", async () => {
    const two = sim.vehicles.slice(0, 2).map((v) => v.vehicleId);
    await controlPost(sim, "/__control/reset", {});
    const stops = await session.stopsAll({ vehicleIds: two, from, to, stationaryMarginMinutes: 10 });
    const temps = await session.temperaturesAll({ vehicleIds: two, from, to });
    const refills = await session.refillsAll({ vehicleIds: two, from, to });
    const counts = (await stats(sim)).requests.demo;
    // Only documented limits cut: the 40-day period stays one call each (one per vehicle for refills).
    expect(counts).toMatchObject({ stops: 1, temperatures: 1, refills: 2 });
    expect(stops.length).toBeGreaterThan(0);
    expect(temps.temperature.length + temps.humidity.length).toBeGreaterThanOrEqual(0);
    expect(refills.map((r) => r.vehicleId)).toEqual(two);
  });
});
