import { MockAgent } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FleetClient, parseRetryAfter } from "../../../src/platform/fleet/client.js";
import {
  ApplicationFailureError,
  BadRequestError,
  RateLimitedError,
  RequestRuleError,
  UnauthorizedError,
  UpstreamTransportError,
} from "../../../src/platform/fleet/errors.js";
import type { CallGate, UpstreamCall } from "../../../src/platform/fleet/seam.js";
import { taskErrorText } from "../../../src/platform/slack/views/taskEnding.js";
import { describeTaskError } from "../../../src/platform/tasks/failures.js";
import { DAY_MS, recordingGate } from "./helpers.js";

/**
 * The client against a scripted service (undici MockAgent): the 401 policy, status
 * mapping and request rules, independent of the simulator.
 */

const ORIGIN = "http://fleet.test";
const TZ = "Europe/Bucharest";

interface Scripted {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
}
interface Seen {
  path: string;
  headers: Record<string, string>;
  body: string;
}

let agent: MockAgent;
let seen: Seen[];
let script: Map<string, Scripted[]>;
let loginCount: number;

function on(endpointPath: string, ...answers: Scripted[]) {
  script.set(endpointPath, [...(script.get(endpointPath) ?? []), ...answers]);
}

const ok = (payload: unknown): Scripted => ({
  status: 200,
  body: { payload, correlationId: "c-ok", failureReasons: [], isSuccess: true },
});

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  seen = [];
  script = new Map();
  loginCount = 0;
  agent
    .get(ORIGIN)
    .intercept({ path: () => true, method: () => true })
    .reply((opts) => {
      const headers = Object.fromEntries(
        Object.entries((opts.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
      );
      seen.push({ path: opts.path, headers, body: typeof opts.body === "string" ? opts.body : "" });
      const endpointPath = opts.path.replace(/^\/api\//, "").replace(/\?.*$/, "");
      if (endpointPath === "authentication/login" && !script.get(endpointPath)?.length) {
        loginCount += 1;
        return {
          statusCode: 200,
          data: JSON.stringify({
            access_token: `tok-${loginCount}`,
            expires_in: 28800,
            token_type: "Bearer",
          }),
        };
      }
      const next = script.get(endpointPath)?.shift();
      if (!next) return { statusCode: 599, data: `no script for ${endpointPath}` };
      const data = typeof next.body === "string" ? next.body : JSON.stringify(next.body ?? "");
      return { statusCode: next.status, data, responseOptions: { headers: next.headers ?? {} } };
    })
    .persist();
});

afterEach(async () => {
  await agent.close();
});

function client(options: { timeoutMs?: number; enforceRequestRules?: boolean; now?: () => number } = {}) {
  const gate = recordingGate();
  const fleet = new FleetClient({
    baseUrl: `${ORIGIN}/`,
    apiVersion: "2.0",
    timeZone: TZ,
    gate,
    dispatcher: agent,
    ...options,
  });
  return { gate, session: fleet.session({ username: "demo", password: "secret-pw" }), fleet };
}

const from = new Date("2026-11-03T08:00:00Z");
const to = new Date("2026-11-04T08:00:00Z");

describe("requests", () => {
  it("login is form-encoded; calls carry api-version, Bearer token and JSON with company-local dates", async () => {
    on("carriers/way", ok([{ VehicleId: 1, GpsDate: "2026-11-03T10:00:00", Latitude: 44, Longitude: 26 }]));
    const { session } = client();
    const points = await session.way({ vehicleIds: [3, 1, 3], from, to });
    expect(points[0]?.gpsDate.toISOString()).toBe("2026-11-03T08:00:00.000Z");
    const [login, way] = seen;
    expect(login?.path).toBe("/api/authentication/login?api-version=2.0");
    expect(login?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(new URLSearchParams(login?.body).get("password")).toBe("secret-pw");
    expect(way?.path).toBe("/api/carriers/way?api-version=2.0");
    expect(way?.headers.authorization).toBe("Bearer tok-1");
    expect(way?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(way?.body ?? "")).toEqual({
      vehiclesList: [1, 3],
      startDate: "2026-11-03T10:00:00",
      endDate: "2026-11-04T10:00:00",
    });
  });

  it("reads share a key of endpoint + canonical body; login and mutations have none", async () => {
    on("carriers/way", ok([]), ok([]));
    on("eTransport/start-transports", ok(true));
    const { session, gate } = client();
    await session.way({ vehicleIds: [1, 2], from, to }, { priority: "interactive" });
    await session.way({ vehicleIds: [2, 1], from, to });
    await session.startTransports(["UIT1"]);
    const [login, way1, way2, start] = gate.calls;
    expect(login?.endpoint).toBe("login");
    expect(login?.shareKey).toBeUndefined();
    expect(way1?.shareKey).toBeDefined();
    expect(way1?.shareKey).toBe(way2?.shareKey);
    expect(way1?.context).toEqual({ priority: "interactive" });
    expect(start?.endpoint).toBe("start-transports");
    expect(start?.shareKey).toBeUndefined();
  });

  it("transport dates go out in UTC ISO 8601", async () => {
    on("eTransport/add-transport", ok(true));
    const { session } = client();
    const added = await session.addTransport({
      vehicleUId: "v-1",
      codeUit: "UIT9",
      vatNumber: "RO123",
      validityStart: new Date("2026-11-03T08:00:00.250Z"),
      validityEnd: new Date("2026-11-08T08:00:00Z"),
      start: new Date("2026-11-03T09:00:00Z"),
    });
    expect(added).toBe(true);
    expect(JSON.parse(seen[1]?.body ?? "")).toEqual({
      vehicleUId: "v-1",
      codeUit: "UIT9",
      vatNumber: "RO123",
      validityStartDate: "2026-11-03T08:00:00.250Z",
      validityEndDate: "2026-11-08T08:00:00.000Z",
      startDate: "2026-11-03T09:00:00.000Z",
    });
  });
});

describe("with a gate that shares and retries", () => {
  it("identical waiting reads share one request; send can be re-run after a 429", async () => {
    on("carriers/company-vehicles", { status: 429, headers: { "retry-after": "0" } }, ok([{ vehicleId: 1 }]));
    const waiting = new Map<string, Promise<unknown>>();
    let retries = 0;
    const gate: CallGate = {
      run<T>(call: UpstreamCall, send: () => Promise<T>): Promise<T> {
        const shared = call.shareKey ? waiting.get(call.shareKey) : undefined;
        if (shared) return shared as Promise<T>;
        const attempt = async (): Promise<T> => {
          try {
            return await send();
          } catch (error) {
            if (error instanceof RateLimitedError && retries++ < 3) return attempt();
            throw error;
          }
        };
        const running = attempt().finally(() => {
          if (call.shareKey) waiting.delete(call.shareKey);
        });
        if (call.shareKey) waiting.set(call.shareKey, running);
        return running;
      },
    };
    const fleet = new FleetClient({
      baseUrl: ORIGIN,
      apiVersion: "2.0",
      timeZone: TZ,
      gate,
      dispatcher: agent,
    });
    const session = fleet.session({ username: "demo", password: "secret-pw" });
    await session.login();
    const [a, b] = await Promise.all([session.vehicles(), session.vehicles()]);
    expect(a).toEqual([expect.objectContaining({ vehicleId: 1 })]);
    expect(b).toBe(a);
    expect(retries).toBe(1);
    expect(seen.filter((r) => r.path.includes("company-vehicles"))).toHaveLength(2);
  });
});

describe("request rules (never sent)", () => {
  const transport = {
    codeUit: "1234ABCD5678EFGH",
    vehicleUId: "v-1",
    vatNumber: "RO18547290",
    validityStart: from,
    validityEnd: to,
  };
  const cases: Array<
    [string, (s: ReturnType<typeof client>["session"]) => Promise<unknown>, string, string?]
  > = [
    [
      "11 vehicles on way",
      (s) => s.way({ vehicleIds: Array.from({ length: 11 }, (_, i) => i), from, to }),
      "max-vehicles",
    ],
    [
      "32 days on consumption",
      (s) => s.consumption({ vehicleIds: [1], from, to: new Date(+from + 32 * DAY_MS) }),
      "max-period",
    ],
    ["period backwards", (s) => s.way({ vehicleIds: [1], from: to, to: from }), "period-order"],
    [
      "empty vehicle list",
      (s) => s.stops({ vehicleIds: [], from, to, stationaryMarginMinutes: 5 }),
      "empty-list",
    ],
    [
      "margin 0",
      (s) => s.stops({ vehicleIds: [1], from, to, stationaryMarginMinutes: 0 }),
      "min-stationary-margin",
    ],
    [
      "margin 1.5",
      (s) => s.stops({ vehicleIds: [1], from, to, stationaryMarginMinutes: 1.5 }),
      "min-stationary-margin",
    ],
    [
      "11 vehicles on stops (documented; temperatures has no stated maximum)",
      (s) =>
        s.stops({
          vehicleIds: Array.from({ length: 11 }, (_, i) => i),
          from,
          to,
          stationaryMarginMinutes: 5,
        }),
      "max-vehicles",
    ],
    ["no UITs", (s) => s.startTransports([]), "empty-list", "Name at least one UIT code."],
    ["an empty UIT", (s) => s.endTransports([" "]), "empty-value", "Every UIT code must be non-empty."],
    ["no transport ids", (s) => s.removeTransports([]), "empty-list", "Name at least one transport id."],
    [
      "no statuses",
      (s) => s.loadTransports({ statusIds: [] }),
      "empty-list",
      "Name at least one transport status.",
    ],
    [
      "a status id 1.5",
      (s) => s.loadTransports({ statusIds: [1.5] }),
      "invalid-status",
      "Status ids must be whole numbers.",
    ],
    [
      "a vehicle id 1.5",
      (s) => s.way({ vehicleIds: [1.5], from, to }),
      "invalid-vehicle-id",
      "Vehicle ids must be whole numbers.",
    ],
    [
      "pageIndex -1",
      (s) => s.loadTransports({ statusIds: [1], pageIndex: -1 }),
      "invalid-paging",
      "pageIndex must be a whole number, 0 or more.",
    ],
    [
      "invalid date",
      (s) => s.refills({ vehicleId: 1, from: new Date("x"), to }),
      "invalid-date",
      "The start is not a valid date.",
    ],
    [
      "no UIT code on a new transport",
      (s) => s.addTransport({ ...transport, codeUit: "" }),
      "required",
      "The UIT code is required.",
    ],
    [
      "no VAT number",
      (s) => s.updateTransport({ ...transport, transportUId: "t-1", vatNumber: " " }),
      "required",
      "The VAT number is required.",
    ],
    [
      "no transport id on an edit",
      (s) => s.updateTransport({ ...transport, transportUId: "" }),
      "required",
      "The transport id is required.",
    ],
    [
      "an invalid validity end",
      (s) => s.addTransport({ ...transport, validityEnd: new Date("x") }),
      "invalid-date",
      "The UIT validity end is not a valid date.",
    ],
    [
      "a validity that ends before it starts",
      (s) => s.addTransport({ ...transport, validityStart: to, validityEnd: from }),
      "period-order",
      "The UIT validity must start before it ends.",
    ],
    [
      "a transmission that ends before it starts",
      (s) => s.addTransport({ ...transport, start: to, end: from }),
      "period-order",
      "The transmission must start before it ends.",
    ],
  ];

  it.each(cases)("%s", async (_label, run, rule, english) => {
    const { session, gate } = client();
    const error = await run(session).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestRuleError);
    expect((error as RequestRuleError).rule).toBe(rule);
    expect((error as RequestRuleError).kind).toBe("rule");
    expect(gate.calls).toHaveLength(0);
    expect(seen).toHaveLength(0);
    // What the dispatcher reads: the rule in words in each language, never "rule <code>".
    const stored = describeTaskError(error);
    const words = { en: taskErrorText(stored, "en"), ro: taskErrorText(stored, "ro") };
    if (english) expect(words.en).toBe(english);
    expect(words.en).not.toMatch(/\(rule |\bundefined\b/);
    expect(words.ro).not.toMatch(/\(regula |\bundefined\b/);
    expect(words.ro).not.toBe(words.en);
    expect(JSON.stringify(stored)).not.toMatch(/ (is|must|at least) /);
  });

  it("a 31-day period is accepted", async () => {
    on("carriers/consumption", ok([]));
    const { session } = client();
    await expect(
      session.consumption({ vehicleIds: [1], from, to: new Date(+from + 31 * DAY_MS) }),
    ).resolves.toEqual([]);
  });
});

describe("401 policy", () => {
  it("a token's first 401: log in again (through the gate) and retry once", async () => {
    on("carriers/company-vehicles", { status: 401 }, ok([{ vehicleId: 5 }]));
    const { session, gate } = client();
    const vehicles = await session.vehicles();
    expect(vehicles.map((v) => v.vehicleId)).toEqual([5]);
    expect(gate.calls.map((c) => c.endpoint)).toEqual([
      "login",
      "company-vehicles",
      "login",
      "company-vehicles",
    ]);
    expect(seen[3]?.headers.authorization).toBe("Bearer tok-2");
  });

  it("a second 401 is an access error; the same token's next 401 fails at once", async () => {
    on(
      "carriers/stops",
      { status: 401 },
      { status: 401, body: { isSuccess: false, correlationId: "c-401" } },
      { status: 401 },
    );
    const { session, gate } = client();
    const params = { vehicleIds: [1], from, to, stationaryMarginMinutes: 5 };
    const error = await session.stops(params).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ reason: "access", correlationId: "c-401", endpoint: "stops" });
    expect((error as UnauthorizedError).userFailure()).toEqual({ code: "unauthorized-vehicles" });
    expect(gate.calls.map((c) => c.endpoint)).toEqual(["login", "stops", "login", "stops"]);
    await expect(session.stops(params)).rejects.toMatchObject({ reason: "access" });
    expect(gate.calls).toHaveLength(5);
  });

  it("a 401 saying the token expired ends as reason expired when renewal does not help", async () => {
    const expired = {
      status: 401,
      headers: { "www-authenticate": 'Bearer error="invalid_token", error_description="The token expired"' },
    };
    on("carriers/company-vehicles", expired, expired);
    const { session } = client();
    await expect(session.vehicles()).rejects.toMatchObject({ kind: "unauthorized", reason: "expired" });
  });

  it("a token that had a 401 before is still renewed when the service says it expired", async () => {
    const expired = {
      status: 401,
      headers: { "www-authenticate": 'Bearer error="invalid_token", error_description="The token expired"' },
    };
    on("carriers/refills", { status: 401 }, { status: 401 });
    on("carriers/company-vehicles", expired, ok([]));
    const { session, gate } = client();
    await expect(session.refills({ vehicleId: 9, from, to })).rejects.toMatchObject({ reason: "access" });
    await expect(session.vehicles()).resolves.toEqual([]);
    expect(gate.calls.map((c) => c.endpoint)).toEqual([
      "login",
      "refills",
      "login",
      "refills",
      "company-vehicles",
      "login",
      "company-vehicles",
    ]);
  });

  it("401 at login is reason login (after its one retry)", async () => {
    on("authentication/login", { status: 401 });
    on("authentication/login", { status: 401 });
    const { session } = client();
    const error = await session.login().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ reason: "login", endpoint: "login" });
  });

  it("an envelope carrying error code 401 is an access error without a new login", async () => {
    on("carriers/temperatures", {
      status: 200,
      body: { isSuccess: false, failureReasons: [{ errorCode: "401", errorParameters: ["7"] }] },
    });
    const { session, gate } = client();
    await expect(session.temperatures({ vehicleIds: [7], from, to })).rejects.toMatchObject({
      kind: "unauthorized",
      reason: "access",
    });
    expect(gate.calls.map((c) => c.endpoint)).toEqual(["login", "temperatures"]);
  });

  it("a token that expired while queued is renewed before sending", async () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    on("carriers/company-vehicles", ok([]));
    const { session, fleet } = client({ now: () => now });
    await session.login();
    const slowGate = fleet.gate;
    // Simulate a long wait in the gate: the clock passes the token's expiry before send runs.
    const original = slowGate.run;
    let waited = false;
    slowGate.run = (call, send) => {
      if (call.endpoint === "company-vehicles" && !waited) {
        waited = true;
        now += 9 * 3600_000;
      }
      return original(call, send);
    };
    await session.vehicles();
    expect(seen.map((s) => s.path.split("?")[0])).toEqual([
      "/api/authentication/login",
      "/api/authentication/login",
      "/api/carriers/company-vehicles",
    ]);
    expect(seen[2]?.headers.authorization).toBe("Bearer tok-2");
  });
});

describe("status mapping", () => {
  it("429 is RateLimitedError with Retry-After in seconds or as HTTP date", async () => {
    on("carriers/company-vehicles", {
      status: 429,
      headers: { "retry-after": "7" },
      body: "Too many requests",
    });
    const { session } = client();
    await expect(session.vehicles()).rejects.toMatchObject({ kind: "rate-limited", retryAfterMs: 7000 });
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:30 GMT", Date.parse("2015-10-21T07:28:00Z"))).toBe(30_000);
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
  });

  it("429 at login is RateLimitedError too", async () => {
    on("authentication/login", { status: 429 });
    const { session } = client();
    const error = await session.login().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBeUndefined();
  });

  it("400 is BadRequestError with the envelope's reasons", async () => {
    on("eTransport/load-transports", {
      status: 400,
      body: {
        IsSuccess: false,
        CorrelationId: "c-400",
        FailureReasons: [{ ErrorCode: "InvalidStatus", ErrorParameters: ["9"] }],
      },
    });
    const { session } = client();
    const error = (await session
      .loadTransports({ statusIds: [9] })
      .catch((e: unknown) => e)) as BadRequestError;
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.failureReasons).toEqual([{ errorCode: "InvalidStatus", errorParameters: ["9"] }]);
    expect(error.describeForSupport()).toContain("correlationId c-400");
    expect(error.describeForSupport()).toContain("InvalidStatus (9)");
  });

  it("isSuccess false is ApplicationFailureError", async () => {
    on("eTransport/end-transports", {
      status: 200,
      body: {
        isSuccess: false,
        correlationId: "c-app",
        failureReasons: [{ errorCode: "UitNotFound", errorParameters: ["U1"] }],
      },
    });
    const { session } = client();
    const error = (await session.endTransports(["U1"]).catch((e: unknown) => e)) as ApplicationFailureError;
    expect(error).toBeInstanceOf(ApplicationFailureError);
    expect(error.errorCode).toBe("UitNotFound");
    expect(error.errorParameters).toEqual(["U1"]);
    expect(error.correlationId).toBe("c-app");
    expect(error.userFailure()).toEqual({ code: "application", params: { reasons: "UitNotFound (U1)" } });
  });

  it.each([
    ["HTTP 500", { status: 500, body: "oops" }, "http"],
    ["HTTP 502", { status: 502 }, "http"],
    ["not JSON", { status: 200, body: "<html>gateway</html>" }, "malformed"],
    ["no payload", { status: 200, body: { isSuccess: true, payload: null } }, "malformed"],
    ["no envelope", { status: 200, body: [{ vehicleId: 1 }] }, "malformed"],
    ["vehicle without id", ok([{ vehicleName: "x" }]), "malformed"],
  ] as const)("%s is UpstreamTransportError", async (_label, answer, failure) => {
    on("carriers/company-vehicles", answer);
    const { session } = client();
    const error = await session.vehicles().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamTransportError);
    expect((error as UpstreamTransportError).failure).toBe(failure);
  });

  it("a slow answer is a timeout", async () => {
    const slow = new MockAgent();
    slow.disableNetConnect();
    slow
      .get(ORIGIN)
      .intercept({ path: () => true, method: () => true })
      .reply(200, JSON.stringify({ access_token: "t", expires_in: 100 }))
      .delay(300)
      .persist();
    const fleet = new FleetClient({
      baseUrl: ORIGIN,
      apiVersion: "2.0",
      timeZone: TZ,
      gate: recordingGate(),
      dispatcher: slow,
      timeoutMs: 50,
    });
    const error = await fleet
      .session({ username: "u", password: "p" })
      .login()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "transport", failure: "timeout" });
    await slow.close();
  });

  it("a refused connection is a network failure", async () => {
    const fleet = new FleetClient({
      baseUrl: "http://127.0.0.1:1",
      apiVersion: "2.0",
      timeZone: TZ,
      gate: recordingGate(),
    });
    const error = await fleet
      .session({ username: "u", password: "p" })
      .login()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "transport", failure: "network" });
  });
});

describe("runs of several calls", () => {
  it("wayAll runs the plan in order with progress, and stops when the signal aborts", async () => {
    for (let i = 0; i < 6; i++) on("carriers/way", ok([]));
    const { session, gate } = client();
    const progress: string[] = [];
    const vehicleIds = Array.from({ length: 25 }, (_, i) => i + 1);
    await session.wayAll({ vehicleIds, from, to: new Date(+from + 40 * DAY_MS) }, {}, (d, t) =>
      progress.push(`${d}/${t}`),
    );
    expect(progress).toEqual(["0/6", "1/6", "2/6", "3/6", "4/6", "5/6", "6/6"]);
    expect(gate.calls.filter((c) => c.endpoint === "way").every((c) => c.context.priority === "report")).toBe(
      true,
    );

    const controller = new AbortController();
    on("carriers/way", ok([]), ok([]));
    const run = session.wayAll(
      { vehicleIds, from, to: new Date(+from + 40 * DAY_MS) },
      { signal: controller.signal },
      (d) => {
        if (d === 2) controller.abort();
      },
    );
    await expect(run).rejects.toThrow();
    expect(gate.calls.filter((c) => c.endpoint === "way")).toHaveLength(8);
  });
});

describe("limits learned from refusals (scripted service)", () => {
  const refuse = (errorCode: string, ...errorParameters: string[]): Scripted => ({
    status: 400,
    body: {
      payload: null,
      correlationId: "c-400",
      failureReasons: [{ errorCode, errorParameters }],
      isSuccess: false,
    },
  });
  const sentBodies = (path: string) =>
    seen
      .filter((s) => s.path.startsWith(`/api/${path}?`))
      .map((s) => JSON.parse(s.body) as { vehiclesList: number[]; startDate: string; endDate: string });

  it("a refusal without a number halves, again and again until the service accepts", async () => {
    // 16 days refused, 8 days refused, then 4-day spans accepted.
    on("carriers/temperatures", refuse("RangeTooLarge"), refuse("RangeTooLarge"));
    for (let i = 0; i < 4; i++) on("carriers/temperatures", ok([{ temperature: [], humidity: [] }]));
    const { session, fleet } = client();
    const progress: string[] = [];
    await session.temperaturesAll({ vehicleIds: [1], from, to: new Date(+from + 16 * DAY_MS) }, {}, (d, t) =>
      progress.push(`${d}/${t}`),
    );
    const bodies = sentBodies("carriers/temperatures");
    expect(bodies).toHaveLength(6);
    expect(bodies.slice(2).map((b) => [b.startDate.slice(0, 10), b.endDate.slice(0, 10)])).toEqual([
      ["2026-11-03", "2026-11-07"],
      ["2026-11-07", "2026-11-11"],
      ["2026-11-11", "2026-11-15"],
      ["2026-11-15", "2026-11-19"],
    ]);
    expect(fleet.limits.learned("temperatures")).toEqual({ maxDays: 4 });
    expect(progress).toEqual(["0/1", "0/2", "0/4", "1/4", "2/4", "3/4", "4/4"]);
  });

  it("a vehicle refusal re-plans the calls still to run, not only the refused one", async () => {
    // way is documented at 10; a service that says 5 is believed (tighter only).
    on("carriers/way", refuse("TooManyVehicles", "5", "10"));
    for (let i = 0; i < 5; i++) on("carriers/way", ok([]));
    const { session, fleet } = client();
    const vehicleIds = Array.from({ length: 25 }, (_, i) => i + 1);
    await session.wayAll({ vehicleIds, from, to });
    expect(sentBodies("carriers/way").map((b) => b.vehiclesList.length)).toEqual([10, 5, 5, 5, 5, 5]);
    expect(fleet.limits.limitsFor("way")).toEqual({ maxVehicles: 5, maxDays: 31 });
    expect(fleet.plan("way", { vehicleIds, from, to })).toHaveLength(5);
  });

  it("a size refusal of a call that cannot be cut, or a 400 about something else, stays an error", async () => {
    on("carriers/refills", refuse("TooManyVehicles", "0", "1"));
    on("carriers/temperatures", refuse("InvalidPeriod", "startDate", "endDate"));
    const { session, fleet } = client();
    await expect(session.refillsAll({ vehicleIds: [7], from, to })).rejects.toBeInstanceOf(BadRequestError);
    await expect(session.temperaturesAll({ vehicleIds: [1, 2], from, to })).rejects.toBeInstanceOf(
      BadRequestError,
    );
    expect(fleet.limits.learned("refills")).toBeUndefined();
    expect(fleet.limits.learned("temperatures")).toBeUndefined();
  });
});
