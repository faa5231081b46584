/** /fleet alerts list: the subscriptions of a channel or a workspace, and why a post failed. */
import type { KnownBlock } from "@slack/types";
import { duration, type Language, messages, number } from "../../../../i18n/index.js";
import { mrkdwn } from "../../../../platform/slack/views/blocks.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import { userText } from "../../../../platform/slack/views/text.js";
import type { AlertSubscription } from "../../../../platform/store/contract/index.js";
import { vehicleKindsOf, WATCH_DEFAULTS } from "../../vehicleWatch/watches.js";

// ---------- subscriptions ----------

export interface SubscriptionListOptions {
  /** The channel's last post failure, if any (AlertRepository.lastFailure). */
  failures?: Readonly<Record<string, { codeUit: string; error: string; attempts: number } | undefined>>;
}

/**
 * A subscription in words, in the reader's language: channel and account (left out where the
 * sentence already names them), filters, language, who made it.
 */
export function describeSubscription(s: AlertSubscription, lang: Language, withChannel = true): string {
  const m = messages(lang).alerts;
  const minutes = (n: number) => duration(lang, n * 60_000);
  const parts = withChannel
    ? [m.subscriptionChannelAs({ channel: `<#${s.channel}>`, account: userText(s.account, 60) })]
    : [];
  parts.push(
    s.codes.length > 0
      ? m.subscriptionCodes({ codes: s.codes.map((c) => userText(c, 40)).join(", ") })
      : m.subscriptionEveryKind(),
  );
  parts.push(...watchParts(s, lang));
  if (s.excludeCodes.length > 0)
    parts.push(m.subscriptionExcept({ codes: s.excludeCodes.map((c) => userText(c, 40)).join(", ") }));
  if (s.vehicles.length > 0) {
    const shown = s.vehicles.slice(0, 10).map((v) => userText(v, 40));
    parts.push(
      m.subscriptionVehicles({ vehicles: shown.join(", "), more: Math.max(0, s.vehicles.length - 10) }),
    );
  }
  if (s.minDurationMinutes > 0) parts.push(m.subscriptionAfter({ duration: minutes(s.minDurationMinutes) }));
  parts.push(
    s.staleMinutes > 0
      ? m.subscriptionStalledAfter({ duration: minutes(s.staleMinutes) })
      : m.subscriptionNoStalled(),
  );
  parts.push(
    s.language === undefined
      ? m.subscriptionWorkspaceLanguage()
      : m.subscriptionLanguage({ language: messages(lang).common.languageName(s.language) }),
  );
  parts.push(
    s.createdBy ? m.subscriptionBy({ user: `<@${s.createdBy}>` }) : m.subscriptionWorkspaceAccount(),
  );
  return parts.join(" · ");
}

/** The vehicle kinds a subscription names, each with its thresholds (the defaults when none given). */
function watchParts(s: AlertSubscription, lang: Language): string[] {
  const w = messages(lang).vehicleWatch;
  const o = s.watch;
  const minutes = (n: number) => duration(lang, n * 60_000);
  const num = (n: number) => number(lang, n, { maxFractionDigits: 1 });
  return vehicleKindsOf(s).map((kind) => {
    switch (kind) {
      case "powercut":
        return w.watchPowerCut({ volts: num(o.volts ?? WATCH_DEFAULTS.volts) });
      case "zone":
        return o.zones && o.zones.length > 0
          ? w.watchZones({ zones: o.zones.map((z) => userText(z, 40)).join(", ") })
          : w.watchEveryZone();
      case "idle":
        return w.watchIdle({ duration: minutes(o.idleMinutes ?? WATCH_DEFAULTS.idleMinutes) });
      case "speeding":
        return w.watchSpeeding({ kmh: num(o.speedKmh ?? WATCH_DEFAULTS.speedKmh) });
      case "offline":
        return w.watchOffline({ duration: minutes(o.offlineMinutes ?? WATCH_DEFAULTS.offlineMinutes) });
      case "towed":
        return w.watchTowed();
      case "afterhours":
        return w.watchAfterHours({ hours: (o.hours ?? WATCH_DEFAULTS.hours).replace("-", "–") });
      default:
        return w.watchTemperature({
          min: num(o.tempMin ?? 0),
          max: num(o.tempMax ?? 0),
          duration: minutes(o.tempForMinutes ?? WATCH_DEFAULTS.tempForMinutes),
        });
    }
  });
}

/**
 * A post's last failure in words: stored as a code (publisher.ts storedFailure). A row stored
 * before codes holds its English words, shown as they are.
 */
export function postFailureText(lang: Language, stored: string): string {
  const m = messages(lang).alerts;
  const [failure, code] = stored.split(":", 2);
  switch (failure) {
    case "ratelimited":
      return m.failureRateLimited();
    case "message_gone":
      return m.failureMessageGone();
    case "channel":
      switch (code) {
        case "not_in_channel":
          return m.failureNotInChannel();
        case "channel_not_found":
          return m.failureChannelNotFound();
        case "is_archived":
          return m.failureArchived();
        case "restricted_action":
          return m.failureRestricted();
        case "missing_scope":
          return m.failureMissingScope();
        default:
          return m.failureSlackRefused({ code: code ?? failure });
      }
    case "other":
      return code === undefined || code.startsWith("slack_webapi_")
        ? m.failureOther()
        : m.failureSlackRefused({ code });
    default:
      return stored;
  }
}

/** Room for the list's lines: Slack refuses about 12,000 characters of block text. */
const SUBSCRIPTION_LIST_BUDGET = 10_000;

/**
 * `/fleet alerts list`: the subscriptions, their filters, and a channel's last failure, in the
 * language of the user who asked (`language`, resolved once by the listener).
 */
export function subscriptionListMessage(
  subscriptions: readonly AlertSubscription[],
  opts: SubscriptionListOptions = {},
  language: Language,
): SlackMessage {
  const m = messages(language).alerts;
  if (subscriptions.length === 0) {
    const text = m.subscriptionsNone();
    return { text, blocks: [{ type: "section", block_id: "alert.subs.empty", text: mrkdwn(text) }] };
  }
  const lines: string[] = [];
  // At most 40, and within Slack's ~12,000 characters of block text (Romanian is longer).
  let used = 0;
  for (const s of subscriptions.slice(0, 40)) {
    let line = `• ${describeSubscription(s, language)}`;
    const failure = opts.failures?.[s.channel];
    if (failure) {
      line += `\n   ${m.subscriptionLastFailed({
        attempts: failure.attempts,
        error: userText(postFailureText(language, failure.error), 200),
      })}`;
    }
    if (used + line.length + 1 > SUBSCRIPTION_LIST_BUDGET) break;
    used += line.length + 1;
    lines.push(line);
  }
  if (subscriptions.length > lines.length)
    lines.push(m.subscriptionsMore(subscriptions.length - lines.length));
  const blocks: KnownBlock[] = [];
  let chunk = "";
  for (const line of lines) {
    if (chunk.length + line.length + 1 > 2900) {
      blocks.push({ type: "section", block_id: `alert.subs.${blocks.length}`, text: mrkdwn(chunk) });
      chunk = "";
    }
    chunk = chunk ? `${chunk}\n${line}` : line;
  }
  if (chunk) blocks.push({ type: "section", block_id: `alert.subs.${blocks.length}`, text: mrkdwn(chunk) });
  return { text: m.subscriptionsText(subscriptions.length), blocks };
}
