import type { Redis } from "ioredis";
import { z } from "zod";
import type { Language } from "../../i18n/language.js";
import { type TaskRecord, taskRecordSchema } from "../tasks/task.js";
import type { WorkspaceKey } from "../workspaces/workspace.js";
import type { AlertGroup, AlertMute, AlertPost, AlertSubscription } from "./contract/alerts.js";
import type { IncidentRecord } from "./contract/incidentRecords.js";
import type { ReportSchedule } from "./contract/schedules.js";
import { assertInstalledSettingsWorkspace, assertSettingLanguage } from "./contract/settings.js";
import type { StepState } from "./contract/tasks.js";
import type { TransportView } from "./contract/transportView.js";
import type { Zone } from "./contract/zones.js";
import type { SealedInstallation } from "./installationSealing.js";
import { linkId, readSealedAccounts, type SealedAccount, writeSealedAccount } from "./redis/accountStore.js";
import {
  ALERT_LUA,
  groupFields,
  incidentFields,
  muteField,
  postFields,
  slotOf,
  toGroup,
  toSubscription,
  watchStateKey,
} from "./redis/alertStore.js";
import { writeSealedInstallation } from "./redis/installationStore.js";
import { checkLimits, limitsKey } from "./redis/learnedLimits.js";
import { encodePairs, LuaScript, presentFields, RedisStore, type RedisStoreOptions } from "./redis/lua.js";
import { writeSchedule } from "./redis/scheduleStore.js";
import { settingsKey, WORKSPACE_FIELD } from "./redis/settingsStore.js";
import { stepsKey, stepText, TASK_LUA, taskKey, toHash } from "./redis/taskStore.js";
import { zonesKey, zoneText } from "./redis/zoneStore.js";
import { DEFAULT_RESULT_LIMITS, encodeResult, type ResultLimits } from "./resultCodec.js";
import { watchText } from "./watchOptions.js";

/**
 * The migrator's writes into Redis: what `npm run migrate -- --to-redis` (migrate.ts) copies and
 * what `--adopt-workspace` (adoptWorkspace.ts) moves. These operations are no repository's: the
 * Redis stores' public surface is the store contract (contract/) only. They write through the
 * Redis connection in the stores' key layout (each store module exports the parts of its layout
 * they need: key names, field encoders, its Lua library), each record in one script, so a record
 * is copied whole or not at all, and a record already in Redis (the live one) is kept.
 */

/** One journal entry as the migration copies it. */
export interface StepRecord {
  step: string;
  state: StepState;
  updatedAt: number;
}

/** A stored setting as the migration copies it: a user's language, or (no slackUser) a workspace's default. */
export interface SettingRecord {
  workspace: WorkspaceKey;
  slackUser?: string;
  language: Language;
  updatedAt: number;
}

/** One learned row, as the migration copies it (endpoints this version does not split included). */
export interface LearnedLimitRecord {
  service: string;
  endpoint: string;
  maxVehicles?: number;
  maxDays?: number;
  learnedAt: number;
}

/** copied; present: already in Redis (kept); conflict: Redis has another active incident of that transport and kind. */
export type IncidentImport = "copied" | "present" | "conflict";

/** copied; present: already in Redis (kept); conflict: another schedule of its workspace holds its id there. */
export type ScheduleImport = "copied" | "present" | "conflict";

/** What `migrate --to-redis` writes: each call copies one record as it is, and answers whether it did. */
export interface MigrationTarget {
  /** A Slack installation, tokens sealed as they are (no key needed); one already there is kept. */
  importInstallation(sealed: SealedInstallation): Promise<boolean>;
  /** A linked account, password sealed as it is (no key needed); a user already linked there keeps theirs. */
  importAccount(account: SealedAccount): Promise<boolean>;
  /** A language setting with its time; one already there is the live one and is kept. */
  importSetting(record: SettingRecord): Promise<boolean>;
  /** A subscription with its id and creation time; one already there for its channel and account stays. */
  importSubscription(subscription: AlertSubscription): Promise<boolean>;
  /** A grouped alert without its members (copied before the incidents: each post naming it joins it). */
  importGroup(group: AlertGroup): Promise<boolean>;
  /** An incident with its posts, at once. */
  importIncident(incident: IncidentRecord, posts: readonly AlertPost[]): Promise<IncidentImport>;
  /** A mute; one already there for the workspace, channel and UIT stays. */
  importMute(mute: AlertMute): Promise<boolean>;
  /** An account's last complete sweep; a list already there stays. */
  importListed(account: string, transports: readonly TransportView[]): Promise<boolean>;
  /** An account's vehicle-watch memory (JSON text as it is); one already there is the live one and stays. */
  importWatchState(account: string, state: string): Promise<boolean>;
  /** A workspace's zone with its id and time; a zone of that name key already there stays. */
  importZone(zone: Zone): Promise<boolean>;
  /** A scheduled report as it is (its id, state, next run and last outcome); one already there stays. */
  importSchedule(schedule: ReportSchedule): Promise<ScheduleImport>;
  /** A task as it is (id, state, times, attempts) with its journal; a task already there stays. */
  importTask(task: TaskRecord, steps: readonly StepRecord[]): Promise<boolean>;
  /** A learned row as it is; an endpoint already learned there keeps its row. */
  importLimit(row: LearnedLimitRecord): Promise<boolean>;
}

/** What `--adopt-workspace` reads and moves in Redis (adoptWorkspace.ts). */
export interface AdoptionTarget {
  /** Every linked account, password still sealed, in the order linked. */
  sealedAccounts(): Promise<SealedAccount[]>;
  /**
   * Moves a link read by sealedAccounts() to workspace `to`, its password sealed anew (`secret`).
   * 'kept': `to` already had a link of that user (it stays; the old one goes); 'changed': the link
   * was re-linked or unlinked meanwhile (nothing done).
   */
  moveSealed(from: SealedAccount, to: WorkspaceKey, secret: string): Promise<"moved" | "kept" | "changed">;
  /** The users who have a language setting in that workspace (whatever its value). */
  usersWithSettings(workspace: WorkspaceKey): Promise<string[]>;
  /**
   * At once, a user's setting leaves workspace `from` for `to`, with its time. 'kept': `to` already
   * had one (it stays; the old one goes); 'gone': none left to move.
   */
  moveUserSetting(
    from: WorkspaceKey,
    to: WorkspaceKey,
    slackUser: string,
  ): Promise<"moved" | "kept" | "gone">;
}

// ------------------------------------------------------------------ the scripts

/** KEYS: task, steps. ARGV: prefix, id, fields…, steps… → 1 copied, 0 already there. */
const IMPORT_TASK = new LuaScript(`${TASK_LUA}
local p = ARGV[1]
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local fields, next_index = read_pairs(3)
local steps = read_pairs(next_index)
local ord = ord_of(redis.call('INCR', p .. 'tasks:seq'), ARGV[2])
redis.call('HSET', KEYS[1], 'ord', ord, unpack(fields))
if #steps > 0 then redis.call('HSET', KEYS[2], unpack(steps)) end
index_task(p, KEYS[1])
return 1
`);

/** KEYS: the service's hash. ARGV: endpoint, then field/value pairs. Only when the endpoint has no row yet. */
const IMPORT_LIMIT = new LuaScript(`
if redis.call('HEXISTS', KEYS[1], ARGV[1] .. ':learnedAt') == 1 then return 0 end
for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[1] .. ':' .. ARGV[i], ARGV[i + 1]) end
return 1
`);

/** KEYS: the workspace's hash. ARGV: the field, the language, when set → 1 copied, 0 the field was there (kept). */
const IMPORT_SETTING = new LuaScript(`
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2], ARGV[1] .. ':at', ARGV[3])
return 1
`);

/**
 * KEYS: the source workspace's hash, the target's. ARGV: the user's field. The setting leaves the
 * source; the target gets it unless it has one of its own → 'moved', 'kept' or 'gone' (none left).
 */
const MOVE_USER = new LuaScript(`
local field = ARGV[1]
local value = redis.call('HGET', KEYS[1], field)
if not value then return 'gone' end
local at = redis.call('HGET', KEYS[1], field .. ':at')
redis.call('HDEL', KEYS[1], field, field .. ':at')
if redis.call('HEXISTS', KEYS[2], field) == 1 then return 'kept' end
if at then
  redis.call('HSET', KEYS[2], field, value, field .. ':at', at)
else
  redis.call('HSET', KEYS[2], field, value)
end
return 'moved'
`);

/**
 * Moves one link to another workspace with its password sealed anew (adoptWorkspace), only if
 * the source still holds the sealed text that was read (a re-link meanwhile wins).
 * ARGV: prefix, from id, expected secret, to id, to workspace, slackUser, new secret
 * → 'moved', 'kept' (the target already had a link: it stays, the source goes), 'changed'.
 */
const MOVE_ACCOUNT = new LuaScript(`
local p, fromId, toId, toWorkspace = ARGV[1], ARGV[2], ARGV[4], ARGV[5]
local fromKey = p .. 'account:' .. fromId
local row = redis.call('HMGET', fromKey, 'username', 'secret', 'linkedAt', 'workspace')
local username, secret, linkedAt, fromWorkspace = row[1], row[2], row[3], row[4] or ''
if not username or secret ~= ARGV[3] then return 'changed' end
redis.call('DEL', fromKey)
redis.call('ZREM', p .. 'accounts', fromId)
redis.call('SREM', p .. 'accounts:of:' .. username, fromId)
if fromWorkspace ~= '' then redis.call('SREM', p .. 'accounts:in:' .. fromWorkspace, fromId) end
local toKey = p .. 'account:' .. toId
if redis.call('EXISTS', toKey) == 1 then return 'kept' end
redis.call('HSET', toKey, 'workspace', toWorkspace, 'slackUser', ARGV[6], 'username', username,
  'secret', ARGV[7], 'linkedAt', linkedAt)
redis.call('SADD', p .. 'accounts:of:' .. username, toId)
if toWorkspace ~= '' then redis.call('SADD', p .. 'accounts:in:' .. toWorkspace, toId) end
redis.call('ZADD', p .. 'accounts', redis.call('INCR', p .. 'accounts:seq'), toId)
return 'moved'
`);

/** ARGV: prefix, slot, account, id, fields… → 1 copied, 0 already there. */
const IMPORT_SUBSCRIPTION = new LuaScript(`${ALERT_LUA}
local p, slot, account, id = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local index = p .. 'alert:subs:of:' .. slot
if redis.call('HEXISTS', index, account) == 1 or redis.call('EXISTS', p .. 'alert:sub:' .. id) == 1 then return 0 end
local fields = read_pairs(5)
local ord = ord_of(redis.call('INCR', p .. 'alert:seq'), id)
redis.call('HSET', p .. 'alert:sub:' .. id, 'ord', ord, unpack(fields))
redis.call('ZADD', p .. 'alert:subs', redis.call('HGET', p .. 'alert:sub:' .. id, 'createdAt'), ord)
redis.call('HSET', index, account, id)
return 1
`);

/**
 * ARGV: prefix, id, account, kind, transportUId, state, incident fields…, post count, then per post:
 * its slot and its fields… (workspace and channel among them) → 1 copied, 0 already there, 2
 * refused (another active incident of the same transport and kind is here already). A post
 * naming a group joins it when the group was copied before (importGroup); else it is a single
 * alert (a group that is not there would hold its post back for ever).
 */
const IMPORT_INCIDENT = new LuaScript(`${ALERT_LUA}
local p, id, account, kind, uid, state = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]
local key = incident_key(p, id)
if redis.call('EXISTS', key) == 1 then return 0 end
if (state == 'pending' or state == 'open') and redis.call('HEXISTS', p .. 'alert:active-key:' .. account, kind .. ':' .. uid) == 1 then
  return 2
end
local fields, i = read_pairs(7)
redis.call('HSET', key, 'ord', ord_of(redis.call('INCR', p .. 'alert:seq'), id), unpack(fields))
index_incident(p, id)
local posts = tonumber(ARGV[i])
i = i + 1
for _ = 1, posts do
  local slot = ARGV[i]
  local post_fields, next_index = read_pairs(i + 1)
  new_post(p, id, slot, post_fields)
  local pkey = post_key(p, id, slot)
  local gid = redis.call('HGET', pkey, 'groupId')
  if gid then
    if redis.call('EXISTS', p .. 'alert:group:' .. gid) == 1 then
      redis.call('ZADD', p .. 'alert:group-members:' .. gid, redis.call('INCR', p .. 'alert:seq'), id)
    else
      redis.call('HDEL', pkey, 'groupId')
    end
  end
  i = next_index
end
return 1
`);

/** ARGV: prefix, group id, workspace, fields… → 1 copied, 0 already there. Members join as their posts are copied. */
const IMPORT_GROUP = new LuaScript(`${ALERT_LUA}
local p, gid, w = ARGV[1], ARGV[2], ARGV[3]
local gkey = p .. 'alert:group:' .. gid
if redis.call('EXISTS', gkey) == 1 then return 0 end
local fields = read_pairs(4)
redis.call('HSET', gkey, unpack(fields))
if w ~= '' then redis.call('SADD', ws_key(p, w, 'groups'), gid) end
return 1
`);

/** ARGV: prefix, account, then transportUId and facts pairs → 1 copied, 0 the account has a list already. */
const IMPORT_LISTED = new LuaScript(`
local key = ARGV[1] .. 'alert:listed:' .. ARGV[2]
if redis.call('EXISTS', key) == 1 or #ARGV < 4 then return 0 end
for i = 3, #ARGV, 2 do redis.call('HSET', key, ARGV[i], ARGV[i + 1]) end
return 1
`);

/** ARGV: prefix, field, until, workspace → 1 copied, 0 already there. */
const IMPORT_MUTE = new LuaScript(`${ALERT_LUA}
if redis.call('HEXISTS', ARGV[1] .. 'alert:mutes', ARGV[2]) == 1 then return 0 end
set_mute(ARGV[1], ARGV[2], ARGV[3], ARGV[4])
return 1
`);

// ------------------------------------------------------------------ Redis

export interface RedisMigrationTargetOptions extends RedisStoreOptions {
  /** How task results are encoded, as the Redis task store does (resultCodec.ts). */
  results?: ResultLimits;
}

/** The migrator's writes through one Redis client (without keyPrefix), under one key prefix. */
export class RedisMigrationTarget extends RedisStore implements MigrationTarget, AdoptionTarget {
  private readonly resultLimits: ResultLimits;

  constructor(redis: Redis, options: RedisMigrationTargetOptions = {}) {
    super(redis, options);
    this.resultLimits = options.results ?? DEFAULT_RESULT_LIMITS;
  }

  async importInstallation(sealed: SealedInstallation): Promise<boolean> {
    return await writeSealedInstallation(this.redis, this.prefix, sealed, true);
  }

  async importAccount(account: SealedAccount): Promise<boolean> {
    return await writeSealedAccount(this.redis, this.prefix, account, true);
  }

  async importSetting(record: SettingRecord): Promise<boolean> {
    if (record.slackUser === undefined) assertInstalledSettingsWorkspace(record.workspace, "default");
    assertSettingLanguage(record.language);
    const field = record.slackUser === undefined ? WORKSPACE_FIELD : `user:${record.slackUser}`;
    const copied = await IMPORT_SETTING.run(
      this.redis,
      [settingsKey(this.prefix, record.workspace)],
      [field, record.language, String(record.updatedAt)],
    );
    return Number(copied) === 1;
  }

  async importSubscription(subscription: AlertSubscription): Promise<boolean> {
    const fields: Record<string, string | undefined> = {
      id: subscription.id,
      workspace: subscription.workspace,
      channel: subscription.channel,
      account: subscription.account,
      createdBy: subscription.createdBy,
      codes: JSON.stringify(subscription.codes),
      excludeCodes: JSON.stringify(subscription.excludeCodes),
      vehicles: JSON.stringify(subscription.vehicles),
      minDurationMinutes: String(subscription.minDurationMinutes),
      staleMinutes: String(subscription.staleMinutes),
      language: subscription.language,
      watch: watchText(subscription.watch),
      createdAt: String(subscription.createdAt),
    };
    toSubscription(presentFields(fields));
    const copied = await IMPORT_SUBSCRIPTION.run(
      this.redis,
      [],
      [
        this.prefix,
        slotOf(subscription.workspace, subscription.channel),
        subscription.account,
        subscription.id,
        ...encodePairs(fields),
      ],
    );
    return copied === 1;
  }

  async importGroup(group: AlertGroup): Promise<boolean> {
    const fields = groupFields(group);
    toGroup(presentFields(fields));
    const copied = await IMPORT_GROUP.run(
      this.redis,
      [],
      [this.prefix, group.id, group.workspace, ...encodePairs(fields)],
    );
    return copied === 1;
  }

  async importIncident(incident: IncidentRecord, posts: readonly AlertPost[]): Promise<IncidentImport> {
    const postArgs: string[] = [String(posts.length)];
    for (const post of posts) {
      if (post.incidentId !== incident.id)
        throw new Error(`post of ${post.incidentId} given with ${incident.id}`);
      postArgs.push(slotOf(post.workspace, post.channel), ...encodePairs(postFields(post)));
    }
    const outcome = await IMPORT_INCIDENT.run(
      this.redis,
      [],
      [
        this.prefix,
        incident.id,
        incident.account,
        incident.kind,
        incident.transportUId,
        incident.state,
        ...encodePairs(incidentFields(incident)),
        ...postArgs,
      ],
    );
    return outcome === 1 ? "copied" : outcome === 2 ? "conflict" : "present";
  }

  async importMute(mute: AlertMute): Promise<boolean> {
    return (
      (await IMPORT_MUTE.run(
        this.redis,
        [],
        [
          this.prefix,
          muteField(mute.workspace, mute.channel, mute.codeUit),
          String(mute.until),
          mute.workspace,
        ],
      )) === 1
    );
  }

  async importListed(account: string, transports: readonly TransportView[]): Promise<boolean> {
    const pairs = transports.flatMap((t) => [t.uId, JSON.stringify(t)]);
    return (await IMPORT_LISTED.run(this.redis, [], [this.prefix, account, ...pairs])) === 1;
  }

  async importWatchState(account: string, state: string): Promise<boolean> {
    // SET NX: a replica's sweep since wrote the live memory.
    return (await this.redis.set(watchStateKey(this.prefix, account), state, "NX")) === "OK";
  }

  async importZone(zone: Zone): Promise<boolean> {
    return (
      (await this.redis.hsetnx(zonesKey(this.prefix, zone.workspace), zone.nameKey, zoneText(zone))) === 1
    );
  }

  async importSchedule(schedule: ReportSchedule): Promise<ScheduleImport> {
    const outcome = await writeSchedule(this.redis, this.prefix, schedule);
    return outcome === "taken" ? "conflict" : outcome;
  }

  async importTask(task: TaskRecord, steps: readonly StepRecord[]): Promise<boolean> {
    const record = taskRecordSchema.parse(task);
    const stepFields: Record<string, string> = {};
    for (const entry of steps) stepFields[entry.step] = stepText(entry.state, entry.updatedAt);
    const copied = await IMPORT_TASK.run(
      this.redis,
      [taskKey(this.prefix, record.id), stepsKey(this.prefix, record.id)],
      [
        this.prefix,
        record.id,
        ...encodePairs(toHash(record, await encodeResult(record.result, this.resultLimits))),
        ...encodePairs(stepFields),
      ],
    );
    return copied === 1;
  }

  async importLimit(row: LearnedLimitRecord): Promise<boolean> {
    checkLimits(row);
    const fields: string[] = ["learnedAt", String(row.learnedAt)];
    if (row.maxVehicles !== undefined) fields.push("maxVehicles", String(row.maxVehicles));
    if (row.maxDays !== undefined) fields.push("maxDays", String(row.maxDays));
    return (
      (await IMPORT_LIMIT.run(
        this.redis,
        [limitsKey(this.prefix, row.service)],
        [row.endpoint, ...fields],
      )) === 1
    );
  }

  async sealedAccounts(): Promise<SealedAccount[]> {
    return await readSealedAccounts(this.redis, this.prefix);
  }

  async moveSealed(
    from: SealedAccount,
    to: WorkspaceKey,
    secret: string,
  ): Promise<"moved" | "kept" | "changed"> {
    const outcome = await MOVE_ACCOUNT.run(
      this.redis,
      [],
      [
        this.prefix,
        linkId(from.workspace, from.slackUser),
        from.secret,
        linkId(to, from.slackUser),
        to,
        from.slackUser,
        secret,
      ],
    );
    return z.enum(["moved", "kept", "changed"]).parse(outcome);
  }

  async usersWithSettings(workspace: WorkspaceKey): Promise<string[]> {
    return (await this.redis.hkeys(settingsKey(this.prefix, workspace)))
      .filter((field) => field.startsWith("user:") && !field.endsWith(":at"))
      .map((field) => field.slice("user:".length));
  }

  async moveUserSetting(
    from: WorkspaceKey,
    to: WorkspaceKey,
    slackUser: string,
  ): Promise<"moved" | "kept" | "gone"> {
    const outcome = await MOVE_USER.run(
      this.redis,
      [settingsKey(this.prefix, from), settingsKey(this.prefix, to)],
      [`user:${slackUser}`],
    );
    return z.enum(["moved", "kept", "gone"]).parse(outcome);
  }
}
