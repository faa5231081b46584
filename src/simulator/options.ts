/** Options of the simulator and their defaults. */
import type { DurationUnit } from "./reports.js";
import type { ResponseDateStyle } from "./time.js";

export interface SimUser {
  username: string;
  password: string;
  /** false: login answers 401 and issued tokens stop working. Default true. */
  active?: boolean;
  /** Vehicles the user may access; default "all". */
  vehicleIds?: number[] | "all";
  /** Overrides the simulator's minIntervalMs for this user. */
  minIntervalMs?: number;
}

/**
 * Limits of the vehicle-data endpoints that fleet-api.md leaves open ("not shown"). null is
 * no limit, the default: the simulator enforces exactly what the document states (10 vehicles
 * for way, stops, consumption; 31 days for way, consumption; one vehicle for refills).
 */
export interface VehicleDataLimits {
  /** Vehicles per stops request, below the documented 10. */
  stopsMaxVehicles: number | null;
  /** Vehicles per temperatures request. */
  temperaturesMaxVehicles: number | null;
  /** Maximum period in days of stops, refills, temperatures. */
  stopsMaxDays: number | null;
  refillsMaxDays: number | null;
  temperaturesMaxDays: number | null;
}

/** Limits the document leaves open ("not shown"). */
export interface UndocumentedLimits extends VehicleDataLimits {
  /** load-transports page size when pageSize is absent or 0. Default 20. */
  defaultPageSize: number;
  /** Larger page sizes are cut to this. Default 100. */
  maxPageSize: number;
}

/** The default: only the documented limits apply to vehicle data. */
export const DOCUMENTED_ONLY: VehicleDataLimits = {
  stopsMaxVehicles: null,
  temperaturesMaxVehicles: null,
  stopsMaxDays: null,
  refillsMaxDays: null,
  temperaturesMaxDays: null,
};

/**
 * Strict-limits mode: a service that applies the documented limits of way/consumption to
 * the endpoints whose limits the document leaves open, to test a client that learns them.
 */
export const STRICT_LIMITS: VehicleDataLimits = {
  stopsMaxVehicles: 10,
  temperaturesMaxVehicles: 10,
  stopsMaxDays: 31,
  refillsMaxDays: 31,
  temperaturesMaxDays: 31,
};

export interface SimulatorOptions {
  host?: string;
  port?: number;
  minIntervalMs?: number;
  tokenTtlSeconds?: number;
  keyCase?: "camel" | "pascal";
  /** "local" 2026-11-03T14:05:00, "offset" 2026-11-03T14:05:00+02:00, "localMillis" 2026-11-03T14:05:00.000 */
  dateStyle?: ResponseDateStyle;
  retryAfterHeader?: boolean;
  transportActionPayload?: "boolean" | "object" | "array";
  pageIndexBase?: 0 | 1;
  seed?: number;
  vehicleCount?: number;
  transportCount?: number;
  /**
   * false: the hand-made demo transports start without problems (no pinned transmission error,
   * no failed change request, no validity ending within hours), so that a fresh sandbox is calm
   * and a break forced from its panel stands out. Default true: the demo shows every kind.
   */
  demoProblems?: boolean;
  timeZone?: string;
  now?: () => number;
  control?: boolean;
  drift?: boolean;
  users?: SimUser[];
  logger?: { info(o: object, msg?: string): void };
  /** Whether login counts against the per-user interval. Default true (the login page lists 429). */
  rateLimitLogin?: boolean;
  /** Unit of the duration fields of stop records. Default "minutes". */
  stopDurationUnit?: DurationUnit;
  /** Strict-limits mode (STRICT_LIMITS) for the limits the document leaves open. Default false. */
  strictLimits?: boolean;
  /** Single undocumented limits; they win over strictLimits. */
  limits?: Partial<UndocumentedLimits>;
}

export interface ResolvedOptions {
  host: string;
  port: number;
  minIntervalMs: number;
  tokenTtlSeconds: number;
  keyCase: "camel" | "pascal";
  dateStyle: ResponseDateStyle;
  retryAfterHeader: boolean;
  transportActionPayload: "boolean" | "object" | "array";
  pageIndexBase: 0 | 1;
  seed: number;
  vehicleCount: number;
  transportCount: number;
  demoProblems: boolean;
  timeZone: string;
  now: () => number;
  control: boolean;
  drift: boolean;
  /** Undefined: the default demo/viewer/inactive users. */
  users: SimUser[] | undefined;
  logger: { info(o: object, msg?: string): void } | undefined;
  rateLimitLogin: boolean;
  stopDurationUnit: DurationUnit;
  limits: UndocumentedLimits;
}

export const MIN_VEHICLES = 25;

export function resolveOptions(options: SimulatorOptions = {}): ResolvedOptions {
  return {
    host: options.host ?? "127.0.0.1",
    port: options.port ?? 0,
    minIntervalMs: options.minIntervalMs ?? 30_000,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
    keyCase: options.keyCase ?? "camel",
    dateStyle: options.dateStyle ?? "local",
    retryAfterHeader: options.retryAfterHeader ?? true,
    transportActionPayload: options.transportActionPayload ?? "array",
    pageIndexBase: options.pageIndexBase ?? 0,
    seed: options.seed ?? 1,
    vehicleCount: Math.max(MIN_VEHICLES, options.vehicleCount ?? 28),
    transportCount: Math.max(0, options.transportCount ?? 0),
    demoProblems: options.demoProblems ?? true,
    timeZone: options.timeZone ?? "Europe/Bucharest",
    now: options.now ?? Date.now,
    control: options.control ?? false,
    drift: options.drift ?? true,
    users: options.users,
    logger: options.logger,
    rateLimitLogin: options.rateLimitLogin ?? true,
    stopDurationUnit: options.stopDurationUnit ?? "minutes",
    limits: {
      ...(options.strictLimits ? STRICT_LIMITS : DOCUMENTED_ONLY),
      defaultPageSize: 20,
      maxPageSize: 100,
      ...options.limits,
    },
  };
}
