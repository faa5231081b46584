import type { Redis } from "ioredis";
import { Gauge, type Registry } from "prom-client";
import { z } from "zod";

/**
 * What fleetbot reads of the Redis server itself: its memory (for /metrics: a full Redis with
 * `noeviction` refuses every write, and the whole bot answers "cannot queue") and the two
 * settings its durability rests on (ARCHITECTURE: `appendonly yes`, nothing evicted).
 */

/** INFO's "field:value" lines as a record (sections and comments skipped). */
export function parseInfo(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    if (line === "" || line.startsWith("#")) continue;
    const colon = line.indexOf(":");
    if (colon > 0) fields[line.slice(0, colon)] = line.slice(colon + 1);
  }
  return fields;
}

const memoryFields = z.object({
  used_memory: z.coerce.number().int().nonnegative(),
  maxmemory: z.coerce.number().int().nonnegative().default(0),
});

export interface RedisMemory {
  usedBytes: number;
  /** 0: no limit (the machine's memory is). */
  maxBytes: number;
}

export async function readRedisMemory(redis: Redis): Promise<RedisMemory> {
  const fields = memoryFields.parse(parseInfo(await redis.info("memory")));
  return { usedBytes: fields.used_memory, maxBytes: fields.maxmemory };
}

export interface RedisDurability {
  /** undefined: CONFIG is disabled (renamed away) on this server, so unknown. */
  appendonly?: string;
  maxmemoryPolicy?: string;
  /** One sentence per unsafe setting, for the log and /healthz. */
  unsafe: string[];
}

/** Pure: what is unsafe in these settings (an unknown setting is not called unsafe). */
export function durabilityWarnings(settings: { appendonly?: string; maxmemoryPolicy?: string }): string[] {
  const unsafe: string[] = [];
  if (settings.appendonly !== undefined && settings.appendonly !== "yes")
    unsafe.push(
      `appendonly is ${settings.appendonly}: a Redis restart loses the tasks, the alert schedule and the gate's schedule (set appendonly yes)`,
    );
  if (settings.maxmemoryPolicy !== undefined && settings.maxmemoryPolicy !== "noeviction")
    unsafe.push(
      `maxmemory-policy is ${settings.maxmemoryPolicy}: Redis may evict tasks, incidents or the alert schedule when full (set noeviction)`,
    );
  return unsafe;
}

/** CONFIG GET of one setting; undefined when CONFIG is refused (managed services often rename it). */
async function configValue(redis: Redis, name: string): Promise<string | undefined> {
  try {
    const reply = z.array(z.string()).parse(await redis.config("GET", name));
    return reply[1];
  } catch {
    return undefined;
  }
}

export async function readRedisDurability(redis: Redis): Promise<RedisDurability> {
  const appendonly = await configValue(redis, "appendonly");
  const maxmemoryPolicy = await configValue(redis, "maxmemory-policy");
  return {
    ...(appendonly !== undefined ? { appendonly } : {}),
    ...(maxmemoryPolicy !== undefined ? { maxmemoryPolicy } : {}),
    unsafe: durabilityWarnings({ appendonly, maxmemoryPolicy }),
  };
}

/**
 * Redis mode: the server's used_memory and maxmemory (INFO memory), read on each scrape. A
 * full Redis with noeviction refuses every write, so this is the gauge to alert on.
 */
export function observeRedisMemory(
  registry: Registry,
  read: () => Promise<{ usedBytes: number; maxBytes: number }>,
): void {
  // One INFO per scrape, shared by both gauges.
  let reading: Promise<{ usedBytes: number; maxBytes: number } | undefined> | undefined;
  const latest = () => {
    reading ??= read()
      .catch(() => undefined)
      .finally(() => {
        setImmediate(() => {
          reading = undefined;
        });
      });
    return reading;
  };
  new Gauge({
    name: "fleetbot_redis_used_memory_bytes",
    help: "Memory the Redis server uses (INFO memory used_memory).",
    registers: [registry],
    async collect() {
      const memory = await latest();
      if (memory) this.set(memory.usedBytes);
    },
  });
  new Gauge({
    name: "fleetbot_redis_maxmemory_bytes",
    help: "The Redis server's memory limit (INFO memory maxmemory; 0: none).",
    registers: [registry],
    async collect() {
      const memory = await latest();
      if (memory) this.set(memory.maxBytes);
    },
  });
}
