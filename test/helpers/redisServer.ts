import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis, type RedisOptions } from "ioredis";
import { afterAll, afterEach, beforeAll } from "vitest";
import { realClockEnv } from "./realClock.js";

/**
 * A real redis-server (Debian's package) for one test file: a free port, a temporary
 * directory, AOF on (the mode the README asks for), stopped and removed at the end.
 *
 * Outside CI a machine without redis-server skips the Redis tests and says why; under CI a
 * missing redis-server fails the run (.ci/run installs it).
 */

/** redis-server runs on the machine's real clock, even in a calendar run (realClock.ts says why). */
const REDIS_ENV = realClockEnv();

function findRedisServer(): string | undefined {
  for (const candidate of ["redis-server", "/usr/bin/redis-server", "/usr/sbin/redis-server"]) {
    try {
      execFileSync(candidate, ["--version"], { stdio: "ignore", env: REDIS_ENV, timeout: 10_000 });
      return candidate;
    } catch {
      // try the next
    }
  }
  return undefined;
}

const binary = findRedisServer();

/** Why the Redis tests cannot run here, or undefined when they can. */
export const redisSkipReason: string | undefined = binary
  ? undefined
  : "redis-server is not installed (apt-get install redis-server); the Redis tests are skipped";

if (redisSkipReason && process.env.CI) {
  throw new Error(`CI is set and ${redisSkipReason.replace("; the Redis tests are skipped", "")}`);
}
if (redisSkipReason) {
  console.warn(`[redis tests skipped] ${redisSkipReason}`);
}

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function answersPing(port: number): Promise<boolean> {
  return await new Promise((resolve) => {
    const socket = new Socket();
    let data = "";
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once("error", () => done(false));
    socket.on("data", (chunk) => {
      data += chunk.toString();
      if (data.includes("PONG")) done(true);
      // A server still loading its AOF answers -LOADING: not ready yet.
      else if (data.startsWith("-")) done(false);
    });
    socket.connect(port, "127.0.0.1", () => socket.write("PING\r\n"));
  });
}

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  readonly dir: string;
  /** Stops the server the hard way (kill -9): what AOF must survive. */
  kill(): Promise<void>;
  /** Starts it again on the same port and directory (the AOF is read back). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startRedisServer(options: { appendonly?: boolean } = {}): Promise<RedisServer> {
  if (!binary) throw new Error(redisSkipReason);
  const redisBinary = binary;
  const dir = mkdtempSync(join(tmpdir(), "fleetbot-redis-"));
  let port = 0;
  let child: ChildProcess | undefined;

  const launch = async (): Promise<void> => {
    const args = [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--dir",
      dir,
      "--save",
      "",
      "--appendonly",
      options.appendonly === false ? "no" : "yes",
      "--appendfsync",
      "always",
      "--daemonize",
      "no",
      "--loglevel",
      "warning",
    ];
    const proc = spawn(redisBinary, args, { stdio: ["ignore", "ignore", "pipe"], env: REDIS_ENV });
    let stderr = "";
    proc.stderr?.on("data", (chunk) => {
      stderr += chunk.toString();
    });
    child = proc;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (proc.exitCode !== null) throw new Error(`redis-server exited: ${stderr.trim()}`);
      if (await answersPing(port)) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    proc.kill("SIGKILL");
    throw new Error(`redis-server did not answer on port ${port}: ${stderr.trim()}`);
  };

  // A free port can be taken between the probe and redis' bind: try a few.
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    try {
      await launch();
      break;
    } catch (error) {
      if (attempt >= 4) throw error;
    }
  }

  const waitExit = async (): Promise<void> => {
    const proc = child;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    await new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  };

  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    dir,
    async kill() {
      child?.kill("SIGKILL");
      await waitExit();
    },
    async restart() {
      await launch();
    },
    async stop() {
      child?.kill("SIGTERM");
      await waitExit();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One redis-server for the calling describe block (started before its tests, stopped after)
 * and connections to it, each closed after the test that opened it.
 */
export function redisForTests(clientOptions: RedisOptions = { maxRetriesPerRequest: 3 }) {
  let server: RedisServer | undefined;
  const clients: Redis[] = [];
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.disconnect();
  });
  afterAll(async () => {
    await server?.stop();
  });
  return {
    server: () => server,
    /** A new connection, closed after this test. */
    connect(options: RedisOptions = clientOptions): Redis {
      if (!server) throw new Error("redis-server not started");
      const client = new Redis(server.url, options);
      clients.push(client);
      return client;
    },
  };
}
