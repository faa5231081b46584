import type { TaskContext } from "./runner.js";

/** What a session can say about the calls it adds on its own before a task's first request. */
export interface LoginAware {
  /** 1 when the next request must be preceded by a login (no reusable token), else 0. */
  loginCalls(): number;
}

/**
 * Progress of a task whose own calls are preceded by `setup` calls the handler does not make
 * itself (the login the session runs first, a vehicle list): the estimate must count them, or
 * "about 1 s" is shown for a task that waits a whole slot for its login. `done` and `total`
 * are the handler's own calls; the setup calls count as done once the first own call answered.
 */
export function progressWithSetup(
  ctx: Pick<TaskContext<unknown, unknown>, "progress">,
  setup: number,
): (done: number, total: number) => void {
  return (done, total) => ctx.progress(done > 0 ? setup + done : 0, setup + total);
}
