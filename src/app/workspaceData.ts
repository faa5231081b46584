import type { FleetSession } from "../fleet/client.js";
import type { RunningSlackApp } from "../slack/app.js";
import { LinkAttempts } from "../slack/listeners/account.js";
import type { People } from "../slack/people.js";
import type { FleetAccounts } from "../tasks/fleetAccounts.js";
import type { TaskRunner } from "../tasks/runner.js";
import type { Workspaces } from "../workspaces/registry.js";
import type { WorkspaceData, WorkspaceRemoval } from "../workspaces/removal.js";
import type { WorkspaceKey } from "../workspaces/workspace.js";
import type { Backend, SharedTaskQueue } from "./backend/backend.js";

/** Every kind of a workspace's data, in the order an uninstall deletes it (workspaces/removal.ts). */
export function workspaceData(parts: {
  stores: Backend;
  runner: TaskRunner<FleetSession>;
  people: People;
  workspaces: Workspaces;
  fleet: FleetAccounts;
  /** Redis mode: tells every replica to let go of the accounts nobody links any more. */
  queue: SharedTaskQueue | undefined;
  /** The Slack app, once started (its listeners keep per-workspace deps). */
  slack(): RunningSlackApp | undefined;
}): WorkspaceData[] {
  return [
    // Queued and running tasks first (nothing more is answered), then what they would have read.
    { name: "tasks", deleteWorkspace: (key) => parts.runner.forgetWorkspace(key) },
    { name: "linked accounts", deleteWorkspace: (key) => parts.stores.accounts.deleteWorkspace(key) },
    { name: "alerts", deleteWorkspace: (key) => parts.stores.alerts.deleteWorkspace(key) },
    {
      // Once its links are gone: the fleet accounts nobody links any more make no call again (their
      // sessions, tokens, lists, upkeep, waiting calls), on this replica and, announced, on every other.
      name: "fleet accounts",
      deleteWorkspace: async (key) => {
        const released = await parts.fleet.releaseUnused();
        await parts.queue?.announceRemoval(key);
        return released.length;
      },
    },
    { name: "settings", deleteWorkspace: (key) => parts.stores.settings.deleteWorkspace(key) },
    { name: "cached users", deleteWorkspace: (key) => parts.people.forgetWorkspace(key) },
    {
      // In Redis; in one process they live in the workspace's listener deps, dropped below.
      name: "link attempts",
      deleteWorkspace: (key) => {
        const shared = parts.stores.sharedState;
        return shared ? new LinkAttempts(shared).forgetWorkspace(key) : 0;
      },
    },
    {
      name: "clients",
      deleteWorkspace: (key) => {
        parts.workspaces.forget(key);
        parts.slack()?.forgetWorkspace(key);
      },
    },
  ];
}

/** The workspace removal, known once its parts exist; until then a dead token is remembered and handled then. */
export function lateRemoval() {
  let removal: WorkspaceRemoval | undefined;
  const early: WorkspaceKey[] = [];
  return {
    tokenDead(key: WorkspaceKey): void {
      if (removal) void removal.tokenDead(key);
      else early.push(key);
    },
    /** A fresh install's leftovers (installs are served only once the removal is wired). */
    async purge(key: WorkspaceKey): Promise<void> {
      await removal?.purge(key, "installed anew");
    },
    idle: (): Promise<void> => removal?.idle() ?? Promise.resolve(),
    set(value: WorkspaceRemoval): WorkspaceRemoval {
      removal = value;
      for (const key of early.splice(0)) void value.tokenDead(key);
      return value;
    },
  };
}
