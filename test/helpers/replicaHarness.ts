import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.js";
import { type Fleetbot, type StartOptions, startFleetbot } from "../../src/main.js";
import { type FakeSlack, SlackDriver, startFakeSlack } from "../../src/sandbox/fakeSlack/index.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/index.js";
import { type RedisServer, startRedisServer } from "./redisServer.js";

/**
 * Several fleetbot replicas in this process on one real redis-server, one simulator (the
 * fleet service every replica calls, FLEET_API_URL) and one fake Slack, each replica with its
 * own HTTP port and its own signed driver — the load balancer is the test choosing a driver.
 */
export async function startReplicaHarness(
  options: {
    replicas?: number;
    intervalMs?: number;
    marginMs?: number;
    env?: Record<string, string>;
    start?: StartOptions;
  } = {},
) {
  const intervalMs = options.intervalMs ?? 200;
  const redis: RedisServer = await startRedisServer();
  const sim: RunningSimulator = await startSimulator({
    port: 0,
    minIntervalMs: intervalMs,
    control: true,
    drift: false,
  });
  const fake: FakeSlack = await startFakeSlack();
  const dataDir = mkdtempSync(join(tmpdir(), "fleetbot-replicas-"));
  const env = (): Record<string, string> => ({
    SLACK_BOT_TOKEN: fake.options.botToken,
    SLACK_SIGNING_SECRET: fake.options.signingSecret,
    SLACK_API_URL: fake.apiUrl,
    PORT: "0",
    DATA_DIR: dataDir,
    REDIS_URL: redis.url,
    FLEET_API_URL: sim.url,
    FLEET_USERNAME: "demo",
    FLEET_PASSWORD: "demo",
    FLEET_MIN_INTERVAL_MS: String(intervalMs),
    FLEET_SAFETY_MARGIN_MS: String(options.marginMs ?? Math.round(intervalMs / 2)),
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
  return {
    redis,
    sim,
    fake,
    bots,
    drivers,
    startReplica,
    async close() {
      for (const bot of bots) await bot.close().catch(() => undefined);
      await fake.close();
      await sim.close();
      await redis.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
