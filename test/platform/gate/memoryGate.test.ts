import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Priority, UpstreamCall } from "../../../src/platform/fleet/seam.js";
import { CallCancelledError, PRIORITY_RANK } from "../../../src/platform/gate/gate.js";
import { MemoryGate } from "../../../src/platform/gate/memoryGate.js";
import { VirtualClock } from "../../../src/platform/gate/virtualClock.js";

const INTERVAL = 30_000;
const MARGIN = 250;

class RateLimited extends Error {
  constructor(readonly retryAfterMs: number) {
    super("429");
  }
}

function makeGate(clock: VirtualClock, extra: Partial<ConstructorParameters<typeof MemoryGate>[0]> = {}) {
  return new MemoryGate({
    minIntervalMs: INTERVAL,
    safetyMarginMs: MARGIN,
    clock,
    rateLimitDelay: (error) => (error instanceof RateLimited ? error.retryAfterMs : undefined),
    ...extra,
  });
}

function call(
  account: string,
  priority: Priority,
  extra: Partial<UpstreamCall> & { signal?: AbortSignal; taskId?: string } = {},
): UpstreamCall {
  return {
    account,
    endpoint: extra.endpoint ?? "company-vehicles",
    shareKey: extra.shareKey,
    history: extra.history,
    context: { priority, signal: extra.signal, taskId: extra.taskId },
  };
}

describe("MemoryGate", () => {
  it("starts the first call at once and spaces the next by interval + margin", async () => {
    const clock = new VirtualClock();
    const gate = makeGate(clock);
    const t0 = clock.now();
    const starts: number[] = [];
    const send = async () => {
      starts.push(clock.now());
      return starts.length;
    };
    const results = Promise.all([gate.run(call("a", "report"), send), gate.run(call("a", "report"), send)]);
    await clock.runAll();
    expect(await results).toEqual([1, 2]);
    expect(starts).toEqual([t0, t0 + INTERVAL + MARGIN]);
  });

  it("spaces accounts independently", async () => {
    const clock = new VirtualClock();
    const gate = makeGate(clock);
    const starts: Record<string, number[]> = { a: [], b: [] };
    const sendAs = (account: "a" | "b") => async () => void starts[account]!.push(clock.now());
    const all = Promise.all([
      gate.run(call("a", "report"), sendAs("a")),
      gate.run(call("b", "report"), sendAs("b")),
      gate.run(call("a", "report"), sendAs("a")),
    ]);
    await clock.runAll();
    await all;
    expect(starts.b![0]).toBe(starts.a![0]);
    expect(starts.a![1]! - starts.a![0]!).toBe(INTERVAL + MARGIN);
  });

  it("serves an interactive call before waiting report calls: a lookup during a 20-call report waits at most one slot", async () => {
    const clock = new VirtualClock();
    const gate = makeGate(clock);
    const order: string[] = [];
    const report = Array.from({ length: 20 }, (_, i) =>
      gate.run(call("a", "report", { endpoint: "stops" }), async () => void order.push(`r${i}`)),
    );
    await clock.advanceBy(INTERVAL * 3.5); // three report calls have run, the fourth is due in half a slot
    const arrival = clock.now();
    let lookupStartedAt = 0;
    const lookup = gate.run(call("a", "interactive"), async () => {
      lookupStartedAt = clock.now();
      order.push("lookup");
    });
    await clock.runAll();
    await Promise.all([...report, lookup]);
    expect(order.indexOf("lookup")).toBe(4);
    expect(lookupStartedAt - arrival).toBeLessThanOrEqual(INTERVAL + MARGIN);
  });

  it("serves a due alert sweep first: behind a waiting 20-call report it starts within one slot", async () => {
    const clock = new VirtualClock();
    const gate = makeGate(clock);
    const order: string[] = [];
    const report = Array.from({ length: 20 }, (_, i) =>
      gate.run(call("a", "report", { endpoint: "stops" }), async () => void order.push(`r${i}`)),
    );
    await clock.advanceBy(INTERVAL * 2.5);
    const due = clock.now();
    const starts: number[] = [];
    const sweep = [0, 1].map((page) =>
      gate.run(call("a", "alert", { endpoint: "load-transports", shareKey: `page ${page}` }), async () => {
        starts.push(clock.now());
        order.push(`sweep${page}`);
      }),
    );
    await clock.runAll();
    await Promise.all([...report, ...sweep]);
    expect(order.slice(0, 5)).toEqual(["r0", "r1", "r2", "sweep0", "sweep1"]);
    expect(starts[0]! - due).toBeLessThanOrEqual(INTERVAL + MARGIN);
  });

  it("ranks the alert sweep below interactive calls and above reports and upkeep", async () => {
    const clock = new VirtualClock();
    const gate = makeGate(clock);
    const order: string[] = [];
    const first = gate.run(call("a", "report"), async () => void order.push("running"));
    const queued = (["background", "report", "alert", "interactive"] as const).map((priority) =>
      gate.run(call("a", priority), async () => void order.push(priority)),
    );
    await clock.runAll();
    await Promise.all([first, ...queued]);
    expect(order).toEqual(["running", "interactive", "alert", "report", "background"]);
  });

  it("makes identical waiting calls once and shares the answer", async () => {
    const clock = new VirtualClock();
    const gate = makeGate(clock);
    let sent = 0;
    await gate.run(call("a", "interactive"), async () => sent++); // occupies the slot
    const send = async () => {
      sent++;
      return ["vehicle list"];
    };
    const answers = Promise.all(
      Array.from({ length: 10 }, () =>
        gate.run(call("a", "interactive", { shareKey: "company-vehicles" }), send),
      ),
    );
    await clock.runAll();
    expect(await answers).toEqual(Array.from({ length: 10 }, () => ["vehicle list"]));
    expect(sent).toBe(2);
  });

  it("takes a shared call's most urgent priority", async () => {
    const clock = new VirtualClock();
    const gate = makeGate(clock);
    const order: string[] = [];
    await gate.run(call("a", "interactive"), async () => undefined);
    const bg = gate.run(call("a", "background", { shareKey: "k" }), async () => void order.push("shared"));
    const rep = gate.run(call("a", "report"), async () => void order.push("report"));
    const joined = gate.run(
      call("a", "interactive", { shareKey: "k" }),
      async () => void order.push("never"),
    );
    await clock.runAll();
    await Promise.all([bg, rep, joined]);
    expect(order).toEqual(["shared", "report"]);
  });

  it("pushes back on a 429 by Retry-After, retries the same call and widens the margin", async () => {
    const clock = new VirtualClock();
    const warnings: unknown[] = [];
    const gate = makeGate(clock, {
      logger: { warn: (o: unknown) => warnings.push(o), debug: () => undefined },
    });
    const attempts: number[] = [];
    const result = gate.run(call("a", "interactive"), async () => {
      attempts.push(clock.now());
      if (attempts.length <= 2) throw new RateLimited(45_000);
      return "ok";
    });
    await clock.runAll();
    expect(await result).toBe("ok");
    expect(attempts).toHaveLength(3);
    expect(attempts[1]! - attempts[0]!).toBe(45_000);
    expect(attempts[2]! - attempts[1]!).toBeGreaterThanOrEqual(45_000);
    expect(gate.slotMs("a")).toBeGreaterThan(INTERVAL + MARGIN);
    expect(warnings).toHaveLength(1);
  });

  it("answers the same question asked within a slot of its answer from that answer, and asks again after", async () => {
    const clock = new VirtualClock();
    const gate = makeGate(clock);
    let sent = 0;
    const ask = () =>
      gate.run(call("a", "report", { shareKey: "stops:25:40d" }), async () => {
        sent++;
        return `answer ${sent}`;
      });
    const first = ask();
    await clock.runAll();
    expect(await first).toBe("answer 1");
    await clock.advanceBy(1_000); // a second later: the same report typed again
    expect(await ask()).toBe("answer 1");
    expect(sent).toBe(1);
    await clock.advanceBy(INTERVAL + MARGIN); // older than a slot: asked again
    const later = ask();
    await clock.runAll();
    expect(await later).toBe("answer 2");
    // Calls without a share key (logins, mutations) are never answered from memory.
    const mutation = () => gate.run(call("a", "interactive"), async () => ++sent);
    const m1 = mutation();
    await clock.runAll();
    await m1;
    const m2 = mutation();
    await clock.runAll();
    expect(await m2).toBe(4);
  });

  it("answers an identical history report from its answer for a minute, not a lookup, and then asks again", async () => {
    // A short slot, as in the real-time bench: one slot alone would not cover reports a second apart.
    const clock = new VirtualClock();
    const gate = makeGate(clock, { minIntervalMs: 1_000, safetyMarginMs: 50 });
    let sent = 0;
    const stops = { endpoint: "stops" as const, shareKey: "stops 25 40d", history: true };
    const ask = (priority: Priority) =>
      gate.run(call("a", priority, stops), async () => {
        sent++;
        return `answer ${sent}`;
      });
    const first = ask("report");
    await clock.runAll();
    expect(await first).toBe("answer 1");
    for (let i = 0; i < 9; i++) {
      await clock.advanceBy(1_000); // typed again every second
      expect(await ask("report")).toBe("answer 1");
    }
    expect(sent).toBe(1);
    // The same key read as a lookup (interactive) is asked: reuse is for reports only.
    const lookup = ask("interactive");
    await clock.runAll();
    expect(await lookup).toBe("answer 2");
    // A minute after that answer: asked again.
    await clock.advanceBy(60_001);
    const later = ask("report");
    await clock.runAll();
    expect(await later).toBe("answer 3");
    // A present-state read (no history flag) is reused for one slot only.
    const list = () =>
      gate.run(call("a", "report", { shareKey: "company-vehicles null" }), async () => `list ${++sent}`);
    const l1 = list();
    await clock.runAll();
    expect(await l1).toBe("list 4");
    await clock.advanceBy(2_000);
    const l2 = list();
    await clock.runAll();
    expect(await l2).toBe("list 5");
  });

  it("keeps at most 16 report answers per account: the oldest is asked again", async () => {
    const clock = new VirtualClock();
    const gate = makeGate(clock, { minIntervalMs: 1_000, safetyMarginMs: 0 });
    let sent = 0;
    const ask = (n: number) =>
      gate.run(
        call("a", "report", { endpoint: "stops", shareKey: `stops ${n}`, history: true }),
        async () => {
          sent++;
          return n;
        },
      );
    for (let n = 0; n < 17; n++) {
      const p = ask(n);
      await clock.runAll();
      await p;
    }
    expect(sent).toBe(17);
    expect(await ask(16)).toBe(16); // the newest is kept
    expect(sent).toBe(17);
    const again = ask(0); // the oldest was dropped
    await clock.runAll();
    await again;
    expect(sent).toBe(18);
  });

  it("drops the widened margin after a run of 10 clean calls, and keeps it until then", async () => {
    const clock = new VirtualClock();
    const gate = makeGate(clock);
    let first = true;
    const starts: number[] = [];
    const send = async () => {
      starts.push(clock.now());
      if (first) {
        first = false;
        throw new RateLimited(1_000);
      }
      return "ok";
    };
    const calls = Array.from({ length: 12 }, () => gate.run(call("a", "report"), send));
    await clock.runAll();
    await Promise.all(calls);
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    const widened = INTERVAL + MARGIN + Math.max(250, INTERVAL / 10);
    // gaps[0]: the retry after the 429 (blocked one widened slot); then 10 clean calls at the
    // widened spacing; after the tenth the spacing is back to interval + margin.
    expect(gaps[0]).toBe(widened);
    expect(gaps.slice(1, 10)).toEqual(Array(9).fill(widened));
    expect(gaps.slice(10)).toEqual(Array(gaps.length - 10).fill(INTERVAL + MARGIN));
    expect(gate.slotMs("a")).toBe(INTERVAL + MARGIN);
  });

  it("answers a caller who cancelled while the call was out and came back 429 (nothing left to send for them)", async () => {
    const clock = new VirtualClock();
    const gate = makeGate(clock);
    const controller = new AbortController();
    let attempts = 0;
    const cancelled = gate.run(call("a", "report", { signal: controller.signal }), async () => {
      attempts++;
      controller.abort(); // Cancel pressed while the request is on the wire
      throw new RateLimited(10_000);
    });
    const failure = expect(cancelled).rejects.toBeInstanceOf(CallCancelledError);
    await clock.runAll();
    await failure;
    expect(attempts).toBe(1);
    await gate.drained();
  });

  it("passes other failures to the caller and keeps serving", async () => {
    const clock = new VirtualClock();
    const gate = makeGate(clock);
    const failed = gate.run(call("a", "interactive"), async () => {
      throw new Error("boom");
    });
    const next = gate.run(call("a", "interactive"), async () => "next");
    const failure = expect(failed).rejects.toThrow("boom");
    await clock.runAll();
    await failure;
    expect(await next).toBe("next");
  });

  it("removes a cancelled call that has not been sent, and lets a sent one finish", async () => {
    const clock = new VirtualClock();
    const gate = makeGate(clock);
    const controller = new AbortController();
    const sent: string[] = [];
    const first = gate.run(call("a", "report", { signal: controller.signal }), async () => {
      sent.push("first");
      controller.abort();
      return "finished";
    });
    const second = gate.run(
      call("a", "report", { signal: controller.signal }),
      async () => void sent.push("second"),
    );
    const secondFailure = expect(second).rejects.toBeInstanceOf(CallCancelledError);
    await clock.runAll();
    expect(await first).toBe("finished");
    await secondFailure;
    expect(sent).toEqual(["first"]);
  });

  it("reports the schedule with positions and expected starts", async () => {
    const clock = new VirtualClock();
    const gate = makeGate(clock);
    let release = () => {};
    const running = gate.run(
      call("a", "report", { taskId: "t1" }),
      () => new Promise<void>((resolve) => (release = resolve)),
    );
    const waiting = [
      gate.run(call("a", "report", { taskId: "t2" }), async () => undefined),
      gate.run(call("a", "interactive", { taskId: "t3" }), async () => undefined),
    ];
    await clock.advanceBy(0);
    const schedule = await gate.schedule("a");
    expect(schedule.running?.taskIds).toEqual(["t1"]);
    expect(schedule.waiting.map((w) => w.taskIds[0])).toEqual(["t3", "t2"]);
    expect(schedule.waiting[0]!.expectedStartAt).toBe(schedule.nextSlotAt);
    expect(schedule.waiting[1]!.expectedStartAt - schedule.waiting[0]!.expectedStartAt).toBe(
      INTERVAL + MARGIN,
    );
    release();
    await clock.runAll();
    await Promise.all([running, ...waiting]);
    await gate.drained();
  });

  it("keeps its spacing, one call in flight, priorities and sharing under random arrivals (property)", async () => {
    const arrival = fc.record({
      delayMs: fc.integer({ min: 0, max: 90_000 }),
      account: fc.constantFrom("a", "b"),
      priority: fc.constantFrom<Priority>("interactive", "alert", "report", "background"),
      shareKey: fc.option(fc.constantFrom("k1", "k2"), { nil: undefined }),
      durationMs: fc.integer({ min: 0, max: 5_000 }),
      rateLimited: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(arrival, { minLength: 1, maxLength: 40 }), async (arrivals) => {
        const clock = new VirtualClock();
        const gate = makeGate(clock);
        const starts = new Map<string, number[]>();
        let inFlight = new Map<string, number>();
        const waitingSince = new Map<number, { account: string; rank: number; shareKey?: string }>();
        const violations: string[] = [];
        const sends = new Map<number, number>();
        const promises: Promise<unknown>[] = [];
        let limited = 0;
        for (const [index, a] of arrivals.entries()) {
          await clock.advanceBy(a.delayMs);
          waitingSince.set(index, {
            account: a.account,
            rank: PRIORITY_RANK[a.priority],
            shareKey: a.shareKey,
          });
          const answered = gate.run(call(a.account, a.priority, { shareKey: a.shareKey }), async () => {
            // The call that starts must be the most urgent one waiting on that account.
            waitingSince.delete(index);
            for (const [other, w] of waitingSince) {
              if (a.shareKey && w.account === a.account && w.shareKey === a.shareKey)
                waitingSince.delete(other);
            }
            for (const [other, w] of waitingSince) {
              if (
                other !== index &&
                w.account === a.account &&
                w.rank < PRIORITY_RANK[a.priority] &&
                !a.shareKey
              ) {
                violations.push(`call ${index} started before more urgent ${other}`);
              }
            }
            const list = starts.get(a.account) ?? [];
            list.push(clock.now());
            starts.set(a.account, list);
            inFlight = new Map(inFlight).set(a.account, (inFlight.get(a.account) ?? 0) + 1);
            if ((inFlight.get(a.account) ?? 0) > 1) violations.push("two calls in flight");
            sends.set(index, (sends.get(index) ?? 0) + 1);
            await new Promise<void>((resolve) => clock.setTimeout(resolve, a.durationMs));
            inFlight.set(a.account, (inFlight.get(a.account) ?? 1) - 1);
            if (a.rateLimited && limited++ < 3 && (sends.get(index) ?? 0) === 1) throw new RateLimited(1_000);
            return index;
          });
          // A caller served by a shared call stops waiting when that call answers.
          promises.push(answered.finally(() => waitingSince.delete(index)));
        }
        await clock.runAll();
        await Promise.all(promises);
        for (const list of starts.values()) {
          for (let i = 1; i < list.length; i++) {
            if (list[i]! - list[i - 1]! < INTERVAL + MARGIN)
              violations.push(`gap ${list[i]! - list[i - 1]!}`);
          }
        }
        expect(violations).toEqual([]);
        await gate.drained();
      }),
      { numRuns: 200, seed: Number(process.env.FC_SEED ?? 20261122) },
    );
  });
});

describe("MemoryGate sharing with a call under way", () => {
  it("a caller asking what is being fetched right now gets that answer, at no extra slot", async () => {
    const clock = new VirtualClock();
    const gate = new MemoryGate({ minIntervalMs: INTERVAL, clock });
    let release: (v: string) => void = () => {};
    let sent = 0;
    const first = gate.run(call("a", "background", { shareKey: "k" }), () => {
      sent++;
      return new Promise<string>((resolve) => (release = resolve));
    });
    await clock.advanceBy(0);
    const second = gate.run(call("a", "interactive", { shareKey: "k" }), async () => `second ${++sent}`);
    release("answer");
    await clock.runAll();
    expect(await first).toBe("answer");
    expect(await second).toBe("answer");
    expect(sent).toBe(1);
  });
});

describe("MemoryGate, idle accounts", () => {
  const IDLE = 60 * 60_000;

  it("forgets an idle account's state (and tells the observer), keeps an active one's", async () => {
    const clock = new VirtualClock();
    const forgotten: string[] = [];
    const gate = makeGate(clock, {
      idleAccountMs: IDLE,
      observer: { accountForgotten: (a) => forgotten.push(a) },
    });
    const send = async () => "ok";
    const first = Promise.all([
      gate.run(call("tried-once", "interactive"), send),
      gate.run(call("busy", "report"), send),
    ]);
    await clock.runAll();
    await first;
    expect(gate.knownAccounts().sort()).toEqual(["busy", "tried-once"]);
    // "busy" keeps calling every 10 minutes; "tried-once" never comes back.
    for (let minutes = 10; minutes <= 120; minutes += 10) {
      await clock.advanceBy(10 * 60_000);
      const next = gate.run(call("busy", "report"), send);
      await clock.runAll();
      await next;
    }
    expect(gate.knownAccounts()).toEqual(["busy"]);
    expect(forgotten).toEqual(["tried-once"]);
    // A schedule look at an unknown account creates nothing.
    expect((await gate.schedule("never-called")).waiting).toEqual([]);
    expect(gate.knownAccounts()).toEqual(["busy"]);
  });

  it("never forgets an account with a call waiting, and spaces a forgotten account's next call from its last one", async () => {
    const clock = new VirtualClock();
    // An idle time shorter than the slot: forgetting must still not let a call start early.
    const gate = makeGate(clock, { idleAccountMs: 1000 });
    const starts: number[] = [];
    const send = async () => {
      starts.push(clock.now());
    };
    const waiting = Promise.all([gate.run(call("a", "report"), send), gate.run(call("a", "report"), send)]);
    await clock.advanceBy(5000); // the second call waits its slot; sweeps run on other accounts' calls
    await gate.run(call("b", "interactive"), send);
    expect(gate.knownAccounts()).toContain("a");
    await clock.runAll();
    await waiting;
    const lastStart = starts.at(-1)!;
    // Within the slot after a's last start, other accounts' calls sweep often: a is kept.
    await clock.advanceBy(2000);
    await gate.run(call("c", "interactive"), send);
    expect(gate.knownAccounts()).toContain("a");
    const again = gate.run(call("a", "report"), send);
    await clock.runAll();
    await again;
    expect(starts.at(-1)! - lastStart).toBeGreaterThanOrEqual(INTERVAL + MARGIN);
    // Past the slot and the idle time it goes, and comes back fresh on its next call.
    await clock.advanceBy(INTERVAL + MARGIN + 1000);
    await gate.run(call("d", "interactive"), send);
    expect(gate.knownAccounts()).not.toContain("a");
  });
});
