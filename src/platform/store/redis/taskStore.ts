import { randomUUID } from "node:crypto";
import { z } from "zod";
import {
  type NewTask,
  type ReplyTarget,
  replyTargetSchema,
  type TaskError,
  type TaskRecord,
  type TaskState,
  taskErrorSchema,
  taskRecordSchema,
} from "../../tasks/task.js";
import { ONLY_WORKSPACE, type WorkspaceKey } from "../../workspaces/workspace.js";
import { assertPurgeable, type StepState, type TaskRepository } from "../contract/tasks.js";
import {
  DEFAULT_RESULT_LIMITS,
  decodeResult,
  type EncodedResult,
  encodeResult,
  NOT_KEPT_PREFIX,
  notKeptText,
  type ResultLimits,
} from "../resultCodec.js";
import {
  encodePairs,
  jsonText,
  LUA_PRELUDE,
  LuaScript,
  numberText,
  pairsListToRecords,
  pairsToRecord,
  presentFields,
  RedisStore,
  type RedisStoreOptions,
  rangeHashes,
  storedJson,
  storedNumber,
} from "./lua.js";

/**
 * Keys (after the prefix):
 *   task:<id>                    hash: the task's fields (JSON texts for params, reply, result, error)
 *   task-steps:<id>              hash: step → {"state","result"?,"updatedAt"} (the mutation journal;
 *                                outside task:, so no id, however odd, reads a journal as a task)
 *   tasks:seq                    counter: insertion order (SQLite's rowid)
 *   tasks:unfinished             zset createdAt → ord of queued/running tasks
 *   tasks:unfinished:<account>   the same, per account (count = ZCARD)
 *   tasks:of:<account>           zset createdAt → ord of every task of the account (recent)
 *   tasks:finished               zset finishedAt → ord (retention)
 *   tasks:undelivered            zset finishedAt → ord of finished tasks whose answer is not out
 *   tasks:dedupe                 hash dedupeKey → id of the pending task holding it
 *   tasks:bulk-delivered         zset deliveredAt → ord of delivered tasks whose result is bulk
 *                                (compressed, with a `resultMeta` field): dropped a day later
 * A task of an installed workspace (`workspace` field T:… or E:…, never "") is also in:
 *   tasks:workspace:<ws>                set of the ids of every task of the workspace (its uninstall)
 *   tasks:ws:<ws>:unfinished            zset createdAt → ord of its queued/running tasks
 *   tasks:ws:<ws>:unfinished:<account>  the same, per account
 *   tasks:ws:<ws>:of:<account>          zset createdAt → ord of every task of the account there
 *   tasks:ws:<ws>:dedupe                hash dedupeKey → id (tasks:dedupe is the single workspace's)
 *   tasks:scoped-unfinished[:<account>] zset: the unfinished tasks of every such workspace, so the
 *                                single workspace's count is the account-wide one minus these
 * The single workspace's tasks (no or an empty `workspace` field: every task stored before
 * workspaces existed) have no index of their own: its reads take the account-wide ones and skip
 * the tasks of other workspaces (none, in single-workspace mode).
 * An ord is the 16-digit insertion number, "|", the id: members of equal score sort by it, so
 * "created_at, rowid" orders come straight from a range.
 */

/** A task's hash. */
export const taskKey = (prefix: string, id: string) => `${prefix}task:${id}`;
/** A task's journal. */
export const stepsKey = (prefix: string, id: string) => `${prefix}task-steps:${id}`;

const taskHashSchema = z.object({
  id: z.string(),
  kind: z.string(),
  params: storedJson,
  account: z.string(),
  workspace: z.string().optional(),
  slackUser: z.string().optional(),
  reply: storedJson,
  priority: z.string(),
  state: z.string(),
  dedupeKey: z.string().optional(),
  progressDone: storedNumber,
  progressTotal: storedNumber,
  result: z.string().optional(),
  error: storedJson.optional(),
  attempts: storedNumber,
  createdAt: storedNumber,
  updatedAt: storedNumber,
  finishedAt: storedNumber.optional(),
  deliveredAt: storedNumber.optional(),
});

function fromHash(hash: Record<string, string>): TaskRecord {
  const row = taskHashSchema.parse(hash);
  const { result, ...fields } = row;
  return taskRecordSchema.parse({
    ...fields,
    // Plain JSON, compressed, or the marker of a result no longer kept (resultCodec.ts).
    ...(result === undefined ? {} : decodeResult(result)),
    reply: replyTargetSchema.parse(row.reply),
    error: row.error === undefined ? undefined : taskErrorSchema.parse(row.error),
  });
}

/** A task's fields as stored (the ord is added by the script that stores it), its result encoded. */
export function toHash(
  task: TaskRecord,
  result: EncodedResult | undefined,
): Record<string, string | undefined> {
  return {
    id: task.id,
    kind: task.kind,
    params: JSON.stringify(task.params ?? null),
    account: task.account,
    workspace: task.workspace,
    slackUser: task.slackUser,
    reply: JSON.stringify(task.reply),
    priority: task.priority,
    state: task.state,
    dedupeKey: task.dedupeKey,
    progressDone: String(task.progressDone),
    progressTotal: String(task.progressTotal),
    result: task.resultNotKept ? notKeptText(task.resultNotKept) : result?.text,
    resultMeta: task.resultNotKept ? undefined : result?.bulk,
    error: jsonText(task.error),
    attempts: String(task.attempts),
    createdAt: String(task.createdAt),
    updatedAt: String(task.updatedAt),
    finishedAt: numberText(task.finishedAt),
    deliveredAt: numberText(task.deliveredAt),
  };
}

const storedStepSchema = z.discriminatedUnion("state", [
  z.object({ state: z.literal("sending"), updatedAt: z.number() }),
  z.object({ state: z.literal("done"), result: z.unknown().optional(), updatedAt: z.number() }),
]);

/** A journal entry as stored. */
export function stepText(state: StepState, updatedAt: number): string {
  return JSON.stringify(
    state.state === "sending" ? { state: "sending", updatedAt } : { ...state, updatedAt },
  );
}

/** Where a workspace's tasks are indexed (a missing `workspace` field reads false: the single workspace). */
const WORKSPACE_LUA = `
local function scoped(ws)
  return ws and ws ~= ''
end
local function dedupe_hash(p, ws)
  if scoped(ws) then return p .. 'tasks:ws:' .. ws .. ':dedupe' end
  return p .. 'tasks:dedupe'
end
-- The workspace's own indexes of unfinished tasks (none for the single workspace).
local function unfinished_indexes(p, ws, account)
  if not scoped(ws) then return {} end
  return {
    p .. 'tasks:ws:' .. ws .. ':unfinished',
    p .. 'tasks:ws:' .. ws .. ':unfinished:' .. account,
    p .. 'tasks:scoped-unfinished',
    p .. 'tasks:scoped-unfinished:' .. account,
  }
end
`;

/** The tasks' Lua library: the key layout above, kept by every script that writes a task. */
export const TASK_LUA = `${LUA_PRELUDE}${WORKSPACE_LUA}
local function pending_key(p, ws, dk)
  local id = redis.call('HGET', dedupe_hash(p, ws), dk)
  if not id then return nil end
  local key = p .. 'task:' .. id
  local state = redis.call('HGET', key, 'state')
  if state == 'queued' or state == 'running' then return key end
  return nil
end
-- Adds a stored task to the indexes its fields call for.
local function index_task(p, key)
  local f = redis.call('HMGET', key, 'ord', 'account', 'state', 'createdAt', 'finishedAt', 'deliveredAt', 'dedupeKey', 'id', 'resultMeta', 'workspace')
  local ord, account, state, created, finished, delivered, dk, id, bulk, ws = f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10]
  redis.call('ZADD', p .. 'tasks:of:' .. account, created, ord)
  if scoped(ws) then
    redis.call('SADD', p .. 'tasks:workspace:' .. ws, id)
    redis.call('ZADD', p .. 'tasks:ws:' .. ws .. ':of:' .. account, created, ord)
  end
  if state == 'queued' or state == 'running' then
    redis.call('ZADD', p .. 'tasks:unfinished', created, ord)
    redis.call('ZADD', p .. 'tasks:unfinished:' .. account, created, ord)
    for _, index in ipairs(unfinished_indexes(p, ws, account)) do redis.call('ZADD', index, created, ord) end
    if dk and dk ~= '' and not pending_key(p, ws, dk) then redis.call('HSET', dedupe_hash(p, ws), dk, id) end
  end
  if finished then
    redis.call('ZADD', p .. 'tasks:finished', finished, ord)
    if not delivered then redis.call('ZADD', p .. 'tasks:undelivered', finished, ord) end
  end
  if delivered and bulk then redis.call('ZADD', p .. 'tasks:bulk-delivered', delivered, ord) end
end
`;

/** KEYS: task. ARGV: prefix, dedupe key or '', id, workspace, fields… → {created 0/1, hash}. */
const CREATE = new LuaScript(`${TASK_LUA}
local p = ARGV[1]
if ARGV[2] ~= '' then
  local existing = pending_key(p, ARGV[4], ARGV[2])
  if existing then return {0, redis.call('HGETALL', existing)} end
end
local fields = read_pairs(5)
local ord = ord_of(redis.call('INCR', p .. 'tasks:seq'), ARGV[3])
redis.call('HSET', KEYS[1], 'ord', ord, unpack(fields))
index_task(p, KEYS[1])
return {1, redis.call('HGETALL', KEYS[1])}
`);

/** KEYS: task. ARGV: now. */
const MARK_RUNNING = new LuaScript(`
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'queued' or state == 'running' then
  redis.call('HSET', KEYS[1], 'state', 'running', 'updatedAt', ARGV[1])
  redis.call('HINCRBY', KEYS[1], 'attempts', 1)
end
return 0
`);

/** KEYS: task. ARGV: prefix, state, now, result?, error?, params?, result's bulk meta? (each: '1' and the value, or '0' ''). */
const FINISH = new LuaScript(`${WORKSPACE_LUA}
local key = KEYS[1]
local state = redis.call('HGET', key, 'state')
if state ~= 'queued' and state ~= 'running' then return 0 end
local p = ARGV[1]
local f = redis.call('HMGET', key, 'ord', 'account', 'dedupeKey', 'id', 'deliveredAt', 'workspace')
redis.call('HSET', key, 'state', ARGV[2], 'updatedAt', ARGV[3], 'finishedAt', ARGV[3])
if ARGV[4] == '1' then redis.call('HSET', key, 'result', ARGV[5]) else redis.call('HDEL', key, 'result') end
if ARGV[6] == '1' then redis.call('HSET', key, 'error', ARGV[7]) else redis.call('HDEL', key, 'error') end
if ARGV[8] == '1' then redis.call('HSET', key, 'params', ARGV[9]) end
if ARGV[10] == '1' then redis.call('HSET', key, 'resultMeta', ARGV[11]) else redis.call('HDEL', key, 'resultMeta') end
redis.call('ZREM', p .. 'tasks:unfinished', f[1])
redis.call('ZREM', p .. 'tasks:unfinished:' .. f[2], f[1])
for _, index in ipairs(unfinished_indexes(p, f[6], f[2])) do redis.call('ZREM', index, f[1]) end
local dedupe = dedupe_hash(p, f[6])
if f[3] and redis.call('HGET', dedupe, f[3]) == f[4] then redis.call('HDEL', dedupe, f[3]) end
redis.call('ZADD', p .. 'tasks:finished', ARGV[3], f[1])
if not f[5] then redis.call('ZADD', p .. 'tasks:undelivered', ARGV[3], f[1]) end
return 1
`);

/** KEYS: hash. ARGV: fields to set…, then fields to delete… (count first each): only when the hash exists. */
const UPDATE_IF_EXISTS = new LuaScript(`${LUA_PRELUDE}
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local set, next_index = read_pairs(1)
if #set > 0 then redis.call('HSET', KEYS[1], unpack(set)) end
local n = tonumber(ARGV[next_index])
for i = 1, n do redis.call('HDEL', KEYS[1], ARGV[next_index + i]) end
return 1
`);

/** KEYS: task, steps. ARGV: step, entry. The journal belongs to a stored task (SQLite's foreign key). */
const MARK_STEP = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then
  return redis.error_reply('FOREIGN KEY constraint failed: no task ' .. KEYS[1])
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1
`);

/** KEYS: task. ARGV: prefix, now. A bulk result's drop is scheduled from its delivery. */
const MARK_DELIVERED = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'deliveredAt', ARGV[2])
local ord = redis.call('HGET', KEYS[1], 'ord')
redis.call('ZREM', ARGV[1] .. 'tasks:undelivered', ord)
if redis.call('HEXISTS', KEYS[1], 'resultMeta') == 1 then
  redis.call('ZADD', ARGV[1] .. 'tasks:bulk-delivered', ARGV[2], ord)
end
return 1
`);

/** KEYS: task. ARGV: prefix, now, result, '1' and its bulk meta or '0' ''. */
const UPDATE_RESULT = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'result', ARGV[3], 'updatedAt', ARGV[2])
if ARGV[4] == '1' then
  redis.call('HSET', KEYS[1], 'resultMeta', ARGV[5])
  local f = redis.call('HMGET', KEYS[1], 'ord', 'deliveredAt')
  if f[2] then redis.call('ZADD', ARGV[1] .. 'tasks:bulk-delivered', 'NX', f[2], f[1]) end
else
  redis.call('HDEL', KEYS[1], 'resultMeta')
end
return 1
`);

/**
 * ARGV: prefix, instant (exclusive), batch size, marker prefix → {dropped, examined}. The result
 * of each task delivered before the instant becomes the "expired" marker (its size and summary
 * from resultMeta); the task stays.
 */
const DROP_DELIVERED_BULK = new LuaScript(`${LUA_PRELUDE}
local p = ARGV[1]
local index = p .. 'tasks:bulk-delivered'
local ords = redis.call('ZRANGEBYSCORE', index, '-inf', '(' .. ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
local dropped = 0
for _, ord in ipairs(ords) do
  local key = p .. 'task:' .. id_of_ord(ord)
  local meta = redis.call('HGET', key, 'resultMeta')
  if meta then
    -- meta is {"bytes":…}: the marker is {"reason":"expired","bytes":…}.
    redis.call('HSET', key, 'result', ARGV[4] .. '{"reason":"expired",' .. string.sub(meta, 2))
    redis.call('HDEL', key, 'resultMeta')
    dropped = dropped + 1
  end
  redis.call('ZREM', index, ord)
end
return {dropped, #ords}
`);

/** ARGV: prefix, instant (exclusive), batch size → {deleted, examined}. */
const PURGE = new LuaScript(`${LUA_PRELUDE}${WORKSPACE_LUA}
local p = ARGV[1]
local ords = redis.call('ZRANGEBYSCORE', p .. 'tasks:finished', '-inf', '(' .. ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
local deleted = 0
for _, ord in ipairs(ords) do
  local key = p .. 'task:' .. id_of_ord(ord)
  local f = redis.call('HMGET', key, 'account', 'workspace')
  local account, ws = f[1], f[2]
  if account then
    redis.call('ZREM', p .. 'tasks:of:' .. account, ord)
    if scoped(ws) then
      redis.call('ZREM', p .. 'tasks:ws:' .. ws .. ':of:' .. account, ord)
      redis.call('SREM', p .. 'tasks:workspace:' .. ws, id_of_ord(ord))
    end
    deleted = deleted + 1
  end
  redis.call('DEL', key, p .. 'task-steps:' .. id_of_ord(ord))
  redis.call('ZREM', p .. 'tasks:finished', ord)
  redis.call('ZREM', p .. 'tasks:undelivered', ord)
  redis.call('ZREM', p .. 'tasks:bulk-delivered', ord)
end
return {deleted, #ords}
`);

/**
 * ARGV: prefix, workspace (never ''), batch size → {examined, {ids deleted}}. Takes up to a batch
 * of the workspace's tasks, whatever their state, off every index and deletes them with their
 * journal; once the workspace has none left, its own keys go too.
 */
const DELETE_WORKSPACE = new LuaScript(`${LUA_PRELUDE}${WORKSPACE_LUA}
local p, ws, batch = ARGV[1], ARGV[2], tonumber(ARGV[3])
local members = p .. 'tasks:workspace:' .. ws
local ids = redis.call('SPOP', members, batch)
local deleted = {}
local dedupe = dedupe_hash(p, ws)
for _, id in ipairs(ids) do
  local key = p .. 'task:' .. id
  local f = redis.call('HMGET', key, 'ord', 'account', 'dedupeKey')
  local ord, account, dk = f[1], f[2], f[3]
  if ord and account then
    redis.call('ZREM', p .. 'tasks:of:' .. account, ord)
    redis.call('ZREM', p .. 'tasks:ws:' .. ws .. ':of:' .. account, ord)
    redis.call('ZREM', p .. 'tasks:unfinished', ord)
    redis.call('ZREM', p .. 'tasks:unfinished:' .. account, ord)
    for _, index in ipairs(unfinished_indexes(p, ws, account)) do redis.call('ZREM', index, ord) end
    redis.call('ZREM', p .. 'tasks:finished', ord)
    redis.call('ZREM', p .. 'tasks:undelivered', ord)
    redis.call('ZREM', p .. 'tasks:bulk-delivered', ord)
    if dk and redis.call('HGET', dedupe, dk) == id then redis.call('HDEL', dedupe, dk) end
    deleted[#deleted + 1] = id
  end
  redis.call('DEL', key, p .. 'task-steps:' .. id)
end
if #ids < batch then
  redis.call('DEL', dedupe, p .. 'tasks:ws:' .. ws .. ':unfinished')
end
return {#ids, deleted}
`);

/**
 * KEYS: an index zset of ords. ARGV: the task hashes' key prefix, '1' for reverse, limit (negative:
 * none) → the hashes of the single workspace's tasks in the index (other workspaces' skipped), in
 * order, read in one snapshot.
 */
const RANGE_SINGLE_WORKSPACE = new LuaScript(`${LUA_PRELUDE}
local limit = tonumber(ARGV[3])
local out = {}
local start = 0
local chunk = 200
while limit < 0 or #out < limit do
  local members
  if ARGV[2] == '1' then
    members = redis.call('ZREVRANGE', KEYS[1], start, start + chunk - 1)
  else
    members = redis.call('ZRANGE', KEYS[1], start, start + chunk - 1)
  end
  if #members == 0 then break end
  for _, member in ipairs(members) do
    local key = ARGV[1] .. id_of_ord(member)
    local ws = redis.call('HGET', key, 'workspace')
    if not ws or ws == '' then
      local hash = redis.call('HGETALL', key)
      if #hash > 0 then
        out[#out + 1] = hash
        if limit >= 0 and #out >= limit then break end
      end
    end
  end
  start = start + chunk
end
return out
`);

/** KEYS: an index, the part of it that belongs to installed workspaces → the single workspace's count. */
const COUNT_DIFFERENCE = new LuaScript(`
return redis.call('ZCARD', KEYS[1]) - redis.call('ZCARD', KEYS[2])
`);

const PURGE_BATCH = 500;

export interface RedisTaskStoreOptions extends RedisStoreOptions {
  /** When results are compressed, and the cap past which one is not kept (resultCodec.ts). */
  results?: ResultLimits;
}

const createdReply = z.tuple([z.number(), z.unknown()]);
const purgeReply = z.tuple([z.number(), z.number()]);
const deleteWorkspaceReply = z.tuple([z.number(), z.array(z.string())]);

/**
 * Tasks and their mutation journal in Redis: the same operations and answers as SqliteTaskStore
 * (the contract: contract/tasks.ts).
 */
export class RedisTaskStore extends RedisStore implements TaskRepository {
  private readonly resultLimits: ResultLimits;

  constructor(redis: ConstructorParameters<typeof RedisStore>[0], options: RedisTaskStoreOptions = {}) {
    super(redis, options);
    this.resultLimits = options.results ?? DEFAULT_RESULT_LIMITS;
  }

  private taskKey(id: string): string {
    return taskKey(this.prefix, id);
  }

  private stepsKey(id: string): string {
    return stepsKey(this.prefix, id);
  }

  async create(task: NewTask): Promise<{ task: TaskRecord; created: boolean }> {
    const id = randomUUID();
    const now = this.now();
    const workspace = task.workspace ?? ONLY_WORKSPACE;
    const fields = {
      id,
      kind: task.kind,
      params: JSON.stringify(task.params ?? null),
      account: task.account,
      workspace,
      slackUser: task.slackUser,
      reply: JSON.stringify(task.reply),
      priority: task.priority,
      state: "queued",
      dedupeKey: task.dedupeKey,
      progressDone: "0",
      progressTotal: "0",
      attempts: "0",
      createdAt: String(now),
      updatedAt: String(now),
    };
    // Refused before anything is written, as SQLite's transaction refuses it (e.g. an unknown priority).
    fromHash(presentFields(fields));
    const reply = createdReply.parse(
      await CREATE.run(
        this.redis,
        [this.taskKey(id)],
        [this.prefix, task.dedupeKey ?? "", id, workspace, ...encodePairs(fields)],
      ),
    );
    return { task: fromHash(pairsToRecord(reply[1])), created: reply[0] === 1 };
  }

  async get(id: string): Promise<TaskRecord | undefined> {
    const hash = await this.redis.hgetall(this.taskKey(id));
    return Object.keys(hash).length === 0 ? undefined : fromHash(hash);
  }

  private async range(index: string, start: number, stop: number, reverse = false): Promise<TaskRecord[]> {
    const hashes = await rangeHashes(this.redis, `${this.prefix}${index}`, `${this.prefix}task:`, {
      start,
      stop,
      reverse,
    });
    return hashes.map(fromHash);
  }

  /** SQLite's LIMIT: a negative limit is none; 0 is nothing. */
  private async limited(index: string, limit: number, reverse = false): Promise<TaskRecord[]> {
    if (limit === 0) return [];
    return await this.range(index, 0, limit < 0 ? -1 : limit - 1, reverse);
  }

  /** The single workspace's tasks of an account-wide index, in order (other workspaces' skipped). */
  private async singleWorkspace(index: string, limit: number, reverse = false): Promise<TaskRecord[]> {
    const reply = await RANGE_SINGLE_WORKSPACE.run(
      this.redis,
      [`${this.prefix}${index}`],
      [`${this.prefix}task:`, reverse ? "1" : "0", String(limit)],
    );
    return pairsListToRecords(reply).map(fromHash);
  }

  async unfinished(account?: string, limit = -1, workspace?: WorkspaceKey): Promise<TaskRecord[]> {
    if (workspace === undefined) {
      return account
        ? await this.limited(`tasks:unfinished:${account}`, limit)
        : await this.range("tasks:unfinished", 0, -1);
    }
    const suffix = account ? `:${account}` : "";
    if (workspace === ONLY_WORKSPACE) return await this.singleWorkspace(`tasks:unfinished${suffix}`, limit);
    return await this.limited(`tasks:ws:${workspace}:unfinished${suffix}`, limit);
  }

  async countUnfinished(account?: string, workspace?: WorkspaceKey): Promise<number> {
    const suffix = account ? `:${account}` : "";
    if (workspace === undefined) return await this.redis.zcard(`${this.prefix}tasks:unfinished${suffix}`);
    if (workspace !== ONLY_WORKSPACE)
      return await this.redis.zcard(`${this.prefix}tasks:ws:${workspace}:unfinished${suffix}`);
    return z
      .number()
      .parse(
        await COUNT_DIFFERENCE.run(
          this.redis,
          [`${this.prefix}tasks:unfinished${suffix}`, `${this.prefix}tasks:scoped-unfinished${suffix}`],
          [],
        ),
      );
  }

  async markRunning(id: string): Promise<void> {
    await MARK_RUNNING.run(this.redis, [this.taskKey(id)], [String(this.now())]);
  }

  async finish(
    id: string,
    state: Extract<TaskState, "done" | "failed" | "cancelled">,
    outcome: { result?: unknown; error?: TaskError; params?: unknown },
  ): Promise<boolean> {
    const optional = (text: string | undefined) => (text === undefined ? ["0", ""] : ["1", text]);
    const result = await encodeResult(outcome.result, this.resultLimits);
    const changed = await FINISH.run(
      this.redis,
      [this.taskKey(id)],
      [
        this.prefix,
        state,
        String(this.now()),
        ...optional(result?.text),
        ...optional(jsonText(outcome.error)),
        ...optional(jsonText(outcome.params)),
        ...optional(result?.bulk),
      ],
    );
    return changed === 1;
  }

  private async update(id: string, set: Record<string, string | undefined>): Promise<void> {
    const absent = Object.keys(set).filter((field) => set[field] === undefined);
    await UPDATE_IF_EXISTS.run(
      this.redis,
      [this.taskKey(id)],
      [...encodePairs(set), String(absent.length), ...absent],
    );
  }

  async updateResult(id: string, result: unknown): Promise<void> {
    const encoded = await encodeResult(result ?? null, this.resultLimits);
    await UPDATE_RESULT.run(
      this.redis,
      [this.taskKey(id)],
      [
        this.prefix,
        String(this.now()),
        encoded?.text ?? "null",
        ...(encoded?.bulk === undefined ? ["0", ""] : ["1", encoded.bulk]),
      ],
    );
  }

  async updateParams(id: string, params: unknown): Promise<void> {
    await this.update(id, { params: jsonText(params), updatedAt: String(this.now()) });
  }

  async setProgress(id: string, done: number, total: number): Promise<void> {
    await this.update(id, {
      progressDone: String(done),
      progressTotal: String(total),
      updatedAt: String(this.now()),
    });
  }

  async setReply(id: string, reply: ReplyTarget): Promise<void> {
    await this.update(id, { reply: JSON.stringify(reply), updatedAt: String(this.now()) });
  }

  async step(taskId: string, step: string): Promise<StepState | undefined> {
    const text = await this.redis.hget(this.stepsKey(taskId), step);
    if (text === null) return undefined;
    const stored = storedStepSchema.parse(storedJson.parse(text));
    return stored.state === "sending" ? { state: "sending" } : { state: "done", result: stored.result };
  }

  private async writeStep(taskId: string, step: string, state: StepState): Promise<void> {
    await MARK_STEP.run(
      this.redis,
      [this.taskKey(taskId), this.stepsKey(taskId)],
      [step, stepText(state, this.now())],
    );
  }

  async markStepSending(taskId: string, step: string): Promise<void> {
    await this.writeStep(taskId, step, { state: "sending" });
  }

  async markStepDone(taskId: string, step: string, result: unknown): Promise<void> {
    await this.writeStep(taskId, step, { state: "done", result });
  }

  async undelivered(): Promise<TaskRecord[]> {
    return await this.range("tasks:undelivered", 0, -1);
  }

  async markDelivered(id: string): Promise<void> {
    await MARK_DELIVERED.run(this.redis, [this.taskKey(id)], [this.prefix, String(this.now())]);
  }

  async recent(account: string, limit: number, workspace?: WorkspaceKey): Promise<TaskRecord[]> {
    if (workspace === undefined) return await this.limited(`tasks:of:${account}`, limit, true);
    if (workspace === ONLY_WORKSPACE) return await this.singleWorkspace(`tasks:of:${account}`, limit, true);
    return await this.limited(`tasks:ws:${workspace}:of:${account}`, limit, true);
  }

  /**
   * Deletes every task of an uninstalled workspace, whatever its state, with its journal; returns
   * how many and their ids (the caller removes their queue jobs). Refuses the single workspace.
   */
  async deleteWorkspace(workspace: WorkspaceKey): Promise<{ tasks: number; ids: string[] }> {
    assertPurgeable(workspace);
    const ids: string[] = [];
    // In batches, so one script never blocks Redis for long; each batch is atomic.
    for (;;) {
      const [examined, deleted] = deleteWorkspaceReply.parse(
        await DELETE_WORKSPACE.run(this.redis, [], [this.prefix, workspace, String(PURGE_BATCH)]),
      );
      ids.push(...deleted);
      if (examined < PURGE_BATCH) return { tasks: ids.length, ids };
    }
  }

  /** Replaces the bulk results of tasks delivered before the instant by an "expired" marker; returns how many. */
  async dropResultsDeliveredBefore(instant: number): Promise<number> {
    let dropped = 0;
    for (;;) {
      const [count, examined] = purgeReply.parse(
        await DROP_DELIVERED_BULK.run(
          this.redis,
          [],
          [this.prefix, String(instant), String(PURGE_BATCH), NOT_KEPT_PREFIX],
        ),
      );
      dropped += count;
      if (examined < PURGE_BATCH) return dropped;
    }
  }

  async purgeFinishedBefore(instant: number): Promise<number> {
    let deleted = 0;
    // In batches, so one script never blocks Redis for long; each batch is atomic.
    for (;;) {
      const [count, examined] = purgeReply.parse(
        await PURGE.run(this.redis, [], [this.prefix, String(instant), String(PURGE_BATCH)]),
      );
      deleted += count;
      if (examined < PURGE_BATCH) return deleted;
    }
  }
}
