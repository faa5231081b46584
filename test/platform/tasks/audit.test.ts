/**
 * The audit trail is written by the runner's mutation journal, where the service's answer is
 * known: one entry per UIT, a refusal with the service's code, an attempt without an answer as
 * unknown, nothing for a call that never left fleetbot.
 */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ApplicationFailureError,
  RequestRuleError,
  UpstreamTransportError,
} from "../../../src/platform/fleet/errors.js";
import type { TransportActionResult } from "../../../src/platform/fleet/schemas.js";
import { CallCancelledError } from "../../../src/platform/gate/gate.js";
import { MemoryGate } from "../../../src/platform/gate/memoryGate.js";
import { SqliteAuditStore } from "../../../src/platform/store/auditStore.js";
import type { AuditRepository } from "../../../src/platform/store/contract/index.js";
import { type Db, openDatabase } from "../../../src/platform/store/database.js";
import { promised } from "../../../src/platform/store/promised.js";
import { SqliteTaskStore } from "../../../src/platform/store/taskStore.js";
import { FOUND_AFTER_INTERRUPTION } from "../../../src/platform/tasks/audit.js";
import { type TaskHandler, TaskRunner } from "../../../src/platform/tasks/runner.js";

const AT = Date.UTC(2026, 10, 3, 9, 30);
const A = "AAAAAAAAAAAAAAAA";
const B = "BBBBBBBBBBBBBBBB";

let db: Db | undefined;
afterEach(() => db?.close());

/** What the stand-in service does at each send, in order: an answer or an error. */
type Step = TransportActionResult[] | Error;

function setup(script: Step[], options: { audit?: AuditRepository; applied?: boolean } = {}) {
  db = openDatabase(":memory:");
  const audit = new SqliteAuditStore(db);
  const storeFailures: unknown[] = [];
  let sends = 0;
  const handler: TaskHandler<{ uits: string[] }, TransportActionResult[], undefined> = {
    kind: "start",
    params: z.object({ uits: z.array(z.string()) }),
    ownSession: true,
    run: (ctx) =>
      ctx.mutation(`start:${ctx.params.uits.join(",")}`, {
        // After an interrupted send the stand-in service has (or has not) started them.
        alreadyApplied: async () =>
          options.applied
            ? ctx.params.uits.map((codeUit) => ({ codeUit, isSuccess: true, errors: [], reported: false }))
            : undefined,
        send: async () => {
          const step = script[sends++];
          if (!step) throw new Error("no more answers scripted");
          if (step instanceof Error) throw step;
          return step;
        },
        audit: {
          action: "start",
          uits: ctx.params.uits,
          outcomes: (answer) =>
            answer.map((r) =>
              r.isSuccess
                ? { uit: r.codeUit, outcome: "success" as const }
                : { uit: r.codeUit, outcome: "failure" as const, message: r.errors.join("; ") },
            ),
        },
      }),
  };
  const tasks = new SqliteTaskStore(db);
  const runner = new TaskRunner<undefined>({
    store: promised(tasks),
    audit: options.audit ?? promised(audit),
    gate: new MemoryGate({ minIntervalMs: 1 }),
    handlers: [handler],
    sessionFor: async () => undefined,
    describeError: (error) => ({ kind: "test", message: (error as Error).message }),
    isRetryable: (error) => error instanceof UpstreamTransportError,
    onStoreFailure: (error) => storeFailures.push(error),
    now: () => AT,
  });
  const start = async (uits: string[]) => {
    const { task } = await runner.submit({
      kind: "start",
      params: { uits },
      account: "demo",
      slackUser: "U0DISPATCH",
      reply: {},
      priority: "interactive",
    });
    await runner.idle();
    return task.id;
  };
  const history = (uit: string) => audit.history("demo", uit, 50).entries;
  return { start, history, tasks, storeFailures, sends: () => sends };
}

const ok = (codeUit: string) => ({ codeUit, isSuccess: true, errors: [], reported: true });

describe("audit entries from the mutation journal", () => {
  it("a multi-UIT start gives each UIT its own entry with the service's answer for it", async () => {
    const s = setup([
      [ok(A), { codeUit: B, isSuccess: false, errors: ["TransportNotFound"], reported: true }],
    ]);
    const taskId = await s.start([A, B]);
    expect(s.history(A)).toEqual([
      {
        id: `${taskId}:start:${A}`,
        at: AT,
        account: "demo",
        slackUser: "U0DISPATCH",
        uit: A,
        action: "start",
        outcome: "success",
        taskId,
      },
    ]);
    expect(s.history(B)).toMatchObject([{ outcome: "failure", message: "TransportNotFound" }]);
  });

  it("a refusal of the whole call is a failure with the service's code, for every UIT", async () => {
    const refused = new ApplicationFailureError(
      "start-transports",
      [{ errorCode: "TransportAlreadyStarted", errorParameters: [A] }],
      "corr-42",
    );
    const s = setup([refused]);
    await s.start([A, B]);
    for (const uit of [A, B]) {
      expect(s.history(uit)).toMatchObject([
        {
          outcome: "failure",
          code: "TransportAlreadyStarted",
          message: `TransportAlreadyStarted (${A}); correlation id corr-42`,
        },
      ]);
    }
  });

  it("a timeout is recorded as unknown; the retry that finds the start made records the success", async () => {
    const s = setup([new UpstreamTransportError("start-transports", "timeout", "no answer in 30 s")], {
      applied: true,
    });
    await s.start([A]);
    expect(s.sends()).toBe(1);
    expect(s.history(A)).toMatchObject([
      { outcome: "unknown", code: "timeout" },
      { outcome: "success", message: FOUND_AFTER_INTERRUPTION },
    ]);
    // Same instant: the two are told apart by their ids, each attempt kept.
    expect(new Set(s.history(A).map((e) => e.id)).size).toBe(2);
  });

  it("a call that never left fleetbot (cancelled in the gate, a request rule) records nothing", async () => {
    for (const error of [
      new CallCancelledError("start-transports"),
      new RequestRuleError("start-transports", "empty-list", { subject: "uits" }),
    ]) {
      const s = setup([error]);
      await s.start([A]);
      expect(s.history(A)).toEqual([]);
      db?.close();
    }
    db = undefined;
  });

  it("a failed audit write does not undo the answer: the store is marked failing, the task still ends done", async () => {
    const broken: AuditRepository = {
      record: async () => {
        throw new Error("SQLITE_FULL: database or disk is full");
      },
      history: async () => ({ entries: [], total: 0 }),
      purgeBefore: async () => 0,
      all: async () => [],
    };
    const s = setup([[ok(A)]], { audit: broken });
    const taskId = await s.start([A]);
    expect(s.tasks.get(taskId)?.state).toBe("done");
    expect(s.storeFailures).toHaveLength(1);
    expect(s.sends()).toBe(1);
  });
});
