import type { Logger } from "pino";
import { type InstallationRepository, queryOfKey } from "../store/contract/index.js";
import type { WorkspaceData, WorkspaceEvents } from "./events.js";
import { ONLY_WORKSPACE, type WorkspaceKey, workspaceKeyOf } from "./workspace.js";

export type { WorkspaceData } from "./events.js";

export interface WorkspaceRemovalOptions {
  installations: Pick<
    InstallationRepository,
    "deleteIfInstalledBefore" | "installedAt" | "deleteInstallation"
  >;
  /** The registry's announcements, and every store and cache that holds a workspace's data (its subscribers). */
  events: WorkspaceEvents;
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
  /** Removals under way: uninstall events, dead tokens, a fresh install's leftovers (retries included). */
  private underWay = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly options: WorkspaceRemovalOptions) {
    options.events.handleRemovals({
      tokenDead: (key) => void this.tokenDead(key),
      installedAnew: (key) => this.purge(key, "installed anew"),
    });
  }

  /**
   * Resolves when no removal is under way. A removal counts from the moment it is asked for, so
   * once the work that could ask for one has settled, this says for certain whether one ran
   * (tests prove with it that an event deleted nothing, instead of waiting a while).
   */
  idle(): Promise<void> {
    if (this.underWay === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Runs one removal, counted for idle() from the call on (before its first await). An uninstall's
   * purge counts again on its own, so one set off without being awaited is still waited for.
   */
  private async counted<T>(removal: () => Promise<T>): Promise<T> {
    this.underWay++;
    try {
      return await removal();
    } finally {
      this.underWay--;
      if (this.underWay === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }

  /**
   * An uninstall event (`app_uninstalled`, `tokens_revoked` for the bot, `team_access_revoked`):
   * `eventTimeMs` is Slack's event_time. The data goes unless a newer installation exists.
   */
  uninstalled(
    ids: { teamId?: string; enterpriseId?: string; isEnterpriseInstall?: boolean },
    eventTimeMs: number,
  ): Promise<RemovalOutcome> {
    return this.counted(() => this.uninstall(ids, eventTimeMs));
  }

  private async uninstall(
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
  tokenDead(key: WorkspaceKey): Promise<void> {
    return this.counted(() => this.removeDeadToken(key));
  }

  private async removeDeadToken(key: WorkspaceKey): Promise<void> {
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
  purge(key: WorkspaceKey, why: "uninstalled" | "installed anew" = "uninstalled"): Promise<void> {
    return this.counted(() => this.deleteData(key, why));
  }

  private async deleteData(key: WorkspaceKey, why: "uninstalled" | "installed anew"): Promise<void> {
    if (key === ONLY_WORKSPACE) throw new Error("the single workspace's data is never purged");
    const counts: Record<string, unknown> = {};
    let failed: WorkspaceData[] = [];
    for (const part of this.options.events.removedSubscribers()) {
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
