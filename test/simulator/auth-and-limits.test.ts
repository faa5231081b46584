import { afterEach, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/index.js";
import { control, getJson, login, manualClock, session, signIn, V } from "./helpers.js";

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe("api-version", () => {
  it("answers 400 with a failure when api-version is missing or unknown, and accepts 2.0 and 2", async () => {
    sim = await startSimulator({ minIntervalMs: 0 });
    const demo = await signIn(sim);
    const missing = await demo.get("/api/carriers/company-vehicles", "");
    expect(missing.status).toBe(400);
    expect(missing.json.isSuccess).toBe(false);
    expect(missing.json.failureReasons[0].errorCode).toBe("MissingApiVersion");
    const unknown = await demo.get("/api/carriers/company-vehicles", "api-version=3.0");
    expect(unknown.status).toBe(400);
    expect(unknown.json.failureReasons[0]).toEqual({
      errorCode: "UnsupportedApiVersion",
      errorParameters: ["3.0"],
    });
    expect((await demo.get("/api/carriers/company-vehicles", "api-version=2")).status).toBe(200);
    expect((await login(sim, "demo", "demo", "")).status).toBe(400);
  });
});

describe("login", () => {
  it("issues a JWT-shaped bearer token for form data", async () => {
    sim = await startSimulator({ minIntervalMs: 0, tokenTtlSeconds: 600 });
    const answer = await login(sim, "demo", "demo");
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ expires_in: 600, token_type: "Bearer" });
    expect(answer.json.scope).toContain("offline_access");
    expect(typeof answer.json.refresh_token).toBe("string");
    const parts = String(answer.json.access_token).split(".");
    expect(parts).toHaveLength(3);
    const claims = JSON.parse(Buffer.from(parts[1]!, "base64url").toString("utf8"));
    expect(claims.sub).toBe("demo");
    expect(typeof claims.exp).toBe("number");
  });

  it("accepts multipart form data too", async () => {
    sim = await startSimulator({ minIntervalMs: 0 });
    const form = new FormData();
    form.set("username", "viewer");
    form.set("password", "viewer");
    const res = await fetch(`${sim.url}/api/authentication/login?${V}`, { method: "POST", body: form });
    expect(res.status).toBe(200);
  });

  it("answers 400 to JSON or a missing field, 401 to wrong credentials and to an inactive user", async () => {
    sim = await startSimulator({ minIntervalMs: 0 });
    const asJson = await fetch(`${sim.url}/api/authentication/login?${V}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "demo", password: "demo" }),
    });
    expect(asJson.status).toBe(400);
    const noPassword = await fetch(`${sim.url}/api/authentication/login?${V}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "username=demo",
    });
    expect(noPassword.status).toBe(400);
    expect((await login(sim, "demo", "wrong")).status).toBe(401);
    expect((await login(sim, "nobody", "x")).status).toBe(401);
    expect((await login(sim, "inactive", "inactive")).status).toBe(401);
  });
});

describe("tokens", () => {
  it("rejects missing and forged tokens with 401 Unauthorized", async () => {
    sim = await startSimulator({ minIntervalMs: 0 });
    const none = await fetch(`${sim.url}/api/carriers/company-vehicles?${V}`);
    expect(none.status).toBe(401);
    const body = (await none.json()) as { failureReasons: { errorCode: string }[] };
    expect(body.failureReasons[0]?.errorCode).toBe("Unauthorized");
    const demo = await signIn(sim);
    const forged = session(sim, `${demo.token.slice(0, -3)}abc`);
    expect((await forged.get("/api/carriers/company-vehicles")).status).toBe(401);
  });

  it("expires tokens after tokenTtlSeconds of the sim clock", async () => {
    const clock = manualClock();
    sim = await startSimulator({ minIntervalMs: 0, tokenTtlSeconds: 60, now: clock.now });
    const demo = await signIn(sim);
    clock.advance(59_000);
    expect((await demo.get("/api/carriers/company-vehicles")).status).toBe(200);
    clock.advance(1_000);
    const expired = await demo.get("/api/carriers/company-vehicles");
    expect(expired.status).toBe(401);
    expect(expired.json.failureReasons[0].errorCode).toBe("TokenExpired");
    expect(expired.headers.get("www-authenticate")).toContain("invalid_token");
  });

  it("expires tokens on demand through the control endpoint and the clock control", async () => {
    sim = await startSimulator({ minIntervalMs: 0, control: true });
    const demo = await signIn(sim);
    const viewer = await signIn(sim, "viewer");
    expect((await control(sim, "/__control/expire-tokens", { username: "viewer" })).json.expired).toBe(1);
    expect((await viewer.get("/api/carriers/company-vehicles")).status).toBe(401);
    expect((await demo.get("/api/carriers/company-vehicles")).status).toBe(200);
    await control(sim, "/__control/clock", { advanceMs: 3600_000 });
    expect((await demo.get("/api/carriers/company-vehicles")).json.failureReasons[0].errorCode).toBe(
      "TokenExpired",
    );
  });
});

describe("rate limit", () => {
  it("answers 429 with Retry-After inside the interval, and 429s do not move the window", async () => {
    const clock = manualClock();
    sim = await startSimulator({ minIntervalMs: 30_000, now: clock.now });
    const demo = await signIn(sim); // login counts: t = 0
    clock.advance(30_000);
    expect((await demo.get("/api/carriers/company-vehicles")).status).toBe(200); // t = 30 s
    clock.advance(10_500);
    const limited = await demo.get("/api/carriers/company-vehicles"); // t = 40.5 s
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("20");
    expect(limited.json.failureReasons[0].errorCode).toBe("TooManyRequests");
    clock.advance(19_000);
    expect((await demo.get("/api/carriers/company-vehicles")).status).toBe(429); // t = 59.5 s
    clock.advance(500);
    expect((await demo.get("/api/carriers/company-vehicles")).status).toBe(200); // t = 60 s: 30 s after the last accepted
    // Another user has a window of their own.
    expect((await login(sim, "viewer", "viewer")).status).toBe(200);
  });

  it("limits login per username from the form, omits Retry-After when configured, honours per-user intervals", async () => {
    const clock = manualClock();
    sim = await startSimulator({
      minIntervalMs: 30_000,
      retryAfterHeader: false,
      now: clock.now,
      users: [
        { username: "demo", password: "demo" },
        { username: "fast", password: "fast", minIntervalMs: 1000 },
      ],
    });
    expect((await login(sim, "demo", "wrong")).status).toBe(401);
    const again = await login(sim, "demo", "demo");
    expect(again.status).toBe(429);
    expect(again.headers.get("retry-after")).toBeNull();
    const fast = await signIn(sim, "fast");
    clock.advance(1000);
    expect((await fast.get("/api/carriers/company-vehicles")).status).toBe(200);
  });

  it("works on real time with a short interval and reports the smallest accepted gap", async () => {
    sim = await startSimulator({ minIntervalMs: 150, control: true });
    const demo = await signIn(sim);
    expect((await demo.get("/api/carriers/company-vehicles")).status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 170));
    expect((await demo.get("/api/carriers/company-vehicles")).status).toBe(200);
    const stats = (await getJson(sim, "/__stats")).json;
    expect(stats.rateLimited.demo).toBe(1);
    expect(stats.minGapMs.demo).toBeGreaterThanOrEqual(150);
    expect(stats.requests.demo).toEqual({ login: 1, "company-vehicles": 2 });
    expect(stats.total).toBe(3);
  });
});

describe("faults and control", () => {
  it("serves the next n matching requests with the configured fault", async () => {
    sim = await startSimulator({ minIntervalMs: 0, control: true });
    const demo = await signIn(sim);
    await control(sim, "/__control/faults", { kind: "http500", count: 1, endpoint: "company-vehicles" });
    expect((await demo.get("/api/carriers/company-vehicles")).status).toBe(500);
    expect((await demo.get("/api/carriers/company-vehicles")).status).toBe(200);
    await control(sim, "/__control/faults", { kind: "rateLimit", count: 1, retryAfterSeconds: 7 });
    const limited = await demo.get("/api/carriers/company-vehicles");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    await control(sim, "/__control/faults", { kind: "malformed", count: 1 });
    const malformed = await demo.get("/api/carriers/company-vehicles");
    expect(malformed.status).toBe(200);
    expect(typeof malformed.json).toBe("string");
    await control(sim, "/__control/faults", { kind: "http401", count: 1 });
    expect((await demo.get("/api/carriers/company-vehicles")).status).toBe(401);
    await control(sim, "/__control/faults", { kind: "delay", count: 1, delayMs: 120 });
    const started = performance.now();
    expect((await demo.get("/api/carriers/company-vehicles")).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(100);
  });

  it("records requests without passwords or tokens, adds users, resets", async () => {
    sim = await startSimulator({ minIntervalMs: 0, control: true });
    await control(sim, "/__control/users", {
      username: "ana",
      password: "s3cret",
      vehicleIds: [sim.vehicles[0]!.vehicleId],
    });
    const ana = await signIn(sim, "ana", "s3cret");
    expect((await ana.get("/api/carriers/company-vehicles")).json.payload).toHaveLength(1);
    const log = (await getJson(sim, "/__requests?limit=10")).json;
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({
      endpoint: "login",
      username: "ana",
      status: 200,
      body: { username: "ana" },
    });
    const text = JSON.stringify(log);
    expect(text).not.toContain("s3cret");
    expect(text).not.toContain(ana.token);
    await control(sim, "/__control/reset");
    expect((await getJson(sim, "/__stats")).json.total).toBe(0);
  });

  it("hides the control endpoints unless enabled", async () => {
    sim = await startSimulator({ minIntervalMs: 0 });
    expect((await getJson(sim, "/__stats")).status).toBe(404);
    expect((await control(sim, "/__control/reset")).status).toBe(404);
  });
});
