import type { WorkspaceKey } from "./workspace.js";

/**
 * When a removal deletes a part's data: the work first (nothing more is answered), then the
 * stored data the work would have read, then the fleet accounts nobody links any more (once the
 * links are gone), then what is kept in memory (caches, clients).
 */
export const REMOVAL_STAGES = ["work", "data", "accounts", "memory"] as const;
export type RemovalStage = (typeof REMOVAL_STAGES)[number];

/** One kind of a workspace's data, and how to delete all of it (idempotent). */
export interface WorkspaceData {
  name: string;
  stage: RemovalStage;
  deleteWorkspace(key: WorkspaceKey): Promise<unknown> | unknown;
}

/** What the removal does when the registry announces something (workspaces/removal.ts). */
export interface RemovalHandler {
  tokenDead(key: WorkspaceKey): void;
  installedAnew(key: WorkspaceKey): Promise<void>;
}

/**
 * What happens to workspaces, announced by the registry and heard by whoever keeps something per
 * workspace. Each part subscribes where it is built (the runner its tasks, the people cache its
 * users, the Slack app its listeners' deps…), so the composition root holds no list of them and no
 * late-bound closure: a removal reads the subscribers when it runs.
 */
export class WorkspaceEvents {
  private readonly subscribers: WorkspaceData[] = [];
  private handler?: RemovalHandler;
  /** Tokens found dead before the removal was built: handled once it is. */
  private readonly early: WorkspaceKey[] = [];

  /** A part that keeps something of a workspace deletes it when the workspace is removed. */
  onRemoved(subscriber: WorkspaceData): void {
    this.subscribers.push(subscriber);
  }

  /** Every subscriber, stage by stage, each stage in the order they subscribed. */
  removedSubscribers(): WorkspaceData[] {
    return REMOVAL_STAGES.flatMap((stage) => this.subscribers.filter((s) => s.stage === stage));
  }

  /** The removal takes the registry's announcements (one removal per process). */
  handleRemovals(handler: RemovalHandler): void {
    this.handler = handler;
    for (const key of this.early.splice(0)) handler.tokenDead(key);
  }

  /** Slack refused the workspace's token for good: as an uninstall. */
  tokenDead(key: WorkspaceKey): void {
    if (this.handler) this.handler.tokenDead(key);
    else this.early.push(key);
  }

  /** Installed where nothing was stored: whatever an earlier install left goes (installs are served once the removal is built). */
  async installedAnew(key: WorkspaceKey): Promise<void> {
    await this.handler?.installedAnew(key);
  }
}
