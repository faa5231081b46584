import { execFile } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisAccountStore } from "../../src/store/redis/accountStore.js";
import { RedisTaskStore } from "../../src/store/redis/taskStore.js";
import { type RedisServer, redisSkipReason, startRedisServer } from "../helpers/redisServer.js";
import { dumpRedis, type Fixture, makeDataDir, PASSWORDS } from "./migrateFixture.js";

const root = join(import.meta.dirname, "../..");

/** `npm run migrate` runs `tsx src/store/migrateCli.ts`; the test runs the same file with tsx's loader. */
async function migrate(
  args: readonly string[],
  env: Record<string, string | undefined>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "silent" };
  for (const name of ["DATA_DIR", "REDIS_URL", "CREDENTIALS_KEY"]) delete childEnv[name];
  for (const [name, value] of Object.entries(env)) if (value !== undefined) childEnv[name] = value;
  return await new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "src/store/migrateCli.ts", ...args],
      { cwd: root, env: childEnv, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe("the migrate script", () => {
  it("is the package's `migrate` script", () => {
    const manifest: unknown = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    expect(manifest).toMatchObject({ scripts: { migrate: "tsx src/store/migrateCli.ts" } });
  });

  it("exits 1 with one clear line on a missing or unknown argument", async () => {
    const missing = await migrate([], { REDIS_URL: "redis://127.0.0.1:1", DATA_DIR: "/tmp" });
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toMatch(
      /^migrate: say where to: --to-redis is the only migration\. usage:/,
    );
    const unknown = await migrate(["--to-redis", "--to-sqlite"], { REDIS_URL: "redis://127.0.0.1:1" });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toMatch(/^migrate: unknown argument "--to-sqlite"\./);
    expect(unknown.stdout).toBe("");
  });

  it("exits 1 on a missing or malformed REDIS_URL or CREDENTIALS_KEY, naming the variable", async () => {
    const none = await migrate(["--to-redis"], {});
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^migrate: REDIS_URL: is required\./m);
    const http = await migrate(["--to-redis"], {
      REDIS_URL: "http://127.0.0.1:6379",
      CREDENTIALS_KEY: "short",
    });
    expect(http.code).toBe(1);
    expect(http.stderr).toMatch(/REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(http.stderr).toMatch(/CREDENTIALS_KEY: must be 32 bytes in base64/);
  });

  it("exits 1 when Redis cannot be reached, without printing REDIS_URL's password", async () => {
    const server = await import("node:net").then(
      ({ createServer }) =>
        new Promise<number>((resolve) => {
          const probe = createServer().listen(0, "127.0.0.1", () => {
            const address = probe.address();
            const port = typeof address === "object" && address ? address.port : 0;
            probe.close(() => resolve(port));
          });
        }),
    );
    const result = await migrate(["--to-redis"], {
      REDIS_URL: `redis://fleetbot:S3cret-Redis-Pw@127.0.0.1:${server}`,
      DATA_DIR: "/tmp",
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `migrate: cannot reach Redis at redis://127.0.0.1:${server}: connect ECONNREFUSED 127.0.0.1:${server}`,
    );
    expect(result.stderr + result.stdout).not.toContain("S3cret-Redis-Pw");
  });
});

describe.skipIf(redisSkipReason !== undefined)("the migrate script on a real redis-server", () => {
  let server: RedisServer;
  let redis: Redis;
  let fixture: Fixture;
  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url);
    fixture = makeDataDir(Date.now());
  });
  afterAll(async () => {
    redis.disconnect();
    await server.stop();
    rmSync(fixture.dataDir, { recursive: true, force: true });
  });

  it("copies a DATA_DIR, one line per kind; a second run copies nothing and leaves Redis as it was", async () => {
    const env = {
      DATA_DIR: fixture.dataDir,
      REDIS_URL: server.url,
      CREDENTIALS_KEY: fixture.key.toString("base64"),
    };
    const first = await migrate(["--to-redis"], env);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout.trim().split("\n")).toEqual([
      `migrate: ${fixture.dataDir} → ${server.url}`,
      "linked accounts: 2 copied, 0 already in Redis",
      "alert subscriptions: 2 copied, 0 already in Redis",
      "incidents: 3 copied, 0 already in Redis [3 posts with them]",
      "mutes: 1 copied, 0 already in Redis",
      "tasks: 3 copied, 0 already in Redis [2 unfinished, 1 finished with the answer not out; 2 journal steps]",
      "learned limits: 2 copied, 0 already in Redis",
      "audit entries: 2 copied, 0 already in Redis",
    ]);
    const after = await dumpRedis(redis, "fleetbot:");
    // No secret in the output; the sealed passwords are in Redis, the plain ones nowhere.
    for (const secret of [...Object.values(PASSWORDS), env.CREDENTIALS_KEY]) {
      expect(first.stdout).not.toContain(secret);
      expect(JSON.stringify(after)).not.toContain(secret);
    }
    // The default prefix is the one the bot reads.
    const accounts = new RedisAccountStore(redis, { key: fixture.key });
    expect((await accounts.get("U2"))?.password).toBe(PASSWORDS.U2);
    expect(await new RedisTaskStore(redis).countUnfinished()).toBe(2);

    const second = await migrate(["--to-redis"], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/linked accounts: 0 copied, 2 already in Redis/);
    expect(second.stdout).toMatch(/tasks: 0 copied, 3 already in Redis/);
    expect(second.stdout).not.toMatch(/[1-9]\d* copied/);
    expect(await dumpRedis(redis, "fleetbot:")).toEqual(after);
  });

  it("exits 1 naming the file when DATA_DIR holds no store", async () => {
    const result = await migrate(["--to-redis"], { DATA_DIR: "/nonexistent/data", REDIS_URL: server.url });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      "migrate: No fleetbot store at /nonexistent/data/fleetbot.sqlite: set DATA_DIR to the directory the single instance used.",
    );
  });
});
