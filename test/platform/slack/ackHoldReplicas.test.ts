/**
 * "Answers wait for acks" across replicas: replica A acknowledges a command while replica B
 * (which took the task from the shared queue) finishes it. B's answer must not reach the
 * response_url before A's ack, or the ack's stale "queued" message replaces it. Two
 * TaskDelivery instances, each with its own Redis connection on a real redis-server, post to a
 * local server standing in for Slack's response_url; the order of events is recorded.
 * Also: the per-task progress bookkeeping stays bounded when other replicas finish the tasks.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staleAnswerRefresh, underWayMessage } from "../../../src/features/renderRegistry.js";
import { TaskDelivery } from "../../../src/platform/slack/delivery.js";
import type { TaskRepository } from "../../../src/platform/store/contract/index.js";
import { openDatabase } from "../../../src/platform/store/database.js";
import { promised } from "../../../src/platform/store/promised.js";
import { RedisSharedState } from "../../../src/platform/store/redis/sharedState.js";
import { MemorySharedState, type SharedState } from "../../../src/platform/store/sharedState.js";
import { SqliteTaskStore } from "../../../src/platform/store/taskStore.js";
import type { TaskRecord } from "../../../src/platform/tasks/task.js";
import { redisForTests, redisSkipReason } from "../../helpers/redisServer.js";

const silent = { warn() {}, info() {}, debug() {}, error() {} };

/** The order things happened in, across both replicas and the stand-in for Slack. */
const events: string[] = [];
let hooks: Server;
let apiUrl: string;
let dir: string;
let store: TaskRepository;

beforeAll(async () => {
  hooks = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      events.push(`posted ${req.url}`);
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => hooks.listen(0, "127.0.0.1", resolve));
  apiUrl = `http://127.0.0.1:${(hooks.address() as { port: number }).port}/api/`;
  dir = mkdtempSync(join(tmpdir(), "fleetbot-ackhold-"));
  store = promised(new SqliteTaskStore(openDatabase(dir)));
});
afterAll(async () => {
  await new Promise((resolve) => hooks.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

type Listeners = { finished?: (task: TaskRecord) => void };

function replica(ackMarks: SharedState | undefined) {
  const listeners: Listeners = {};
  const delivery = new TaskDelivery({
    defaultLanguage: "en",
    clientFor: async () => ({}) as WebClient,
    store,
    runner: {
      on: (l) => {
        Object.assign(listeners, l);
        return () => {};
      },
      markDelivered: async () => {},
    },
    render: async () => ({ message: { text: "the answer", blocks: [] } }),
    describe: () => "where",
    underWayMessage,
    staleAnswerRefresh,
    logger: silent,
    slackApiUrl: apiUrl,
    ackWaitMs: 5_000,
    ...(ackMarks ? { ackMarks } : {}),
  });
  delivery.attach();
  return { delivery, finish: (task: TaskRecord) => listeners.finished?.(task) };
}

async function storedTask(hook: string): Promise<TaskRecord> {
  const reply = {
    responseUrl: `${apiUrl.replace("/api/", "")}/hooks/${hook}`,
    responseUrlIssuedAt: Date.now(),
    responseUrlUses: 0,
  };
  const { task } = await store.create({
    kind: "vehicle-report",
    params: {},
    account: "demo",
    reply,
    priority: "interactive",
  });
  return task;
}

describe.skipIf(redisSkipReason !== undefined)(redisSkipReason ?? "ack hold across replicas", () => {
  const redis = redisForTests();

  it("replica B's answer waits until replica A has sent the ack", async () => {
    events.length = 0;
    const prefix = `ackhold:${Date.now()}:`;
    const a = replica(new RedisSharedState(redis.connect(), { prefix }));
    const b = replica(new RedisSharedState(redis.connect(), { prefix }));
    const task = await storedTask("one");
    // A takes the hold before storing the task, as the listener does, then is slow to ack.
    const hold = await a.delivery.holdUntilAck(task.reply);
    b.finish(task);
    await new Promise((resolve) => setTimeout(resolve, 300));
    events.push("ack sent by A");
    hold.release(task.id);
    await b.delivery.settled();
    expect(events).toEqual(["ack sent by A", "posted /hooks/one"]);
  });

  it("without a pending ack the answer goes at once", async () => {
    events.length = 0;
    const prefix = `ackhold-free:${Date.now()}:`;
    const b = replica(new RedisSharedState(redis.connect(), { prefix }));
    const task = await storedTask("two");
    b.finish(task);
    await b.delivery.settled();
    expect(events).toEqual(["posted /hooks/two"]);
  });
});

describe("progress bookkeeping", () => {
  it("stays bounded when the tasks acknowledged here are finished elsewhere", async () => {
    const a = replica(new MemorySharedState());
    for (let i = 0; i < 10_050; i++) {
      const hold = await a.delivery.holdUntilAck({ responseUrl: `${apiUrl}hooks/${i}` });
      hold.release(`task-${i}`);
    }
    expect(a.delivery.progressEntries).toBeLessThanOrEqual(10_000);
  });
});
