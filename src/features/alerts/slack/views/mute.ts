/** The Mute and Unmute buttons of an alert: their values, their answers, and the alert with its mute line. */
import type { ActionsBlock, Block, Button, ContextBlock } from "@slack/types";
import { LANGUAGES, type Language, messages } from "../../../../i18n/index.js";
import { ACTIONS } from "../../../../platform/slack/actionIds.js";
import { mrkdwn, plain } from "../../../../platform/slack/views/blocks.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import { fitMrkdwn, userText } from "../../../../platform/slack/views/text.js";
import { cut, formatUit } from "../../../etransport/index.js";
import { type AlertViewOptions, alertDate } from "./incidentText.js";

/** Value of the Mute button: `{"u": codeUit, "c": channel}`. */
export interface AlertMuteValue {
  u: string;
  c: string;
}

export function alertMuteValue(codeUit: string, channel: string): string {
  const value: AlertMuteValue = { u: codeUit.slice(0, 200), c: channel.slice(0, 100) };
  return JSON.stringify(value);
}

export function parseAlertMuteValue(value: string | undefined): AlertMuteValue | undefined {
  try {
    const parsed: unknown = JSON.parse(value ?? "");
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const { u, c } = parsed as Record<string, unknown>;
    return typeof u === "string" && typeof c === "string" ? { u, c } : undefined;
  } catch {
    return undefined;
  }
}

/** How long the Mute button mutes a UIT in a channel. */
export const ALERT_MUTE_MS = 24 * 3600_000;

/** Answer to the Mute button, in the clicker's language (whatever the alert's). */
export function alertMutedMessage(
  codeUit: string,
  channel: string,
  until: number,
  timeZone: string | undefined,
  language: Language,
): SlackMessage {
  const m = messages(language).alerts;
  const uit = userText(formatUit(codeUit), 40);
  const when = alertDate(until, { language, ...(timeZone === undefined ? {} : { timeZone }) });
  return {
    text: fitMrkdwn(m.mutedAnswerText({ uit }), 300),
    blocks: [
      {
        type: "section",
        block_id: "alert.muted",
        text: mrkdwn(m.mutedAnswer({ uit, channel: `<#${channel}>`, when })),
      },
    ],
  };
}

/** Answer to the Unmute button, in the clicker's language (whatever the alert's). */
export function alertUnmutedMessage(codeUit: string, channel: string, language: Language): SlackMessage {
  const m = messages(language).alerts;
  const uit = userText(formatUit(codeUit), 40);
  return {
    text: fitMrkdwn(m.unmutedAnswerText({ uit }), 300),
    blocks: [
      {
        type: "section",
        block_id: "alert.unmuted",
        text: mrkdwn(m.unmutedAnswer({ uit, channel: `<#${channel}>` })),
      },
    ],
  };
}

/** Block id of the line a mute (or an unmute) adds to the alert in the channel. */
const MUTED_LINE_ID = "alert.muted.line";

/** The alert's blocks with `line` above its buttons (replacing an earlier one) and its Mute/Unmute button swapped. */
function withMuteLine(blocks: readonly Block[], line: string, muted: boolean, lang: Language): Block[] {
  const m = messages(lang).alerts;
  const lineBlock: ContextBlock = { type: "context", block_id: MUTED_LINE_ID, elements: [mrkdwn(line)] };
  const from = muted ? ACTIONS.alertMute : ACTIONS.alertUnmute;
  const swapped: Button = muted
    ? { type: "button", action_id: ACTIONS.alertUnmute, text: plain(m.buttonUnmute()) }
    : { type: "button", action_id: ACTIONS.alertMute, text: plain(m.buttonMute()) };
  const kept = blocks
    .filter((b) => b.block_id !== MUTED_LINE_ID)
    .map((b): Block => {
      if (b.type !== "actions") return b;
      const actions = b as ActionsBlock;
      // The button keeps its value (UIT and channel): Mute and Unmute read the same one.
      const elements = actions.elements.map((e) =>
        e.type === "button" && e.action_id === from
          ? { ...swapped, ...(e.value === undefined ? {} : { value: e.value }) }
          : e,
      );
      const swappedActions: ActionsBlock = { ...actions, elements };
      return swappedActions;
    });
  const actions = kept.findIndex((b) => b.type === "actions");
  const at = actions < 0 ? kept.length : actions;
  return [...kept.slice(0, at), lineBlock, ...kept.slice(at)];
}

/**
 * The alert as the channel sees it once someone muted it: the same blocks with one context
 * line ("🔕 Muted until … by @ana") above the buttons, and Unmute where Mute was, since
 * muting a muted alert again does nothing a reader would want.
 */
export function alertBlocksWithMute(
  blocks: readonly Block[],
  mute: { userId: string; until: number; timeZone?: string },
): Block[] {
  const lang = alertLanguageOf(blocks);
  const opts: AlertViewOptions = { language: lang };
  if (mute.timeZone !== undefined) opts.timeZone = mute.timeZone;
  const line = messages(lang).alerts.mutedLine({
    when: alertDate(mute.until, opts),
    user: `<@${cut(mute.userId, 40)}>`,
  });
  return withMuteLine(blocks, line, true, lang);
}

/** The alert once someone unmuted it: "🔔 Unmuted by @bob" and the Mute button back. */
export function alertBlocksWithoutMute(blocks: readonly Block[], unmute: { userId: string }): Block[] {
  const lang = alertLanguageOf(blocks);
  const line = messages(lang).alerts.unmutedLine({ user: `<@${cut(unmute.userId, 40)}>` });
  return withMuteLine(blocks, line, false, lang);
}

/**
 * The language an alert was posted in, read from its own Show / Mute / Unmute button (nothing
 * stored says it, and the channel's subscription may have changed since): the line a mute adds
 * is in the alert's language, not the clicker's. English when no button says otherwise.
 */
export function alertLanguageOf(blocks: readonly Block[]): Language {
  for (const block of blocks) {
    if (block.type !== "actions") continue;
    for (const e of (block as ActionsBlock).elements) {
      if (e.type !== "button") continue;
      const label = e.text.text;
      for (const lang of LANGUAGES) {
        const m = messages(lang).alerts;
        if (label === m.buttonShow() || label === m.buttonMute() || label === m.buttonUnmute()) return lang;
      }
    }
  }
  return "en";
}
