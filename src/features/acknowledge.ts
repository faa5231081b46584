import { messages } from "../i18n/catalogue.js";
import type { Language } from "../i18n/language.js";
import type { SlackMessage } from "../platform/slack/views/message.js";
import { noticeMessage } from "../platform/slack/views/notice.js";
import { progressMessage } from "../platform/slack/views/progress.js";
import type { TaskProgress, TaskRecord } from "../platform/tasks/task.js";
import type { QueueDeps } from "./context.js";
import { describeTask } from "./renderers.js";
import type { NewTaskOf, TaskKind } from "./taskKinds.js";

export interface Queued {
  task: TaskRecord;
  /** False when an identical pending task was found: it runs once. */
  created: boolean;
  progress?: TaskProgress;
}

/**
 * Every listener's last step: store the task, then acknowledge Slack. The task's answer
 * is held until the ack is out, since an answer sent through the response_url (or a
 * views.update) before the ack would be overwritten by it; the hold is taken before the task
 * is stored, and shared across replicas in Redis mode.
 */
export async function submitAndAcknowledge<K extends TaskKind>(
  deps: QueueDeps,
  task: NewTaskOf<K>,
  acknowledge: (queued: Queued) => Promise<void>,
): Promise<Queued> {
  // Held before the task is stored: with replicas, another one may start it at once.
  const hold = await deps.tasks.holdUntilAck(task.reply);
  let taskId: string | undefined;
  try {
    const { task: stored, created } = await deps.tasks.submit(task);
    if (!created) {
      await acknowledge({ task: stored, created });
      return { task: stored, created };
    }
    taskId = stored.id;
    const queued = { task: stored, created, progress: await deps.tasks.progressOf(stored.id) };
    await acknowledge(queued);
    return queued;
  } finally {
    hold.release(taskId);
  }
}

/**
 * The language of a queued task's answers: the asking user's, resolved once by the listener and
 * kept in the task's reply (English for a listener that gave none).
 */
export function queuedLanguage(queued: Queued): Language {
  return queued.task.reply.language ?? "en";
}

/**
 * The ack's message: place in the queue and estimate, or that the same request already runs, in
 * the task's language (`language`: the request's, when the listener has it; else the task's).
 */
export function queuedMessage(
  deps: Pick<QueueDeps, "now">,
  queued: Queued,
  language: Language = queuedLanguage(queued),
): SlackMessage {
  const t = messages(language).tasks;
  const what = describeTask(queued.task, language);
  if (!queued.created) return noticeMessage(t.alreadyQueued({ what }));
  return queued.progress
    ? progressMessage(what, queued.progress, deps.now(), language)
    : noticeMessage(t.queued({ what }));
}

/** ", position 3" for a modal's status line (nothing when next in line), in `language`. */
export function queuePosition(queued: Queued, language: Language = queuedLanguage(queued)): string {
  const position = queued.progress?.position;
  return position !== undefined && position > 0
    ? messages(language).tasks.queuedPosition({ position: position + 1 })
    : "";
}
