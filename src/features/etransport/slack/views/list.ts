/** /etransport list: a page of transport cards with its header and Previous/Next. */
import type { Button, KnownBlock } from "@slack/types";
import type { TransportListFilter, TransportListState } from "../../../../i18n/en/etransport.js";
import type { Language } from "../../../../i18n/language.js";
import { ACTIONS } from "../../../../platform/slack/actionIds.js";
import { mrkdwn, plain } from "../../../../platform/slack/views/blocks.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import { userText } from "../../../../platform/slack/views/text.js";
import type { TransportView } from "../../types.js";
import type { TransportListNavValue } from "./buttonValues.js";
import { fittingCards } from "./card.js";
import { MESSAGE_TEXT_BUDGET, TRANSPORT_LIST_PAGE_SIZE, type TransportCardOptions } from "./cardOptions.js";
import { blocksText, cut, formatUit } from "./transportText.js";
import { words } from "./words.js";

export interface TransportListInput {
  transports: readonly TransportView[];
  totalRecords: number;
  /** 0-based page index of this page. */
  pageIndex: number;
  pageSize: number;
  /** Shown in the header: "active", "pending", "all"… */
  filterLabel: string;
  /** Filter word carried by Next/Previous (default: filterLabel). */
  filter?: string;
  search?: string;
  timeZone?: string;
  nowMs?: number;
  /** Carried by the cards' buttons so an action can re-render this list (the list task's id). */
  listToken?: string;
  /** The reader's language, resolved once per request (required: no view guesses English). */
  language: Language;
}

const LIST_STATES: readonly TransportListState[] = ["pending", "active", "paused", "completed"];
const isListState = (w: string): w is TransportListState => (LIST_STATES as readonly string[]).includes(w);

/**
 * What a list shows, from its filter words (the grammar's, stored with the list task; "default"
 * when none was typed): open transports, all, some states, or a label already in reader's words.
 */
export function transportListFilter(filterLabel: string): TransportListFilter {
  const ws = filterLabel
    .toLowerCase()
    .split(/[\s,]+/)
    .filter((w) => w !== "");
  if (ws.length === 0 || (ws.length === 1 && ws[0] === "default")) return { kind: "open" };
  if (!ws.every((w) => w === "all" || isListState(w))) return { kind: "label", label: filterLabel };
  if (ws.includes("all")) return { kind: "all" };
  return { kind: "states", states: ws.filter(isListState) };
}

/** /etransport list: a header with totals, up to 8 cards, Previous/Next. */
export function transportListMessage(input: TransportListInput): SlackMessage {
  const { totalRecords, pageIndex, filterLabel, search } = input;
  const language = input.language;
  const m = words(language);
  const pageSize = Math.max(1, input.pageSize);
  const filter = input.filter ?? filterLabel;
  const shape = transportListFilter(filterLabel);
  const what = m.listWhat(shape, totalRecords);
  // A UIT search is shown as UITs are everywhere else (grouped with dashes).
  const shownSearch = search === undefined ? undefined : formatUit(search);

  if (input.transports.length === 0) {
    const text =
      totalRecords > 0
        ? m.listEmptyPage(shape, shownSearch ?? "", pageIndex + 1, totalRecords)
        : m.listEmpty(shape, shownSearch ?? "");
    const blocks: KnownBlock[] = [
      {
        type: "section",
        block_id: "etransport.list.empty",
        text: mrkdwn(`${userText(text, 400)}\n${m.listTry()}`),
      },
    ];
    if (pageIndex > 0) blocks.push(navBlock(filter, search, pageIndex, false, language));
    return { text: userText(text, 3000), blocks };
  }

  const shown = input.transports.slice(0, TRANSPORT_LIST_PAGE_SIZE);
  const pages = Math.max(1, Math.ceil(totalRecords / pageSize));
  const first = pageIndex * pageSize + 1;
  const last = pageIndex * pageSize + input.transports.length;
  const header: KnownBlock = {
    type: "header",
    block_id: "etransport.list.header",
    text: plain(cut(`e-Transport · ${what}`, 150)),
  };
  const summary = [
    m.listRange({ first, last, total: totalRecords }),
    pages > 1 ? m.listPage({ page: pageIndex + 1, pages }) : undefined,
    shownSearch ? m.listSearch({ search: userText(shownSearch, 100) }) : undefined,
    input.transports.length > shown.length ? m.listOnlyFirst({ shown: shown.length }) : undefined,
  ]
    .filter((s) => s !== undefined)
    .join(" · ");
  const blocks: KnownBlock[] = [
    header,
    { type: "context", block_id: "etransport.list.summary", elements: [mrkdwn(summary)] },
    { type: "divider" },
  ];
  const hasPrevious = pageIndex > 0;
  const hasNext = (pageIndex + 1) * pageSize < totalRecords;
  const nav = hasPrevious || hasNext ? navBlock(filter, search, pageIndex, hasNext, language) : undefined;
  const fixed = blocksText(blocks) + (nav ? blocksText([nav]) : 0);
  const cardOpts: TransportCardOptions = { language };
  if (input.timeZone !== undefined) cardOpts.timeZone = input.timeZone;
  if (input.nowMs !== undefined) cardOpts.nowMs = input.nowMs;
  if (input.listToken !== undefined) cardOpts.listToken = input.listToken;
  blocks.push(...fittingCards(shown, cardOpts, MESSAGE_TEXT_BUDGET - fixed).blocks);
  if (nav) blocks.push({ type: "divider" }, nav);
  return {
    text: m.listText({
      what,
      search: shownSearch ? userText(shownSearch, 100) : "",
      page: pages > 1 ? pageIndex + 1 : 0,
      pages,
    }),
    blocks,
  };
}

function navBlock(
  filter: string,
  search: string | undefined,
  pageIndex: number,
  hasNext: boolean,
  language: Language,
): KnownBlock {
  const value = (p: number): string => {
    const v: TransportListNavValue = { f: filter.slice(0, 40), p };
    if (search) v.s = search.slice(0, 500);
    return JSON.stringify(v);
  };
  const elements: Button[] = [];
  if (pageIndex > 0) {
    elements.push({
      type: "button",
      action_id: ACTIONS.transportListPrevious,
      text: plain(words(language).previous()),
      value: value(pageIndex - 1),
    });
  }
  if (hasNext) {
    elements.push({
      type: "button",
      action_id: ACTIONS.transportListNext,
      text: plain(words(language).next()),
      value: value(pageIndex + 1),
    });
  }
  return { type: "actions", block_id: `etransport.list.nav.${pageIndex}`, elements };
}
