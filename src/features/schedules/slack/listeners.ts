/**
 * The schedules' thin listeners: `/fleet schedule <report> … at 07:30` (checked, then stored),
 * `/fleet schedules` (the list), `/fleet schedule remove <id>`, and the list's buttons.
 */
import type { WebClient } from "@slack/web-api";
import { parseFleetCommand } from "../../../commands/index.js";
import type { FleetCommand } from "../../../commands/types.js";
import { grammarErrorMessage } from "../../../commands/views/grammarError.js";
import { messages } from "../../../i18n/catalogue.js";
import type { Language } from "../../../i18n/language.js";
import { type Ack, aside, ephemeral, noAccountMessage } from "../../../platform/slack/listeners/responses.js";
import type { SlackMessage } from "../../../platform/slack/views/message.js";
import { noticeMessage } from "../../../platform/slack/views/notice.js";
import type { ReportSchedule } from "../../../platform/store/contract/schedules.js";
import type { ScheduleDeps } from "../../context.js";
import type { ButtonArgs } from "../../featureListeners.js";
import { reportTaskParams, unresolvedVehicles } from "../../reports/index.js";
import type { ScheduleLimit } from "../limits.js";
import { nextRunAfter } from "../recurrence.js";
import { scheduleListMessage } from "./views/scheduleList.js";
import { commandText, pauseReason, recurrenceText, runTime } from "./views/scheduleText.js";

export interface ScheduleCommandArgs {
  ack: Ack;
  client: WebClient;
  userId: string;
  channelId: string;
  language: Language;
}

type Add = Extract<FleetCommand, { kind: "schedule-add" }>;

/** `/fleet schedule <report> <recurrence> at <HH:MM> [in #channel]`: checked, stored, confirmed. */
export async function addSchedule(args: ScheduleCommandArgs, parsed: Add, deps: ScheduleDeps): Promise<void> {
  const { language, userId } = args;
  const t = messages(language).schedules;
  const say = (text: string) => args.ack(ephemeral(noticeMessage(text)));
  const account = await deps.users.accountOf(userId);
  if (!account) {
    await args.ack(ephemeral(noAccountMessage(language)));
    return;
  }
  const typed = parsed.channel;
  if (typed && typed.id === "") {
    await say(t.channelUnknown({ channel: `#${typed.name ?? ""}` }));
    return;
  }
  const channel = typed?.id ?? args.channelId;
  const channelText = `<#${channel}>`;
  // Typed here: the author is in it. Another channel: only one they are in.
  if (channel !== args.channelId && (await deps.isMember(channel, userId)) === false) {
    await say(t.notMember({ channel: channelText }));
    return;
  }
  const canPost = await deps.canPost(channel);
  if (!canPost.ok) {
    await say(t.botNotInChannel({ channel: channelText, code: canPost.code }));
    return;
  }
  const zone = await deps.users.timeZoneOf(args.client, userId);
  const now = deps.now();
  const report = parseFleetCommand(parsed.report, { timeZone: zone, now: new Date(now) });
  if (!report.ok || report.kind !== "report") return; // the grammar read it as a report already
  // A vehicle the account's list does not know is said now, with the closest plates.
  const cached = await deps.vehicles.peek(account.username, userId);
  const unknown = cached ? unresolvedVehicles(report, cached) : undefined;
  if (unknown) {
    await args.ack(ephemeral(grammarErrorMessage(unknown, undefined, language)));
    return;
  }
  const callsPerRun = deps.plannedCalls({
    kind: "vehicle-report",
    params: reportTaskParams(report, zone),
    account: account.username,
  });
  const limit = await deps.fits(account.username, callsPerRun);
  if (!limit.ok) {
    await say(limitText(limit, language));
    return;
  }
  const nextRunAt = nextRunAfter(parsed.recurrence, zone, now);
  if (nextRunAt === undefined) return;
  const schedule = await deps.schedules.add({
    channel,
    createdBy: userId,
    command: parsed.report,
    recurrence: parsed.recurrence,
    timeZone: zone,
    language,
    nextRunAt,
  });
  await args.ack(
    ephemeral(
      noticeMessage(
        t.added({
          id: schedule.id,
          what: commandText(schedule.command),
          when: recurrenceText(schedule.recurrence, language),
          zone,
          channel: channelText,
          next: runTime(nextRunAt, schedule, language),
        }),
      ),
    ),
  );
}

function limitText(limit: Exclude<ScheduleLimit, { ok: true }>, language: Language): string {
  const t = messages(language).schedules;
  return limit.limit === "workspace"
    ? t.workspaceFull({ count: limit.count, max: limit.max })
    : t.accountFull({ used: limit.used, adding: limit.adding, max: limit.max });
}

/** The channel's schedules, then the user's own in other channels. */
async function listFor(deps: ScheduleDeps, channel: string, userId: string) {
  const [here, own] = await Promise.all([
    deps.schedules.list({ channel }),
    deps.schedules.list({ createdBy: userId }),
  ]);
  return { channel, here, ownElsewhere: own.filter((s) => s.channel !== channel) };
}

/** `/fleet schedules`. */
export async function listSchedules(args: ScheduleCommandArgs, deps: ScheduleDeps): Promise<void> {
  const list = await listFor(deps, args.channelId, args.userId);
  await args.ack(ephemeral(scheduleListMessage(list, args.language)));
}

/** Whether the user may remove or resume it: its author; anyone once its author is gone. */
function mayManage(schedule: ReportSchedule, userId: string): boolean {
  return (
    schedule.createdBy === userId ||
    (schedule.state === "paused" &&
      (schedule.pausedBecause === "unlinked" || schedule.pausedBecause === "left-channel"))
  );
}

/** `/fleet schedule remove <id>`. */
export async function removeSchedule(
  args: ScheduleCommandArgs,
  id: string,
  deps: ScheduleDeps,
): Promise<void> {
  const answer = await removeAnswer(id, args.userId, deps, args.language);
  await args.ack(ephemeral(answer));
}

async function removeAnswer(
  id: string,
  userId: string,
  deps: ScheduleDeps,
  language: Language,
): Promise<SlackMessage> {
  const t = messages(language).schedules;
  const schedule = await deps.schedules.get(id);
  if (!schedule) return noticeMessage(t.notFound({ id }));
  if (!mayManage(schedule, userId))
    return noticeMessage(t.onlyAuthor({ author: `<@${schedule.createdBy}>` }));
  await deps.schedules.remove(id);
  return noticeMessage(t.removed({ id, what: commandText(schedule.command) }));
}

/** The schedule id a list button carries (its value), as stored ids are written. */
function buttonScheduleId(args: ButtonArgs): string {
  return (args.action.value ?? "").toUpperCase().slice(0, 16);
}

/**
 * A list button: the action, then the list shown again in place with what happened above it (the
 * list is the clicking user's own ephemeral message).
 */
async function onListButton(
  args: ButtonArgs,
  deps: ScheduleDeps,
  act: (schedule: ReportSchedule, language: Language) => Promise<string>,
): Promise<void> {
  await args.ack();
  const userId = args.body.user.id;
  const language = await deps.users.languageOf(userId);
  const id = buttonScheduleId(args);
  const schedule = await deps.schedules.get(id);
  const said = schedule ? await act(schedule, language) : messages(language).schedules.notFound({ id });
  const channel = args.body.channel?.id;
  if (!channel) {
    await args.respond(aside(noticeMessage(said)));
    return;
  }
  const list = scheduleListMessage(await listFor(deps, channel, userId), language);
  const notice = noticeMessage(said);
  await args.respond({
    replace_original: true,
    response_type: "ephemeral",
    text: `${said}\n${list.text}`.slice(0, 3000),
    blocks: [...notice.blocks, ...list.blocks].slice(0, 50),
  });
}

export function pauseButton(args: ButtonArgs, deps: ScheduleDeps): Promise<void> {
  return onListButton(args, deps, async (schedule, language) => {
    await deps.schedules.setState(schedule.id, { state: "paused", because: "user" });
    return messages(language).schedules.pausedNow({ id: schedule.id });
  });
}

export function resumeButton(args: ButtonArgs, deps: ScheduleDeps): Promise<void> {
  return onListButton(args, deps, async (schedule, language) => {
    const t = messages(language).schedules;
    const userId = args.body.user.id;
    if (!mayManage(schedule, userId) && schedule.pausedBecause !== "user")
      return t.onlyAuthor({ author: `<@${schedule.createdBy}>` });
    // From now: runs missed while paused are not made.
    const nextRunAt = nextRunAfter(schedule.recurrence, schedule.timeZone, deps.now());
    if (nextRunAt === undefined) return t.notFound({ id: schedule.id });
    await deps.schedules.setState(schedule.id, { state: "active", nextRunAt });
    return t.resumedNow({ id: schedule.id, next: runTime(nextRunAt, schedule, language) });
  });
}

export function runNowButton(args: ButtonArgs, deps: ScheduleDeps): Promise<void> {
  return onListButton(args, deps, async (schedule, language) => {
    const t = messages(language).schedules;
    const started = await deps.runNow(schedule, args.body.user.id);
    if (started.ok) return t.runQueued({ id: schedule.id, channel: `<#${schedule.channel}>` });
    // Said as the pause would say it: the author's account or the channel is what stops it.
    const refusal = started.refusal;
    return refusal === "unlinked" || refusal === "left-channel" || refusal === "bot-not-in-channel"
      ? `${t.runNow()}: ${pauseReason(refusal, language)}`
      : t.notFound({ id: schedule.id });
  });
}

export function removeButton(args: ButtonArgs, deps: ScheduleDeps): Promise<void> {
  return onListButton(args, deps, async (schedule, language) => {
    const answer = await removeAnswer(schedule.id, args.body.user.id, deps, language);
    return answer.text;
  });
}
