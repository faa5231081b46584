/** The outcome of start, pause or end on transports: per UIT, then the cards as they are now. */
import type { KnownBlock } from "@slack/types";
import type { TransportBulkAction } from "../../../../i18n/en/etransport.js";
import type { Language } from "../../../../i18n/language.js";
import type { TransportActionResult } from "../../../../platform/fleet/schemas.js";
import { mrkdwn } from "../../../../platform/slack/views/blocks.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import { userText } from "../../../../platform/slack/views/text.js";
import { isKnownTransportFailure } from "../../failures.js";
import type { TransportView } from "../../types.js";
import { fittingCards } from "./card.js";
import {
  MAX_MESSAGE_BLOCKS,
  MESSAGE_TEXT_BUDGET,
  TRANSPORT_LIST_PAGE_SIZE,
  type TransportCardOptions,
} from "./cardOptions.js";
import { blocksText, formatUit } from "./transportText.js";
import { words } from "./words.js";

export interface TransportActionResultOptions {
  /** The reader's language, resolved once per request (required: no view guesses English). */
  language: Language;
  timeZone?: string;
  nowMs?: number;
  correlationId?: string;
}

/**
 * The headline counts what happened: "Started the transport.", "Start refused for 1 of 1.",
 * "Started 2 of 3; 1 refused." A headline never claims a success the lines below deny.
 */
export function transportActionHeadline(
  action: TransportBulkAction,
  results: readonly Pick<TransportActionResult, "isSuccess">[],
  language: Language,
): string {
  const succeeded = results.filter((r) => r.isSuccess).length;
  return words(language).actionHeadline(action, results.length, succeeded);
}

/** Per-UIT ✅/❌ with the service's error text (and its meaning when known), then the updated cards. */
export function transportActionResultMessage(
  action: TransportBulkAction,
  results: readonly TransportActionResult[],
  transportsAfter: readonly TransportView[] | undefined,
  opts: TransportActionResultOptions,
): SlackMessage {
  const language = opts.language;
  const m = words(language);
  const failed = results.filter((r) => !r.isSuccess).length;
  const headline = transportActionHeadline(action, results, language);
  const lines = results.map((r) => outcomeLine(action, r, language));
  const blocks: KnownBlock[] = [
    { type: "section", block_id: "etransport.result.headline", text: mrkdwn(`*${headline}*`) },
  ];
  // Outcome lines in sections of ≤ 2900 characters, within a share of the text budget.
  const lineBudget = transportsAfter && transportsAfter.length > 0 ? 5000 : MESSAGE_TEXT_BUDGET - 1500;
  const omitted = pushOutcomeLines(blocks, lines, lineBudget);
  if (omitted > 0) {
    blocks.push({
      type: "context",
      block_id: "etransport.result.omitted",
      elements: [mrkdwn(m.moreLines({ count: omitted }))],
    });
  }
  if (failed > 0 && opts.correlationId) {
    blocks.push({
      type: "context",
      block_id: "etransport.result.support",
      elements: [mrkdwn(m.forSupport({ id: `\`${userText(opts.correlationId, 100)}\`` }))],
    });
  }
  if (transportsAfter && transportsAfter.length > 0) pushCardsAfter(blocks, transportsAfter, opts);
  return { text: headline, blocks };
}

/** One UIT's outcome: ✅ done (and whether the service confirmed it alone), or ❌ and why. */
function outcomeLine(action: TransportBulkAction, r: TransportActionResult, language: Language): string {
  const m = words(language);
  const uit = `\`${userText(formatUit(r.codeUit), 40)}\``;
  // Not reported: the service answered for the request as a whole (or a resumed task found
  // the change made); the reader should know this UIT was not confirmed on its own.
  if (r.isSuccess)
    return `✅ ${uit} ${m.actionDone(action)}${r.reported ? "" : ` _(${m.acceptedAsWhole()})_`}`;
  const errors = r.errors.length > 0 ? r.errors : [m.noReason()];
  const explained = errors.map((e) => {
    const code = e.trim();
    const known = isKnownTransportFailure(code) ? ` — ${m.failureSummary(code, [formatUit(r.codeUit)])}` : "";
    return `${userText(code, 200)}${userText(known, 300)}`;
  });
  return `❌ ${uit} ${m.actionNotDone(action)}: ${explained.join("; ")}`;
}

/**
 * The outcome lines, in sections of at most 2900 characters, while they fit `lineBudget` and the
 * message has fewer than 20 blocks; returns how many were left out.
 */
function pushOutcomeLines(blocks: KnownBlock[], lines: readonly string[], lineBudget: number): number {
  let used = 0;
  let chunk = "";
  let omitted = 0;
  const flush = (): void => {
    if (chunk) {
      blocks.push({
        type: "section",
        block_id: `etransport.result.lines.${blocks.length}`,
        text: mrkdwn(chunk),
      });
      chunk = "";
    }
  };
  for (const line of lines) {
    if (used + line.length > lineBudget || blocks.length >= 20) {
      omitted++;
      continue;
    }
    used += line.length + 1;
    if (chunk.length + line.length + 1 > 2900) flush();
    chunk = chunk ? `${chunk}\n${line}` : line;
  }
  flush();
  return omitted;
}

/** The transports as they are after the action, as many cards as the message has room for. */
function pushCardsAfter(
  blocks: KnownBlock[],
  transportsAfter: readonly TransportView[],
  opts: TransportActionResultOptions,
): void {
  const m = words(opts.language);
  const room = Math.floor((MAX_MESSAGE_BLOCKS - blocks.length - 2) / 4);
  const candidates = transportsAfter.slice(0, Math.max(0, Math.min(room, TRANSPORT_LIST_PAGE_SIZE)));
  const cardOpts: TransportCardOptions = { language: opts.language };
  if (opts.timeZone !== undefined) cardOpts.timeZone = opts.timeZone;
  if (opts.nowMs !== undefined) cardOpts.nowMs = opts.nowMs;
  const budget = MESSAGE_TEXT_BUDGET - blocksText(blocks) - 200;
  const cards = fittingCards(candidates, cardOpts, budget, true);
  if (cards.shown > 0) blocks.push({ type: "divider" }, ...cards.blocks);
  if (cards.shown < transportsAfter.length) {
    blocks.push({
      type: "context",
      block_id: "etransport.result.more",
      elements: [mrkdwn(m.moreTransports({ count: transportsAfter.length - cards.shown }))],
    });
  }
}
