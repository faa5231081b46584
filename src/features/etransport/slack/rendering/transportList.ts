/**
 * The `transport-list` and `transport-action` kinds on the Slack side: a page of transports, and
 * an action (start, pause, end) on cards of it, answered with the list again, the cards updated.
 */

import { messages } from "../../../../i18n/catalogue.js";
import type { Language } from "../../../../i18n/language.js";
import type { Rendered } from "../../../../platform/slack/rendered.js";
import {
  type RenderContext,
  taskLanguage,
  VEHICLES_MAX,
} from "../../../../platform/slack/rendering/renderContext.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import { userText } from "../../../../platform/slack/views/text.js";
import type { TaskRecord } from "../../../../platform/tasks/task.js";
import type { KindRenderer } from "../../../kindRenderer.js";
import { type TaskOf, taskOf } from "../../../taskKinds.js";
import type { TransportListParams } from "../../kinds/transports.js";
import { parseTransportView, type TransportView } from "../../types.js";
import { transportActionResultMessage } from "../views/actionResult.js";
import { transportListMessage } from "../views/list.js";
import { formatUit } from "../views/transportText.js";
import { withCardUnderWay } from "../views/underWay.js";

function listMessage(
  listTaskId: string,
  p: TransportListParams,
  transports: TransportView[],
  totalRecords: number,
  language: Language,
) {
  return transportListMessage({
    language,
    transports,
    totalRecords,
    pageIndex: p.pageIndex,
    pageSize: p.pageSize,
    filterLabel: p.filterLabel,
    filter: p.filter,
    search: p.search,
    timeZone: p.timeZone,
    listToken: listTaskId,
  });
}

/**
 * A finished list task's message as it was last stored (an action's "⏳" marks it before the
 * answer), in `language`: the reader's (the clicking user's, or the list task's own).
 */
export function storedTransportList(
  task: TaskRecord | undefined,
  language: Language,
): SlackMessage | undefined {
  const list = task?.state === "done" ? taskOf(task, "transport-list") : undefined;
  if (!list?.result) return undefined;
  return listMessage(list.id, list.params, list.result.transports, list.result.totalRecords, language);
}

/** The list an action was clicked in, when it is still there and of the same account. */
function listOfAction(task: TaskOf<"transport-action">, context: RenderContext) {
  const id = task.params.listTaskId;
  const stored = id ? context.task?.(id) : undefined;
  // Another account's list is never shown or rewritten (the listener refuses such a click first).
  const list =
    stored?.state === "done" && stored.account === task.account
      ? taskOf(stored, "transport-list")
      : undefined;
  if (!list?.result) return undefined;
  const language = taskLanguage(task, context.defaultLanguage);
  return {
    list,
    result: list.result,
    message: storedTransportList(stored, language) ?? { text: "", blocks: [] },
  };
}

/** A short message above a list, within Slack's 50 blocks. */
function aboveList(notice: SlackMessage, list: SlackMessage): SlackMessage {
  return {
    text: `${notice.text}\n${list.text}`,
    blocks: [...notice.blocks.slice(0, 3), ...list.blocks].slice(0, 50),
  };
}

/** Replaces transports of a list by their state after an action (matched by uId). */
export function mergeTransports(
  list: readonly TransportView[],
  after: readonly TransportView[],
): TransportView[] {
  const updated = new Map(after.map((t) => [t.uId, t]));
  return list.map((t) => updated.get(t.uId) ?? t);
}

function renderTransportAction(task: TaskOf<"transport-action">, context: RenderContext): Rendered {
  const p = task.params;
  const language = taskLanguage(task, context.defaultLanguage);
  const outcome = task.result ?? { results: [], after: [] };
  const after = outcome.after
    .map((t) => parseTransportView(t))
    .filter((t): t is TransportView => t !== undefined);
  const clicked = listOfAction(task, context);
  if (clicked) {
    // The click came from a list: show that list again, the acted-on cards in their new state.
    const { list, result } = clicked;
    const merged = mergeTransports(result.transports, after);
    const message = listMessage(list.id, list.params, merged, result.totalRecords, language);
    const summary = transportActionResultMessage(p.action, outcome.results, [], {
      timeZone: p.timeZone,
      language,
    });
    return {
      message: aboveList(summary, message),
      // Delivery stores it once the answer is out, so the list's next click starts from it.
      listUpdate: { taskId: list.id, result: { ...result, transports: merged } },
    };
  }
  return {
    message: transportActionResultMessage(p.action, outcome.results, after, {
      timeZone: p.timeZone,
      language,
    }),
  };
}

function describeTransportAction(task: TaskOf<"transport-action"> | undefined, language: Language): string {
  const t = messages(language).tasks;
  const p = task?.params;
  const uits = userText((p?.uits ?? []).map(formatUit).join(", "), VEHICLES_MAX);
  switch (p?.action) {
    case "start":
      return t.actionStart({ uits });
    case "pause":
      return t.actionPause({ uits });
    case "end":
      return t.actionEnd({ uits });
    default:
      return t.actionAny({ uits });
  }
}

export const transportListRenderer: KindRenderer<"transport-list"> = {
  describe: (_task, language) => messages(language).tasks.transportList(),
  render: (task, result, context) => ({
    message: listMessage(
      task.id,
      task.params,
      result.transports,
      result.totalRecords,
      taskLanguage(task, context.defaultLanguage),
    ),
  }),
};

export const transportActionRenderer: KindRenderer<"transport-action"> = {
  describe: describeTransportAction,
  render: (task, _result, context) => renderTransportAction(task, context),
  relatedTaskIds: (task) => (task.params.listTaskId ? [task.params.listTaskId] : []),
  // Clicked in the user's list: the list stays, its card no longer "⏳ Starting…", the ending above it.
  endingInPlace: (task, ending, context) => {
    const list = listOfAction(task, context);
    return list ? aboveList(ending, list.message) : undefined;
  },
  // The list a card's action was clicked in, with that card's place and estimate.
  underWay: async (task, underWay, phrase, language, answers) => {
    const listTaskId = task.params.listTaskId;
    const list = listTaskId ? await answers.get(listTaskId) : undefined;
    if (!list) return undefined;
    const { message } = await answers.render(list);
    return withCardUnderWay(message, underWay.blockId, underWay.action, phrase(), language);
  },
};
