/**
 * What delivery lets a task kind's hooks reach (src/features/kindRenderer.ts): stored answers,
 * and how an earlier answer is brought up to date. Delivery names no kind.
 */
import type { Language } from "../../../i18n/language.js";
import type { ReplyTarget, TaskRecord } from "../../tasks/task.js";
import type { Rendered } from "../rendered.js";
import type { SlackMessage } from "../views/message.js";

/** The card of a list whose action a task runs, while that task waits (ReplyTarget.underWay). */
export type UnderWay = NonNullable<ReplyTarget["underWay"]>;

/**
 * Stored answers, as delivery lets a kind's hook reach them: the renderers stay pure, the
 * writes and the Slack calls are delivery's.
 */
export interface StoredAnswers {
  /** A stored task by id. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /** Replaces a stored task's result. */
  updateResult(taskId: string, result: unknown): Promise<void>;
  /** A stored task's answer (the renderer delivery was given). */
  render(task: TaskRecord): Promise<Rendered>;
  /** Replaces an answer posted in a channel or a DM (chat.update) with `message`. */
  updatePosted(
    task: TaskRecord,
    posted: { channel: string; ts: string },
    message: SlackMessage,
  ): Promise<void>;
  /** Whether the task's response_url may still be used. */
  responseUrlOpen(task: TaskRecord): boolean;
  /** Replaces the message the task's response_url belongs to; whether Slack took it. */
  replaceThroughResponseUrl(task: TaskRecord, message: SlackMessage): Promise<boolean>;
}

/**
 * One earlier answer brought up to date after a task changed what it shows, in `language` (the
 * changing task's): where it was (a place to name in the status modal), or undefined.
 */
export type StaleAnswerRefresh = (
  earlier: TaskRecord,
  answers: StoredAnswers,
  language: Language,
) => Promise<string | undefined>;
