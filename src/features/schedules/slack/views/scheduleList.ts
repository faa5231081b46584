/**
 * `/fleet schedules` (pure): the channel's schedules, then the user's own elsewhere, each with
 * its recurrence, next run, last result and the buttons Pause or Resume, Run now and Remove.
 */
import type { KnownBlock } from "@slack/types";
import { messages } from "../../../../i18n/catalogue.js";
import type { Language } from "../../../../i18n/language.js";
import { ACTIONS } from "../../../../platform/slack/actionIds.js";
import { context, plain, section } from "../../../../platform/slack/views/blocks.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import type { ReportSchedule } from "../../../../platform/store/contract/schedules.js";
import { commandText, pauseReason, recurrenceText, runTime } from "./scheduleText.js";

/** Schedules shown with their buttons (3 blocks each, within Slack's 50 blocks a message). */
export const LISTED_MAX = 15;

export const SCHEDULE_LIST_EXAMPLE = "/fleet schedule fuel all yesterday every day at 07:30";

function item(schedule: ReportSchedule, language: Language): KnownBlock[] {
  const t = messages(language).schedules;
  const head = t.item({
    id: schedule.id,
    what: commandText(schedule.command),
    when: recurrenceText(schedule.recurrence, language),
    channel: `<#${schedule.channel}>`,
    author: `<@${schedule.createdBy}>`,
  });
  const last =
    schedule.lastOutcome === undefined
      ? t.neverRun()
      : schedule.lastOutcome === "skipped"
        ? t.lastSkipped({ count: schedule.skippedRuns ?? 1 })
        : schedule.lastOutcome === "ok"
          ? t.lastOk({ at: runTime(schedule.lastRunMadeAt ?? schedule.lastRunAt ?? 0, schedule, language) })
          : t.lastFailed({
              at: runTime(schedule.lastRunMadeAt ?? schedule.lastRunAt ?? 0, schedule, language),
              count: schedule.failuresInRow,
            });
  const status =
    schedule.state === "paused"
      ? t.pausedBecause({ reason: pauseReason(schedule.pausedBecause ?? "user", language) })
      : t.nextRun({ at: runTime(schedule.nextRunAt, schedule, language) });
  const value = schedule.id;
  const toggle =
    schedule.state === "paused"
      ? { type: "button" as const, action_id: ACTIONS.scheduleResume, text: plain(t.resume()), value }
      : { type: "button" as const, action_id: ACTIONS.schedulePause, text: plain(t.pause()), value };
  return [
    section(head),
    context(`${status} · ${last}`),
    {
      type: "actions",
      block_id: `schedule.${schedule.id}`,
      elements: [
        toggle,
        { type: "button", action_id: ACTIONS.scheduleRunNow, text: plain(t.runNow()), value },
        {
          type: "button",
          action_id: ACTIONS.scheduleRemove,
          text: plain(t.remove()),
          value,
          style: "danger",
          confirm: {
            title: plain(t.removeConfirmTitle()),
            text: plain(
              t.removeConfirmText({
                what: schedule.command.slice(0, 200),
                when: recurrenceText(schedule.recurrence, language),
              }),
            ),
            confirm: plain(t.removeConfirmYes()),
            deny: plain(t.cancel()),
          },
        },
      ],
    },
  ];
}

export function scheduleListMessage(
  input: { channel: string; here: readonly ReportSchedule[]; ownElsewhere: readonly ReportSchedule[] },
  language: Language,
): SlackMessage {
  const t = messages(language).schedules;
  const title = t.listTitle({ channel: `<#${input.channel}>` });
  if (input.here.length === 0 && input.ownElsewhere.length === 0) {
    const empty = t.listEmpty({ example: SCHEDULE_LIST_EXAMPLE });
    return { text: `${title}\n${empty}`, blocks: [section(`*${title}*`), section(empty)] };
  }
  const blocks: KnownBlock[] = [section(`*${title}*`)];
  const shown = [...input.here, ...input.ownElsewhere].slice(0, LISTED_MAX);
  const here = shown.filter((s) => input.here.includes(s));
  const elsewhere = shown.filter((s) => !input.here.includes(s));
  for (const s of here) blocks.push(...item(s, language));
  if (elsewhere.length > 0) {
    blocks.push(section(`*${t.ownElsewhere()}*`));
    for (const s of elsewhere) blocks.push(...item(s, language));
  }
  const all = input.here.length + input.ownElsewhere.length;
  if (all > shown.length) blocks.push(context(`+${all - shown.length}`));
  const lines = shown.map((s) => `${s.id} ${s.command} (${recurrenceText(s.recurrence, language)})`);
  return { text: [title, ...lines].join("\n").slice(0, 3000), blocks };
}
