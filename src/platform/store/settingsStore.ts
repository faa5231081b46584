import { isLanguage, type Language } from "../../i18n/language.js";
import type { WorkspaceKey } from "../workspaces/workspace.js";
import {
  assertInstalledSettingsWorkspace,
  assertSettingLanguage,
  type SettingsRepository,
} from "./contract/settings.js";
import type { Synchronous } from "./contract/synchronous.js";
import type { Db } from "./database.js";

/**
 * Each person's language and each installed workspace's default language in SQLite (the
 * contract: contract/settings.ts). Nothing here is a secret: a language is stored as it is.
 */
export class SqliteSettingsStore implements Synchronous<SettingsRepository> {
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
