/** How much a transport card shows (its detail and what each detail allows) and the budgets of a message of cards. */
import type { Language } from "../../../../i18n/language.js";

/** Cards per list page: 8 cards stay under 50 blocks and the message text budget. */
export const TRANSPORT_LIST_PAGE_SIZE = 8;
/** Text budget of one message (Slack starts refusing at about 12,000; LIMITS.md). */
export const MESSAGE_TEXT_BUDGET = 11_000;
export const MAX_MESSAGE_BLOCKS = 50;

export type CardDetail = "full" | "compact" | "minimal";

export interface TransportCardOptions {
  /** The reader's language, resolved once per request (required: no view guesses English). */
  language: Language;
  /** Zone of the date fallbacks (readers see date tokens in their own zone); UTC when absent. */
  timeZone?: string;
  /** With it, the validity says "ends in 2 days 3 h" / "ended". Leave out for stored results. */
  nowMs?: number;
  /** Action buttons (default true). */
  buttons?: boolean;
  /** How much free text to show (default "full"); lists pick less to stay within limits. */
  detail?: CardDetail;
  /** Added to block ids when one message shows the same UIT twice. */
  blockIdSuffix?: string;
  /** The list this card is part of (see TransportButtonValue.l). */
  listToken?: string;
}

export interface DetailLimits {
  name: number;
  place: number;
  notes: number;
  message: number;
  advice: boolean;
  /** Transmission window and places in the context line. */
  allFacts: boolean;
  /** Confirm dialogs name the vehicle's name too (not only its plate) and explain more. */
  longConfirm: boolean;
}

export const LIMITS_BY_DETAIL: Readonly<Record<CardDetail, DetailLimits>> = {
  full: { name: 100, place: 200, notes: 500, message: 300, advice: true, allFacts: true, longConfirm: true },
  compact: { name: 60, place: 80, notes: 160, message: 150, advice: true, allFacts: true, longConfirm: true },
  minimal: { name: 30, place: 0, notes: 0, message: 60, advice: false, allFacts: false, longConfirm: false },
};
