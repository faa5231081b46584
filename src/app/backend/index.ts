import type { Logger } from "../../platform/log.js";
import type { Config } from "../config.js";
import type { Backend } from "./backend.js";
import { openSqliteBackend } from "./sqlite.js";

export type { Backend } from "./backend.js";

/** One process on SQLite, or replicas on one Redis (REDIS_URL; its modules are imported only then). */
export async function openBackend(config: Config, logger: Logger): Promise<Backend> {
  if (!config.redisUrl) return openSqliteBackend(config, logger);
  const { openRedisBackend } = await import("./redis.js");
  return openRedisBackend(config, config.redisUrl, logger);
}
