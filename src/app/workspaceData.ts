import { LinkAttempts } from "../features/account/slack/listeners.js";
import type { WorkspaceEvents } from "../platform/workspaces/events.js";
import type { Backend } from "./backend/backend.js";

/**
 * What the backend keeps of a workspace, deleted when it is removed (after its tasks, before the
 * fleet accounts its links used and the caches: see REMOVAL_STAGES).
 */
export function removeStoredData(events: WorkspaceEvents, stores: Backend): void {
  const data = (name: string, deleteWorkspace: (key: string) => Promise<unknown> | unknown) =>
    events.onRemoved({ name, stage: "data", deleteWorkspace });
  data("linked accounts", (key) => stores.accounts.deleteWorkspace(key));
  data("alerts", (key) => stores.alerts.deleteWorkspace(key));
  data("settings", (key) => stores.settings.deleteWorkspace(key));
  data("zones", (key) => stores.zones.deleteWorkspace(key));
  data("schedules", (key) => stores.schedules.deleteWorkspace(key));
  // Shared by replicas; in one process they live in the workspace's listener deps, dropped with them.
  data("link attempts", (key) =>
    stores.sharedState ? new LinkAttempts(stores.sharedState).forgetWorkspace(key) : 0,
  );
}
