import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { type FleetEndpoint, type Priority, SlotSpentOnLogin, type UpstreamCall } from "../fleet/seam.js";
import {
  type AccountGate,
  CallCancelledError,
  type GateOptions,
  type GateSchedule,
  PRIORITY_RANK,
  REPORT_ANSWER_REUSE_MS,
  type WaitingCall,
} from "./gate.js";
import { IDLE_ACCOUNT_MS, loginIn } from "./memoryGate.js";
import { OutcomeCodec, type ShareableErrorClass, type SharedOutcome } from "./redisGateCodec.js";
import {
  type AccountKeys,
  accountKeys,
  defineGateScripts,
  GateReplyError,
  replyBuffer,
  replyHash,
  replyList,
  replyNumber,
  replyText,
} from "./redisGateScripts.js";

/** The Redis gate's own fields: its connections, keys, lease and how long Redis keeps what. */
export interface RedisGateOptions extends GateOptions {
  /** Commands and scripts. Not closed by the gate. Must have no ioredis keyPrefix (use `keyPrefix` here). */
  redis: Redis;
  /** A connection for pub/sub; without one the gate opens (and closes) a duplicate of `redis`. */
  subscriber?: Redis;
  /** This replica, for logs and keys; each gate instance adds a random suffix of its own. */
  replicaId: string;
  /** Prefix of every key and of the channel (default "fleetbot:gate"). */
  keyPrefix?: string;
  /**
   * Errors of these classes reach the callers of a shared call on other replicas as
   * instances of the same class. Any other failure is not shared: those callers send their
   * own call (callers on the replica that sent it get the original error either way).
   */
  shareableErrors?: readonly ShareableErrorClass[];
  /**
   * Lease of the turn (renewed every third of it while `send` runs) and lifetime of a
   * replica's heartbeat: a dead replica stalls an account for at most one slot plus this.
   * Default 3000.
   */
  leaseMs?: number;
  /** Longest a replica with waiting calls sleeps between two looks (a release wakes it sooner). */
  maxWaitMs?: number;
  /** How long an answer stays readable for the callers on other replicas. */
  resultTtlMs?: number;
  /**
   * An account's keys in Redis expire this long after its last use (default a day; never shorter
   * than a few looks of a waiting replica, nor than a slot): every username tried at /fleet login
   * has keys, and nobody may be tried only once and kept for ever.
   */
  idleKeyTtlMs?: number;
}

interface Waiter {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  signal?: AbortSignal;
  onAbort?: () => void;
  taskId?: string;
  settled: boolean;
  /** The entry it waits in, once Redis has placed it. */
  entry?: LocalEntry;
  /** Cancelled before Redis placed it: leaves as soon as it is placed. */
  cancelPending?: boolean;
}

/** This replica's side of one Redis entry: its callers and their `send`. */
/** What a sent call came to: its value, or the error it failed with. */
type CallOutcome = { ok: true; value: unknown } | { ok: false; error: unknown };

interface LocalEntry {
  id: string;
  call: UpstreamCall;
  send: () => Promise<unknown>;
  waiters: Waiter[];
  /** This replica holds the turn for it and `send` runs. */
  sending: boolean;
  /** Its account was let go of (forgetAccount) while it was out: it is not sent again from here. */
  forgotten?: boolean;
}

interface LocalAccount {
  account: string;
  keys: AccountKeys;
  entries: Map<string, LocalEntry>;
  timer?: NodeJS.Timeout;
  pumping: boolean;
  again: boolean;
  /** The margin widening last read from Redis (slotMs is synchronous). */
  extraMarginMs: number;
  /** Last call submitted here (Date.now): an account idle here is dropped from `accounts`. */
  usedAt: number;
}

const ENDPOINTS: Record<FleetEndpoint, true> = {
  login: true,
  "company-vehicles": true,
  way: true,
  stops: true,
  consumption: true,
  refills: true,
  temperatures: true,
  "add-transport": true,
  "update-transport": true,
  "load-transports": true,
  "remove-transports": true,
  "start-transports": true,
  "end-transports": true,
  "pause-transports": true,
};

const SCHEDULE_LIMIT = 1000;

/**
 * The gate of the scale-out mode: the MemoryGate's rules (one call out per account, starts
 * at least interval + margin apart, priority then arrival, identical calls shared, 429s
 * widen the margin) kept in Redis for every replica at once. Decisions are Lua scripts
 * timed by Redis TIME (redisGateScripts.ts); this class keeps the callers of this replica,
 * runs their `send` when Redis grants the turn, and carries answers between replicas.
 */
export class RedisGate implements AccountGate {
  private readonly redis: Redis;
  private readonly subscriber: Redis;
  private readonly ownsSubscriber: boolean;
  private readonly member: string;
  private readonly prefix: string;
  private readonly channel: string;
  private readonly heartbeatKey: string;
  private readonly replicaPrefix: string;
  private readonly baseSlotMs: number;
  private readonly marginStepMs: number;
  private readonly maxExtraMarginMs: number;
  private readonly marginRecoveryCalls: number;
  private readonly leaseMs: number;
  private readonly maxWaitMs: number;
  private readonly resultTtlMs: number;
  private readonly reportAnswerReuseMs: number;
  private readonly idleKeyTtlMs: number;
  private readonly idleAccountMs: number;
  private sweptAt = Date.now();
  private readonly codec: OutcomeCodec;
  private readonly accounts = new Map<string, LocalAccount>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly onMessage: (channel: string, message: string) => void;
  private pendingSubmits = 0;
  private closed = false;
  private drainWaiters: (() => void)[] = [];

  constructor(private readonly options: RedisGateOptions) {
    if (options.redis.options.keyPrefix)
      throw new Error(
        "RedisGate builds its own keys: pass a client without keyPrefix and set keyPrefix here.",
      );
    this.redis = options.redis;
    defineGateScripts(this.redis);
    this.member = `${options.replicaId}:${randomUUID().slice(0, 8)}`;
    this.prefix = options.keyPrefix ?? "fleetbot:gate";
    this.channel = `${this.prefix}:events`;
    this.replicaPrefix = `${this.prefix}:replica:`;
    this.heartbeatKey = `${this.replicaPrefix}${this.member}`;
    this.baseSlotMs = options.minIntervalMs + (options.safetyMarginMs ?? 0);
    this.marginStepMs = options.marginStepMs ?? Math.max(250, Math.round(options.minIntervalMs / 10));
    this.maxExtraMarginMs = options.maxExtraMarginMs ?? options.minIntervalMs;
    this.marginRecoveryCalls = options.marginRecoveryCalls ?? 10;
    this.leaseMs = options.leaseMs ?? 3000;
    this.maxWaitMs = options.maxWaitMs ?? Math.max(this.baseSlotMs + this.maxExtraMarginMs, this.leaseMs);
    this.resultTtlMs = options.resultTtlMs ?? Math.max(2 * this.maxWaitMs + this.leaseMs, 10_000);
    this.reportAnswerReuseMs = options.reportAnswerReuseMs ?? REPORT_ANSWER_REUSE_MS;
    // A waiting replica refreshes the keys at every look (at most maxWaitMs apart), and the last
    // start must outlive the widest slot: the TTL never cuts under either.
    this.idleKeyTtlMs = Math.max(
      options.idleKeyTtlMs ?? 24 * 60 * 60_000,
      3 * this.maxWaitMs + this.leaseMs,
      this.baseSlotMs + this.maxExtraMarginMs + this.leaseMs,
    );
    this.idleAccountMs = options.idleAccountMs ?? IDLE_ACCOUNT_MS;
    this.codec = new OutcomeCodec(options.shareableErrors);

    this.heartbeat = setInterval(() => void this.beat(), Math.max(1, Math.floor(this.leaseMs / 3)));
    this.heartbeat.unref();
    void this.beat();

    this.ownsSubscriber = options.subscriber === undefined;
    this.subscriber = options.subscriber ?? options.redis.duplicate();
    // A release on any replica: whoever waits on that account looks at once.
    this.onMessage = (channel, account) => {
      if (channel !== this.channel) return;
      const state = this.accounts.get(account);
      if (state && state.entries.size > 0) this.pump(state);
    };
    this.subscriber.on("message", this.onMessage);
    if (this.ownsSubscriber)
      this.subscriber.on("error", (error: unknown) => {
        // ioredis reconnects and resubscribes by itself; meanwhile polling finds every release.
        this.options.logger?.debug({ err: error }, "gate subscriber connection error");
      });
    this.subscriber.subscribe(this.channel).catch((error: unknown) => {
      // Polling still finds every release, only later.
      this.options.logger?.warn({ err: error }, "gate could not subscribe to releases; polling only");
    });
  }

  slotMs(account: string): number {
    return this.baseSlotMs + (this.accounts.get(account)?.extraMarginMs ?? 0);
  }

  run<T>(call: UpstreamCall, send: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error("The request gate is closed."));
    const signal = call.context.signal;
    if (signal?.aborted) return Promise.reject(new CallCancelledError(call.endpoint));
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = {
        // The value is what `send` of this call, or of an identical one, resolved with.
        resolve: (value) => resolve(value as T),
        reject,
        signal,
        taskId: call.context.taskId,
        settled: false,
      };
      if (signal) {
        waiter.onAbort = () => this.abandon(call.account, waiter);
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.submit(call, send, [waiter]);
    });
  }

  async schedule(account: string): Promise<GateSchedule> {
    // Keeps the margin read here for slotMs; a record nobody calls for is dropped when idle.
    const state = this.accountState(account);
    const { keys } = state;
    const before = Date.now();
    const reply = replyList(
      await this.redis.fleetGateScheduleBuffer(
        keys.queue,
        keys.state,
        keys.turn,
        keys.base,
        this.replicaPrefix,
        SCHEDULE_LIMIT,
      ),
    );
    const after = Date.now();
    const serverNow = replyNumber(reply[0]);
    // Callers compare with their own clock: Redis time shifted by the round trip's midpoint.
    const offset = Math.round((before + after) / 2) - serverNow;
    const accountHash = replyHash(reply[1]);
    const field = (name: string): number | undefined => {
      const text = accountHash.get(name);
      return text === undefined ? undefined : Number(text);
    };
    state.extraMarginMs = field("extra") ?? 0;
    const slotMs = this.slotMs(account);
    const last = field("last");
    const nextSlotAt =
      Math.max(serverNow, last === undefined ? serverNow : last + slotMs, field("blocked") ?? 0) + offset;
    const runningHash = replyHash(reply[2]);
    const waiting: WaitingCall[] = replyList(reply[3]).map((item, position) => {
      const entry = replyHash(item);
      return {
        endpoint: endpointOf(entry),
        priority: priorityOf(entry),
        taskIds: taskIdsOf(entry),
        position,
        expectedStartAt: nextSlotAt + position * slotMs,
      };
    });
    return {
      account,
      nextSlotAt,
      slotMs,
      running:
        runningHash.size === 0
          ? undefined
          : {
              endpoint: endpointOf(runningHash),
              taskIds: taskIdsOf(runningHash),
              startedAt: (field("runAt") ?? serverNow) + offset,
            },
      waiting,
    };
  }

  /** Calls this replica has sent and not yet seen answered. */
  inFlight(): number {
    let count = 0;
    for (const state of this.accounts.values())
      for (const entry of state.entries.values()) if (entry.sending) count++;
    return count;
  }

  /** Resolves when this replica has no call waiting or running. */
  drained(): Promise<void> {
    if (this.isDrained()) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /**
   * Cancels this replica's waiting calls and leaves their entries, stops timers and pub/sub.
   * A call being sent runs to its end and is released. Clients passed in stay open.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    const leaving: Promise<unknown>[] = [];
    for (const state of this.accounts.values()) {
      this.clearTimer(state);
      this.cancelWaiting(state, leaving);
    }
    await Promise.allSettled(leaving);
    this.subscriber.off("message", this.onMessage);
    if (this.ownsSubscriber) await this.subscriber.quit().catch(() => this.subscriber.disconnect());
    else await this.subscriber.unsubscribe(this.channel).catch(() => undefined);
    await this.redis.del(this.heartbeatKey).catch(() => undefined);
    this.notifyDrained();
  }

  async forgetAccount(account: string): Promise<number> {
    const state = this.accounts.get(account);
    if (!state) return 0;
    const leaving: Promise<unknown>[] = [];
    // A call being sent cannot be taken back: it is marked, so its answer is not kept.
    for (const entry of state.entries.values()) if (entry.sending) entry.forgotten = true;
    const cancelled = this.cancelWaiting(state, leaving);
    await Promise.allSettled(leaving);
    this.notifyDrained();
    return cancelled;
  }

  /**
   * Takes an account's calls that are still waiting out of its line (their waiters hear
   * CallCancelledError; each leaves the shared schedule, pushed onto `leaving`); a call being sent
   * is left alone. How many were cancelled.
   */
  private cancelWaiting(state: LocalAccount, leaving: Promise<unknown>[]): number {
    let cancelled = 0;
    for (const entry of [...state.entries.values()]) {
      if (entry.sending) continue;
      cancelled++;
      state.entries.delete(entry.id);
      const taskIds = uniqueTaskIds(entry.waiters);
      for (const waiter of entry.waiters)
        this.rejectWaiter(waiter, new CallCancelledError(entry.call.endpoint));
      leaving.push(this.leave(state, entry.id, true, taskIds).catch(() => undefined));
    }
    return cancelled;
  }

  // --- Placing callers ------------------------------------------------------------------

  private submit(call: UpstreamCall, send: () => Promise<unknown>, waiters: Waiter[]): void {
    this.forgetIdleAccounts();
    const state = this.accountState(call.account);
    state.usedAt = Date.now();
    this.pendingSubmits++;
    this.enqueue(state, call, send, waiters, true)
      .catch((error: unknown) => {
        for (const waiter of waiters) this.rejectWaiter(waiter, error);
      })
      .finally(() => {
        this.pendingSubmits--;
        this.pump(state);
        this.notifyDrained();
      });
  }

  private async enqueue(
    state: LocalAccount,
    call: UpstreamCall,
    send: () => Promise<unknown>,
    waiters: Waiter[],
    reuseRecent: boolean,
  ): Promise<void> {
    const priority = call.context.priority ?? "interactive";
    const { keys } = state;
    const reply = replyList(
      await this.redis.fleetGateEnqueueBuffer(
        keys.queue,
        keys.seq,
        keys.share,
        this.heartbeatKey,
        keys.base,
        this.member,
        this.leaseMs,
        call.endpoint,
        priority,
        PRIORITY_RANK[priority],
        call.shareKey ?? "",
        // As in the MemoryGate: only reports reuse an answer; lookups want the service's state now.
        reuseRecent && priority === "report" ? "1" : "0",
        this.idleKeyTtlMs,
        ...uniqueTaskIds(waiters),
      ),
    );
    const kind = replyText(reply[0]);
    if (kind === "recent") {
      const outcome = this.codec.decode(replyBuffer(reply[1]));
      if (outcome.kind !== "value") return this.enqueue(state, call, send, waiters, false);
      this.options.observer?.callShared?.(call);
      for (const waiter of waiters) this.resolveWaiter(waiter, outcome.value);
      return;
    }
    const id = replyText(reply[1]);
    if (this.closed) {
      await this.leave(state, id, true, uniqueTaskIds(waiters)).catch(() => undefined);
      for (const waiter of waiters) this.rejectWaiter(waiter, new CallCancelledError(call.endpoint));
      return;
    }
    // Joined an entry this replica already waits in (or sends): one local entry, several callers.
    let entry = state.entries.get(id);
    if (!entry) {
      entry = { id, call, send, waiters: [], sending: false };
      state.entries.set(id, entry);
    }
    for (const waiter of waiters) {
      if (waiter.settled) continue;
      waiter.entry = entry;
      entry.waiters.push(waiter);
      if (waiter.cancelPending) this.abandon(call.account, waiter);
    }
  }

  /** A caller's signal aborted: it leaves its entry unless the call was already sent. */
  private abandon(account: string, waiter: Waiter): void {
    if (waiter.settled) return;
    const entry = waiter.entry;
    if (!entry) {
      waiter.cancelPending = true;
      return;
    }
    if (entry.sending) return; // already sent: it runs to its end (cancel removes remaining calls only)
    const state = this.accountState(account);
    const remaining = entry.waiters.filter((w) => w !== waiter && !w.settled);
    const dropTaskIds =
      waiter.taskId !== undefined && !remaining.some((w) => w.taskId === waiter.taskId)
        ? [waiter.taskId]
        : [];
    const cancel = () => {
      if (waiter.settled) return;
      entry.waiters = entry.waiters.filter((w) => w !== waiter);
      if (entry.waiters.length === 0 && !entry.sending && state.entries.get(entry.id) === entry)
        state.entries.delete(entry.id);
      this.rejectWaiter(waiter, new CallCancelledError(entry.call.endpoint));
      this.pump(state);
    };
    this.leave(state, entry.id, remaining.length === 0, dropTaskIds).then(
      (result) => {
        // Sent meanwhile, here or on another replica: the caller gets its answer.
        if (result !== "running") cancel();
      },
      (error: unknown) => {
        // Redis out of reach: cancel here anyway; if Redis grants the entry later, the turn is given back.
        this.options.logger?.warn({ err: error, account }, "gate could not withdraw a cancelled call");
        cancel();
      },
    );
  }

  private async leave(
    state: LocalAccount,
    id: string,
    dropMember: boolean,
    taskIds: string[],
  ): Promise<string> {
    const { keys } = state;
    const reply = await this.redis.fleetGateLeaveBuffer(
      keys.queue,
      keys.share,
      keys.base,
      this.member,
      id,
      dropMember ? "1" : "0",
      this.idleKeyTtlMs,
      ...taskIds,
    );
    return replyText(reply);
  }

  // --- Taking turns -----------------------------------------------------------------------

  /** One pass for an account at a time; a wake-up during a pass asks for another. */
  private pump(state: LocalAccount): void {
    if (this.closed) return;
    if (state.pumping) {
      state.again = true;
      return;
    }
    state.pumping = true;
    void (async () => {
      try {
        do {
          state.again = false;
          await this.step(state);
        } while (state.again && !this.closed);
      } catch (error) {
        // Redis unreachable or restarting: look again later; the callers keep waiting.
        this.options.logger?.warn({ err: error, account: state.account }, "gate pass failed; retrying");
        this.arm(state, this.leaseMs);
      } finally {
        state.pumping = false;
      }
    })();
  }

  private async step(state: LocalAccount): Promise<void> {
    this.clearTimer(state);
    // Answers (or losses) of the entries this replica waits in but does not send.
    const watched = [...state.entries.values()].filter((entry) => !entry.sending);
    if (watched.length > 0) {
      const found = replyList(
        await this.redis.fleetGateCollectBuffer(state.keys.base, ...watched.map((entry) => entry.id)),
      );
      for (const item of found) {
        const [rawId, rawKind, payload] = replyList(item);
        const entry = state.entries.get(replyText(rawId));
        if (!entry || entry.sending) continue;
        state.entries.delete(entry.id);
        if (replyText(rawKind) === "done") this.deliver(entry, this.codec.decode(replyBuffer(payload)));
        // Lost without an answer (this replica's heartbeat lapsed, or its sender died): ask again.
        else this.resubmit(entry);
      }
    }
    if (![...state.entries.values()].some((entry) => !entry.sending)) {
      this.notifyDrained();
      return; // nothing waiting here; a release pumps again
    }

    const { keys } = state;
    const token = `${this.member}:${randomUUID()}`;
    const reply = replyList(
      await this.redis.fleetGateTakeBuffer(
        keys.queue,
        keys.state,
        keys.turn,
        keys.share,
        this.heartbeatKey,
        keys.base,
        this.replicaPrefix,
        this.member,
        token,
        this.leaseMs,
        this.baseSlotMs,
        this.leaseMs,
        this.idleKeyTtlMs,
      ),
    );
    const kind = replyText(reply[0]);
    state.extraMarginMs = replyNumber(reply[2]);
    if (kind === "taken") {
      const entry = state.entries.get(replyText(reply[1]));
      if (!entry || entry.sending || !entry.waiters.some((w) => !w.settled)) {
        // Its callers cancelled while the turn was granted: give the turn back unused.
        await this.finish(state, replyText(reply[1]), token, "unused", { prevLast: replyNumber(reply[4]) });
        state.again = true;
        return;
      }
      void this.execute(state, entry, token, replyNumber(reply[3]));
      // Other entries of this replica wait for this call's release (or their answer elsewhere).
      if ([...state.entries.values()].some((e) => !e.sending)) this.arm(state, this.leaseMs);
      return;
    }
    if (kind === "busy" || kind === "wait") this.arm(state, replyNumber(reply[1]) + 1);
    else if (kind === "other") this.arm(state, replyNumber(reply[1]) + 1);
    else if (kind === "idle") this.arm(state, this.leaseMs);
    else throw new GateReplyError(`take answered ${kind}`);
  }

  private async execute(
    state: LocalAccount,
    entry: LocalEntry,
    token: string,
    waitedMs: number,
  ): Promise<void> {
    entry.sending = true;
    const call = entry.call;
    this.options.observer?.callStarted?.(call, waitedMs);
    const startedAt = Date.now();
    // `send` is invoked before the start is confirmed in Redis (same connection order): the
    // next start on any replica is spaced from a moment this call had already begun.
    let sending: Promise<unknown>;
    try {
      sending = entry.send();
    } catch (error) {
      sending = Promise.reject(error);
    }
    const confirmed = this.renew(state, token, true);
    const renewal = setInterval(() => void this.renew(state, token, false), Math.max(1, this.leaseMs / 3));
    let outcome: CallOutcome;
    try {
      outcome = { ok: true, value: await sending };
    } catch (error) {
      outcome = { ok: false, error };
    }
    clearInterval(renewal);
    await confirmed; // the release must not overtake the start it confirms
    const durationMs = Date.now() - startedAt;
    const retryAfterMs = outcome.ok ? undefined : this.options.rateLimitDelay?.(outcome.error);
    // Each ends with the account's next turn and the drained check, in the same step as its answers.
    if (!outcome.ok && outcome.error instanceof SlotSpentOnLogin)
      await this.againAfterLogin(state, entry, token, durationMs);
    else if (retryAfterMs !== undefined)
      await this.againAfterRateLimit(state, entry, token, durationMs, retryAfterMs);
    else await this.settle(state, entry, token, durationMs, outcome);
  }

  /** After a call: the account's next turn (pump), and the drained check. */
  private afterCall(state: LocalAccount): void {
    this.pump(state);
    this.notifyDrained();
  }

  /**
   * The turn went to the account's login: the same call goes back to its place (first of its
   * class) for every replica waiting on it, and is sent at the next turn.
   */
  private async againAfterLogin(
    state: LocalAccount,
    entry: LocalEntry,
    token: string,
    durationMs: number,
  ): Promise<void> {
    const keep = this.keepLiveWaiters(entry);
    await this.finish(state, entry.id, token, "again", { keep });
    entry.sending = false;
    if (!keep && state.entries.get(entry.id) === entry) state.entries.delete(entry.id);
    this.options.observer?.callFinished?.(loginIn(entry.call), "ok", durationMs, 1);
    this.afterCall(state);
  }

  /**
   * Someone else used the account's budget: every replica waits as told with a wider
   * margin, and the same call goes back to the head of its class.
   */
  private async againAfterRateLimit(
    state: LocalAccount,
    entry: LocalEntry,
    token: string,
    durationMs: number,
    retryAfterMs: number,
  ): Promise<void> {
    const call = entry.call;
    const keep = this.keepLiveWaiters(entry);
    const result = await this.finish(state, entry.id, token, "rate_limited", { retryAfterMs, keep });
    entry.sending = false;
    if (!keep && state.entries.get(entry.id) === entry) state.entries.delete(entry.id);
    const consecutive = result?.consecutive429 ?? 1;
    this.options.observer?.callFinished?.(
      call,
      "rate_limited",
      durationMs,
      entry.waiters.length + (result?.others ?? 0),
    );
    this.options.observer?.rateLimited?.(call.account, retryAfterMs, consecutive);
    if (consecutive >= 2) {
      this.options.logger?.warn(
        { account: call.account, consecutive, extraMarginMs: state.extraMarginMs },
        "fleet service keeps answering 429; widening the spacing",
      );
    }
    this.afterCall(state);
  }

  /** The call answered (or failed for good): its turn is released, every caller answered, here and on other replicas. */
  private async settle(
    state: LocalAccount,
    entry: LocalEntry,
    token: string,
    durationMs: number,
    outcome: CallOutcome,
  ): Promise<void> {
    const call = entry.call;
    state.entries.delete(entry.id);
    // Callers on other replicas can only have joined a call with a shareKey.
    let done = this.codec.encodeRetry();
    let recent: Buffer | undefined;
    if (call.shareKey !== undefined) {
      const encoded = outcome.ok
        ? this.codec.encodeValue(outcome.value)
        : this.codec.encodeError(outcome.error);
      if (encoded) done = encoded;
      if (outcome.ok) recent = encoded;
    }
    const result = await this.finish(state, entry.id, token, outcome.ok ? "ok" : "error", {
      done,
      recent,
      // History answers serve identical reports for REPORT_ANSWER_REUSE_MS; others for one slot (0).
      recentKeepMs: call.history ? this.reportAnswerReuseMs : 0,
    });
    this.options.observer?.callFinished?.(
      call,
      outcome.ok ? "ok" : "error",
      durationMs,
      entry.waiters.length + (result?.others ?? 0),
    );
    for (const waiter of entry.waiters) {
      if (outcome.ok) this.resolveWaiter(waiter, outcome.value);
      else this.rejectWaiter(waiter, outcome.error);
    }
    this.afterCall(state);
  }

  /**
   * Before a call that was out goes back to the queue: callers who cancelled meanwhile are
   * answered now (it will not be sent again for them). True when some caller here still waits.
   */
  private keepLiveWaiters(entry: LocalEntry): boolean {
    for (const waiter of entry.waiters)
      if (entry.forgotten || waiter.signal?.aborted)
        this.rejectWaiter(waiter, new CallCancelledError(entry.call.endpoint));
    entry.waiters = entry.waiters.filter((w) => !w.settled);
    return entry.waiters.length > 0;
  }

  /** Keeps the turn while `send` runs; `started` also records the call's start (see renew in the scripts). */
  private async renew(state: LocalAccount, token: string, started: boolean): Promise<void> {
    try {
      const held = await this.redis.fleetGateRenewBuffer(
        state.keys.turn,
        state.keys.state,
        token,
        this.leaseMs,
        started ? "1" : "0",
      );
      if (held === 0)
        this.options.logger?.warn(
          { account: state.account },
          "gate turn lapsed while the call ran (replica stalled or Redis out of reach)",
        );
    } catch (error) {
      this.options.logger?.warn({ err: error, account: state.account }, "gate could not renew its turn");
    }
  }

  private async finish(
    state: LocalAccount,
    id: string,
    token: string,
    outcome: "ok" | "error" | "rate_limited" | "again" | "unused",
    detail: {
      done?: Buffer;
      recent?: Buffer | undefined;
      recentKeepMs?: number;
      retryAfterMs?: number;
      keep?: boolean;
      prevLast?: number;
    },
  ): Promise<{ consecutive429: number; others: number } | undefined> {
    const { keys } = state;
    try {
      const reply = replyList(
        await this.redis.fleetGateFinishBuffer(
          keys.queue,
          keys.state,
          keys.turn,
          keys.share,
          keys.base,
          this.member,
          token,
          id,
          outcome,
          detail.done ?? "",
          detail.recent ?? "",
          detail.retryAfterMs ?? 0,
          this.baseSlotMs,
          this.marginStepMs,
          this.maxExtraMarginMs,
          this.marginRecoveryCalls,
          this.resultTtlMs,
          detail.keep ? "1" : "0",
          detail.prevLast ?? 0,
          this.channel,
          state.account,
          detail.recentKeepMs ?? 0,
          this.idleKeyTtlMs,
        ),
      );
      state.extraMarginMs = replyNumber(reply[0]);
      return { consecutive429: replyNumber(reply[1]), others: replyNumber(reply[2]) };
    } catch (error) {
      // The lease lapses by itself; callers here are answered all the same.
      this.options.logger?.warn({ err: error, account: state.account }, "gate could not release its turn");
      return undefined;
    }
  }

  // --- Answers ----------------------------------------------------------------------------

  private deliver(entry: LocalEntry, outcome: SharedOutcome): void {
    if (outcome.kind === "value")
      for (const waiter of entry.waiters) this.resolveWaiter(waiter, outcome.value);
    else if (outcome.kind === "error")
      for (const waiter of entry.waiters) this.rejectWaiter(waiter, outcome.error);
    else this.resubmit(entry);
  }

  /** The callers of an entry that ended without a usable answer for them send the call again. */
  private resubmit(entry: LocalEntry): void {
    const live: Waiter[] = [];
    for (const waiter of entry.waiters) {
      if (waiter.settled) continue;
      if (waiter.signal?.aborted) {
        this.rejectWaiter(waiter, new CallCancelledError(entry.call.endpoint));
        continue;
      }
      waiter.entry = undefined;
      live.push(waiter);
    }
    if (live.length > 0 && !this.closed) this.submit(entry.call, entry.send, live);
    else for (const waiter of live) this.rejectWaiter(waiter, new CallCancelledError(entry.call.endpoint));
  }

  private resolveWaiter(waiter: Waiter, value: unknown): void {
    if (!this.markSettled(waiter)) return;
    waiter.resolve(value);
  }

  private rejectWaiter(waiter: Waiter, error: unknown): void {
    if (!this.markSettled(waiter)) return;
    waiter.reject(error);
  }

  private markSettled(waiter: Waiter): boolean {
    if (waiter.settled) return false;
    waiter.settled = true;
    if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener("abort", waiter.onAbort);
    return true;
  }

  // --- Housekeeping -----------------------------------------------------------------------

  private accountState(account: string): LocalAccount {
    let state = this.accounts.get(account);
    if (!state) {
      state = {
        account,
        keys: accountKeys(this.prefix, account),
        entries: new Map(),
        pumping: false,
        again: false,
        extraMarginMs: 0,
        usedAt: Date.now(),
      };
      this.accounts.set(account, state);
    }
    return state;
  }

  /** Accounts this replica keeps a record of now (idle ones are dropped). */
  knownAccounts(): string[] {
    return [...this.accounts.keys()];
  }

  /**
   * Drops this replica's record of accounts with nothing waiting or sent here, no pass or timer
   * under way, and no call submitted for idleAccountMs. Their schedule lives in Redis; a later call
   * makes a new record. A pass at most every idleAccountMs / 4, on calls.
   */
  private forgetIdleAccounts(): void {
    const now = Date.now();
    if (now - this.sweptAt < this.idleAccountMs / 4) return;
    this.sweptAt = now;
    for (const [account, state] of this.accounts) {
      if (state.entries.size > 0 || state.pumping || state.timer !== undefined) continue;
      if (now - state.usedAt < this.idleAccountMs) continue;
      this.accounts.delete(account);
      this.options.observer?.accountForgotten?.(account);
    }
  }

  private async beat(): Promise<void> {
    try {
      await this.redis.set(this.heartbeatKey, "1", "PX", this.leaseMs);
    } catch (error) {
      this.options.logger?.debug({ err: error }, "gate heartbeat failed");
    }
  }

  private arm(state: LocalAccount, ms: number): void {
    if (this.closed) return;
    this.clearTimer(state);
    const delay = Math.min(Math.max(1, Math.ceil(ms)), this.maxWaitMs);
    state.timer = setTimeout(() => {
      state.timer = undefined;
      this.pump(state);
    }, delay);
  }

  private clearTimer(state: LocalAccount): void {
    if (state.timer !== undefined) clearTimeout(state.timer);
    state.timer = undefined;
  }

  private isDrained(): boolean {
    if (this.pendingSubmits > 0) return false;
    for (const state of this.accounts.values()) if (state.entries.size > 0) return false;
    return true;
  }

  private notifyDrained(): void {
    if (this.drainWaiters.length === 0 || !this.isDrained()) return;
    for (const resolve of this.drainWaiters.splice(0)) resolve();
  }
}

function uniqueTaskIds(waiters: readonly Waiter[]): string[] {
  return [
    ...new Set(waiters.map((w) => w.taskId).filter((id): id is string => id !== undefined && id !== "")),
  ];
}

function taskIdsOf(entry: Map<string, string>): string[] {
  const ids: string[] = [];
  for (const field of entry.keys()) if (field.startsWith("t:")) ids.push(field.slice(2));
  return ids;
}

function endpointOf(entry: Map<string, string>): FleetEndpoint {
  const endpoint = entry.get("endpoint");
  if (endpoint === undefined || !isFleetEndpoint(endpoint)) throw new GateReplyError(`endpoint ${endpoint}`);
  return endpoint;
}

function priorityOf(entry: Map<string, string>): Priority {
  const priority = entry.get("priority");
  if (priority === undefined || !isPriority(priority)) throw new GateReplyError(`priority ${priority}`);
  return priority;
}

function isFleetEndpoint(value: string): value is FleetEndpoint {
  return Object.hasOwn(ENDPOINTS, value);
}

function isPriority(value: string): value is Priority {
  return Object.hasOwn(PRIORITY_RANK, value);
}
