import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { z } from "zod";

/**
 * A Lua script run with EVALSHA, falling back to EVAL when the server does not know it
 * (a restarted redis-server forgets its script cache). A script runs atomically: no other
 * client's command runs between its reads and writes, which is what makes a check-then-write
 * (a pending dedupe key, an active incident) hold across replicas.
 *
 * Every script gets the key prefix and derives the keys it reaches through stored ids (a task's
 * account, an incident's posts): the stores expect one Redis server (or one hash slot), not a
 * cluster that spreads a prefix over nodes.
 */
export class LuaScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash("sha1").update(source).digest("hex");
  }

  async run(redis: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return await redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}

/** Lua helpers shared by the scripts (prepended to each). */
export const LUA_PRELUDE = `
local function ord_of(seq, id)
  return string.format('%016d', seq) .. '|' .. id
end
local function id_of_ord(ord)
  return string.sub(ord, 18)
end
-- Reads pairs (field, value) from ARGV starting at i: n, f1, v1, ... Returns the list and the next index.
local function read_pairs(i)
  local n = tonumber(ARGV[i])
  local pairs_list = {}
  for j = 1, n * 2 do pairs_list[j] = ARGV[i + j] end
  return pairs_list, i + 1 + n * 2
end
`;

/**
 * KEYS: an index zset. ARGV: the hashes' key prefix, start, stop, '1' for reverse, and how a
 * member names its hash: 'ord' (the id after "<16 digits>|"), 'tail' (everything after the
 * 16 digits) or 'raw' (the member itself). Returns the hashes of the range, read in one snapshot.
 */
export const RANGE_HASHES = new LuaScript(`${LUA_PRELUDE}
local members
if ARGV[4] == '1' then
  members = redis.call('ZREVRANGE', KEYS[1], ARGV[2], ARGV[3])
else
  members = redis.call('ZRANGE', KEYS[1], ARGV[2], ARGV[3])
end
local out = {}
for _, member in ipairs(members) do
  local name
  if ARGV[5] == 'ord' then
    name = id_of_ord(member)
  elseif ARGV[5] == 'tail' then
    name = string.sub(member, 17)
  else
    name = member
  end
  local hash = redis.call('HGETALL', ARGV[1] .. name)
  if #hash > 0 then out[#out + 1] = hash end
end
return out
`);

export async function rangeHashes(
  redis: Redis,
  index: string,
  hashPrefix: string,
  options: { start?: number; stop?: number; reverse?: boolean; member?: "ord" | "tail" | "raw" } = {},
): Promise<Record<string, string>[]> {
  const reply = await RANGE_HASHES.run(
    redis,
    [index],
    [
      hashPrefix,
      options.start ?? 0,
      options.stop ?? -1,
      options.reverse ? "1" : "0",
      options.member ?? "ord",
    ],
  );
  return pairsListToRecords(reply);
}

export const flatStrings = z.array(z.string());

/** A flat [field, value, …] reply (HGETALL inside a script) as an object. */
export function pairsToRecord(flat: unknown): Record<string, string> {
  const list = flatStrings.parse(flat);
  const record: Record<string, string> = {};
  for (let i = 0; i + 1 < list.length; i += 2) record[list[i]!] = list[i + 1]!;
  return record;
}

/** A list of flat HGETALL replies (a script that reads several hashes) as objects. */
export function pairsListToRecords(reply: unknown): Record<string, string>[] {
  return z.array(z.unknown()).parse(reply).map(pairsToRecord);
}

/** The fields that have a value. */
export function presentFields(fields: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** Field/value pairs of the present fields, as the scripts' read_pairs expects them (count first). */
export function encodePairs(fields: Readonly<Record<string, string | undefined>>): string[] {
  const present = Object.entries(presentFields(fields));
  return [String(present.length), ...present.flat()];
}

/** A stored number (hash values are strings). */
export const storedNumber = z.string().transform((text, ctx) => {
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value)) {
    ctx.addIssue({ code: "custom", message: `not a number: ${text.slice(0, 20)}` });
    return z.NEVER;
  }
  return value;
});

/** A stored JSON text, parsed. */
export const storedJson = z.string().transform((text, ctx): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    ctx.addIssue({ code: "custom", message: "not JSON" });
    return z.NEVER;
  }
});

/** Number → the string stored in a hash (undefined stays absent). */
export const numberText = (value: number | undefined): string | undefined =>
  value === undefined ? undefined : String(value);

/** Value → its JSON text; undefined stays absent (a NULL column in SQLite). */
export const jsonText = (value: unknown): string | undefined =>
  value === undefined ? undefined : JSON.stringify(value);

/** Byte order of UTF-8 strings: SQLite's BINARY collation (ORDER BY of text). */
export function binaryCompare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

export const DEFAULT_PREFIX = "fleetbot:";

export interface RedisStoreOptions {
  /** Every key starts with it ("fleetbot:" by default); tests use a unique one. */
  prefix?: string;
  now?: () => number;
}

/**
 * The prefix and clock of a store. The client must not have ioredis' own keyPrefix: it applies
 * to the keys a command names, not to the keys a script derives from stored ids.
 */

/** What every Redis store holds: its client (without keyPrefix), its key prefix and its clock. */
export abstract class RedisStore {
  protected readonly prefix: string;
  protected readonly now: () => number;

  constructor(
    protected readonly redis: Redis,
    options: RedisStoreOptions = {},
  ) {
    if (redis.options.keyPrefix) {
      throw new Error(
        "The Redis stores take their prefix as an option; create the ioredis client without keyPrefix.",
      );
    }
    this.prefix = options.prefix ?? DEFAULT_PREFIX;
    this.now = options.now ?? Date.now;
  }
}
