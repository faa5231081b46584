import { type Dispatcher, request } from "undici";
import type { z } from "zod";
import { logger } from "../log.js";
import { mergeConsumptionSpans } from "./consumption.js";
import {
  ApplicationFailureError,
  BadRequestError,
  type FailureReason,
  RateLimitedError,
  RequestRuleError,
  type RuleSubject,
  UnauthorizedError,
  UpstreamTransportError,
} from "./errors.js";
import { CallLimitBook, type LimitBookStorage, limitAfterRefusal, readLimitRefusal } from "./limits.js";
import { canonicalJson, normalizeKeys } from "./normalize.js";
import { type AcceptedPasswords, MemoryAcceptedPasswords } from "./passwords.js";
import {
  type AddTransportRequestBody,
  type ConsumptionRecord,
  type Envelope,
  envelopeSchema,
  type FleetSchemas,
  fleetSchemas,
  type LoadTransportsRequestBody,
  type LocationPoint,
  type LoginResponse,
  loginResponseSchema,
  normalizeTransportActionPayload,
  type RefillEvent,
  type RemoveTransportsRequestBody,
  type SensorReadings,
  type StopRecord,
  type TransportActionResult,
  type TransportPage,
  type TransportsByUitRequestBody,
  type UpdateTransportRequestBody,
  type Vehicle,
  type WayRequestBody,
} from "./schemas.js";
import { type CallContext, type CallGate, type FleetEndpoint, SlotSpentOnLogin } from "./seam.js";
import {
  type CallLimits,
  DAY_MS,
  DOCUMENTED_LIMITS,
  mergeStops,
  mergeTemperatures,
  mergeWay,
  type PlannedCall,
  periodWithinDays,
  planCalls,
  planReport,
  type SplittableEndpoint,
} from "./split.js";
import { formatCompanyLocal, formatUtcIso } from "./time.js";
import { type AccessToken, type SharedTokens, TokenManager } from "./tokens.js";

const log = logger.child({ module: "fleet.client" });

const PATHS: Record<FleetEndpoint, string> = {
  login: "authentication/login",
  "company-vehicles": "carriers/company-vehicles",
  way: "carriers/way",
  stops: "carriers/stops",
  consumption: "carriers/consumption",
  refills: "carriers/refills",
  temperatures: "carriers/temperatures",
  "add-transport": "eTransport/add-transport",
  "update-transport": "eTransport/update-transport",
  "load-transports": "eTransport/load-transports",
  "remove-transports": "eTransport/remove-transports",
  "start-transports": "eTransport/start-transports",
  "end-transports": "eTransport/end-transports",
  "pause-transports": "eTransport/pause-transports",
};

/** Endpoints whose 401 may mean "a listed vehicle is not yours" rather than a bad token. */
const VEHICLE_SCOPED: ReadonlySet<FleetEndpoint> = new Set(["stops", "refills", "temperatures"]);

export interface FleetClientOptions {
  /** Base address of the service, without /api (FLEET_API_URL). */
  baseUrl: string;
  /** Value of the api-version query parameter (FLEET_API_VERSION, normally "2.0"). */
  apiVersion: string;
  /** COMPANY_TIMEZONE: the zone of the service's bare local dates. */
  timeZone: string;
  gate: CallGate;
  /** Per request, from sending to the whole body read; default 30 000. */
  timeoutMs?: number;
  dispatcher?: Dispatcher;
  /** Log in again this long before the token expires; default 60 000. */
  refreshMarginMs?: number;
  /**
   * Test hook only: when false, requests breaking fleet-api.md's rules are sent anyway,
   * to observe how the service itself answers them. Default true.
   */
  enforceRequestRules?: boolean;
  /**
   * Where limits learned from the service's refusals are kept across restarts (main.ts
   * wires the SQLite store). Without it they are learned again after each start.
   */
  learnedLimits?: LimitBookStorage;
  /** Replicas (Redis): each account's token shared between them (see SharedTokens). */
  sharedTokens?: SharedTokens;
  /**
   * Which password of each account the service accepted last (default: kept in this process).
   * A link with an outdated password is refused without a request (AcceptedPasswords).
   */
  acceptedPasswords?: AcceptedPasswords;
  now?: () => number;
}

export interface FleetCredentials {
  username: string;
  password: string;
}

/** What a successful login tells (never the token itself). */
export interface LoginInfo {
  account: string;
  expiresAt: Date;
  scopes: readonly string[];
}

export interface PeriodParams {
  from: Date;
  to: Date;
}
export interface VehiclesPeriodParams extends PeriodParams {
  vehicleIds: readonly number[];
}
export interface StopsParams extends VehiclesPeriodParams {
  /** Minimum stop duration in whole minutes, at least 1 (stationaryMargin). */
  stationaryMarginMinutes: number;
}
export interface RefillsParams extends PeriodParams {
  vehicleId: number;
}
export interface RefillsAllParams extends PeriodParams {
  vehicleIds: readonly number[];
}
export interface LoadTransportsParams {
  statusIds: readonly number[];
  pageSize?: number;
  pageIndex?: number;
  searchValue?: string;
}
export interface TransportFields {
  vehicleUId: string;
  vatNumber: string;
  validityStart: Date;
  validityEnd: Date;
  /** Start of GPS transmission. */
  start?: Date;
  /** End of GPS transmission. */
  end?: Date;
  notes?: string;
  startLocation?: string;
  endLocation?: string;
  trailer1Code?: string;
  trailer2Code?: string;
}
export interface AddTransportParams extends TransportFields {
  codeUit: string;
}
export interface UpdateTransportParams extends TransportFields {
  transportUId: string;
}

/** Refill events of one vehicle (the refills answer does not name the vehicle). */
export interface VehicleRefills {
  vehicleId: number;
  events: RefillEvent[];
}

export type ProgressListener = (done: number, total: number) => void;

/** Thrown inside `send` when the service answered 401 to a token; turned into a retry or an error. */
class TokenRejected extends Error {
  constructor(
    readonly token: AccessToken,
    readonly rejections: number,
    readonly tokenExpiredPerService: boolean,
    readonly envelope: Envelope | undefined,
  ) {
    super("access token rejected");
  }
}

/**
 * Logins one call may make in its own slots (its token was due when its turn came). Bounded so a
 * token that lives shorter than a slot cannot loop; past it the call is sent with the last token.
 */
const SLOT_LOGINS_PER_CALL = 2;

/** What one call did about its token in its slots: logins made, refusals met, the last token obtained. */
interface SlotLogins {
  made: number;
  refused: number;
  last?: AccessToken;
}

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function headerValue(headers: RawAnswer["headers"], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, nowMs: number = Date.now()): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
    .join("; ");
}

/** Token managers kept per account: the working password and a few outdated ones of links not renewed yet. */
const MANAGERS_PER_ACCOUNT = 4;

/**
 * The typed client of the fleet service. One per process and service; per-account work
 * goes through `session(credentials)`. Sessions of one username share its token.
 */
export class FleetClient {
  readonly baseUrl: string;
  readonly apiVersion: string;
  readonly timeZone: string;
  readonly gate: CallGate;
  readonly timeoutMs: number;
  readonly dispatcher: Dispatcher | undefined;
  readonly refreshMarginMs: number;
  readonly enforceRequestRules: boolean;
  readonly now: () => number;
  readonly schemas: FleetSchemas;
  /** Per-call limits: documented ones, tightened by those learned from this service. */
  readonly limits: CallLimitBook;
  /**
   * Token managers by username, then by password: a link still holding an old password has its own,
   * so its refusals never throw away the token of the links that work (issue 30, point 6).
   */
  readonly #tokens = new Map<string, TokenManager[]>();
  /** The manager each username's estimates count on: its first, or the last one a link proved good. */
  readonly #latest = new Map<string, TokenManager>();
  readonly #sharedTokens: SharedTokens | undefined;
  readonly passwords: AcceptedPasswords;

  constructor(options: FleetClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.apiVersion = options.apiVersion;
    this.timeZone = options.timeZone;
    this.gate = options.gate;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.dispatcher = options.dispatcher;
    this.refreshMarginMs = options.refreshMarginMs ?? 60_000;
    this.enforceRequestRules = options.enforceRequestRules ?? true;
    this.now = options.now ?? Date.now;
    this.schemas = fleetSchemas(options.timeZone);
    this.limits = new CallLimitBook(this.baseUrl, options.learnedLimits);
    this.#sharedTokens = options.sharedTokens;
    this.passwords = options.acceptedPasswords ?? new MemoryAcceptedPasswords();
  }

  /** The work of one fleet account. Cheap; the token is kept per username across sessions. */
  session(credentials: FleetCredentials): FleetSession {
    const managers = this.#managersOf(credentials.username);
    let tokens = managers.find((m) => m.hasPassword(credentials.password));
    if (!tokens) {
      tokens = new TokenManager({
        account: credentials.username,
        password: credentials.password,
        gate: this.gate,
        refreshMarginMs: this.refreshMarginMs,
        now: this.now,
        sendLogin: (username, password) => this.sendLogin(username, password),
        passwords: this.passwords,
        ...(this.#sharedTokens ? { shared: this.#sharedTokens } : {}),
      });
      // Old passwords of the account (links not yet renewed) stay few: keep the newest ones.
      if (managers.length >= MANAGERS_PER_ACCOUNT) managers.shift();
      managers.push(tokens);
    }
    if (!this.#latest.has(credentials.username)) this.#latest.set(credentials.username, tokens);
    return new FleetSession(this, tokens);
  }

  /**
   * A session with a token of its own, not the account's shared one: for checking credentials
   * someone offers (a link attempt). Its login still goes through the account's gate, but a
   * refusal, or a password that differs from the one in use, leaves the shared token alone.
   */
  detachedSession(credentials: FleetCredentials): FleetSession {
    return new FleetSession(
      this,
      new TokenManager({
        account: credentials.username,
        password: credentials.password,
        gate: this.gate,
        refreshMarginMs: this.refreshMarginMs,
        now: this.now,
        sendLogin: (username, password) => this.sendLogin(username, password),
        retryRefusedLogin: false,
        // The service decides on offered credentials; a login that works is recorded as the current password.
        passwords: this.passwords,
        offered: true,
        // A login that succeeds proved the password: its token is shared with the other replicas
        // (bound to that password), so they need not log in again (bench row 11 saw 100 such
        // logins in one tick). A refused one shares nothing.
        ...(this.#sharedTokens ? { shared: this.#sharedTokens } : {}),
      }),
    );
  }

  /**
   * Keeps a detached session's token as the account's shared one once its credentials proved
   * good, so the next call need not log in again; an account already logged in keeps its own,
   * unless its login was refused (the re-link just proved credentials that work).
   */
  adopt(session: FleetSession): void {
    const managers = this.#managersOf(session.account);
    const offered = session.tokens;
    const kept = managers.findIndex((m) => offered.samePassword(m));
    if (kept >= 0 && !managers[kept]!.loginRefused) return;
    // Stored credentials from now on: once outdated, this password is refused like any other.
    offered.settle();
    if (kept >= 0) managers[kept] = offered;
    else {
      if (managers.length >= MANAGERS_PER_ACCOUNT) managers.shift();
      managers.push(offered);
    }
    this.#latest.set(session.account, offered);
  }

  #managersOf(username: string): TokenManager[] {
    let managers = this.#tokens.get(username);
    if (!managers) {
      managers = [];
      this.#tokens.set(username, managers);
    }
    return managers;
  }

  /** 1 when the account's next call must log in first (no reusable shared token), else 0. */
  loginCalls(username: string): number {
    return this.#latest.get(username)?.needsLogin() === false ? 0 : 1;
  }

  /**
   * Lets go of an account nobody links any more (the logout of its last link, an uninstall): its
   * token managers are released, so a session still holding one (upkeep mid-tick, a call waiting
   * in the gate) sends nothing more, and its token leaves the replicas' shared store.
   */
  async forget(username: string): Promise<void> {
    for (const manager of this.#tokens.get(username) ?? []) manager.release();
    this.#latest.get(username)?.release();
    this.#tokens.delete(username);
    this.#latest.delete(username);
    await this.#sharedTokens?.forget?.(username);
    // Nobody links it here any more: not even the digest of its current password is kept.
    await this.passwords.forget(username);
  }

  /**
   * How many calls a report needs, and which, before running it (queue estimates), with
   * the limits known now. A refusal while running can still cut a call further (learned limits).
   */
  plan(endpoint: SplittableEndpoint, request: VehiclesPeriodParams): PlannedCall[] {
    return planReport(endpoint, request, this.timeZone, this.limits.limitsFor(endpoint));
  }

  urlOf(endpoint: FleetEndpoint): string {
    return `${this.baseUrl}/api/${PATHS[endpoint]}?api-version=${encodeURIComponent(this.apiVersion)}`;
  }

  /** One HTTP exchange; network failures and timeouts become UpstreamTransportError. */
  async exchange(
    endpoint: FleetEndpoint,
    method: "GET" | "POST",
    headers: Record<string, string>,
    body?: string,
  ): Promise<RawAnswer> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const startedAt = Date.now();
    try {
      const answer = await request(this.urlOf(endpoint), {
        method,
        headers: { accept: "application/json", ...headers },
        body,
        signal: timeout,
        dispatcher: this.dispatcher,
      });
      const text = await answer.body.text();
      log.debug({ endpoint, status: answer.statusCode, ms: Date.now() - startedAt }, "fleet call answered");
      return { status: answer.statusCode, headers: answer.headers, text };
    } catch (error) {
      if (timeout.aborted) {
        log.warn({ endpoint, ms: Date.now() - startedAt }, "fleet call timed out");
        throw new UpstreamTransportError(
          endpoint,
          "timeout",
          `no complete answer within ${this.timeoutMs} ms`,
          {
            cause: error,
          },
        );
      }
      const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      log.warn({ endpoint, detail }, "fleet call failed");
      throw new UpstreamTransportError(endpoint, "network", detail, { cause: error });
    }
  }

  /** POST login as form data; the answer has no envelope. Runs inside the gate (TokenManager). */
  async sendLogin(username: string, password: string): Promise<LoginResponse> {
    const form = new URLSearchParams({ username, password }).toString();
    const answer = await this.exchange(
      "login",
      "POST",
      { "content-type": "application/x-www-form-urlencoded" },
      form,
    );
    if (answer.status === 401 || answer.status === 403) {
      throw new UnauthorizedError("login", "login", { status: answer.status });
    }
    this.throwForCommonStatus("login", answer);
    const json = parseJsonText("login", answer);
    const parsed = loginResponseSchema.safeParse(normalizeKeys(json));
    if (!parsed.success) {
      throw new UpstreamTransportError(
        "login",
        "malformed",
        `login answer does not match: ${describeZodError(parsed.error)}`,
        { status: answer.status },
      );
    }
    return parsed.data;
  }

  /** 429, 5xx, 400 and other non-2xx statuses (401 is handled by the caller). */
  throwForCommonStatus(endpoint: FleetEndpoint, answer: RawAnswer): void {
    const { status } = answer;
    if (status === 429) {
      throw new RateLimitedError(
        endpoint,
        parseRetryAfter(headerValue(answer.headers, "retry-after"), this.now()),
      );
    }
    if (status === 400) {
      const envelope = tryEnvelope(answer.text);
      throw new BadRequestError(endpoint, envelope?.failureReasons ?? [], envelope?.correlationId);
    }
    if (status < 200 || status >= 300) {
      const envelope = tryEnvelope(answer.text);
      throw new UpstreamTransportError(endpoint, "http", `HTTP ${status}`, {
        status,
        correlationId: envelope?.correlationId,
      });
    }
  }
}

function parseJsonText(endpoint: FleetEndpoint, answer: RawAnswer): unknown {
  try {
    return JSON.parse(answer.text) as unknown;
  } catch (error) {
    const excerpt = answer.text.slice(0, 80).replace(/\s+/g, " ");
    throw new UpstreamTransportError(endpoint, "malformed", `answer is not JSON: "${excerpt}"`, {
      status: answer.status,
      cause: error,
    });
  }
}

/** The envelope of an error answer, when there is a readable one. */
function tryEnvelope(text: string): Envelope | undefined {
  try {
    const parsed = envelopeSchema.safeParse(normalizeKeys(JSON.parse(text)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function isUnauthorizedCode(reason: FailureReason): boolean {
  const code = reason.errorCode.trim().toLowerCase();
  return code === "401" || code === "unauthorized" || code === "forbidden";
}

/** The request rules of fleet-api.md, checked before a request is sent; a broken one is a code, no words. */
class Rules {
  constructor(
    private readonly endpoint: FleetEndpoint,
    private readonly enforce: boolean,
  ) {}

  /** `params`: the rule's numbers, for the dispatcher's words (RequestRuleError.userFailure). */
  check(
    ok: boolean,
    rule: string,
    options: { subject?: RuleSubject; params?: Readonly<Record<string, number>> } = {},
  ): void {
    if (this.enforce && !ok) throw new RequestRuleError(this.endpoint, rule, options);
  }

  validDate(date: Date, subject: RuleSubject): void {
    this.check(date instanceof Date && !Number.isNaN(date.getTime()), "invalid-date", { subject });
  }

  period(from: Date, to: Date): void {
    this.validDate(from, "start");
    this.validDate(to, "end");
    this.check(from.getTime() < to.getTime(), "period-order", { subject: "period" });
  }

  maxPeriod(from: Date, to: Date, maxDays: number | undefined, timeZone: string): void {
    if (maxDays === undefined) return;
    this.check(periodWithinDays(from, to, maxDays, timeZone), "max-period", { params: { days: maxDays } });
  }

  vehicles(ids: readonly number[], max: number | undefined): void {
    this.check(ids.length > 0, "empty-list", { subject: "vehicles" });
    this.check(
      ids.every((id) => Number.isInteger(id)),
      "invalid-vehicle-id",
    );
    if (max !== undefined) {
      this.check(ids.length <= max, "max-vehicles", { params: { max, given: ids.length } });
    }
  }

  nonEmptyTexts(values: readonly string[], subject: RuleSubject): void {
    this.check(values.length > 0, "empty-list", { subject });
    this.check(
      values.every((v) => typeof v === "string" && v.trim() !== ""),
      "empty-value",
      { subject },
    );
  }

  required(value: string | undefined, subject: RuleSubject): void {
    this.check(typeof value === "string" && value.trim() !== "", "required", { subject });
  }
}

/** Sorted, without duplicates: equal requests get equal bodies (and share one gate call). */
function canonicalIds(ids: readonly number[]): number[] {
  return [...new Set(ids)].sort((a, b) => a - b);
}

/**
 * The 14 endpoints for one fleet account. Every request, login included, goes through the
 * gate; reads carry a shareKey (endpoint + canonical body), login and mutations none.
 */
export class FleetSession {
  readonly account: string;
  readonly #client: FleetClient;
  readonly #tokens: TokenManager;

  constructor(client: FleetClient, tokens: TokenManager) {
    this.#client = client;
    this.#tokens = tokens;
    this.account = tokens.account;
  }

  /** The token manager of this account (a background refresher renews ahead of expiresAt()). */
  get tokens(): TokenManager {
    return this.#tokens;
  }

  /** Which credentials this session holds: sessions with one account and password share it. */
  get credentialsId(): object {
    return this.#tokens;
  }

  /**
   * Where this session's credentials stand, without a call: `outdated` (the service accepted a newer
   * password since), `refused` (its last login was refused), `proven` (it holds a live token),
   * `unproven` (not tried yet).
   */
  async standing(): Promise<"proven" | "unproven" | "refused" | "outdated"> {
    if (await this.#tokens.passwordSuperseded()) return "outdated";
    if (this.#tokens.loginRefused) return "refused";
    return this.#tokens.current() ? "proven" : "unproven";
  }

  /** Throws when the service has accepted a newer password of the account since this session's. */
  assertUsable(): Promise<void> {
    return this.#tokens.assertCurrentPassword("company-vehicles");
  }

  /** Calls a login will add before this session's next request: 1 without a reusable token, else 0. */
  loginCalls(): number {
    return this.#tokens.needsLogin() ? 1 : 0;
  }

  /** Logs in now, verifying the credentials; the token is kept for the calls that follow. */
  async login(ctx: CallContext = {}): Promise<LoginInfo> {
    const token = await this.#tokens.renew(ctx);
    return { account: this.account, expiresAt: token.expiresAt, scopes: token.scopes };
  }

  async vehicles(ctx: CallContext = {}): Promise<Vehicle[]> {
    return this.#call("company-vehicles", undefined, this.#schemas.vehiclesPayload, ctx);
  }

  async way(params: VehiclesPeriodParams, ctx: CallContext = {}): Promise<LocationPoint[]> {
    const rules = this.#rules("way");
    rules.vehicles(params.vehicleIds, DOCUMENTED_LIMITS.way.maxVehicles);
    rules.period(params.from, params.to);
    rules.maxPeriod(params.from, params.to, DOCUMENTED_LIMITS.way.maxDays, this.#client.timeZone);
    return this.#call("way", this.#vehiclesBody(params), this.#schemas.wayPayload, ctx);
  }

  async stops(params: StopsParams, ctx: CallContext = {}): Promise<StopRecord[]> {
    const rules = this.#rules("stops");
    rules.vehicles(params.vehicleIds, DOCUMENTED_LIMITS.stops.maxVehicles);
    rules.period(params.from, params.to);
    rules.check(
      Number.isInteger(params.stationaryMarginMinutes) && params.stationaryMarginMinutes >= 1,
      "min-stationary-margin",
    );
    const body = { ...this.#vehiclesBody(params), stationaryMargin: params.stationaryMarginMinutes };
    return this.#call("stops", body, this.#schemas.stopsPayload, ctx);
  }

  async consumption(params: VehiclesPeriodParams, ctx: CallContext = {}): Promise<ConsumptionRecord[]> {
    const rules = this.#rules("consumption");
    rules.vehicles(params.vehicleIds, DOCUMENTED_LIMITS.consumption.maxVehicles);
    rules.period(params.from, params.to);
    rules.maxPeriod(params.from, params.to, DOCUMENTED_LIMITS.consumption.maxDays, this.#client.timeZone);
    return this.#call("consumption", this.#vehiclesBody(params), this.#schemas.consumptionPayload, ctx);
  }

  async refills(params: RefillsParams, ctx: CallContext = {}): Promise<RefillEvent[]> {
    const rules = this.#rules("refills");
    rules.vehicles([params.vehicleId], DOCUMENTED_LIMITS.refills.maxVehicles);
    rules.period(params.from, params.to);
    const tz = this.#client.timeZone;
    const body = {
      carrierId: params.vehicleId,
      startDate: formatCompanyLocal(params.from, tz),
      endDate: formatCompanyLocal(params.to, tz),
    };
    return this.#call("refills", body, this.#schemas.refillsPayload, ctx);
  }

  async temperatures(params: VehiclesPeriodParams, ctx: CallContext = {}): Promise<SensorReadings> {
    const rules = this.#rules("temperatures");
    // The doc states no maximum of vehicles or days: the service's refusal says (limits.ts).
    rules.vehicles(params.vehicleIds, DOCUMENTED_LIMITS.temperatures.maxVehicles);
    rules.period(params.from, params.to);
    return this.#call("temperatures", this.#vehiclesBody(params), this.#schemas.temperaturesPayload, ctx);
  }

  async loadTransports(params: LoadTransportsParams, ctx: CallContext = {}): Promise<TransportPage> {
    const rules = this.#rules("load-transports");
    rules.check(params.statusIds.length > 0, "empty-list", { subject: "statuses" });
    rules.check(
      params.statusIds.every((id) => Number.isInteger(id)),
      "invalid-status",
    );
    for (const [subject, value] of [
      ["page-size", params.pageSize],
      ["page-index", params.pageIndex],
    ] as const) {
      rules.check(value === undefined || (Number.isInteger(value) && value >= 0), "invalid-paging", {
        subject,
      });
    }
    const body: LoadTransportsRequestBody = {
      statusIds: [...new Set(params.statusIds)].sort((a, b) => a - b),
    };
    if (params.pageSize !== undefined) body.pageSize = params.pageSize;
    if (params.pageIndex !== undefined) body.pageIndex = params.pageIndex;
    if (params.searchValue !== undefined && params.searchValue !== "") body.searchValue = params.searchValue;
    return this.#call("load-transports", body, this.#schemas.loadTransportsPayload, ctx);
  }

  async addTransport(params: AddTransportParams, ctx: CallContext = {}): Promise<boolean> {
    const rules = this.#rules("add-transport");
    rules.required(params.codeUit, "code-uit");
    this.#checkTransportFields(rules, params);
    const body: AddTransportRequestBody = { ...this.#transportBody(params), codeUit: params.codeUit };
    return this.#call("add-transport", body, this.#schemas.booleanPayload, ctx);
  }

  async updateTransport(params: UpdateTransportParams, ctx: CallContext = {}): Promise<boolean> {
    const rules = this.#rules("update-transport");
    rules.required(params.transportUId, "transport-id");
    this.#checkTransportFields(rules, params);
    const body: UpdateTransportRequestBody = {
      transportUId: params.transportUId,
      ...this.#transportBody(params),
    };
    return this.#call("update-transport", body, this.#schemas.booleanPayload, ctx);
  }

  /** Deletes transports by their uId (irreversible). True when the service confirms. */
  async removeTransports(transportUIds: readonly string[], ctx: CallContext = {}): Promise<boolean> {
    this.#rules("remove-transports").nonEmptyTexts(transportUIds, "transport-ids");
    const body: RemoveTransportsRequestBody = { transportsUids: [...transportUIds] };
    const payload = await this.#call("remove-transports", body, this.#schemas.transportActionPayload, ctx);
    // Documented as boolean; the per-item shapes of start/end are accepted too.
    return normalizeTransportActionPayload(payload, transportUIds).every((r) => r.isSuccess);
  }

  async startTransports(
    codeUits: readonly string[],
    ctx: CallContext = {},
  ): Promise<TransportActionResult[]> {
    return this.#transportAction("start-transports", codeUits, ctx);
  }

  async pauseTransports(
    codeUits: readonly string[],
    ctx: CallContext = {},
  ): Promise<TransportActionResult[]> {
    return this.#transportAction("pause-transports", codeUits, ctx);
  }

  async endTransports(codeUits: readonly string[], ctx: CallContext = {}): Promise<TransportActionResult[]> {
    return this.#transportAction("end-transports", codeUits, ctx);
  }

  // ---------- reports needing several calls ----------

  /** Locations for any number of vehicles and any period: 10 vehicles × 31 days per call (documented). */
  async wayAll(params: VehiclesPeriodParams, ctx: CallContext = {}, onProgress?: ProgressListener) {
    const parts = await this.#runPlan("way", params, ctx, onProgress, (call, c) => this.way(call, c));
    return mergeWay(parts);
  }

  /** Stops for any number of vehicles and any period: 10 vehicles per call; the period is cut only once the service refuses it. */
  async stopsAll(params: StopsParams, ctx: CallContext = {}, onProgress?: ProgressListener) {
    const parts = await this.#runPlan("stops", params, ctx, onProgress, (call, c) =>
      this.stops({ ...call, stationaryMarginMinutes: params.stationaryMarginMinutes }, c),
    );
    return mergeStops(parts);
  }

  /** Consumption merged per vehicle over the spans (see mergeConsumptionSpans). */
  async consumptionAll(params: VehiclesPeriodParams, ctx: CallContext = {}, onProgress?: ProgressListener) {
    const parts = await this.#runPlan("consumption", params, ctx, onProgress, (call, c) =>
      this.consumption(call, c),
    );
    return mergeConsumptionSpans(parts.flat());
  }

  /**
   * Exactly one temperatures call (an alert sweep's budget): a refusal of its size teaches the
   * limit, so the next call is planned within it (`FleetClient.plan`), and is thrown, not retried.
   */
  async temperaturesOnce(params: VehiclesPeriodParams, ctx: CallContext = {}): Promise<SensorReadings> {
    try {
      return await this.temperatures(params, ctx);
    } catch (error) {
      this.#lessonFrom(
        "temperatures",
        { vehicleIds: [...params.vehicleIds], from: params.from, to: params.to },
        error,
      );
      throw error;
    }
  }

  /** Temperatures and humidity: one call, until the service refuses the vehicle count or period (learned limits). */
  async temperaturesAll(params: VehiclesPeriodParams, ctx: CallContext = {}, onProgress?: ProgressListener) {
    const parts = await this.#runPlan("temperatures", params, ctx, onProgress, (call, c) =>
      this.temperatures(call, c),
    );
    return mergeTemperatures(parts);
  }

  /**
   * Refill events per vehicle: one vehicle per call; the period is cut only once the service
   * refuses it (the maximum period is not documented). Events of consecutive spans are
   * concatenated in order; the FuelStart, Total* and RemainingFuel events the service
   * computes per call therefore appear once per span.
   */
  async refillsAll(
    params: RefillsAllParams,
    ctx: CallContext = {},
    onProgress?: ProgressListener,
  ): Promise<VehicleRefills[]> {
    const answered = await this.#runCalls(
      "refills",
      this.#planned("refills", params),
      ctx,
      onProgress,
      (call, c) =>
        this.refills({ vehicleId: call.vehicleIds[0] ?? Number.NaN, from: call.from, to: call.to }, c),
    );
    const byVehicle = new Map<number, RefillEvent[]>();
    for (const { call, result } of answered) {
      const id = call.vehicleIds[0] ?? Number.NaN;
      const events = byVehicle.get(id) ?? [];
      events.push(...result);
      byVehicle.set(id, events);
    }
    return [...byVehicle].map(([vehicleId, events]) => ({ vehicleId, events }));
  }

  // ---------- internals ----------

  get #schemas(): FleetSchemas {
    return this.#client.schemas;
  }

  #rules(endpoint: FleetEndpoint): Rules {
    return new Rules(endpoint, this.#client.enforceRequestRules);
  }

  #vehiclesBody(params: VehiclesPeriodParams): WayRequestBody {
    const tz = this.#client.timeZone;
    return {
      vehiclesList: canonicalIds(params.vehicleIds),
      startDate: formatCompanyLocal(params.from, tz),
      endDate: formatCompanyLocal(params.to, tz),
    };
  }

  #checkTransportFields(rules: Rules, params: TransportFields): void {
    rules.required(params.vehicleUId, "vehicle");
    rules.required(params.vatNumber, "vat-number");
    rules.validDate(params.validityStart, "validity-start");
    rules.validDate(params.validityEnd, "validity-end");
    rules.check(params.validityStart.getTime() <= params.validityEnd.getTime(), "period-order", {
      subject: "validity",
    });
    if (params.start) rules.validDate(params.start, "transmission-start");
    if (params.end) rules.validDate(params.end, "transmission-end");
    if (params.start && params.end) {
      rules.check(params.start.getTime() <= params.end.getTime(), "period-order", {
        subject: "transmission",
      });
    }
  }

  /** Transport create/update dates go out in UTC (fleet-api.md, Versioning). */
  #transportBody(params: TransportFields): Omit<AddTransportRequestBody, "codeUit"> {
    const body: Omit<AddTransportRequestBody, "codeUit"> = {
      vehicleUId: params.vehicleUId,
      vatNumber: params.vatNumber,
      validityStartDate: formatUtcIso(params.validityStart),
      validityEndDate: formatUtcIso(params.validityEnd),
    };
    if (params.start) body.startDate = formatUtcIso(params.start);
    if (params.end) body.endDate = formatUtcIso(params.end);
    if (params.notes !== undefined) body.notes = params.notes;
    if (params.startLocation !== undefined) body.startLocation = params.startLocation;
    if (params.endLocation !== undefined) body.endLocation = params.endLocation;
    if (params.trailer1Code !== undefined) body.trailer1Code = params.trailer1Code;
    if (params.trailer2Code !== undefined) body.trailer2Code = params.trailer2Code;
    return body;
  }

  async #transportAction(
    endpoint: "start-transports" | "pause-transports" | "end-transports",
    codeUits: readonly string[],
    ctx: CallContext,
  ): Promise<TransportActionResult[]> {
    this.#rules(endpoint).nonEmptyTexts(codeUits, "uits");
    const body: TransportsByUitRequestBody = { transports: codeUits.map((codeUit) => ({ codeUit })) };
    const schema = this.#schemas.transportActionPayload;
    // With per-UIT results, a partly failed call (isSuccess false) still says which UITs
    // moved; those results are returned. A bare false (no per-UIT detail) stays an error.
    const perUitOnFailure = (payload: unknown) => {
      const parsed = schema.safeParse(payload);
      return parsed.success && typeof parsed.data !== "boolean" ? parsed.data : undefined;
    };
    const payload = await this.#call(endpoint, body, schema, ctx, perUitOnFailure);
    return normalizeTransportActionPayload(payload, codeUits);
  }

  #planned(endpoint: SplittableEndpoint, params: VehiclesPeriodParams): PlannedCall[] {
    const rules = this.#rules(endpoint);
    rules.vehicles(params.vehicleIds, undefined);
    rules.period(params.from, params.to);
    return this.#client.plan(endpoint, params);
  }

  async #runPlan<T>(
    endpoint: SplittableEndpoint,
    params: VehiclesPeriodParams,
    ctx: CallContext,
    onProgress: ProgressListener | undefined,
    runOne: (call: PlannedCall, ctx: CallContext) => Promise<T>,
  ): Promise<T[]> {
    const answered = await this.#runCalls(endpoint, this.#planned(endpoint, params), ctx, onProgress, runOne);
    return answered.map((a) => a.result);
  }

  /**
   * Runs the planned calls one after another (each through the gate); stops when ctx.signal
   * aborts. A 400 refusing a call as too large (vehicle count or period) teaches the client a
   * tighter limit: it is stored, this call and every call still to run are cut by it, and the
   * total reported to `onProgress` grows by the added calls. Answers come back in call order.
   */
  async #runCalls<T>(
    endpoint: SplittableEndpoint,
    plan: readonly PlannedCall[],
    ctx: CallContext,
    onProgress: ProgressListener | undefined,
    runOne: (call: PlannedCall, ctx: CallContext) => Promise<T>,
  ): Promise<Array<{ call: PlannedCall; result: T }>> {
    const context: CallContext = { ...ctx, priority: ctx.priority ?? "report" };
    const answered: Array<{ call: PlannedCall; result: T }> = [];
    let pending = [...plan];
    onProgress?.(0, pending.length);
    for (let call = pending[0]; call !== undefined; call = pending[0]) {
      context.signal?.throwIfAborted();
      try {
        answered.push({ call, result: await runOne(call, context) });
        pending.shift();
      } catch (error) {
        const limits = this.#lessonFrom(endpoint, call, error);
        if (limits === undefined) throw error;
        const replanned = pending.flatMap((c) => planCalls(c, limits, this.#client.timeZone));
        // A lesson always cuts the refused call; if it did not, retrying would loop.
        if (planCalls(call, limits, this.#client.timeZone).length < 2) throw error;
        pending = replanned;
      }
      onProgress?.(answered.length, answered.length + pending.length);
    }
    return answered;
  }

  /** The limits in force after a refusal of `call` that points at its size, or undefined. */
  #lessonFrom(endpoint: SplittableEndpoint, call: PlannedCall, error: unknown): CallLimits | undefined {
    if (!(error instanceof BadRequestError)) return undefined;
    const refusal = readLimitRefusal(error.failureReasons);
    const lesson = refusal && limitAfterRefusal(refusal, call);
    if (lesson === undefined) return undefined;
    const limits = this.#client.limits.learn(endpoint, lesson);
    log.warn(
      {
        account: this.account,
        endpoint,
        refused: {
          vehicles: call.vehicleIds.length,
          days: (call.to.getTime() - call.from.getTime()) / DAY_MS,
        },
        learned: this.#client.limits.learned(endpoint),
        correlationId: error.correlationId,
      },
      "fleet service refused a request as too large; splitting it and remembering the limit",
    );
    return limits;
  }

  /**
   * One authenticated call with its 401 policy: a 401 to a token that has expired, or
   * to a token's first 401, invalidates it, logs in again (through the gate) and retries
   * once; a second 401 is an UnauthorizedError (access, or expired when the service says so).
   */
  async #call<S extends z.ZodType>(
    endpoint: FleetEndpoint,
    body: unknown,
    payloadSchema: S,
    ctx: CallContext,
    onFailure?: FailedPayloadReader<S>,
  ): Promise<z.output<S>> {
    const isRead =
      endpoint === "company-vehicles" || endpoint === "load-transports" || VEHICLE_DATA.has(endpoint);
    const shareKey = isRead ? `${endpoint} ${canonicalJson(body ?? null)}` : undefined;
    const call = {
      account: this.account,
      endpoint,
      shareKey,
      history: VEHICLE_DATA.has(endpoint),
      context: ctx,
    };
    // Without any token (first use, or one refused), the login queues as a call of its own at this
    // call's priority. A token that is merely due is renewed in the slot of whichever call of the
    // account is first to be sent (#send): under a backlog a login queued behind the other calls
    // would let the old token expire under them.
    // A link whose password the service has replaced since asks nothing more, token or not.
    await this.#tokens.assertCurrentPassword(endpoint);
    if (!this.#tokens.current()) await this.#tokens.token(ctx);
    const logins: SlotLogins = { made: 0, refused: 0 };
    let retried = false;
    for (;;) {
      try {
        return await this.#client.gate.run(call, () =>
          this.#send(endpoint, body, payloadSchema, ctx, logins, onFailure),
        );
      } catch (error) {
        if (!(error instanceof TokenRejected)) throw error;
        // Worth a new login when the token may be the problem: past its expiry by our clock,
        // its first 401 ever, the service says so (WWW-Authenticate invalid_token), or another
        // call already dropped it (a revoked token then 401s every call queued behind it).
        const mayBeExpired =
          error.token.isExpired(this.#client.now()) ||
          error.rejections === 1 ||
          error.tokenExpiredPerService ||
          this.#tokens.current() !== error.token;
        if (retried || !mayBeExpired) {
          const reason = error.tokenExpiredPerService && !VEHICLE_SCOPED.has(endpoint) ? "expired" : "access";
          throw new UnauthorizedError(endpoint, reason, {
            correlationId: error.envelope?.correlationId,
            failureReasons: error.envelope?.failureReasons ?? [],
          });
        }
        log.info(
          { account: this.account, endpoint },
          "fleet token refused; logging in again and retrying once",
        );
        this.#tokens.invalidate(error.token);
        await this.#tokens.token(ctx);
        retried = true;
      }
    }
  }

  /**
   * The `send` the gate runs: one HTTP request, its answer parsed or mapped to an error. The token
   * is read here, when the slot has come, not when the call was queued: one due for renewal
   * (past its renewal time, or gone) is renewed first, in this slot (SlotSpentOnLogin: the gate
   * sends this call in the next slot, from its place).
   */
  async #send<S extends z.ZodType>(
    endpoint: FleetEndpoint,
    body: unknown,
    payloadSchema: S,
    ctx: CallContext,
    logins: SlotLogins,
    onFailure: FailedPayloadReader<S> | undefined,
  ): Promise<z.output<S>> {
    // Checked again when the slot comes: the password may have changed while the call waited.
    await this.#tokens.assertCurrentPassword(endpoint);
    let token = this.#tokens.current();
    if (!token?.isReusable(this.#client.now()) && logins.made < SLOT_LOGINS_PER_CALL) {
      logins.made += 1;
      let renewed: { token: AccessToken; sent: boolean };
      try {
        renewed = await this.#tokens.loginInSlot(ctx);
      } catch (error) {
        // A passing refusal of a person's work is tried once more, in this call's next slot.
        if (!(error instanceof UnauthorizedError) || error.reason !== "login") throw error;
        if (logins.refused > 0 || !this.#tokens.retriesRefusedLogin(ctx)) throw error;
        logins.refused += 1;
        log.warn({ account: this.account }, "fleet login refused; trying once more before giving up");
        throw new SlotSpentOnLogin();
      }
      logins.last = renewed.token;
      if (renewed.sent) throw new SlotSpentOnLogin();
      token = renewed.token;
    }
    // Logins spent (a token shorter-lived than a slot): the last one; a 401 to it logs in again.
    token ??= logins.last;
    if (!token) throw new UnauthorizedError(endpoint, "expired", {});
    const headers: Record<string, string> = { authorization: token.authorization() };
    if (body !== undefined) headers["content-type"] = "application/json";
    const answer = await this.#client.exchange(
      endpoint,
      body === undefined ? "GET" : "POST",
      headers,
      body === undefined ? undefined : JSON.stringify(body),
    );
    if (answer.status === 401) {
      const challenge = headerValue(answer.headers, "www-authenticate") ?? "";
      throw new TokenRejected(
        token,
        token.recordRejection(),
        /invalid_token|expired/i.test(challenge),
        tryEnvelope(answer.text),
      );
    }
    if (answer.status === 403) {
      const envelope = tryEnvelope(answer.text);
      throw new UnauthorizedError(endpoint, "access", {
        status: 403,
        correlationId: envelope?.correlationId,
        failureReasons: envelope?.failureReasons ?? [],
      });
    }
    this.#client.throwForCommonStatus(endpoint, answer);
    return parseAnswer(endpoint, answer, payloadSchema, onFailure);
  }
}

const VEHICLE_DATA: ReadonlySet<FleetEndpoint> = new Set([
  "way",
  "stops",
  "consumption",
  "refills",
  "temperatures",
]);

/** Reads a usable payload out of an isSuccess-false answer, or undefined to make it an error. */
type FailedPayloadReader<S extends z.ZodType> = (payload: unknown) => z.output<S> | undefined;

/** Envelope, then payload: isSuccess false is an ApplicationFailureError; shape errors are "malformed". */
function parseAnswer<S extends z.ZodType>(
  endpoint: FleetEndpoint,
  answer: RawAnswer,
  payloadSchema: S,
  onFailure?: FailedPayloadReader<S>,
): z.output<S> {
  const json = normalizeKeys(parseJsonText(endpoint, answer));
  const envelope = envelopeSchema.safeParse(json);
  if (!envelope.success) {
    throw new UpstreamTransportError(
      endpoint,
      "malformed",
      `answer is not the documented envelope: ${describeZodError(envelope.error)}`,
      { status: answer.status },
    );
  }
  const { isSuccess, payload, correlationId, failureReasons } = envelope.data;
  if (!isSuccess) {
    // "the response carries error code 401" (stops, refills, temperatures) may come inside the envelope.
    if (failureReasons.some(isUnauthorizedCode)) {
      throw new UnauthorizedError(endpoint, "access", {
        status: answer.status,
        correlationId,
        failureReasons,
      });
    }
    const partial = onFailure?.(payload);
    if (partial !== undefined) {
      log.info({ endpoint, correlationId, failureReasons }, "fleet call partly failed");
      return partial;
    }
    throw new ApplicationFailureError(endpoint, failureReasons, correlationId, answer.status);
  }
  if (payload === undefined || payload === null) {
    throw new UpstreamTransportError(endpoint, "malformed", "isSuccess true but no payload", {
      status: answer.status,
      correlationId,
    });
  }
  const parsed = payloadSchema.safeParse(payload);
  if (!parsed.success) {
    throw new UpstreamTransportError(
      endpoint,
      "malformed",
      `payload does not match: ${describeZodError(parsed.error)}`,
      { status: answer.status, correlationId },
    );
  }
  return parsed.data;
}
