import { afterEach, describe, expect, it } from "vitest";
import { type RunningSimulator, STATUS, startSimulator } from "../../src/simulator/index.js";
import { control, manualClock, type Session, signIn } from "./helpers.js";

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const ALL = [1, 2, 3, 4, 5, 6];
const HOUR = 3600_000;

interface Listed {
  uId: string;
  codeUit: string;
  statusId: number;
  transmissionStatusCode: string;
  carrierUId: string;
  validityEndDate: string;
  changeRequestStatusCode: string | null;
  startDate: string | null;
  endDate: string | null;
}

async function list(
  s: Session,
  body: Record<string, unknown> = {},
): Promise<{ totalRecords: number; transports: Listed[] }> {
  const answer = await s.post("/api/eTransport/load-transports", { statusIds: ALL, pageSize: 100, ...body });
  expect(answer.status).toBe(200);
  return answer.json.payload;
}

async function start(options: Parameters<typeof startSimulator>[0] = {}) {
  const clock = manualClock();
  sim = await startSimulator({
    minIntervalMs: 0,
    now: clock.now,
    control: true,
    tokenTtlSeconds: 7 * 86_400,
    ...options,
  });
  return { clock, sim, demo: await signIn(sim) };
}

const action = (s: Session, name: "start" | "pause" | "end", ...codes: string[]) =>
  s.post(`/api/eTransport/${name}-transports`, { transports: codes.map((codeUit) => ({ codeUit })) });

function addBody(vehicleUId: string, codeUit: string, extra: Record<string, unknown> = {}) {
  return {
    vehicleUId,
    codeUit,
    vatNumber: "RO16341004",
    validityStartDate: "2026-11-03T10:00:00Z",
    validityEndDate: "2026-11-08T10:00:00Z",
    startLocation: "București",
    endLocation: "Constanța",
    notes: "Paleți",
    ...extra,
  };
}

describe("demo transports", () => {
  it("cover the states, a bad transmission, a change request error and a UIT expiring within 12 h", async () => {
    const { demo, clock } = await start({ drift: false });
    const { transports, totalRecords } = await list(demo);
    expect(totalRecords).toBe(transports.length);
    const statuses = new Set(transports.map((t) => t.statusId));
    for (const s of [1, 2, 3, 4, 6]) expect(statuses).toContain(s);
    expect(statuses).not.toContain(STATUS.Error);
    expect(sim!.control.transports().some((t) => t.statusId === STATUS.Error)).toBe(true);
    for (const t of transports) expect(t.codeUit).toMatch(/^[A-Z0-9]{16}$/);
    const running = transports.filter((t) => t.statusId === 2);
    expect(running.some((t) => t.transmissionStatusCode === "Active")).toBe(true);
    expect(running.some((t) => t.transmissionStatusCode === "Error")).toBe(true);
    expect(transports.some((t) => t.changeRequestStatusCode === "ResponseError")).toBe(true);
    const soon = transports.filter(
      (t) => t.statusId === 2 && Date.parse(`${t.validityEndDate}+02:00`) - clock.now() < 12 * HOUR,
    );
    expect(soon).toHaveLength(1);
  });

  it("auto-completes a transport once its validity has ended on the sim clock", async () => {
    const { demo, clock } = await start({ drift: false });
    const before = await list(demo, { statusIds: [4] });
    clock.advance(9 * HOUR);
    const after = await list(demo, { statusIds: [4] });
    expect(after.totalRecords).toBe(before.totalRecords + 1);
  });

  it("lists only transports of the user's vehicles", async () => {
    const { demo } = await start();
    const viewer = await signIn(sim!, "viewer");
    const mine = await list(viewer);
    const all = await list(demo);
    expect(mine.totalRecords).toBeGreaterThan(0);
    expect(mine.totalRecords).toBeLessThan(all.totalRecords);
    const viewerVehicles = new Set(
      (await viewer.get("/api/carriers/company-vehicles")).json.payload.map(
        (v: { vehicleUId: string }) => v.vehicleUId,
      ),
    );
    for (const t of mine.transports) expect(viewerVehicles.has(t.carrierUId)).toBe(true);
    const foreign = all.transports.find(
      (t) => !viewerVehicles.has(t.carrierUId) && [1, 2, 6].includes(t.statusId),
    )!;
    const refused = await action(viewer, "start", foreign.codeUit);
    expect(refused.status).toBe(401);
    expect(refused.json.failureReasons[0].errorCode).toBe("AccessDenied");
  });
});

describe("life cycle", () => {
  it("adds, starts, pauses, resumes and ends a transport; finished transports refuse changes", async () => {
    const { demo, clock } = await start({ drift: false });
    const vehicle = sim!.vehicles[20]!;
    const added = await demo.post(
      "/api/eTransport/add-transport",
      addBody(vehicle.vehicleUId, "AB12CD34EF56GH78"),
    );
    expect(added.json).toMatchObject({ payload: true, isSuccess: true });
    const find = async () => (await list(demo, { searchValue: "AB12CD34EF56GH78" })).transports[0]!;
    expect(await find()).toMatchObject({
      statusId: 1,
      transmissionStatusCode: "NotStarted",
      startDate: null,
    });

    const started = await action(demo, "start", "AB12CD34EF56GH78");
    expect(started.json).toMatchObject({
      isSuccess: true,
      payload: [{ codeUit: "AB12CD34EF56GH78", isSuccess: true, errors: [] }],
    });
    expect(await find()).toMatchObject({
      statusId: 2,
      transmissionStatusCode: "Active",
      startDate: "2026-11-03T14:00:00",
    });
    expect((await action(demo, "start", "AB12CD34EF56GH78")).json.failureReasons[0]).toEqual({
      errorCode: "InvalidTransportState",
      errorParameters: ["AB12CD34EF56GH78", "InProgress"],
    });

    clock.advance(HOUR);
    const paused = await action(demo, "pause", "AB12CD34EF56GH78");
    expect(paused.json).toMatchObject({ payload: true, isSuccess: true });
    expect(await find()).toMatchObject({ statusId: 6, transmissionStatusCode: "WithoutTransmission" });
    expect((await action(demo, "pause", "AB12CD34EF56GH78")).json).toMatchObject({
      payload: false,
      isSuccess: false,
    });

    expect((await action(demo, "start", "AB12CD34EF56GH78")).json.isSuccess).toBe(true);
    expect(await find()).toMatchObject({ statusId: 2, startDate: "2026-11-03T14:00:00" });

    clock.advance(HOUR);
    expect((await action(demo, "end", "AB12CD34EF56GH78")).json.isSuccess).toBe(true);
    expect(await find()).toMatchObject({
      statusId: 3,
      transmissionStatusCode: "Finalized",
      endDate: "2026-11-03T16:00:00",
    });
    for (const name of ["start", "pause", "end"] as const) {
      const refused = await action(demo, name, "AB12CD34EF56GH78");
      expect(refused.status).toBe(200);
      expect(refused.json.failureReasons[0].errorCode).toBe("TransportFinalized");
    }
    const { uId } = await find();
    const update = await demo.post("/api/eTransport/update-transport", {
      ...addBody(vehicle.vehicleUId, "ignored"),
      codeUit: undefined,
      transportUId: uId,
    });
    expect(update.json).toMatchObject({
      payload: false,
      failureReasons: [{ errorCode: "TransportFinalized" }],
    });
  });

  it("refuses ending a pending transport and starting before the UIT validity", async () => {
    const { demo } = await start({ drift: false });
    const vehicle = sim!.vehicles[21]!;
    await demo.post(
      "/api/eTransport/add-transport",
      addBody(vehicle.vehicleUId, "ZZ12CD34EF56GH78", { validityStartDate: "2026-11-04T10:00:00Z" }),
    );
    expect((await action(demo, "end", "ZZ12CD34EF56GH78")).json.failureReasons[0].errorCode).toBe(
      "InvalidTransportState",
    );
    expect((await action(demo, "start", "ZZ12CD34EF56GH78")).json.failureReasons[0].errorCode).toBe(
      "UitValidityNotStarted",
    );
  });

  it("answers unknown UITs, duplicates and unknown vehicles with application failures (HTTP 200)", async () => {
    const { demo } = await start({ drift: false });
    const unknown = await action(demo, "start", "NOPE000000000000");
    expect(unknown.status).toBe(200);
    expect(unknown.json).toMatchObject({
      isSuccess: false,
      payload: [{ codeUit: "NOPE000000000000", isSuccess: false, errors: ["TransportNotFound"] }],
    });
    const existing = (await list(demo)).transports[0]!;
    const duplicate = await demo.post(
      "/api/eTransport/add-transport",
      addBody(sim!.vehicles[3]!.vehicleUId, existing.codeUit),
    );
    expect(duplicate.status).toBe(200);
    expect(duplicate.json.failureReasons[0].errorCode).toBe("TransportAlreadyExists");
    const noVehicle = await demo.post(
      "/api/eTransport/add-transport",
      addBody("00000000-0000-4000-8000-000000000000", "QQ12CD34EF56GH78"),
    );
    expect(noVehicle.json.failureReasons[0].errorCode).toBe("VehicleNotFound");
    const removeUnknown = await demo.post("/api/eTransport/remove-transports", {
      transportsUids: ["00000000-0000-4000-8000-000000000000"],
    });
    expect(removeUnknown.json).toMatchObject({
      payload: false,
      failureReasons: [{ errorCode: "TransportNotFound" }],
    });
  });

  it("validates add-transport input with 400", async () => {
    const { demo } = await start({ drift: false });
    const uId = sim!.vehicles[0]!.vehicleUId;
    const { vatNumber: _vat, ...noVat } = addBody(uId, "AA12CD34EF56GH78");
    expect((await demo.post("/api/eTransport/add-transport", noVat)).status).toBe(400);
    expect(
      (await demo.post("/api/eTransport/add-transport", addBody("not-a-guid", "AA12CD34EF56GH78"))).status,
    ).toBe(400);
    const inverted = addBody(uId, "AA12CD34EF56GH78", { validityStartDate: "2026-11-09T00:00:00Z" });
    expect((await demo.post("/api/eTransport/add-transport", inverted)).status).toBe(400);
    expect((await demo.post("/api/eTransport/load-transports", {})).status).toBe(400);
  });

  it("puts a UIT the platform rejects in status Error, never listed; remove deletes for good", async () => {
    const { demo } = await start({ drift: false });
    const before = (await list(demo)).totalRecords;
    const added = await demo.post(
      "/api/eTransport/add-transport",
      addBody(sim!.vehicles[2]!.vehicleUId, "bad-uit"),
    );
    expect(added.json.payload).toBe(true);
    expect((await list(demo)).totalRecords).toBe(before);
    expect(sim!.control.transports().find((t) => t.codeUit === "bad-uit")?.statusId).toBe(STATUS.Error);

    const victim = (await list(demo)).transports[0]!;
    const removed = await demo.post("/api/eTransport/remove-transports", { transportsUids: [victim.uId] });
    expect(removed.json).toMatchObject({ payload: true, isSuccess: true });
    expect((await list(demo)).totalRecords).toBe(before - 1);
  });

  it("creates a change request when the vehicle of a running transport changes, answered after 5 minutes", async () => {
    const { demo, clock } = await start({ drift: false });
    const running = (await list(demo, { statusIds: [2] })).transports.find(
      (t) => t.transmissionStatusCode === "Active",
    )!;
    const other = sim!.vehicles[22]!;
    const updated = await demo.post("/api/eTransport/update-transport", {
      transportUId: running.uId,
      vehicleUId: other.vehicleUId,
      vatNumber: "RO16341004",
      validityStartDate: "2026-11-02T10:00:00Z",
      validityEndDate: "2026-11-07T10:00:00Z",
    });
    expect(updated.json.payload).toBe(true);
    const find = async () => (await list(demo)).transports.find((t) => t.uId === running.uId)!;
    expect(await find()).toMatchObject({
      carrierUId: other.vehicleUId,
      changeRequestStatusCode: "RequestCreated",
    });
    clock.advance(5 * 60_000);
    expect((await find()).changeRequestStatusCode).toBe("ResponseSuccess");
  });
});

describe("paging and search", () => {
  it("pages with a 0-based index by default and counts all matches", async () => {
    const { demo } = await start({ transportCount: 150 });
    const all = await list(demo, { statusIds: [1, 2, 3, 4, 6] });
    expect(all.totalRecords).toBeGreaterThan(120);
    expect(all.transports).toHaveLength(100); // page size is capped at 100
    const seen = new Set<string>();
    for (let page = 0; page * 25 < all.totalRecords; page++) {
      const chunk = await list(demo, { statusIds: [1, 2, 3, 4, 6], pageSize: 25, pageIndex: page });
      expect(chunk.totalRecords).toBe(all.totalRecords);
      for (const t of chunk.transports) seen.add(t.uId);
    }
    expect(seen.size).toBe(all.totalRecords);
    const defaults = (await demo.post("/api/eTransport/load-transports", { statusIds: [1, 2, 3, 4, 6] })).json
      .payload;
    expect(defaults.transports).toHaveLength(20);
    expect((await list(demo, { statusIds: [5] })).totalRecords).toBe(0);
  });

  it("can start pages at 1", async () => {
    const { demo } = await start({ pageIndexBase: 1 });
    const first = await list(demo, { pageSize: 3, pageIndex: 1 });
    const implicit = await list(demo, { pageSize: 3 });
    expect(first.transports).toEqual(implicit.transports);
    const zero = await demo.post("/api/eTransport/load-transports", { statusIds: ALL, pageIndex: 0 });
    expect(zero.status).toBe(400);
  });

  it("searches UIT, plate and locations case-insensitively", async () => {
    const { demo } = await start();
    const sample = (await list(demo)).transports[0]!;
    const byUit = await list(demo, { searchValue: sample.codeUit.toLowerCase() });
    expect(byUit.transports.map((t) => t.uId)).toEqual([sample.uId]);
    const grouped = sample.codeUit.match(/.{4}/g)!.join("-");
    expect((await list(demo, { searchValue: grouped })).totalRecords).toBe(1);
    const plate = sim!.control.transports().find((t) => t.uId === sample.uId)!.carrierCode;
    expect((await list(demo, { searchValue: plate.toLowerCase() })).transports.map((t) => t.uId)).toContain(
      sample.uId,
    );
    expect((await list(demo, { searchValue: "CONSTANȚA" })).totalRecords).toBeGreaterThan(0);
    expect((await list(demo, { searchValue: "no such thing" })).totalRecords).toBe(0);
  });
});

describe("transmission", () => {
  it("drifts deterministically away from Active and back over time", async () => {
    const { demo, clock } = await start();
    const seen = new Map<string, Set<string>>();
    for (let step = 0; step < 48; step++) {
      for (const t of (await list(demo, { statusIds: [2] })).transports) {
        const codes = seen.get(t.codeUit) ?? new Set<string>();
        codes.add(t.transmissionStatusCode);
        seen.set(t.codeUit, codes);
      }
      clock.advance(HOUR / 2);
    }
    const drifting = [...seen.values()].filter((codes) => codes.has("Active") && codes.size > 1);
    expect(drifting.length).toBeGreaterThan(0);
    const twin = await startSimulator({ minIntervalMs: 0, now: clock.now });
    try {
      const a = (await list(demo, { statusIds: [2] })).transports.map((t) => [
        t.codeUit,
        t.transmissionStatusCode,
      ]);
      const b = (await list(await signIn(twin), { statusIds: [2] })).transports;
      expect(b.length).toBeGreaterThan(0);
      // Same seed and same time: the drifting codes agree for transports both have.
      const codes = new Map(a.map(([uit, code]) => [uit, code]));
      for (const t of b)
        if (codes.has(t.codeUit)) expect(t.transmissionStatusCode).toBe(codes.get(t.codeUit));
    } finally {
      await twin.close();
    }
  });

  it("lets the control endpoint override the transmission until cleared", async () => {
    const { demo } = await start({ drift: false });
    const running = (await list(demo, { statusIds: [2] })).transports.find(
      (t) => t.transmissionStatusCode === "Active",
    )!;
    const set = await control(sim!, `/__control/transports/${running.codeUit}`, {
      transmissionStatusCode: "OldData",
      lastGpsDate: "2026-11-03T04:00:00Z",
    });
    expect(set.status).toBe(200);
    const overridden = (await list(demo, { searchValue: running.codeUit })).transports[0]!;
    expect(overridden).toMatchObject({
      transmissionStatusCode: "OldData",
      lastGpsDate: "2026-11-03T06:00:00",
    });
    await control(sim!, `/__control/transports/${running.codeUit}`, { clear: true });
    expect((await list(demo, { searchValue: running.codeUit })).transports[0]!.transmissionStatusCode).toBe(
      "Active",
    );
    expect((await control(sim!, "/__control/transports/UNKNOWN", { clear: true })).status).toBe(404);
  });

  it("answers start and end as a boolean or a single object when configured", async () => {
    for (const mode of ["boolean", "object"] as const) {
      const { demo } = await start({ drift: false, transportActionPayload: mode });
      const pending = (await list(demo, { statusIds: [1] })).transports.find((t) => t.validityEndDate)!;
      const answer = await action(demo, "start", pending.codeUit);
      if (mode === "boolean") expect(answer.json.payload).toBe(true);
      else expect(answer.json.payload).toEqual({ codeUit: pending.codeUit, isSuccess: true, errors: [] });
      await sim!.close();
      sim = undefined;
    }
  });
});

describe("faults on mutations", () => {
  it("delayAnswer applies the change at once and holds the answer back", async () => {
    const { demo } = await start({ drift: false });
    const pending = (await list(demo, { statusIds: [1] })).transports[0]!;
    await control(sim!, "/__control/faults", {
      kind: "delayAnswer",
      count: 1,
      delayMs: 300,
      endpoint: "start-transports",
    });
    let answered = false;
    const started = action(demo, "start", pending.codeUit).then((a) => {
      answered = true;
      return a;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answered).toBe(false);
    const now = (await list(demo, { searchValue: pending.codeUit })).transports[0]!;
    expect(now.statusId).toBe(2);
    expect((await started).status).toBe(200);
  });
});
