import { isLanguage, type Language } from "../../../i18n/language.js";
import { ONLY_WORKSPACE, type WorkspaceKey } from "../../workspaces/workspace.js";

/**
 * Each person's settings, per (workspace, Slack user): a user id means nothing outside its
 * workspace. Today one setting, the language fleetbot answers them in; and each installed
 * workspace's default language (set in Slack by its installer or an admin with
 * `/fleet language workspace ro|en`; the single workspace's is DEFAULT_LANGUAGE). These are only
 * the choices: the language a person ends up with is resolved by src/i18n/resolve.ts. Implemented
 * by SqliteSettingsStore (settingsStore.ts) and RedisSettingsStore (redis/settingsStore.ts).
 */
export interface SettingsRepository {
  /** The language the user chose in that workspace, or undefined (they never chose). */
  userLanguage(workspace: WorkspaceKey, slackUser: string): Promise<Language | undefined>;
  /** Stores the user's own language in that workspace (replacing an earlier choice). */
  setUserLanguage(workspace: WorkspaceKey, slackUser: string, language: Language): Promise<void>;
  /** The default language set in Slack for an installed workspace, or undefined (none set). */
  workspaceLanguage(workspace: WorkspaceKey): Promise<Language | undefined>;
  /** Stores an installed workspace's default language. Refuses "" (DEFAULT_LANGUAGE is the single workspace's). */
  setWorkspaceLanguage(workspace: WorkspaceKey, language: Language): Promise<void>;
  /** Drops every setting of an uninstalled workspace, its users' and its default; how many. Refuses "". */
  deleteWorkspace(workspace: WorkspaceKey): Promise<number>;
}

/**
 * Both stores refuse what the SQLite table's CHECK refuses (SQLite raises "CHECK constraint
 * failed"; Redis has no constraint, so the stores check first).
 */
export function assertSettingLanguage(language: unknown): asserts language is Language {
  if (!isLanguage(language))
    throw new RangeError(
      `CHECK constraint failed: language IN ('en','ro') (got ${String(language).slice(0, 20)})`,
    );
}

/**
 * The single workspace ("") has no stored default (DEFAULT_LANGUAGE is its default), and its
 * users' settings are never deleted wholesale (like its tasks and links).
 */
export function assertInstalledSettingsWorkspace(
  workspace: WorkspaceKey,
  action: "default" | "delete",
): void {
  if (workspace !== ONLY_WORKSPACE) return;
  throw new Error(
    action === "default"
      ? 'The single workspace (workspace "") has no default language in the store: DEFAULT_LANGUAGE is its default'
      : 'The single-workspace settings (workspace "") are not removed wholesale',
  );
}
