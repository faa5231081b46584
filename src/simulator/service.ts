/**
 * The simulated fleet service without HTTP: takes a request description, answers with
 * status, headers and body. State (tokens, rate windows, transports, faults, stats) lives
 * here; all synthetic data comes from the pure generators.
 */
import { randomUUID } from "node:crypto";
import { normaliseUsername, parseLoginForm, TOKEN_SCOPE, TokenIssuer } from "./auth.js";
import { generateFleet, type SimVehicle, viewerVehicleIds } from "./fleet.js";
import {
  DOCUMENTED_ONLY,
  type ResolvedOptions,
  type SimUser,
  STRICT_LIMITS,
  type UndocumentedLimits,
} from "./options.js";
import {
  companyVehicle,
  consumptionRecord,
  refillEvents,
  sensorReadings,
  stopRecords,
  wayPoints,
} from "./reports.js";
import {
  asBody,
  type Body,
  badRequest,
  type Failure,
  failure,
  field,
  guidList,
  integerList,
  optionalDate,
  optionalInteger,
  optionalString,
  period,
  RequestRejected,
  requiredArray,
  requiredDate,
  requiredGuid,
  requiredInteger,
  requiredString,
  vehicleList,
} from "./request.js";
import { abroadSince, type FleetContext, type VehicleState, vehicleStateAt } from "./schedule.js";
import { formatCompanyDate, parseRequestDate } from "./time.js";
import {
  CHANGE_REQUEST_CODES,
  type ChangeRequestCode,
  closeHalt,
  initialTransports,
  looksLikeUit,
  STATUS,
  STATUS_NAMES,
  settleChangeRequest,
  settleExpiry,
  TRANSMISSION_CODES,
  type TransmissionCode,
  type TransmissionView,
  type TransportOverride,
  type TransportRecord,
  transmissionAt,
} from "./transports.js";
import { type Trip, tripOf } from "./trips.js";
import {
  applyVehicleControl,
  controlProblem,
  forcedTemperature,
  overriddenState,
  readVehicleControl,
  type VehicleControl,
  type VehicleControlView,
  type VehicleOverride,
  viewOf,
} from "./vehicleControl.js";

export type EndpointName =
  | "login"
  | "company-vehicles"
  | "way"
  | "stops"
  | "consumption"
  | "refills"
  | "temperatures"
  | "add-transport"
  | "update-transport"
  | "load-transports"
  | "remove-transports"
  | "start-transports"
  | "end-transports"
  | "pause-transports";

const ENDPOINTS: ReadonlyArray<{ path: string; method: "GET" | "POST"; name: EndpointName }> = [
  { path: "/api/authentication/login", method: "POST", name: "login" },
  { path: "/api/carriers/company-vehicles", method: "GET", name: "company-vehicles" },
  { path: "/api/carriers/way", method: "POST", name: "way" },
  { path: "/api/carriers/stops", method: "POST", name: "stops" },
  { path: "/api/carriers/consumption", method: "POST", name: "consumption" },
  { path: "/api/carriers/refills", method: "POST", name: "refills" },
  { path: "/api/carriers/temperatures", method: "POST", name: "temperatures" },
  { path: "/api/etransport/add-transport", method: "POST", name: "add-transport" },
  { path: "/api/etransport/update-transport", method: "POST", name: "update-transport" },
  { path: "/api/etransport/load-transports", method: "POST", name: "load-transports" },
  { path: "/api/etransport/remove-transports", method: "POST", name: "remove-transports" },
  { path: "/api/etransport/start-transports", method: "POST", name: "start-transports" },
  { path: "/api/etransport/end-transports", method: "POST", name: "end-transports" },
  { path: "/api/etransport/pause-transports", method: "POST", name: "pause-transports" },
];

export const ACCEPTED_API_VERSIONS = ["2.0", "2"];
const MAX_VEHICLES = 10;
const MAX_DAYS = 31;
const ANONYMOUS = "(anonymous)";

export interface SimRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Readonly<Record<string, string | undefined>>;
  body: Buffer;
}

export interface SimResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * delay: the request waits before it is processed; delayAnswer: it is processed at once and
 * its answer held back (a change that reached the service while the client lost the answer).
 */
export type FaultKind = "http500" | "delay" | "delayAnswer" | "malformed" | "rateLimit" | "http401";

export interface Fault {
  kind: FaultKind;
  count: number;
  delayMs?: number;
  /** Endpoint name ("way", "login"…) or path; absent: any endpoint. */
  endpoint?: string;
  retryAfterSeconds?: number;
  /** rateLimit/http401 answered with a plain-text body instead of the envelope. */
  plainBody?: boolean;
}

export interface TransportControl {
  transmissionStatusCode?: TransmissionCode;
  statusId?: number;
  changeRequestStatusCode?: ChangeRequestCode;
  /** ISO 8601; without offset read as UTC. */
  lastGpsDate?: string;
  /** ISO 8601; without offset read as UTC. The last position sent to the platform (a stall while the code stays Active). */
  lastTransmissionDate?: string;
  validityEndDate?: string;
  clear?: true;
}

export interface RecordedRequest {
  at: string;
  method: string;
  path: string;
  query: Record<string, string>;
  endpoint: string | null;
  username: string | null;
  /** null while the answer is still being prepared or held back (recorded on arrival). */
  status: number | null;
  body: unknown;
  contentType: string | null;
}

export interface SimStats {
  requests: Record<string, Record<string, number>>;
  rateLimited: Record<string, number>;
  minGapMs: Record<string, number | null>;
  total: number;
}

interface Handled {
  status?: number;
  payload: unknown;
  failures?: Failure[];
}

type UserState = Required<Omit<SimUser, "minIntervalMs">> & { minIntervalMs?: number };

export class FleetService {
  readonly fleet: readonly SimVehicle[];
  private readonly ctx: FleetContext;
  private readonly tokens = new TokenIssuer();
  private users = new Map<string, UserState>();
  private transports: TransportRecord[];
  private readonly overrides = new Map<string, TransportOverride>();
  /** Private mode forced per vehicle id (control), over the day plans' (Saturdays of the company car). */
  private readonly privateOverrides = new Map<number, boolean>();
  /** Power, place, motion, silence and reefer temperature forced per vehicle id (control). */
  private readonly vehicleOverrides = new Map<number, VehicleOverride>();
  private faults: Fault[] = [];
  private clockOffsetMs = 0;
  /** Start of the last accepted request per user (sim clock). */
  private readonly lastAccepted = new Map<string, number>();
  private stats: SimStats = { requests: {}, rateLimited: {}, minGapMs: {}, total: 0 };
  private recorded: RecordedRequest[] = [];
  /** Sim time at construction: drift keeps quiet for a while after it. */
  private readonly startedAt: number;
  /** Limits the document leaves open; the strict-limits control can change them while running. */
  private limits: UndocumentedLimits;

  constructor(readonly options: ResolvedOptions) {
    this.ctx = { seed: options.seed, timeZone: options.timeZone, trips: (v) => this.tripsOf(v) };
    this.limits = { ...options.limits };
    this.fleet = generateFleet(options.seed, options.vehicleCount);
    const users = options.users ?? [
      { username: "demo", password: "demo", vehicleIds: "all" },
      { username: "viewer", password: "viewer", vehicleIds: viewerVehicleIds(this.fleet) },
      { username: "inactive", password: "inactive", active: false },
    ];
    for (const user of users) this.upsertUser(user);
    this.startedAt = this.now();
    this.transports = initialTransports(options.seed, this.fleet, this.startedAt, options.transportCount, {
      problems: options.demoProblems,
    });
  }

  /** Trips of the vehicle's started transports (In Progress, Paused, Completed, Auto Completed). */
  private tripsOf(v: SimVehicle): Trip[] {
    return this.transports.flatMap((t) => {
      if (t.vehicleUId !== v.vehicleUId || t.startDate === null) return [];
      if (t.statusId === STATUS.Pending || t.statusId === STATUS.Error) return [];
      const finished = t.statusId === STATUS.Completed || t.statusId === STATUS.AutoCompleted;
      const trip = tripOf(this.options.timeZone, v, {
        id: t.uId,
        startLocation: t.startLocation,
        endLocation: t.endLocation,
        departAt: t.startDate,
        endAt: finished ? (t.endDate ?? t.validityEndDate) : null,
        halts: t.halts,
      });
      return trip ? [trip] : [];
    });
  }

  currentLimits(): UndocumentedLimits {
    return { ...this.limits };
  }

  /** Replaces some undocumented limits (null: no limit); `strict` first applies the strict preset. */
  setLimits(change: Partial<UndocumentedLimits>, strict?: boolean): UndocumentedLimits {
    const base =
      strict === undefined
        ? this.limits
        : strict
          ? { ...this.limits, ...STRICT_LIMITS }
          : { ...this.limits, ...DOCUMENTED_ONLY };
    this.limits = { ...base, ...change };
    return this.currentLimits();
  }

  now(): number {
    return this.options.now() + this.clockOffsetMs;
  }

  // ---- control -------------------------------------------------------------------------

  upsertUser(user: SimUser): void {
    const state: UserState = {
      username: normaliseUsername(user.username),
      password: user.password,
      active: user.active ?? true,
      vehicleIds: user.vehicleIds ?? "all",
    };
    if (user.minIntervalMs !== undefined) state.minIntervalMs = user.minIntervalMs;
    this.users.set(state.username, state);
  }

  advanceClock(ms: number): number {
    this.clockOffsetMs += ms;
    return this.now();
  }

  expireTokens(username?: string): number {
    return this.tokens.expire(username);
  }

  addFault(fault: Fault): void {
    this.faults.push({ ...fault });
  }

  /** Sets fields of a transport by UIT; false when the UIT is unknown. */
  controlTransport(codeUit: string, control: TransportControl): boolean {
    const t = this.transports.find((x) => x.codeUit === codeUit);
    if (!t) return false;
    if (control.clear) this.overrides.delete(codeUit);
    const override = { ...this.overrides.get(codeUit) };
    if (control.transmissionStatusCode) override.transmissionStatusCode = control.transmissionStatusCode;
    if (control.lastGpsDate) {
      const at = parseRequestDate(control.lastGpsDate, "UTC");
      if (at !== undefined) override.lastGpsDate = at;
    }
    if (control.lastTransmissionDate) {
      const at = parseRequestDate(control.lastTransmissionDate, "UTC");
      if (at !== undefined) override.lastTransmissionDate = at;
    }
    if (control.statusId !== undefined) t.statusId = control.statusId as TransportRecord["statusId"];
    if (control.validityEndDate) {
      const at = parseRequestDate(control.validityEndDate, "UTC");
      if (at !== undefined) t.validityEndDate = at;
    }
    if (control.changeRequestStatusCode) {
      const now = this.now();
      t.changeRequest = {
        message: "Cerere de modificare (control)",
        createdAt: t.changeRequest?.createdAt ?? now,
        date: now,
        authorityStatus: control.changeRequestStatusCode === "ResponseError" ? "ERROR" : null,
        authorityMessage:
          control.changeRequestStatusCode === "ResponseError"
            ? "Cererea de modificare a fost respinsă"
            : null,
        authorityDate: control.changeRequestStatusCode.startsWith("Response") ? now : null,
        ...t.changeRequest,
        statusCode: control.changeRequestStatusCode,
        advances: false,
      };
    }
    if (Object.keys(override).length > 0) this.overrides.set(codeUit, override);
    return true;
  }

  /**
   * Forces a vehicle's private mode (`isPrivate`) in company-vehicles, stops and its refuellings
   * and possible thefts (not the totals), whatever the day; `undefined` goes back to the day
   * plans. False when no vehicle has this id.
   */
  setVehiclePrivate(vehicleId: number, isPrivate: boolean | undefined): boolean {
    if (!this.fleet.some((v) => v.vehicleId === vehicleId)) return false;
    if (isPrivate === undefined) this.privateOverrides.delete(vehicleId);
    else this.privateOverrides.set(vehicleId, isPrivate);
    return true;
  }

  /**
   * Applies a vehicle control (see vehicleControl.ts) at the current sim time: 404 for an unknown
   * vehicle, 400 with the reason for a control this vehicle cannot take (a temperature without
   * sensors). The control must have been read by `readVehicleControl`.
   */
  controlVehicle(vehicleId: number, control: VehicleControl): { status: 200 | 400 | 404; error?: string } {
    const v = this.fleet.find((x) => x.vehicleId === vehicleId);
    if (!v) return { status: 404, error: "unknown vehicle" };
    const problem = controlProblem(v, control);
    if (problem) return { status: 400, error: problem };
    if (control.clear) this.privateOverrides.delete(vehicleId);
    if (control.isPrivate !== undefined) this.privateOverrides.set(vehicleId, control.isPrivate);
    const now = this.now();
    this.settleAll();
    const next = applyVehicleControl(
      this.vehicleOverrides.get(vehicleId),
      control,
      now,
      vehicleStateAt(this.ctx, v, now),
      v,
      this.options.seed,
    );
    if (Object.keys(next).length === 0) this.vehicleOverrides.delete(vehicleId);
    else this.vehicleOverrides.set(vehicleId, next);
    return { status: 200 };
  }

  /** The overrides in force for a vehicle; undefined for an unknown vehicle id. */
  vehicleControls(vehicleId: number): VehicleControlView | undefined {
    if (!this.fleet.some((v) => v.vehicleId === vehicleId)) return undefined;
    return viewOf(this.vehicleOverrides.get(vehicleId), this.privateOverrides.get(vehicleId));
  }

  /** What company-vehicles shows of a vehicle now, whoever asks; undefined for an unknown id. */
  companyVehicleNow(vehicleId: number): ReturnType<typeof companyVehicle> | undefined {
    const v = this.fleet.find((x) => x.vehicleId === vehicleId);
    if (!v) return undefined;
    this.settleAll();
    return this.companyVehicleOf(v, this.now());
  }

  /** A vehicle's company-vehicles element at `now`: day plans, then its overrides and private mode. */
  private companyVehicleOf(v: SimVehicle, now: number) {
    const record = companyVehicle(this.ctx, v, now, this.fmt, this.stateOf(v, now));
    return { ...record, isPrivate: this.privateOf(v.vehicleId, record.isPrivate) };
  }

  /** Where the vehicle is and what it does at `now`, its overrides applied. */
  private stateOf(v: SimVehicle, now: number): VehicleState {
    return overriddenState(vehicleStateAt(this.ctx, v, now), this.vehicleOverrides.get(v.vehicleId), v, now);
  }

  /** A record's isPrivate with the vehicle's forced private mode applied. */
  private privateOf(vehicleId: number, planned: boolean): boolean {
    return this.privateOverrides.get(vehicleId) ?? planned;
  }

  reset(): void {
    this.faults = [];
    this.overrides.clear();
    this.privateOverrides.clear();
    this.vehicleOverrides.clear();
    this.lastAccepted.clear();
    this.stats = { requests: {}, rateLimited: {}, minGapMs: {}, total: 0 };
    this.recorded = [];
  }

  getStats(): SimStats {
    return structuredClone(this.stats);
  }

  recentRequests(limit = 100): RecordedRequest[] {
    return structuredClone(this.recorded.slice(-Math.max(0, limit)));
  }

  /** Transports as stored (all statuses), for tests and tools. */
  listAllTransports(): TransportRecord[] {
    this.settleAll();
    return structuredClone(this.transports);
  }

  // ---- request handling -----------------------------------------------------------------

  async handle(req: SimRequest): Promise<SimResponse> {
    const path = req.path.replace(/\/+$/, "");
    if (path.startsWith("/__")) return this.handleControl(req, path);
    const endpoint = ENDPOINTS.find((e) => e.path === path.toLowerCase());
    if (!endpoint) return text(404, "Not Found");
    if (endpoint.method !== req.method.toUpperCase())
      return { ...text(405, "Method Not Allowed"), headers: { allow: endpoint.method } };

    const arrivedAt = this.now();
    const form =
      endpoint.name === "login" ? parseLoginForm(req.headers["content-type"], req.body) : undefined;
    const username = form
      ? form.username
        ? normaliseUsername(form.username)
        : undefined
      : this.tokens.peekUsername(req.headers.authorization);
    // Recorded on arrival: what the service received counts even if the caller never hears back.
    const entry = this.record(req, endpoint.name, username, arrivedAt);
    const response = await this.answer(req, endpoint.name, arrivedAt, form);
    entry.status = response.status;
    this.options.logger?.info(
      {
        method: req.method,
        path,
        endpoint: endpoint.name,
        username: username ?? null,
        status: response.status,
      },
      "fleet simulator request",
    );
    return response;
  }

  private async answer(
    req: SimRequest,
    endpoint: EndpointName,
    arrivedAt: number,
    form: ReturnType<typeof parseLoginForm> | undefined,
  ): Promise<SimResponse> {
    const fault = this.takeFault(endpoint, req.path);
    if (fault) {
      if (fault.kind === "delayAnswer") {
        const response = await this.answer(req, endpoint, arrivedAt, form);
        await new Promise((resolve) => setTimeout(resolve, fault.delayMs ?? 1000));
        return response;
      }
      if (fault.kind === "delay") await new Promise((resolve) => setTimeout(resolve, fault.delayMs ?? 1000));
      else return this.faultResponse(fault);
    }

    const version = req.query.get("api-version");
    if (version === null || version === "") return this.envelope(400, null, [failure("MissingApiVersion")]);
    if (!ACCEPTED_API_VERSIONS.includes(version))
      return this.envelope(400, null, [failure("UnsupportedApiVersion", version)]);

    if (endpoint === "login") return this.login(form, arrivedAt);

    const check = this.tokens.check(req.headers.authorization, arrivedAt);
    if (!check.ok) return this.unauthorized(check.reason);
    const user = this.users.get(check.token.username);
    if (!user?.active) return this.unauthorized("Unauthorized");

    const limited = this.rateCheck(user.username, arrivedAt, user.minIntervalMs);
    if (limited) return limited;

    try {
      const body = endpoint === "company-vehicles" ? {} : parseJsonBody(req);
      const result = this.dispatch(endpoint, user, body, arrivedAt);
      return this.envelope(result.status ?? 200, result.payload, result.failures ?? []);
    } catch (error) {
      if (error instanceof RequestRejected) return this.envelope(error.status, null, error.failures);
      throw error;
    }
  }

  private dispatch(endpoint: EndpointName, user: UserState, body: Body, now: number): Handled {
    // Expiry is lazy: settle it first, so a trip ends where its transport ended.
    this.settleAll();
    switch (endpoint) {
      case "company-vehicles":
        return {
          payload: this.accessibleVehicles(user).map((v) => this.companyVehicleOf(v, now)),
        };
      case "way":
        return this.way(user, body, now);
      case "stops":
        return this.stops(user, body, now);
      case "consumption":
        return this.consumption(user, body, now);
      case "refills":
        return this.refills(user, body, now);
      case "temperatures":
        return this.temperatures(user, body, now);
      case "add-transport":
        return this.addTransport(user, body, now);
      case "update-transport":
        return this.updateTransport(user, body, now);
      case "load-transports":
        return this.loadTransports(user, body, now);
      case "remove-transports":
        return this.removeTransports(user, body);
      case "start-transports":
      case "end-transports":
      case "pause-transports":
        return this.transportAction(endpoint, user, body, now);
      default:
        throw badRequest("UnknownEndpoint");
    }
  }

  // ---- login, auth, rate ----------------------------------------------------------------

  private login(form: ReturnType<typeof parseLoginForm> | undefined, arrivedAt: number): SimResponse {
    if (!form?.ok) return { status: 400, headers: {}, body: "" };
    const username = normaliseUsername(form.username);
    const user = this.users.get(username);
    if (this.options.rateLimitLogin) {
      const limited = this.rateCheck(username, arrivedAt, user?.minIntervalMs);
      if (limited) return limited;
    }
    if (!user?.active || user.password !== form.password) return { status: 401, headers: {}, body: "" };
    const { accessToken, refreshToken } = this.tokens.issue(
      username,
      arrivedAt,
      this.options.tokenTtlSeconds,
    );
    return json(200, {
      access_token: accessToken,
      expires_in: this.options.tokenTtlSeconds,
      token_type: "Bearer",
      refresh_token: refreshToken,
      scope: TOKEN_SCOPE,
    });
  }

  private unauthorized(reason: "Unauthorized" | "TokenExpired"): SimResponse {
    const response = this.envelope(401, null, [failure(reason)]);
    response.headers["www-authenticate"] =
      reason === "TokenExpired"
        ? 'Bearer error="invalid_token", error_description="The token expired"'
        : "Bearer";
    return response;
  }

  /** 429 when the user's previous accepted request started less than the interval ago. */
  private rateCheck(
    username: string,
    arrivedAt: number,
    userInterval: number | undefined,
  ): SimResponse | undefined {
    const interval = userInterval ?? this.options.minIntervalMs;
    const last = this.lastAccepted.get(username);
    if (last !== undefined && arrivedAt - last < interval) {
      this.stats.rateLimited[username] = (this.stats.rateLimited[username] ?? 0) + 1;
      const waitSeconds = Math.max(1, Math.ceil((last + interval - arrivedAt) / 1000));
      const response = this.envelope(429, null, [failure("TooManyRequests", waitSeconds)]);
      if (this.options.retryAfterHeader) response.headers["retry-after"] = String(waitSeconds);
      return response;
    }
    if (last !== undefined) {
      const gap = arrivedAt - last;
      const min = this.stats.minGapMs[username];
      this.stats.minGapMs[username] = min === undefined || min === null ? gap : Math.min(min, gap);
    } else if (!(username in this.stats.minGapMs)) {
      this.stats.minGapMs[username] = null;
    }
    this.lastAccepted.set(username, arrivedAt);
    return undefined;
  }

  // ---- faults ---------------------------------------------------------------------------

  private takeFault(endpoint: EndpointName, path: string): Fault | undefined {
    const fault = this.faults.find(
      (f) => f.count > 0 && (f.endpoint === undefined || f.endpoint === endpoint || f.endpoint === path),
    );
    if (!fault) return undefined;
    fault.count--;
    this.faults = this.faults.filter((f) => f.count > 0);
    return fault;
  }

  private faultResponse(fault: Fault): SimResponse {
    switch (fault.kind) {
      case "http500":
        return text(500, "Internal Server Error");
      case "malformed":
        return {
          status: 200,
          headers: { "content-type": "application/json; charset=utf-8" },
          body: '{"payload":[{"vehicleId":1,',
        };
      case "http401":
        return fault.plainBody ? text(401, "Unauthorized") : this.unauthorized("Unauthorized");
      default: {
        const seconds = fault.retryAfterSeconds ?? 30;
        const response = fault.plainBody
          ? text(429, "Too Many Requests")
          : this.envelope(429, null, [failure("TooManyRequests", seconds)]);
        if (this.options.retryAfterHeader) response.headers["retry-after"] = String(seconds);
        return response;
      }
    }
  }

  // ---- vehicle data ---------------------------------------------------------------------

  private readonly fmt = (instant: number): string =>
    formatCompanyDate(instant, this.options.timeZone, this.options.dateStyle);

  private canAccess(user: UserState, vehicle: SimVehicle): boolean {
    return user.vehicleIds === "all" || user.vehicleIds.includes(vehicle.vehicleId);
  }

  private accessibleVehicles(user: UserState): SimVehicle[] {
    return this.fleet.filter((v) => this.canAccess(user, v));
  }

  /** Vehicles of the list the user may access, in list order; unknown and foreign ids dropped. */
  private filterVehicles(user: UserState, ids: number[]): SimVehicle[] {
    return ids.flatMap((id) => {
      const v = this.fleet.find((x) => x.vehicleId === id);
      return v && this.canAccess(user, v) ? [v] : [];
    });
  }

  /** All vehicles of the list, or 401 naming the ones the user cannot access (or that do not exist). */
  private requireVehicles(user: UserState, ids: number[]): SimVehicle[] {
    const vehicles = this.filterVehicles(user, ids);
    if (vehicles.length !== ids.length) {
      const allowed = new Set(vehicles.map((v) => v.vehicleId));
      throw new RequestRejected(401, [failure("AccessDenied", ...ids.filter((id) => !allowed.has(id)))]);
    }
    return vehicles;
  }

  private way(user: UserState, body: Body, now: number): Handled {
    const ids = vehicleList(body, MAX_VEHICLES);
    const p = period(body, this.options.timeZone, MAX_DAYS);
    const to = Math.min(p.to, now);
    return {
      payload: this.filterVehicles(user, ids).flatMap((v) => wayPoints(this.ctx, v, p.from, to, this.fmt)),
    };
  }

  private stops(user: UserState, body: Body, now: number): Handled {
    const ids = vehicleList(body, minLimit(MAX_VEHICLES, this.limits.stopsMaxVehicles));
    const p = period(body, this.options.timeZone, this.limits.stopsMaxDays);
    const margin = field(body, "stationaryMargin");
    if (margin === undefined || margin === null) throw badRequest("MissingParameter", "stationaryMargin");
    const marginMinutes = requiredInteger(body, "stationaryMargin");
    if (marginMinutes < 1) throw badRequest("InvalidParameter", "stationaryMargin", "at least 1 minute");
    const vehicles = this.requireVehicles(user, ids);
    const to = Math.min(p.to, now);
    const results: Record<string, unknown[]> = {};
    for (const v of vehicles) {
      results[String(v.vehicleId)] =
        p.from > to
          ? []
          : stopRecords(this.ctx, v, p.from, to, marginMinutes, this.fmt, this.options.stopDurationUnit).map(
              (r) => ({ ...r, isPrivate: this.privateOf(v.vehicleId, r.isPrivate) }),
            );
    }
    return { payload: [{ results }] };
  }

  private consumption(user: UserState, body: Body, now: number): Handled {
    const ids = vehicleList(body, MAX_VEHICLES);
    const p = period(body, this.options.timeZone, MAX_DAYS);
    const to = Math.max(p.from, Math.min(p.to, now));
    return { payload: this.filterVehicles(user, ids).map((v) => consumptionRecord(this.ctx, v, p.from, to)) };
  }

  private refills(user: UserState, body: Body, now: number): Handled {
    const carrierId = requiredInteger(body, "carrierId");
    const p = period(body, this.options.timeZone, this.limits.refillsMaxDays);
    const [vehicle] = this.requireVehicles(user, [carrierId]);
    const to = Math.max(p.from, Math.min(p.to, now));
    const events = refillEvents(this.ctx, vehicle!, p.from, to, this.fmt);
    // Forced private mode marks the events done by the vehicle, not the period's totals.
    const done = (event: string) => event.startsWith("Fueling") || event.startsWith("PossibleFuelTheft");
    return {
      payload: events.map((e) =>
        done(e.event) ? { ...e, isPrivate: this.privateOf(vehicle!.vehicleId, e.isPrivate) } : e,
      ),
    };
  }

  private temperatures(user: UserState, body: Body, now: number): Handled {
    const ids = vehicleList(body, this.limits.temperaturesMaxVehicles);
    const p = period(body, this.options.timeZone, this.limits.temperaturesMaxDays);
    const vehicles = this.requireVehicles(user, ids);
    const to = Math.min(p.to, now);
    return {
      payload: vehicles.flatMap((v) => {
        const forced = forcedTemperature(this.vehicleOverrides.get(v.vehicleId));
        const readings = sensorReadings(this.ctx, v, p.from, to, this.fmt, forced);
        return readings ? [readings] : [];
      }),
    };
  }

  // ---- e-Transport ----------------------------------------------------------------------

  private settleAll(): void {
    const now = this.now();
    for (const t of this.transports) {
      settleExpiry(t, now);
      settleChangeRequest(t, now);
    }
  }

  private vehicleByUId(uId: string): SimVehicle | undefined {
    return this.fleet.find((v) => v.vehicleUId === uId);
  }

  private canAccessTransport(user: UserState, t: TransportRecord): boolean {
    const v = this.vehicleByUId(t.vehicleUId);
    return v !== undefined && this.canAccess(user, v);
  }

  /** The vehicle of an add/update: unknown → application failure, not accessible → 401. */
  private transportVehicle(user: UserState, body: Body): SimVehicle | Handled {
    const vehicleUId = requiredGuid(body, "vehicleUId");
    const vehicle = this.vehicleByUId(vehicleUId);
    if (!vehicle) return { payload: false, failures: [failure("VehicleNotFound", vehicleUId)] };
    if (!this.canAccess(user, vehicle)) throw new RequestRejected(401, [failure("AccessDenied", vehicleUId)]);
    return vehicle;
  }

  private transportFields(body: Body) {
    const validityStartDate = requiredDate(body, "validityStartDate", "UTC");
    const validityEndDate = requiredDate(body, "validityEndDate", "UTC");
    if (validityStartDate > validityEndDate)
      throw badRequest("InvalidPeriod", "validityStartDate", "validityEndDate");
    const startDate = optionalDate(body, "startDate", "UTC");
    const endDate = optionalDate(body, "endDate", "UTC");
    if (startDate !== null && endDate !== null && startDate > endDate)
      throw badRequest("InvalidPeriod", "startDate", "endDate");
    return {
      vatNumber: requiredString(body, "vatNumber"),
      validityStartDate,
      validityEndDate,
      startDate,
      endDate,
      notes: optionalString(body, "notes"),
      startLocation: optionalString(body, "startLocation"),
      endLocation: optionalString(body, "endLocation"),
      trailer1Code: optionalString(body, "trailer1Code"),
      trailer2Code: optionalString(body, "trailer2Code"),
    };
  }

  private addTransport(user: UserState, body: Body, now: number): Handled {
    const codeUit = requiredString(body, "codeUit").trim();
    const fields = this.transportFields(body);
    const vehicle = this.transportVehicle(user, body);
    if (!("vehicleId" in vehicle)) return vehicle;
    this.settleAll();
    if (this.transports.some((t) => t.codeUit === codeUit)) {
      return { payload: false, failures: [failure("TransportAlreadyExists", codeUit)] };
    }
    if (fields.validityEndDate <= now)
      return { payload: false, failures: [failure("UitValidityEnded", codeUit)] };
    const valid = looksLikeUit(codeUit);
    this.transports.push({
      uId: randomUUID(),
      codeUit,
      vehicleUId: vehicle.vehicleUId,
      carrierCode: vehicle.plate,
      carrierName: vehicle.name,
      ...fields,
      // The platform rejects what does not look like a UIT: the transport lands in Error and is never listed.
      statusId: valid ? STATUS.Pending : STATUS.Error,
      externalId: 4_000_000 + (this.transports.length % 100_000),
      externalResponse: valid ? "Transport înregistrat cu succes" : "UIT respins: format invalid",
      lastSyncDate: now,
      pausedAt: null,
      halts: [],
      pinnedTransmission: null,
      changeRequest: null,
      createdAt: now,
    });
    return { payload: true };
  }

  private updateTransport(user: UserState, body: Body, now: number): Handled {
    const transportUId = requiredGuid(body, "transportUId");
    const fields = this.transportFields(body);
    const vehicle = this.transportVehicle(user, body);
    if (!("vehicleId" in vehicle)) return vehicle;
    this.settleAll();
    const t = this.transports.find((x) => x.uId === transportUId);
    if (!t) return { payload: false, failures: [failure("TransportNotFound", transportUId)] };
    if (!this.canAccessTransport(user, t))
      throw new RequestRejected(401, [failure("AccessDenied", transportUId)]);
    if (t.statusId === STATUS.Completed || t.statusId === STATUS.AutoCompleted) {
      return { payload: false, failures: [failure("TransportFinalized", t.codeUit)] };
    }
    if (t.statusId === STATUS.Error) {
      return {
        payload: false,
        failures: [failure("InvalidTransportState", t.codeUit, STATUS_NAMES[t.statusId]!)],
      };
    }
    const vehicleChanged = t.vehicleUId !== vehicle.vehicleUId;
    // Update replaces the whole transport: optional fields left out are cleared.
    Object.assign(t, fields, {
      vehicleUId: vehicle.vehicleUId,
      carrierCode: vehicle.plate,
      carrierName: vehicle.name,
      startDate: fields.startDate ?? t.startDate,
      lastSyncDate: now,
    });
    if (vehicleChanged && (t.statusId === STATUS.InProgress || t.statusId === STATUS.Paused)) {
      // A vehicle change during transport goes to the platform as a change request.
      t.changeRequest = {
        message: "Cererea de modificare a fost creată",
        statusCode: "RequestCreated",
        createdAt: now,
        date: null,
        authorityStatus: null,
        authorityMessage: null,
        authorityDate: null,
        advances: true,
      };
    }
    return { payload: true };
  }

  private loadTransports(user: UserState, body: Body, now: number): Handled {
    const statusIds = new Set(integerList(body, "statusIds"));
    const limits = this.limits;
    const requestedSize = optionalInteger(body, "pageSize");
    if (requestedSize !== undefined && requestedSize < 0)
      throw badRequest("InvalidParameter", "pageSize", "not negative");
    const pageSize = !requestedSize ? limits.defaultPageSize : Math.min(requestedSize, limits.maxPageSize);
    const base = this.options.pageIndexBase;
    const pageIndex = optionalInteger(body, "pageIndex") ?? base;
    if (pageIndex < base) throw badRequest("InvalidParameter", "pageIndex", `first page is ${base}`);
    const search = optionalString(body, "searchValue")?.trim().toLowerCase() ?? "";
    this.settleAll();
    const matches = this.transports
      .filter(
        (t) => t.statusId !== STATUS.Error && statusIds.has(t.statusId) && this.canAccessTransport(user, t),
      )
      .filter((t) => search === "" || matchesSearch(t, search))
      .sort((a, b) => b.createdAt - a.createdAt || a.codeUit.localeCompare(b.codeUit));
    const page = matches.slice((pageIndex - base) * pageSize, (pageIndex - base + 1) * pageSize);
    return {
      payload: { totalRecords: matches.length, transports: page.map((t) => this.transportJson(t, now)) },
    };
  }

  /** The transmission of a transport as load-transports shows it now. */
  transmissionOf(codeUit: string): TransmissionView | undefined {
    this.settleAll();
    const t = this.transports.find((x) => x.codeUit === codeUit);
    return t ? this.transmission(t, this.now()) : undefined;
  }

  private transmission(t: TransportRecord, now: number): TransmissionView {
    const vehicle = t.statusId === STATUS.InProgress ? this.vehicleByUId(t.vehicleUId) : undefined;
    return transmissionAt(t, now, this.options.seed, this.options.drift, this.overrides.get(t.codeUit), {
      startedAt: this.startedAt,
      abroadSince: vehicle ? abroadSince(this.ctx, vehicle, now) : undefined,
    });
  }

  private transportJson(t: TransportRecord, now: number) {
    const override = this.overrides.get(t.codeUit);
    const tx = this.transmission(t, now);
    const d = (instant: number | null) => (instant === null ? null : this.fmt(instant));
    const cr = t.changeRequest;
    return {
      uId: t.uId,
      carrierCode: t.carrierCode,
      carrierName: t.carrierName,
      carrierUId: t.vehicleUId,
      trailer1Code: t.trailer1Code,
      trailer2Code: t.trailer2Code,
      codeUit: t.codeUit,
      statusId: t.statusId,
      startDate: d(t.startDate),
      endDate: d(t.endDate),
      validityStartDate: d(t.validityStartDate),
      validityEndDate: d(t.validityEndDate),
      notes: t.notes,
      startLocation: t.startLocation,
      endLocation: t.endLocation,
      externalId: t.externalId,
      externalResponse: t.externalResponse,
      lastSyncDate: d(t.lastSyncDate),
      transmissionStatusCode: tx.code,
      transmissionStatusErrorDescription: tx.description,
      lastTransmissionDate: d(tx.lastTransmissionDate),
      lastGpsDate: d(tx.lastGpsDate),
      changeRequestMessage: cr?.message ?? null,
      changeRequestStatusCode: override?.changeRequestStatusCode ?? cr?.statusCode ?? null,
      changeRequestCreatedAt: d(cr?.createdAt ?? null),
      changeRequestDate: d(cr?.date ?? null),
      changeRequestAuthorityStatus: cr?.authorityStatus ?? null,
      changeRequestAuthorityMessage: cr?.authorityMessage ?? null,
      changeRequestAuthorityDate: d(cr?.authorityDate ?? null),
    };
  }

  private removeTransports(user: UserState, body: Body): Handled {
    const uIds = guidList(body, "transportsUids");
    if (uIds.length === 0) throw badRequest("InvalidParameter", "transportsUids", "at least one");
    const found = this.transports.filter((t) => uIds.includes(t.uId));
    const foreign = found.filter((t) => !this.canAccessTransport(user, t));
    if (foreign.length > 0)
      throw new RequestRejected(401, [failure("AccessDenied", ...foreign.map((t) => t.uId))]);
    const missing = uIds.filter((id) => !found.some((t) => t.uId === id));
    this.transports = this.transports.filter((t) => !uIds.includes(t.uId));
    for (const t of found) this.overrides.delete(t.codeUit);
    return {
      payload: missing.length === 0,
      failures: missing.map((id) => failure("TransportNotFound", id)),
    };
  }

  private transportAction(
    endpoint: "start-transports" | "end-transports" | "pause-transports",
    user: UserState,
    body: Body,
    now: number,
  ): Handled {
    const items = requiredArray(body, "transports");
    if (items.length === 0) throw badRequest("InvalidParameter", "transports", "at least one");
    const codes = items.map((item) => requiredString(asBody(item), "codeUit").trim());
    this.settleAll();
    const targets = codes.map((code) => this.transports.find((t) => t.codeUit === code));
    const foreign = targets.filter(
      (t): t is TransportRecord => t !== undefined && !this.canAccessTransport(user, t),
    );
    if (foreign.length > 0)
      throw new RequestRejected(401, [failure("AccessDenied", ...foreign.map((t) => t.codeUit))]);

    const results = codes.map((codeUit, i) => {
      const t = targets[i];
      const error = t ? applyAction(endpoint, t, now) : "TransportNotFound";
      return { codeUit, isSuccess: error === undefined, errors: error ? [error] : [] };
    });
    const failures = results.flatMap((r) =>
      r.errors.map((code) => {
        const t = this.transports.find((x) => x.codeUit === r.codeUit);
        return code === "InvalidTransportState" && t
          ? failure(code, r.codeUit, STATUS_NAMES[t.statusId]!)
          : failure(code, r.codeUit);
      }),
    );
    const allSucceeded = failures.length === 0;
    const mode = endpoint === "pause-transports" ? "boolean" : this.options.transportActionPayload;
    const payload = mode === "boolean" ? allSucceeded : mode === "object" ? results[0] : results;
    return { payload, failures };
  }

  // ---- envelope, recording, control over HTTP ------------------------------------------

  private envelope(status: number, payload: unknown, failures: Failure[]): SimResponse {
    const body = {
      payload: payload === undefined ? null : payload,
      correlationId: randomUUID(),
      failureReasons: failures,
      isSuccess: failures.length === 0 && status < 400,
    };
    return json(status, this.options.keyCase === "pascal" ? pascalKeys(body) : body);
  }

  private record(
    req: SimRequest,
    endpoint: EndpointName | null,
    username: string | undefined,
    arrivedAt: number,
  ): RecordedRequest {
    const who = username ?? ANONYMOUS;
    if (endpoint) {
      const perUser = this.stats.requests[who] ?? {};
      perUser[endpoint] = (perUser[endpoint] ?? 0) + 1;
      this.stats.requests[who] = perUser;
    }
    this.stats.total++;
    let body: unknown = null;
    if (endpoint === "login") {
      // Never the password: only who tried to log in.
      body = username === undefined ? null : { username };
    } else if (req.body.length > 0) {
      try {
        body = JSON.parse(req.body.toString("utf8"));
      } catch {
        body = null;
      }
    }
    const entry: RecordedRequest = {
      at: new Date(arrivedAt).toISOString(),
      method: req.method,
      path: req.path,
      query: Object.fromEntries(req.query),
      endpoint,
      username: username ?? null,
      status: null,
      body,
      contentType: req.headers["content-type"] ?? null,
    };
    this.recorded.push(entry);
    if (this.recorded.length > 500) this.recorded.splice(0, this.recorded.length - 500);
    return entry;
  }

  private handleControl(req: SimRequest, path: string): SimResponse {
    if (!this.options.control) return text(404, "Not Found");
    const method = req.method.toUpperCase();
    if (method === "GET" && path === "/__stats") return json(200, this.getStats());
    if (method === "GET" && path === "/__control/limits") return json(200, this.currentLimits());
    if (method === "GET" && path === "/__requests") {
      const limit = Number(req.query.get("limit") ?? 100);
      return json(200, this.recentRequests(Number.isFinite(limit) ? Math.min(500, limit) : 100));
    }
    if (method !== "POST") return text(404, "Not Found");
    let body: Body;
    try {
      body = req.body.length ? asBody(JSON.parse(req.body.toString("utf8"))) : {};
    } catch {
      return json(400, { error: "JSON object expected" });
    }
    const vehicleMatch = /^\/__control\/vehicles\/(\d+)$/.exec(path);
    if (vehicleMatch) {
      const control = readVehicleControl(body);
      if (typeof control === "string") return json(400, { error: control });
      const vehicleId = Number(vehicleMatch[1]);
      const result = this.controlVehicle(vehicleId, control);
      if (result.status !== 200) return json(result.status, { error: result.error });
      return json(200, { ok: true, controls: this.vehicleControls(vehicleId) });
    }
    const transportMatch = /^\/__control\/transports\/([^/]+)$/.exec(path);
    if (transportMatch) {
      const control = readTransportControl(body);
      if (typeof control === "string") return json(400, { error: control });
      const ok = this.controlTransport(decodeURIComponent(transportMatch[1]!), control);
      return ok ? json(200, { ok: true }) : json(404, { error: "unknown UIT" });
    }
    switch (path) {
      case "/__control/expire-tokens": {
        const username = typeof body.username === "string" ? body.username : undefined;
        return json(200, { ok: true, expired: this.expireTokens(username) });
      }
      case "/__control/faults": {
        const kinds: FaultKind[] = ["http500", "delay", "delayAnswer", "malformed", "rateLimit", "http401"];
        if (!kinds.includes(body.kind as FaultKind))
          return json(400, { error: `kind must be one of ${kinds.join(", ")}` });
        const fault: Fault = {
          kind: body.kind as FaultKind,
          count: typeof body.count === "number" ? body.count : 1,
        };
        if (typeof body.delayMs === "number") fault.delayMs = body.delayMs;
        if (typeof body.endpoint === "string") fault.endpoint = body.endpoint;
        if (typeof body.retryAfterSeconds === "number") fault.retryAfterSeconds = body.retryAfterSeconds;
        if (body.plainBody === true) fault.plainBody = true;
        this.addFault(fault);
        return json(200, { ok: true });
      }
      case "/__control/clock": {
        if (typeof body.advanceMs !== "number" || body.advanceMs < 0)
          return json(400, { error: "advanceMs ≥ 0 expected" });
        const now = this.advanceClock(body.advanceMs);
        return json(200, { ok: true, now: new Date(now).toISOString() });
      }
      case "/__control/users": {
        if (typeof body.username !== "string" || typeof body.password !== "string") {
          return json(400, { error: "username and password expected" });
        }
        const user: SimUser = { username: body.username, password: body.password };
        if (typeof body.active === "boolean") user.active = body.active;
        if (
          body.vehicleIds === "all" ||
          (Array.isArray(body.vehicleIds) && body.vehicleIds.every(Number.isInteger))
        ) {
          user.vehicleIds = body.vehicleIds as number[] | "all";
        }
        if (typeof body.minIntervalMs === "number") user.minIntervalMs = body.minIntervalMs;
        this.upsertUser(user);
        return json(200, { ok: true });
      }
      case "/__control/limits": {
        const change = readLimits(body);
        if (typeof change === "string") return json(400, { error: change });
        const strict = typeof body.strict === "boolean" ? body.strict : undefined;
        return json(200, this.setLimits(change, strict));
      }
      case "/__control/reset":
        this.reset();
        return json(200, { ok: true });
      default:
        return text(404, "Not Found");
    }
  }
}

/** Applies start/end/pause to one transport; the error code when refused. */
function applyAction(
  endpoint: "start-transports" | "end-transports" | "pause-transports",
  t: TransportRecord,
  now: number,
): string | undefined {
  if (t.statusId === STATUS.Completed || t.statusId === STATUS.AutoCompleted) return "TransportFinalized";
  switch (endpoint) {
    case "start-transports":
      if (t.statusId !== STATUS.Pending && t.statusId !== STATUS.Paused) return "InvalidTransportState";
      if (now < t.validityStartDate) return "UitValidityNotStarted";
      if (t.statusId === STATUS.Pending) t.startDate = now;
      t.statusId = STATUS.InProgress;
      t.pausedAt = null;
      closeHalt(t, now);
      return undefined;
    case "pause-transports":
      if (t.statusId !== STATUS.InProgress) return "InvalidTransportState";
      t.statusId = STATUS.Paused;
      t.pausedAt = now;
      t.halts.push({ start: now, end: null });
      return undefined;
    default:
      if (t.statusId !== STATUS.InProgress && t.statusId !== STATUS.Paused) return "InvalidTransportState";
      t.statusId = STATUS.Completed;
      t.endDate = now;
      t.pinnedTransmission = null;
      closeHalt(t, now);
      return undefined;
  }
}

function matchesSearch(t: TransportRecord, search: string): boolean {
  const compact = search.replace(/[\s-]/g, "");
  const haystack = [t.codeUit, t.carrierCode, t.carrierName, t.startLocation, t.endLocation, t.notes];
  return haystack.some((value) => {
    const lower = value?.toLowerCase();
    return (
      lower !== undefined &&
      (lower.includes(search) || (compact !== "" && lower.replace(/[\s-]/g, "").includes(compact)))
    );
  });
}

function readTransportControl(body: Body): TransportControl | string {
  const control: TransportControl = {};
  if (body.transmissionStatusCode !== undefined) {
    if (!TRANSMISSION_CODES.includes(body.transmissionStatusCode as TransmissionCode))
      return "unknown transmissionStatusCode";
    control.transmissionStatusCode = body.transmissionStatusCode as TransmissionCode;
  }
  if (body.changeRequestStatusCode !== undefined) {
    if (!CHANGE_REQUEST_CODES.includes(body.changeRequestStatusCode as ChangeRequestCode)) {
      return "unknown changeRequestStatusCode";
    }
    control.changeRequestStatusCode = body.changeRequestStatusCode as ChangeRequestCode;
  }
  if (body.statusId !== undefined) {
    if (typeof body.statusId !== "number" || !(body.statusId in STATUS_NAMES)) return "statusId must be 1–6";
    control.statusId = body.statusId;
  }
  for (const key of ["lastGpsDate", "lastTransmissionDate", "validityEndDate"] as const) {
    const value = body[key];
    if (value === undefined) continue;
    if (typeof value !== "string" || parseRequestDate(value, "UTC") === undefined)
      return `${key} must be ISO 8601`;
    control[key] = value;
  }
  if (body.clear === true) control.clear = true;
  return control;
}

function parseJsonBody(req: SimRequest): Body {
  const raw = req.body.toString("utf8");
  if (raw.trim() === "") throw badRequest("InvalidBody");
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badRequest("InvalidBody");
  }
  return asBody(parsed);
}

/** Upper-cases the first letter of every key, recursively (PascalCase responses). */
export function pascalKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pascalKeys);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key.charAt(0).toUpperCase() + key.slice(1),
      pascalKeys(inner),
    ]),
  );
}

function json(status: number, body: unknown): SimResponse {
  return {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
    body: JSON.stringify(body),
  };
}

function text(status: number, body: string): SimResponse {
  return { status, headers: { "content-type": "text/plain; charset=utf-8" }, body };
}

/** The tighter of a documented limit and an undocumented one (null: none). */
function minLimit(documented: number, extra: number | null): number {
  return extra === null ? documented : Math.min(documented, extra);
}

const LIMIT_KEYS = [
  "stopsMaxVehicles",
  "temperaturesMaxVehicles",
  "stopsMaxDays",
  "refillsMaxDays",
  "temperaturesMaxDays",
] as const satisfies ReadonlyArray<keyof UndocumentedLimits>;

/** Vehicle-data limits of a control body: positive integers, or null for no limit. */
function readLimits(body: Body): Partial<UndocumentedLimits> | string {
  const change: Partial<UndocumentedLimits> = {};
  for (const key of LIMIT_KEYS) {
    const value = body[key];
    if (value === undefined) continue;
    if (value !== null && (typeof value !== "number" || !Number.isInteger(value) || value < 1))
      return `${key} must be a positive integer or null`;
    change[key] = value;
  }
  if (body.strict !== undefined && typeof body.strict !== "boolean") return "strict must be a boolean";
  return change;
}
