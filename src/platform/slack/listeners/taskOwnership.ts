/** Whether a task named by an action or a form is the clicking user's. */
import type { TaskRecord } from "../../tasks/task.js";
import { ONLY_WORKSPACE, type WorkspaceKey } from "../../workspaces/workspace.js";

/** A task named by an action, as the clicking user may see it. */
export type TaskOwnership =
  | { owned: true; task: TaskRecord; reason?: undefined }
  | { owned: false; reason: "missing" | "foreign"; task?: undefined };

/**
 * Whether a stored task belongs to a user: it runs as the fleet account they act as, or they
 * submitted it themselves. Anything else (another account's report or list) stays closed.
 */
export function taskOwnership(
  task: TaskRecord | undefined,
  userId: string,
  account: { username: string } | undefined,
  workspace: WorkspaceKey = ONLY_WORKSPACE,
): TaskOwnership {
  if (!task) return { owned: false, reason: "missing" };
  // A task of another workspace: its user and account ids mean nothing here, whatever they say.
  if (task.workspace !== workspace) return { owned: false, reason: "foreign" };
  if (task.slackUser === userId || (account !== undefined && task.account === account.username))
    return { owned: true, task };
  return { owned: false, reason: "foreign" };
}
