/** /fleet queue: an account's waiting and running tasks, each with its Cancel button. */
import type { KnownBlock } from "@slack/types";
import { type Language, messages, time } from "../../../i18n/index.js";
import { ACTIONS } from "../../../platform/slack/actionIds.js";
import { context, mrkdwn, plain, section } from "../../../platform/slack/views/blocks.js";
import type { SlackMessage } from "../../../platform/slack/views/message.js";
import { noticeMessage } from "../../../platform/slack/views/notice.js";
import { waitText } from "../../../platform/slack/views/progress.js";
import { ECHO_MAX, userText } from "../../../platform/slack/views/text.js";
import type { TaskProgress, TaskRecord } from "../../../platform/tasks/task.js";

/** Block ids of /fleet queue's entries start with this (a Cancel there refreshes the queue). */
export const QUEUE_ENTRY_BLOCK = "queue-";

export interface QueueEntry {
  task: TaskRecord;
  /** mrkdwn, user text escaped and cut (describeTask). */
  description: string;
  progress?: TaskProgress;
}

/** A Slack time token (the reader's zone) with its fallback in `zone`: "14:05". */
function slackTime(ms: number, zone: string, language: Language): string {
  return `<!date^${Math.floor(ms / 1000)}^{time}|${time(language, ms, zone)}>`;
}

/** The zone a task was asked in (its parameters' `timeZone`), for a time's fallback text. */
function zoneOfTask(task: TaskRecord): string {
  const params = task.params;
  return typeof params === "object" &&
    params !== null &&
    "timeZone" in params &&
    typeof params.timeZone === "string"
    ? params.timeZone
    : "UTC";
}

/**
 * /fleet queue: the account's waiting and running tasks, each with a Cancel button. `entries` are
 * the first ones (at most 20 are shown); `total` counts them all. In the reader's `language`.
 */
export function queueMessage(
  account: string,
  entries: QueueEntry[],
  nowMs: number,
  language: Language,
  total = entries.length,
): SlackMessage {
  const m = messages(language);
  const t = m.tasks;
  const name = userText(account, ECHO_MAX);
  if (entries.length === 0) return noticeMessage(t.queueEmpty({ account: name }));
  const shown = entries.slice(0, 20);
  const title = t.queueTitle({ account: name, total });
  const blocks: KnownBlock[] = [section(title)];
  for (const entry of shown) {
    const p = entry.progress;
    const eta =
      p?.expectedFinishAt === undefined
        ? ""
        : `, ${waitText(Math.max(0, p.expectedFinishAt - nowMs), language)}`;
    const state = p
      ? `${t.queueEntryState({ state: m.help.homeTaskState(p.state), done: p.done, total: p.total })}${eta}`
      : m.help.homeTaskState(entry.task.state);
    const asked = t.queueAskedBy({
      user: `<@${entry.task.slackUser ?? "unknown"}>`,
      time: slackTime(entry.task.createdAt, zoneOfTask(entry.task), language),
    });
    blocks.push({
      type: "section",
      block_id: `${QUEUE_ENTRY_BLOCK}${entry.task.id.slice(0, 12)}`,
      text: mrkdwn(`*${entry.description}* (${state})\n${asked}`),
      accessory: {
        type: "button",
        action_id: ACTIONS.cancelTask,
        text: plain(t.cancel()),
        value: entry.task.id,
      },
    });
  }
  if (total > shown.length) blocks.push(context(m.common.andMore(total - shown.length)));
  blocks.push({
    type: "actions",
    elements: [
      { type: "button", action_id: ACTIONS.refreshQueue, text: plain(t.queueRefresh()), value: "refresh" },
    ],
  });
  return { text: title.replaceAll("*", ""), blocks };
}
