/** What every kind's renderer reads besides its task: the clock, related tasks, zones, the language. */
import type { Language } from "../../../i18n/language.js";
import { formatUit } from "../../fleet/uit.js";
import type { TaskRecord } from "../../tasks/task.js";
import type { Rendered } from "../rendered.js";
import { noticeMessage } from "../views/notice.js";

export interface RenderContext {
  now(): number;
  /** A stored task by id (an action re-renders the list it was clicked in). */
  task?(id: string): TaskRecord | undefined;
  /** Zone of the fleet service's local dates, named in reports built from them. */
  companyTimeZone: string;
  /** DEFAULT_LANGUAGE: the language of a task stored before languages (its reply names none). */
  defaultLanguage: Language;
}

/** The language a task is rendered in: the asking user's, resolved when it was asked. */
export function taskLanguage(task: TaskRecord, defaultLanguage: Language): Language {
  return task.reply.language ?? defaultLanguage;
}

/** Renders a typed task that has its result; a row that no longer fits its kind only says it is done. */
export async function withResult<T extends { result?: unknown }>(
  task: T | undefined,
  done: string,
  render: (task: T, result: NonNullable<T["result"]>) => Rendered | Promise<Rendered>,
): Promise<Rendered> {
  if (!task || task.result === undefined || task.result === null) return { message: noticeMessage(done) };
  return render(task, task.result);
}

/** A UIT in its one display form (dashed in fours), or `fallback` when there is none. */
export const uitOr = (uit: string | undefined, fallback: string) => (uit ? formatUit(uit) : fallback);

/** Budget of a task's list of vehicles or UITs in its one-line description. */
export const VEHICLES_MAX = 200;
