import type { Redis } from "ioredis";
import { z } from "zod";
import type { WorkspaceKey } from "../../workspaces/workspace.js";
import type {
  NewReportSchedule,
  ReportSchedule,
  ScheduleOutcome,
  SchedulePause,
  ScheduleRepository,
} from "../contract/schedules.js";
import { StoreError } from "../database.js";
import {
  assertInstant,
  checkedSchedule,
  newSchedule,
  runsSkippedBy,
  scheduleIdCandidates,
  scheduleIdOf,
} from "../scheduleRecords.js";
import {
  encodePairs,
  jsonText,
  LUA_PRELUDE,
  LuaScript,
  numberText,
  pairsListToRecords,
  pairsToRecord,
  RedisStore,
  rangeHashes,
  storedJson,
  storedNumber,
} from "./lua.js";

/**
 * Scheduled reports in Redis, with SqliteScheduleStore's answers (the contract:
 * contract/schedules.ts). Every write is one script, so a run is claimed by exactly one replica:
 * the claim moves `nextRunAt` only while it still holds the run's instant and the schedule is
 * active; a pause takes the schedule out of the due set in the same step.
 *
 * Keys (after the prefix):
 *   schedule:<workspace>:<id>   hash: the schedule's fields (recurrence as JSON; absent fields
 *                               absent), and `ord` (its place in the workspace's index)
 *   schedules:in:<workspace>    zset ord → createdAt: the workspace's schedules, oldest first (ties
 *                               in the order added)
 *   schedules:due               zset "<workspace> <id>" → nextRunAt: the active schedules only
 *   schedules:seq               counter of the ords
 */

/** A schedule's hash. */
export const scheduleKey = (prefix: string, workspace: WorkspaceKey, id: string) =>
  `${prefix}schedule:${workspace}:${id}`;

/** A workspace's index. */
export const schedulesInKey = (prefix: string, workspace: WorkspaceKey) =>
  `${prefix}schedules:in:${workspace}`;

const SCHEDULE_LUA = `${LUA_PRELUDE}
local function sched_key(p, w, id)
  return p .. 'schedule:' .. w .. ':' .. id
end
local function due_member(w, id)
  return w .. ' ' .. id
end
`;

/**
 * ARGV: prefix, workspace, id, createdAt, nextRunAt, then the fields (count first) → 1 stored; 0
 * the id is taken by this very schedule (same creation time, channel and command: a copy made
 * before); 2 taken by another.
 */
const ADD = new LuaScript(`${SCHEDULE_LUA}
local p, w, id = ARGV[1], ARGV[2], ARGV[3]
local key = sched_key(p, w, id)
local fields = read_pairs(6)
if redis.call('EXISTS', key) == 1 then
  local stored = redis.call('HMGET', key, 'createdAt', 'channel', 'command')
  local given = {}
  for i = 1, #fields, 2 do given[fields[i]] = fields[i + 1] end
  if stored[1] == given.createdAt and stored[2] == given.channel and stored[3] == given.command then return 0 end
  return 2
end
local ord = ord_of(redis.call('INCR', p .. 'schedules:seq'), id)
redis.call('HSET', key, 'ord', ord, unpack(fields))
redis.call('ZADD', p .. 'schedules:in:' .. w, ARGV[4], ord)
if redis.call('HGET', key, 'state') == 'active' then
  redis.call('ZADD', p .. 'schedules:due', ARGV[5], due_member(w, id))
end
return 1
`);

/** ARGV: prefix, at, limit → the due schedules' hashes, soonest first, read in one snapshot. */
const DUE = new LuaScript(`${SCHEDULE_LUA}
local p = ARGV[1]
local members = redis.call('ZRANGEBYSCORE', p .. 'schedules:due', '-inf', ARGV[2], 'LIMIT', 0, ARGV[3])
local out = {}
for _, member in ipairs(members) do
  local w, id = string.match(member, '^(.*) ([^ ]+)$')
  local hash = redis.call('HGETALL', sched_key(p, w, id))
  if #hash > 0 then out[#out + 1] = hash end
end
return out
`);

/**
 * ARGV: prefix, workspace, id, expected nextRunAt, next nextRunAt, madeAt → 1 this caller claimed
 * the run, 0 not (claimed already, paused, or gone).
 */
const CLAIM = new LuaScript(`${SCHEDULE_LUA}
local p, w, id = ARGV[1], ARGV[2], ARGV[3]
local key = sched_key(p, w, id)
local row = redis.call('HMGET', key, 'state', 'nextRunAt')
if row[1] ~= 'active' or tonumber(row[2]) ~= tonumber(ARGV[4]) then return 0 end
redis.call('HSET', key, 'nextRunAt', ARGV[5], 'lastRunAt', ARGV[4], 'lastRunMadeAt', ARGV[6])
redis.call('ZADD', p .. 'schedules:due', ARGV[5], due_member(w, id))
return 1
`);

/**
 * ARGV: prefix, workspace, id, result, '1' with a task id or '0', the task id, runs skipped → the
 * hash after, or false. ok resets the failures in a row, failed adds one, skipped leaves them; a
 * skip adds its runs to skippedRuns, a run made clears them.
 */
const OUTCOME = new LuaScript(`${SCHEDULE_LUA}
local key = sched_key(ARGV[1], ARGV[2], ARGV[3])
if redis.call('EXISTS', key) == 0 then return false end
local result = ARGV[4]
local failures = tonumber(redis.call('HGET', key, 'failuresInRow') or '0')
if result == 'ok' then failures = 0 elseif result == 'failed' then failures = failures + 1 end
redis.call('HSET', key, 'lastOutcome', result, 'failuresInRow', failures)
if result == 'skipped' then
  redis.call('HINCRBY', key, 'skippedRuns', tonumber(ARGV[7]))
else
  redis.call('HDEL', key, 'skippedRuns')
end
if ARGV[5] == '1' then
  redis.call('HSET', key, 'lastTaskId', ARGV[6])
else
  redis.call('HDEL', key, 'lastTaskId')
end
return redis.call('HGETALL', key)
`);

/**
 * ARGV: prefix, workspace, id, 'paused' and why, or 'active' and the next run → the hash after,
 * or false. A pause leaves the due set; a resume enters it with its next run and no failures.
 */
const SET_STATE = new LuaScript(`${SCHEDULE_LUA}
local p, w, id = ARGV[1], ARGV[2], ARGV[3]
local key = sched_key(p, w, id)
if redis.call('EXISTS', key) == 0 then return false end
if ARGV[4] == 'paused' then
  redis.call('HSET', key, 'state', 'paused', 'pausedBecause', ARGV[5])
  redis.call('ZREM', p .. 'schedules:due', due_member(w, id))
else
  redis.call('HSET', key, 'state', 'active', 'nextRunAt', ARGV[5], 'failuresInRow', '0')
  redis.call('HDEL', key, 'pausedBecause')
  redis.call('ZADD', p .. 'schedules:due', ARGV[5], due_member(w, id))
end
return redis.call('HGETALL', key)
`);

/** ARGV: prefix, workspace, id → 1 removed, 0 none. */
const REMOVE = new LuaScript(`${SCHEDULE_LUA}
local p, w, id = ARGV[1], ARGV[2], ARGV[3]
local key = sched_key(p, w, id)
local ord = redis.call('HGET', key, 'ord')
if not ord then return 0 end
redis.call('DEL', key)
redis.call('ZREM', p .. 'schedules:in:' .. w, ord)
redis.call('ZREM', p .. 'schedules:due', due_member(w, id))
return 1
`);

/** ARGV: prefix, workspace → how many schedules it had; none is left, nor its index. */
const DELETE_WORKSPACE = new LuaScript(`${SCHEDULE_LUA}
local p, w = ARGV[1], ARGV[2]
local index = p .. 'schedules:in:' .. w
local ords = redis.call('ZRANGE', index, 0, -1)
for _, ord in ipairs(ords) do
  local id = id_of_ord(ord)
  redis.call('DEL', sched_key(p, w, id))
  redis.call('ZREM', p .. 'schedules:due', due_member(w, id))
end
redis.call('DEL', index)
return #ords
`);

const optionalNumber = storedNumber.optional();

const scheduleHash = z.object({
  id: z.string(),
  workspace: z.string(),
  channel: z.string(),
  createdBy: z.string(),
  command: z.string(),
  recurrence: storedJson,
  timeZone: z.string(),
  language: z.string().optional(),
  state: z.string(),
  pausedBecause: z.string().optional(),
  nextRunAt: storedNumber,
  lastRunAt: optionalNumber,
  lastRunMadeAt: optionalNumber,
  lastTaskId: z.string().optional(),
  lastOutcome: z.string().optional(),
  skippedRuns: optionalNumber,
  failuresInRow: storedNumber,
  createdAt: storedNumber,
});

function toSchedule(hash: Record<string, string>): ReportSchedule {
  const { ord: _, ...fields } = hash;
  return checkedSchedule(scheduleHash.parse(fields));
}

/** A schedule as its hash holds it (absent fields absent). */
export function scheduleFields(schedule: ReportSchedule): Record<string, string | undefined> {
  return {
    id: schedule.id,
    workspace: schedule.workspace,
    channel: schedule.channel,
    createdBy: schedule.createdBy,
    command: schedule.command,
    recurrence: jsonText(schedule.recurrence),
    timeZone: schedule.timeZone,
    language: schedule.language,
    state: schedule.state,
    pausedBecause: schedule.pausedBecause,
    nextRunAt: numberText(schedule.nextRunAt),
    lastRunAt: numberText(schedule.lastRunAt),
    lastRunMadeAt: numberText(schedule.lastRunMadeAt),
    lastTaskId: schedule.lastTaskId,
    lastOutcome: schedule.lastOutcome,
    skippedRuns: numberText(schedule.skippedRuns),
    failuresInRow: numberText(schedule.failuresInRow),
    createdAt: numberText(schedule.createdAt),
  };
}

/**
 * Stores a schedule as it is (id, state and times kept): 'copied'; 'present' when this schedule is
 * there already; 'taken' when another one of the workspace holds its id. The migrator's write
 * (migrationTarget.ts), and `add`'s.
 */
export async function writeSchedule(
  redis: Redis,
  prefix: string,
  schedule: ReportSchedule,
): Promise<"copied" | "present" | "taken"> {
  const checked = checkedSchedule(schedule);
  if (scheduleIdOf(checked.id) !== checked.id) throw new RangeError(`not a schedule id: ${checked.id}`);
  const reply = await ADD.run(
    redis,
    [],
    [
      prefix,
      checked.workspace,
      checked.id,
      String(checked.createdAt),
      String(checked.nextRunAt),
      ...encodePairs(scheduleFields(checked)),
    ],
  );
  return reply === 1 ? "copied" : reply === 0 ? "present" : "taken";
}

/** A script's hash or false (null through ioredis) as a schedule or undefined. */
const scheduleOrUndefined = (reply: unknown): ReportSchedule | undefined =>
  reply === null ? undefined : toSchedule(pairsToRecord(reply));

export class RedisScheduleStore extends RedisStore implements ScheduleRepository {
  async add(input: NewReportSchedule): Promise<ReportSchedule> {
    for (const id of scheduleIdCandidates()) {
      const schedule = newSchedule(input, id, this.now());
      // Anything but a fresh write is another schedule under that id: the next candidate.
      if ((await writeSchedule(this.redis, this.prefix, schedule)) === "copied") return schedule;
    }
    throw new StoreError(`no free schedule id in workspace ${JSON.stringify(input.workspace)}`);
  }

  async get(workspace: WorkspaceKey, id: string): Promise<ReportSchedule | undefined> {
    const stored = scheduleIdOf(id);
    if (stored === undefined) return undefined;
    const hash = await this.redis.hgetall(scheduleKey(this.prefix, workspace, stored));
    return Object.keys(hash).length === 0 ? undefined : toSchedule(hash);
  }

  async list(
    workspace: WorkspaceKey,
    filter: { channel?: string; createdBy?: string } = {},
  ): Promise<ReportSchedule[]> {
    const hashes = await rangeHashes(
      this.redis,
      schedulesInKey(this.prefix, workspace),
      `${this.prefix}schedule:${workspace}:`,
      { member: "ord" },
    );
    return hashes
      .map(toSchedule)
      .filter(
        (s) =>
          (filter.channel === undefined || s.channel === filter.channel) &&
          (filter.createdBy === undefined || s.createdBy === filter.createdBy),
      );
  }

  async count(workspace: WorkspaceKey): Promise<number> {
    return await this.redis.zcard(schedulesInKey(this.prefix, workspace));
  }

  async due(at: number, limit: number): Promise<ReportSchedule[]> {
    if (limit <= 0) return [];
    const reply = await DUE.run(this.redis, [], [this.prefix, String(at), String(Math.floor(limit))]);
    return pairsListToRecords(reply).map(toSchedule);
  }

  async claimRun(
    workspace: WorkspaceKey,
    id: string,
    expectedNextRunAt: number,
    next: { nextRunAt: number; madeAt: number },
  ): Promise<boolean> {
    assertInstant(next.nextRunAt, "nextRunAt");
    assertInstant(next.madeAt, "madeAt");
    const stored = scheduleIdOf(id);
    if (stored === undefined) return false;
    const reply = await CLAIM.run(
      this.redis,
      [],
      [
        this.prefix,
        workspace,
        stored,
        String(expectedNextRunAt),
        String(next.nextRunAt),
        String(next.madeAt),
      ],
    );
    return reply === 1;
  }

  async recordOutcome(
    workspace: WorkspaceKey,
    id: string,
    outcome: ScheduleOutcome,
  ): Promise<ReportSchedule | undefined> {
    const stored = scheduleIdOf(id);
    if (stored === undefined) return undefined;
    const taskId = outcome.result === "skipped" ? undefined : outcome.taskId;
    const reply = await OUTCOME.run(
      this.redis,
      [],
      [
        this.prefix,
        workspace,
        stored,
        outcome.result,
        taskId === undefined ? "0" : "1",
        taskId ?? "",
        String(runsSkippedBy(outcome)),
      ],
    );
    return scheduleOrUndefined(reply);
  }

  async setState(
    workspace: WorkspaceKey,
    id: string,
    change: { state: "paused"; because: SchedulePause } | { state: "active"; nextRunAt: number },
  ): Promise<ReportSchedule | undefined> {
    if (change.state === "active") assertInstant(change.nextRunAt, "nextRunAt");
    const stored = scheduleIdOf(id);
    if (stored === undefined) return undefined;
    const reply = await SET_STATE.run(
      this.redis,
      [],
      [
        this.prefix,
        workspace,
        stored,
        change.state,
        change.state === "paused" ? change.because : String(change.nextRunAt),
      ],
    );
    return scheduleOrUndefined(reply);
  }

  async remove(workspace: WorkspaceKey, id: string): Promise<boolean> {
    const stored = scheduleIdOf(id);
    if (stored === undefined) return false;
    return (await REMOVE.run(this.redis, [], [this.prefix, workspace, stored])) === 1;
  }

  async deleteWorkspace(workspace: WorkspaceKey): Promise<number> {
    return z.number().parse(await DELETE_WORKSPACE.run(this.redis, [], [this.prefix, workspace]));
  }
}
