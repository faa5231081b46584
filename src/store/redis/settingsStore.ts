import { z } from "zod";
import { isLanguage, type Language } from "../../i18n/language.js";
import type { WorkspaceKey } from "../../workspaces/workspace.js";
import {
  assertInstalledSettingsWorkspace,
  assertSettingLanguage,
  type SettingsRepository,
} from "../contract/settings.js";
import { LuaScript, RedisStore } from "./lua.js";

/**
 * Settings in Redis, as in SQLite (settingsStore.ts): one hash per workspace (`""`, the single
 * workspace, included: its key ends with the colon).
 *
 * Keys (after the prefix):
 *   settings:<workspace>   hash: user:<slackUser> → language, user:<slackUser>:at → when set,
 *                                workspace → the workspace's default language, workspace:at
 *
 * A setting and its time are written in one HSET; an uninstall deletes the whole hash. A value
 * this version does not know (a later version's language) reads as no choice.
 */

/** KEYS: the workspace's hash → how many settings it held (times not counted); the hash is gone. */
const DELETE_WORKSPACE = new LuaScript(`
local removed = 0
for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(field, -3) ~= ':at' then removed = removed + 1 end
end
redis.call('DEL', KEYS[1])
return removed
`);

const WORKSPACE_FIELD = "workspace";

/** KEYS: the workspace's hash. ARGV: the field, the language, when set → 1 copied, 0 the field was there (kept). */
const IMPORT = new LuaScript(`
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

/** A stored setting as the migration copies it: a user's language, or (no slackUser) a workspace's default. */
export interface SettingRecord {
  workspace: WorkspaceKey;
  slackUser?: string;
  language: Language;
  updatedAt: number;
}

export class RedisSettingsStore extends RedisStore implements SettingsRepository {
  private key(workspace: WorkspaceKey): string {
    return `${this.prefix}settings:${workspace}`;
  }

  private async read(workspace: WorkspaceKey, field: string): Promise<Language | undefined> {
    const stored = await this.redis.hget(this.key(workspace), field);
    return isLanguage(stored) ? stored : undefined;
  }

  async userLanguage(workspace: WorkspaceKey, slackUser: string): Promise<Language | undefined> {
    return await this.read(workspace, `user:${slackUser}`);
  }

  async setUserLanguage(workspace: WorkspaceKey, slackUser: string, language: Language): Promise<void> {
    assertSettingLanguage(language);
    await this.redis.hset(this.key(workspace), {
      [`user:${slackUser}`]: language,
      [`user:${slackUser}:at`]: String(this.now()),
    });
  }

  async workspaceLanguage(workspace: WorkspaceKey): Promise<Language | undefined> {
    return await this.read(workspace, WORKSPACE_FIELD);
  }

  async setWorkspaceLanguage(workspace: WorkspaceKey, language: Language): Promise<void> {
    assertInstalledSettingsWorkspace(workspace, "default");
    assertSettingLanguage(language);
    await this.redis.hset(this.key(workspace), {
      [WORKSPACE_FIELD]: language,
      [`${WORKSPACE_FIELD}:at`]: String(this.now()),
    });
  }

  async deleteWorkspace(workspace: WorkspaceKey): Promise<number> {
    assertInstalledSettingsWorkspace(workspace, "delete");
    return Number(await DELETE_WORKSPACE.run(this.redis, [this.key(workspace)], []));
  }

  /**
   * `migrate --to-redis`: writes a setting read from SQLite with its time, only when Redis has
   * none there (a setting already in Redis is the live one) → whether it was copied.
   */
  async importSetting(record: SettingRecord): Promise<boolean> {
    if (record.slackUser === undefined) assertInstalledSettingsWorkspace(record.workspace, "default");
    assertSettingLanguage(record.language);
    const field = record.slackUser === undefined ? WORKSPACE_FIELD : `user:${record.slackUser}`;
    const copied = await IMPORT.run(
      this.redis,
      [this.key(record.workspace)],
      [field, record.language, String(record.updatedAt)],
    );
    return Number(copied) === 1;
  }

  /** The users who have a setting in that workspace (whatever its value). */
  async usersWithSettings(workspace: WorkspaceKey): Promise<string[]> {
    return (await this.redis.hkeys(this.key(workspace)))
      .filter((field) => field.startsWith("user:") && !field.endsWith(":at"))
      .map((field) => field.slice("user:".length));
  }

  /**
   * adoptWorkspace's step, atomic: a user's setting leaves workspace `from` for `to`, with its
   * time. 'kept': `to` already had one (it stays; the old one goes); 'gone': none left to move.
   */
  async moveUserSetting(
    from: WorkspaceKey,
    to: WorkspaceKey,
    slackUser: string,
  ): Promise<"moved" | "kept" | "gone"> {
    const outcome = await MOVE_USER.run(this.redis, [this.key(from), this.key(to)], [`user:${slackUser}`]);
    return z.enum(["moved", "kept", "gone"]).parse(outcome);
  }
}
