/**
 * The render registry: the Slack side of every task kind, one KindRenderer per kind, keyed by
 * the kinds (src/features/taskKinds.ts), so a kind without one does not compile. renderers.ts and
 * delivery.ts reach what a kind does only through it.
 */
import type { Language } from "../i18n/language.js";
import type {
  StaleAnswerRefresh,
  StoredAnswers,
  UnderWay,
} from "../platform/slack/rendering/storedAnswers.js";
import type { SlackMessage } from "../platform/slack/views/message.js";
import type { TaskRecord } from "../platform/tasks/task.js";
import { accountLinkRenderer } from "./account/slack/renderer.js";
import {
  transportFindRenderer,
  transportRemoveRenderer,
  transportSaveRenderer,
} from "./etransport/slack/rendering/transportCards.js";
import {
  transportActionRenderer,
  transportListRenderer,
} from "./etransport/slack/rendering/transportList.js";
import type { KindRenderer } from "./kindRenderer.js";
import { vehicleReportRenderer } from "./reports/slack/renderer.js";
import { isTaskKind, type TaskKind, taskOf } from "./taskKinds.js";

export const RENDERERS: { [K in TaskKind]: KindRenderer<K> } = {
  "vehicle-report": vehicleReportRenderer,
  "transport-list": transportListRenderer,
  "transport-find": transportFindRenderer,
  "transport-action": transportActionRenderer,
  "transport-save": transportSaveRenderer,
  "transport-remove": transportRemoveRenderer,
  "account-link": accountLinkRenderer,
};

/** The renderer of a kind (typed by it). */
export function rendererOf<K extends TaskKind>(kind: K): KindRenderer<K> {
  return RENDERERS[kind];
}

/**
 * Delivery, while a task waits with a card under way: the message to show instead of a
 * progress bar (KindRenderer.underWay); undefined when its kind has none.
 */
export async function underWayMessage(
  task: TaskRecord,
  underWay: UnderWay,
  phrase: () => string,
  language: Language,
  answers: StoredAnswers,
): Promise<SlackMessage | undefined> {
  if (!isTaskKind(task.kind)) return undefined;
  return underWayOfKind(task.kind, task, underWay, phrase, language, answers);
}

async function underWayOfKind<K extends TaskKind>(
  kind: K,
  task: TaskRecord,
  underWay: UnderWay,
  phrase: () => string,
  language: Language,
  answers: StoredAnswers,
): Promise<SlackMessage | undefined> {
  const renderer = rendererOf(kind);
  const typed = renderer.underWay ? taskOf(task, kind) : undefined;
  return typed ? renderer.underWay?.(typed, underWay, phrase, language, answers) : undefined;
}

/**
 * Delivery, once a done task's answer is out: how to bring the earlier answers it made stale up
 * to date (KindRenderer.staleAnswers); undefined when nothing it shows changed.
 */
export function staleAnswerRefresh(task: TaskRecord): StaleAnswerRefresh | undefined {
  return isTaskKind(task.kind) ? staleAnswersOfKind(task.kind, task) : undefined;
}

function staleAnswersOfKind<K extends TaskKind>(kind: K, task: TaskRecord): StaleAnswerRefresh | undefined {
  const renderer = rendererOf(kind);
  const typed = renderer.staleAnswers ? taskOf(task, kind) : undefined;
  return typed ? renderer.staleAnswers?.(typed) : undefined;
}
