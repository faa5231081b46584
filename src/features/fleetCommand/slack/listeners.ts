import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from "@slack/bolt";
import { examplesFor, helpText, withVehicles } from "../../../commands/help.js";
import { alertChannelChange, parseFleetCommand, scheduleChange } from "../../../commands/index.js";
import type { FleetCommand } from "../../../commands/types.js";
import { grammarErrorMessage } from "../../../commands/views/grammarError.js";
import { helpMessage } from "../../../commands/views/help.js";
import { messages } from "../../../i18n/catalogue.js";
import type { Language } from "../../../i18n/language.js";
import { assertNever } from "../../../platform/assertNever.js";
import { replyFromCommand } from "../../../platform/slack/listeners/replyTargets.js";
import { type Ack, ephemeral } from "../../../platform/slack/listeners/responses.js";
import { noticeMessage } from "../../../platform/slack/views/notice.js";
import { languageCommand, login, loginWorkspace, logout, whoami } from "../../account/index.js";
import {
  channelIdByName,
  channelIdsOf,
  listAlerts,
  subscribeAlerts,
  unsubscribeAlerts,
  zonesCommand,
} from "../../alerts/index.js";
import type { ListenerDeps } from "../../context.js";
import { showQueue } from "../../queue/index.js";
import { openReportModal, type ReportCommandArgs, runReport } from "../../reports/index.js";
import { addSchedule, listSchedules, removeSchedule } from "../../schedules/index.js";

type CommandArgs = SlackCommandMiddlewareArgs & AllMiddlewareArgs;

/** /fleet: parse, then the command's family acknowledges at once and leaves the work to a task. */
export async function fleetCommand(
  { command, ack: slackAck, client, respond }: CommandArgs,
  deps: ListenerDeps,
): Promise<void> {
  // No Web API call before the ack: the zone known now; the task settles it (tasks/handlers/userZone.ts).
  const zone = deps.reports.users.zoneAtAck(command.user_id);
  // Changing a channel's alerts, or scheduling a report, asks Slack (a typed #name, membership,
  // can the bot post there, the author's zone): those commands are acknowledged first, and
  // answered through the response_url.
  const channelChange = alertChannelChange(command.text) ?? scheduleChange(command.text);
  if (channelChange) await slackAck();
  const ack: Ack = channelChange
    ? async (answer) => {
        if (answer !== undefined) await respond(answer);
      }
    : slackAck;
  // The user's language, resolved once for the whole command (its answers and its task's reply).
  const language = await deps.reports.users.languageOf(command.user_id);
  const channelIds = await channelIdsOf(channelChange?.typedChannels ?? [], (name) =>
    channelIdByName(client, name),
  );
  const parsed = parseFleetCommand(command.text, {
    timeZone: zone,
    now: new Date(deps.reports.now()),
    channelIds,
  });
  if (!parsed.ok) {
    // An alert option's answer names its own example: no vehicle of the user's to put in it.
    const examples =
      parsed.problem.code === "alertOption" ? undefined : await examplesFor(deps.reports, command.user_id);
    // The example that works names one of the user's own vehicles, not a made-up plate.
    const error = { ...parsed, example: withVehicles(parsed.example, examples) };
    await ack(ephemeral(grammarErrorMessage(error, helpText("fleet", examples, language), language)));
    return;
  }
  const args: ReportCommandArgs = {
    ack,
    client,
    userId: command.user_id,
    channelId: command.channel_id,
    triggerId: command.trigger_id,
    reply: replyFromCommand(command, deps.reports.now(), language),
    zone,
    language,
  };
  await dispatchFleetCommand(parsed, args, deps);
}

/** Every /fleet command to its family; the compiler names a command left out. */
async function dispatchFleetCommand(
  parsed: FleetCommand,
  args: ReportCommandArgs,
  deps: ListenerDeps,
): Promise<void> {
  const alertArgs = {
    ack: args.ack,
    userId: args.userId,
    channelId: args.channelId,
    language: args.language,
  };
  switch (parsed.kind) {
    case "help": {
      const language = args.language;
      const examples = await examplesFor(deps.reports, args.userId);
      await args.ack(
        ephemeral(
          helpMessage(helpText("fleet", examples, language), undefined, messages(language).help.title()),
        ),
      );
      return;
    }
    case "login":
      return parsed.workspace ? loginWorkspace(args, deps.account) : login(args, deps.account);
    case "logout":
      return logout(args, deps.account);
    case "whoami":
      return whoami(args, deps.account);
    case "queue":
      return showQueue(args, deps.queue);
    case "modal":
      return openReportModal(args, parsed, deps.reports);
    case "report":
      return runReport(args, parsed, deps.reports);
    case "alerts-list":
      return listAlerts(alertArgs, deps.alerts);
    case "alerts-unsubscribe":
      return unsubscribeAlerts({ ...alertArgs, channel: parsed.channel }, deps.alerts);
    case "alerts-subscribe":
      return subscribeAlerts(
        { ...alertArgs, channel: parsed.channel, codes: parsed.codes, options: parsed.options },
        deps.alerts,
      );
    case "zones-list":
    case "zones-add":
    case "zones-remove":
      return zonesCommand(alertArgs, parsed, deps.alerts);
    case "language":
      return languageCommand(args, parsed, deps.language);
    case "schedule-add":
      return addSchedule(args, parsed, deps.schedules);
    case "schedule-list":
      return listSchedules(args, deps.schedules);
    case "schedule-remove":
      return removeSchedule(args, parsed.id, deps.schedules);
    default:
      return unknownCommand(parsed, args);
  }
}

/** A command the grammar gave but no family handles: the compiler stops it, and at run time it is still acknowledged. */
async function unknownCommand(parsed: never, args: { ack: Ack; language: Language }): Promise<void> {
  const t = messages(args.language).tasks;
  await args.ack(ephemeral(noticeMessage(t.commandUnavailable(), t.commandUnavailableDetail())));
  assertNever(parsed, "/fleet command");
}
