import { describe, expect, it } from "vitest";
import { canonicalJson, lowerFirstChar, normalizeKeys } from "../../../src/platform/fleet/normalize.js";
import {
  envelopeSchema,
  fleetSchemas,
  isKnownRefillEventKind,
  loginResponseSchema,
  normalizeTransportActionPayload,
  transportActionPayloadSchema,
} from "../../../src/platform/fleet/schemas.js";

const TZ = "Europe/Bucharest";
const s = fleetSchemas(TZ);
const parse = <T>(schema: { parse: (v: unknown) => T }, raw: unknown): T => schema.parse(normalizeKeys(raw));

describe("normalizeKeys", () => {
  it("lower-cases the first character of every key, recursively", () => {
    expect(lowerFirstChar("VehicleUId")).toBe("vehicleUId");
    expect(lowerFirstChar("UId")).toBe("uId");
    expect(lowerFirstChar("access_token")).toBe("access_token");
    expect(
      normalizeKeys({
        IsSuccess: true,
        Payload: [{ VehicleId: 1, GpsDate: "x", EngineOnStops: [{ StartDate: 1 }] }],
      }),
    ).toEqual({
      isSuccess: true,
      payload: [{ vehicleId: 1, gpsDate: "x", engineOnStops: [{ startDate: 1 }] }],
    });
  });

  it("leaves values alone and prefers the camelCase key when both are present", () => {
    expect(normalizeKeys({ A: "Value", a: "kept", list: ["X", 1, null] })).toEqual({
      a: "kept",
      list: ["X", 1, null],
    });
  });

  it("canonicalJson sorts keys so equal bodies give equal strings", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [2, 1] }, b: 1 }),
    );
  });
});

describe("envelope", () => {
  it("reads camelCase and PascalCase envelopes, failureReasons null or absent", () => {
    expect(
      parse(envelopeSchema, { Payload: [], CorrelationId: "c-1", FailureReasons: null, IsSuccess: true }),
    ).toEqual({
      payload: [],
      correlationId: "c-1",
      failureReasons: [],
      isSuccess: true,
    });
    const failed = parse(envelopeSchema, {
      isSuccess: false,
      failureReasons: [{ errorCode: 1001, errorParameters: ["x", 2] }],
    });
    expect(failed.failureReasons).toEqual([{ errorCode: "1001", errorParameters: ["x", "2"] }]);
  });

  it("rejects an envelope without isSuccess", () => {
    expect(envelopeSchema.safeParse({ payload: [] }).success).toBe(false);
  });
});

describe("login", () => {
  it("reads the OAuth answer and coerces expires_in", () => {
    const r = parse(loginResponseSchema, {
      access_token: "t",
      expires_in: "28800",
      token_type: "Bearer",
      scope: null,
    });
    expect(r.expires_in).toBe(28800);
    expect(loginResponseSchema.safeParse({ access_token: "", expires_in: 1 }).success).toBe(false);
    expect(loginResponseSchema.safeParse({ access_token: "t" }).success).toBe(false);
  });
});

describe("vehicles", () => {
  it("reads a PascalCase vehicle with extra fields, nulls and numeric strings", () => {
    const [v] = parse(s.vehiclesPayload, [
      {
        VehicleId: "42",
        VehicleUId: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
        VehicleName: "Truck 1",
        VehicleRegistrationNumber: "B-123-ABC",
        GroupName: "North",
        Latitude: "44.43",
        Longitude: 26.1,
        GpsDate: "2024-09-09T08:52:55.005",
        Address: null,
        Speed: 0,
        IsPrivate: false,
        ManufactureYear: null,
      },
    ]);
    expect(v).toMatchObject({
      vehicleId: 42,
      vehicleUId: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
      latitude: 44.43,
      longitude: 26.1,
      address: undefined,
      isPrivate: false,
    });
    expect(v?.gpsDate?.toISOString()).toBe("2024-09-09T05:52:55.005Z");
    expect(v).not.toHaveProperty("groupName");
  });

  it("rejects a vehicle without vehicleId, or with a non-integer one", () => {
    expect(s.vehiclesPayload.safeParse([{ vehicleName: "x" }]).success).toBe(false);
    expect(s.vehiclesPayload.safeParse([{ vehicleId: "B-1" }]).success).toBe(false);
    expect(s.vehiclesPayload.safeParse([{ vehicleId: 1.5 }]).success).toBe(false);
  });

  it("rejects an unreadable date", () => {
    expect(s.vehiclesPayload.safeParse([{ vehicleId: 1, gpsDate: "soon" }]).success).toBe(false);
  });
});

describe("way", () => {
  it("sorts points by vehicle then time and parses offsets as given", () => {
    const points = parse(s.wayPayload, [
      { VehicleId: 2, GpsDate: "2025-01-01T10:00:00", Latitude: 1, Longitude: 2 },
      { VehicleId: 1, GpsDate: "2025-01-01T09:00:00Z", Latitude: 1, Longitude: 2, Speed: "50" },
      { VehicleId: 1, GpsDate: "2025-01-01T10:00:00+02:00", Latitude: 1, Longitude: 2 },
    ]);
    expect(points.map((p) => [p.vehicleId, p.gpsDate.toISOString()])).toEqual([
      [1, "2025-01-01T08:00:00.000Z"],
      [1, "2025-01-01T09:00:00.000Z"],
      [2, "2025-01-01T08:00:00.000Z"],
    ]);
    expect(points[1]?.speed).toBe(50);
  });

  it("rejects a point without a date", () => {
    expect(s.wayPayload.safeParse([{ vehicleId: 1, latitude: 1, longitude: 2 }]).success).toBe(false);
  });
});

describe("stops", () => {
  const stop = (vehicleId: number, start: string) => ({
    VehicleId: vehicleId,
    StartDate: start,
    EndDate: "2025-04-11T23:00:00",
    EngineOnStops: null,
    Drivers: [{ FirstName: "Ion", LastName: "Pop" }],
  });

  it("flattens payload[].results whatever the keys, ordered by vehicle then start", () => {
    const stops = parse(s.stopsPayload, [
      { Results: { "7": [stop(7, "2025-04-11T14:00:00")], B123ABC: [stop(3, "2025-04-11T15:00:00")] } },
      { Results: { additionalProp1: [stop(3, "2025-04-11T09:00:00.1234567")], empty: null } },
      { Results: null },
    ]);
    expect(stops.map((x) => [x.vehicleId, x.startDate.toISOString()])).toEqual([
      [3, "2025-04-11T06:00:00.123Z"],
      [3, "2025-04-11T12:00:00.000Z"],
      [7, "2025-04-11T11:00:00.000Z"],
    ]);
    expect(stops[0]?.engineOnStops).toEqual([]);
    expect(stops[0]?.drivers).toEqual([{ firstName: "Ion", lastName: "Pop" }]);
  });
});

describe("consumption", () => {
  const base = {
    VehicleName: "Van",
    LicensePlate: "B-1-AAA",
    Distance: 100,
    Hours: "02:30:00",
    ConsumptionValue: "8.5",
    AverageConsumption100Km: 8.5,
  };

  it.each([
    ["null", null],
    ["absent", undefined],
    ["empty object", {}],
    ["all zeros", { distance: 0, hours: "00:00:00", consumptionValue: 0, averageConsumption100Km: 0 }],
  ])("treats a secondarySource that is %s as no secondary source", (_label, secondary) => {
    const [r] = parse(s.consumptionPayload, [{ ...base, SecondarySource: secondary }]);
    expect(r?.secondarySource).toBeUndefined();
    expect(r).toMatchObject({
      distance: 100,
      hoursSeconds: 9000,
      consumptionValue: 8.5,
      averageConsumption100Km: 8.5,
    });
  });

  it("keeps a secondary source with data", () => {
    const [r] = parse(s.consumptionPayload, [
      {
        ...base,
        SecondarySource: { Distance: 50, Hours: "1:00:00", ConsumptionValue: 6, AverageConsumption100Km: 12 },
      },
    ]);
    expect(r?.secondarySource).toEqual({
      distance: 50,
      hours: "1:00:00",
      hoursSeconds: 3600,
      consumptionValue: 6,
      averageConsumption100Km: 12,
    });
  });

  it("tolerates missing numbers (0) and derives a missing average", () => {
    const [r] = parse(s.consumptionPayload, [{ licensePlate: "X", distance: 200, consumptionValue: 16 }]);
    expect(r).toMatchObject({
      distance: 200,
      consumptionValue: 16,
      averageConsumption100Km: 8,
      hoursSeconds: 0,
    });
  });
});

describe("refills", () => {
  it("keeps unknown event kinds and unreadable dates without failing the answer", () => {
    const events = parse(s.refillsPayload, [
      {
        Date: "11.04.2025 14:33",
        Event: "Fueling",
        Location: "Pitesti",
        Estimation: "120.5",
        IsPrivate: false,
      },
      { Date: "2025-04-11T16:00:00", Event: "FuelLevelJump" },
      { Date: "string", Event: "PossibleFuelTheft" },
    ]);
    expect(events[0]?.date?.toISOString()).toBe("2025-04-11T11:33:00.000Z");
    expect(events[0]?.estimation).toBe(120.5);
    expect(events[1]?.event).toBe("FuelLevelJump");
    expect(isKnownRefillEventKind(events[1]?.event ?? "")).toBe(false);
    expect(isKnownRefillEventKind("FuelingSecondarySource")).toBe(true);
    expect(events[2]).toMatchObject({ date: undefined, dateText: "string", event: "PossibleFuelTheft" });
  });
});

describe("temperatures", () => {
  it("flattens the groups and tolerates null lists", () => {
    const r = parse(s.temperaturesPayload, [
      {
        Temperature: [{ VehicleId: 2, Date: "2025-04-11T12:33:11.817", Value: -18.5, SensorNumber: 1 }],
        Humidity: null,
      },
      {
        Temperature: [{ VehicleId: 1, Date: "2025-04-11T12:00:00", Value: "4", SensorNumber: 2 }],
        Humidity: [],
      },
    ]);
    expect(r.temperature.map((t) => [t.vehicleId, t.value])).toEqual([
      [1, 4],
      [2, -18.5],
    ]);
    expect(r.humidity).toEqual([]);
  });
});

describe("load-transports", () => {
  it("reads transports, company-local dates bare, offsets as given, unknown status codes kept", () => {
    const page = parse(s.loadTransportsPayload, {
      TotalRecords: 2,
      Transports: [
        {
          UId: "t-1",
          CodeUit: "UIT1",
          StatusId: 2,
          CarrierUId: "v-1",
          StartDate: "2025-05-16T14:35:04.862Z",
          ValidityEndDate: "2025-05-20T10:00:00",
          TransmissionStatusCode: "SomethingNew",
          LastGpsDate: null,
        },
        { uId: "t-2", codeUit: "UIT2", statusId: "6" },
      ],
    });
    expect(page.totalRecords).toBe(2);
    expect(page.transports[0]?.startDate?.toISOString()).toBe("2025-05-16T14:35:04.862Z");
    expect(page.transports[0]?.validityEndDate?.toISOString()).toBe("2025-05-20T07:00:00.000Z");
    expect(page.transports[0]?.transmissionStatusCode).toBe("SomethingNew");
    expect(page.transports[1]?.statusId).toBe(6);
  });

  it("defaults totalRecords to the number of transports; rejects a transport without uId", () => {
    expect(parse(s.loadTransportsPayload, { transports: null })).toEqual({ totalRecords: 0, transports: [] });
    expect(s.loadTransportsPayload.safeParse({ transports: [{ codeUit: "U", statusId: 1 }] }).success).toBe(
      false,
    );
  });
});

describe("transport action payloads", () => {
  const uits = ["U1", "U2"];
  const run = (raw: unknown) =>
    normalizeTransportActionPayload(parse(transportActionPayloadSchema, raw), uits);

  it("boolean true: every UIT succeeded; false: every UIT failed", () => {
    expect(run(true).map((r) => [r.codeUit, r.isSuccess, r.reported])).toEqual([
      ["U1", true, false],
      ["U2", true, false],
    ]);
    expect(run(false).every((r) => !r.isSuccess && r.errors.length === 1)).toBe(true);
  });

  it("a single object answers for its UIT; UITs not mentioned count as failed and unreported", () => {
    expect(run({ CodeUit: "U2", IsSuccess: true, Errors: null })).toEqual([
      {
        codeUit: "U1",
        isSuccess: false,
        errors: ["the fleet service did not report an outcome for this UIT"],
        reported: false,
      },
      { codeUit: "U2", isSuccess: true, errors: [], reported: true },
    ]);
  });

  it("an array gives one result per UIT, in request order", () => {
    expect(
      run([
        { codeUit: "U2", isSuccess: false, errors: ["already ended"] },
        { codeUit: "U1", isSuccess: true, errors: [] },
      ]),
    ).toEqual([
      { codeUit: "U1", isSuccess: true, errors: [], reported: true },
      { codeUit: "U2", isSuccess: false, errors: ["already ended"], reported: true },
    ]);
  });

  it("rejects anything else", () => {
    expect(transportActionPayloadSchema.safeParse("yes").success).toBe(false);
    expect(transportActionPayloadSchema.safeParse({ isSuccess: true }).success).toBe(false);
  });
});
