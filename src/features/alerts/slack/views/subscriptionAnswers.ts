/** The answers to /fleet alerts subscribe and unsubscribe: done, refused, or an option that cannot be read. */

import type { AlertOptionProblem } from "../../../../commands/alerts.js";
import { alertOptionMessage } from "../../../../commands/views/grammarError.js";
import { type Language, messages } from "../../../../i18n/index.js";
import { mrkdwn } from "../../../../platform/slack/views/blocks.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import { noticeMessage } from "../../../../platform/slack/views/notice.js";
import { fitMrkdwn, userText } from "../../../../platform/slack/views/text.js";
import type { AlertSubscription } from "../../../../platform/store/contract/index.js";
import { ALERT_FILTER_WORDS, INCIDENT_KINDS, TRANSPORT_INCIDENT_KINDS } from "../../incidents.js";
import type { AlertFilterProblem } from "../../subscriptions.js";
import { describeSubscription, postFailureText } from "./subscriptionList.js";

/** Answer to subscribe / unsubscribe, in the language of the user who typed it. */
export function subscriptionChangedMessage(
  change: "subscribed" | "updated" | "unsubscribed" | "not-subscribed",
  subscription: AlertSubscription | { channel: string; account?: string },
  language: Language,
): SlackMessage {
  const m = messages(language).alerts;
  const channel = `<#${subscription.channel}>`;
  const account = subscription.account ? userText(subscription.account, 60) : undefined;
  let text: string;
  switch (change) {
    case "subscribed":
      text = m.subscribed({
        channel,
        account: account ?? "",
        description: describeSubscription(subscription as AlertSubscription, language, false),
      });
      break;
    case "updated":
      text = m.subscriptionUpdated({
        channel,
        account: account ?? "",
        description: describeSubscription(subscription as AlertSubscription, language, false),
      });
      break;
    case "unsubscribed":
      text = account ? m.unsubscribedOf({ channel, account }) : m.unsubscribed({ channel });
      break;
    case "not-subscribed":
      text = account ? m.notSubscribedFor({ channel, account }) : m.notSubscribed({ channel });
      break;
  }
  return {
    text: fitMrkdwn(text, 3000),
    blocks: [{ type: "section", block_id: "alert.subs.changed", text: mrkdwn(fitMrkdwn(text, 2900)) }],
  };
}

/**
 * Why a channel's alerts were not changed, said to the user who asked: they are not a member
 * (or Slack could not say), the configuration owns the subscription (ALERTS_CHANNEL), or
 * fleetbot cannot post there (`code`: Slack's error code, as checkChannel gives it).
 */
export type SubscriptionRefusal =
  | { refusal: "not-member" | "membership-unknown" | "configured"; channel: string }
  | { refusal: "cannot-post"; channel: string; code: string };

export function subscriptionRefusalMessage(refusal: SubscriptionRefusal, language: Language): SlackMessage {
  const m = messages(language).alerts;
  const channel = `<#${refusal.channel}>`;
  switch (refusal.refusal) {
    case "not-member":
      return noticeMessage(m.notChannelMember({ channel }), m.notChannelMemberDetail());
    case "membership-unknown":
      return noticeMessage(m.membershipUnknown({ channel }), m.membershipUnknownDetail());
    case "configured":
      return noticeMessage(m.configuredChannel({ channel }), m.configuredChannelDetail());
    case "cannot-post":
      return noticeMessage(
        `:warning: ${postFailureText(language, `channel:${refusal.code}`)}`,
        m.cannotPostDetail(),
      );
  }
}

/** The filter codes a subscription takes (Error, OldData…), and the kind names, as the refusal lists them. */
const KNOWN_CODES = ALERT_FILTER_WORDS.filter((w) => !(INCIDENT_KINDS as readonly string[]).includes(w));

/** A subscription's filters refused by src/features/alerts/subscriptions.ts, worded, with an example that works. */
export function alertFilterErrorMessage(problem: AlertFilterProblem, language: Language): SlackMessage {
  const m = messages(language).alerts;
  let text: string;
  switch (problem.problem) {
    case "unknown-codes":
      text = m.filterUnknownCodes({
        n: problem.unknownCodes.length,
        codes: problem.unknownCodes.map((c) => userText(c, 40)).join(", "),
        known: KNOWN_CODES.join(", "),
        kinds: TRANSPORT_INCIDENT_KINDS.join(", "),
      });
      break;
    case "min-range":
      text = m.filterMinRange();
      break;
    case "stale-range":
      text = m.filterStaleRange();
      break;
    case "unknown-zones": {
      const w = messages(language).vehicleWatch;
      text = w.zoneUnknownNames({
        names: problem.names.map((n) => `*${userText(n, 40)}*`).join(", "),
        known:
          problem.known.length > 0
            ? w.zoneKnown({ names: problem.known.map((n) => userText(n, 40)).join(", ") })
            : w.zoneNoZonesYet(),
      });
      break;
    }
  }
  // A zone missing is answered with how to add one; the other problems with a subscription that works.
  const example =
    problem.problem === "unknown-zones"
      ? messages(language).vehicleWatch.zoneExample({
          example: `\`${messages(language).vehicleWatch.exampleAdd()}\``,
        })
      : m.filterExample();
  return noticeMessage(`:warning: ${fitMrkdwn(text, 2800)}`, example);
}

/** The answer to an option of `/fleet alerts subscribe` that cannot be read, with an example that works. */
export function alertOptionProblemMessage(problem: AlertOptionProblem, language: Language): SlackMessage {
  return alertOptionMessage({ code: "alertOption", ...problem }, language);
}
