import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from "@slack/bolt";
import type { QueueDeps } from "../context.js";
import { describeTask } from "../renderers.js";
import { cancelledMessage, QUEUE_ENTRY_BLOCK, type QueueEntry, queueMessage } from "../views/common.js";
import { type Ack, aside, ephemeral, NO_ACCOUNT, NOT_YOURS } from "./shared.js";

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

/** The queue shows this many requests; the rest are counted (a backlog of 20,000 is read as a number). */
export const QUEUE_SHOWN = 20;

/** The account's first unfinished tasks (oldest first) with their progress, estimated in one pass. */
export async function queueEntries(
  deps: QueueDeps,
  account: string,
  limit = QUEUE_SHOWN,
): Promise<{ entries: QueueEntry[]; total: number }> {
  const tasks = await deps.tasks.unfinished(account, limit);
  const progress = await deps.tasks.progressOfMany(tasks);
  return {
    entries: tasks.map((task) => ({
      task,
      description: describeTask(task),
      progress: progress.get(task.id),
    })),
    total: await deps.tasks.countUnfinished(account),
  };
}

/** `/fleet queue`: the account's queued and running requests. */
export async function showQueue(args: { ack: Ack; userId: string }, deps: QueueDeps): Promise<void> {
  const account = await deps.users.accountOf(args.userId);
  if (!account) {
    await args.ack(ephemeral(NO_ACCOUNT));
    return;
  }
  const queue = await queueEntries(deps, account.username);
  await args.ack(ephemeral(queueMessage(account.username, queue.entries, deps.now(), queue.total)));
}

/** The queue message's refresh button. */
export async function refreshQueue({ ack, body, respond }: ButtonArgs, deps: QueueDeps): Promise<void> {
  await ack();
  const account = await deps.users.accountOf(body.user.id);
  if (!account) return;
  const queue = await queueEntries(deps, account.username);
  await respond({
    replace_original: true,
    ...queueMessage(account.username, queue.entries, deps.now(), queue.total),
  });
}

/** A progress message's Cancel button: only someone acting as the task's fleet account may cancel it. */
export async function cancelTask({ ack, action, body, respond }: ButtonArgs, deps: QueueDeps): Promise<void> {
  await ack();
  const named = await deps.tasks.owned(action.value ?? "", body.user.id);
  if (named.reason === "foreign") {
    await respond(NOT_YOURS);
    return;
  }
  const task = named.task;
  if (!task || task.state === "done" || task.state === "failed" || task.state === "cancelled") {
    await respond(aside({ text: "That request has already finished." }));
    return;
  }
  await deps.tasks.cancel(task.id, body.user.id);
  const account = await deps.users.accountOf(body.user.id);
  if (action.block_id.startsWith(QUEUE_ENTRY_BLOCK) && account) {
    // Clicked in /fleet queue: that list, refreshed, without the request (a running one ends at its current call).
    const queue = await queueEntries(deps, account.username);
    const entries = queue.entries.filter((entry) => entry.task.id !== task.id);
    const total = queue.total - (entries.length < queue.entries.length ? 1 : 0);
    await respond({ replace_original: true, ...queueMessage(account.username, entries, deps.now(), total) });
    return;
  }
  // Clicked on the waiting message: it says who cancelled, and its button is gone.
  await respond({ replace_original: true, ...cancelledMessage(describeTask(task), body.user.id) });
}
