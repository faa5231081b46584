import type { Logger } from "pino";
import { type InstallationRepository, queryOfKey } from "../store/installationStore.js";
import { ONLY_WORKSPACE, type WorkspaceKey, workspaceKeyOf } from "./workspace.js";

/** One kind of a workspace's data, and how to delete all of it (idempotent). */
export interface WorkspaceData {
  name: string;
  deleteWorkspace(key: WorkspaceKey): Promise<unknown> | unknown;
}

export interface WorkspaceRemovalOptions {
  installations: Pick<
    InstallationRepository,
    "deleteIfInstalledBefore" | "installedAt" | "deleteInstallation"
  >;
  /** Every store and cache that holds the workspace's data, in the order they are deleted. */
  data: readonly WorkspaceData[];
  logger: Pick<Logger, "info" | "warn" | "error">;
  /** Between tries of a deletion that failed (a store fault): the data must go within a minute. */
  retryMs?: number;
  tries?: number;
}

/** What an uninstall event said. */
export type RemovalOutcome = "removed" | "already-removed" | "older-than-install";

/**
 * Uninstalls: the installation and every piece of the workspace's data go, and nothing of any
 * other workspace. Slack's events may come in any order, more than once, and late: an uninstall
 * older than the current installation (bolt-js #1103: an app_uninstalled delivered after the
 * reinstall) deletes nothing. Deleting again what is gone is harmless, so a repeated event, or a
 * token found dead after an uninstall, just confirms it.
 */
export class WorkspaceRemoval {
  constructor(private readonly options: WorkspaceRemovalOptions) {}

  /**
   * An uninstall event (`app_uninstalled`, `tokens_revoked` for the bot, `team_access_revoked`):
   * `eventTimeMs` is Slack's event_time. The data goes unless a newer installation exists.
   */
  async uninstalled(
    ids: { teamId?: string; enterpriseId?: string; isEnterpriseInstall?: boolean },
    eventTimeMs: number,
  ): Promise<RemovalOutcome> {
    const key = workspaceKeyOf(ids);
    if (!key) return "already-removed";
    const query = queryOfKey(key);
    // Slack's event_time is whole seconds: the uninstall happened within the second after it, so an
    // installation stored in that same second is not taken for a later reinstall.
    const deleted = await this.options.installations.deleteIfInstalledBefore(query, eventTimeMs + 999);
    if (!deleted && (await this.options.installations.installedAt(query)) !== undefined) {
      this.options.logger.info(
        { workspace: key },
        "uninstall event older than the installation: nothing deleted",
      );
      return "older-than-install";
    }
    await this.purge(key);
    return deleted ? "removed" : "already-removed";
  }

  /**
   * Slack refused the workspace's token for good (invalid_auth, token_revoked, …): as an uninstall.
   * Called fire-and-forget from a failed Slack call, so it never rejects: a store that fails here
   * is logged, and the next refused call tries again.
   */
  async tokenDead(key: WorkspaceKey): Promise<void> {
    if (key === ONLY_WORKSPACE) return;
    try {
      await this.options.installations.deleteInstallation(queryOfKey(key));
      await this.purge(key);
    } catch (error) {
      this.options.logger.error(
        { workspace: key, err: error },
        "a workspace whose token died could not be removed",
      );
    }
  }

  /** Deletes every kind of the workspace's data; a kind that fails is tried again, the others go on. */
  async purge(key: WorkspaceKey, why: "uninstalled" | "installed anew" = "uninstalled"): Promise<void> {
    if (key === ONLY_WORKSPACE) throw new Error("the single workspace's data is never purged");
    const counts: Record<string, unknown> = {};
    let failed: WorkspaceData[] = [];
    for (const part of this.options.data) {
      try {
        counts[part.name] = await part.deleteWorkspace(key);
      } catch (error) {
        this.options.logger.warn(
          { err: error, workspace: key, part: part.name },
          "could not delete a workspace's data yet",
        );
        failed.push(part);
      }
    }
    this.options.logger.info(
      { workspace: key, deleted: counts },
      why === "uninstalled"
        ? "workspace uninstalled: its data is deleted"
        : "workspace installed anew: anything left from an earlier install is deleted",
    );
    const tries = this.options.tries ?? 5;
    for (let attempt = 1; failed.length > 0 && attempt < tries; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, this.options.retryMs ?? 10_000));
      const still: WorkspaceData[] = [];
      for (const part of failed) {
        try {
          await part.deleteWorkspace(key);
        } catch {
          still.push(part);
        }
      }
      failed = still;
    }
    if (failed.length > 0)
      this.options.logger.error(
        { workspace: key, parts: failed.map((p) => p.name) },
        "a workspace's data could not be deleted: it is deleted when the workspace is uninstalled again, or by hand",
      );
  }
}
