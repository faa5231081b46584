/** Romanian, tasks (see en/tasks.ts). */
import type { tasks as en } from "../en/tasks.js";
import type { SameParameters, Translation } from "../section.js";

export const tasks = {} satisfies Translation<typeof en>;
true satisfies SameParameters<typeof en, typeof tasks>;
