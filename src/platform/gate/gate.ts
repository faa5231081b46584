import type { Logger } from "pino";
import type { CallGate, Priority, UpstreamCall } from "../fleet/seam.js";

/**
 * What every gate implementation offers besides running calls: a view of an account's
 * schedule for progress and estimates. Async so a Redis-backed gate can implement it.
 */
export interface AccountGate extends CallGate {
  /** The account's schedule as the gate sees it now. */
  schedule(account: string): Promise<GateSchedule>;
  /** Slot length the gate keeps between two starts of one account (interval + current margin). */
  slotMs(account: string): number;
  /** Resolves when nothing is waiting or running for any account (for shutdown and tests). */
  drained(): Promise<void>;
  /**
   * Lets go of an account nobody uses any more (its workspace uninstalled): this process's waiting
   * calls of it are cancelled (CallCancelledError), a call being sent is not sent again, and
   * answers kept for reuse go. The spacing is kept. How many calls were cancelled.
   */
  forgetAccount?(account: string): Promise<number>;
  close(): Promise<void>;
}

export interface WaitingCall {
  endpoint: UpstreamCall["endpoint"];
  priority: Priority;
  /** Tasks whose calls wait in this entry (several when an identical call is shared). */
  taskIds: string[];
  /** 0 = next to start. */
  position: number;
  /** When this call is expected to start, from the gate's real spacing (epoch ms). */
  expectedStartAt: number;
}

export interface GateSchedule {
  account: string;
  /** Epoch ms at which the next call may start (now or later). */
  nextSlotAt: number;
  slotMs: number;
  running?: { endpoint: UpstreamCall["endpoint"]; taskIds: string[]; startedAt: number };
  waiting: WaitingCall[];
}

/** Raised for a call whose signal aborted while it waited; it was never sent. */
export class CallCancelledError extends Error {
  constructor(readonly endpoint: string) {
    super(`The ${endpoint} call was cancelled before it was sent.`);
    this.name = "CallCancelledError";
  }
}

/**
 * Serving order of the classes (lower first). The alert sweep ranks above reports rather
 * than taking a share of their slots (every third one, say): a sweep is a handful of
 * load-transports pages per account per ALERTS_CRON tick, so strict rank costs a report at
 * most those few slots, and it makes a due sweep first in line (after at most the call in
 * flight) instead of waiting up to two report calls. It stays below interactive calls:
 * those are single calls a person is waiting on, and a lookup's one slot delays an alert
 * by one slot, which the alert can afford.
 */
export const PRIORITY_RANK: Record<Priority, number> = {
  interactive: 0,
  alert: 1,
  report: 2,
  background: 3,
};

/**
 * How long a report call's answer answers identical report calls (at least one slot).
 * A period that runs until now ends at the start of the current minute
 * (src/commands/period.ts), so identical asks name the same request for at most a minute
 * and then a new one; within that minute the request covers only time already past, and a
 * second upstream call would fetch the same history. Ten identical reports typed a second
 * apart therefore cost the calls of one even when the slot is short.
 */
export const REPORT_ANSWER_REUSE_MS = 60_000;

/**
 * What every gate is told, in memory or in Redis: the same spacing rules, so either one can
 * stand behind AccountGate with the same settings. Each implementation adds its own fields.
 */
export interface GateOptions {
  /** Minimum spacing between two starts of one account (FLEET_MIN_INTERVAL_MS). */
  minIntervalMs: number;
  /** Added to every interval against clock skew and network latency (FLEET_SAFETY_MARGIN_MS). */
  safetyMarginMs?: number;
  /** Each consecutive 429 widens the margin by this much, up to maxExtraMarginMs (for every replica). */
  marginStepMs?: number;
  maxExtraMarginMs?: number;
  /**
   * After this many clean calls in a row the widened margin is dropped again (default 10): a
   * passing 429 (another client on the account) does not slow the account for ever, while a
   * lasting stricter limit costs at most one 429 per run of clean calls.
   */
  marginRecoveryCalls?: number;
  /** Recognises a rate-limit answer and says how long to wait (undefined: not a 429). */
  rateLimitDelay?: (error: unknown) => number | undefined;
  /** How long a history answer serves identical report calls (default REPORT_ANSWER_REUSE_MS; at least one slot). */
  reportAnswerReuseMs?: number;
  /**
   * This process's record of an account with nothing waiting or running here is dropped this long
   * after its last use (default an hour, IDLE_ACCOUNT_MS). The memory gate waits for its spacing
   * and any 429 block to pass first; the Redis gate's schedule lives on in Redis.
   */
  idleAccountMs?: number;
  observer?: GateObserver;
  logger?: Pick<Logger, "warn" | "debug">;
}

/** Hooks for metrics and logs; all optional. */
export interface GateObserver {
  callStarted?(call: UpstreamCall, waitedMs: number): void;
  /** A report call answered from an identical one answered shortly before (no upstream request). */
  callShared?(call: UpstreamCall): void;
  /** `callers`: how many callers this one call served (more than 1 when shared). */
  callFinished?(
    call: UpstreamCall,
    outcome: "ok" | "error" | "rate_limited",
    durationMs: number,
    callers: number,
  ): void;
  rateLimited?(account: string, retryAfterMs: number, consecutive: number): void;
  /** The gate let go of an idle account's state: per-account records kept beside it can go too. */
  accountForgotten?(account: string): void;
}
