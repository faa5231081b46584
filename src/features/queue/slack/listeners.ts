import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from "@slack/bolt";
import { messages } from "../../../i18n/catalogue.js";
import type { Language } from "../../../i18n/language.js";
import {
  type Ack,
  aside,
  ephemeral,
  noAccountMessage,
  notYoursAnswer,
} from "../../../platform/slack/listeners/responses.js";
import { cancelledMessage } from "../../../platform/slack/views/taskEnding.js";
import type { QueueDeps } from "../../context.js";
import { describeTask, taskLanguage } from "../../renderers.js";
import { QUEUE_ENTRY_BLOCK, type QueueEntry, queueMessage } from "./views.js";

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

/** The queue shows this many requests; the rest are counted (a backlog of 20,000 is read as a number). */
export const QUEUE_SHOWN = 20;

/**
 * The account's first unfinished tasks (oldest first) with their progress, estimated in one pass;
 * each described in `language`, the reader's (a queue shows others' requests too).
 */
export async function queueEntries(
  deps: QueueDeps,
  account: string,
  language: Language,
  limit = QUEUE_SHOWN,
): Promise<{ entries: QueueEntry[]; total: number }> {
  const tasks = await deps.tasks.unfinished(account, limit);
  const progress = await deps.tasks.progressOfMany(tasks);
  return {
    entries: tasks.map((task) => ({
      task,
      description: describeTask(task, language),
      progress: progress.get(task.id),
    })),
    total: await deps.tasks.countUnfinished(account),
  };
}

/** `/fleet queue`: the account's queued and running requests, in the user's language. */
export async function showQueue(
  args: { ack: Ack; userId: string; language?: Language },
  deps: QueueDeps,
): Promise<void> {
  const [account, language] = await Promise.all([
    deps.users.accountOf(args.userId),
    args.language ?? deps.users.languageOf(args.userId),
  ]);
  if (!account) {
    await args.ack(ephemeral(noAccountMessage(language)));
    return;
  }
  const queue = await queueEntries(deps, account.username, language);
  await args.ack(ephemeral(queueMessage(account.username, queue.entries, deps.now(), language, queue.total)));
}

/** The queue message's refresh button. */
export async function refreshQueue({ ack, body, respond }: ButtonArgs, deps: QueueDeps): Promise<void> {
  await ack();
  const account = await deps.users.accountOf(body.user.id);
  if (!account) return;
  const language = await deps.users.languageOf(body.user.id);
  const queue = await queueEntries(deps, account.username, language);
  await respond({
    replace_original: true,
    ...queueMessage(account.username, queue.entries, deps.now(), language, queue.total),
  });
}

/**
 * A progress message's Cancel button: only someone acting as the task's fleet account may cancel
 * it. Answered in the clicker's language; the waiting message it replaces keeps the task's.
 */
export async function cancelTask({ ack, action, body, respond }: ButtonArgs, deps: QueueDeps): Promise<void> {
  await ack();
  const [named, language] = await Promise.all([
    deps.tasks.owned(action.value ?? "", body.user.id),
    deps.users.languageOf(body.user.id),
  ]);
  if (named.reason === "foreign") {
    await respond(notYoursAnswer(language));
    return;
  }
  const task = named.task;
  if (!task || task.state === "done" || task.state === "failed" || task.state === "cancelled") {
    await respond(aside({ text: messages(language).tasks.alreadyFinished() }));
    return;
  }
  // It may have ended between the read above and the cancel: then nothing was cancelled, and no message may say so.
  if (!(await deps.tasks.cancel(task.id, body.user.id))) {
    await respond(aside({ text: messages(language).tasks.alreadyFinished() }));
    return;
  }
  const account = await deps.users.accountOf(body.user.id);
  if (action.block_id.startsWith(QUEUE_ENTRY_BLOCK) && account) {
    // Clicked in /fleet queue: that list, refreshed, without the request (a running one ends at its current call).
    const queue = await queueEntries(deps, account.username, language);
    const entries = queue.entries.filter((entry) => entry.task.id !== task.id);
    const total = queue.total - (entries.length < queue.entries.length ? 1 : 0);
    await respond({
      replace_original: true,
      ...queueMessage(account.username, entries, deps.now(), language, total),
    });
    return;
  }
  // Clicked on the waiting message: it says who cancelled, and its button is gone; in the task's language.
  const taskLang = taskLanguage(task, language);
  await respond({
    replace_original: true,
    ...cancelledMessage(describeTask(task, taskLang), taskLang, body.user.id),
  });
}
