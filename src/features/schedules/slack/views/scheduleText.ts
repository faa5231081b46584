/**
 * The words of a schedule (pure): how often it runs, why it paused and what to do, the line under
 * each post, and the author's direct message when it paused by itself.
 */
import { messages } from "../../../../i18n/catalogue.js";
import { dateTime } from "../../../../i18n/format.js";
import type { Language } from "../../../../i18n/language.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import { noticeMessage } from "../../../../platform/slack/views/notice.js";
import { userText } from "../../../../platform/slack/views/text.js";
import type {
  Recurrence,
  ReportSchedule,
  SchedulePause,
} from "../../../../platform/store/contract/schedules.js";

/** A schedule's report command as echoed inside a code span (escaped, cut, no backtick). */
export function commandText(command: string): string {
  return userText(command.replace(/`/g, "'"), 200);
}

/** "every day at 07:30", "every Monday at 08:00", "în fiecare lună pe 1 la 08:00". */
export function recurrenceText(recurrence: Recurrence, language: Language): string {
  const t = messages(language).schedules;
  switch (recurrence.every) {
    case "day":
      return t.everyDay({ time: recurrence.time });
    case "weekday":
      return t.everyWeekday({ time: recurrence.time });
    case "week":
      return t.everyWeek({ weekday: recurrence.weekday, time: recurrence.time });
    case "month":
      return t.everyMonth({ day: recurrence.day, time: recurrence.time });
  }
}

/** Why a schedule is paused, as a clause ("its author left the channel"). */
export function pauseReason(because: SchedulePause, language: Language): string {
  const t = messages(language).schedules;
  switch (because) {
    case "user":
      return t.reasonUser();
    case "unlinked":
      return t.reasonUnlinked();
    case "left-channel":
      return t.reasonLeftChannel();
    case "bot-not-in-channel":
      return t.reasonBotNotInChannel();
    case "failures":
      return t.reasonFailures();
  }
}

/** What the author does before pressing Resume. */
function pauseFix(because: SchedulePause, language: Language): string {
  const t = messages(language).schedules;
  switch (because) {
    case "unlinked":
      return t.fixUnlinked();
    case "left-channel":
      return t.fixLeftChannel();
    case "bot-not-in-channel":
      return t.fixBotNotInChannel();
    case "failures":
    case "user":
      return t.fixFailures();
  }
}

/** When, in the schedule's zone ("Mon 30 Nov, 07:30"). */
export function runTime(ms: number, schedule: Pick<ReportSchedule, "timeZone">, language: Language): string {
  return dateTime(language, ms, schedule.timeZone);
}

/** The line under a scheduled post: who scheduled it and the next run; late and missed runs said. */
export function scheduleFootnote(
  schedule: ReportSchedule,
  run: { late: boolean; scheduledAt: number; skipped: number; nextRunAt?: number; runNowBy?: string },
  language: Language,
): string {
  const t = messages(language).schedules;
  const author = `<@${schedule.createdBy}>`;
  const lines = [
    run.runNowBy
      ? t.bylineRunNow({ author, by: `<@${run.runNowBy}>` })
      : t.byline({
          author,
          next: run.nextRunAt === undefined ? "—" : runTime(run.nextRunAt, schedule, language),
        }),
  ];
  if (run.late) lines.push(t.late({ due: runTime(run.scheduledAt, schedule, language) }));
  if (run.skipped > 0) lines.push(t.missed({ count: run.skipped }));
  return lines.join("\n");
}

/** The author's direct message: the schedule paused by itself, why, and how to resume it. */
export function pausedMessage(
  schedule: ReportSchedule,
  because: SchedulePause,
  language: Language,
): SlackMessage {
  const t = messages(language).schedules;
  return noticeMessage(
    t.pausedDm({
      what: commandText(schedule.command),
      when: recurrenceText(schedule.recurrence, language),
      channel: `<#${schedule.channel}>`,
      reason: pauseReason(because, language),
    }),
    t.pausedDmFix({ fix: pauseFix(because, language) }),
  );
}
