/** Where a waiting or running task stands: its progress message, phrase and the wait in words. */
import { duration, type Language, messages } from "../../../i18n/index.js";
import type { TaskProgress } from "../../tasks/task.js";
import { ACTIONS } from "../actionIds.js";
import { mrkdwn, plain } from "./blocks.js";
import type { SlackMessage } from "./message.js";

/**
 * "Queued: position 3, about 1 min" / "7/20 requests, about 6 min left", with a Cancel button.
 * `what`: the task's description (describeTask), in `language`, the task's.
 */
export function progressMessage(
  what: string,
  progress: TaskProgress,
  nowMs: number,
  language: Language,
): SlackMessage {
  const text = `:hourglass_flowing_sand: ${what}: ${progressPhrase(progress, nowMs, language)}`;
  return {
    text,
    blocks: [
      {
        type: "section",
        block_id: `progress-${progress.taskId.slice(0, 8)}`,
        text: mrkdwn(`${text}\n_${pacingNote(progress.slotMs, language)}_`),
        accessory: {
          type: "button",
          action_id: ACTIONS.cancelTask,
          text: plain(messages(language).tasks.cancel()),
          value: progress.taskId,
        },
      },
    ],
  };
}

/** Where a task stands, in words: "next in line, about 30 s", "position 3 in the queue, …", "2/5 requests, …". */
export function progressPhrase(progress: TaskProgress, nowMs: number, language: Language): string {
  const t = messages(language).tasks;
  const eta =
    progress.expectedFinishAt === undefined ? undefined : Math.max(0, progress.expectedFinishAt - nowMs);
  // No call left to make (answered from the cached vehicle list): no wait to announce.
  const noCalls = progress.total <= progress.done;
  const wait = eta === undefined || noCalls ? undefined : waitText(eta, language);
  const about = wait === undefined ? "" : `, ${progress.done > 0 ? t.waitLeft({ wait }) : wait}`;
  // Before the first call the total is not known yet (a report plans its calls once it has
  // the vehicle list): the place in the queue is what the user can rely on.
  if (noCalls) return t.answeringNow();
  if (progress.done > 0) return `${t.requestsDone({ done: progress.done, total: progress.total })}${about}`;
  if (progress.position !== undefined && progress.position > 0)
    return `${t.positionInQueue({ position: progress.position + 1 })}${about}`;
  return `${t.nextInLine()}${about}`;
}

/** Why the wait: the account's real spacing (FLEET_MIN_INTERVAL_MS), not a fixed 30 s. */
export function pacingNote(slotMs: number | undefined, language: Language): string {
  const t = messages(language).tasks;
  if (slotMs === undefined) return t.pacingUnknown();
  const seconds = Math.max(1, Math.round(slotMs / 1000));
  return seconds % 60 === 0 && seconds >= 60 ? t.pacingMinutes(seconds / 60) : t.pacingSeconds(seconds);
}

/**
 * "about 12 s", "about 3 min", "about 1 h 5 min" (`duration` of format.ts); "under a second"
 * below one: whole seconds would call a 40 ms lookup "about 1 s", 25 times its length.
 */
export function waitText(ms: number, language: Language): string {
  const t = messages(language).tasks;
  return ms < 1000 ? t.waitUnderSecond() : t.waitAbout({ duration: duration(language, ms) });
}
