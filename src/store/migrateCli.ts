import { pathToFileURL } from "node:url";
import { Redis } from "ioredis";
import { z } from "zod";
import { formatMigrationReport, migrateToRedis } from "./migrate.js";

/**
 * `npm run migrate -- --to-redis`: DATA_DIR (default ./data) into REDIS_URL. Prints one summary
 * line per kind; exits 1 with one clear line on a bad or missing argument, a missing store or an
 * unreachable Redis. Never prints a secret (REDIS_URL's password included).
 */

const USAGE =
  "usage: npm run migrate -- --to-redis   (in the Docker image: node dist/store/migrateCli.js --to-redis; reads DATA_DIR, default ./data, and REDIS_URL; CREDENTIALS_KEY optional)";

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
  const unknown = argv.filter((a) => a !== "--to-redis");
  if (unknown.length > 0 || !argv.includes("--to-redis")) {
    io.err(
      unknown.length > 0
        ? `migrate: unknown argument ${unknown.map((a) => JSON.stringify(a)).join(", ")}. ${USAGE}`
        : `migrate: say where to: --to-redis is the only migration. ${USAGE}`,
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
    const report = await migrateToRedis({
      source: { dataDir },
      redis,
      ...(keyText ? { key: Buffer.from(keyText, "base64") } : {}),
    });
    io.out(`migrate: ${dataDir} → ${where}`);
    for (const line of formatMigrationReport(report)) io.out(line);
    return 0;
  } catch (error) {
    io.err(`migrate: ${error instanceof Error ? error.message.replaceAll(redisUrl, where) : String(error)}`);
    return 1;
  } finally {
    redis.disconnect();
  }
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
