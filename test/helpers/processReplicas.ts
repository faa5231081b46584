import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { type FakeSlack, SlackDriver, startFakeSlack } from "../../src/sandbox/fakeSlack/index.js";
import { type RunningSimulator, type SimulatorOptions, startSimulator } from "../../src/simulator/index.js";
import { listeningUrl } from "./botLog.js";
import { startFleetProxy, type UpstreamRequest } from "./fleetProxy.js";
import { type RedisServer, startRedisServer } from "./redisServer.js";

/**
 * fleetbot replicas as real child processes — what `kill -9` needs — on one real redis-server,
 * with one simulator (the fleet service) and one fake Slack in the calling process.
 *
 * Each replica reaches the simulator through a pass-through proxy of its own, so the caller knows
 * which replica sent which upstream request (the simulator itself sees one account and cannot
 * tell them apart). The gate is keyed by the account, not the URL: the proxies change nothing
 * about spacing, and they add a loopback hop of well under a millisecond.
 *
 * `entry: "source"` runs `node --import tsx src/main.ts` (tests); `"built"` runs `node dist/main.js`
 * (the benchmark, after `npm run build`).
 */

export const REPO = join(import.meta.dirname, "..", "..");

export type { UpstreamRequest } from "./fleetProxy.js";

export interface ReplicaProcess {
  /** "A", "B", "C"… in start order. */
  readonly name: string;
  readonly pid: number;
  /** The replica's HTTP base URL (its /slack/events, /healthz). */
  readonly url: string;
  /** Signed Slack requests to this replica (the load balancer is the caller choosing one). */
  readonly driver: SlackDriver;
  /** Upstream requests this replica sent, oldest first. */
  readonly upstream: readonly UpstreamRequest[];
  /** ms from spawn to its "fleetbot listening" line. */
  readonly startMs: number;
  alive(): boolean;
  /** kill -9: no shutdown code runs; resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM (graceful), SIGKILL after a bound. */
  stop(): Promise<void>;
  /** The last lines the replica logged (for a failing test's message). */
  logTail(lines?: number): string;
}

export interface ProcessReplicasOptions {
  replicas?: number;
  intervalMs?: number;
  marginMs?: number;
  entry?: "source" | "built";
  /** Extra environment for every replica. */
  env?: Record<string, string>;
  simulator?: Omit<SimulatorOptions, "port" | "minIntervalMs">;
  /** Per replica; a loaded machine starts tsx slowly. */
  startTimeoutMs?: number;
  logLevel?: string;
}

export interface ProcessReplicas {
  redis: RedisServer;
  sim: RunningSimulator;
  fake: FakeSlack;
  /** Every replica started, dead ones included, in start order. */
  replicas: ReplicaProcess[];
  intervalMs: number;
  marginMs: number;
  startReplica(): Promise<ReplicaProcess>;
  /** The live replicas whose proxy saw a request to a path ending with `/<suffix>` since `since`. */
  sentBy(suffix: string, since?: number): ReplicaProcess[];
  close(): Promise<void>;
}

export async function startProcessReplicas(options: ProcessReplicasOptions = {}): Promise<ProcessReplicas> {
  const intervalMs = options.intervalMs ?? 500;
  const marginMs = options.marginMs ?? Math.round(intervalMs / 4);
  const redis = await startRedisServer();
  const sim = await startSimulator({
    port: 0,
    minIntervalMs: intervalMs,
    control: true,
    drift: false,
    ...options.simulator,
  });
  const fake = await startFakeSlack();
  const dataDir = mkdtempSync(join(tmpdir(), "fleetbot-processes-"));
  const replicas: ReplicaProcess[] = [];
  const proxies: { close(): Promise<void> }[] = [];
  const entry =
    options.entry === "built"
      ? [join(REPO, "dist", "main.js")]
      : ["--import", "tsx", join(REPO, "src", "main.ts")];

  let started = 0;
  const startReplica = async (): Promise<ReplicaProcess> => {
    const name = String.fromCharCode(65 + started++);
    const proxy = await startFleetProxy(sim.url);
    proxies.push(proxy);
    const spawnedAt = performance.now();
    const child: ChildProcess = spawn(process.execPath, entry, {
      cwd: REPO,
      stdio: ["ignore", "pipe", "pipe"],
      // Only what the bot reads: the test runner's own variables (CI, VITEST…) stay out.
      env: {
        PATH: process.env.PATH ?? "",
        ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
        NODE_ENV: "production",
        PORT: "0",
        REDIS_URL: redis.url,
        FLEET_API_URL: proxy.url,
        FLEET_USERNAME: "demo",
        FLEET_PASSWORD: "demo",
        FLEET_MIN_INTERVAL_MS: String(intervalMs),
        FLEET_SAFETY_MARGIN_MS: String(marginMs),
        SLACK_API_URL: fake.apiUrl,
        SLACK_BOT_TOKEN: fake.options.botToken,
        SLACK_SIGNING_SECRET: fake.options.signingSecret,
        CREDENTIALS_KEY: Buffer.alloc(32, 9).toString("base64"),
        // Not opened in the Redis mode; set so nothing falls back to the working directory.
        DATA_DIR: dataDir,
        LOG_LEVEL: options.logLevel ?? "info",
        // No alert sweep unless asked: a tick a year away is never reached.
        ALERTS_CRON: "0 0 1 1 *",
        ...options.env,
      },
    });
    const pid = child.pid;
    if (pid === undefined) throw new Error(`replica ${name} could not be started`);
    const tail: string[] = [];
    const keep = (line: string) => {
      tail.push(line);
      if (tail.length > 400) tail.shift();
    };
    // Both streams are read to the end: a full pipe would stall the replica.
    createInterface({ input: child.stderr! }).on("line", (line) => keep(`stderr: ${line}`));
    const lines = createInterface({ input: child.stdout! });
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once("exit", () => resolve());
    });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`replica ${name} did not start in time:\n${tail.slice(-20).join("\n")}`));
      }, options.startTimeoutMs ?? 90_000);
      lines.on("line", (line) => {
        keep(line);
        const found = listeningUrl(line);
        if (found) {
          clearTimeout(timer);
          resolve(found);
        }
      });
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`replica ${name} exited (${code ?? signal}) before listening:\n${tail.join("\n")}`));
      });
    });
    const startMs = performance.now() - spawnedAt;
    const replica: ReplicaProcess = {
      name,
      pid,
      url,
      startMs,
      driver: new SlackDriver({ botUrl: `${url}/slack/events`, fake, ackTimeoutMs: 30_000 }),
      upstream: proxy.log,
      alive: () => child.exitCode === null && child.signalCode === null,
      async kill() {
        if (replica.alive()) process.kill(pid, "SIGKILL");
        await exited;
      },
      async stop() {
        if (replica.alive()) child.kill("SIGTERM");
        const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
        await exited;
        clearTimeout(killer);
      },
      logTail: (count = 40) => tail.slice(-count).join("\n"),
    };
    replicas.push(replica);
    replicas.sort((a, b) => a.name.localeCompare(b.name));
    return replica;
  };

  // Started side by side (a tsx start takes seconds); one that fails takes the others down.
  const starts = await Promise.allSettled(
    Array.from({ length: options.replicas ?? 2 }, () => startReplica()),
  );
  const failed = starts.find((s) => s.status === "rejected");
  if (failed) {
    for (const replica of replicas) await replica.kill();
    await Promise.all(proxies.map((p) => p.close()));
    await fake.close();
    await sim.close();
    await redis.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw failed.reason;
  }

  return {
    redis,
    sim,
    fake,
    replicas,
    intervalMs,
    marginMs,
    startReplica,
    sentBy: (suffix, since = 0) =>
      replicas.filter(
        (r) => r.alive() && r.upstream.some((u) => u.at >= since && u.path.endsWith(`/${suffix}`)),
      ),
    async close() {
      await Promise.all(replicas.map((replica) => replica.stop()));
      await Promise.all(proxies.map((p) => p.close()));
      await fake.close();
      await sim.close();
      await redis.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
