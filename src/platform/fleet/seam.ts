/**
 * The one seam every upstream request passes through.
 *
 * The fleet service allows one request per account every 30 s, so nothing may call it
 * around the gate (src/gate implements CallGate). The client hands the gate a description
 * of the call and a `send` thunk; the gate decides when `send` runs, may share one result
 * between identical waiting calls (same shareKey), and retries `send` after a 429.
 */

/**
 * Order in which waiting calls of one account are served: a person's lookup or action,
 * then the alert sweep (it exists to prevent fines), then reports, then upkeep.
 */
export type Priority = "interactive" | "alert" | "report" | "background";

/** What the caller says about a call: how urgent, whose task, and how to cancel it. */
export interface CallContext {
  priority?: Priority;
  /** Cancels the call while it waits in the gate; a call already sent runs to its end. */
  signal?: AbortSignal;
  /** The task the call belongs to, for progress and cancel. */
  taskId?: string;
}

/** The upstream endpoints, named as in fleet-api.md. */
export type FleetEndpoint =
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

export interface UpstreamCall {
  /** The fleet account the request is made as (its username); the gate spaces calls per account. */
  account: string;
  endpoint: FleetEndpoint;
  /**
   * Identical waiting calls with the same key are made once and the answer shared.
   * Undefined for calls that must never be shared (login, mutations).
   */
  shareKey?: string;
  /**
   * A read of history over a given period (way, stops, fuel, refills, temperatures): its answer
   * may serve identical report calls for a while (REPORT_ANSWER_REUSE_MS), where a read of the
   * present state (vehicle list, transports) serves them for one slot only.
   */
  history?: boolean;
  context: CallContext;
}

export interface CallGate {
  run<T>(call: UpstreamCall, send: () => Promise<T>): Promise<T>;
}

/**
 * Thrown by a `send` that spent its slot on a login first (its account's token was due for
 * renewal): the gate counts the slot as used, by a login, and runs the same call again at its
 * own place in the queue, so it neither waits behind calls queued after it nor costs a second
 * login. Renewing in the slot of the call at the head is what keeps a token from expiring under
 * a backlog: a login queued as a call of its own would wait behind the whole backlog.
 */
export class SlotSpentOnLogin extends Error {
  constructor() {
    super("the call's slot was spent on a login; it runs again at its place");
    this.name = "SlotSpentOnLogin";
  }
}

/** Runs `send` at once, and again as often as it spent its turn on a login (a gate without spacing). */
export async function sendAtOnce<T>(send: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof SlotSpentOnLogin)) throw error;
    }
  }
}

/** No spacing at all: for the simulator's own tests and one-off scripts, never for the bot. */
export const directGate: CallGate = {
  run: (_call, send) => sendAtOnce(send),
};
