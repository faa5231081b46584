/**
 * Multi-workspace mode with one or more fleetbot replicas in this process: the fake Slack (two
 * teams installed through "Add to Slack", signed requests), the simulator behind a pass-through
 * proxy (FLEET_API_URL; the proxy holds one endpoint's answers when the test asks), and, with more
 * than one replica, one redis-server of the test file's own (REDIS_URL) with CREDENTIALS_KEY set,
 * so the replicas share tokens and the accepted-password record. One replica runs on SQLite.
 *
 * Each replica has its own HTTP port and its own drivers (one per team): the load balancer is the
 * test choosing a replica. Upkeep and alert sweeps run only when the test calls them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, vi } from "vitest";
import { loadConfig } from "../../src/app/config.js";
import { type Fleetbot, startFleetbot } from "../../src/app/start.js";
import { INPUTS } from "../../src/platform/slack/actionIds.js";
import { SlackDriver, startFakeSlack } from "../../src/sandbox/fakeSlack/index.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/index.js";
import { textOf } from "./botHarness.js";
import { startFleetProxy } from "./fleetProxy.js";
import { installWorkspace } from "./installFlow.js";
import { TEAM_A, TEAM_B } from "./multiWorkspaceHarness.js";
import { startRedisServer } from "./redisServer.js";
import { until } from "./replicaHarness.js";

/** The two teams as the tests act in them: workspace key, a user and a channel of each. */
export const TEAMS = {
  A: { key: `T:${TEAM_A}`, user: "U0DISPATCH", channel: "C0GENERAL" },
  B: { key: `T:${TEAM_B}`, user: "U0SECDISP", channel: "C0SECGENERAL" },
} as const;
export type Team = keyof typeof TEAMS;

export interface WorkspaceReplicasOptions {
  replicas: number;
  /** Lifetime of the simulator's tokens (default: the simulator's). */
  tokenTtlSeconds?: number;
  /** FLEET_MIN_INTERVAL_MS and the simulator's (default 60). */
  intervalMs?: number;
  /** VEHICLE_CACHE_TTL_MS (default: the bot's, 15 minutes). */
  cacheTtlMs?: number;
  /** Prefix of the data directory's name. */
  dataDirPrefix?: string;
}

export async function startWorkspaceReplicas(options: WorkspaceReplicasOptions) {
  const intervalMs = options.intervalMs ?? 60;
  const redis = options.replicas > 1 ? await startRedisServer() : undefined;
  const sim: RunningSimulator = await startSimulator({
    port: 0,
    minIntervalMs: intervalMs,
    control: true,
    drift: false,
    ...(options.tokenTtlSeconds !== undefined ? { tokenTtlSeconds: options.tokenTtlSeconds } : {}),
  });
  const proxy = await startFleetProxy(sim.url);
  const fake = await startFakeSlack();
  const dataDir = mkdtempSync(join(tmpdir(), options.dataDirPrefix ?? "fleetbot-workspace-replicas-"));
  const env: Record<string, string> = {
    SLACK_CLIENT_ID: fake.options.oauth.clientId,
    SLACK_CLIENT_SECRET: fake.options.oauth.clientSecret,
    SLACK_STATE_SECRET: "words-that-sign-install-states",
    SLACK_SIGNING_SECRET: fake.options.signingSecret,
    SLACK_API_URL: fake.apiUrl,
    PORT: "0",
    DATA_DIR: dataDir,
    FLEET_API_URL: proxy.url,
    FLEET_MIN_INTERVAL_MS: String(intervalMs),
    FLEET_SAFETY_MARGIN_MS: "5",
    ...(options.cacheTtlMs !== undefined ? { VEHICLE_CACHE_TTL_MS: String(options.cacheTtlMs) } : {}),
    LOG_LEVEL: "silent",
    CREDENTIALS_KEY: Buffer.alloc(32, 7).toString("base64"),
    ...(redis ? { REDIS_URL: redis.url } : {}),
  };
  const bots: Fleetbot[] = [];
  for (let i = 0; i < options.replicas; i++)
    bots.push(await startFleetbot(loadConfig(env), { upkeepEveryMs: 0, alertPolling: false }));
  fake.oauth.configuredRedirectUri = `${bots[0]!.url}/slack/oauth_redirect`;
  const drivers = bots.map((bot) => {
    const a = new SlackDriver({ botUrl: `${bot.url}/slack/events`, fake });
    return { A: a, B: a.asTeam(TEAM_B) };
  });

  const bed = {
    sim,
    proxy,
    fake,
    bots,
    drivers,
    redis,
    /** Every replica quiet and no task of the shared store unfinished or undelivered. */
    async settle() {
      await until(async () => {
        for (const bot of bots) {
          await bot.slack.idle();
          await bot.runner.idle();
          await bot.delivery.settled();
        }
        const store = bots[0]!.tasks;
        return (await store.unfinished()).length === 0 && (await store.undelivered()).length === 0;
      }, 30_000);
    },
    /** Requests as `username` that reached the simulator at or after `sinceMs`. */
    callsAs(username: string, sinceMs = 0) {
      return sim.control
        .requests(1_000_000)
        .filter((r) => r.username === username && Date.parse(r.at) >= sinceMs);
    },
    /** A team's `/fleet <text>` sent to one replica; resolves once that replica's listener is done. */
    async command(replica: number, team: Team, text: string, userId: string = TEAMS[team].user) {
      const result = await drivers[replica]![team].slashCommand({
        command: "/fleet",
        text,
        userId,
        channelId: TEAMS[team].channel,
      });
      await bots[replica]!.slack.idle();
      return result;
    },
    /** `/fleet login` on one replica, the form submitted, the (English) answer awaited in the user's DM. */
    async link(replica: number, team: Team, username: string, password: string, userId = TEAMS[team].user) {
      const driver = drivers[replica]![team];
      const ws = driver.workspace;
      const opened = () => ws.calls.filter((c) => c.method === "views.open" && c.ok).length;
      const before = opened();
      const dmBefore = ws.messages(userId).length;
      await bed.command(replica, team, "login", userId);
      await vi.waitFor(() => expect(opened()).toBeGreaterThan(before));
      const view = [...ws.viewsSnapshot().values()]
        .filter((v) => v.user === userId && v.type === "modal")
        .at(-1)!;
      await driver.viewSubmission({
        userId,
        viewId: view.id,
        values: {
          [INPUTS.loginUsername.block]: { [INPUTS.loginUsername.action]: username },
          [INPUTS.loginPassword.block]: { [INPUTS.loginPassword.action]: password },
        },
      });
      await bed.settle();
      await vi.waitFor(() =>
        expect(
          ws
            .messages(userId)
            .slice(dmBefore)
            .map((m) => textOf(m))
            .join("\n"),
        ).toMatch(/Linked: your commands now run as the fleet account/),
      );
    },
    async close() {
      proxy.release();
      for (const bot of bots) await bot.close().catch(() => undefined);
      await proxy.close();
      await fake.close();
      await sim.close();
      await redis?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  for (const teamId of [TEAM_A, TEAM_B]) {
    const installed = await installWorkspace(bots[0]!.url, fake, { teamId });
    expect(installed.status).toBe(200);
  }
  return bed;
}

export type WorkspaceReplicas = Awaited<ReturnType<typeof startWorkspaceReplicas>>;
