import { execFile } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SqliteAccountStore } from "../../../src/platform/store/accountStore.js";
import { openDatabase } from "../../../src/platform/store/database.js";
import { RedisAccountStore } from "../../../src/platform/store/redis/accountStore.js";
import { RedisInstallationStore } from "../../../src/platform/store/redis/installationStore.js";
import { RedisTaskStore } from "../../../src/platform/store/redis/taskStore.js";
import { type RedisServer, redisSkipReason, startRedisServer } from "../../helpers/redisServer.js";
import {
  addInstallations,
  dumpRedis,
  type Fixture,
  INSTALL_SECRETS,
  makeDataDir,
  PASSWORDS,
} from "./migrateFixture.js";

const root = join(import.meta.dirname, "../../..");

// Each test starts the script one to five times, and each start loads TypeScript through tsx: a
// few seconds apiece on a loaded machine (a five-start test took 18-20 s of the default 20 s in
// loaded runs here). The children have their own 60 s bound.
vi.setConfig({ testTimeout: 120_000 });

/** `npm run migrate` runs `tsx src/platform/store/migrateCli.ts`; the test runs the same file with tsx's loader. */
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
      ["--import", "tsx", "src/platform/store/migrateCli.ts", ...args],
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
    expect(manifest).toMatchObject({ scripts: { migrate: "tsx src/platform/store/migrateCli.ts" } });
  });

  it("exits 1 with one clear line on a missing or unknown argument", async () => {
    const missing = await migrate([], { REDIS_URL: "redis://127.0.0.1:1", DATA_DIR: "/tmp" });
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toMatch(
      /^migrate: say what to do: --to-redis or --adopt-workspace T:<team id>\. usage:/,
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

describe("the migrate script's --adopt-workspace", () => {
  it("exits 1 with one clear line on a missing or malformed workspace, a missing key or store", async () => {
    // Five independent starts, side by side.
    const [none, bad, both, noKey, noStore] = await Promise.all([
      migrate(["--adopt-workspace"], { DATA_DIR: "/tmp" }),
      migrate(["--adopt-workspace", "T123"], { DATA_DIR: "/tmp" }),
      migrate(["--to-redis", "--adopt-workspace=T:T123"], { DATA_DIR: "/tmp" }),
      migrate(["--adopt-workspace", "T:T123"], { DATA_DIR: "/tmp" }),
      migrate(["--adopt-workspace", "T:T123"], {
        DATA_DIR: "/nonexistent/data",
        CREDENTIALS_KEY: Buffer.alloc(32, 7).toString("base64"),
      }),
    ]);
    expect(none.code).toBe(1);
    expect(none.stderr.trim()).toMatch(
      /^migrate: --adopt-workspace needs the installed workspace's key, T:<team id>/,
    );
    expect(bad.stderr.trim()).toMatch(/needs the installed workspace's key.*not "T123"/);
    expect(both.code).toBe(1);
    expect(both.stderr.trim()).toMatch(/^migrate: --to-redis and --adopt-workspace run one at a time/);
    expect(noKey.code).toBe(1);
    expect(noKey.stderr.trim()).toMatch(/^migrate: CREDENTIALS_KEY: is required to adopt a workspace/);
    expect(noStore.code).toBe(1);
    expect(noStore.stderr.trim()).toMatch(
      /^migrate: No fleetbot store at \/nonexistent\/data\/fleetbot\.sqlite/,
    );
  });

  it("re-seals DATA_DIR's single-workspace links as the workspace's (no REDIS_URL); a second run moves nothing", async () => {
    const fixture = makeDataDir();
    try {
      const env = { DATA_DIR: fixture.dataDir, CREDENTIALS_KEY: fixture.key.toString("base64") };
      const first = await migrate(["--adopt-workspace", "T:T123"], env);
      expect(first.stderr).toBe("");
      expect(first.code).toBe(0);
      expect(first.stdout.trim().split("\n")).toEqual([
        `migrate: adopting the single workspace's links as T:T123 in ${fixture.dataDir}/fleetbot.sqlite`,
        "linked accounts: 2 moved from the single workspace to T:T123 (re-sealed), 0 dropped (the user had already linked in T:T123)",
      ]);
      for (const secret of [...Object.values(PASSWORDS), env.CREDENTIALS_KEY])
        expect(first.stdout).not.toContain(secret);
      const second = await migrate(["--adopt-workspace=T:T123"], env);
      expect(second.code).toBe(0);
      expect(second.stdout).toMatch(/0 moved/);
      const db = openDatabase(fixture.dataDir);
      const accounts = new SqliteAccountStore(db, fixture.key);
      expect(accounts.get("T:T123", "U1")?.password).toBe(PASSWORDS.U1);
      expect(accounts.get("T:T123", "U2")?.password).toBe(PASSWORDS.U2);
      expect(accounts.get("", "U1")).toBeUndefined();
      db.close();
    } finally {
      rmSync(fixture.dataDir, { recursive: true, force: true });
    }
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
    expect((await accounts.get("", "U2"))?.password).toBe(PASSWORDS.U2);
    expect(await new RedisTaskStore(redis).countUnfinished()).toBe(2);

    const second = await migrate(["--to-redis"], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/linked accounts: 0 copied, 2 already in Redis/);
    expect(second.stdout).toMatch(/tasks: 0 copied, 3 already in Redis/);
    expect(second.stdout).not.toMatch(/[1-9]\d* copied/);
    expect(await dumpRedis(redis, "fleetbot:")).toEqual(after);
  });

  it("--adopt-workspace with REDIS_URL re-seals the links in Redis", async () => {
    const env = {
      DATA_DIR: "/nonexistent/data",
      REDIS_URL: server.url,
      CREDENTIALS_KEY: fixture.key.toString("base64"),
    };
    const accounts = new RedisAccountStore(redis, { key: fixture.key });
    // The copy above (or this one) put the fixture's two links in Redis.
    await migrate(["--to-redis"], { ...env, DATA_DIR: fixture.dataDir });
    const result = await migrate(["--adopt-workspace", "E:E0RG"], env);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`in ${server.url}`);
    expect(result.stdout).toMatch(/2 moved from the single workspace to E:E0RG/);
    expect((await accounts.get("E:E0RG", "U2"))?.password).toBe(PASSWORDS.U2);
    expect(await accounts.get("", "U2")).toBeUndefined();
  });

  it("exits 1 naming the file when DATA_DIR holds no store", async () => {
    const result = await migrate(["--to-redis"], { DATA_DIR: "/nonexistent/data", REDIS_URL: server.url });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      "migrate: No fleetbot store at /nonexistent/data/fleetbot.sqlite: set DATA_DIR to the directory the single instance used.",
    );
  });
});

describe.skipIf(redisSkipReason !== undefined)("the migrate script with Slack installations", () => {
  let server: RedisServer;
  let redis: Redis;
  let fixture: Fixture;
  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url);
    fixture = makeDataDir(Date.now());
    await addInstallations(fixture, Date.now());
  });
  afterAll(async () => {
    redis.disconnect();
    await server.stop();
    rmSync(fixture.dataDir, { recursive: true, force: true });
  });

  it("copies them first, with a line of their own; a second run copies none", async () => {
    const env = {
      DATA_DIR: fixture.dataDir,
      REDIS_URL: server.url,
      CREDENTIALS_KEY: fixture.key.toString("base64"),
    };
    const first = await migrate(["--to-redis"], env);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout.trim().split("\n").slice(0, 3)).toEqual([
      `migrate: ${fixture.dataDir} → ${server.url}`,
      "Slack installations: 2 copied, 0 already in Redis",
      "linked accounts: 2 copied, 0 already in Redis",
    ]);
    for (const secret of Object.values(INSTALL_SECRETS)) expect(first.stdout).not.toContain(secret);
    // The default prefix is the one the bot reads.
    const installations = new RedisInstallationStore(redis, { key: fixture.key });
    expect(
      (
        await installations.fetchInstallation({
          teamId: "T0ORGTWO",
          enterpriseId: "E0CARRIER",
          isEnterpriseInstall: false,
        })
      ).bot?.token,
    ).toBe(INSTALL_SECRETS.org);
    const after = await dumpRedis(redis, "fleetbot:");

    const second = await migrate(["--to-redis"], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^Slack installations: 0 copied, 2 already in Redis$/m);
    expect(second.stdout).not.toMatch(/[1-9]\d* copied/);
    expect(await dumpRedis(redis, "fleetbot:")).toEqual(after);
  });
});
