import { afterEach, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/index.js";
import { manualClock, type Session, signIn } from "./helpers.js";

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const ALL = [1, 2, 3, 4, 6];

interface Listed {
  codeUit: string;
  statusId: number;
  carrierUId: string;
  startLocation: string | null;
  endLocation: string | null;
  transmissionStatusCode: string;
}

async function start(options: Parameters<typeof startSimulator>[0] = {}) {
  const clock = manualClock();
  sim = await startSimulator({
    minIntervalMs: 0,
    now: clock.now,
    control: true,
    tokenTtlSeconds: 30 * 86_400,
    ...options,
  });
  return { clock, sim, demo: await signIn(sim) };
}

async function transports(s: Session, statusIds = ALL): Promise<Listed[]> {
  const answer = await s.post("/api/eTransport/load-transports", { statusIds, pageSize: 100 });
  expect(answer.status).toBe(200);
  return answer.json.payload.transports;
}

async function vehicles(s: Session) {
  return (await s.get("/api/carriers/company-vehicles")).json.payload as Array<{
    vehicleId: number;
    vehicleUId: string;
    latitude: number;
    longitude: number;
    speed: number;
    engineEvent: number;
    engineRpm: number;
    address: string;
  }>;
}

/** Crude distance in km, enough to tell "at the depot" from "on the road". */
const km = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) =>
  Math.hypot((a.lat - b.lat) * 111, (a.lon - b.lon) * 111 * Math.cos((a.lat * Math.PI) / 180));

const BUCHAREST = { lat: 44.4326, lon: 25.9723 };
const SIBIU = { lat: 45.7983, lon: 24.1256 };
const NADLAC = { lat: 46.17, lon: 20.73 };

describe("a consistent story", () => {
  it("vehicles of In Progress transports drive their route with the engine on; a paused one stands", async () => {
    const { demo } = await start({ drift: false });
    const running = (await transports(demo, [2, 6])).filter((t) => t.startLocation && t.endLocation);
    const fleet = await vehicles(demo);
    const inProgress = running.filter((t) => t.statusId === 2);
    expect(inProgress.length).toBeGreaterThanOrEqual(5);
    for (const t of inProgress) {
      const v = fleet.find((x) => x.vehicleUId === t.carrierUId)!;
      expect(v.engineEvent, `${t.startLocation} → ${t.endLocation}`).toBe(1);
      expect(v.speed).toBeGreaterThan(20);
      expect(v.engineRpm).toBeGreaterThan(0);
    }
    const paused = running.find((t) => t.statusId === 6)!;
    const standing = fleet.find((x) => x.vehicleUId === paused.carrierUId)!;
    expect(standing.speed).toBe(0);
    expect(standing.engineEvent).toBe(2);
  });

  it("the București → Sibiu truck moves towards Sibiu, and way, stops and position agree", async () => {
    const { demo, clock } = await start({ drift: false });
    const t = (await transports(demo, [2])).find(
      (x) => x.startLocation?.startsWith("București") && x.endLocation?.startsWith("Sibiu"),
    )!;
    const vehicleId = (await vehicles(demo)).find((v) => v.vehicleUId === t.carrierUId)!.vehicleId;
    const position = async () => {
      const v = (await vehicles(demo)).find((x) => x.vehicleId === vehicleId)!;
      return { lat: v.latitude, lon: v.longitude, speed: v.speed };
    };
    const startedAt = clock.now();
    const first = await position();
    clock.advance(HOUR);
    const later = await position();
    expect(km(later, SIBIU)).toBeLessThan(km(first, SIBIU) - 40);
    expect(km(first, BUCHAREST)).toBeGreaterThan(30);

    // The track of the last hour runs from the first position to the later one.
    const local = (at: number) => new Date(at + 2 * HOUR).toISOString().slice(0, 19);
    const way = (
      await demo.post("/api/carriers/way", {
        vehiclesList: [vehicleId],
        startDate: local(startedAt),
        endDate: local(clock.now()),
      })
    ).json.payload as Array<{ latitude: number; longitude: number }>;
    expect(way.length).toBeGreaterThan(20);
    const firstPoint = { lat: way[0]!.latitude, lon: way[0]!.longitude };
    const lastPoint = { lat: way.at(-1)!.latitude, lon: way.at(-1)!.longitude };
    expect(km(firstPoint, first)).toBeLessThan(5);
    expect(km(lastPoint, later)).toBeLessThan(5);

    // Its stops today: the loading in București before the start, none at the depot since.
    const stops = (
      await demo.post("/api/carriers/stops", {
        vehiclesList: [vehicleId],
        startDate: local(startedAt - 6 * HOUR),
        endDate: local(clock.now()),
        stationaryMargin: 10,
      })
    ).json.payload[0].results[String(vehicleId)] as Array<{ address: string; endDate: string }>;
    const loading = stops.find((s) => s.address.includes("încărcare"));
    expect(loading?.address).toContain("București");
    expect(loading!.endDate <= local(startedAt)).toBe(true);
  });

  it("flags NotInRomania only while the vehicle of a route abroad is past the border", async () => {
    const { demo, clock } = await start({ drift: false });
    const abroad = (await transports(demo, [2])).find((t) => t.endLocation?.startsWith("Budapesta"))!;
    const domestic = (await transports(demo, [2])).filter((t) => !t.endLocation?.startsWith("Budapesta"));
    expect(abroad.transmissionStatusCode).toBe("NotInRomania");
    const vehicle = (await vehicles(demo)).find((v) => v.vehicleUId === abroad.carrierUId)!;
    expect(vehicle.longitude).toBeLessThan(NADLAC.lon);
    // Every domestic route, over a day and a half: never NotInRomania.
    for (let step = 0; step < 36; step++) {
      for (const t of await transports(demo, [2])) {
        if (domestic.some((d) => d.codeUit === t.codeUit))
          expect(t.transmissionStatusCode, `${t.startLocation} → ${t.endLocation}`).not.toBe("NotInRomania");
      }
      clock.advance(HOUR);
    }
  });

  it("a transport started by the API sends its vehicle on its way; before the border it is Active", async () => {
    const { demo, clock } = await start({ drift: false });
    const busy = new Set(sim!.control.transports().map((t) => t.vehicleUId));
    const vehicle = sim!.vehicles.find((v) => v.depot.town === "Timișoara" && !busy.has(v.vehicleUId))!;
    const added = await demo.post("/api/eTransport/add-transport", {
      vehicleUId: vehicle.vehicleUId,
      codeUit: "TM12BU34DA56PE78",
      vatNumber: "RO16341004",
      validityStartDate: "2026-11-03T10:00:00Z",
      validityEndDate: "2026-11-08T10:00:00Z",
      startLocation: "Timisoara, depozit",
      endLocation: "Budapest",
    });
    expect(added.json.isSuccess).toBe(true);
    await demo.post("/api/eTransport/start-transports", { transports: [{ codeUit: "TM12BU34DA56PE78" }] });
    const code = async () => sim!.control.transmission("TM12BU34DA56PE78")!.code;
    const position = async () => (await vehicles(demo)).find((v) => v.vehicleUId === vehicle.vehicleUId)!;
    const codes: string[] = [];
    for (let step = 0; step < 24; step++) {
      codes.push(await code());
      if (step === 1) expect((await position()).engineEvent).toBe(1);
      clock.advance(15 * MINUTE);
    }
    // Active in Romania, then NotInRomania from the crossing on, never back while abroad.
    const firstAbroad = codes.indexOf("NotInRomania");
    expect(firstAbroad).toBeGreaterThan(1);
    expect(codes.slice(0, firstAbroad).every((c) => c === "Active")).toBe(true);
    expect(codes.slice(firstAbroad).every((c) => c === "NotInRomania")).toBe(true);
    expect((await position()).longitude).toBeLessThan(NADLAC.lon);

    // Ended: it comes home, and is back in Romania.
    await demo.post("/api/eTransport/end-transports", { transports: [{ codeUit: "TM12BU34DA56PE78" }] });
    clock.advance(12 * HOUR);
    expect((await position()).longitude).toBeGreaterThan(NADLAC.lon);
  });
});

describe("transmission drift", () => {
  it("is calm at a fresh start: only the pinned plate mismatch, and few faults in the first hours", async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const { demo, clock } = await start({ seed });
      // In Progress and neither transmitting nor merely abroad: what a dispatcher sees as a fault.
      const faults = (list: Listed[]) =>
        list.filter((t) => !["Active", "NotInRomania"].includes(t.transmissionStatusCode)).length;
      for (let minute = 0; minute <= 10; minute += 2) {
        expect(faults(await transports(demo, [2])), `seed ${seed} minute ${minute}`).toBeLessThanOrEqual(1);
        clock.advance(2 * MINUTE);
      }
      await sim!.close();
      sim = undefined;
    }
  });

  it("faults come and recover, deterministically for a seed and a start", async () => {
    const { demo, clock } = await start();
    const twinClock = manualClock();
    const twin = await startSimulator({ minIntervalMs: 0, now: twinClock.now, tokenTtlSeconds: 30 * 86_400 });
    try {
      const twinDemo = await signIn(twin);
      const episodes = new Map<string, string[]>();
      for (let step = 0; step < 6 * 24 * 4; step++) {
        const mine = await transports(demo, [2]);
        const theirs = await transports(twinDemo, [2]);
        expect(theirs.map((t) => t.transmissionStatusCode)).toEqual(
          mine.map((t) => t.transmissionStatusCode),
        );
        for (const t of mine)
          episodes.set(t.codeUit, [...(episodes.get(t.codeUit) ?? []), t.transmissionStatusCode]);
        clock.advance(15 * MINUTE);
        twinClock.advance(15 * MINUTE);
      }
      // Drifting transports fall out of Active and come back to it.
      const recovered = [...episodes.values()].filter((codes) =>
        codes.some((c, i) => c !== "Active" && c !== "NotInRomania" && codes.slice(i + 1).includes("Active")),
      );
      expect(recovered.length).toBeGreaterThan(0);
      // Believable: at most one fault in ten samples on average.
      const samples = [...episodes.values()].flat();
      const drifted = samples.filter((c) =>
        ["NoGPSCoordinates", "OldData", "WithoutTransmission"].includes(c),
      );
      expect(drifted.length / samples.length).toBeLessThan(0.1);
    } finally {
      await twin.close();
    }
  });

  it("still lets a test force a fault through the control endpoint", async () => {
    const { demo } = await start();
    const t = (await transports(demo, [2])).find((x) => x.transmissionStatusCode === "Active")!;
    sim!.control.setTransport(t.codeUit, { transmissionStatusCode: "NoGPSCoordinates" });
    const after = (await transports(demo, [2])).find((x) => x.codeUit === t.codeUit)!;
    expect(after.transmissionStatusCode).toBe("NoGPSCoordinates");
  });
});
