import type { App, RespondArguments, SlashCommand } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import { InvalidAlertFilterError } from "../../alerts/subscriptions.js";
import type { Priority } from "../../fleet/seam.js";
import type { VehicleReportParams } from "../../tasks/handlers/vehicleData.js";
import type { ReplyTarget } from "../../tasks/task.js";
import type { SlackContext } from "../context.js";
import { helpText } from "../grammar/help.js";
import { parseFleetCommand } from "../grammar/index.js";
import type { FleetCommand, Period, ReportPrefill } from "../grammar/types.js";
import { subscriptionChangedMessage, subscriptionListMessage } from "../views/alerts.js";
import {
  grammarErrorMessage,
  helpMessage,
  loginModal,
  noticeMessage,
  queueMessage,
  reportModal,
} from "../views/common.js";
import type { SlackMessage } from "../views/message.js";
import { queuedMessage, submitAndAcknowledge } from "./acknowledge.js";
import { queueEntries } from "./queue.js";

type Ack = (response?: string | RespondArguments) => Promise<void>;

const ephemeral = (message: SlackMessage): RespondArguments => ({ response_type: "ephemeral", ...message });

const NO_ACCOUNT = noticeMessage(
  "You have not linked a fleet account, and this workspace has none configured.",
  "Link yours with /fleet login.",
);

export function replyFromCommand(command: SlashCommand, now: number): ReplyTarget {
  return {
    responseUrl: command.response_url,
    responseUrlIssuedAt: now,
    responseUrlUses: 0,
    channel: command.channel_id,
    teamId: command.team_id,
  };
}

/** Where to answer a button click: its response_url (which can replace the clicked message). */
export function replyFromAction(
  body: { response_url?: string; channel?: { id: string } },
  now: number,
): ReplyTarget {
  return body.response_url
    ? {
        responseUrl: body.response_url,
        responseUrlIssuedAt: now,
        responseUrlUses: 0,
        channel: body.channel?.id,
      }
    : { channel: body.channel?.id };
}

/** /fleet: parse, acknowledge at once, and leave the work to a task. */
export function registerFleetCommand(app: App, ctx: SlackContext): void {
  app.command("/fleet", async ({ command, ack, client }) => {
    const zone = await ctx.people.timeZoneOf(client, command.user_id);
    const { text, options, problem } = alertOptions(command.text);
    if (problem) {
      await ack(
        ephemeral(
          noticeMessage(
            `:warning: ${problem}`,
            "Example: /fleet alerts subscribe Error OldData min=15 exclude=NotInRomania",
          ),
        ),
      );
      return;
    }
    const parsed = parseFleetCommand(text, { timeZone: zone, now: new Date(ctx.now()) });
    if (!parsed.ok) {
      await ack(ephemeral(grammarErrorMessage(parsed, helpText("fleet"))));
      return;
    }
    await handleFleetCommand(parsed, { command, ack, client, ctx, zone, alertFilters: options });
  });
}

interface CommandScope {
  command: SlashCommand;
  ack: Ack;
  client: WebClient;
  ctx: SlackContext;
  zone: string;
  alertFilters?: AlertFilterOptions;
}

interface AlertFilterOptions {
  minDurationMinutes?: number;
  exclude?: string[];
  vehicles?: string[];
}

/**
 * `/fleet alerts subscribe` takes filters the other commands do not: `min=<minutes>` (how long
 * a problem must last before it is posted), `exclude=<codes>` and `vehicles=<plates>`
 * (comma-separated). They are taken out here; the rest goes to the grammar.
 */
export function alertOptions(text: string): { text: string; options?: AlertFilterOptions; problem?: string } {
  if (!/^\s*alerts?\s+subscribe\b/i.test(text)) return { text };
  const options: AlertFilterOptions = {};
  let problem: string | undefined;
  const rest = text.replace(/\b(min|exclude|vehicles)\s*=\s*(\S+)/gi, (_m, key: string, value: string) => {
    const name = key.toLowerCase();
    if (name === "min") {
      const minutes = Number(value);
      if (!Number.isInteger(minutes) || minutes < 0 || minutes > 1440)
        problem = `\`min=${value}\` must be whole minutes from 0 to 1440.`;
      else options.minDurationMinutes = minutes;
    } else {
      const list = value
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean);
      if (name === "exclude") options.exclude = list;
      else options.vehicles = list;
    }
    return " ";
  });
  return { text: rest.replace(/\s+/g, " ").trim(), options, problem };
}

async function handleAlerts(parsed: FleetCommand, scope: CommandScope): Promise<void> {
  const { command, ack, ctx } = scope;
  const account = ctx.people.accountOf(command.user_id);
  if (!account) {
    await ack(ephemeral(NO_ACCOUNT));
    return;
  }
  const { subscriptions, store } = ctx.alerts;
  if (parsed.kind === "alerts-list") {
    const list = subscriptions.list({ account: account.username });
    const failures: Record<string, NonNullable<ReturnType<typeof store.lastFailure>>> = {};
    for (const sub of list) {
      const failure = store.lastFailure(sub.channel);
      if (failure) failures[sub.channel] = failure;
    }
    await ack(ephemeral(subscriptionListMessage(list, { failures })));
    return;
  }
  const channel =
    (parsed.kind === "alerts-subscribe" || parsed.kind === "alerts-unsubscribe"
      ? parsed.channel?.id
      : undefined) ?? command.channel_id;
  if (parsed.kind === "alerts-unsubscribe") {
    const removed = subscriptions.unsubscribe(channel, account.username);
    await ack(
      ephemeral(
        subscriptionChangedMessage(removed > 0 ? "unsubscribed" : "not-subscribed", {
          channel,
          account: account.username,
        }),
      ),
    );
    return;
  }
  if (parsed.kind !== "alerts-subscribe") return;
  const check = await ctx.alerts.checkChannel(channel);
  if (!check.ok) {
    await ack(
      ephemeral(
        noticeMessage(
          `:warning: ${check.reason}`,
          "Invite fleetbot with /invite @fleetbot, then subscribe again.",
        ),
      ),
    );
    return;
  }
  try {
    const { subscription, created } = subscriptions.subscribe(channel, account.username, command.user_id, {
      codes: parsed.codes,
      ...scope.alertFilters,
    });
    await ack(ephemeral(subscriptionChangedMessage(created ? "subscribed" : "updated", subscription)));
  } catch (error) {
    if (error instanceof InvalidAlertFilterError) {
      await ack(
        ephemeral(
          noticeMessage(
            `:warning: ${error.message}`,
            "Example: /fleet alerts subscribe Error OldData min=15",
          ),
        ),
      );
      return;
    }
    throw error;
  }
}

async function handleFleetCommand(parsed: FleetCommand, scope: CommandScope): Promise<void> {
  const { command, ack, client, ctx } = scope;
  const user = command.user_id;
  switch (parsed.kind) {
    case "help":
      await ack(ephemeral(helpMessage(helpText("fleet"))));
      return;
    case "login":
      if (!ctx.accounts.canStore) {
        await ack(
          ephemeral(
            noticeMessage(
              "Linking your own fleet account is not enabled here: the operator has not set CREDENTIALS_KEY.",
              ctx.people.accountOf(user)
                ? "Your commands run as the workspace account meanwhile."
                : undefined,
            ),
          ),
        );
        return;
      }
      await ack();
      await client.views.open({
        trigger_id: command.trigger_id,
        view: loginModal(JSON.stringify({ channel: command.channel_id })),
      });
      return;
    case "logout": {
      const linkedAs = ctx.accounts.usernameOf(user);
      const had = ctx.accounts.unlink(user);
      if (linkedAs) ctx.releaseAccount(linkedAs);
      const fallback = ctx.people.accountOf(user);
      await ack(
        ephemeral(
          noticeMessage(
            had
              ? "Your fleet account is unlinked and its password deleted."
              : "You had no linked fleet account.",
            fallback ? `Your commands now run as the workspace account ${fallback.username}.` : undefined,
          ),
        ),
      );
      return;
    }
    case "whoami": {
      const account = ctx.people.accountOf(user);
      await ack(
        ephemeral(
          account
            ? noticeMessage(
                `Your commands run as the fleet account *${account.username}* (${account.linked ? "linked by you" : "the workspace account"}).`,
                account.linked ? "Unlink with /fleet logout." : "Link your own with /fleet login.",
              )
            : NO_ACCOUNT,
        ),
      );
      return;
    }
    case "queue": {
      const account = ctx.people.accountOf(user);
      if (!account) {
        await ack(ephemeral(NO_ACCOUNT));
        return;
      }
      const entries = await queueEntries(ctx, account.username);
      await ack(ephemeral(queueMessage(account.username, entries, ctx.now())));
      return;
    }
    case "modal": {
      const account = ctx.people.accountOf(user);
      if (!account) {
        await ack(ephemeral(NO_ACCOUNT));
        return;
      }
      await ack();
      ctx.warmVehicles(account.username, user);
      await client.views.open({
        trigger_id: command.trigger_id,
        view: reportModal(
          JSON.stringify({ channel: command.channel_id }),
          modalPrefill(parsed.report, parsed.prefill),
        ),
      });
      return;
    }
    case "alerts-subscribe":
    case "alerts-unsubscribe":
    case "alerts-list":
      await handleAlerts(parsed, scope);
      return;
    case "vehicles":
    case "where":
    case "route":
    case "stops":
    case "fuel":
    case "refills":
    case "temps":
      await submitVehicleReport(scope, reportParams(parsed, scope.zone));
      return;
  }
}

function reportParams(parsed: FleetCommand, zone: string): VehicleReportParams {
  const period = (p: Period) => ({ fromMs: p.from.getTime(), toMs: p.to.getTime(), label: p.label });
  switch (parsed.kind) {
    case "vehicles":
      return { report: "vehicles", refs: [], filter: parsed.filter, timeZone: zone };
    case "where":
      return { report: "where", refs: [parsed.vehicle], timeZone: zone };
    case "route":
    case "refills":
      return { report: parsed.kind, refs: [parsed.vehicle], period: period(parsed.period), timeZone: zone };
    case "stops":
      return {
        report: "stops",
        refs: parsed.vehicles,
        period: period(parsed.period),
        minMinutes: parsed.minMinutes,
        timeZone: zone,
      };
    case "fuel":
    case "temps":
      return { report: parsed.kind, refs: parsed.vehicles, period: period(parsed.period), timeZone: zone };
    default:
      throw new Error(`not a vehicle report: ${parsed.kind}`);
  }
}

export async function submitVehicleReport(
  scope: Pick<CommandScope, "command" | "ack" | "ctx">,
  params: VehicleReportParams,
): Promise<void> {
  const { command, ack, ctx } = scope;
  const account = ctx.people.accountOf(command.user_id);
  if (!account) {
    await ack(ephemeral(NO_ACCOUNT));
    return;
  }
  const priority: Priority =
    params.report === "where" || params.report === "vehicles" ? "interactive" : "report";
  await submitAndAcknowledge(
    ctx,
    {
      kind: "vehicle-report",
      params,
      account: account.username,
      slackUser: command.user_id,
      reply: replyFromCommand(command, ctx.now()),
      priority,
    },
    (queued) => ack(ephemeral(queuedMessage(ctx, queued))),
  );
}

function modalPrefill(report: string, prefill: ReportPrefill | undefined) {
  return {
    report: report === "report" ? undefined : report,
    fromDateTime: prefill?.period ? Math.floor(prefill.period.from.getTime() / 1000) : undefined,
    toDateTime: prefill?.period ? Math.floor(prefill.period.to.getTime() / 1000) : undefined,
    minMinutes: prefill?.minMinutes,
  };
}
