import { inspect } from "node:util";
import { logger } from "../log.js";
import { UnauthorizedError } from "./errors.js";
import type { AcceptedPasswords } from "./passwords.js";
import type { LoginResponse } from "./schemas.js";
import type { CallContext, CallGate, FleetEndpoint } from "./seam.js";

const log = logger.child({ module: "fleet.tokens" });

/**
 * An access token of one account. The token text lives in a private field and is only
 * handed out as an Authorization header value; toString, JSON and util.inspect show
 * its expiry only, so a token logged by mistake leaks nothing.
 */
export class AccessToken {
  readonly #value: string;
  readonly account: string;
  readonly obtainedAt: Date;
  /** obtainedAt + expires_in of the login answer. */
  readonly expiresAt: Date;
  /** When callers stop reusing it and log in again (expiresAt minus the refresh margin). */
  readonly renewAt: Date;
  readonly scopes: readonly string[];
  #rejections = 0;

  constructor(
    account: string,
    value: string,
    obtainedAt: Date,
    expiresInSeconds: number,
    marginMs: number,
    scope?: string,
  ) {
    this.#value = value;
    this.account = account;
    this.obtainedAt = obtainedAt;
    const lifetimeMs = expiresInSeconds * 1000;
    this.expiresAt = new Date(obtainedAt.getTime() + lifetimeMs);
    // A margin larger than half the lifetime (short-lived test tokens) would make the
    // token useless; cap it there.
    this.renewAt = new Date(this.expiresAt.getTime() - Math.min(marginMs, lifetimeMs / 2));
    this.scopes = scope ? scope.split(/\s+/).filter(Boolean) : [];
  }

  /** The token as replicas share it (SharedTokens): its text leaves only this way and as a header. */
  shareable(): SharedToken {
    return {
      value: this.#value,
      obtainedAtMs: this.obtainedAt.getTime(),
      expiresInSeconds: (this.expiresAt.getTime() - this.obtainedAt.getTime()) / 1000,
      ...(this.scopes.length > 0 ? { scope: this.scopes.join(" ") } : {}),
    };
  }

  /** The Authorization header value. fleet-api.md leaves the header unnamed; every known client uses Bearer. */
  authorization(): string {
    return `Bearer ${this.#value}`;
  }

  /** Records a 401 answered to this token; returns how many it has had, this one included. */
  recordRejection(): number {
    this.#rejections += 1;
    return this.#rejections;
  }

  get rejections(): number {
    return this.#rejections;
  }

  isExpired(nowMs: number): boolean {
    return nowMs >= this.expiresAt.getTime();
  }

  isReusable(nowMs: number): boolean {
    return nowMs < this.renewAt.getTime();
  }

  toString(): string {
    return `AccessToken(${this.account}, expires ${this.expiresAt.toISOString()})`;
  }

  toJSON(): { account: string; expiresAt: string } {
    return { account: this.account, expiresAt: this.expiresAt.toISOString() };
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

/** An access token as replicas share it: what a login answered, and when. */
export interface SharedToken {
  value: string;
  obtainedAtMs: number;
  expiresInSeconds: number;
  scope?: string;
}

/**
 * Where replicas of one deployment keep each account's access token (Redis), so that a replica
 * which has not logged in yet, or whose token is due, takes the one another replica got instead
 * of spending a call (one slot of the account) on a login of its own.
 */
export interface SharedTokens {
  /**
   * The account's token, only when it was obtained with this same password: a session whose
   * password is outdated (changed to revoke access) gets none and must log in itself.
   */
  load(account: string, password: string): Promise<SharedToken | undefined>;
  /** Kept until the token expires, bound to the password it was obtained with. */
  save(account: string, password: string, token: SharedToken): Promise<void>;
  /** Forgets the account's token when it is still this one (the service refused it). */
  drop(account: string, value: string): Promise<void>;
  /** Forgets the account's token whatever it is (nobody links the account any more). */
  forget?(account: string): Promise<void>;
}

/** A call or login of an account fleetbot let go of (TokenManager.release): nothing was sent. */
export class AccountReleasedError extends Error {
  constructor(readonly account: string) {
    super("The fleet account is no longer used here; nothing was sent.");
    this.name = "AccountReleasedError";
  }
}

export interface TokenManagerOptions {
  account: string;
  password: string;
  gate: CallGate;
  /** Performs the login HTTP request (called inside the gate). */
  sendLogin: (username: string, password: string) => Promise<LoginResponse>;
  /** Log in again this long before expiry; default 60 s (capped at half the token lifetime). */
  refreshMarginMs?: number;
  now?: () => number;
  /**
   * Stored credentials (default): one refused login is tried once more, a slot later, before the
   * refusal is final: a passing 401 must not fail a user's task. Off for credentials someone
   * offers (a link attempt), where a refusal is the answer.
   */
  retryRefusedLogin?: boolean;
  /**
   * Replicas: the account's token as another replica got it, tried before logging in, and where
   * a new one is kept. Never for credentials someone offers: their login is the check.
   */
  shared?: SharedTokens;
  /**
   * Which password of each account the service accepted last: every login this manager gets
   * through is recorded there, and (unless `offered`) a password the service has replaced since
   * is refused here, token or not, without sending anything.
   */
  passwords?: AcceptedPasswords;
  /** Credentials someone offers now (a link attempt): their own login decides, even for an old password. */
  offered?: boolean;
}

/** A 401/403 to the login itself (wrong or changed password, or a passing refusal). */
function isRefusedLogin(error: unknown): boolean {
  return error instanceof UnauthorizedError && error.reason === "login";
}

/**
 * After a refused login, how long alert sweeps wait before one try of their own: alerts are why
 * fleetbot runs (a passing refusal must not silence them for good), but a sweep every few
 * minutes with a dead password would repeat refused logins that can get the account locked
 * upstream. Upkeep never tries again by itself.
 */
export const ALERT_LOGIN_RETRY_MS = 30 * 60_000;

/**
 * Whether work nobody is waiting on may log in with credentials whose last login was refused
 * `sinceMs` ago: upkeep (background) never, an alert sweep once per ALERT_LOGIN_RETRY_MS, a
 * person's work always (it is told the refusal).
 */
function mayRetryRefused(ctx: CallContext, sinceMs: number): boolean {
  if (ctx.priority === "background") return false;
  if (ctx.priority === "alert") return sinceMs >= ALERT_LOGIN_RETRY_MS;
  return true;
}

/** Work nobody is waiting on (upkeep, alert sweeps): its refused login is not tried twice in a row. */
function isUnattended(ctx: CallContext): boolean {
  return ctx.priority === "background" || ctx.priority === "alert";
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}

/** Waits for `promise`, but gives up (rejects) when `signal` aborts; the promise itself runs on. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

/** A login waiting in the gate, withdrawn (and answered with `overtakenBy`) when a call's slot logs in first. */
interface QueuedLogin {
  withdraw: AbortController;
  overtakenBy?: Promise<AccessToken>;
}

/**
 * The access token of one fleet account: logs in through the gate when needed, reuses
 * the token until shortly before expires_in runs out, and lets concurrent callers share
 * one login. The password stays in a private field.
 */
export class TokenManager {
  readonly account: string;
  readonly #password: string;
  readonly #gate: CallGate;
  readonly #sendLogin: TokenManagerOptions["sendLogin"];
  readonly #retryRefusedLogin: boolean;
  readonly #marginMs: number;
  readonly #now: () => number;
  readonly #shared: SharedTokens | undefined;
  readonly #passwords: AcceptedPasswords | undefined;
  #offered: boolean;
  #current: AccessToken | undefined;
  #pending: Promise<AccessToken> | undefined;
  /**
   * A login waiting in the gate as a call of its own (renew), and, once a call's slot logged in
   * ahead of it (loginInSlot), that login: the queued one is withdrawn and answers with it.
   */
  #queuedLogin: QueuedLogin | undefined;
  /** A look into the shared store under way: concurrent callers (a burst of lookups) share it. */
  #taking: Promise<AccessToken | undefined> | undefined;
  /** The value of the last token dropped here (refused), so it is not taken from the shared store again. */
  #rejectedValue: string | undefined;
  /** When the last login with this password was refused (undefined: it was not). */
  #loginRefusedAt: number | undefined;
  /** Let go of (nobody links the account any more): nothing is sent with these credentials again. */
  #released = false;

  constructor(options: TokenManagerOptions) {
    this.account = options.account;
    this.#password = options.password;
    this.#gate = options.gate;
    this.#sendLogin = options.sendLogin;
    this.#retryRefusedLogin = options.retryRefusedLogin ?? true;
    this.#marginMs = options.refreshMarginMs ?? 60_000;
    this.#now = options.now ?? Date.now;
    this.#shared = options.shared;
    this.#passwords = options.passwords;
    this.#offered = options.offered ?? false;
  }

  /**
   * Throws when the service has accepted a newer password of this account since this one (someone
   * linked it again after a change): the carrier changed it to cut this link off, so nothing is
   * sent or answered with it, not even with a token that has not expired.
   */
  async assertCurrentPassword(endpoint: FleetEndpoint = "login"): Promise<void> {
    if (!(await this.passwordSuperseded())) return;
    this.#current = undefined;
    throw new UnauthorizedError(endpoint, "password-changed", { status: 401 });
  }

  /** Whether the service has accepted a newer password of this account since this one. */
  async passwordSuperseded(): Promise<boolean> {
    return (
      !this.#offered && !!this.#passwords && (await this.#passwords.superseded(this.account, this.#password))
    );
  }

  /** True when both managers log in with the same password. */
  samePassword(other: TokenManager): boolean {
    return other.hasPassword(this.#password);
  }

  /** Offered credentials that proved good and are kept from now on: an outdated password is refused. */
  settle(): void {
    this.#offered = false;
  }

  /** True when `password` is the one this manager logs in with (to notice changed credentials). */
  hasPassword(password: string): boolean {
    return this.#password === password;
  }

  /**
   * True after the service refused this password's login, until a login a person asked for
   * succeeds: background work (upkeep, alert sweeps) does not log in with it meanwhile.
   */
  get loginRefused(): boolean {
    return this.#loginRefusedAt !== undefined;
  }

  /**
   * A token to send now: the cached one while reusable, else one another replica keeps (when
   * shared), else a new login that concurrent callers share.
   */
  async token(ctx: CallContext = {}): Promise<AccessToken> {
    await this.assertCurrentPassword();
    const current = this.#current;
    if (current?.isReusable(this.#now())) return current;
    if (ctx.signal?.aborted) throw abortReason(ctx.signal);
    if (this.#shared && !this.#pending) {
      if (!this.#taking) {
        const taking = this.#takeShared(this.#shared).finally(() => {
          if (this.#taking === taking) this.#taking = undefined;
        });
        this.#taking = taking;
      }
      const kept = await untilAborted(this.#taking, ctx.signal);
      if (kept) {
        this.#current = kept;
        return kept;
      }
    }
    return this.renew(ctx);
  }

  /** True when the next call must log in first (no token, or one past its reuse time): estimates count it. */
  needsLogin(): boolean {
    return !this.#current?.isReusable(this.#now());
  }

  /** The cached token while it has not expired (even inside the margin), without logging in. */
  current(): AccessToken | undefined {
    if (this.#released) return undefined;
    const current = this.#current;
    return current && !current.isExpired(this.#now()) ? current : undefined;
  }

  /**
   * Logs in now (for a background refresher, or to verify credentials), never taking a shared
   * token: the login is the point. Its token is shared. A login already under way is joined
   * instead of starting a second one.
   */
  renew(ctx: CallContext = {}): Promise<AccessToken> {
    if (!this.#passwords || this.#offered) return this.#renew(ctx);
    // An outdated password logs in no more: each try would be a wrong password against the account.
    return this.assertCurrentPassword().then(() => this.#renew(ctx));
  }

  #renew(ctx: CallContext): Promise<AccessToken> {
    // A cancelled caller starts nothing: a login queued for nobody would spend a slot.
    if (ctx.signal?.aborted) return Promise.reject(abortReason(ctx.signal));
    const refusedAt = this.#loginRefusedAt;
    if (refusedAt !== undefined && !mayRetryRefused(ctx, this.#now() - refusedAt)) {
      // Answered here, without a login: these credentials wait for a person (a re-link, a command).
      return Promise.reject(new UnauthorizedError("login", "login", { status: 401 }));
    }
    if (!this.#pending) {
      // The shared login must not die with the first caller's signal: other callers wait on it.
      const queued: QueuedLogin = { withdraw: new AbortController() };
      const loginContext: CallContext = {
        priority: ctx.priority ?? "interactive",
        taskId: ctx.taskId,
        signal: queued.withdraw.signal,
      };
      const login = () =>
        this.#gate
          .run({ account: this.account, endpoint: "login", context: loginContext }, () =>
            this.#loginRequest(),
          )
          .catch((error: unknown) => {
            // Withdrawn: a call's slot logged in first (loginInSlot); its token answers here too.
            if (queued.overtakenBy) return queued.overtakenBy;
            throw error;
          });
      // A passing 401 must not fail a person's task; unattended work gives up at the first refusal.
      const retry = this.retriesRefusedLogin(ctx);
      this.#queuedLogin = queued;
      this.#pending = this.#keepLogin(
        login()
          .catch((error: unknown) => {
            if (!retry || !isRefusedLogin(error) || queued.overtakenBy) throw error;
            log.warn({ account: this.account }, "fleet login refused; trying once more before giving up");
            return login();
          })
          .finally(() => {
            if (this.#queuedLogin === queued) this.#queuedLogin = undefined;
          }),
      );
    }
    return untilAborted(this.#pending, ctx.signal);
  }

  /**
   * The login of a call that holds the account's slot in the gate and found the token due
   * (past its renewal time, or gone): sent at once, not through the gate (the slot is the
   * caller's), so the old token is replaced before it can expire under the calls queued behind.
   * Callers of token() meanwhile share it. A token another replica keeps is taken instead when
   * there is one (`sent` false: no request made, the slot is still the caller's for its call).
   * A refused login throws; whether to try once more, a slot later, is retriesRefusedLogin's.
   */
  async loginInSlot(ctx: CallContext = {}): Promise<{ token: AccessToken; sent: boolean }> {
    await this.assertCurrentPassword();
    const refusedAt = this.#loginRefusedAt;
    if (refusedAt !== undefined && !mayRetryRefused(ctx, this.#now() - refusedAt)) {
      throw new UnauthorizedError("login", "login", { status: 401 });
    }
    if (this.#shared) {
      const kept = await this.#takeShared(this.#shared);
      if (kept) {
        this.#current = kept;
        return { token: kept, sent: false };
      }
    }
    const login = this.#keepLogin(this.#loginRequest());
    this.#pending = login;
    const token = await login;
    // A login still waiting in the gate would be a second one: withdrawn, it answers with this.
    // (Not after a refusal: the queued one is then still a try of its own.)
    const queued = this.#queuedLogin;
    if (queued && !queued.overtakenBy) {
      queued.overtakenBy = login;
      queued.withdraw.abort();
    }
    return { token, sent: true };
  }

  /** Whether a refused login of this caller is tried once more, a slot later (a person's work, stored credentials). */
  retriesRefusedLogin(ctx: CallContext): boolean {
    return this.#retryRefusedLogin && !isUnattended(ctx);
  }

  /**
   * Lets go of the account (no link, workspace account or subscription uses it any more, e.g. its
   * workspace uninstalled fleetbot): the token is forgotten, and every session still holding this
   * manager (upkeep mid-tick, a fetch or login waiting in the gate) fails without a request.
   */
  release(): void {
    this.#released = true;
    this.#current = undefined;
  }

  /** True once released: nothing more is sent with these credentials. */
  get released(): boolean {
    return this.#released;
  }

  /** One login request, sent now (the caller holds the account's slot). */
  async #loginRequest(): Promise<AccessToken> {
    if (this.#released) throw new AccountReleasedError(this.account);
    const startedAt = this.#now();
    const answer = await this.#sendLogin(this.account, this.#password);
    // Released while the login was out: its token is neither kept nor shared.
    if (this.#released) throw new AccountReleasedError(this.account);
    return this.#tokenOf({
      value: answer.access_token,
      obtainedAtMs: startedAt,
      expiresInSeconds: answer.expires_in,
      ...(answer.scope ? { scope: answer.scope } : {}),
    });
  }

  /** Records a login's outcome: its token becomes the current one (and shared), or its refusal is noted. */
  #keepLogin(login: Promise<AccessToken>): Promise<AccessToken> {
    const pending: Promise<AccessToken> = login
      .catch((error: unknown) => {
        if (isRefusedLogin(error)) this.#loginRefusedAt = this.#now();
        throw error;
      })
      .then(async (token) => {
        this.#loginRefusedAt = undefined;
        // Recorded before anyone uses the token: from now on an older password reads nothing.
        await this.#passwords
          ?.accepted(this.account, this.#password, token.obtainedAt.getTime())
          .catch((error: unknown) => {
            log.warn(
              { account: this.account, err: error },
              "the accepted fleet password could not be recorded",
            );
          });
        this.#share(token);
        this.#current = token;
        log.debug({ account: this.account, expiresAt: token.expiresAt.toISOString() }, "fleet login ok");
        return token;
      })
      .finally(() => {
        if (this.#pending === pending) this.#pending = undefined;
      });
    // Each caller hears the outcome through its own chain; the shared promise itself may outlive
    // them all (every caller cancelled), and an unheard rejection would end the process.
    pending.catch(() => undefined);
    return pending;
  }

  /**
   * The token another replica keeps, while it is one this replica would reuse (and not one
   * refused here). The shared store is a help, not a need: when it cannot be read, the caller
   * logs in.
   */
  async #takeShared(shared: SharedTokens): Promise<AccessToken | undefined> {
    if (this.#released) return undefined;
    const kept = await shared.load(this.account, this.#password).catch((error: unknown) => {
      log.warn({ account: this.account, err: error }, "shared fleet token could not be read; logging in");
      return undefined;
    });
    if (!kept || kept.value === this.#rejectedValue) return undefined;
    const token = this.#tokenOf(kept);
    return token.isReusable(this.#now()) ? token : undefined;
  }

  /** A token as a login answered it, here or on another replica. */
  #tokenOf(token: SharedToken): AccessToken {
    return new AccessToken(
      this.account,
      token.value,
      new Date(token.obtainedAtMs),
      token.expiresInSeconds,
      this.#marginMs,
      token.scope,
    );
  }

  /** Keeps a new login's token for the other replicas; when that fails, this replica keeps it to itself. */
  #share(token: AccessToken): void {
    this.#shared?.save(this.account, this.#password, token.shareable()).catch((error: unknown) => {
      log.warn(
        { account: this.account, err: error },
        "fleet token could not be shared with the other replicas",
      );
    });
  }

  /**
   * Forgets the token, so the next call logs in. With `token`, only when it is still the
   * current one: a late 401 of an old token must not throw away a newer one. A refused token is
   * also dropped from the shared store, where other replicas would take it.
   */
  invalidate(token?: AccessToken): void {
    if (token === undefined || this.#current === token) {
      const dropped = this.#current;
      this.#current = undefined;
      if (dropped && this.#shared) {
        this.#rejectedValue = dropped.shareable().value;
        this.#shared.drop(this.account, this.#rejectedValue).catch((error: unknown) => {
          log.warn(
            { account: this.account, err: error },
            "refused fleet token could not be dropped for the other replicas",
          );
        });
      }
    }
  }

  /** Expiry of the cached token (undefined when none), so a refresher can renew ahead of it. */
  expiresAt(): Date | undefined {
    return this.#current?.expiresAt;
  }

  /** When the cached token stops being reused. */
  renewAt(): Date | undefined {
    return this.#current?.renewAt;
  }

  toString(): string {
    return `TokenManager(${this.account})`;
  }

  toJSON(): { account: string; expiresAt: string | undefined } {
    return { account: this.account, expiresAt: this.#current?.expiresAt.toISOString() };
  }

  [inspect.custom](): string {
    return this.toString();
  }
}
