import type { SlackContext } from "../context.js";
import { describeTask } from "../renderers.js";
import type { QueueEntry } from "../views/common.js";

/** The account's unfinished tasks with their progress, oldest first. */
export async function queueEntries(ctx: SlackContext, account: string): Promise<QueueEntry[]> {
  const tasks = ctx.tasks.unfinished(account);
  return Promise.all(
    tasks.map(async (task) => ({
      task,
      description: describeTask(task),
      progress: await ctx.runner.progressOf(task.id),
    })),
  );
}
