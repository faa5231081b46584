/**
 * What the Slack side knows of one task kind (src/slack/rendering/registry.ts holds one per kind):
 * how a task of it is described and answered, and the hooks delivery calls for it. Delivery names
 * no kind: whatever a kind's answer does beyond a message (an e-Transport card refreshed in the
 * places it was shown, a list shown again with a card under way) reaches it through these hooks.
 */
import type { Language } from "../../i18n/language.js";
import type { TaskKind, TaskOf, TaskResult } from "../../tasks/kinds.js";
import type { ReplyTarget, TaskRecord } from "../../tasks/task.js";
import type { Rendered } from "../rendered.js";
import type { SlackMessage } from "../views/message.js";
import type { RenderContext } from "./renderContext.js";

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

export interface KindRenderer<K extends TaskKind> {
  /**
   * One line saying what the task is, as mrkdwn in `language` (describeTask); `task` is
   * undefined when its stored parameters no longer fit the kind.
   */
  describe(task: TaskOf<K> | undefined, language: Language): string;
  /** The answer of a finished task that has its result. Pure: writes nothing. */
  render(
    task: TaskOf<K>,
    result: TaskResult<K>,
    context: RenderContext,
    page: number,
  ): Rendered | Promise<Rendered>;
  /** Stored tasks the answer may show (RenderContext.task is asked only for these). */
  relatedTaskIds?(task: TaskOf<K>): string[];
  /**
   * A failed or cancelled task's ending where its reply says the message stays (`listStays`):
   * the message it was asked from, shown again with the ending above it; undefined when gone.
   */
  endingInPlace?(task: TaskOf<K>, ending: SlackMessage, context: RenderContext): SlackMessage | undefined;
  /**
   * Delivery, while the task waits: instead of a progress bar, the message it was asked from
   * with `phrase()` (where the task stands, worded when the message is built) on the card under
   * way; undefined when there is none.
   */
  underWay?(
    task: TaskOf<K>,
    underWay: UnderWay,
    phrase: () => string,
    language: Language,
    answers: StoredAnswers,
  ): Promise<SlackMessage | undefined>;
  /**
   * Delivery, once a done task's answer is out: how to bring each earlier answer (the account's
   * recent done tasks) up to date, when this task changed what they show; else undefined.
   */
  staleAnswers?(task: TaskOf<K>): StaleAnswerRefresh | undefined;
}
