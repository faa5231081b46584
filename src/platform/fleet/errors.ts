import type { FleetEndpoint } from "./seam.js";

/**
 * Errors of the fleet client. Every failure a caller can meet is one of these, so a
 * task can decide (retry, tell the user, alert support) from `kind` alone, and tell a
 * dispatcher what happened without knowing HTTP: `userFailure()` gives a code and its parameters,
 * which the Slack side words in the reader's language (the `tasks` catalogue). An error holds no
 * sentence for a user: its `message` is for the operator's log.
 */

export type FleetErrorKind =
  | "rule"
  | "bad-request"
  | "unauthorized"
  | "rate-limited"
  | "application"
  | "transport";

/**
 * What a dispatcher is told of a fleet error, as a code and its parameters (no words): see
 * TASK_ERROR_CODES in src/platform/tasks/task.ts for each code's parameters.
 */
export type FleetFailureCode =
  | "rule-max-vehicles"
  | "rule-max-period"
  | "rule-min-stationary-margin"
  | "rule"
  | "bad-request"
  | "unauthorized-login"
  | "unauthorized-password-changed"
  | "unauthorized-expired"
  | "unauthorized-vehicles"
  | "unauthorized-access"
  | "rate-limited"
  | "application"
  | "transport-timeout"
  | "transport-network"
  | "transport-http"
  | "transport-malformed";

export interface FleetFailure {
  code: FleetFailureCode;
  params?: Readonly<Record<string, string | number>>;
}

/** One entry of the envelope's failureReasons. */
export interface FailureReason {
  errorCode: string;
  errorParameters: string[];
}

interface FleetErrorDetails {
  endpoint: FleetEndpoint;
  correlationId?: string | undefined;
  status?: number | undefined;
  cause?: unknown;
}

export abstract class FleetError extends Error {
  abstract readonly kind: FleetErrorKind;
  readonly endpoint: FleetEndpoint;
  /** Envelope correlationId, when the service sent one: what support asks for. */
  readonly correlationId: string | undefined;
  /** HTTP status of the answer, when there was one. */
  readonly status: number | undefined;

  constructor(message: string, details: FleetErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.endpoint = details.endpoint;
    this.correlationId = details.correlationId;
    this.status = details.status;
  }

  /** One line with everything support needs to find the request upstream. Never secrets. */
  describeForSupport(): string {
    const parts = [`fleet ${this.endpoint}`, this.kind];
    if (this.status !== undefined) parts.push(`HTTP ${this.status}`);
    if (this.correlationId) parts.push(`correlationId ${this.correlationId}`);
    const extra = this.supportDetail();
    if (extra) parts.push(extra);
    parts.push(this.message);
    return parts.join(" | ");
  }

  protected supportDetail(): string | undefined {
    return undefined;
  }

  /** What a dispatcher is told, as a code and parameters (worded by the Slack side). */
  abstract userFailure(): FleetFailure;
}

/** The envelope's reasons as the service sent them (codes and parameters, no words), or none. */
const reasonsParams = (reasons: readonly FailureReason[]): FleetFailure["params"] => {
  const text = describeFailureReasons(reasons);
  return text ? { reasons: text } : undefined;
};

export function describeFailureReasons(reasons: readonly FailureReason[]): string {
  return reasons
    .map((r) =>
      r.errorParameters.length > 0 ? `${r.errorCode} (${r.errorParameters.join(", ")})` : r.errorCode,
    )
    .join("; ");
}

/**
 * What a broken request rule is about: which value of the request (a code; the Slack side words
 * it). Lists: `vehicles`, `statuses`, `uits`, `transport-ids`; a report's period: `start`, `end`, `period`;
 * a transport's fields and dates: `code-uit`, `transport-id`, `vehicle`, `vat-number`,
 * `validity-start`, `validity-end`, `validity`, `transmission-start`, `transmission-end`,
 * `transmission`; paging: `page-size`, `page-index`.
 */
export type RuleSubject =
  | "vehicles"
  | "statuses"
  | "uits"
  | "transport-ids"
  | "start"
  | "end"
  | "period"
  | "code-uit"
  | "transport-id"
  | "vehicle"
  | "vat-number"
  | "validity-start"
  | "validity-end"
  | "validity"
  | "transmission-start"
  | "transmission-end"
  | "transmission"
  | "page-size"
  | "page-index";

/** A request rule of fleet-api.md (vehicle count, period, margin) broken: the request was never sent. */
export class RequestRuleError extends FleetError {
  readonly kind = "rule" as const;
  /**
   * Which rule: "max-vehicles", "max-period", "min-stationary-margin", "period-order",
   * "empty-list", "empty-value", "required", "invalid-date", "invalid-vehicle-id",
   * "invalid-status", "invalid-paging".
   */
  readonly rule: string;
  /** Which value of the request broke it, when the rule alone does not say. */
  readonly subject: RuleSubject | undefined;
  /** The rule's numbers: `max` and `given` (max-vehicles), `days` (max-period). */
  readonly ruleParams: Readonly<Record<string, number>>;

  constructor(
    endpoint: FleetEndpoint,
    rule: string,
    options: { subject?: RuleSubject; params?: Readonly<Record<string, number>> } = {},
  ) {
    const numbers = Object.entries(options.params ?? {})
      .map(([key, value]) => `${key} ${value}`)
      .join(", ");
    const about = [options.subject, numbers].filter(Boolean).join("; ");
    super(`request rule "${rule}" broken${about ? ` (${about})` : ""}`, { endpoint });
    this.rule = rule;
    this.subject = options.subject;
    this.ruleParams = options.params ?? {};
  }

  userFailure(): FleetFailure {
    const endpoint = this.endpoint;
    const { max, given, days } = this.ruleParams;
    if (this.rule === "max-vehicles" && max !== undefined && given !== undefined)
      return { code: "rule-max-vehicles", params: { endpoint, max, given } };
    if (this.rule === "max-period" && days !== undefined)
      return { code: "rule-max-period", params: { endpoint, days } };
    if (this.rule === "min-stationary-margin") return { code: "rule-min-stationary-margin" };
    // The others by rule and subject (taskErrorText words the pairs it knows).
    return {
      code: "rule",
      params: { rule: this.rule, endpoint, ...(this.subject ? { subject: this.subject } : {}) },
    };
  }
}

/** HTTP 400: missing parameters or a structure the service refuses. */
export class BadRequestError extends FleetError {
  readonly kind = "bad-request" as const;
  readonly failureReasons: FailureReason[];

  constructor(endpoint: FleetEndpoint, failureReasons: FailureReason[], correlationId?: string) {
    const reasons = describeFailureReasons(failureReasons);
    super(`fleet service answered 400${reasons ? `: ${reasons}` : ""}`, {
      endpoint,
      status: 400,
      correlationId,
    });
    this.failureReasons = failureReasons;
  }

  userFailure(): FleetFailure {
    const params = reasonsParams(this.failureReasons);
    return { code: "bad-request", ...(params ? { params } : {}) };
  }
}

/**
 * HTTP 401.
 * - login: wrong username/password or inactive user, at login;
 * - access: the account lacks rights (e.g. a listed vehicle it cannot see), even with a fresh token;
 * - expired: the token is no longer valid and could not be renewed.
 */
/** `password-changed`: the service accepted a newer password of the account since this one (AcceptedPasswords). */
export type UnauthorizedReason = "login" | "access" | "expired" | "password-changed";

const VEHICLE_SCOPED: ReadonlySet<FleetEndpoint> = new Set(["stops", "refills", "temperatures"]);

export class UnauthorizedError extends FleetError {
  readonly kind = "unauthorized" as const;
  readonly reason: UnauthorizedReason;
  readonly failureReasons: FailureReason[];

  constructor(
    endpoint: FleetEndpoint,
    reason: UnauthorizedReason,
    options: { status?: number; correlationId?: string; failureReasons?: FailureReason[] } = {},
  ) {
    super(`fleet service refused authorisation (${reason})`, {
      endpoint,
      status: options.status ?? 401,
      correlationId: options.correlationId,
    });
    this.reason = reason;
    this.failureReasons = options.failureReasons ?? [];
  }

  protected override supportDetail(): string | undefined {
    const reasons = describeFailureReasons(this.failureReasons);
    return `reason ${this.reason}${reasons ? `, ${reasons}` : ""}`;
  }

  userFailure(): FleetFailure {
    switch (this.reason) {
      case "login":
        return { code: "unauthorized-login" };
      case "expired":
        return { code: "unauthorized-expired" };
      case "password-changed":
        return { code: "unauthorized-password-changed" };
      case "access":
        return { code: VEHICLE_SCOPED.has(this.endpoint) ? "unauthorized-vehicles" : "unauthorized-access" };
    }
  }
}

/** HTTP 429. The gate catches this from `send` and retries after `retryAfterMs` (or one interval). */
export class RateLimitedError extends FleetError {
  readonly kind = "rate-limited" as const;
  /** From the Retry-After header (seconds or HTTP date), when the service sent one. */
  readonly retryAfterMs: number | undefined;

  constructor(endpoint: FleetEndpoint, retryAfterMs?: number) {
    super(
      `fleet service answered 429${retryAfterMs === undefined ? "" : `, retry after ${retryAfterMs} ms`}`,
      {
        endpoint,
        status: 429,
      },
    );
    this.retryAfterMs = retryAfterMs;
  }

  userFailure(): FleetFailure {
    return { code: "rate-limited" };
  }
}

/** The envelope said isSuccess false: the service understood the request but could not do it. */
export class ApplicationFailureError extends FleetError {
  readonly kind = "application" as const;
  readonly failureReasons: FailureReason[];

  constructor(
    endpoint: FleetEndpoint,
    failureReasons: FailureReason[],
    correlationId?: string,
    status = 200,
  ) {
    const reasons = describeFailureReasons(failureReasons);
    super(`fleet service reported failure${reasons ? `: ${reasons}` : " without reasons"}`, {
      endpoint,
      status,
      correlationId,
    });
    this.failureReasons = failureReasons;
  }

  /** First error code, handy for branching on a known code. */
  get errorCode(): string | undefined {
    return this.failureReasons[0]?.errorCode;
  }

  get errorParameters(): string[] {
    return this.failureReasons[0]?.errorParameters ?? [];
  }

  userFailure(): FleetFailure {
    const params = reasonsParams(this.failureReasons);
    return { code: "application", ...(params ? { params } : {}) };
  }
}

/**
 * The service could not be reached or answered something unusable:
 * timeout, connection refused/reset, HTTP 5xx (or another unexpected status), a body
 * that is not JSON or does not match the documented shape.
 */
export type TransportFailure = "timeout" | "network" | "http" | "malformed";

export class UpstreamTransportError extends FleetError {
  readonly kind = "transport" as const;
  readonly failure: TransportFailure;
  /** Technical detail (schema issues, socket error); for logs and support, not for users. */
  readonly detail: string;

  constructor(
    endpoint: FleetEndpoint,
    failure: TransportFailure,
    detail: string,
    options: { status?: number; correlationId?: string; cause?: unknown } = {},
  ) {
    super(`fleet transport failure (${failure}): ${detail}`, {
      endpoint,
      status: options.status,
      correlationId: options.correlationId,
      cause: options.cause,
    });
    this.failure = failure;
    this.detail = detail;
  }

  userFailure(): FleetFailure {
    return { code: `transport-${this.failure}` };
  }
}

export const isFleetError = (e: unknown): e is FleetError => e instanceof FleetError;
export const isUnauthorizedError = (e: unknown): e is UnauthorizedError => e instanceof UnauthorizedError;
export const isApplicationFailureError = (e: unknown): e is ApplicationFailureError =>
  e instanceof ApplicationFailureError;
export const isUpstreamTransportError = (e: unknown): e is UpstreamTransportError =>
  e instanceof UpstreamTransportError;
