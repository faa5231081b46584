import { isLanguage, type Language } from "../i18n/language.js";
import { ONLY_WORKSPACE, type WorkspaceKey } from "../workspaces/workspace.js";
import type { Db } from "./database.js";

/**
 * Both stores refuse what the table's CHECK refuses (SQLite raises "CHECK constraint failed";
 * Redis has no constraint, so the stores check first).
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

/**
 * Each person's settings, per (workspace, Slack user): a user id means nothing outside its
 * workspace. Today one setting, the language fleetbot answers them in; and each installed
 * workspace's default language (set in Slack by its installer or an admin with
 * `/fleet language workspace ro|en`; the single workspace's is DEFAULT_LANGUAGE).
 *
 * Nothing here is a secret: a language is stored as it is. The language a person ends up with
 * is resolved elsewhere (src/i18n/resolve.ts): these are only the choices.
 */
export class SettingsStore {
  private readonly statements;

  constructor(
    db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.statements = {
      userLanguage: db.prepare("SELECT language FROM user_settings WHERE workspace = ? AND slack_user = ?"),
      setUserLanguage: db.prepare(
        `INSERT INTO user_settings (workspace, slack_user, language, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (workspace, slack_user) DO UPDATE SET language = excluded.language, updated_at = excluded.updated_at`,
      ),
      workspaceLanguage: db.prepare("SELECT language FROM workspace_settings WHERE workspace = ?"),
      setWorkspaceLanguage: db.prepare(
        `INSERT INTO workspace_settings (workspace, language, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (workspace) DO UPDATE SET language = excluded.language, updated_at = excluded.updated_at`,
      ),
      deleteUsers: db.prepare("DELETE FROM user_settings WHERE workspace = ?"),
      deleteWorkspace: db.prepare("DELETE FROM workspace_settings WHERE workspace = ?"),
    };
    this.deleteAll = db.transaction(
      (workspace: WorkspaceKey) =>
        this.statements.deleteUsers.run(workspace).changes +
        this.statements.deleteWorkspace.run(workspace).changes,
    );
  }

  private readonly deleteAll: (workspace: WorkspaceKey) => number;

  /** The language the user chose in that workspace, or undefined (they never chose). */
  userLanguage(workspace: WorkspaceKey, slackUser: string): Language | undefined {
    const row = this.statements.userLanguage.get(workspace, slackUser) as { language: string } | undefined;
    return isLanguage(row?.language) ? row.language : undefined;
  }

  /** Stores the user's own language in that workspace (replacing an earlier choice). */
  setUserLanguage(workspace: WorkspaceKey, slackUser: string, language: Language): void {
    assertSettingLanguage(language);
    this.statements.setUserLanguage.run(workspace, slackUser, language, this.now());
  }

  /** The default language set in Slack for an installed workspace, or undefined (none set). */
  workspaceLanguage(workspace: WorkspaceKey): Language | undefined {
    const row = this.statements.workspaceLanguage.get(workspace) as { language: string } | undefined;
    return isLanguage(row?.language) ? row.language : undefined;
  }

  /** Stores an installed workspace's default language. Refuses "" (DEFAULT_LANGUAGE is the single workspace's). */
  setWorkspaceLanguage(workspace: WorkspaceKey, language: Language): void {
    assertInstalledSettingsWorkspace(workspace, "default");
    assertSettingLanguage(language);
    this.statements.setWorkspaceLanguage.run(workspace, language, this.now());
  }

  /**
   * Drops every setting of a workspace (it uninstalled fleetbot): its users' and its default;
   * how many there were. Idempotent. Refuses "".
   */
  deleteWorkspace(workspace: WorkspaceKey): number {
    assertInstalledSettingsWorkspace(workspace, "delete");
    return this.deleteAll(workspace);
  }
}
