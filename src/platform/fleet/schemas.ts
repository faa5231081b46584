import { z } from "zod";
import {
  formatDurationHours,
  parseDurationSeconds,
  parseLooseServiceDate,
  parseServiceDate,
} from "./time.js";

/**
 * Shapes of the fleet service (fleet-api.md), as zod schemas.
 *
 * Answers are parsed AFTER normalizeKeys (camelCase or PascalCase become camelCase), and
 * the parse is tolerant where the real service may differ from its document: unknown
 * extra fields are ignored, null stands for "absent" in optional fields, numbers may come
 * as numeric strings, dates may come bare (company-local), with Z, or with an offset.
 * What must not be accepted (a vehicle without vehicleId, a point without a date…) fails
 * the parse, which the client reports as UpstreamTransportError("malformed").
 *
 * Date fields need the company time zone, so response schemas come from
 * `fleetSchemas(timeZone)`; request bodies are plain and zone-free.
 */

// ---------- building blocks ----------

function numericString(v: unknown): unknown {
  if (typeof v === "string" && v.trim() !== "") {
    const n = Number(v.trim().replace(",", "."));
    if (Number.isFinite(n)) return n;
  }
  return v;
}

function boolish(v: unknown): unknown {
  if (v === "true" || v === "True") return true;
  if (v === "false" || v === "False") return false;
  return v;
}

const numberish = z.preprocess(numericString, z.number());
const integerish = z.preprocess(numericString, z.number().int());
const optionalNumber = numberish.nullish().transform((v) => v ?? undefined);
const optionalInteger = integerish.nullish().transform((v) => v ?? undefined);
/** Text; a number where text is expected (a plate "123") is taken as its digits. */
const text = z.preprocess((v) => (typeof v === "number" ? String(v) : v), z.string());
const optionalText = text.nullish().transform((v) => v ?? undefined);
const optionalBoolean = z
  .preprocess(boolish, z.boolean())
  .nullish()
  .transform((v) => v ?? undefined);
const booleanish = z.preprocess(boolish, z.boolean());
const listOf = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullish()
    .transform((v) => v ?? []);

function serviceDate(timeZone: string) {
  return z.string().transform((s, ctx) => {
    const parsed = parseServiceDate(s, timeZone);
    if (!parsed) {
      ctx.issues.push({ code: "custom", message: `not a service date: "${s}"`, input: s });
      return z.NEVER;
    }
    return parsed;
  });
}

function optionalServiceDate(timeZone: string) {
  return z
    .string()
    .nullish()
    .transform((s, ctx) => {
      if (s == null || s.trim() === "") return undefined;
      const parsed = parseServiceDate(s, timeZone);
      if (!parsed) {
        ctx.issues.push({ code: "custom", message: `not a service date: "${s}"`, input: s });
        return z.NEVER;
      }
      return parsed;
    });
}

// ---------- envelope and failures ----------

export const failureReasonSchema = z.object({
  errorCode: text.nullish().transform((v) => v ?? "unknown"),
  errorParameters: listOf(text),
});

/** The envelope of every answer except login. `payload` is parsed per endpoint afterwards. */
export const envelopeSchema = z.object({
  payload: z.unknown().optional(),
  correlationId: optionalText,
  failureReasons: listOf(failureReasonSchema),
  isSuccess: booleanish,
});
export type Envelope = z.output<typeof envelopeSchema>;

/** Login answers without envelope, OAuth style. */
export const loginResponseSchema = z.object({
  access_token: z.string().min(1),
  expires_in: numberish.pipe(z.number().positive()),
  token_type: optionalText,
  refresh_token: optionalText,
  scope: optionalText,
});
export type LoginResponse = z.output<typeof loginResponseSchema>;

// ---------- enumerations ----------

export const REFILL_EVENT_KINDS = [
  "FuelStart",
  "Fueling",
  "PossibleFuelTheft",
  "TotalRefill",
  "TotalPossibleTheft",
  "RemainingFuel",
  "TotalFuelConsumption",
  "FuelStartSecondarySource",
  "FuelingSecondarySource",
  "PossibleFuelTheftSecondarySource",
  "TotalRefillSecondarySource",
  "TotalPossibleTheftSecondarySource",
  "RemainingFuelSecondarySource",
  "TotalFuelConsumptionSecondarySource",
] as const;
export type KnownRefillEventKind = (typeof REFILL_EVENT_KINDS)[number];
/** A documented kind, or any other text the service may add later (kept, never rejected). */
export type RefillEventKind = KnownRefillEventKind | (string & {});
export const isKnownRefillEventKind = (kind: string): kind is KnownRefillEventKind =>
  (REFILL_EVENT_KINDS as readonly string[]).includes(kind);

export const TRANSPORT_STATUS = {
  pending: 1,
  inProgress: 2,
  completed: 3,
  autoCompleted: 4,
  error: 5,
  paused: 6,
} as const;
export type TransportStatusId = (typeof TRANSPORT_STATUS)[keyof typeof TRANSPORT_STATUS];

export const TRANSMISSION_STATUS_CODES = [
  "Active",
  "Finalized",
  "NotInRomania",
  "NotStarted",
  "Error",
  "MissingETransportConfiguration",
  "OldData",
  "NoGPSCoordinates",
  "WithoutTransmission",
] as const;
export type TransmissionStatusCode = (typeof TRANSMISSION_STATUS_CODES)[number] | (string & {});

export const CHANGE_REQUEST_STATUS_CODES = [
  "RequestCreated",
  "RequestSent",
  "RequestErrorSent",
  "ResponseSuccess",
  "ResponseError",
] as const;
export type ChangeRequestStatusCode = (typeof CHANGE_REQUEST_STATUS_CODES)[number] | (string & {});

// ---------- consumption sources ----------

const consumptionSourceInput = z.object({
  distance: optionalNumber,
  hours: z.union([text, numberish]).nullish(),
  consumptionValue: optionalNumber,
  averageConsumption100Km: optionalNumber,
});

export interface ConsumptionSource {
  /** km */
  distance: number;
  /** Operating time as the service wrote it, "hours:minutes:seconds". */
  hours: string;
  /** The same operating time in seconds (0 when the text was absent or unreadable). */
  hoursSeconds: number;
  /** litres */
  consumptionValue: number;
  /** l/100 km */
  averageConsumption100Km: number;
}

/**
 * Missing numbers count as 0 (the record is still useful); a missing average is derived
 * from consumption and distance. `hours` as a bare number is read as decimal hours.
 */
function toConsumptionSource(input: z.output<typeof consumptionSourceInput>): ConsumptionSource {
  const distance = input.distance ?? 0;
  const consumptionValue = input.consumptionValue ?? 0;
  let hoursSeconds = 0;
  let hours = "0:00:00";
  if (typeof input.hours === "number") {
    hoursSeconds = Math.round(input.hours * 3600);
    hours = formatDurationHours(hoursSeconds);
  } else if (typeof input.hours === "string") {
    hoursSeconds = parseDurationSeconds(input.hours) ?? 0;
    hours = input.hours;
  }
  const averageConsumption100Km =
    input.averageConsumption100Km ?? (distance > 0 ? (consumptionValue / distance) * 100 : 0);
  return { distance, hours, hoursSeconds, consumptionValue, averageConsumption100Km };
}

/** A secondary source "has data" when anything in it is non-zero; null, {} and all zeros do not. */
export function sourceHasData(source: ConsumptionSource | undefined): source is ConsumptionSource {
  return (
    source !== undefined &&
    (source.distance !== 0 ||
      source.consumptionValue !== 0 ||
      source.hoursSeconds !== 0 ||
      source.averageConsumption100Km !== 0)
  );
}

// ---------- transport actions ----------

const transportActionItemSchema = z.object({
  codeUit: text,
  isSuccess: booleanish,
  errors: listOf(text),
});

/** Per-UIT outcome of start/pause/end (and, by UID, remove). */
export interface TransportActionResult {
  codeUit: string;
  isSuccess: boolean;
  errors: string[];
  /**
   * True when the service named this UIT in its answer; false when the outcome is
   * inferred (a bare boolean payload, or a UIT the answer did not mention).
   */
  reported: boolean;
}

export const transportActionPayloadSchema = z.union([
  booleanish,
  transportActionItemSchema,
  z.array(transportActionItemSchema),
]);
export type TransportActionPayload = z.output<typeof transportActionPayloadSchema>;

/**
 * The doc calls the payload of start/end a boolean and shows an object; a multi-UIT call
 * may well answer an array. All become one result per requested UIT, in request order:
 * boolean true → all succeeded, false → all failed; UITs the answer does not mention are
 * marked failed and not reported, so nobody assumes a transport started when unsure.
 */
export function normalizeTransportActionPayload(
  payload: TransportActionPayload,
  requestedUits: readonly string[],
): TransportActionResult[] {
  if (typeof payload === "boolean") {
    return requestedUits.map((codeUit) => ({
      codeUit,
      isSuccess: payload,
      errors: payload ? [] : ["the fleet service reported failure"],
      reported: false,
    }));
  }
  const items = Array.isArray(payload) ? payload : [payload];
  const byUit = new Map(items.map((item) => [item.codeUit, item]));
  const results: TransportActionResult[] = requestedUits.map((codeUit) => {
    const item = byUit.get(codeUit);
    if (!item) {
      return {
        codeUit,
        isSuccess: false,
        errors: ["the fleet service did not report an outcome for this UIT"],
        reported: false,
      };
    }
    return { codeUit, isSuccess: item.isSuccess, errors: item.errors, reported: true };
  });
  // Answers about UITs that were not asked for are kept, so nothing the service said is lost.
  const requested = new Set(requestedUits);
  for (const item of items) {
    if (!requested.has(item.codeUit)) {
      results.push({ codeUit: item.codeUit, isSuccess: item.isSuccess, errors: item.errors, reported: true });
    }
  }
  return results;
}

// ---------- response schemas (depend on the company time zone) ----------

function compareNumbers(a: number, b: number): number {
  return a - b;
}

type DateSchema = ReturnType<typeof serviceDate>;
type OptionalDateSchema = ReturnType<typeof optionalServiceDate>;

function buildSchemas(timeZone: string) {
  const date = serviceDate(timeZone);
  const optionalDate = optionalServiceDate(timeZone);
  const vehicle = vehicleSchema(optionalDate);
  const locationPoint = locationPointSchema(date);
  const { stopRecord, stopsPayload } = stopSchemas(date, optionalDate);
  const consumptionRecord = consumptionRecordSchema();
  const refillEvent = refillEventSchema(timeZone);
  const { sensorReading, temperaturesPayload } = sensorSchemas(date);
  const { transport, loadTransportsPayload } = transportSchemas(optionalDate);
  return {
    vehicle,
    vehiclesPayload: z.array(vehicle),
    locationPoint,
    wayPayload: z.array(locationPoint).transform((points) => sortPoints(points)),
    stopRecord,
    stopsPayload,
    consumptionRecord,
    consumptionPayload: z.array(consumptionRecord),
    refillEvent,
    refillsPayload: z.array(refillEvent),
    sensorReading,
    temperaturesPayload,
    transport,
    loadTransportsPayload,
    transportActionPayload: transportActionPayloadSchema,
    booleanPayload: booleanish,
  };
}

/** A vehicle of the list, with its last position. */
function vehicleSchema(optionalDate: OptionalDateSchema) {
  const vehicle = z.object({
    vehicleId: integerish,
    vehicleUId: optionalText,
    vehicleName: optionalText,
    vehicleRegistrationNumber: optionalText,
    latitude: optionalNumber,
    longitude: optionalNumber,
    gpsDate: optionalDate,
    address: optionalText,
    speed: optionalNumber,
    course: optionalNumber,
    engineEvent: optionalNumber,
    engineRpm: optionalNumber,
    engineEventDate: optionalDate,
    serverDate: optionalDate,
    isPrivate: optionalBoolean,
    vehicleIdentificationNumber: optionalText,
    externalPowerVoltage: optionalNumber,
    vehicleManufacturer: optionalText,
    vehicleModel: optionalText,
    manufactureYear: optionalInteger,
  });
  return vehicle;
}

/** One position of a route. */
function locationPointSchema(date: DateSchema) {
  const locationPoint = z.object({
    vehicleId: integerish,
    gpsDate: date,
    latitude: numberish,
    longitude: numberish,
    speed: optionalNumber,
    course: optionalNumber,
  });
  return locationPoint;
}

/** A stop, and the stops payload (flattened, sorted). */
function stopSchemas(date: DateSchema, optionalDate: OptionalDateSchema) {
  const engineOnStop = z.object({
    startDate: optionalDate,
    endDate: optionalDate,
    duration: optionalNumber,
  });

  const driver = z.object({ firstName: optionalText, lastName: optionalText });

  const stopRecord = z.object({
    vehicleId: integerish,
    startDate: date,
    endDate: date,
    latitude: optionalNumber,
    longitude: optionalNumber,
    stationaryEngineOnTime: optionalNumber,
    distance: optionalNumber,
    maxSpeed: optionalNumber,
    averageSpeed: optionalNumber,
    speedCount: optionalNumber,
    indexKm: optionalNumber,
    indexHours: optionalNumber,
    address: optionalText,
    stopDuration: optionalNumber,
    engineOnStops: listOf(engineOnStop),
    hotSpot: optionalText,
    functioningTime: optionalNumber,
    isPrivate: optionalBoolean,
    drivers: listOf(driver),
    fuelConsumption: optionalNumber,
  });

  /** payload[].results is a dictionary; its keys are not relied on (each stop has vehicleId). */
  const stopsPayload = z
    .array(
      z.object({
        results: z
          .record(z.string(), listOf(stopRecord))
          .nullish()
          .transform((v) => v ?? {}),
      }),
    )
    .transform((groups) => sortStops(groups.flatMap((g) => Object.values(g.results).flat())));
  return { stopRecord, stopsPayload };
}

/** One vehicle's consumption, with its secondary (LPG) source when it has data. */
function consumptionRecordSchema() {
  const consumptionRecord = consumptionSourceInput
    .extend({
      // Not documented; kept when a service version sends it.
      vehicleId: optionalInteger,
      vehicleName: optionalText,
      licensePlate: optionalText,
      secondarySource: consumptionSourceInput.nullish(),
    })
    .transform((r) => {
      const secondary = r.secondarySource ? toConsumptionSource(r.secondarySource) : undefined;
      return {
        vehicleId: r.vehicleId,
        vehicleName: r.vehicleName,
        licensePlate: r.licensePlate,
        ...toConsumptionSource(r),
        /** Undefined when the vehicle has no secondary source data (null, {}, all zeros). */
        secondarySource: sourceHasData(secondary) ? secondary : undefined,
      };
    });
  return consumptionRecord;
}

/** A refuelling or a possible theft; its date as written and, when readable, as an instant. */
function refillEventSchema(timeZone: string) {
  const refillEvent = z
    .object({
      date: optionalText,
      event: text,
      location: optionalText,
      estimation: optionalNumber,
      isPrivate: optionalBoolean,
    })
    .transform((r) => ({
      /** The instant, when the text is a date fleetbot can read; the format is not documented. */
      date: r.date === undefined ? undefined : parseLooseServiceDate(r.date, timeZone),
      /** The date exactly as the service wrote it. */
      dateText: r.date ?? "",
      event: r.event as RefillEventKind,
      location: r.location,
      estimation: r.estimation,
      isPrivate: r.isPrivate,
    }));
  return refillEvent;
}

/** A temperature or humidity reading, and the temperatures payload (sorted). */
function sensorSchemas(date: DateSchema) {
  const sensorReading = z.object({
    vehicleId: integerish,
    date,
    value: numberish,
    sensorNumber: optionalInteger,
  });

  const temperaturesPayload = z
    .array(z.object({ temperature: listOf(sensorReading), humidity: listOf(sensorReading) }))
    .transform((groups) => ({
      temperature: sortReadings(groups.flatMap((g) => g.temperature)),
      humidity: sortReadings(groups.flatMap((g) => g.humidity)),
    }));
  return { sensorReading, temperaturesPayload };
}

/** An e-Transport transport, and the load-transports payload. */
function transportSchemas(optionalDate: OptionalDateSchema) {
  // Transport dates: the doc says company time even where its example shows Z; bare
  // values are therefore company-local and explicit offsets are honoured.
  const transport = z.object({
    uId: text,
    carrierCode: optionalText,
    carrierName: optionalText,
    carrierUId: optionalText,
    trailer1Code: optionalText,
    trailer2Code: optionalText,
    codeUit: text,
    statusId: integerish,
    startDate: optionalDate,
    endDate: optionalDate,
    validityStartDate: optionalDate,
    validityEndDate: optionalDate,
    notes: optionalText,
    startLocation: optionalText,
    endLocation: optionalText,
    externalId: optionalNumber,
    externalResponse: optionalText,
    lastSyncDate: optionalDate,
    transmissionStatusCode: optionalText.transform((v) => v as TransmissionStatusCode | undefined),
    transmissionStatusErrorDescription: optionalText,
    lastTransmissionDate: optionalDate,
    lastGpsDate: optionalDate,
    changeRequestMessage: optionalText,
    changeRequestStatusCode: optionalText.transform((v) => v as ChangeRequestStatusCode | undefined),
    changeRequestCreatedAt: optionalDate,
    changeRequestDate: optionalDate,
    changeRequestAuthorityStatus: optionalText,
    changeRequestAuthorityMessage: optionalText,
    changeRequestAuthorityDate: optionalDate,
  });

  const loadTransportsPayload = z
    .object({
      totalRecords: optionalInteger,
      transports: listOf(transport),
    })
    .transform((p) => ({ totalRecords: p.totalRecords ?? p.transports.length, transports: p.transports }));
  return { transport, loadTransportsPayload };
}

export type FleetSchemas = ReturnType<typeof buildSchemas>;

const schemaCache = new Map<string, FleetSchemas>();

/** Response schemas reading bare dates in `timeZone` (built once per zone). */
export function fleetSchemas(timeZone: string): FleetSchemas {
  let schemas = schemaCache.get(timeZone);
  if (!schemas) {
    schemas = buildSchemas(timeZone);
    schemaCache.set(timeZone, schemas);
  }
  return schemas;
}

export type Vehicle = z.output<FleetSchemas["vehicle"]>;
export type LocationPoint = z.output<FleetSchemas["locationPoint"]>;
export type StopRecord = z.output<FleetSchemas["stopRecord"]>;
export type ConsumptionRecord = z.output<FleetSchemas["consumptionRecord"]>;
export type RefillEvent = z.output<FleetSchemas["refillEvent"]>;
export type SensorReading = z.output<FleetSchemas["sensorReading"]>;
/** All temperature and humidity readings of a request, flattened. */
export type SensorReadings = z.output<FleetSchemas["temperaturesPayload"]>;
export type Transport = z.output<FleetSchemas["transport"]>;
export type TransportPage = z.output<FleetSchemas["loadTransportsPayload"]>;

// ---------- orderings (pure, stable) ----------

export function sortPoints<T extends { vehicleId: number; gpsDate: Date }>(points: readonly T[]): T[] {
  return [...points].sort(
    (a, b) => compareNumbers(a.vehicleId, b.vehicleId) || compareNumbers(+a.gpsDate, +b.gpsDate),
  );
}

export function sortStops<T extends { vehicleId: number; startDate: Date }>(stops: readonly T[]): T[] {
  return [...stops].sort(
    (a, b) => compareNumbers(a.vehicleId, b.vehicleId) || compareNumbers(+a.startDate, +b.startDate),
  );
}

export function sortReadings<T extends { vehicleId: number; sensorNumber?: number | undefined; date: Date }>(
  readings: readonly T[],
): T[] {
  return [...readings].sort(
    (a, b) =>
      compareNumbers(a.vehicleId, b.vehicleId) ||
      compareNumbers(a.sensorNumber ?? 0, b.sensorNumber ?? 0) ||
      compareNumbers(+a.date, +b.date),
  );
}

// ---------- request bodies (what the client sends) ----------
// Plain types: the client builds these bodies itself, so nothing here is parsed at run time.

/** Company-local wall time without offset, "yyyy-MM-ddTHH:mm:ss" (vehicle-data requests). */
type LocalDateTime = string;
/** UTC ISO 8601 with Z (transport create/update requests). */
type UtcDateTime = string;

export interface WayRequestBody {
  /** 1 to 10 vehicle ids. */
  vehiclesList: number[];
  startDate: LocalDateTime;
  endDate: LocalDateTime;
}

export interface LoadTransportsRequestBody {
  pageSize?: number;
  pageIndex?: number;
  statusIds: number[];
  searchValue?: string;
}

export interface AddTransportRequestBody {
  vehicleUId: string;
  startDate?: UtcDateTime;
  endDate?: UtcDateTime;
  codeUit: string;
  notes?: string;
  startLocation?: string;
  endLocation?: string;
  vatNumber: string;
  validityStartDate: UtcDateTime;
  validityEndDate: UtcDateTime;
  trailer1Code?: string;
  trailer2Code?: string;
}

export type UpdateTransportRequestBody = Omit<AddTransportRequestBody, "codeUit"> & { transportUId: string };

/** Body of start-, pause- and end-transports. */
export interface TransportsByUitRequestBody {
  transports: { codeUit: string }[];
}

export interface RemoveTransportsRequestBody {
  transportsUids: string[];
}
