/** What a user sees while an action on a transport, or its lookup, waits for its turn. */
import type { KnownBlock } from "@slack/types";
import type { Language } from "../../../../i18n/language.js";
import { mrkdwn } from "../../../../platform/slack/views/blocks.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import { userText } from "../../../../platform/slack/views/text.js";
import type { TransportAction } from "../../types.js";
import { formatUit } from "./transportText.js";
import { words } from "./words.js";

/** The actions a card's buttons run as one task (Edit and Remove ask first). */
type TransportCardAction = Exclude<TransportAction, "edit" | "remove">;

/**
 * A list while an action on one of its cards runs: that card's buttons (the actions block the
 * click came from) give way to "⏳ Starting…"; every other card and button stays as it was.
 */
export function withCardUnderWay(
  list: SlackMessage,
  actionsBlockId: string,
  action: TransportCardAction,
  /** Where the action stands ("next in line, about 30 s"), as commands say it (progressPhrase). */
  wait: string | undefined,
  language: Language,
): SlackMessage {
  const line = `:hourglass_flowing_sand: ${words(language).underWay(action)}${wait ? ` ${wait}` : ""}`;
  const underWayId = `${actionsBlockId}.under-way`;
  const blocks = list.blocks.map(
    (block): KnownBlock =>
      (block.type === "actions" && block.block_id === actionsBlockId) ||
      (block.type === "context" && block.block_id === underWayId)
        ? { type: "context", block_id: underWayId, elements: [mrkdwn(line)] }
        : block,
  );
  return { ...list, blocks };
}

/** The clicking user's own note while an action on an alert's transport waits (the alert stays as it is). */
export function actionUnderWayNote(
  action: TransportCardAction,
  codeUit: string,
  wait: string,
  language: Language,
): SlackMessage {
  const text = `:hourglass_flowing_sand: ${words(language).underWay(action)} UIT ${userText(formatUit(codeUit), 40)}: ${wait}`;
  return { text, blocks: [{ type: "section", block_id: "etransport.under-way", text: mrkdwn(text) }] };
}

/** The clicking user's note while "Show transport" looks the transport up. */
export function lookupUnderWayNote(codeUit: string, wait: string, language: Language): SlackMessage {
  const text = `:mag: ${words(language).lookingUp({ uit: userText(formatUit(codeUit), 40), wait })}`;
  return { text, blocks: [{ type: "section", block_id: "etransport.lookup", text: mrkdwn(text) }] };
}
