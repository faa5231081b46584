/**
 * English, scheduled reports (`/fleet schedule`): what is wrong with a schedule command. Values
 * are inserted as given: escape user text for mrkdwn before passing it.
 */
import { plural } from "../plural.js";

export const schedules = {
  time: ({ given }: { given: string }) =>
    `Say when it runs, at the end: \`at 07:30\` (24-hour clock)${given ? `, not ${given}` : ""}.`,
  recurrence: ({ given }: { given: string }) =>
    `How often? Before the time: \`every day\`, \`every weekday\`, \`every monday\` or \`every month on 1\`${given ? ` (not ${given})` : ""}.`,
  day: ({ given }: { given: string }) =>
    `${given} is not a day of the month: 1 to 31 (a shorter month runs on its last day).`,
  report: () =>
    "Which report? Put the report command first, as you would type it after `/fleet`: `fuel all yesterday`.",
  notAReport: ({ given }: { given: string }) =>
    `${given} is not a report: only a report can be scheduled (fuel, stops, route, refills, temps, where, vehicles), with its vehicles.`,
  id: ({ given }: { given: string }) =>
    `Give the schedule's id, as \`/fleet schedules\` shows it${given ? `, not ${given}` : ""}.`,

  // How often, as the list and the answers say it.
  everyDay: ({ time }: { time: string }) => `every day at ${time}`,
  everyWeekday: ({ time }: { time: string }) => `every weekday (Monday to Friday) at ${time}`,
  everyWeek: ({ weekday, time }: { weekday: number; time: string }) =>
    `every ${WEEKDAYS[weekday] ?? "week"} at ${time}`,
  everyMonth: ({ day, time }: { day: number; time: string }) =>
    `every month on the ${ordinal(day)} at ${time}${day > 28 ? " (a shorter month: on its last day)" : ""}`,

  // Making one.
  added: ({ id, what, when, zone, channel, next }: Sched & { zone: string; next: string }) =>
    `Scheduled \`${what}\` ${when} (${zone}) in ${channel}, id \`${id}\`. Next run: ${next}. \`/fleet schedules\` lists it, with Pause, Run now and Remove.`,
  noAccount: () =>
    "A scheduled report runs as your fleet account: link it first with `/fleet login`, then schedule again.",
  notMember: ({ channel }: { channel: string }) =>
    `You are not a member of ${channel}: a schedule posts where its author reads. Join it, or schedule into a channel you are in.`,
  botNotInChannel: ({ channel, code }: { channel: string; code: string }) =>
    `fleetbot cannot post in ${channel} (${code}). Invite it with \`/invite @fleetbot\` there, then schedule again.`,
  channelUnknown: ({ channel }: { channel: string }) =>
    `Slack does not know a channel ${channel} that fleetbot can see. Type the command in the channel itself, or pick it with # so Slack links it.`,
  workspaceFull: ({ count, max }: { count: number; max: number }) =>
    `This workspace has ${count} scheduled reports, the most it may have is ${max}. Remove one first (\`/fleet schedules\`).`,
  accountFull: ({ used, adding, max }: { used: number; adding: number; max: number }) =>
    `That is too much for the fleet account: its schedules already take ${used} of the ${max} requests a day they may use (half of what the service allows; the rest is for people's lookups), and this one needs ${adding} a run. Narrow it (fewer vehicles, a shorter period) or remove another schedule.`,

  // The list.
  listTitle: ({ channel }: { channel: string }) => `Scheduled reports in ${channel}`,
  listEmpty: ({ example }: { example: string }) =>
    `No scheduled reports here yet. For yesterday's fuel every morning: \`${example}\``,
  ownElsewhere: () => "Yours, in other channels",
  item: ({ id, what, when, channel, author }: Sched & { author: string }) =>
    `\`${id}\` · \`${what}\` · ${when} · ${channel} · by ${author}`,
  nextRun: ({ at }: { at: string }) => `Next run ${at}`,
  lastOk: ({ at }: { at: string }) => `last run ${at}: posted`,
  lastFailed: ({ at, count }: { at: string; count: number }) =>
    `last run ${at}: failed${count > 1 ? ` (${count} in a row; 3 pause it)` : ""}`,
  lastSkipped: ({ count }: { count: number }) =>
    `${plural("en", count, { one: "last run", other: `last ${count} runs` })} skipped (fleetbot was down more than 12 hours)`,
  neverRun: () => "not run yet",
  pausedBecause: ({ reason }: { reason: string }) => `Paused: ${reason}`,
  reasonUser: () => "someone pressed Pause",
  reasonUnlinked: () => "its author has no fleet account linked any more",
  reasonLeftChannel: () => "its author is no longer in the channel",
  reasonBotNotInChannel: () => "fleetbot can no longer post in the channel",
  reasonFailures: () => "its last 3 runs failed",
  pause: () => "Pause",
  resume: () => "Resume",
  runNow: () => "Run now",
  remove: () => "Remove",
  removeConfirmTitle: () => "Remove the schedule?",
  removeConfirmText: ({ what, when }: { what: string; when: string }) =>
    `\`${what}\` ${when} will no longer be posted.`,
  removeConfirmYes: () => "Remove",
  cancel: () => "Cancel",

  // Answers to the list's buttons and to `/fleet schedule remove`.
  removed: ({ id, what }: { id: string; what: string }) => `Removed schedule \`${id}\` (\`${what}\`).`,
  notFound: ({ id }: { id: string }) =>
    `There is no schedule \`${id}\` in this workspace. \`/fleet schedules\` lists them.`,
  onlyAuthor: ({ author }: { author: string }) =>
    `Only its author, ${author}, can remove or resume this schedule: it runs as their fleet account.`,
  pausedNow: ({ id }: { id: string }) => `Schedule \`${id}\` paused: nothing is posted until it is resumed.`,
  resumedNow: ({ id, next }: { id: string; next: string }) =>
    `Schedule \`${id}\` resumed. Next run: ${next}.`,
  runQueued: ({ id, channel }: { id: string; channel: string }) =>
    `Running schedule \`${id}\` now: the report will be posted in ${channel}.`,

  // The post's footnote.
  byline: ({ author, next }: { author: string; next: string }) =>
    `Scheduled by ${author} · next run ${next} · \`/fleet schedules\``,
  bylineRunNow: ({ author, by }: { author: string; by: string }) =>
    `Scheduled by ${author} · run now by ${by}`,
  late: ({ due }: { due: string }) => `Late: due ${due}, when fleetbot was not running.`,
  missed: ({ count }: { count: number }) =>
    `${plural("en", count, { one: "One earlier run was", other: `${count} earlier runs were` })} missed while fleetbot was down (more than 12 hours ago).`,

  // The author's direct message when a schedule pauses itself.
  pausedDm: ({
    what,
    when,
    channel,
    reason,
  }: {
    what: string;
    when: string;
    channel: string;
    reason: string;
  }) => `Your scheduled report \`${what}\` (${when}) in ${channel} is paused: ${reason}.`,
  pausedDmFix: ({ fix }: { fix: string }) => `${fix} Then press Resume in \`/fleet schedules\` there.`,
  fixUnlinked: () => "Link your fleet account again with `/fleet login`.",
  fixLeftChannel: () => "Join the channel again.",
  fixBotNotInChannel: () => "Invite fleetbot to the channel with `/invite @fleetbot`.",
  fixFailures: () => "Each failure was sent to you; try the report by hand to see what it says.",
};

type Sched = { id: string; what: string; when: string; channel: string };

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

function ordinal(day: number): string {
  const tens = day % 100;
  if (tens >= 11 && tens <= 13) return `${day}th`;
  return `${day}${["th", "st", "nd", "rd"][day % 10] ?? "th"}`;
}
