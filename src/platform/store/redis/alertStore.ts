import { randomUUID } from "node:crypto";
import { z } from "zod";
import { LANGUAGES } from "../../../i18n/language.js";
import { ONLY_WORKSPACE, type WorkspaceKey } from "../../workspaces/workspace.js";
import {
  type AlertGroup,
  type AlertGroupMember,
  type AlertMute,
  type AlertPost,
  type AlertPostFailure,
  type AlertRepository,
  type AlertSubscription,
  assertDeletableWorkspace,
  type DeletedWorkspaceAlerts,
  type NewAlertSubscription,
} from "../contract/alerts.js";
import {
  DEFAULT_STALE_MINUTES,
  INCIDENT_KINDS,
  type IncidentChange,
  type IncidentRecord,
  storedAlertCodes,
} from "../contract/incidentRecords.js";
import { parseTransportView, type TransportView } from "../contract/transportView.js";
import { type IncidentFacts, parseIncidentFacts } from "../contract/vehicleFacts.js";
import { parseWatchOptions, watchText } from "../watchOptions.js";
import {
  binaryCompare,
  flatStrings,
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
 * Alert subscriptions, incidents, their posts per channel and mutes in Redis, with
 * SqliteAlertStore's answers (the contract: contract/alerts.ts). A channel id means something only
 * in its workspace: keys that hold one hold its slot, the channel id itself in workspace "" (so
 * keys written before workspaces existed are read as they are), else
 * "<bytes of workspace>:<workspace><channel>" (a Slack channel id never holds a ':'). Keys (after
 * the prefix; an ord is "<16-digit seq>|<id>", a pord is "<16-digit seq><incidentId>:<slot>", both
 * ordering members of equal score by insertion):
 *   alert:seq                          counter shared by subscriptions, incidents and posts
 *   alert:sub:<id>                     hash: a subscription (codes, excludeCodes, vehicles, watch as JSON)
 *   alert:subs                         zset createdAt → ord
 *   alert:subs:of:<slot>               hash account → subscription id (one per workspace, channel and account)
 *   alert:incident:<id>                hash: an incident (facts as JSON)
 *   alert:incidents:<account>          zset firstSeenAt → ord, every incident of the account
 *   alert:active:<account>             zset firstSeenAt → ord, pending and open ones
 *   alert:active-key:<account>         hash "<kind>:<transportUId>" → id: one active per transport and kind
 *   alert:open                         zset firstSeenAt → ord, open incidents of every account
 *   alert:resolved                     zset resolvedAt → id (retention)
 *   alert:post:<incidentId>:<slot>     hash: one incident's message in one channel of one workspace
 *   alert:posts:<incidentId>           zset 0 → slot
 *   alert:unresolved:<account>         zset resolvedAt → pord: posts whose resolution is not done
 *   alert:failed:<slot>                zset seq → pord: posts with a last error (latest = highest)
 *   alert:posted-for:<slot>            hash "<bytes of UIT>:<UIT><account>" → number of post rows
 *   alert:mutes                        hash "<bytes of slot>:<slot><UIT>" → until
 *   alert:mutes:until                  zset until → the same field (expiry)
 *   alert:mute-ws                      hash mute field → its workspace (workspaces other than "")
 *   alert:group:<id>                   hash: a grouped alert (one message for a storm in a channel)
 *   alert:group-members:<id>           zset seq → incidentId, in the order they joined
 *   alert:listed:<account>             hash transportUId → facts (JSON): the last complete sweep's transports
 *   alert:watch:<account>              string: the vehicle watch's memory between sweeps (JSON text as written),
 *                                      deleted with alert:listed:<account>
 *   alert:ws:<workspace>:posts         set "<incidentId>:<slot>" of the workspace's posts (not for "")
 *   alert:ws:<workspace>:mutes         set of the workspace's mute fields (not for "")
 *   alert:ws:<workspace>:groups        set of the workspace's group ids (not for "")
 */

const jsonStringList = storedJson.pipe(z.array(z.string()));

const subscriptionHash = z.object({
  id: z.string(),
  // Absent on rows stored before workspaces existed: the single workspace's.
  workspace: z.string().optional(),
  channel: z.string(),
  account: z.string(),
  createdBy: z.string().optional(),
  codes: jsonStringList,
  excludeCodes: jsonStringList,
  vehicles: jsonStringList,
  minDurationMinutes: storedNumber.pipe(z.number().int().min(0)),
  // Absent on subscriptions stored before stale= existed: the default applies.
  staleMinutes: storedNumber.pipe(z.number().int().min(0)).optional(),
  // Absent: no lang= (the workspace default when rendered).
  language: z.enum(LANGUAGES).optional(),
  // Absent on subscriptions stored before vehicle watch; checked apart (parseWatchOptions): an
  // unreadable value reads as no options, not as no subscription.
  watch: z.string().optional(),
  createdAt: storedNumber,
});

const incidentHash = z.object({
  id: z.string(),
  account: z.string(),
  transportUId: z.string(),
  codeUit: z.string(),
  kind: z.enum(INCIDENT_KINDS),
  code: z.string(),
  firstSeenAt: storedNumber,
  openedAt: storedNumber.optional(),
  resolvedAt: storedNumber.optional(),
  resolveReason: z.enum(["recovered", "changed", "status", "gone", "completed", "removed"]).optional(),
  endEvidenceMs: storedNumber.optional(),
  state: z.enum(["pending", "open", "resolved"]),
  lastSeenAt: storedNumber,
  facts: storedJson,
});

const postHash = z.object({
  incidentId: z.string(),
  workspace: z.string().optional(),
  channel: z.string(),
  ts: z.string().optional(),
  postedAt: storedNumber.optional(),
  resolvedUpdatedAt: storedNumber.optional(),
  replyTs: z.string().optional(),
  resolvedPostedAt: storedNumber.optional(),
  attempts: storedNumber.pipe(z.number().int()),
  lastError: z.string().optional(),
  mutedUntil: storedNumber.optional(),
  groupId: z.string().optional(),
});

const groupHash = z.object({
  id: z.string(),
  account: z.string(),
  workspace: z.string().optional(),
  channel: z.string(),
  createdAt: storedNumber,
  ts: z.string().optional(),
  postedAt: storedNumber.optional(),
  shown: storedNumber.pipe(z.number().int()),
  resolvedAt: storedNumber.optional(),
  attempts: storedNumber.pipe(z.number().int()),
  lastError: z.string().optional(),
});

export function toGroup(hash: Record<string, string>): AlertGroup {
  const row = groupHash.parse(hash);
  const group: AlertGroup = {
    id: row.id,
    account: row.account,
    workspace: row.workspace ?? ONLY_WORKSPACE,
    channel: row.channel,
    createdAt: row.createdAt,
    shown: row.shown,
    attempts: row.attempts,
  };
  if (row.ts !== undefined) group.ts = row.ts;
  if (row.postedAt !== undefined) group.postedAt = row.postedAt;
  if (row.resolvedAt !== undefined) group.resolvedAt = row.resolvedAt;
  if (row.lastError !== undefined) group.lastError = row.lastError;
  return group;
}

export function toSubscription(hash: Record<string, string>): AlertSubscription {
  const row = subscriptionHash.parse(hash);
  const subscription: AlertSubscription = {
    id: row.id,
    workspace: row.workspace ?? ONLY_WORKSPACE,
    channel: row.channel,
    account: row.account,
    codes: storedAlertCodes(row.codes),
    excludeCodes: row.excludeCodes,
    vehicles: row.vehicles,
    minDurationMinutes: row.minDurationMinutes,
    staleMinutes: row.staleMinutes ?? DEFAULT_STALE_MINUTES,
    watch: parseWatchOptions(row.watch),
    createdAt: row.createdAt,
  };
  if (row.createdBy !== undefined) subscription.createdBy = row.createdBy;
  if (row.language !== undefined) subscription.language = row.language;
  return subscription;
}

function toIncident(hash: Record<string, string>): IncidentRecord {
  const row = incidentHash.parse(hash);
  const facts: IncidentFacts = parseIncidentFacts(row.facts) ?? {
    uId: row.transportUId,
    codeUit: row.codeUit,
    statusId: 0,
  };
  const incident: IncidentRecord = {
    id: row.id,
    account: row.account,
    transportUId: row.transportUId,
    codeUit: row.codeUit,
    kind: row.kind,
    code: row.code,
    firstSeenAt: row.firstSeenAt,
    state: row.state,
    lastSeenAt: row.lastSeenAt,
    facts,
  };
  if (row.openedAt !== undefined) incident.openedAt = row.openedAt;
  if (row.resolvedAt !== undefined) incident.resolvedAt = row.resolvedAt;
  if (row.resolveReason !== undefined) incident.resolveReason = row.resolveReason;
  if (row.endEvidenceMs !== undefined) incident.endEvidenceMs = row.endEvidenceMs;
  return incident;
}

function toPost(hash: Record<string, string>): AlertPost {
  const row = postHash.parse(hash);
  const post: AlertPost = {
    incidentId: row.incidentId,
    workspace: row.workspace ?? ONLY_WORKSPACE,
    channel: row.channel,
    attempts: row.attempts,
  };
  if (row.ts !== undefined) post.ts = row.ts;
  if (row.postedAt !== undefined) post.postedAt = row.postedAt;
  if (row.resolvedUpdatedAt !== undefined) post.resolvedUpdatedAt = row.resolvedUpdatedAt;
  if (row.replyTs !== undefined) post.replyTs = row.replyTs;
  if (row.resolvedPostedAt !== undefined) post.resolvedPostedAt = row.resolvedPostedAt;
  if (row.lastError !== undefined) post.lastError = row.lastError;
  if (row.mutedUntil !== undefined) post.mutedUntil = row.mutedUntil;
  if (row.groupId !== undefined) post.groupId = row.groupId;
  return post;
}

export function incidentFields(incident: IncidentRecord): Record<string, string | undefined> {
  return {
    id: incident.id,
    account: incident.account,
    transportUId: incident.transportUId,
    codeUit: incident.codeUit,
    kind: incident.kind,
    code: incident.code,
    firstSeenAt: String(incident.firstSeenAt),
    openedAt: numberText(incident.openedAt),
    resolvedAt: numberText(incident.resolvedAt),
    resolveReason: incident.resolveReason,
    endEvidenceMs: numberText(incident.endEvidenceMs),
    state: incident.state,
    lastSeenAt: String(incident.lastSeenAt),
    facts: JSON.stringify(incident.facts),
  };
}

export function postFields(post: AlertPost): Record<string, string | undefined> {
  return {
    incidentId: post.incidentId,
    workspace: post.workspace,
    channel: post.channel,
    ts: post.ts,
    postedAt: numberText(post.postedAt),
    resolvedUpdatedAt: numberText(post.resolvedUpdatedAt),
    replyTs: post.replyTs,
    resolvedPostedAt: numberText(post.resolvedPostedAt),
    attempts: String(post.attempts),
    lastError: post.lastError,
    mutedUntil: numberText(post.mutedUntil),
    groupId: post.groupId,
  };
}

export function groupFields(group: AlertGroup): Record<string, string | undefined> {
  return {
    id: group.id,
    account: group.account,
    workspace: group.workspace,
    channel: group.channel,
    createdAt: String(group.createdAt),
    ts: group.ts,
    postedAt: numberText(group.postedAt),
    shown: String(group.shown),
    resolvedAt: numberText(group.resolvedAt),
    attempts: String(group.attempts),
    lastError: group.lastError,
  };
}

const uniq = (list: readonly string[] | undefined) => [
  ...new Set((list ?? []).map((s) => s.trim()).filter(Boolean)),
];

/** A length-prefixed pair, unambiguous whatever the two strings hold (lengths in UTF-8 bytes, as Lua counts). */
const pairField = (first: string, second: string) => `${Buffer.byteLength(first, "utf8")}:${first}${second}`;

/** What keys holding a channel id hold instead: the channel of one workspace (the Lua slot_of). */
export const slotOf = (workspace: WorkspaceKey, channel: string) =>
  workspace === ONLY_WORKSPACE ? channel : pairField(workspace, channel);

/** The alert:mutes field of a UIT muted in a workspace's channel. */
export const muteField = (workspace: WorkspaceKey, channel: string, codeUit: string) =>
  pairField(slotOf(workspace, channel), codeUit);

/** An account's vehicle-watch memory (a string key; the migrator writes it too). */
export const watchStateKey = (prefix: string, account: string) => `${prefix}alert:watch:${account}`;

/** Posts by workspace, then channel (SQLite's ORDER BY workspace, channel). */
const byWorkspaceAndChannel = (a: AlertPost, b: AlertPost) =>
  binaryCompare(a.workspace, b.workspace) || binaryCompare(a.channel, b.channel);

/** The alerts' Lua library: the key layout above, kept by every script that writes alerts. */
export const ALERT_LUA = `${LUA_PRELUDE}
local function incident_key(p, id) return p .. 'alert:incident:' .. id end
local function post_key(p, id, slot) return p .. 'alert:post:' .. id .. ':' .. slot end
local function pair_field(a, b) return string.len(a) .. ':' .. a .. b end
local function seq_of(pord) return tonumber(string.sub(pord, 1, 16)) end
-- A channel of one workspace, as keys name it (slotOf in TypeScript).
local function slot_of(w, channel)
  if w == '' then return channel end
  return pair_field(w, channel)
end
local function ws_key(p, w, what) return p .. 'alert:ws:' .. w .. ':' .. what end

-- Adds a stored incident to the indexes its fields call for.
local function index_incident(p, id)
  local f = redis.call('HMGET', incident_key(p, id), 'ord', 'account', 'transportUId', 'kind', 'state', 'firstSeenAt', 'resolvedAt')
  local ord, account, uid, kind, state, first, resolved = f[1], f[2], f[3], f[4], f[5], f[6], f[7]
  redis.call('ZADD', p .. 'alert:incidents:' .. account, first, ord)
  if state == 'pending' or state == 'open' then
    redis.call('ZADD', p .. 'alert:active:' .. account, first, ord)
    redis.call('HSET', p .. 'alert:active-key:' .. account, kind .. ':' .. uid, id)
    if state == 'open' then redis.call('ZADD', p .. 'alert:open', first, ord) end
  elseif resolved then
    redis.call('ZADD', p .. 'alert:resolved', resolved, id)
  end
end

-- Adds a stored post to the indexes its fields (and its incident's) call for.
local function index_post(p, id, slot)
  local f = redis.call('HMGET', post_key(p, id, slot), 'pord', 'lastError', 'resolvedPostedAt', 'workspace')
  local pord, last_error, resolution_done, w = f[1], f[2], f[3], f[4]
  local i = redis.call('HMGET', incident_key(p, id), 'account', 'codeUit', 'state', 'resolvedAt')
  redis.call('ZADD', p .. 'alert:posts:' .. id, 0, slot)
  redis.call('HINCRBY', p .. 'alert:posted-for:' .. slot, pair_field(i[2], i[1]), 1)
  if last_error then redis.call('ZADD', p .. 'alert:failed:' .. slot, seq_of(pord), pord) end
  if i[3] == 'resolved' and not resolution_done then
    redis.call('ZADD', p .. 'alert:unresolved:' .. i[1], i[4] or '-inf', pord)
  end
  if w and w ~= '' then redis.call('SADD', ws_key(p, w, 'posts'), id .. ':' .. slot) end
end

-- fields: the post's fields, workspace and channel among them.
local function new_post(p, id, slot, fields)
  local pord = string.format('%016d', redis.call('INCR', p .. 'alert:seq')) .. id .. ':' .. slot
  redis.call('HSET', post_key(p, id, slot), 'pord', pord, unpack(fields))
  index_post(p, id, slot)
end

local function empty_post(id, w, channel)
  return {'incidentId', id, 'workspace', w, 'channel', channel, 'attempts', '0'}
end

local function delete_group(p, gid)
  local gkey = p .. 'alert:group:' .. gid
  local w = redis.call('HGET', gkey, 'workspace')
  if w and w ~= '' then redis.call('SREM', ws_key(p, w, 'groups'), gid) end
  redis.call('DEL', gkey, p .. 'alert:group-members:' .. gid)
end

-- Deletes one post and its index entries. keep_groups: a group its last member leaves stays
-- (deleteWorkspace deletes the workspace's groups itself, and counts them).
local function delete_post(p, id, slot, keep_groups)
  local pkey = post_key(p, id, slot)
  local f = redis.call('HMGET', pkey, 'pord', 'groupId', 'workspace')
  local pord, group, w = f[1], f[2], f[3]
  local i = redis.call('HMGET', incident_key(p, id), 'account', 'codeUit')
  local account, code_uit = i[1], i[2]
  if account then
    local counts = p .. 'alert:posted-for:' .. slot
    local field = pair_field(code_uit, account)
    if redis.call('HINCRBY', counts, field, -1) <= 0 then redis.call('HDEL', counts, field) end
    if pord then redis.call('ZREM', p .. 'alert:unresolved:' .. account, pord) end
  end
  if pord then redis.call('ZREM', p .. 'alert:failed:' .. slot, pord) end
  if group then
    local members = p .. 'alert:group-members:' .. group
    redis.call('ZREM', members, id)
    -- A group goes with its last member.
    if not keep_groups and redis.call('ZCARD', members) == 0 then delete_group(p, group) end
  end
  if w and w ~= '' then redis.call('SREM', ws_key(p, w, 'posts'), id .. ':' .. slot) end
  redis.call('ZREM', p .. 'alert:posts:' .. id, slot)
  redis.call('DEL', pkey)
end

local function delete_incident(p, id)
  local key = incident_key(p, id)
  local f = redis.call('HMGET', key, 'ord', 'account', 'codeUit', 'kind', 'transportUId')
  local ord, account = f[1], f[2]
  for _, slot in ipairs(redis.call('ZRANGE', p .. 'alert:posts:' .. id, 0, -1)) do
    delete_post(p, id, slot, false)
  end
  redis.call('DEL', p .. 'alert:posts:' .. id)
  redis.call('ZREM', p .. 'alert:incidents:' .. account, ord)
  redis.call('ZREM', p .. 'alert:active:' .. account, ord)
  redis.call('ZREM', p .. 'alert:open', ord)
  redis.call('ZREM', p .. 'alert:resolved', id)
  local active = p .. 'alert:active-key:' .. account
  if redis.call('HGET', active, f[4] .. ':' .. f[5]) == id then redis.call('HDEL', active, f[4] .. ':' .. f[5]) end
  redis.call('DEL', key)
end

-- A mute's field stored (or moved) for a workspace.
local function set_mute(p, field, till, w)
  redis.call('HSET', p .. 'alert:mutes', field, till)
  redis.call('ZADD', p .. 'alert:mutes:until', till, field)
  if w ~= '' then
    redis.call('HSET', p .. 'alert:mute-ws', field, w)
    redis.call('SADD', ws_key(p, w, 'mutes'), field)
  end
end

-- Deletes a mute; 1 when there was one.
local function delete_mute(p, field)
  local w = redis.call('HGET', p .. 'alert:mute-ws', field)
  if w then
    redis.call('SREM', ws_key(p, w, 'mutes'), field)
    redis.call('HDEL', p .. 'alert:mute-ws', field)
  end
  redis.call('ZREM', p .. 'alert:mutes:until', field)
  return redis.call('HDEL', p .. 'alert:mutes', field)
end
`;

/**
 * ARGV: prefix, workspace, channel, account, new id, now, '1' createdBy or '0', createdBy, codes,
 * exclude, vehicles, min, stale, language ('' none), watch.
 */
const UPSERT_SUBSCRIPTION = new LuaScript(`${ALERT_LUA}
local p, w, channel, account = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local index = p .. 'alert:subs:of:' .. slot_of(w, channel)
local id = redis.call('HGET', index, account)
local created = 0
if not id then
  id = ARGV[5]
  created = 1
  local ord = ord_of(redis.call('INCR', p .. 'alert:seq'), id)
  redis.call('HSET', p .. 'alert:sub:' .. id, 'id', id, 'workspace', w, 'channel', channel, 'account', account, 'createdAt', ARGV[6], 'ord', ord)
  redis.call('ZADD', p .. 'alert:subs', ARGV[6], ord)
  redis.call('HSET', index, account, id)
end
local key = p .. 'alert:sub:' .. id
redis.call('HSET', key, 'codes', ARGV[9], 'excludeCodes', ARGV[10], 'vehicles', ARGV[11], 'minDurationMinutes', ARGV[12], 'staleMinutes', ARGV[13], 'watch', ARGV[15])
if ARGV[7] == '1' then redis.call('HSET', key, 'createdBy', ARGV[8]) else redis.call('HDEL', key, 'createdBy') end
if ARGV[14] ~= '' then redis.call('HSET', key, 'language', ARGV[14]) else redis.call('HDEL', key, 'language') end
return {created, redis.call('HGETALL', key)}
`);

/** ARGV: prefix, slot, account → the subscription's hash or {}. */
const GET_SUBSCRIPTION = new LuaScript(`
local id = redis.call('HGET', ARGV[1] .. 'alert:subs:of:' .. ARGV[2], ARGV[3])
if not id then return {} end
return redis.call('HGETALL', ARGV[1] .. 'alert:sub:' .. id)
`);

/** ARGV: prefix, slot, '1' and account or '0' (all of the channel's) → how many removed. */
const REMOVE_SUBSCRIPTION = new LuaScript(`
local p, slot = ARGV[1], ARGV[2]
local index = p .. 'alert:subs:of:' .. slot
local ids = {}
if ARGV[3] == '1' then
  local id = redis.call('HGET', index, ARGV[4])
  if id then
    ids[1] = id
    redis.call('HDEL', index, ARGV[4])
  end
else
  ids = redis.call('HVALS', index)
  redis.call('DEL', index)
end
for _, id in ipairs(ids) do
  local key = p .. 'alert:sub:' .. id
  redis.call('ZREM', p .. 'alert:subs', redis.call('HGET', key, 'ord'))
  redis.call('DEL', key)
end
return #ids
`);

/** The fields of one change as APPLY_CHANGES reads them, in this order ('' when a change has none). */
const CHANGE_FIELDS = [
  "type",
  "id",
  "account",
  "transportUId",
  "codeUit",
  "kind",
  "code",
  "at",
  "state",
  "facts",
  "reason",
  "endEvidenceMs",
] as const;

function changeArgs(change: IncidentChange): string[] {
  const common = { type: change.type, at: String(change.at) };
  const fields: Partial<Record<(typeof CHANGE_FIELDS)[number], string>> = (() => {
    switch (change.type) {
      case "open":
        return {
          ...common,
          // Made here: Lua has no UUIDs, and the id must be new on every replica.
          id: randomUUID(),
          account: change.account,
          transportUId: change.transportUId,
          codeUit: change.codeUit,
          kind: change.kind,
          code: change.code,
          state: change.state,
          facts: JSON.stringify(change.facts),
        };
      case "confirm":
        return { ...common, id: change.id, facts: JSON.stringify(change.facts) };
      case "still":
        return {
          ...common,
          id: change.id,
          ...(change.facts !== undefined ? { facts: JSON.stringify(change.facts) } : {}),
        };
      case "resolve":
        return {
          ...common,
          id: change.id,
          reason: change.reason,
          ...(change.endEvidenceMs !== undefined ? { endEvidenceMs: String(change.endEvidenceMs) } : {}),
        };
    }
  })();
  return CHANGE_FIELDS.map((name) => fields[name] ?? "");
}

/**
 * ARGV: prefix, count, then per change: type, id, account, transportUId, codeUit, kind, code, at,
 * state, facts, reason, endEvidenceMs ("" when none; a still's facts "" leave the stored ones). Checked whole before anything is written (a Lua error does not undo
 * earlier writes), so a refused batch leaves the store as it was; then applied in order.
 * Returns the touched incidents' hashes.
 */
const APPLY_CHANGES = new LuaScript(`${ALERT_LUA}
local p = ARGV[1]
local changes = {}
for i = 0, tonumber(ARGV[2]) - 1 do
  local b = 3 + i * ${CHANGE_FIELDS.length}
  changes[#changes + 1] = {
    type = ARGV[b], id = ARGV[b + 1], account = ARGV[b + 2], uid = ARGV[b + 3], code_uit = ARGV[b + 4],
    kind = ARGV[b + 5], code = ARGV[b + 6], at = ARGV[b + 7], state = ARGV[b + 8], facts = ARGV[b + 9],
    reason = ARGV[b + 10], end_evidence = ARGV[b + 11],
  }
end

-- The check: the batch replayed on a shadow of the states and active keys it touches.
local shadow_state, shadow_meta, shadow_active = {}, {}, {}
local function state_of(id)
  if shadow_state[id] ~= nil then return shadow_state[id] end
  return redis.call('HGET', incident_key(p, id), 'state')
end
local function meta_of(id)
  if shadow_meta[id] then return shadow_meta[id] end
  local f = redis.call('HMGET', incident_key(p, id), 'account', 'kind', 'transportUId')
  return { account = f[1], field = f[2] .. ':' .. f[3] }
end
local function active_of(account, field)
  local of_account = shadow_active[account]
  if of_account and of_account[field] ~= nil then return of_account[field] end
  return redis.call('HGET', p .. 'alert:active-key:' .. account, field)
end
local function set_active(account, field, id)
  shadow_active[account] = shadow_active[account] or {}
  shadow_active[account][field] = id
end
for _, c in ipairs(changes) do
  if c.type == 'open' then
    local field = c.kind .. ':' .. c.uid
    if active_of(c.account, field) then
      return redis.error_reply('UNIQUE constraint failed: an active ' .. c.kind .. ' incident of transport ' .. c.uid .. ' already exists')
    end
    set_active(c.account, field, c.id)
    shadow_state[c.id] = c.state
    shadow_meta[c.id] = { account = c.account, field = field }
  elseif c.type == 'confirm' or c.type == 'resolve' then
    local state = state_of(c.id)
    if not state then return redis.error_reply('no incident ' .. c.id .. ' to ' .. c.type) end
    if c.type == 'confirm' and state == 'pending' then shadow_state[c.id] = 'open' end
    if c.type == 'resolve' and (state == 'pending' or state == 'open') then
      shadow_state[c.id] = 'resolved'
      local meta = meta_of(c.id)
      set_active(meta.account, meta.field, false)
    end
  end
end

local touched = {}
for _, c in ipairs(changes) do
  local key = incident_key(p, c.id)
  if c.type == 'open' then
    local ord = ord_of(redis.call('INCR', p .. 'alert:seq'), c.id)
    redis.call('HSET', key, 'id', c.id, 'account', c.account, 'transportUId', c.uid, 'codeUit', c.code_uit,
      'kind', c.kind, 'code', c.code, 'firstSeenAt', c.at, 'lastSeenAt', c.at, 'state', c.state,
      'facts', c.facts, 'ord', ord)
    if c.state == 'open' then redis.call('HSET', key, 'openedAt', c.at) end
    index_incident(p, c.id)
    touched[#touched + 1] = c.id
  elseif c.type == 'confirm' then
    if redis.call('HGET', key, 'state') == 'pending' then
      redis.call('HSET', key, 'state', 'open', 'openedAt', c.at, 'lastSeenAt', c.at, 'facts', c.facts)
      local f = redis.call('HMGET', key, 'firstSeenAt', 'ord')
      redis.call('ZADD', p .. 'alert:open', f[1], f[2])
    end
    touched[#touched + 1] = c.id
  elseif c.type == 'still' then
    local f = redis.call('HMGET', key, 'state', 'lastSeenAt')
    if f[1] == 'pending' or f[1] == 'open' then
      if tonumber(c.at) > tonumber(f[2]) then redis.call('HSET', key, 'lastSeenAt', c.at) end
      if c.facts ~= '' then redis.call('HSET', key, 'facts', c.facts) end
    end
  elseif c.type == 'resolve' then
    local f = redis.call('HMGET', key, 'state', 'ord', 'account', 'kind', 'transportUId')
    if f[1] == 'pending' or f[1] == 'open' then
      local account = f[3]
      redis.call('HSET', key, 'state', 'resolved', 'resolvedAt', c.at, 'resolveReason', c.reason)
      if c.end_evidence ~= '' then redis.call('HSET', key, 'endEvidenceMs', c.end_evidence) end
      redis.call('ZREM', p .. 'alert:active:' .. account, f[2])
      redis.call('ZREM', p .. 'alert:open', f[2])
      local active = p .. 'alert:active-key:' .. account
      if redis.call('HGET', active, f[4] .. ':' .. f[5]) == c.id then redis.call('HDEL', active, f[4] .. ':' .. f[5]) end
      redis.call('ZADD', p .. 'alert:resolved', c.at, c.id)
      for _, slot in ipairs(redis.call('ZRANGE', p .. 'alert:posts:' .. c.id, 0, -1)) do
        local post = redis.call('HMGET', post_key(p, c.id, slot), 'pord', 'resolvedPostedAt')
        if not post[2] then redis.call('ZADD', p .. 'alert:unresolved:' .. account, c.at, post[1]) end
      end
    end
    touched[#touched + 1] = c.id
  end
end
local out = {}
for _, id in ipairs(touched) do out[#out + 1] = redis.call('HGETALL', incident_key(p, id)) end
return out
`);

/** ARGV: prefix, incident id, workspace, channel → the post's hash (created empty when missing). */
const ENSURE_POST = new LuaScript(`${ALERT_LUA}
local p, id, w, channel = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
if redis.call('EXISTS', incident_key(p, id)) == 0 then
  return redis.error_reply('FOREIGN KEY constraint failed: no incident ' .. id)
end
local slot = slot_of(w, channel)
local key = post_key(p, id, slot)
if redis.call('EXISTS', key) == 0 then new_post(p, id, slot, empty_post(id, w, channel)) end
return redis.call('HGETALL', key)
`);

/**
 * ARGV: prefix, incident id, slot, operation, value, extra. One post step, with the SQLite
 * statement's guard; a missing post is left missing (an UPDATE that matches nothing).
 */
const POST_STEP = new LuaScript(`${ALERT_LUA}
local p, id, slot, op, value = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local key = post_key(p, id, slot)
local pord = redis.call('HGET', key, 'pord')
if not pord then return 0 end
local failed = p .. 'alert:failed:' .. slot
if op == 'posted' then
  if redis.call('HEXISTS', key, 'ts') == 1 then return 0 end
  redis.call('HSET', key, 'ts', value, 'postedAt', ARGV[6])
  redis.call('HINCRBY', key, 'attempts', 1)
  redis.call('HDEL', key, 'lastError', 'mutedUntil')
  redis.call('ZREM', failed, pord)
elseif op == 'failed' then
  redis.call('HINCRBY', key, 'attempts', 1)
  redis.call('HSET', key, 'lastError', value)
  redis.call('ZADD', failed, seq_of(pord), pord)
elseif op == 'muted' then
  redis.call('HSET', key, 'mutedUntil', value)
elseif op == 'resolvedUpdate' then
  redis.call('HSET', key, 'resolvedUpdatedAt', value)
  redis.call('HDEL', key, 'lastError')
  redis.call('ZREM', failed, pord)
elseif op == 'resolvedReply' then
  if redis.call('HEXISTS', key, 'replyTs') == 1 then return 0 end
  redis.call('HSET', key, 'replyTs', value)
  redis.call('HDEL', key, 'lastError')
  redis.call('ZREM', failed, pord)
elseif op == 'resolutionDone' then
  redis.call('HSET', key, 'resolvedPostedAt', value)
  local account = redis.call('HGET', incident_key(p, id), 'account')
  if account then redis.call('ZREM', p .. 'alert:unresolved:' .. account, pord) end
else
  return redis.error_reply('unknown post step ' .. op)
end
return 1
`);

/**
 * ARGV: prefix, group id, '1' create (then account, workspace, channel, now) or '0' join,
 * incident ids… (from ARGV[8]). Each incident's post row in the group's channel (of the group's
 * workspace) is created when missing and names the group unless it was posted or grouped
 * already. Returns the group's hash, or {}.
 */
const GROUP_POSTS = new LuaScript(`${ALERT_LUA}
local p, gid = ARGV[1], ARGV[2]
local gkey = p .. 'alert:group:' .. gid
for i = 8, #ARGV do
  if redis.call('EXISTS', incident_key(p, ARGV[i])) == 0 then
    return redis.error_reply('FOREIGN KEY constraint failed: no incident ' .. ARGV[i])
  end
end
if ARGV[3] == '1' then
  local w = ARGV[5]
  redis.call('HSET', gkey, 'id', gid, 'account', ARGV[4], 'workspace', w, 'channel', ARGV[6], 'createdAt', ARGV[7], 'shown', '0', 'attempts', '0')
  if w ~= '' then redis.call('SADD', ws_key(p, w, 'groups'), gid) end
elseif redis.call('EXISTS', gkey) == 0 then
  return {}
end
local g = redis.call('HMGET', gkey, 'workspace', 'channel')
local w, channel = g[1] or '', g[2]
local slot = slot_of(w, channel)
for i = 8, #ARGV do
  local id = ARGV[i]
  local key = post_key(p, id, slot)
  if redis.call('EXISTS', key) == 0 then new_post(p, id, slot, empty_post(id, w, channel)) end
  if redis.call('HEXISTS', key, 'ts') == 0 and redis.call('HEXISTS', key, 'groupId') == 0 then
    redis.call('HSET', key, 'groupId', gid)
    redis.call('ZADD', p .. 'alert:group-members:' .. gid, redis.call('INCR', p .. 'alert:seq'), id)
  end
end
return redis.call('HGETALL', gkey)
`);

/** ARGV: prefix, group id, operation, value, extra. One step of a group message, with the SQLite guard. */
const GROUP_STEP = new LuaScript(`
local key = ARGV[1] .. 'alert:group:' .. ARGV[2]
local op, value, extra = ARGV[3], ARGV[4], ARGV[5]
if redis.call('EXISTS', key) == 0 then return 0 end
if op == 'posted' then
  if redis.call('HEXISTS', key, 'ts') == 1 then return 0 end
  redis.call('HSET', key, 'ts', value, 'postedAt', extra, 'shown', ARGV[6])
  redis.call('HINCRBY', key, 'attempts', 1)
  redis.call('HDEL', key, 'lastError')
elseif op == 'shown' then
  if tonumber(value) > tonumber(redis.call('HGET', key, 'shown')) then redis.call('HSET', key, 'shown', value) end
elseif op == 'failed' then
  redis.call('HINCRBY', key, 'attempts', 1)
  redis.call('HSET', key, 'lastError', value)
elseif op == 'resolved' then
  if redis.call('HEXISTS', key, 'resolvedAt') == 1 then return 0 end
  redis.call('HSET', key, 'resolvedAt', value)
else
  return redis.error_reply('unknown group step ' .. op)
end
return 1
`);

/** ARGV: prefix, slot → {lastError, attempts, codeUit} of the latest failed post, or {}. */
const LAST_FAILURE = new LuaScript(`${ALERT_LUA}
local p, slot = ARGV[1], ARGV[2]
local latest = redis.call('ZREVRANGE', p .. 'alert:failed:' .. slot, 0, 0)
if #latest == 0 then return {} end
local post = redis.call('HMGET', p .. 'alert:post:' .. string.sub(latest[1], 17), 'lastError', 'attempts', 'incidentId')
if not post[1] then return {} end
local code_uit = redis.call('HGET', incident_key(p, post[3]), 'codeUit')
if not code_uit then return {} end
return {post[1], post[2], code_uit}
`);

/** ARGV: prefix, field, until, workspace. */
const MUTE = new LuaScript(`${ALERT_LUA}
set_mute(ARGV[1], ARGV[2], ARGV[3], ARGV[4])
return 1
`);

/** ARGV: prefix, field → 1 removed, 0 none. */
const UNMUTE = new LuaScript(`${ALERT_LUA}
return delete_mute(ARGV[1], ARGV[2])
`);

/**
 * ARGV: prefix, now, olderThan → {mutes, incidents} deleted: mutes that ended, and resolved
 * incidents older than olderThan unless a post of theirs still owes its resolution.
 */
const PURGE = new LuaScript(`${ALERT_LUA}
local p, now, older_than = ARGV[1], ARGV[2], ARGV[3]
local ended = redis.call('ZRANGEBYSCORE', p .. 'alert:mutes:until', '-inf', now)
for _, field in ipairs(ended) do delete_mute(p, field) end
local deleted = 0
for _, id in ipairs(redis.call('ZRANGEBYSCORE', p .. 'alert:resolved', '-inf', '(' .. older_than)) do
  local owed = false
  for _, slot in ipairs(redis.call('ZRANGE', p .. 'alert:posts:' .. id, 0, -1)) do
    local post = redis.call('HMGET', post_key(p, id, slot), 'ts', 'resolvedPostedAt')
    if post[1] and not post[2] then owed = true end
  end
  if not owed then
    delete_incident(p, id)
    deleted = deleted + 1
  end
end
return {#ended, deleted}
`);

/**
 * ARGV: prefix, workspace (not "") → {subscriptions, posts, mutes, groups, incidents} deleted:
 * the workspace's subscriptions, posts, mutes and groups; then every incident (the last
 * sweep's list and the watch's memory) of the fleet accounts those named that no subscription of
 * any workspace uses any more. One script: no replica sees half of it.
 */
const DELETE_WORKSPACE = new LuaScript(`${ALERT_LUA}
local p, w = ARGV[1], ARGV[2]
local named, still_subscribed = {}, {}
local subs = 0
for _, ord in ipairs(redis.call('ZRANGE', p .. 'alert:subs', 0, -1)) do
  local key = p .. 'alert:sub:' .. id_of_ord(ord)
  local f = redis.call('HMGET', key, 'workspace', 'channel', 'account')
  if (f[1] or '') == w then
    redis.call('HDEL', p .. 'alert:subs:of:' .. slot_of(w, f[2]), f[3])
    redis.call('ZREM', p .. 'alert:subs', ord)
    redis.call('DEL', key)
    named[f[3]] = true
    subs = subs + 1
  elseif f[3] then
    still_subscribed[f[3]] = true
  end
end
local posts = 0
for _, tail in ipairs(redis.call('SMEMBERS', ws_key(p, w, 'posts'))) do
  local f = redis.call('HMGET', p .. 'alert:post:' .. tail, 'incidentId', 'channel')
  if f[1] then
    local account = redis.call('HGET', incident_key(p, f[1]), 'account')
    if account then named[account] = true end
    delete_post(p, f[1], slot_of(w, f[2]), true)
    posts = posts + 1
  end
end
redis.call('DEL', ws_key(p, w, 'posts'))
local groups = 0
for _, gid in ipairs(redis.call('SMEMBERS', ws_key(p, w, 'groups'))) do
  local account = redis.call('HGET', p .. 'alert:group:' .. gid, 'account')
  if account then
    named[account] = true
    delete_group(p, gid)
    groups = groups + 1
  end
end
redis.call('DEL', ws_key(p, w, 'groups'))
local mutes = 0
for _, field in ipairs(redis.call('SMEMBERS', ws_key(p, w, 'mutes'))) do
  mutes = mutes + delete_mute(p, field)
end
redis.call('DEL', ws_key(p, w, 'mutes'))
local incidents = 0
for account in pairs(named) do
  if not still_subscribed[account] then
    for _, ord in ipairs(redis.call('ZRANGE', p .. 'alert:incidents:' .. account, 0, -1)) do
      delete_incident(p, id_of_ord(ord))
      incidents = incidents + 1
    end
    redis.call('DEL', p .. 'alert:listed:' .. account, p .. 'alert:watch:' .. account)
  end
end
return {subs, posts, mutes, groups, incidents}
`);

const createdReply = z.tuple([z.number(), z.unknown()]);
const purgeReply = z.tuple([z.number(), z.number()]);
const deleteReply = z.tuple([z.number(), z.number(), z.number(), z.number(), z.number()]);

export class RedisAlertStore extends RedisStore implements AlertRepository {
  private key(name: string): string {
    return `${this.prefix}${name}`;
  }

  // ---------- subscriptions ----------

  async upsertSubscription(
    input: NewAlertSubscription,
  ): Promise<{ subscription: AlertSubscription; created: boolean }> {
    const reply = createdReply.parse(
      await UPSERT_SUBSCRIPTION.run(
        this.redis,
        [],
        [
          this.prefix,
          input.workspace ?? ONLY_WORKSPACE,
          input.channel,
          input.account,
          randomUUID(),
          String(this.now()),
          input.createdBy === undefined ? "0" : "1",
          input.createdBy ?? "",
          JSON.stringify(uniq(input.codes)),
          JSON.stringify(uniq(input.excludeCodes)),
          JSON.stringify(uniq(input.vehicles)),
          String(Math.max(0, Math.floor(input.minDurationMinutes ?? 0))),
          String(Math.max(0, Math.floor(input.staleMinutes ?? DEFAULT_STALE_MINUTES))),
          input.language ?? "",
          watchText(input.watch),
        ],
      ),
    );
    return { subscription: toSubscription(pairsToRecord(reply[1])), created: reply[0] === 1 };
  }

  async subscription(
    channel: string,
    account: string,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): Promise<AlertSubscription | undefined> {
    const hash = pairsToRecord(
      await GET_SUBSCRIPTION.run(this.redis, [], [this.prefix, slotOf(workspace, channel), account]),
    );
    return Object.keys(hash).length === 0 ? undefined : toSubscription(hash);
  }

  async subscriptions(
    filter: { account?: string; channel?: string; workspace?: WorkspaceKey } = {},
  ): Promise<AlertSubscription[]> {
    // Subscriptions are few (one per workspace, channel and account): read them all, in creation order.
    const all = (await rangeHashes(this.redis, this.key("alert:subs"), this.key("alert:sub:"))).map(
      toSubscription,
    );
    return all.filter(
      (s) =>
        (filter.account === undefined || s.account === filter.account) &&
        (filter.channel === undefined || s.channel === filter.channel) &&
        (filter.workspace === undefined || s.workspace === filter.workspace),
    );
  }

  async removeSubscription(
    channel: string,
    account?: string,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): Promise<number> {
    const removed = await REMOVE_SUBSCRIPTION.run(
      this.redis,
      [],
      [this.prefix, slotOf(workspace, channel), account === undefined ? "0" : "1", account ?? ""],
    );
    return z.number().parse(removed);
  }

  async subscribedAccounts(): Promise<string[]> {
    const accounts = new Set((await this.subscriptions()).map((s) => s.account));
    return [...accounts].sort(binaryCompare);
  }

  // ---------- incidents ----------

  async incident(id: string): Promise<IncidentRecord | undefined> {
    const hash = await this.redis.hgetall(this.key(`alert:incident:${id}`));
    return Object.keys(hash).length === 0 ? undefined : toIncident(hash);
  }

  private async incidentsOf(index: string): Promise<IncidentRecord[]> {
    return (await rangeHashes(this.redis, this.key(index), this.key("alert:incident:"))).map(toIncident);
  }

  async activeIncidents(account: string): Promise<IncidentRecord[]> {
    return await this.incidentsOf(`alert:active:${account}`);
  }

  async incidents(account: string): Promise<IncidentRecord[]> {
    return await this.incidentsOf(`alert:incidents:${account}`);
  }

  async openIncidents(): Promise<IncidentRecord[]> {
    return await this.incidentsOf("alert:open");
  }

  async applyChanges(changes: readonly IncidentChange[]): Promise<IncidentRecord[]> {
    if (changes.length === 0) return [];
    const args = [this.prefix, String(changes.length), ...changes.flatMap(changeArgs)];
    return pairsListToRecords(await APPLY_CHANGES.run(this.redis, [], args)).map(toIncident);
  }

  // ---------- posts ----------

  async hasPostFor(
    channel: string,
    codeUit: string,
    account: string,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): Promise<boolean> {
    const count = await this.redis.hget(
      this.key(`alert:posted-for:${slotOf(workspace, channel)}`),
      pairField(codeUit, account),
    );
    return count !== null && Number(count) > 0;
  }

  async post(
    incidentId: string,
    channel: string,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): Promise<AlertPost | undefined> {
    const hash = await this.redis.hgetall(this.key(`alert:post:${incidentId}:${slotOf(workspace, channel)}`));
    return Object.keys(hash).length === 0 ? undefined : toPost(hash);
  }

  async posts(incidentId: string): Promise<AlertPost[]> {
    return (
      await rangeHashes(
        this.redis,
        this.key(`alert:posts:${incidentId}`),
        this.key(`alert:post:${incidentId}:`),
        {
          member: "raw",
        },
      )
    )
      .map(toPost)
      .sort(byWorkspaceAndChannel);
  }

  async ensurePost(
    incidentId: string,
    channel: string,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): Promise<AlertPost> {
    return toPost(
      pairsToRecord(await ENSURE_POST.run(this.redis, [], [this.prefix, incidentId, workspace, channel])),
    );
  }

  async unresolvedPosts(account: string): Promise<AlertPost[]> {
    return (
      await rangeHashes(this.redis, this.key(`alert:unresolved:${account}`), this.key("alert:post:"), {
        member: "tail",
      })
    ).map(toPost);
  }

  private async postStep(
    incidentId: string,
    workspace: WorkspaceKey,
    channel: string,
    op: string,
    value: string,
    extra = "",
  ): Promise<void> {
    await POST_STEP.run(
      this.redis,
      [],
      [this.prefix, incidentId, slotOf(workspace, channel), op, value, extra],
    );
  }

  async recordPosted(
    incidentId: string,
    channel: string,
    ts: string,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): Promise<void> {
    await this.postStep(incidentId, workspace, channel, "posted", ts, String(this.now()));
  }

  async recordFailure(
    incidentId: string,
    channel: string,
    error: string,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): Promise<void> {
    await this.postStep(incidentId, workspace, channel, "failed", error.slice(0, 500));
  }

  async recordMuted(
    incidentId: string,
    channel: string,
    until: number,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): Promise<void> {
    await this.postStep(incidentId, workspace, channel, "muted", String(until));
  }

  async recordResolvedUpdate(
    incidentId: string,
    channel: string,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): Promise<void> {
    await this.postStep(incidentId, workspace, channel, "resolvedUpdate", String(this.now()));
  }

  async recordResolvedReply(
    incidentId: string,
    channel: string,
    ts: string,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): Promise<void> {
    await this.postStep(incidentId, workspace, channel, "resolvedReply", ts);
  }

  async recordResolutionDone(
    incidentId: string,
    channel: string,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): Promise<void> {
    await this.postStep(incidentId, workspace, channel, "resolutionDone", String(this.now()));
  }

  async lastFailure(
    channel: string,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): Promise<AlertPostFailure | undefined> {
    const reply = flatStrings.parse(
      await LAST_FAILURE.run(this.redis, [], [this.prefix, slotOf(workspace, channel)]),
    );
    const [error, attempts, codeUit] = reply;
    if (error === undefined || attempts === undefined || codeUit === undefined) return undefined;
    return { codeUit, error, attempts: storedNumber.parse(attempts) };
  }

  // ---------- grouped alerts ----------

  async createGroup(
    account: string,
    channel: string,
    incidentIds: readonly string[],
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): Promise<AlertGroup> {
    const reply = await GROUP_POSTS.run(
      this.redis,
      [],
      [this.prefix, randomUUID(), "1", account, workspace, channel, String(this.now()), ...incidentIds],
    );
    return toGroup(pairsToRecord(reply));
  }

  async addToGroup(groupId: string, incidentIds: readonly string[]): Promise<AlertGroup | undefined> {
    const hash = pairsToRecord(
      await GROUP_POSTS.run(this.redis, [], [this.prefix, groupId, "0", "", "", "", "", ...incidentIds]),
    );
    return Object.keys(hash).length === 0 ? undefined : toGroup(hash);
  }

  async group(id: string): Promise<AlertGroup | undefined> {
    const hash = await this.redis.hgetall(this.key(`alert:group:${id}`));
    return Object.keys(hash).length === 0 ? undefined : toGroup(hash);
  }

  async groupMembers(groupId: string): Promise<AlertGroupMember[]> {
    const group = await this.group(groupId);
    if (!group) return [];
    const ids = await this.redis.zrange(this.key(`alert:group-members:${groupId}`), 0, -1);
    const pipeline = this.redis.pipeline();
    for (const id of ids) {
      pipeline.hgetall(this.key(`alert:incident:${id}`));
      pipeline.hgetall(this.key(`alert:post:${id}:${slotOf(group.workspace, group.channel)}`));
    }
    const replies = (await pipeline.exec()) ?? [];
    const members: AlertGroupMember[] = [];
    for (let i = 0; i + 1 < replies.length; i += 2) {
      const [incidentError, incident] = replies[i]!;
      const [postError, post] = replies[i + 1]!;
      if (incidentError) throw incidentError;
      if (postError) throw postError;
      members.push({
        incident: toIncident(incident as Record<string, string>),
        post: toPost(post as Record<string, string>),
      });
    }
    return members;
  }

  private async groupStep(groupId: string, op: string, value: string, extra = "", more = ""): Promise<void> {
    await GROUP_STEP.run(this.redis, [], [this.prefix, groupId, op, value, extra, more]);
  }

  async recordGroupPosted(groupId: string, ts: string, shown: number): Promise<void> {
    await this.groupStep(groupId, "posted", ts, String(this.now()), String(shown));
  }

  async recordGroupShown(groupId: string, shown: number): Promise<void> {
    await this.groupStep(groupId, "shown", String(shown));
  }

  async recordGroupFailure(groupId: string, error: string): Promise<void> {
    await this.groupStep(groupId, "failed", error.slice(0, 500));
  }

  async recordGroupResolved(groupId: string): Promise<void> {
    await this.groupStep(groupId, "resolved", String(this.now()));
  }

  // ---------- mutes ----------

  async mute(
    channel: string,
    codeUit: string,
    until: number,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): Promise<AlertMute> {
    await MUTE.run(
      this.redis,
      [],
      [this.prefix, muteField(workspace, channel, codeUit), String(until), workspace],
    );
    return { workspace, channel, codeUit, until };
  }

  async unmute(channel: string, codeUit: string, workspace: WorkspaceKey = ONLY_WORKSPACE): Promise<boolean> {
    return (await UNMUTE.run(this.redis, [], [this.prefix, muteField(workspace, channel, codeUit)])) === 1;
  }

  async mutedUntil(
    channel: string,
    codeUit: string,
    at: number = this.now(),
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): Promise<number | undefined> {
    const until = await this.redis.hget(this.key("alert:mutes"), muteField(workspace, channel, codeUit));
    if (until === null) return undefined;
    const value = storedNumber.parse(until);
    return value > at ? value : undefined;
  }

  async purge(olderThan: number): Promise<{ mutes: number; incidents: number }> {
    const [mutes, incidents] = purgeReply.parse(
      await PURGE.run(this.redis, [], [this.prefix, String(this.now()), String(olderThan)]),
    );
    return { mutes, incidents };
  }

  // ---------- the last complete sweep ----------

  async listedTransports(account: string): Promise<TransportView[]> {
    const values = await this.redis.hvals(this.key(`alert:listed:${account}`));
    return values
      .map((json) => parseTransportView(JSON.parse(json)))
      .filter((t): t is TransportView => t !== undefined);
  }

  async replaceListed(account: string, transports: readonly TransportView[]): Promise<void> {
    const key = this.key(`alert:listed:${account}`);
    const tx = this.redis.multi().del(key);
    if (transports.length > 0)
      tx.hset(key, Object.fromEntries(transports.map((t) => [t.uId, JSON.stringify(t)])));
    await tx.exec();
  }

  async watchState(account: string): Promise<string | undefined> {
    return (await this.redis.get(watchStateKey(this.prefix, account))) ?? undefined;
  }

  async replaceWatchState(account: string, state: string): Promise<void> {
    await this.redis.set(watchStateKey(this.prefix, account), state);
  }

  // ---------- an uninstalled workspace ----------

  async deleteWorkspace(workspace: WorkspaceKey): Promise<DeletedWorkspaceAlerts> {
    assertDeletableWorkspace(workspace);
    const [subscriptions, posts, mutes, groups, incidents] = deleteReply.parse(
      await DELETE_WORKSPACE.run(this.redis, [], [this.prefix, workspace]),
    );
    return { subscriptions, posts, mutes, groups, incidents };
  }
}
