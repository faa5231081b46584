import type { Redis, RedisValue, Result } from "ioredis";

/**
 * The Lua side of RedisGate. Every decision that more than one replica could race on
 * (who starts next, when, what a 429 does to the margin) is one script, so it is atomic,
 * and it reads the time with Redis `TIME`: one clock for every replica.
 *
 * Key layout, for a prefix P and an account A (A URI-encoded, so no account can spell another's key):
 *   P:replica:<member>       heartbeat of one gate instance (PX lease); gone = that replica is dead
 *   P:events                 pub/sub channel; message = account, after every release
 *   P:{A}:q                  ZSET of waiting entry ids, score = rank * 1e12 + seq (class, then arrival)
 *   P:{A}:seq                INCR counter: entry ids and arrival order
 *   P:{A}:s                  HASH account state: last (start of the last call), blocked (after a 429),
 *                            extra (widened margin), c429, clean; run/runBy/runAt while a call is out
 *   P:{A}:turn               STRING token of the replica holding the turn, PX lease, renewed while sending
 *   P:{A}:share              HASH shareKey -> id of the entry waiting or running for it
 *   P:{A}:e:<id>             HASH entry: endpoint, priority, rank, seq, share, at (enqueued, server ms),
 *                            m:<member> = 1 per replica waiting on it, t:<taskId> = member
 *   P:{A}:done:<id>          STRING the entry's outcome (v8), PX resultTtl: for its callers on other replicas
 *   P:{A}:recent:<shareKey>  STRING a successful answer (v8), PX one slot (history: REPORT_ANSWER_REUSE_MS): reused by identical reports
 *
 * q, seq, s, share and the entries expire when the account is idle (idleTtl, a day by default):
 * every script that uses the account (enqueue, take, finish, leave) sets the TTL again, and a
 * replica with waiting calls takes a look at least every maxWaitMs, so only an account nobody
 * uses loses them. The TTL never ends before a 429 block does; once the keys are gone the next
 * call starts fresh, which is safe because idleTtl is far longer than a slot.
 *
 * The scripts build entry and heartbeat keys from the prefix, so they suit one Redis
 * (or a primary with replicas), not Redis Cluster.
 */

const PRELUDE = `
-- Redis server time in ms: the one clock all replicas share.
local function nowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
-- Serving order: class first, then arrival (seq stays far below 1e12).
local function score(rank, seq) return tonumber(rank) * 1e12 + tonumber(seq) end
-- Removes one replica (and its tasks) from an entry; returns how many replicas still wait on it.
local function removeMember(ekey, member)
  local flat = redis.call('HGETALL', ekey)
  local left = 0
  for i = 1, #flat, 2 do
    local field, value = flat[i], flat[i + 1]
    if field == 'm:' .. member or (string.sub(field, 1, 2) == 't:' and value == member) then
      redis.call('HDEL', ekey, field)
    elseif string.sub(field, 1, 2) == 'm:' then
      left = left + 1
    end
  end
  return left
end
-- Replicas waiting on an entry whose heartbeat lives; the dead ones are removed on the way.
local function liveMembers(ekey, replicaPrefix)
  local flat = redis.call('HGETALL', ekey)
  local live = 0
  for i = 1, #flat, 2 do
    if string.sub(flat[i], 1, 2) == 'm:' then
      local member = string.sub(flat[i], 3)
      if redis.call('EXISTS', replicaPrefix .. member) == 1 then live = live + 1 else removeMember(ekey, member) end
    end
  end
  return live
end
local function dropEntry(qkey, sharekey, ekey, id)
  local share = redis.call('HGET', ekey, 'share')
  if share and share ~= '' and redis.call('HGET', sharekey, share) == id then redis.call('HDEL', sharekey, share) end
  redis.call('ZREM', qkey, id)
  redis.call('DEL', ekey)
end
local function requeueOrDrop(qkey, sharekey, ekey, id, membersLeft)
  if membersLeft > 0 then
    redis.call('ZADD', qkey, score(redis.call('HGET', ekey, 'rank'), redis.call('HGET', ekey, 'seq')), id)
  else
    dropEntry(qkey, sharekey, ekey, id)
  end
end
local function stateNumber(skey, field) return tonumber(redis.call('HGET', skey, field) or '0') end
-- Every username tried at /fleet login gets keys: each use keeps them idleTtl longer, and never
-- shorter than a 429 block still has to run.
local function keepAccount(base, idleTtl)
  local ttl = tonumber(idleTtl)
  local blockedFor = stateNumber(base .. ':s', 'blocked') - nowMs()
  if blockedFor + 1000 > ttl then ttl = blockedFor + 1000 end
  for _, suffix in ipairs({':q', ':seq', ':s', ':share'}) do redis.call('PEXPIRE', base .. suffix, ttl) end
end
`;

/** A script body run as a function, the account's keys kept for idleTtl (ARGV[ttlArg]) whatever it answers. */
function keepingAccount(body: string, ttlArg: number): string {
  return `${PRELUDE}
local function main()
${body}
end
local reply = main()
keepAccount(ARGV[1], ARGV[${ttlArg}])
return reply
`;
}

/**
 * enqueue: answer from a recent identical report, or join the identical entry waiting or
 * running (raising its class if this caller is more urgent), or add a new entry.
 * KEYS q seq share heartbeat; ARGV base member heartbeatTtl endpoint priority rank shareKey reuseRecent idleTtl taskIds...
 */
const ENQUEUE = keepingAccount(
  `
local base, member, share = ARGV[1], ARGV[2], ARGV[7]
redis.call('SET', KEYS[4], '1', 'PX', ARGV[3])
local function addTasks(ekey)
  redis.call('PEXPIRE', ekey, ARGV[9])
  for i = 10, #ARGV do redis.call('HSET', ekey, 't:' .. ARGV[i], member) end
end
if share ~= '' then
  if ARGV[8] == '1' then
    local recent = redis.call('GET', base .. ':recent:' .. share)
    if recent then return {'recent', recent} end
  end
  local id = redis.call('HGET', KEYS[3], share)
  if id and redis.call('EXISTS', base .. ':e:' .. id) == 1 then
    local ekey = base .. ':e:' .. id
    redis.call('HSET', ekey, 'm:' .. member, '1')
    addTasks(ekey)
    if tonumber(ARGV[6]) < tonumber(redis.call('HGET', ekey, 'rank')) then
      redis.call('HSET', ekey, 'rank', ARGV[6], 'priority', ARGV[5])
      if redis.call('ZSCORE', KEYS[1], id) then
        redis.call('ZADD', KEYS[1], score(ARGV[6], redis.call('HGET', ekey, 'seq')), id)
      end
    end
    return {'joined', id}
  end
end
local seq = redis.call('INCR', KEYS[2])
local id = tostring(seq)
local ekey = base .. ':e:' .. id
redis.call('HSET', ekey, 'endpoint', ARGV[4], 'priority', ARGV[5], 'rank', ARGV[6], 'seq', seq,
  'share', share, 'at', nowMs(), 'm:' .. member, '1')
addTasks(ekey)
redis.call('ZADD', KEYS[1], score(ARGV[6], seq), id)
if share ~= '' then redis.call('HSET', KEYS[3], share, id) end
return {'created', id}
`,
  9,
);

/**
 * take: the turn for this replica if the head of the queue is one of its entries and the
 * spacing allows; otherwise how long to wait. Recovers the turn of a replica whose lease lapsed.
 * KEYS q state turn share heartbeat; ARGV base replicaPrefix member token leaseMs baseSlotMs heartbeatTtl idleTtl
 */
const TAKE = keepingAccount(
  `
local base, prefix, member = ARGV[1], ARGV[2], ARGV[3]
redis.call('SET', KEYS[5], '1', 'PX', ARGV[7])
local now = nowMs()
local extra = stateNumber(KEYS[2], 'extra')
-- One call out per account: wait while its lease lives (a release publishes sooner).
local pttl = redis.call('PTTL', KEYS[3])
if pttl > 0 then return {'busy', pttl, extra} end
-- A call out whose lease lapsed without a release: its replica died. The entry goes back to the
-- queue for the other replicas waiting on it; the spacing still counts from its start.
local running = redis.call('HGET', KEYS[2], 'run')
if running then
  local ekey = base .. ':e:' .. running
  if redis.call('EXISTS', ekey) == 1 then
    local holder = redis.call('HGET', KEYS[2], 'runBy') or ''
    requeueOrDrop(KEYS[1], KEYS[4], ekey, running, removeMember(ekey, holder))
  end
  redis.call('HDEL', KEYS[2], 'run', 'runBy', 'runAt')
end
-- The head of the queue, dropping entries no live replica waits for any more (a few per call).
local id, ekey
for _ = 1, 16 do
  local head = redis.call('ZRANGE', KEYS[1], 0, 0)
  if #head == 0 then return {'idle', 0, extra} end
  id, ekey = head[1], base .. ':e:' .. head[1]
  if liveMembers(ekey, prefix) > 0 then break end
  dropEntry(KEYS[1], KEYS[4], ekey, id)
  id = nil
end
if not id then return {'wait', 0, extra} end
local last = stateNumber(KEYS[2], 'last')
local nextAt = math.max(last + tonumber(ARGV[6]) + extra, stateNumber(KEYS[2], 'blocked'))
if now < nextAt then return {'wait', nextAt - now, extra} end
-- Another replica's entry: that replica takes it now. Look again when the last heartbeat of
-- its replicas would lapse (they renew it while alive; a release wakes this one sooner).
if redis.call('HEXISTS', ekey, 'm:' .. member) == 0 then
  local wake = 1
  for _, field in ipairs(redis.call('HKEYS', ekey)) do
    if string.sub(field, 1, 2) == 'm:' then wake = math.max(wake, redis.call('PTTL', prefix .. string.sub(field, 3))) end
  end
  return {'other', wake, extra}
end
redis.call('ZREM', KEYS[1], id)
redis.call('SET', KEYS[3], ARGV[4], 'PX', ARGV[5])
redis.call('HSET', KEYS[2], 'last', now, 'run', id, 'runBy', member, 'runAt', now)
return {'taken', id, extra, now - tonumber(redis.call('HGET', ekey, 'at')), last}
`,
  8,
);

/**
 * renew: keeps the turn while the call runs. With started = 1 (sent right after \`send\` was
 * invoked) it also moves the start to now: the spacing counts from the moment the call was
 * handed to the network, not from the grant, so a replica slow between the two costs no gap.
 * KEYS turn state; ARGV token leaseMs started
 */
const RENEW = `${PRELUDE}
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if ARGV[3] == '1' then redis.call('HSET', KEYS[2], 'last', nowMs()) end
return 1
`;

/**
 * finish: releases the turn and records the outcome: an answer for the callers elsewhere
 * (and for identical reports for one slot), a 429 (margin widened for every replica, entry
 * back at the head of its class, account blocked until retry-after), a turn spent on a login
 * ("again": the entry back at its place, nothing else changed), or a turn not used.
 * KEYS q state turn share; ARGV base member token id outcome donePayload recentPayload retryAfterMs
 *   baseSlotMs marginStepMs maxExtraMs recoveryCalls resultTtlMs keepMember prevLast channel account
 *   recentKeepMs (0: one slot) idleTtl
 */
const FINISH = keepingAccount(
  `
local base, member, id, outcome = ARGV[1], ARGV[2], ARGV[4], ARGV[5]
local ekey = base .. ':e:' .. id
local now = nowMs()
local held = redis.call('GET', KEYS[3]) == ARGV[3]
if held then redis.call('DEL', KEYS[3]) end
if redis.call('HGET', KEYS[2], 'run') == id then redis.call('HDEL', KEYS[2], 'run', 'runBy', 'runAt') end
local extra, c429, clean = stateNumber(KEYS[2], 'extra'), stateNumber(KEYS[2], 'c429'), stateNumber(KEYS[2], 'clean')
local exists = redis.call('EXISTS', ekey) == 1
-- Replicas other than this one waiting on the entry.
local others = 0
if exists then
  for _, field in ipairs(redis.call('HKEYS', ekey)) do
    if string.sub(field, 1, 2) == 'm:' and field ~= 'm:' .. member then others = others + 1 end
  end
end
if outcome == 'unused' then
  -- Taken for callers who all cancelled meanwhile: as if the turn had not been granted.
  if held then redis.call('HSET', KEYS[2], 'last', ARGV[15]) end
  if exists then
    removeMember(ekey, member)
    requeueOrDrop(KEYS[1], KEYS[4], ekey, id, others)
  end
elseif outcome == 'rate_limited' then
  c429 = c429 + 1
  extra = math.min(tonumber(ARGV[11]), extra + tonumber(ARGV[10]))
  clean = 0
  redis.call('HSET', KEYS[2], 'blocked', now + math.max(tonumber(ARGV[8]), tonumber(ARGV[9]) + extra))
  if exists then
    if ARGV[14] == '1' then
      requeueOrDrop(KEYS[1], KEYS[4], ekey, id, others + 1)
    else
      removeMember(ekey, member)
      requeueOrDrop(KEYS[1], KEYS[4], ekey, id, others)
    end
  end
elseif outcome == 'again' then
  -- The turn went to a login: the spacing counts from it, and the entry goes back to its place.
  if exists then
    if ARGV[14] == '1' then
      requeueOrDrop(KEYS[1], KEYS[4], ekey, id, others + 1)
    else
      removeMember(ekey, member)
      requeueOrDrop(KEYS[1], KEYS[4], ekey, id, others)
    end
  end
else
  if outcome == 'ok' then c429 = 0 end
  if extra > 0 then
    clean = clean + 1
    if clean >= tonumber(ARGV[12]) then extra, clean = 0, 0 end
  end
  redis.call('SET', base .. ':done:' .. id, ARGV[6], 'PX', ARGV[13])
  local share = exists and redis.call('HGET', ekey, 'share') or ''
  if share ~= '' and ARGV[7] ~= '' then
    redis.call('SET', base .. ':recent:' .. share, ARGV[7], 'PX', math.max(tonumber(ARGV[9]) + extra, tonumber(ARGV[18])))
  end
  if exists then dropEntry(KEYS[1], KEYS[4], ekey, id) end
end
redis.call('HSET', KEYS[2], 'extra', extra, 'c429', c429, 'clean', clean)
redis.call('PUBLISH', ARGV[16], ARGV[17])
return {extra, c429, others}
`,
  19,
);

/**
 * leave: callers on this replica cancelled. Their tasks leave the entry, and the replica
 * too when none of its callers is left; an entry nobody waits for is dropped. An entry
 * already sent is left alone: it runs to its end and its callers get its answer.
 * KEYS q share; ARGV base member id dropMember idleTtl taskIds...
 */
const LEAVE = keepingAccount(
  `
local ekey = ARGV[1] .. ':e:' .. ARGV[3]
if not redis.call('ZSCORE', KEYS[1], ARGV[3]) then return 'running' end
for i = 6, #ARGV do redis.call('HDEL', ekey, 't:' .. ARGV[i]) end
if ARGV[4] == '1' and removeMember(ekey, ARGV[2]) == 0 then dropEntry(KEYS[1], KEYS[2], ekey, ARGV[3]) end
return 'left'
`,
  5,
);

/**
 * collect: for the entries this replica waits on and does not send itself, the answers in
 * ({id, 'done', payload}) and the entries lost without one ({id, 'gone'}); others are omitted.
 * KEYS (none); ARGV base ids...
 */
const COLLECT = `
local out = {}
for i = 2, #ARGV do
  local id = ARGV[i]
  local done = redis.call('GET', ARGV[1] .. ':done:' .. id)
  if done then
    table.insert(out, {id, 'done', done})
  elseif redis.call('EXISTS', ARGV[1] .. ':e:' .. id) == 0 then
    table.insert(out, {id, 'gone'})
  end
end
return out
`;

/**
 * schedule: the account as every replica sees it, in one read: server time, state, the
 * running entry, and the waiting entries some live replica still waits for (in order).
 * KEYS q state turn; ARGV base replicaPrefix limit
 */
const SCHEDULE = `${PRELUDE}
local now = nowMs()
local state = redis.call('HGETALL', KEYS[2])
local running = {}
local run = redis.call('HGET', KEYS[2], 'run')
if run and redis.call('EXISTS', KEYS[3]) == 1 then running = redis.call('HGETALL', ARGV[1] .. ':e:' .. run) end
local waiting = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[3]) - 1)) do
  local flat = redis.call('HGETALL', ARGV[1] .. ':e:' .. id)
  for i = 1, #flat, 2 do
    if string.sub(flat[i], 1, 2) == 'm:' and redis.call('EXISTS', ARGV[2] .. string.sub(flat[i], 3)) == 1 then
      table.insert(waiting, flat)
      break
    end
  end
end
return {now, state, running, waiting}
`;

const SCRIPTS = {
  fleetGateEnqueue: { lua: ENQUEUE, numberOfKeys: 4 },
  fleetGateTake: { lua: TAKE, numberOfKeys: 5 },
  fleetGateRenew: { lua: RENEW, numberOfKeys: 2 },
  fleetGateFinish: { lua: FINISH, numberOfKeys: 4 },
  fleetGateLeave: { lua: LEAVE, numberOfKeys: 2 },
  fleetGateCollect: { lua: COLLECT, numberOfKeys: 0 },
  fleetGateSchedule: { lua: SCHEDULE, numberOfKeys: 3 },
};

// ioredis adds a method per defined script (and a *Buffer twin that answers Buffers):
// declared here so calls are type-checked. Replies are `unknown` and parsed below.
declare module "ioredis" {
  interface RedisCommander<Context> {
    fleetGateEnqueueBuffer(...args: RedisValue[]): Result<unknown, Context>;
    fleetGateTakeBuffer(...args: RedisValue[]): Result<unknown, Context>;
    fleetGateRenewBuffer(...args: RedisValue[]): Result<unknown, Context>;
    fleetGateFinishBuffer(...args: RedisValue[]): Result<unknown, Context>;
    fleetGateLeaveBuffer(...args: RedisValue[]): Result<unknown, Context>;
    fleetGateCollectBuffer(...args: RedisValue[]): Result<unknown, Context>;
    fleetGateScheduleBuffer(...args: RedisValue[]): Result<unknown, Context>;
  }
}

/** Defines the scripts on a client (EVALSHA, falling back to EVAL after a Redis restart). */
export function defineGateScripts(redis: Redis): void {
  for (const [name, definition] of Object.entries(SCRIPTS)) redis.defineCommand(name, definition);
}

/** Redis keys of one account (see the layout above). */
export interface AccountKeys {
  base: string;
  queue: string;
  seq: string;
  state: string;
  turn: string;
  share: string;
}

export function accountKeys(prefix: string, account: string): AccountKeys {
  const base = `${prefix}:{${encodeURIComponent(account)}}`;
  return {
    base,
    queue: `${base}:q`,
    seq: `${base}:seq`,
    state: `${base}:s`,
    turn: `${base}:turn`,
    share: `${base}:share`,
  };
}

// --- Reply parsing: Buffer-variant replies are Buffers, integers, and arrays of them. ---

export class GateReplyError extends Error {
  constructor(what: string) {
    super(`unexpected reply from the Redis gate script: ${what}`);
    this.name = "GateReplyError";
  }
}

export function replyText(value: unknown): string {
  if (Buffer.isBuffer(value)) return value.toString("utf8");
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  throw new GateReplyError(`expected text, got ${typeof value}`);
}

export function replyNumber(value: unknown): number {
  const number = typeof value === "number" ? value : Number(replyText(value));
  if (!Number.isFinite(number)) throw new GateReplyError(`expected a number, got ${String(value)}`);
  return number;
}

export function replyBuffer(value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return value;
  throw new GateReplyError(`expected bytes, got ${typeof value}`);
}

export function replyList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  throw new GateReplyError(`expected a list, got ${typeof value}`);
}

/** A flat HGETALL reply as a map of field to text. */
export function replyHash(value: unknown): Map<string, string> {
  const flat = replyList(value);
  const out = new Map<string, string>();
  for (let i = 0; i + 1 < flat.length; i += 2) out.set(replyText(flat[i]), replyText(flat[i + 1]));
  return out;
}
