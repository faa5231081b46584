/**
 * The Simulator panel's Vehicles part: `GET /sandbox/vehicles` and `POST /sandbox/vehicle
 * {vehicleId, action}` change what the simulator's company-vehicles (and temperatures) answer,
 * read over HTTP as any client of the fleet service reads them; and, when Chromium is there, a
 * click on one of the panel's buttons.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSimulator, SimVehicle } from "../../../src/simulator/index.js";
import {
  chromiumAvailable,
  type SandboxHarness,
  type SandboxServer,
  startSandboxHarness,
  startSandboxServer,
} from "./harness.js";

const V = "api-version=2.0";

interface Listed {
  vehicleId: number;
  latitude: number;
  longitude: number;
  speed: number;
  engineEvent: number;
  engineRpm: number;
  externalPowerVoltage: number;
}

/** A fleet-service client of the test's own (its own user, so the bot's rate window is not shared). */
async function fleetClient(sim: RunningSimulator) {
  sim.control.upsertUser({ username: "panel-check", password: "panel-check", minIntervalMs: 0 });
  const login = await fetch(`${sim.url}/api/authentication/login?${V}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: "panel-check", password: "panel-check" }).toString(),
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  return {
    async vehicle(vehicleId: number): Promise<Listed> {
      const res = await fetch(`${sim.url}/api/carriers/company-vehicles?${V}`, { headers });
      const body = (await res.json()) as { payload: Listed[] };
      return body.payload.find((v) => v.vehicleId === vehicleId)!;
    },
    async temperatures(vehicleId: number, from: string, to: string) {
      const res = await fetch(`${sim.url}/api/carriers/temperatures?${V}`, {
        method: "POST",
        headers,
        body: JSON.stringify({ vehiclesList: [vehicleId], startDate: from, endDate: to }),
      });
      const body = (await res.json()) as { payload: { temperature: { value: number }[] }[] };
      return body.payload[0]!.temperature;
    },
  };
}

function km(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2 +
    Math.cos(a.latitude * rad) *
      Math.cos(b.latitude * rad) *
      Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/** Company local time (Bucharest), as the simulator's requests take it. */
const local = (at: number) =>
  new Date(at).toLocaleString("sv-SE", { timeZone: "Europe/Bucharest" }).replace(" ", "T");

describe("the Simulator panel's vehicles (HTTP)", { timeout: 30_000 }, () => {
  let s: SandboxServer;
  let sim: RunningSimulator;
  let fleet: Awaited<ReturnType<typeof fleetClient>>;
  let truck: SimVehicle;

  beforeAll(async () => {
    s = await startSandboxServer();
    sim = s.bot.simulator!;
    fleet = await fleetClient(sim);
    truck = sim.vehicles.find((v) => v.kind === "truck" && !v.reefer)!;
  }, 30_000);
  afterAll(async () => {
    await s?.close();
  });

  const act = async (vehicleId: number, action: string) => {
    const res = await s.api("/sandbox/vehicle", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ vehicleId, action }),
    });
    return {
      status: res.status,
      body: (await res.json()) as Record<string, unknown> & { vehicle?: unknown },
    };
  };

  it("lists the fleet with the demo zone at the București depot", async () => {
    const res = await s.api("/sandbox/vehicles");
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      zone: { name: string; latitude: number; longitude: number; radiusMeters: number };
      vehicles: { vehicleId: number; plate: string; reefer: boolean; controls: object }[];
    };
    expect(body.zone).toEqual({
      name: "Depou București",
      latitude: 44.4326,
      longitude: 25.9723,
      radiusMeters: 500,
    });
    expect(body.vehicles.map((v) => v.vehicleId)).toEqual(sim.vehicles.map((v) => v.vehicleId));
    expect(body.vehicles.filter((v) => v.reefer)).toHaveLength(2);
    expect(body.vehicles.every((v) => JSON.stringify(v.controls) === "{}")).toBe(true);
  });

  it("each button changes what company-vehicles answers; Back to normal restores it", async () => {
    expect((await act(truck.vehicleId, "cutPower")).body).toMatchObject({
      ok: true,
      vehicle: { controls: { power: "cut" } },
    });
    expect((await fleet.vehicle(truck.vehicleId)).externalPowerVoltage).toBeLessThan(6);
    await act(truck.vehicleId, "restorePower");
    expect((await fleet.vehicle(truck.vehicleId)).externalPowerVoltage).toBeGreaterThan(24);

    await act(truck.vehicleId, "enterZone");
    const inside = await fleet.vehicle(truck.vehicleId);
    expect(km(inside, { latitude: 44.4326, longitude: 25.9723 })).toBeLessThan(0.01);
    expect(inside).toMatchObject({ speed: 0, engineEvent: 2 });
    await act(truck.vehicleId, "leaveZone");
    expect(km(await fleet.vehicle(truck.vehicleId), inside)).toBeCloseTo(3, 1);

    await act(truck.vehicleId, "idle");
    expect(await fleet.vehicle(truck.vehicleId)).toMatchObject({ speed: 0, engineRpm: 650, engineEvent: 1 });
    await act(truck.vehicleId, "speed");
    expect(await fleet.vehicle(truck.vehicleId)).toMatchObject({ speed: 120, engineEvent: 1 });
    await act(truck.vehicleId, "silent");
    expect(sim.control.vehicleControls(truck.vehicleId)).toMatchObject({ silent: true });

    expect((await act(truck.vehicleId, "normal")).body).toMatchObject({
      ok: true,
      vehicle: { controls: {} },
    });
    expect(sim.control.vehicleControls(truck.vehicleId)).toEqual({});
  });

  it("tows a parked vehicle at once, and a running one after a check has seen it parked", async () => {
    await act(truck.vehicleId, "enterZone");
    const parked = await fleet.vehicle(truck.vehicleId);
    expect((await act(truck.vehicleId, "tow")).body).toMatchObject({ ok: true, step: "done" });
    expect(km(await fleet.vehicle(truck.vehicleId), parked)).toBeCloseTo(2, 1);

    await act(truck.vehicleId, "speed");
    expect((await act(truck.vehicleId, "tow")).body).toMatchObject({ ok: true, step: "parked" });
    const stopped = await fleet.vehicle(truck.vehicleId);
    expect(stopped).toMatchObject({ speed: 0, engineEvent: 2 });
    // The harness checks alerts every 2 s; a read of the vehicles after that check lets the tow go.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await fleet.vehicle(truck.vehicleId);
    await expect
      .poll(() => sim.control.vehicleControls(truck.vehicleId)?.motion, { timeout: 5_000 })
      .toBe("tow");
    expect(km(await fleet.vehicle(truck.vehicleId), stopped)).toBeCloseTo(2, 1);
    await act(truck.vehicleId, "normal");
  });

  it("warms a reefer's sensors 12 °C above its set point; a vehicle without sensors is refused", async () => {
    const reefer = sim.vehicles.find((v) => v.reefer)!;
    const from = sim.control.now() - 1000;
    expect((await act(reefer.vehicleId, "warmReefer")).status).toBe(200);
    const readings = await fleet.temperatures(reefer.vehicleId, local(from), local(sim.control.now() + 1000));
    expect(readings.length).toBeGreaterThan(0);
    expect(readings.every((r) => r.value === reefer.reefer!.setPointC + 12)).toBe(true);
    await act(reefer.vehicleId, "normal");

    const refused = await act(truck.vehicleId, "warmReefer");
    expect(refused.status).toBe(400);
    expect(String(refused.body.error)).toContain("not a reefer");
  });

  it("refuses a bad action, an unknown vehicle, and a request without the page's token", async () => {
    expect((await act(truck.vehicleId, "fly")).status).toBe(400);
    expect((await act(999_999, "idle")).status).toBe(404);
    const bare = await fetch(`${s.url}/sandbox/vehicle`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ vehicleId: truck.vehicleId, action: "idle" }),
    });
    expect(bare.status).toBe(403);
    expect((await fetch(`${s.url}/sandbox/vehicles`)).status).toBe(403);
    expect(sim.control.vehicleControls(truck.vehicleId)).toEqual({});
  });
});

const run = chromiumAvailable();

describe.skipIf(!run)("the Simulator panel's vehicles (Chromium)", { timeout: 45_000 }, () => {
  let h: SandboxHarness;
  let page: Page;

  beforeAll(async () => {
    if (!run) return;
    h = await startSandboxHarness();
    page = h.page;
    await page.goto(h.url);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it("Cut power on the picked vehicle reaches the simulator and says so", async () => {
    const sim = h.bot.simulator!;
    const truck = sim.vehicles.find((v) => v.kind === "truck" && !v.reefer)!;
    await page.locator("#sim-vehicle").waitFor({ timeout: 10_000 });
    await page.selectOption("#sim-vehicle", String(truck.vehicleId));
    // Only reefers have the Warm reefer button.
    expect(await page.locator('[data-vehicle-action="warmReefer"]').count()).toBe(0);
    expect(await page.locator('[data-vehicle-action="enterZone"]').textContent()).toBe(
      "Drive into \u201cDepou București\u201d",
    );
    await page.click('[data-vehicle-action="cutPower"]');
    await page
      .locator("#toast")
      .filter({ hasText: `${truck.plate}: power cut` })
      .waitFor({ timeout: 5_000 });
    expect(sim.control.vehicleControls(truck.vehicleId)).toEqual({ power: "cut" });
    await page.locator("#sim-vehicle-forced").filter({ hasText: "Forced: power cut" }).waitFor();
    expect(h.pageErrors).toEqual([]);
  });
});
