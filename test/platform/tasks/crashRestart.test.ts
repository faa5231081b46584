import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/platform/store/database.js";
import { SqliteTaskStore } from "../../../src/platform/store/taskStore.js";
import type { NewTask } from "../../../src/platform/tasks/task.js";
import { type RunningSimulator, startSimulator } from "../../../src/simulator/index.js";

const worker = join(import.meta.dirname, "..", "..", "helpers", "taskWorker.ts");
let sim: RunningSimulator | undefined;
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  await sim?.close();
  sim = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface WorkerLine {
  submitted?: string;
  finished?: string;
  state?: string;
  result?: unknown;
}

function runWorker(env: Record<string, string>): {
  child: ChildProcess;
  lines: WorkerLine[];
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, ["--import", "tsx", worker], {
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr!.on("data", (chunk: Buffer) => process.stderr.write(`[worker] ${chunk}`));
  children.push(child);
  const lines: WorkerLine[] = [];
  let buffer = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split("\n");
    buffer = parts.pop()!;
    for (const part of parts) {
      if (!part.trim()) continue;
      const line = JSON.parse(part) as WorkerLine & { msg?: string };
      if (!line.msg) lines.push(line);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, lines, exited };
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("a fleetbot process killed with queued tasks", () => {
  it("finishes every task exactly once after a restart, and never sends an interrupted mutation twice", async () => {
    // The service's own limit is below the bot's spacing (as in production, where the margin covers
    // the network): a 429 here would make the gate resend, which is not what these tests are about.
    sim = await startSimulator({ port: 0, minIntervalMs: 50, control: true, drift: false });
    const dataDir = mkdtempSync(join(tmpdir(), "fleetbot-crash-"));
    dirs.push(dataDir);
    const pending = sim.control
      .transports()
      .filter((t) => t.statusId === 1 && t.validityStartDate <= Date.now())
      .map((t) => t.codeUit);
    // A paused transport is started again (resumed) like a pending one.
    pending.push(
      ...sim.control
        .transports()
        .filter((t) => t.statusId === 6)
        .map((t) => t.codeUit),
    );
    const inProgress = sim.control
      .transports()
      .filter((t) => t.statusId === 2)
      .map((t) => t.codeUit);
    expect(pending.length).toBeGreaterThanOrEqual(2);
    expect(inProgress.length).toBeGreaterThanOrEqual(2);
    const tasks: NewTask[] = [
      {
        kind: "transport-action",
        params: { action: "start", uits: [pending[0]] },
        account: "demo",
        reply: { channel: "C1" },
        priority: "interactive",
      },
      {
        kind: "transport-action",
        params: { action: "pause", uits: [inProgress[0]] },
        account: "demo",
        reply: { channel: "C1" },
        priority: "interactive",
      },
      {
        kind: "transport-action",
        params: { action: "start", uits: [pending[1]] },
        account: "demo",
        reply: { channel: "C1" },
        priority: "interactive",
      },
      {
        kind: "transport-action",
        params: { action: "pause", uits: [inProgress[1]] },
        account: "demo",
        reply: { channel: "C1" },
        priority: "interactive",
      },
    ];
    // The first start reaches the service, which holds its answer: the process dies between send and record.
    await fetch(`${sim.url}/__control/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ kind: "delayAnswer", count: 1, delayMs: 5_000, endpoint: "start-transports" }),
    });
    const env = { DATA_DIR: dataDir, FLEET_API_URL: sim.url, FLEET_MIN_INTERVAL_MS: "100" };
    const first = runWorker({ ...env, SUBMIT: JSON.stringify(tasks) });
    // The service has applied the start (its answer is still held back): kill now.
    await until(() => sim!.control.transports().some((t) => t.codeUit === pending[0] && t.statusId === 2));
    first.child.kill("SIGKILL");
    await first.exited;
    expect(first.lines.filter((l) => l.submitted)).toHaveLength(4);
    expect(first.lines.filter((l) => l.finished)).toHaveLength(0);

    const second = runWorker(env);
    expect(await second.exited).toBe(0);

    const finished = [...first.lines, ...second.lines].filter((l) => l.finished);
    const ids = first.lines.flatMap((l) => (l.submitted ? [l.submitted] : []));
    expect(finished.map((l) => l.finished).sort()).toEqual([...ids].sort());
    expect(finished.every((l) => l.state === "done")).toBe(true);
    for (const line of finished) {
      expect(line.result).toEqual({ results: [expect.objectContaining({ isSuccess: true })], after: [] });
    }

    const sent = sim.control
      .requests()
      .filter((r) => r.endpoint?.endsWith("-transports") && r.endpoint !== "load-transports");
    const perUit = new Map<string, number>();
    for (const request of sent) {
      const body = request.body as { transports: { codeUit: string }[] };
      for (const { codeUit } of body.transports) perUit.set(codeUit, (perUit.get(codeUit) ?? 0) + 1);
    }
    expect(Object.fromEntries(perUit)).toEqual({
      [pending[0]!]: 1,
      [inProgress[0]!]: 1,
      [pending[1]!]: 1,
      [inProgress[1]!]: 1,
    });
    const states = new Map(sim.control.transports().map((t) => [t.codeUit, t.statusId]));
    expect([states.get(pending[0]!), states.get(pending[1]!)]).toEqual([2, 2]);
    expect([states.get(inProgress[0]!), states.get(inProgress[1]!)]).toEqual([6, 6]);

    const db = openDatabase(dataDir);
    const store = new SqliteTaskStore(db);
    expect(store.unfinished()).toEqual([]);
    expect(store.undelivered()).toEqual([]);
    db.close();
  }, 30_000);

  it("a new transport whose add-transport reached the service before the crash is not added twice", async () => {
    // The service's own limit is below the bot's spacing (as in production, where the margin covers
    // the network): a 429 here would make the gate resend, which is not what these tests are about.
    sim = await startSimulator({ port: 0, minIntervalMs: 50, control: true, drift: false });
    const dataDir = mkdtempSync(join(tmpdir(), "fleetbot-crash-add-"));
    dirs.push(dataDir);
    const vehicle = sim.vehicles[3]!;
    const now = Date.now();
    const task: NewTask = {
      kind: "transport-save",
      params: {
        draft: {
          vehicleUId: vehicle.vehicleUId,
          codeUit: "CRAS0000ADD00001",
          vatNumber: "RO16341004",
          validityStartMs: now + 3_600_000,
          validityEndMs: now + 3 * 86_400_000,
        },
        timeZone: "Europe/Bucharest",
      },
      account: "demo",
      reply: { channel: "C1" },
      priority: "interactive",
    };
    await fetch(`${sim.url}/__control/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ kind: "delayAnswer", count: 1, delayMs: 5_000, endpoint: "add-transport" }),
    });
    const env = { DATA_DIR: dataDir, FLEET_API_URL: sim.url, FLEET_MIN_INTERVAL_MS: "100" };
    const first = runWorker({ ...env, SUBMIT: JSON.stringify([task]) });
    await until(() => sim!.control.transports().some((t) => t.codeUit === "CRAS0000ADD00001"));
    first.child.kill("SIGKILL");
    await first.exited;
    const second = runWorker(env);
    expect(await second.exited).toBe(0);
    const finished = second.lines.find((l) => l.finished);
    expect(finished?.state).toBe("done");
    expect(finished?.result).toMatchObject({
      saved: true,
      alreadyThere: true,
      transport: { codeUit: "CRAS0000ADD00001" },
    });
    expect(sim.control.requests(500).filter((r) => r.endpoint === "add-transport")).toHaveLength(1);
    expect(sim.control.transports().filter((t) => t.codeUit === "CRAS0000ADD00001")).toHaveLength(1);
  }, 30_000);
});
