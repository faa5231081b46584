/** A subscription whose link stopped working: the notice in its channel and the DM to its subscriber. */
import { type Language, messages } from "../../../../i18n/index.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import { userText } from "../../../../platform/slack/views/text.js";

/** A channel's alerts of an account paused: its link's password no longer works. */
export function alertsPausedMessage(
  notice: { account: string; subscriber?: string },
  language: Language,
): SlackMessage {
  const m = messages(language).alerts;
  const account = userText(notice.account, 100);
  const text = notice.subscriber
    ? m.pausedPasswordChanged({ account, subscriber: `<@${notice.subscriber}>` })
    : m.pausedWorkspacePasswordChanged({ account });
  return { text, blocks: [{ type: "section", text: { type: "mrkdwn", text } }] };
}

/** To the subscriber: their link stopped working, so their channel's alerts are paused. */
export function alertsPausedDirectMessage(
  notice: { account: string; channel: string },
  language: Language,
): SlackMessage {
  const text = messages(language).alerts.pausedLinkAgain({
    account: userText(notice.account, 100),
    channel: `<#${notice.channel}>`,
  });
  return { text, blocks: [{ type: "section", text: { type: "mrkdwn", text } }] };
}
