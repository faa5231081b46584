import { type Priority, SlotSpentOnLogin, type UpstreamCall } from "../fleet/seam.js";
import {
  type AccountGate,
  CallCancelledError,
  type GateOptions,
  type GateSchedule,
  PRIORITY_RANK,
  REPORT_ANSWER_REUSE_MS,
  type WaitingCall,
} from "./gate.js";

/** Report answers kept per account for reuse: a burst of distinct reports holds no more than these. */
const RECENT_ANSWERS_KEPT = 16;

/** How long an account's state outlives its last use (every username tried at /fleet login has one). */
export const IDLE_ACCOUNT_MS = 60 * 60_000;

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Reads the globals at call time so vitest's fake timers apply. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** The memory gate keeps time by a clock of its own (a VirtualClock in tests and benchmarks). */
export interface MemoryGateOptions extends GateOptions {
  clock?: Clock;
}

interface Waiter<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
  signal?: AbortSignal;
  onAbort?: () => void;
  taskId?: string;
}

interface Entry {
  seq: number;
  call: UpstreamCall;
  priority: Priority;
  enqueuedAt: number;
  send: () => Promise<unknown>;
  waiters: Waiter<unknown>[];
  /** Its account was let go of (forgetAccount) while it was out: it is not sent again. */
  forgotten?: boolean;
}

interface AccountState {
  waiting: Entry[];
  running?: { entry: Entry; startedAt: number };
  /** Start of the last call sent (start-to-start spacing). */
  lastStartAt?: number;
  /** Set by a 429: nothing starts before this instant. */
  blockedUntil: number;
  consecutive429: number;
  extraMarginMs: number;
  /** Clean answers since the margin was last widened. */
  cleanSinceWidened: number;
  /** Answers of shareable report calls, by shareKey, oldest first, while they may be reused. */
  recent: Map<string, { value: unknown; at: number; history: boolean }>;
  /** Last call asked for or answered: idle accounts are forgotten after idleAccountMs. */
  usedAt: number;
  timer?: unknown;
  timerAt?: number;
}

/**
 * The per-account gate of the embedded mode: one call in flight per account, starts at
 * least one interval apart, served by priority then arrival, identical waiting calls
 * shared, 429s pushed back and retried. All state lives in this object, so a Redis gate
 * can replace it behind the same interface (DESIGN.md, "Tasks and the gate").
 */
export class MemoryGate implements AccountGate {
  private readonly accounts = new Map<string, AccountState>();
  private readonly clock: Clock;
  private readonly safetyMarginMs: number;
  private readonly marginStepMs: number;
  private readonly maxExtraMarginMs: number;
  private readonly marginRecoveryCalls: number;
  private readonly idleAccountMs: number;
  private seq = 0;
  private closed = false;
  private drainWaiters: (() => void)[] = [];
  /** When idle accounts were last looked for (a pass over all accounts, at most every idleAccountMs / 4). */
  private sweptAt: number;

  constructor(private readonly options: MemoryGateOptions) {
    this.clock = options.clock ?? systemClock;
    this.safetyMarginMs = options.safetyMarginMs ?? 0;
    this.marginStepMs = options.marginStepMs ?? Math.max(250, Math.round(options.minIntervalMs / 10));
    this.maxExtraMarginMs = options.maxExtraMarginMs ?? options.minIntervalMs;
    this.marginRecoveryCalls = options.marginRecoveryCalls ?? 10;
    this.idleAccountMs = options.idleAccountMs ?? IDLE_ACCOUNT_MS;
    this.sweptAt = this.clock.now();
  }

  slotMs(account: string): number {
    const state = this.accounts.get(account);
    return this.options.minIntervalMs + this.safetyMarginMs + (state?.extraMarginMs ?? 0);
  }

  run<T>(call: UpstreamCall, send: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error("The request gate is closed."));
    const signal = call.context.signal;
    if (signal?.aborted) return Promise.reject(new CallCancelledError(call.endpoint));
    this.forgetIdleAccounts();
    const state = this.state(call.account);
    state.usedAt = this.clock.now();
    const priority = call.context.priority ?? "interactive";

    // The same report question answered shortly before is answered again from that answer: ten
    // identical reports typed a second apart cost the calls of one (see REPORT_ANSWER_REUSE_MS).
    // Only for reports (history over a period that ends at a whole minute): lookups, alert sweeps
    // and transport lists want the service's state now.
    const recent =
      call.shareKey === undefined || priority !== "report" ? undefined : state.recent.get(call.shareKey);
    if (recent && this.clock.now() - recent.at <= this.keepMs(call.account, recent.history)) {
      this.options.observer?.callShared?.(call);
      return Promise.resolve(recent.value as T);
    }

    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter<T> = { resolve, reject, signal, taskId: call.context.taskId };
      // An identical call waiting, or already under way (its answer is from this moment),
      // serves this caller too: no second slot spent on the same question.
      const shared =
        call.shareKey === undefined
          ? undefined
          : (state.waiting.find((e) => e.call.shareKey === call.shareKey) ??
            (state.running?.entry.call.shareKey === call.shareKey ? state.running.entry : undefined));
      let entry: Entry;
      if (shared) {
        entry = shared;
        // The shared call is served at the most urgent priority among those who wait for it.
        if (PRIORITY_RANK[priority] < PRIORITY_RANK[entry.priority]) entry.priority = priority;
      } else {
        entry = {
          seq: this.seq++,
          call,
          priority,
          enqueuedAt: this.clock.now(),
          send,
          waiters: [],
        };
        insertWaiting(state.waiting, entry);
      }
      entry.waiters.push(waiter as Waiter<unknown>);
      // A shared entry may have been raised to a more urgent class: move it to its place.
      if (shared) repositionWaiting(state.waiting, entry);
      if (signal) {
        waiter.onAbort = () => this.abandon(call.account, entry, waiter as Waiter<unknown>);
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.pump(call.account);
    });
  }

  async schedule(account: string): Promise<GateSchedule> {
    // A look does not create state: an account nobody calls for keeps none.
    const state = this.accounts.get(account) ?? newAccountState(this.clock.now());
    const slotMs = this.slotMs(account);
    const now = this.clock.now();
    const nextSlotAt = this.nextStartAt(state, now);
    // While a call runs, the next one cannot start before it ends; its end is unknown,
    // so the spacing (start to start) is the best estimate: calls are short beside it.
    const waiting: WaitingCall[] = state.waiting.map((entry, position) => ({
      endpoint: entry.call.endpoint,
      priority: entry.priority,
      taskIds: taskIdsOf(entry),
      position,
      expectedStartAt: nextSlotAt + position * slotMs,
    }));
    return {
      account,
      nextSlotAt,
      slotMs,
      running: state.running && {
        endpoint: state.running.entry.call.endpoint,
        taskIds: taskIdsOf(state.running.entry),
        startedAt: state.running.startedAt,
      },
      waiting,
    };
  }

  /** Calls sent and not yet answered, over all accounts. */
  inFlight(): number {
    let count = 0;
    for (const state of this.accounts.values()) if (state.running) count++;
    return count;
  }

  drained(): Promise<void> {
    if (this.isDrained()) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const [account, state] of this.accounts) {
      if (state.timer !== undefined) this.clock.clearTimeout(state.timer);
      for (const entry of state.waiting.splice(0)) {
        for (const waiter of entry.waiters) this.settle(waiter, new CallCancelledError(entry.call.endpoint));
      }
      this.accounts.delete(account);
    }
    this.notifyDrained();
  }

  async forgetAccount(account: string): Promise<number> {
    const state = this.accounts.get(account);
    if (!state) return 0;
    if (state.timer !== undefined) this.clock.clearTimeout(state.timer);
    state.timer = undefined;
    state.timerAt = undefined;
    let cancelled = 0;
    for (const entry of state.waiting.splice(0)) {
      cancelled++;
      for (const waiter of entry.waiters) this.settle(waiter, new CallCancelledError(entry.call.endpoint));
    }
    if (state.running) state.running.entry.forgotten = true;
    state.recent.clear();
    this.notifyDrained();
    return cancelled;
  }

  /** Accounts whose state the gate holds now (idle ones are forgotten). */
  knownAccounts(): string[] {
    return [...this.accounts.keys()];
  }

  private state(account: string): AccountState {
    let state = this.accounts.get(account);
    if (!state) {
      state = newAccountState(this.clock.now());
      this.accounts.set(account, state);
    }
    return state;
  }

  /**
   * Forgets accounts idle for idleAccountMs: nothing waiting or running, no timer, no 429 block
   * left, and the last start further back than a slot, so a later call of the account is spaced
   * as if the state had been kept. Runs on calls, so the map only grows when it is swept.
   */
  private forgetIdleAccounts(): void {
    const now = this.clock.now();
    if (now - this.sweptAt < this.idleAccountMs / 4) return;
    this.sweptAt = now;
    for (const [account, state] of this.accounts) {
      const idle =
        !state.running &&
        state.waiting.length === 0 &&
        state.timer === undefined &&
        now >= state.blockedUntil &&
        now - state.usedAt >= this.idleAccountMs &&
        (state.lastStartAt === undefined || now - state.lastStartAt >= this.slotMs(account));
      if (idle) {
        this.accounts.delete(account);
        this.options.observer?.accountForgotten?.(account);
      }
    }
  }

  private nextStartAt(state: AccountState, now: number): number {
    const spaced =
      state.lastStartAt === undefined
        ? now
        : state.lastStartAt + this.options.minIntervalMs + this.safetyMarginMs + state.extraMarginMs;
    return Math.max(now, spaced, state.blockedUntil);
  }

  private pump(account: string): void {
    const state = this.accounts.get(account);
    if (!state || this.closed) return;
    if (state.running || state.waiting.length === 0) {
      this.notifyDrained();
      return;
    }
    const now = this.clock.now();
    const startAt = this.nextStartAt(state, now);
    if (startAt > now) {
      if (state.timer !== undefined && state.timerAt === startAt) return;
      if (state.timer !== undefined) this.clock.clearTimeout(state.timer);
      state.timerAt = startAt;
      state.timer = this.clock.setTimeout(() => {
        state.timer = undefined;
        state.timerAt = undefined;
        this.pump(account);
      }, startAt - now);
      return;
    }
    const entry = state.waiting.shift();
    if (!entry) return;
    state.running = { entry, startedAt: now };
    state.lastStartAt = now;
    this.options.observer?.callStarted?.(entry.call, now - entry.enqueuedAt);
    void this.execute(account, state, entry, now);
  }

  private async execute(
    account: string,
    state: AccountState,
    entry: Entry,
    startedAt: number,
  ): Promise<void> {
    let outcome: { ok: true; value: unknown } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, value: await entry.send() };
    } catch (error) {
      outcome = { ok: false, error };
    }
    state.running = undefined;
    state.usedAt = this.clock.now();
    const duration = this.clock.now() - startedAt;
    if (!outcome.ok && outcome.error instanceof SlotSpentOnLogin) {
      // The slot went to the account's login (a fresh token before this call is sent): the
      // call goes back to its own place, first of its class, and is sent in the next slot.
      this.options.observer?.callFinished?.(loginIn(entry.call), "ok", duration, 1);
      this.requeue(state, entry);
      this.pump(account);
      return;
    }
    const retryAfterMs = outcome.ok ? undefined : this.options.rateLimitDelay?.(outcome.error);

    if (retryAfterMs !== undefined) {
      // Someone else used the account's budget (another client, a stricter per-user limit):
      // wait as told, widen the margin, and send the same call again at the head of its class.
      state.consecutive429 += 1;
      state.extraMarginMs = Math.min(this.maxExtraMarginMs, state.extraMarginMs + this.marginStepMs);
      state.cleanSinceWidened = 0;
      state.blockedUntil = this.clock.now() + Math.max(retryAfterMs, this.slotMs(account));
      this.options.observer?.callFinished?.(entry.call, "rate_limited", duration, entry.waiters.length);
      this.options.observer?.rateLimited?.(account, retryAfterMs, state.consecutive429);
      if (state.consecutive429 >= 2) {
        this.options.logger?.warn(
          { account, consecutive: state.consecutive429, extraMarginMs: state.extraMarginMs },
          "fleet service keeps answering 429; widening the spacing",
        );
      }
      this.requeue(state, entry);
      this.pump(account);
      return;
    }

    if (state.consecutive429 > 0 && outcome.ok) state.consecutive429 = 0;
    if (state.extraMarginMs > 0 && ++state.cleanSinceWidened >= this.marginRecoveryCalls) {
      this.options.logger?.debug(
        { account, extraMarginMs: state.extraMarginMs, cleanCalls: state.cleanSinceWidened },
        "fleet service answered a run of calls without 429; spacing back to interval + margin",
      );
      state.extraMarginMs = 0;
      state.cleanSinceWidened = 0;
    }
    this.options.observer?.callFinished?.(
      entry.call,
      outcome.ok ? "ok" : "error",
      duration,
      entry.waiters.length,
    );
    if (outcome.ok) this.remember(state, account, entry.call, outcome.value);
    for (const waiter of entry.waiters) {
      if (outcome.ok) this.settle(waiter, undefined, outcome.value);
      else this.settle(waiter, outcome.error);
    }
    this.pump(account);
  }

  /**
   * Puts a call that was out back in the queue at its place (its arrival order is kept), for
   * the callers still waiting; those who cancelled while it was out are answered now, as it will
   * not be sent again for them.
   */
  private requeue(state: AccountState, entry: Entry): void {
    const gone = (w: Waiter<unknown>) => entry.forgotten === true || w.signal?.aborted === true;
    const live = entry.waiters.filter((w) => !gone(w));
    for (const waiter of entry.waiters) {
      if (gone(waiter)) this.settle(waiter, new CallCancelledError(entry.call.endpoint));
    }
    if (live.length > 0) {
      entry.waiters = live;
      insertWaiting(state.waiting, entry);
    }
  }

  /** How long an answer serves identical report calls: a slot, or longer for history (REPORT_ANSWER_REUSE_MS). */
  private keepMs(account: string, history: boolean): number {
    const slot = this.slotMs(account);
    return history ? Math.max(slot, this.options.reportAnswerReuseMs ?? REPORT_ANSWER_REUSE_MS) : slot;
  }

  /**
   * Keeps a report answer while it may be reused. Expired ones are dropped as new ones arrive,
   * and at most RECENT_ANSWERS_KEPT per account are kept (the oldest go first), so a burst of
   * distinct reports does not hold a minute of answers in memory.
   */
  private remember(state: AccountState, account: string, call: UpstreamCall, value: unknown): void {
    if (call.shareKey === undefined) return;
    const now = this.clock.now();
    for (const [key, answer] of state.recent)
      if (now - answer.at > this.keepMs(account, answer.history)) state.recent.delete(key);
    state.recent.delete(call.shareKey); // re-inserted last: Map order is the age order
    state.recent.set(call.shareKey, { value, at: now, history: call.history === true });
    while (state.recent.size > RECENT_ANSWERS_KEPT) {
      const oldest = state.recent.keys().next().value;
      if (oldest === undefined) break;
      state.recent.delete(oldest);
    }
  }

  private abandon(account: string, entry: Entry, waiter: Waiter<unknown>): void {
    const state = this.accounts.get(account);
    if (!state) return;
    const index = state.waiting.indexOf(entry);
    if (index < 0) return; // already sent: it runs to its end (cancel removes remaining calls only)
    entry.waiters = entry.waiters.filter((w) => w !== waiter);
    if (entry.waiters.length === 0) state.waiting.splice(index, 1);
    waiter.reject(new CallCancelledError(entry.call.endpoint));
    this.pump(account);
  }

  private settle(waiter: Waiter<unknown>, error: unknown, value?: unknown): void {
    if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener("abort", waiter.onAbort);
    if (error !== undefined) waiter.reject(error);
    else waiter.resolve(value);
  }

  private isDrained(): boolean {
    for (const state of this.accounts.values()) {
      if (state.running || state.waiting.length > 0) return false;
    }
    return true;
  }

  private notifyDrained(): void {
    if (this.drainWaiters.length === 0 || !this.isDrained()) return;
    for (const resolve of this.drainWaiters.splice(0)) resolve();
  }
}

function newAccountState(now: number): AccountState {
  return {
    waiting: [],
    blockedUntil: 0,
    consecutive429: 0,
    extraMarginMs: 0,
    cleanSinceWidened: 0,
    recent: new Map(),
    usedAt: now,
  };
}

/** Serving order: priority class, then arrival. */
function servedBefore(a: Entry, b: Entry): boolean {
  const rank = PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority];
  return rank < 0 || (rank === 0 && a.seq < b.seq);
}

/**
 * Keeps the queue ordered on insert (binary search) instead of re-sorting it on every call:
 * thousands of waiting calls cost O(log n) to place, not O(n log n) each.
 */
function insertWaiting(waiting: Entry[], entry: Entry): void {
  let lo = 0;
  let hi = waiting.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (servedBefore(waiting[mid]!, entry)) lo = mid + 1;
    else hi = mid;
  }
  waiting.splice(lo, 0, entry);
}

function repositionWaiting(waiting: Entry[], entry: Entry): void {
  const index = waiting.indexOf(entry);
  if (index < 0) return;
  waiting.splice(index, 1);
  insertWaiting(waiting, entry);
}

/** The login a call's slot was spent on, as the observer counts calls. */
export function loginIn(call: UpstreamCall): UpstreamCall {
  return { account: call.account, endpoint: "login", context: call.context };
}

function taskIdsOf(entry: Entry): string[] {
  return [...new Set(entry.waiters.map((w) => w.taskId).filter((id): id is string => id !== undefined))];
}
