import type { NewTask, ReplyTarget, TaskError, TaskRecord, TaskState } from "../../tasks/task.js";
import { ONLY_WORKSPACE, type WorkspaceKey } from "../../workspaces/workspace.js";

/**
 * Tasks and their mutation journal. The task records themselves (`TaskRecord`, `NewTask`, the
 * reply target, the error) are the domain's, in src/platform/tasks/task.ts; this is what a store of them
 * does. Implemented by SqliteTaskStore (taskStore.ts) and RedisTaskStore (redis/taskStore.ts),
 * both run through test/platform/store/contract/taskRepository.test.ts.
 */

/** A journal entry: a mutation sent (the service may have it) or done, with its answer. */
export type StepState = { state: "sending" } | { state: "done"; result: unknown };

/** How a task ends. */
export type FinishedState = Extract<TaskState, "done" | "failed" | "cancelled">;

/** What `finish` stores with the ending. */
export interface TaskOutcome {
  result?: unknown;
  error?: TaskError;
  /** Replaces the stored parameters (secrets scrubbed). */
  params?: unknown;
}

export interface TaskRepository {
  /**
   * Stores a new task, or returns the pending one of the workspace with the same dedupe key (a
   * double submission runs once). `created` says which.
   */
  create(task: NewTask): Promise<{ task: TaskRecord; created: boolean }>;
  get(id: string): Promise<TaskRecord | undefined>;
  /**
   * Queued and running tasks, oldest first; of one account and/or one workspace, at most `limit`
   * (negative: no limit). Without a workspace, every workspace's; with one, only that workspace's.
   */
  unfinished(account?: string, limit?: number, workspace?: WorkspaceKey): Promise<TaskRecord[]>;
  /** How many tasks are queued or running, of one account and/or one workspace when given. */
  countUnfinished(account?: string, workspace?: WorkspaceKey): Promise<number>;
  /** The task runs (one more attempt); nothing for a task already ended. */
  markRunning(id: string): Promise<void>;
  /** Ends a task; a task already ended keeps its first ending (false). */
  finish(id: string, state: FinishedState, outcome: TaskOutcome): Promise<boolean>;
  /** Replaces a finished task's result (a list kept current after actions on its cards). */
  updateResult(id: string, result: unknown): Promise<void>;
  /** Replaces a task's parameters (its user's zone, settled when the task runs). */
  updateParams(id: string, params: unknown): Promise<void>;
  setProgress(id: string, done: number, total: number): Promise<void>;
  /** Where the task's progress and answer go. */
  setReply(id: string, reply: ReplyTarget): Promise<void>;
  /** The journal entry of one step of a task, if any. */
  step(taskId: string, step: string): Promise<StepState | undefined>;
  /** Recorded before the mutation is sent: after a crash it may have reached the service. */
  markStepSending(taskId: string, step: string): Promise<void>;
  markStepDone(taskId: string, step: string, result: unknown): Promise<void>;
  /** Finished tasks whose answer has not reached Slack yet (a crash between the two). */
  undelivered(): Promise<TaskRecord[]>;
  markDelivered(id: string): Promise<void>;
  /** The account's tasks, newest first, finished ones included; of one workspace when given. */
  recent(account: string, limit: number, workspace?: WorkspaceKey): Promise<TaskRecord[]>;
  /**
   * Deletes every task of an uninstalled workspace, whatever its state, with its journal: how many
   * and their ids. Refuses the single workspace ("").
   */
  deleteWorkspace(workspace: WorkspaceKey): Promise<{ tasks: number; ids: string[] }>;
  /** Replaces the bulk results of tasks delivered before the instant by an "expired" marker; how many. */
  dropResultsDeliveredBefore(instant: number): Promise<number>;
  /** Deletes tasks finished before the instant; how many. */
  purgeFinishedBefore(instant: number): Promise<number>;
}

/** deleteWorkspace's refusal of the single workspace (both implementations). */
export function assertPurgeable(workspace: WorkspaceKey): void {
  if (workspace === ONLY_WORKSPACE)
    throw new Error("the single workspace's tasks are never deleted as an uninstalled workspace's");
}
