/**
 * Issue 30, "private mode is respected", end to end: signed commands from the fake Slack driver to
 * the real bot over HTTP, the embedded simulator behind the gate. One truck is forced into private
 * mode through the simulator's control (not the company car's Saturday, so the test does not
 * depend on today's date), and its periods are fixed weekdays. The simulator, asked directly as
 * another user, is the oracle of the truck's real places: none of them may reach Slack, in a
 * message or a file, in English or Romanian.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { SimVehicle } from "../../../src/simulator/fleet.js";
import { type BotHarness, startBotHarness, textOf } from "../../helpers/botHarness.js";

let h: BotHarness;
let truck: SimVehicle;
/** The truck's places as the simulator knows them (addresses, hot spots, coordinates). */
let places: string[] = [];
const USER = "U0DISPATCH";
const RO_USER = "U0VIEWER";
const CHANNEL = "C0GENERAL";
/** Tuesday to Thursday of a past week: the truck works, stops and refuels. */
const PERIOD = "2026-11-03..2026-11-05";

const sim = () => h.bot.simulator!;

/** A coordinate as any view or file would start to write it (4 decimals), both decimal marks. */
function coordinateForms(value: number): string[] {
  const [whole, fraction = ""] = String(value).split(".");
  if (fraction.length < 4) return [];
  const text = `${whole}.${fraction.slice(0, 4)}`;
  return [text, text.replace(".", ",")];
}

/** Asks the simulator directly, as its own user (its own rate window), what the truck's places are. */
async function oraclePlaces(vehicleId: number): Promise<string[]> {
  sim().control.upsertUser({ username: "oracle", password: "oracle", minIntervalMs: 0 });
  const login = await fetch(`${sim().url}/api/authentication/login?api-version=2.0`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: "oracle", password: "oracle" }).toString(),
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const api = async (path: string, body?: unknown) => {
    const res = await fetch(`${sim().url}/api/carriers/${path}?api-version=2.0`, {
      method: body === undefined ? "GET" : "POST",
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return ((await res.json()) as { payload: unknown }).payload;
  };
  const period = { startDate: "2026-11-02T00:00:00", endDate: "2026-11-06T23:59:59" };
  type Placed = {
    vehicleId?: number;
    address?: string;
    hotSpot?: string | null;
    latitude?: number;
    longitude?: number;
  };
  const vehicles = (await api("company-vehicles")) as (Placed & { isPrivate: boolean })[];
  const now = vehicles.find((v) => v.vehicleId === vehicleId)!;
  expect(now.isPrivate).toBe(true);
  const stops = (
    (await api("stops", { vehiclesList: [vehicleId], stationaryMargin: 5, ...period })) as {
      results: Record<string, Placed[]>;
    }[]
  )[0]!.results[String(vehicleId)]!;
  const refills = (await api("refills", { carrierId: vehicleId, ...period })) as {
    event: string;
    location: string;
  }[];
  const fuelled = refills.filter((e) => e.event.startsWith("Fueling") && e.location);
  // The oracle has something to find, or the test would prove nothing.
  expect(stops.filter((s) => s.address).length).toBeGreaterThan(1);
  expect(fuelled.length).toBeGreaterThan(0);
  const found = new Set<string>();
  for (const p of [now, ...stops]) {
    if (p.address) found.add(p.address);
    if (p.hotSpot) found.add(p.hotSpot);
    for (const c of [p.latitude, p.longitude])
      if (c !== undefined) for (const f of coordinateForms(c)) found.add(f);
  }
  for (const e of fuelled) found.add(e.location);
  return [...found];
}

beforeAll(async () => {
  h = await startBotHarness();
  truck = sim().vehicles.find((v) => v.kind === "truck" && !v.privateOnSaturdays)!;
  // Before any command: the bot's vehicle list is fetched with the truck already private.
  expect(sim().control.setVehiclePrivate(truck.vehicleId, true)).toBe(true);
  places = await oraclePlaces(truck.vehicleId);
});
afterAll(async () => {
  await h.close();
});
afterEach(() => {
  expect(h.fake.violations).toEqual([]);
});

/** Runs a command and returns everything it showed its user in the channel, and the files it sent. */
async function run(
  text: string,
  userId = USER,
): Promise<{ shown: string; files: string; fileNames: string[] }> {
  const visible = () =>
    new Map(
      h.fake
        .messages(CHANNEL)
        .filter((m) => !m.ephemeral || m.visibleTo === userId)
        .map((m) => [m.ts, textOf(m)]),
    );
  const before = visible();
  const filesBefore = h.fake.files.length;
  const result = await h.driver.slashCommand({ command: "/fleet", text, userId, channelId: CHANNEL });
  expect(result.status, text).toBe(200);
  await h.settle();
  // New messages, and the queue message the answer replaced in place.
  const shown = [...visible()].filter(([ts, t]) => before.get(ts) !== t).map(([, t]) => t);
  const files = h.fake.files.slice(filesBefore);
  return {
    shown: shown.join("\n"),
    files: files.map((f) => f.bytes?.toString("utf8") ?? "").join("\n"),
    fileNames: files.map((f) => f.name),
  };
}

const leaked = (text: string) => places.filter((p) => text.includes(p));

describe("a truck in private mode (forced through the simulator's control)", () => {
  it("where: 🔒 and the phrase, no coordinates, address or map link; the engine still shown", async () => {
    const { shown } = await run(`where ${truck.plate}`);
    expect(shown).toContain(truck.plate);
    expect(shown).toContain("🔒 in private mode");
    expect(shown).toContain("*Engine*");
    expect(shown).not.toContain("openstreetmap.org");
    expect(leaked(shown)).toEqual([]);
  });

  it("vehicles: the truck's line shows 🔒 and the phrase, no place and no map link", async () => {
    const { shown } = await run(`vehicles ${truck.plate}`);
    expect(shown).toContain(truck.plate);
    expect(shown).toContain("🔒 in private mode");
    expect(shown).not.toContain("openstreetmap.org");
    expect(leaked(shown)).toEqual([]);
  });

  it("stops: listed with their times and durations, without any place, in Slack and in the CSV", async () => {
    const { shown, files, fileNames } = await run(`stops ${truck.plate} ${PERIOD}`);
    expect(shown).toContain("🔒 in private mode");
    expect(shown).toMatch(/\d+ stops, /);
    expect(fileNames).toContain("stops.csv");
    expect(files.split("\n").length).toBeGreaterThan(3);
    expect(leaked(shown)).toEqual([]);
    expect(leaked(files)).toEqual([]);
  });

  it("refills: the refuellings with their litres, without their places, in Slack and in the CSV", async () => {
    const { shown, files } = await run(`refills ${truck.plate} ${PERIOD}`);
    expect(shown).toContain("🔒 This vehicle is in private mode");
    expect(shown).toMatch(/⛽ Refuelling: \d[\d.,]* l/);
    expect(files).toContain("Fueling");
    expect(leaked(shown)).toEqual([]);
    expect(leaked(files)).toEqual([]);
  });

  it("route: withheld while private mode lasts; no track file, and the way is not even asked", async () => {
    const wayBefore = sim()
      .control.requests(500)
      .filter((r) => r.endpoint === "way").length;
    const { shown, fileNames } = await run(`route ${truck.plate} ${PERIOD}`);
    expect(shown).toContain("🔒 This vehicle is in private mode");
    expect(fileNames.filter((n) => n.endsWith(".gpx"))).toEqual([]);
    expect(leaked(shown)).toEqual([]);
    expect(
      sim()
        .control.requests(500)
        .filter((r) => r.endpoint === "way").length,
    ).toBe(wayBefore);
  });

  it("in Romanian: unde, vehicule, opriri and traseu say „în mod privat” and show no place; out of private mode the place is back", async () => {
    expect((await run("limba ro", RO_USER)).shown).toContain("Limba ta este acum româna.");
    const where = await run(`unde ${truck.plate}`, RO_USER);
    expect(where.shown).toContain("🔒 în mod privat");
    const list = await run(`vehicule ${truck.plate}`, RO_USER);
    expect(list.shown).toContain("🔒 în mod privat");
    const stops = await run(`opriri ${truck.plate} ${PERIOD}`, RO_USER);
    expect(stops.shown).toContain("🔒 în mod privat");
    const route = await run(`traseu ${truck.plate} ${PERIOD}`, RO_USER);
    expect(route.shown).toContain("🔒 Vehiculul e în mod privat");
    for (const answer of [where, list, stops, route]) {
      expect(answer.shown).not.toContain("openstreetmap.org");
      expect(leaked(answer.shown)).toEqual([]);
      expect(leaked(answer.files)).toEqual([]);
    }

    // Once private mode ends, the place is back: the oracle's places are the real ones.
    sim().control.setVehiclePrivate(truck.vehicleId, false);
    const after = await run(`where ${truck.plate}`);
    expect(after.shown).toContain("openstreetmap.org");
    expect(after.shown).not.toContain("🔒 in private mode");
    expect(leaked(after.shown).length).toBeGreaterThan(0);
  });
});
