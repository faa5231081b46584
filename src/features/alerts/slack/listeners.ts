import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from "@slack/bolt";
import type { Block } from "@slack/types";
import type { WebClient } from "@slack/web-api";
import type { AlertCode, AlertSubscribeOptions, ChannelRef } from "../../../commands/types.js";
import { messages } from "../../../i18n/catalogue.js";
import type { Language } from "../../../i18n/language.js";
import {
  type Ack,
  aside,
  ephemeral,
  noAccountMessage,
  notYoursAnswer,
} from "../../../platform/slack/listeners/responses.js";
import { withTimeout } from "../../../platform/time/withTimeout.js";
import type { AlertDeps } from "../../context.js";
import { InvalidAlertFilterError } from "../subscriptions.js";
import {
  type AlertMuteValue,
  alertBlocksWithMute,
  alertBlocksWithoutMute,
  alertLanguageOf,
  alertMutedMessage,
  alertUnmutedMessage,
  parseAlertMuteValue,
} from "./views/mute.js";
import {
  alertFilterErrorMessage,
  subscriptionChangedMessage,
  subscriptionRefusalMessage,
} from "./views/subscriptionAnswers.js";
import { subscriptionListMessage } from "./views/subscriptionList.js";

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

/**
 * `/fleet alerts subscribe`'s options and the text without them, as the grammar reads them
 * (parseFleetCommand reads them itself; this is the same reading, apart).
 */
export { alertOptions } from "../../../commands/alerts.js";

/**
 * The ids of the channel names typed in `alerts subscribe|unsubscribe #general` (the grammar
 * lists them: alertChannelChange), looked up one after the other. A name not found, or a lookup
 * that fails or runs out of time (this happens before the ack), is left out, and the grammar says
 * how to pick the channel.
 */
export async function channelIdsOf(
  names: readonly string[],
  channelIdByName: (name: string) => Promise<string | undefined>,
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const name of names) {
    const id = await channelIdByName(name).catch(() => undefined);
    if (id) ids.set(name, id);
  }
  return ids;
}

/**
 * The id of a channel the bot can see, by name: conversations.list page by page (public and
 * the private ones it is in, archived left out) until found, within `budgetMs` in all.
 */
export async function channelIdByName(
  client: Pick<WebClient, "conversations">,
  name: string,
  budgetMs = 1500,
): Promise<string | undefined> {
  const search = async (): Promise<string | undefined> => {
    let cursor: string | undefined;
    do {
      const page = await client.conversations.list({
        types: "public_channel,private_channel",
        exclude_archived: true,
        limit: 1000,
        ...(cursor ? { cursor } : {}),
      });
      const found = page.channels?.find((c) => c.name?.toLowerCase() === name);
      if (found?.id) return found.id;
      cursor = page.response_metadata?.next_cursor || undefined;
    } while (cursor);
    return undefined;
  };
  return await withTimeout(search(), budgetMs, undefined);
}

/** What an alerts command has: who typed it, and in which channel. */
export interface AlertCommandArgs {
  ack: Ack;
  userId: string;
  channelId: string;
  /** The user's language when the command already resolved it (once per request); else looked up here. */
  language?: Language;
}

/** `/fleet alerts list`: the channels that receive the account's alerts, with their last failure. */
export async function listAlerts(args: AlertCommandArgs, deps: AlertDeps): Promise<void> {
  const [language, account] = await Promise.all([
    args.language ?? deps.users.languageOf(args.userId),
    deps.users.accountOf(args.userId),
  ]);
  if (!account) {
    await args.ack(ephemeral(noAccountMessage(language)));
    return;
  }
  const list = await deps.subscriptions.list({ account: account.username });
  const failures: Record<string, NonNullable<Awaited<ReturnType<AlertDeps["lastFailure"]>>>> = {};
  for (const sub of list) {
    const failure = await deps.lastFailure(sub.channel);
    if (failure) failures[sub.channel] = failure;
  }
  await args.ack(ephemeral(subscriptionListMessage(list, { failures }, language)));
}

/**
 * Whether the user may change another channel's alerts: the channel the command came from,
 * or one they are a member of. A refusal is said to them; nothing is changed.
 */
async function mayChangeChannel(
  args: AlertCommandArgs,
  channel: string,
  deps: AlertDeps,
  language: Language,
): Promise<boolean> {
  if (channel === args.channelId) return true;
  const member = await deps.isMember(channel, args.userId);
  if (member) return true;
  const refusal = member === false ? "not-member" : "membership-unknown";
  await args.ack(ephemeral(subscriptionRefusalMessage({ refusal, channel }, language)));
  return false;
}

/** The answer when a command would change the subscription the configuration made. */
const CONFIGURED = (channel: string, language: Language) =>
  ephemeral(subscriptionRefusalMessage({ refusal: "configured", channel }, language));

/** `/fleet alerts unsubscribe [#channel]`. */
export async function unsubscribeAlerts(
  args: AlertCommandArgs & { channel?: ChannelRef },
  deps: AlertDeps,
): Promise<void> {
  const [language, account] = await Promise.all([
    args.language ?? deps.users.languageOf(args.userId),
    deps.users.accountOf(args.userId),
  ]);
  if (!account) {
    await args.ack(ephemeral(noAccountMessage(language)));
    return;
  }
  const channel = args.channel?.id ?? args.channelId;
  if (!(await mayChangeChannel(args, channel, deps, language))) return;
  if (deps.subscriptions.isConfigured(channel, account.username)) {
    await args.ack(CONFIGURED(channel, language));
    return;
  }
  const removed = await deps.subscriptions.unsubscribe(channel, account.username);
  await args.ack(
    ephemeral(
      subscriptionChangedMessage(
        removed > 0 ? "unsubscribed" : "not-subscribed",
        { channel, account: account.username },
        language,
      ),
    ),
  );
}

/** `/fleet alerts subscribe [#channel] [codes…] [min=…] [exclude=…] [vehicles=…] [stale=…] [lang=…]`. */
export async function subscribeAlerts(
  args: AlertCommandArgs & { channel?: ChannelRef; codes: AlertCode[]; options: AlertSubscribeOptions },
  deps: AlertDeps,
): Promise<void> {
  const [language, account] = await Promise.all([
    args.language ?? deps.users.languageOf(args.userId),
    deps.users.accountOf(args.userId),
  ]);
  if (!account) {
    await args.ack(ephemeral(noAccountMessage(language)));
    return;
  }
  const channel = args.channel?.id ?? args.channelId;
  const check = await deps.checkChannel(channel);
  if (!check.ok) {
    await args.ack(
      ephemeral(subscriptionRefusalMessage({ refusal: "cannot-post", channel, code: check.code }, language)),
    );
    return;
  }
  if (!(await mayChangeChannel(args, channel, deps, language))) return;
  if (deps.subscriptions.isConfigured(channel, account.username)) {
    await args.ack(CONFIGURED(channel, language));
    return;
  }
  try {
    const { subscription, created } = await deps.subscriptions.subscribe(
      channel,
      account.username,
      args.userId,
      {
        codes: args.codes,
        ...args.options,
      },
    );
    await args.ack(
      ephemeral(subscriptionChangedMessage(created ? "subscribed" : "updated", subscription, language)),
    );
  } catch (error) {
    if (!(error instanceof InvalidAlertFilterError)) throw error;
    await args.ack(ephemeral(alertFilterErrorMessage(error.detail, language)));
  }
}

/**
 * The Mute or Unmute button's value, when the clicking user may change that mute: only from
 * the channel the alert is in, and only for a user whose fleet account the alert was about.
 * Otherwise the user is told it is not theirs.
 */
async function mutableAlert(
  { action, body, respond }: Pick<ButtonArgs, "action" | "body" | "respond">,
  deps: AlertDeps,
  language: Language,
): Promise<AlertMuteValue | undefined> {
  const value = parseAlertMuteValue(action.value);
  if (!value) return undefined;
  const account = await deps.users.accountOf(body.user.id);
  if (
    body.channel?.id !== value.c ||
    !account ||
    !(await deps.subscriptions.canMute(value.c, value.u, account.username))
  ) {
    await respond(notYoursAnswer(language));
    return undefined;
  }
  return value;
}

/** An alert's Mute button: that vehicle's alerts in that channel pause for a while. */
export async function alertMute(args: ButtonArgs, deps: AlertDeps): Promise<void> {
  const { ack, body, respond, client } = args;
  await ack();
  // The answer is the clicker's, in their own language; the line on the alert stays in the alert's.
  const language = await deps.users.languageOf(body.user.id);
  const value = await mutableAlert(args, deps, language);
  if (!value) return;
  const mute = await deps.subscriptions.mute(value.c, value.u);
  const zone = await deps.users.timeZoneOf(client, body.user.id);
  await showOnAlert({ client, body }, value.c, (blocks) =>
    alertBlocksWithMute(blocks, { userId: body.user.id, until: mute.until, timeZone: zone }),
  );
  await respond(aside(alertMutedMessage(value.u, value.c, mute.until, zone, language)));
}

/** The Unmute button of a muted alert: that vehicle's alerts in that channel are posted again. */
export async function alertUnmute(args: ButtonArgs, deps: AlertDeps): Promise<void> {
  const { ack, body, respond, client } = args;
  await ack();
  const language = await deps.users.languageOf(body.user.id);
  const value = await mutableAlert(args, deps, language);
  if (!value) return;
  await deps.subscriptions.unmute(value.c, value.u);
  await showOnAlert({ client, body }, value.c, (blocks) =>
    alertBlocksWithoutMute(blocks, { userId: body.user.id }),
  );
  await respond(aside(alertUnmutedMessage(value.u, value.c, language)));
}

/**
 * The channel sees a mute or an unmute: the clicked alert is edited to carry a "muted until …
 * by @…" (or "unmuted by @…") line, the rest unchanged. Only the alert in that channel is
 * edited; if Slack refuses (the message was deleted, or is not the bot's), the change stands
 * and the clicker is still told.
 */
async function showOnAlert(
  { client, body }: Pick<ButtonArgs, "client" | "body">,
  channel: string,
  change: (blocks: Block[]) => Block[],
): Promise<void> {
  const message = body.message;
  const blocks: unknown = message?.blocks;
  if (!message || body.channel?.id !== channel || !Array.isArray(blocks)) return;
  const shown = change(blocks.filter(isBlock));
  const text =
    typeof message.text === "string"
      ? message.text
      : messages(alertLanguageOf(blocks.filter(isBlock))).alerts.alertFallbackText();
  await client.chat.update({ channel, ts: message.ts, text, blocks: shown }).catch(() => undefined);
}

function isBlock(value: unknown): value is Block {
  return typeof value === "object" && value !== null && "type" in value && typeof value.type === "string";
}
