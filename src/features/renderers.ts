/**
 * Pure: a stored task → its one-line description and its answer (message, files or modal),
 * whatever its kind. What each kind says is its renderer's (slack/renderer.ts of each feature, one per kind
 * in the render registry); this module is what the rest of fleetbot calls.
 */
import { messages } from "../i18n/catalogue.js";
import { number } from "../i18n/format.js";
import type { Language } from "../i18n/language.js";
import type { Rendered } from "../platform/slack/rendered.js";
import { type RenderContext, taskLanguage, withResult } from "../platform/slack/rendering/renderContext.js";
import type { SlackMessage } from "../platform/slack/views/message.js";
import { noticeMessage } from "../platform/slack/views/notice.js";
import { cancelledMessage, failureMessage } from "../platform/slack/views/taskEnding.js";
import { ECHO_MAX, userText } from "../platform/slack/views/text.js";
import type { ResultNotKept, TaskRecord } from "../platform/tasks/task.js";
import { rendererOf } from "./renderRegistry.js";
import { isTaskKind, type TaskKind, taskOf } from "./taskKinds.js";

export type { RenderContext } from "../platform/slack/rendering/renderContext.js";
export { taskLanguage } from "../platform/slack/rendering/renderContext.js";

/**
 * One line saying what a task is, for progress messages and the queue, as mrkdwn, in `language`
 * (the task's: taskLanguage): what the user typed (vehicles, UITs, a user name) is escaped and
 * cut, so the line stays short and echoes no mention whatever was typed.
 */
export function describeTask(task: TaskRecord, language: Language): string {
  if (!isTaskKind(task.kind)) return userText(task.kind, ECHO_MAX);
  return describeKind(task.kind, task, language);
}

function describeKind<K extends TaskKind>(kind: K, task: TaskRecord, language: Language): string {
  return rendererOf(kind).describe(taskOf(task, kind), language);
}

/** What a task whose result the store no longer keeps says instead of its answer, in `language`. */
export function resultNotKeptText(what: string, notKept: ResultNotKept, language: Language): string {
  const t = messages(language).tasks;
  const size = `${number(language, notKept.bytes / 1_048_576, { minFractionDigits: 1, maxFractionDigits: 1 })} MB`;
  return notKept.reason === "too-large"
    ? `:warning: ${t.resultTooLarge({ what, size })}`
    : `:hourglass: ${t.resultExpired({ what })}`;
}

/** The message (and files) that answer a finished task; `page` for paginated answers. Pure: writes nothing. */
export async function renderTask(task: TaskRecord, context: RenderContext, page = 0): Promise<Rendered> {
  const language = taskLanguage(task, context.defaultLanguage);
  const what = describeTask(task, language);
  if (task.state === "cancelled" || task.state === "failed") {
    const ending =
      task.state === "cancelled"
        ? cancelledMessage(what, language, task.reply.cancelledBy)
        : failureMessage(what, task.error, language);
    const inPlace = task.reply.listStays ? endingInPlace(task, ending, context) : undefined;
    return { message: inPlace ?? ending };
  }
  const done = messages(language).tasks.done({ what });
  if (task.resultNotKept)
    return { message: noticeMessage(resultNotKeptText(what, task.resultNotKept, language)) };
  if (!isTaskKind(task.kind)) return { message: noticeMessage(done) };
  return renderKind(task.kind, task, context, page, done);
}

/** A typed task of one kind through its renderer; a row that no longer fits its kind only says it is done. */
function renderKind<K extends TaskKind>(
  kind: K,
  task: TaskRecord,
  context: RenderContext,
  page: number,
  done: string,
): Promise<Rendered> {
  const renderer = rendererOf(kind);
  return withResult(taskOf(task, kind), done, (t, result) => renderer.render(t, result, context, page));
}

/** A failed or cancelled task's ending in the message it was asked from, when its kind shows one there. */
function endingInPlace(
  task: TaskRecord,
  ending: SlackMessage,
  context: RenderContext,
): SlackMessage | undefined {
  return isTaskKind(task.kind) ? endingInPlaceOfKind(task.kind, task, ending, context) : undefined;
}

function endingInPlaceOfKind<K extends TaskKind>(
  kind: K,
  task: TaskRecord,
  ending: SlackMessage,
  context: RenderContext,
): SlackMessage | undefined {
  const renderer = rendererOf(kind);
  const typed = renderer.endingInPlace ? taskOf(task, kind) : undefined;
  return typed ? renderer.endingInPlace?.(typed, ending, context) : undefined;
}

/** Stored tasks a task's answer may show (RenderContext.task is asked only for these). */
export function relatedTaskIds(task: TaskRecord): string[] {
  return isTaskKind(task.kind) ? relatedOfKind(task.kind, task) : [];
}

function relatedOfKind<K extends TaskKind>(kind: K, task: TaskRecord): string[] {
  const renderer = rendererOf(kind);
  const typed = renderer.relatedTaskIds ? taskOf(task, kind) : undefined;
  return (typed && renderer.relatedTaskIds?.(typed)) ?? [];
}
