import { isLanguage, type Language } from "../../../i18n/language.js";
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

/** The field of a workspace's default language (a user's is `user:<slackUser>`). */
export const WORKSPACE_FIELD = "workspace";

/** A workspace's hash. */
export const settingsKey = (prefix: string, workspace: WorkspaceKey) => `${prefix}settings:${workspace}`;

export class RedisSettingsStore extends RedisStore implements SettingsRepository {
  private key(workspace: WorkspaceKey): string {
    return settingsKey(this.prefix, workspace);
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
}
