import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { loadConfig } from "../../src/app/config.js";
import { type Fleetbot, type StartOptions, startFleetbot } from "../../src/app/start.js";
import type { GateSchedule } from "../../src/platform/gate/gate.js";
import { createRedisFleetGate } from "../../src/platform/gate/redisFleetGate.js";
import { ACTIONS } from "../../src/platform/slack/actionIds.js";
import {
  type DriverResult,
  type FakeSlack,
  SlackDriver,
  startFakeSlack,
} from "../../src/sandbox/fakeSlack/index.js";
import { type RecordedRequest, type RunningSimulator, startSimulator } from "../../src/simulator/index.js";
import { startFleetProxy } from "./fleetProxy.js";
import { type RedisServer, startRedisServer } from "./redisServer.js";

/**
 * Several fleetbot replicas in this process on one real redis-server, one simulator (the
 * fleet service every replica calls, FLEET_API_URL) and one fake Slack, each replica with its
 * own HTTP port and its own signed driver — the load balancer is the test choosing a driver.
 *
 * `heldAnswers`: the replicas reach the simulator through a proxy that can hold the answers of
 * one endpoint (the request reaches the simulator, which records and serves it; its answer waits
 * for the test). The account's turn stays with that call, so "calls wait behind a call in
 * flight" is a state the test sets up, not a race; the simulator's arrival log stays true.
 */
export async function startReplicaHarness(
  options: {
    replicas?: number;
    intervalMs?: number;
    marginMs?: number;
    env?: Record<string, string>;
    start?: StartOptions;
    heldAnswers?: boolean;
  } = {},
) {
  const intervalMs = options.intervalMs ?? 200;
  const marginMs = options.marginMs ?? Math.round(intervalMs / 2);
  const redis: RedisServer = await startRedisServer();
  const sim: RunningSimulator = await startSimulator({
    port: 0,
    minIntervalMs: intervalMs,
    control: true,
    drift: false,
  });
  const held = options.heldAnswers ? await startFleetProxy(sim.url) : undefined;
  const fake: FakeSlack = await startFakeSlack();
  const dataDir = mkdtempSync(join(tmpdir(), "fleetbot-replicas-"));
  const env = (): Record<string, string> => ({
    SLACK_BOT_TOKEN: fake.options.botToken,
    SLACK_SIGNING_SECRET: fake.options.signingSecret,
    SLACK_API_URL: fake.apiUrl,
    PORT: "0",
    DATA_DIR: dataDir,
    REDIS_URL: redis.url,
    FLEET_API_URL: held?.url ?? sim.url,
    FLEET_USERNAME: "demo",
    FLEET_PASSWORD: "demo",
    FLEET_MIN_INTERVAL_MS: String(intervalMs),
    FLEET_SAFETY_MARGIN_MS: String(marginMs),
    LOG_LEVEL: "silent",
    CREDENTIALS_KEY: Buffer.alloc(32, 9).toString("base64"),
    ...options.env,
  });
  const bots: Fleetbot[] = [];
  const drivers: SlackDriver[] = [];
  const startReplica = async () => {
    const bot = await startFleetbot(loadConfig(env()), {
      upkeepEveryMs: 0,
      alertPolling: false,
      ...options.start,
    });
    bots.push(bot);
    drivers.push(new SlackDriver({ botUrl: `${bot.url}/slack/events`, fake }));
    return bot;
  };
  for (let i = 0; i < (options.replicas ?? 2); i++) await startReplica();

  // A read-only look at the shared gate (the replicas' key prefix): which calls wait, for which tasks.
  const observerConnection = new Redis(redis.url, { maxRetriesPerRequest: null });
  // A Redis restart is part of some tests: the observer reconnects quietly.
  observerConnection.on("error", () => undefined);
  const observer = createRedisFleetGate({
    redis: observerConnection,
    replicaId: "test-observer",
    keyPrefix: "fleetbot:gate",
    minIntervalMs: intervalMs,
    safetyMarginMs: marginMs,
    leaseMs: Math.max(1_000, intervalMs),
  });

  const harness = {
    redis,
    sim,
    fake,
    bots,
    drivers,
    held,
    intervalMs,
    startReplica,

    /** A slash command typed on one replica; the task id is read from the ack's Cancel button. */
    async command(replica: number, command: "/fleet" | "/etransport", text: string, userId: string) {
      const ack = await drivers[replica]!.slashCommand({ command, text, userId, channelId: CHANNEL });
      return { ack, responseUrl: responseUrlOf(ack), taskId: cancelValueOf(ack.body) };
    },

    /** The messages a response_url carried, in order (progress updates and the answer). */
    responsesTo(responseUrl: string) {
      return fake.responses.filter((r) => r.url === responseUrl);
    },

    /** Answers (not progress updates) a response_url carried. */
    answersTo(responseUrl: string) {
      return harness.responsesTo(responseUrl).filter((r) => r.status === 200 && !isProgress(r.body));
    },

    /** GET /healthz of one replica. */
    async healthz(replica: number): Promise<{ status: number; body: Record<string, unknown> }> {
      const response = await fetch(`${bots[replica]!.url}/healthz`);
      const body: unknown = await response.json();
      return { status: response.status, body: isRecord(body) ? body : {} };
    },

    /** The shared gate's schedule of one fleet account, as every replica sees it. */
    gateSchedule(account = "demo"): Promise<GateSchedule> {
      return observer.schedule(account);
    },

    /** Every request the simulator received, oldest first. */
    requests(): RecordedRequest[] {
      return sim.control.requests(1_000_000);
    },

    /**
     * Requests of one account that started closer to the previous one than FLEET_MIN_INTERVAL_MS,
     * read from the simulator's arrival log (the independent judge), and its own 429 count.
     */
    spacing(account = "demo") {
      const mine = harness.requests().filter((r) => r.username === account);
      const tooClose: { endpoint: string | null; gapMs: number }[] = [];
      for (let i = 1; i < mine.length; i++) {
        const gapMs = Date.parse(mine[i]!.at) - Date.parse(mine[i - 1]!.at);
        if (gapMs < intervalMs) tooClose.push({ endpoint: mine[i]!.endpoint, gapMs });
      }
      return { requests: mine.length, tooClose, rateLimited: sim.control.stats().rateLimited[account] ?? 0 };
    },

    /**
     * Waits until every replica is quiet and the shared store has no unfinished or undelivered
     * task: every job ran, every answer went out.
     */
    async settle(timeoutMs = 30_000) {
      await until(async () => {
        for (const bot of bots) {
          await bot.slack.idle();
          await bot.runner.idle();
          await bot.delivery.settled();
        }
        const store = bots[0]!.tasks;
        return (await store.unfinished()).length === 0 && (await store.undelivered()).length === 0;
      }, timeoutMs);
    },

    async close() {
      held?.release();
      for (const bot of bots) await bot.close().catch(() => undefined);
      await observer.close().catch(() => undefined);
      observerConnection.disconnect();
      await held?.close();
      await fake.close();
      await sim.close();
      await redis.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

export type ReplicaHarness = Awaited<ReturnType<typeof startReplicaHarness>>;

/** The channel the replica tests type in (the bot is a member). */
export const CHANNEL = "C0GENERAL";

/** Waits for a condition, polling; throws when it does not hold in time. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 15_000,
  what = "condition",
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function responseUrlOf(ack: DriverResult<Record<string, string>>): string {
  const url = ack.payload.response_url;
  if (!url) throw new Error("the slash command carried no response_url");
  return url;
}

/** The task id of a progress message: its Cancel button's value. */
export function cancelValueOf(body: unknown): string | undefined {
  if (Array.isArray(body)) {
    for (const item of body) {
      const found = cancelValueOf(item);
      if (found) return found;
    }
    return undefined;
  }
  if (!isRecord(body)) return undefined;
  if (body.type === "button" && body.action_id === ACTIONS.cancelTask && typeof body.value === "string")
    return body.value;
  for (const value of Object.values(body)) {
    const found = cancelValueOf(value);
    if (found) return found;
  }
  return undefined;
}

/** A progress message (queued / n of m requests), as opposed to an answer. */
function isProgress(body: unknown): boolean {
  return JSON.stringify(body ?? null).includes('"block_id":"progress-');
}
