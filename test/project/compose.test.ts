import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { realClockEnv } from "../helpers/realClock.js";
import { redisSkipReason } from "../helpers/redisServer.js";

/**
 * compose.yaml, checked without a Docker engine (none on these machines): its shape as Compose
 * reads it (YAML with merge keys), its settings against the README, and its Redis options
 * against a real redis-server.
 */

const root = join(import.meta.dirname, "..", "..");
const composeText = readFileSync(join(root, "compose.yaml"), "utf8");
const readme = readFileSync(join(root, "README.md"), "utf8");

const serviceSchema = z.object({
  image: z.string().optional(),
  build: z.object({ context: z.string(), dockerfile: z.string() }).optional(),
  command: z.array(z.string()).optional(),
  environment: z.record(z.string(), z.string()).optional(),
  depends_on: z.record(z.string(), z.object({ condition: z.string() })).optional(),
  volumes: z.array(z.string()).optional(),
  healthcheck: z.object({ test: z.array(z.string()) }).optional(),
  restart: z.string().optional(),
  ports: z.array(z.string()).optional(),
});
type Service = z.infer<typeof serviceSchema>;
const composeSchema = z.object({
  services: z.record(z.string(), serviceSchema),
  volumes: z.record(z.string(), z.null()).optional(),
});

// Compose resolves YAML anchors and `<<` merge keys; so does this parse.
const compose = composeSchema.parse(parse(composeText, { merge: true }));
const services = Object.entries(compose.services);
const built = services.filter(([, s]) => s.build !== undefined);
const [redisName, redis] = services.find(([, s]) => s.image?.startsWith("redis:")) ?? [];

/** `--name value` pairs of a redis-server command line. */
function redisOptions(command: readonly string[]): Map<string, string> {
  const options = new Map<string, string>();
  for (let i = 1; i < command.length; i += 2) {
    options.set((command[i] ?? "").replace(/^--/, ""), command[i + 1] ?? "");
  }
  return options;
}

/** Every variable the README's configuration tables document (`| NAME |` or `| A, B |`). */
const documented = new Set(
  [...readme.matchAll(/^\| ([A-Z][A-Z0-9_]*(?:, [A-Z][A-Z0-9_]*)*) \|/gm)].flatMap((m) =>
    (m[1] ?? "").split(", "),
  ),
);

describe("compose.yaml", () => {
  it("runs two fleetbot replicas, both built from the project's Dockerfile", () => {
    expect(built.map(([name]) => name)).toEqual(["fleetbot-1", "fleetbot-2"]);
    for (const [name, service] of built) {
      const context = resolve(root, service.build?.context ?? "");
      expect(context, name).toBe(root);
      expect(join(context, service.build?.dockerfile ?? ""), name).toBe(join(root, "Dockerfile"));
      // An image name beside `build` would make Compose try to pull it first.
      expect(service.image, name).toBeUndefined();
      expect(service.restart, name).toBe("unless-stopped");
    }
  });

  it("points both replicas at its Redis, started once Redis answers", () => {
    expect(redisName).toBeDefined();
    for (const [name, service] of built) {
      const url = new URL(service.environment?.REDIS_URL ?? "");
      expect(url.protocol, name).toBe("redis:");
      expect(url.hostname, name).toBe(redisName);
      expect(url.port || "6379", name).toBe("6379");
      expect(service.depends_on?.[redisName ?? ""]?.condition, name).toBe("service_healthy");
    }
    expect(redis?.healthcheck?.test.join(" ")).toContain("redis-cli ping");
  });

  it("runs Redis from the official image with AOF and no eviction, its data on a named volume", () => {
    expect(redis?.image).toMatch(/^redis:\d[\w.-]*$/); // the library image: no namespace, a pinned major
    const command = redis?.command ?? [];
    expect(command[0]).toBe("redis-server");
    const options = redisOptions(command);
    expect(options.get("appendonly")).toBe("yes");
    expect(options.get("appendfsync")).toBe("always");
    expect(options.get("maxmemory-policy")).toBe("noeviction");
    const [volume, target] =
      (redis?.volumes ?? []).map((v) => v.split(":")).find(([, t]) => t === "/data") ?? [];
    expect(target).toBe("/data");
    expect(Object.keys(compose.volumes ?? {})).toContain(volume);
    expect(redis?.ports, "Redis stays on the compose network").toBeUndefined();
  });

  it("gives both replicas the same settings, each taken from the environment under its own name", () => {
    const [first, second] = built.map(([, s]): Service["environment"] => s.environment);
    expect(second).toEqual(first);
    const environment = Object.entries(first ?? {});
    expect(environment.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        "SLACK_BOT_TOKEN",
        "SLACK_SIGNING_SECRET",
        "SLACK_APP_TOKEN",
        "CREDENTIALS_KEY",
      ]),
    );
    for (const [name, value] of environment) {
      expect(documented.has(name), `${name} is a variable the README documents`).toBe(true);
      if (name === "REDIS_URL") continue;
      // ${NAME}, ${NAME:-default} or ${NAME:?message}: never a literal value.
      expect(value, name).toMatch(new RegExp(`^\\$\\{${name}(?::[-?][^}]*)?\\}$`));
    }
    expect(composeText).not.toMatch(/xox[abp]-[A-Za-z0-9]|xapp-\d/);
  });

  it("publishes each replica on its own loopback port for a load balancer", () => {
    const published = built.map(([, s]) => s.ports ?? []);
    expect(published.flat()).toEqual(["127.0.0.1:3001:3000", "127.0.0.1:3002:3000"]);
  });
});

describe.skipIf(redisSkipReason !== undefined)("compose.yaml's Redis options on a real redis-server", () => {
  const dir = mkdtempSync(join(tmpdir(), "fleetbot-compose-"));
  const socket = join(dir, "redis.sock");
  let server: ChildProcess | undefined;

  /** redis-server with the compose's options, on a Unix socket in a temporary directory (no port). */
  const start = async (): Promise<Redis> => {
    const options = (redis?.command ?? []).slice(1);
    const proc = spawn("redis-server", [...options, "--port", "0", "--unixsocket", socket, "--dir", dir], {
      stdio: "ignore",
      // The machine's real clock, even in a calendar run (realClock.ts says why).
      env: realClockEnv(),
    });
    server = proc;
    for (let attempt = 0; attempt < 200; attempt++) {
      if (proc.exitCode !== null) throw new Error("redis-server refused the compose file's options");
      const client = new Redis({ path: socket, lazyConnect: true, retryStrategy: () => null });
      client.on("error", () => {});
      try {
        await client.connect();
        if ((await client.ping()) === "PONG") return client;
      } catch {
        // not listening yet, or still reading its AOF back
      }
      client.disconnect();
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error("redis-server did not answer");
  };

  const killHard = async (): Promise<void> => {
    const proc = server;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once("exit", r));
    proc.kill("SIGKILL");
    await exited;
  };

  afterAll(async () => {
    await killHard();
    rmSync(dir, { recursive: true, force: true });
  });

  it("are accepted, and what Redis acknowledged survives a kill -9", async () => {
    const client = await start();
    expect(await client.config("GET", "appendonly")).toEqual(["appendonly", "yes"]);
    expect(await client.config("GET", "maxmemory-policy")).toEqual(["maxmemory-policy", "noeviction"]);
    for (let i = 0; i < 50; i++) await client.hset("fleetbot:probe", `field-${i}`, String(i));
    client.disconnect();
    await killHard();

    const again = await start();
    expect(await again.hlen("fleetbot:probe")).toBe(50);
    expect(await again.hget("fleetbot:probe", "field-49")).toBe("49");
    again.disconnect();
  });
});
