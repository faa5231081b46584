import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Redis } from "ioredis";
import { z } from "zod";
import { ONLY_WORKSPACE } from "../workspaces/workspace.js";
import { adoptWorkspace, formatAdoptReport, INSTALLED_WORKSPACE } from "./adoptWorkspace.js";
import { openDatabase } from "./database.js";
import { formatMigrationReport, migrateToRedis } from "./migrate.js";

/**
 * `npm run migrate -- --to-redis`: DATA_DIR (default ./data) into REDIS_URL. Prints one summary
 * line per kind; exits 1 with one clear line on a bad or missing argument, a missing store or an
 * unreachable Redis. Never prints a secret (REDIS_URL's password included).
 *
 * `npm run migrate -- --adopt-workspace T:<team>`: the single workspace's linked accounts (and
 * its users' language settings) become that installed workspace's (moving to multi-workspace
 * mode), their passwords sealed anew with CREDENTIALS_KEY (required). In Redis when REDIS_URL
 * is set, else in DATA_DIR's store.
 */

const USAGE =
  "usage: npm run migrate -- --to-redis   (in the Docker image: node dist/platform/store/migrateCli.js --to-redis; reads DATA_DIR, default ./data, and REDIS_URL; CREDENTIALS_KEY optional)" +
  " | npm run migrate -- --adopt-workspace T:<team id>   (the single workspace's linked accounts and language settings become that workspace's; reads CREDENTIALS_KEY, and REDIS_URL if set, else DATA_DIR)";

const envSchema = z.object({
  DATA_DIR: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    z.string().default("./data"),
  ),
  REDIS_URL: z.preprocess(
    (v) => (typeof v === "string" ? v.trim() || undefined : v),
    z.url({ protocol: /^rediss?$/, error: "must be a redis:// or rediss:// URL" }),
  ),
  CREDENTIALS_KEY: z.preprocess(
    (v) => (typeof v === "string" ? v.trim() || undefined : v),
    z
      .string()
      .refine((v) => /^[A-Za-z0-9+/]+={0,2}$/.test(v) && Buffer.from(v, "base64").length === 32, {
        error: "must be 32 bytes in base64 (for example: openssl rand -base64 32)",
      })
      .optional(),
  ),
});

/** REDIS_URL without its user and password, for messages. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return parsed.toString();
  } catch {
    return "REDIS_URL";
  }
}

export interface CliOutput {
  out: (line: string) => void;
  err: (line: string) => void;
}

export async function runMigrateCli(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  io: CliOutput = { out: (l) => console.log(l), err: (l) => console.error(l) },
): Promise<number> {
  const adopt = adoptArgument(argv);
  if (adopt) return await runAdoptWorkspace(adopt, env, io);
  const unknown = argv.filter((a) => a !== "--to-redis");
  if (unknown.length > 0 || !argv.includes("--to-redis")) {
    io.err(
      unknown.length > 0
        ? `migrate: unknown argument ${unknown.map((a) => JSON.stringify(a)).join(", ")}. ${USAGE}`
        : `migrate: say what to do: --to-redis or --adopt-workspace T:<team id>. ${USAGE}`,
    );
    return 1;
  }
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? "environment");
      const value = env[name];
      io.err(
        `migrate: ${name}: ${value === undefined || value.trim() === "" ? "is required" : issue.message}. ${USAGE}`,
      );
    }
    return 1;
  }
  const { DATA_DIR: dataDir, REDIS_URL: redisUrl, CREDENTIALS_KEY: keyText } = parsed.data;
  return await withRedis(redisUrl, io, async (redis, where) => {
    const report = await migrateToRedis({
      source: { dataDir },
      redis,
      ...(keyText ? { key: Buffer.from(keyText, "base64") } : {}),
    });
    io.out(`migrate: ${dataDir} → ${where}`);
    for (const line of formatMigrationReport(report)) io.out(line);
    return 0;
  });
}

/**
 * Connects to REDIS_URL and runs `work`; exits 1 with one line when Redis cannot be reached or
 * `work` fails, REDIS_URL's password never printed.
 */
async function withRedis(
  redisUrl: string,
  io: CliOutput,
  work: (redis: Redis, where: string) => Promise<number>,
): Promise<number> {
  const where = redactRedisUrl(redisUrl);
  let lastError: Error | undefined;
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    connectTimeout: 5000,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
  });
  redis.on("error", (error: Error) => {
    lastError = error;
  });
  try {
    try {
      await redis.connect();
      await redis.ping();
    } catch (error) {
      // The connection's own error (ECONNREFUSED, NOAUTH…) says more than "Connection is closed".
      const reason = (lastError ?? (error instanceof Error ? error : undefined))?.message ?? "no answer";
      io.err(`migrate: cannot reach Redis at ${where}: ${reason.replaceAll(redisUrl, where)}`);
      return 1;
    }
    return await work(redis, where);
  } catch (error) {
    io.err(`migrate: ${error instanceof Error ? error.message.replaceAll(redisUrl, where) : String(error)}`);
    return 1;
  } finally {
    redis.disconnect();
  }
}

/** `--adopt-workspace T:X` or `--adopt-workspace=T:X`: its value (missing when none follows) and the other arguments. */
function adoptArgument(argv: readonly string[]): { workspace?: string; rest: string[] } | undefined {
  const at = argv.findIndex((a) => a === "--adopt-workspace" || a.startsWith("--adopt-workspace="));
  if (at < 0) return undefined;
  const flag = argv[at]!;
  if (flag.startsWith("--adopt-workspace="))
    return { workspace: flag.slice("--adopt-workspace=".length), rest: argv.filter((_, i) => i !== at) };
  const next = argv[at + 1];
  if (next === undefined || next.startsWith("--")) return { rest: argv.filter((_, i) => i !== at) };
  return { workspace: next, rest: argv.filter((_, i) => i !== at && i !== at + 1) };
}

const adoptEnvSchema = envSchema.extend({
  REDIS_URL: envSchema.shape.REDIS_URL.optional(),
});

async function runAdoptWorkspace(
  adopt: { workspace?: string; rest: string[] },
  env: NodeJS.ProcessEnv,
  io: CliOutput,
): Promise<number> {
  if (adopt.rest.includes("--to-redis")) {
    io.err(`migrate: --to-redis and --adopt-workspace run one at a time. ${USAGE}`);
    return 1;
  }
  if (adopt.rest.length > 0) {
    io.err(`migrate: unknown argument ${adopt.rest.map((a) => JSON.stringify(a)).join(", ")}. ${USAGE}`);
    return 1;
  }
  const workspace = adopt.workspace?.trim() ?? "";
  if (!INSTALLED_WORKSPACE.test(workspace)) {
    io.err(
      `migrate: --adopt-workspace needs the installed workspace's key, T:<team id> (or E:<enterprise id> for an org-wide install), ` +
        `not ${JSON.stringify(workspace)}. ${USAGE}`,
    );
    return 1;
  }
  const parsed = adoptEnvSchema.safeParse(env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? "environment");
      io.err(`migrate: ${name}: ${issue.message}. ${USAGE}`);
    }
    return 1;
  }
  const { DATA_DIR: dataDir, REDIS_URL: redisUrl, CREDENTIALS_KEY: keyText } = parsed.data;
  if (!keyText) {
    io.err(
      `migrate: CREDENTIALS_KEY: is required to adopt a workspace (the passwords are opened and sealed anew with it). ${USAGE}`,
    );
    return 1;
  }
  const key = Buffer.from(keyText, "base64");
  if (redisUrl === undefined) {
    const file = join(dataDir, "fleetbot.sqlite");
    if (!existsSync(file)) {
      io.err(
        `migrate: No fleetbot store at ${file}: set DATA_DIR to the directory fleetbot uses, or REDIS_URL.`,
      );
      return 1;
    }
    let db: ReturnType<typeof openDatabase> | undefined;
    try {
      db = openDatabase(dataDir);
      const report = await adoptWorkspace({ db }, key, ONLY_WORKSPACE, workspace);
      io.out(`migrate: adopting the single workspace's links as ${workspace} in ${file}`);
      for (const line of formatAdoptReport(report)) io.out(line);
      return 0;
    } catch (error) {
      io.err(`migrate: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    } finally {
      db?.close();
    }
  }
  return await withRedis(redisUrl, io, async (redis, where) => {
    const report = await adoptWorkspace({ redis }, key, ONLY_WORKSPACE, workspace);
    io.out(`migrate: adopting the single workspace's links as ${workspace} in ${where}`);
    for (const line of formatAdoptReport(report)) io.out(line);
    return 0;
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  runMigrateCli(process.argv.slice(2), process.env).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(`migrate: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}
