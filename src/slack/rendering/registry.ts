/**
 * The render registry: the Slack side of every task kind, one KindRenderer per kind, keyed by
 * the kinds (src/tasks/kinds.ts), so a kind without one does not compile. renderers.ts and
 * delivery.ts reach what a kind does only through it.
 */
import type { Language } from "../../i18n/language.js";
import { isTaskKind, type TaskKind, taskOf } from "../../tasks/kinds.js";
import type { TaskRecord } from "../../tasks/task.js";
import type { SlackMessage } from "../views/message.js";
import { accountLinkRenderer } from "./accountLink.js";
import type { KindRenderer, StaleAnswerRefresh, StoredAnswers, UnderWay } from "./kindRenderer.js";
import { transportFindRenderer, transportRemoveRenderer, transportSaveRenderer } from "./transportCards.js";
import { transportActionRenderer, transportListRenderer } from "./transportList.js";
import { vehicleReportRenderer } from "./vehicleReport.js";

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
