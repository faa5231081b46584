import type { FailureReason } from "./errors.js";
import {
  type CallLimits,
  combineLimits,
  DAY_MS,
  DOCUMENTED_LIMITS,
  type PlannedCall,
  SPLITTABLE_ENDPOINTS,
  type SplittableEndpoint,
} from "./split.js";

/**
 * Limits the service enforces but fleet-api.md leaves open, learned from its refusals.
 * A 400 whose failure reasons point at the vehicle count or the period tells the client to
 * cut that request smaller and to remember the tighter limit for the endpoint, so later
 * reports (and the bot after a restart) plan with it from their first call.
 */

/**
 * Where a CallLimitBook reads the limits learned earlier and writes each new lesson; keyed by the
 * service's base URL. Synchronous: the book reads once, at construction. The backend gives one
 * per service over the store's LearnedLimitsRepository (src/platform/store/contract/learnedLimits.ts): the
 * SQLite store itself, or with replicas what Redis held at start, each lesson written through.
 */
export interface LimitBookStorage {
  /** Every limit learned earlier from the service at `service`. */
  load(service: string): Partial<Record<SplittableEndpoint, CallLimits>>;
  /** Remembers limits of one endpoint; a stored limit that is already tighter is kept. */
  save(service: string, endpoint: SplittableEndpoint, limits: CallLimits): void;
}

/** What a refusal points at, and the limit it states when it gives one. */
export interface LimitRefusal {
  dimension: "vehicles" | "period";
  /** Numbers the refusal carries (codes and parameters), e.g. [10, 25] for TooManyVehicles [10, 25]. */
  numbers: number[];
}

// The errorCode catalogue is "not shown", so the reading goes by words: a subject (vehicles
// or period) together with a word of excess. "InvalidPeriod" (start after end) or
// "MissingParameter [vehiclesList]" name a subject but no excess, and are not limits.
const VEHICLE_WORDS = /vehicle|carrier/i;
const PERIOD_WORDS = /period|day|interval|range|span|duration/i;
const EXCESS_WORDS = /too\s*(many|long|large|big|wide)|max|exceed|limit|greater|more\s*than|over/i;

/** Reads a 400's failure reasons as a vehicle-count or period limit, or undefined when neither. */
export function readLimitRefusal(reasons: readonly FailureReason[]): LimitRefusal | undefined {
  for (const reason of reasons) {
    const text = [reason.errorCode, ...reason.errorParameters].join(" ");
    if (!EXCESS_WORDS.test(text)) continue;
    const numbers = (text.match(/\d+(\.\d+)?/g) ?? []).map(Number).filter((n) => n > 0);
    // The code names the subject most reliably; parameters only when the code is generic.
    const subject = VEHICLE_WORDS.test(reason.errorCode)
      ? "vehicles"
      : PERIOD_WORDS.test(reason.errorCode)
        ? "period"
        : VEHICLE_WORDS.test(text)
          ? "vehicles"
          : PERIOD_WORDS.test(text)
            ? "period"
            : undefined;
    if (subject !== undefined) return { dimension: subject, numbers };
  }
  return undefined;
}

/** The shortest period a learned limit may cut to; a refusal below it is not a period limit. */
const MIN_DAYS = 1 / 24;

/**
 * The tighter limit a refusal of `call` implies: the number the refusal states when it is
 * smaller than what was sent, else half of what was sent. Undefined when the call cannot be
 * cut further (one vehicle, or an hour), so the refusal stays an error.
 */
export function limitAfterRefusal(refusal: LimitRefusal, call: PlannedCall): CallLimits | undefined {
  if (refusal.dimension === "vehicles") {
    const sent = call.vehicleIds.length;
    if (sent <= 1) return undefined;
    const stated = refusal.numbers.filter((n) => Number.isInteger(n) && n < sent);
    return { maxVehicles: stated.length > 0 ? Math.max(...stated) : Math.floor(sent / 2) };
  }
  const sentDays = (call.to.getTime() - call.from.getTime()) / DAY_MS;
  if (sentDays <= MIN_DAYS) return undefined;
  const stated = refusal.numbers.filter((n) => n >= MIN_DAYS && n < sentDays);
  if (stated.length > 0) return { maxDays: Math.max(...stated) };
  return { maxDays: sentDays >= 2 ? Math.floor(sentDays / 2) : Math.max(MIN_DAYS, sentDays / 2) };
}

/**
 * The limits one client plans with: documented ones (hard) combined with learned ones.
 * Learned limits are read once at construction and written through on every lesson.
 */
export class CallLimitBook {
  readonly #learned = new Map<SplittableEndpoint, CallLimits>();

  constructor(
    private readonly service: string,
    private readonly repository?: LimitBookStorage,
  ) {
    const stored = repository?.load(service) ?? {};
    for (const endpoint of SPLITTABLE_ENDPOINTS) {
      const limits = stored[endpoint];
      if (limits) this.#learned.set(endpoint, sanitize(limits));
    }
  }

  /** What a request to `endpoint` may hold: documented limits, tightened by learned ones. */
  limitsFor(endpoint: SplittableEndpoint): CallLimits {
    return combineLimits(DOCUMENTED_LIMITS[endpoint], this.#learned.get(endpoint) ?? {});
  }

  /** Learned limits only (for logs and tests). */
  learned(endpoint: SplittableEndpoint): CallLimits | undefined {
    return this.#learned.get(endpoint);
  }

  /** Records a lesson (kept only where tighter) and stores it; returns the limits now in force. */
  learn(endpoint: SplittableEndpoint, lesson: CallLimits): CallLimits {
    const merged = combineLimits(this.#learned.get(endpoint) ?? {}, sanitize(lesson));
    this.#learned.set(endpoint, merged);
    this.repository?.save(this.service, endpoint, merged);
    return this.limitsFor(endpoint);
  }
}

/** Drops values no plan can use (a corrupted row must not stop reports). */
function sanitize(limits: CallLimits): CallLimits {
  const clean: CallLimits = {};
  if (limits.maxVehicles !== undefined && Number.isInteger(limits.maxVehicles) && limits.maxVehicles >= 1)
    clean.maxVehicles = limits.maxVehicles;
  if (limits.maxDays !== undefined && Number.isFinite(limits.maxDays) && limits.maxDays >= MIN_DAYS)
    clean.maxDays = limits.maxDays;
  return clean;
}
