import type { ActionsBlock, Button, ConfirmationDialog, KnownBlock, SectionBlock } from "@slack/types";
import { isKnownTransportFailure } from "../../etransport/failures.js";
import { type Severity, type TransportStateInfo, transportStateInfo } from "../../etransport/state.js";
import type { TransportAction, TransportView } from "../../etransport/types.js";
import type { TransportActionResult } from "../../fleet/schemas.js";
import { messages } from "../../i18n/catalogue.js";
import type {
  TransportBulkAction,
  TransportListFilter,
  TransportListState,
} from "../../i18n/en/etransport.js";
import { duration } from "../../i18n/format.js";
import type { Language } from "../../i18n/language.js";
import { ACTIONS } from "../actionIds.js";
import {
  blocksText,
  cut,
  dateToken,
  formatUit,
  idPart,
  isAdvisedTransmission,
  isChangeRequestCode,
  isTransmissionCode,
  lowerFirst,
  SEVERITY_MARKS,
  transportStatusText,
} from "./etransportText.js";
import type { SlackMessage } from "./message.js";
import { userText } from "./text.js";

/**
 * e-Transport messages (pure): transport cards with buttons by state, the paged list,
 * outcomes of start/pause/end/remove and the remove confirmation. Input is TransportView
 * (JSON-safe), so results stored in a task render the same later.
 */

export type { TransportBulkAction } from "../../i18n/en/etransport.js";
export type { SlackMessage } from "./message.js";

const words = (language: Language) => messages(language).etransport;

/** Cards per list page: 8 cards stay under 50 blocks and the message text budget. */
export const TRANSPORT_LIST_PAGE_SIZE = 8;
/** Text budget of one message (Slack starts refusing at about 12,000; LIMITS.md). */
export const MESSAGE_TEXT_BUDGET = 11_000;
const MAX_MESSAGE_BLOCKS = 50;

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

/** Value of every transport button: `{"u": codeUit, "id": transportUId}`. */
export interface TransportButtonValue {
  u: string;
  id: string;
  /** The list (task id) the card belongs to: an action re-renders that list with the card updated. */
  l?: string;
}

export function transportButtonValue(t: Pick<TransportView, "codeUit" | "uId">, listToken?: string): string {
  const value: TransportButtonValue = { u: t.codeUit.slice(0, 200), id: t.uId.slice(0, 200) };
  if (listToken) value.l = listToken.slice(0, 200);
  return JSON.stringify(value);
}

export function parseTransportButtonValue(value: string | undefined): TransportButtonValue | undefined {
  try {
    const parsed: unknown = JSON.parse(value ?? "");
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const { u, id, l } = parsed as Record<string, unknown>;
    if (typeof u !== "string" || typeof id !== "string") return undefined;
    return typeof l === "string" ? { u, id, l } : { u, id };
  } catch {
    return undefined;
  }
}

/** Value of the list's Next/Previous buttons. */
export interface TransportListNavValue {
  /** Filter word (pending, active, paused, completed, all). */
  f: string;
  /** Search text, if any. */
  s?: string;
  /** Page index to show (0-based). */
  p: number;
}

export function parseTransportListNavValue(value: string | undefined): TransportListNavValue | undefined {
  try {
    const parsed: unknown = JSON.parse(value ?? "");
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const { f, s, p } = parsed as Record<string, unknown>;
    if (typeof f !== "string" || typeof p !== "number" || !Number.isInteger(p) || p < 0) return undefined;
    return typeof s === "string" ? { f, s, p } : { f, p };
  } catch {
    return undefined;
  }
}

// ---------- building blocks ----------

const plain = (text: string) => ({ type: "plain_text" as const, text, emoji: true });
const mrkdwn = (text: string) => ({ type: "mrkdwn" as const, text });

const STATUS_EMOJI: Readonly<Record<number, string>> = {
  1: "⏳",
  2: "🚚",
  3: "✅",
  4: "☑️",
  5: "❌",
  6: "⏸️",
};

/** The alerts' marks, so a transport looks as serious in a list as in its alert. */
const MARKER: Readonly<Record<Severity, string>> = {
  ok: "",
  info: `${SEVERITY_MARKS.info} `,
  warning: `${SEVERITY_MARKS.warning} `,
  bad: `${SEVERITY_MARKS.fault} `,
};

interface DetailLimits {
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

const LIMITS_BY_DETAIL: Readonly<Record<CardDetail, DetailLimits>> = {
  full: { name: 100, place: 200, notes: 500, message: 300, advice: true, allFacts: true, longConfirm: true },
  compact: { name: 60, place: 80, notes: 160, message: 150, advice: true, allFacts: true, longConfirm: true },
  minimal: { name: 30, place: 0, notes: 0, message: 60, advice: false, allFacts: false, longConfirm: false },
};

/** "B-12-ABC · Truck 12" (mrkdwn, escaped). */
function vehicleLabel(t: TransportView, max: number, language: Language): string {
  const plate = t.carrierCode ? `*${userText(t.carrierCode, 30)}*` : "";
  const name = t.carrierName && t.carrierName !== t.carrierCode ? userText(t.carrierName, max) : "";
  return [plate, name].filter((s) => s !== "").join(" · ") || `_${words(language).vehicleNotNamed()}_`;
}

/** Plain-text vehicle for confirm dialogs (the plate only when `short`). */
function vehiclePlain(t: TransportView, short = false): string {
  const name = t.carrierName && t.carrierName !== t.carrierCode ? t.carrierName : undefined;
  const parts = short ? [t.carrierCode ?? name] : [t.carrierCode, name];
  return parts
    .filter((s): s is string => !!s)
    .map((s) => cut(s, short ? 20 : 40))
    .join(" · ");
}

function confirmDialog(
  language: Language,
  title: string,
  text: string,
  confirm: string,
  danger: boolean,
): ConfirmationDialog {
  return {
    title: plain(cut(title, 100)),
    text: plain(cut(text, 300)),
    confirm: plain(cut(confirm, 30)),
    deny: plain(words(language).cancel()),
    ...(danger ? { style: "danger" as const } : {}),
  };
}

/** "UIT Y45R-577U-N544-GY4S (B-12-ABC · Truck 12)" for a confirm dialog (plain text). */
function confirmUit(t: TransportView, long: boolean, language: Language): string {
  const vehicle = vehiclePlain(t, !long);
  return `${words(language).uitNamed({ uit: formatUit(cut(t.codeUit, 40)) })}${vehicle ? ` (${vehicle})` : ""}`;
}

function removeConfirm(t: TransportView, long: boolean, language: Language): ConfirmationDialog {
  const m = words(language);
  const uit = confirmUit(t, long, language);
  return confirmDialog(
    language,
    m.removeConfirmTitle(),
    long ? m.removeConfirmLong({ uit }) : m.removeConfirmShort({ uit }),
    m.removeConfirmButton(),
    true,
  );
}

function endConfirm(t: TransportView, long: boolean, language: Language): ConfirmationDialog {
  const m = words(language);
  const uit = confirmUit(t, long, language);
  return confirmDialog(
    language,
    m.endConfirmTitle(),
    long ? m.endConfirmLong({ uit }) : m.endConfirmShort({ uit }),
    m.endConfirmButton(),
    false,
  );
}

const BUTTON_IDS: Readonly<Record<TransportAction, string>> = {
  start: ACTIONS.transportStart,
  pause: ACTIONS.transportPause,
  end: ACTIONS.transportEnd,
  edit: ACTIONS.transportEdit,
  remove: ACTIONS.transportRemove,
};

function transportButton(
  t: TransportView,
  action: TransportAction,
  language: Language,
  longConfirm = true,
  listToken?: string,
): Button {
  const button: Button = {
    type: "button",
    action_id: BUTTON_IDS[action],
    text: plain(words(language).button(action)),
    value: transportButtonValue(t, listToken),
  };
  if (action === "start") button.style = "primary";
  if (action === "remove") {
    button.style = "danger";
    button.confirm = removeConfirm(t, longConfirm, language);
  }
  if (action === "end") button.confirm = endConfirm(t, longConfirm, language);
  return button;
}

/** The button actions a transport allows in its state (fleetbot's rules, see transportStateInfo). */
export function transportButtons(
  t: TransportView,
  detail: CardDetail,
  listToken: string | undefined,
  language: Language,
): Button[] {
  const long = LIMITS_BY_DETAIL[detail].longConfirm;
  return transportStateInfo(t).actions.map((action) => transportButton(t, action, language, long, listToken));
}

function validityText(t: TransportView, opts: TransportCardOptions, language: Language): string | undefined {
  const { validityStartMs: start, validityEndMs: end } = t;
  if (start === undefined && end === undefined) return undefined;
  const m = words(language);
  const from = start === undefined ? "?" : dateToken(start, opts.timeZone, language);
  const to = end === undefined ? "?" : dateToken(end, opts.timeZone, language);
  let relative = "";
  if (opts.nowMs !== undefined && end !== undefined) {
    if (start !== undefined && opts.nowMs < start)
      relative = m.validityStartsIn({ span: duration(language, start - opts.nowMs) });
    else if (opts.nowMs < end) relative = m.validityEndsIn({ span: duration(language, end - opts.nowMs) });
    else relative = m.validityEnded();
  }
  return m.validityLine({ from, to, relative });
}

/** The transmission's meaning and advice in `language` (an unknown or absent code said so). */
function transmissionWords(
  tx: TransportStateInfo["transmission"],
  language: Language,
): { meaning: string; advice?: string } {
  const m = words(language);
  if (tx.code === undefined) return { meaning: m.noTransmissionStatus() };
  if (!isTransmissionCode(tx.code)) return { meaning: m.unknownTransmissionStatus({ code: tx.code }) };
  const meaning = m.transmissionMeaning(tx.code);
  return isAdvisedTransmission(tx.code) ? { meaning, advice: m.transmissionAdvice(tx.code) } : { meaning };
}

function changeRequestMeaning(code: string, language: Language): string {
  const m = words(language);
  return isChangeRequestCode(code)
    ? lowerFirst(language, m.changeRequestStatus(code))
    : m.unknownChangeRequestStatus({ code });
}

// ---------- card ----------

/** One transport: a section with the facts, a context with dates and places, buttons by state. */
export function transportCard(t: TransportView, opts: TransportCardOptions): KnownBlock[] {
  const language = opts.language;
  const m = words(language);
  const detail = LIMITS_BY_DETAIL[opts.detail ?? "full"];
  const info = transportStateInfo(t);
  const id = `${idPart(t.codeUit)}${opts.blockIdSuffix ? `-${idPart(opts.blockIdSuffix)}` : ""}`;

  const lines: string[] = [];
  lines.push(
    `${MARKER[info.severity]}*\`${userText(formatUit(t.codeUit), 40)}\`* · ${STATUS_EMOJI[t.statusId] ?? "❔"} *${transportStatusText(language, t.statusId)}*`,
  );
  lines.push(`:truck: ${vehicleLabel(t, detail.name, language)}`);

  const tx = info.transmission;
  const txWords = transmissionWords(tx, language);
  let txLine = `${m.transmissionLabel()} ${MARKER[tx.severity]}${tx.code ? `${userText(tx.code, 40)} — ` : ""}${txWords.meaning}`;
  if (tx.severity !== "ok" && txWords.advice && detail.advice) txLine += `\n      _${txWords.advice}_`;
  if (t.transmissionStatusErrorDescription && tx.severity !== "ok") {
    txLine += `\n      “${userText(t.transmissionStatusErrorDescription, detail.message)}”`;
  }
  lines.push(txLine);

  const validity = validityText(t, opts, language);
  if (validity) lines.push(validity);

  if (info.changeRequest) {
    const cr = info.changeRequest;
    const message = t.changeRequestAuthorityMessage ?? t.changeRequestMessage;
    lines.push(
      `${m.changeRequestLabel()} ${MARKER[cr.severity]}${cr.severity === "bad" ? "*" : ""}${userText(cr.code, 40)} — ${changeRequestMeaning(cr.code, language)}${cr.severity === "bad" ? "*" : ""}` +
        (message ? `: “${userText(message, detail.message)}”` : ""),
    );
  }
  if (t.statusId === 5 && t.externalResponse) {
    lines.push(`${m.platformAnswer()} “${userText(t.externalResponse, detail.message)}”`);
  }
  if (t.notes && detail.notes > 0) lines.push(`${m.notesLabel()} ${userText(t.notes, detail.notes)}`);

  const when = (ms: number): string => dateToken(ms, opts.timeZone, language);
  const facts: string[] = [];
  if (t.lastTransmissionMs !== undefined) facts.push(m.lastSent({ when: when(t.lastTransmissionMs) }));
  if (t.lastGpsMs !== undefined) facts.push(m.lastGps({ when: when(t.lastGpsMs) }));
  if (detail.allFacts && (t.startMs !== undefined || t.endMs !== undefined)) {
    const from = t.startMs === undefined ? "" : when(t.startMs);
    const to = t.endMs === undefined ? "" : when(t.endMs);
    facts.push(
      from && to
        ? m.transmissionWindow({ from, to })
        : from
          ? m.transmittingSince({ from })
          : m.transmissionUntil({ to }),
    );
  }
  const trailers = [t.trailer1Code, t.trailer2Code]
    .filter((s): s is string => !!s)
    .map((s) => userText(s, 20));
  if (trailers.length > 0) facts.push(m.trailers({ count: trailers.length, plates: trailers.join(", ") }));
  if (detail.allFacts && (t.startLocation || t.endLocation)) {
    facts.push(
      `${t.startLocation ? userText(t.startLocation, detail.place) : "?"} → ${t.endLocation ? userText(t.endLocation, detail.place) : "?"}`,
    );
  }

  const blocks: KnownBlock[] = [
    {
      type: "section",
      block_id: `etransport.card.${id}`,
      text: mrkdwn(lines.join("\n")),
    } satisfies SectionBlock,
  ];
  if (facts.length > 0) {
    blocks.push({
      type: "context",
      block_id: `etransport.facts.${id}`,
      elements: [mrkdwn(facts.join(" · "))],
    });
  }
  if (opts.buttons !== false) {
    const elements = transportButtons(t, opts.detail ?? "full", opts.listToken, language);
    if (elements.length > 0) {
      blocks.push({ type: "actions", block_id: `etransport.actions.${id}`, elements } satisfies ActionsBlock);
    }
  }
  return blocks;
}

/** Cards for several transports with unique block ids, separated by dividers. */
function cardsOf(transports: readonly TransportView[], opts: TransportCardOptions): KnownBlock[] {
  const seen = new Map<string, number>();
  const blocks: KnownBlock[] = [];
  transports.forEach((t, i) => {
    const key = idPart(t.codeUit);
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    if (i > 0) blocks.push({ type: "divider" });
    blocks.push(...transportCard(t, { ...opts, ...(n > 1 ? { blockIdSuffix: String(n) } : {}) }));
  });
  return blocks;
}

/**
 * The most detailed cards whose text fits `budget` (full → compact → minimal). With
 * `mayDrop`, cards are left out from the end until the minimal ones fit; `shown` says how many.
 */
function fittingCards(
  transports: readonly TransportView[],
  opts: TransportCardOptions,
  budget: number,
  mayDrop = false,
): { blocks: KnownBlock[]; shown: number } {
  let blocks: KnownBlock[] = [];
  for (const detail of ["full", "compact", "minimal"] as const) {
    blocks = cardsOf(transports, { ...opts, detail });
    if (blocksText(blocks) <= budget) return { blocks, shown: transports.length };
  }
  if (!mayDrop) return { blocks, shown: transports.length };
  for (let n = transports.length - 1; n > 0; n--) {
    blocks = cardsOf(transports.slice(0, n), { ...opts, detail: "minimal" });
    if (blocksText(blocks) <= budget) return { blocks, shown: n };
  }
  return { blocks: [], shown: 0 };
}

// ---------- list ----------

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

// ---------- action outcomes ----------

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

  const lines = results.map((r) => {
    const uit = `\`${userText(formatUit(r.codeUit), 40)}\``;
    // Not reported: the service answered for the request as a whole (or a resumed task found
    // the change made); the reader should know this UIT was not confirmed on its own.
    if (r.isSuccess)
      return `✅ ${uit} ${m.actionDone(action)}${r.reported ? "" : ` _(${m.acceptedAsWhole()})_`}`;
    const errors = r.errors.length > 0 ? r.errors : [m.noReason()];
    const explained = errors.map((e) => {
      const code = e.trim();
      const known = isKnownTransportFailure(code)
        ? ` — ${m.failureSummary(code, [formatUit(r.codeUit)])}`
        : "";
      return `${userText(code, 200)}${userText(known, 300)}`;
    });
    return `❌ ${uit} ${m.actionNotDone(action)}: ${explained.join("; ")}`;
  });

  const blocks: KnownBlock[] = [
    { type: "section", block_id: "etransport.result.headline", text: mrkdwn(`*${headline}*`) },
  ];
  // Outcome lines in sections of ≤ 2900 characters, within a share of the text budget.
  const lineBudget = transportsAfter && transportsAfter.length > 0 ? 5000 : MESSAGE_TEXT_BUDGET - 1500;
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

  if (transportsAfter && transportsAfter.length > 0) {
    const room = Math.floor((MAX_MESSAGE_BLOCKS - blocks.length - 2) / 4);
    const candidates = transportsAfter.slice(0, Math.max(0, Math.min(room, TRANSPORT_LIST_PAGE_SIZE)));
    const cardOpts: TransportCardOptions = { language };
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
  return { text: headline, blocks };
}

// ---------- remove confirmation ----------

/** /etransport remove <UIT>: what will be deleted, and a danger button that asks once more. */
export function removeConfirmationMessage(
  t: TransportView,
  opts: Pick<TransportCardOptions, "timeZone" | "nowMs" | "language">,
): SlackMessage {
  const language = opts.language;
  const m = words(language);
  const uit = formatUit(t.codeUit);
  const button = transportButton(t, "remove", language);
  button.text = plain(m.removeButton());
  // Next to the danger button, a way out that leaves the transport as it is.
  const keep: Button = {
    type: "button",
    action_id: ACTIONS.transportRemoveCancel,
    text: plain(m.cancel()),
    value: transportButtonValue(t),
  };
  const actions: ActionsBlock = {
    type: "actions",
    block_id: `etransport.remove.${idPart(t.codeUit)}`,
    elements: [button, keep],
  };
  return {
    text: m.removeQuestionText({ uit: userText(uit, 40) }),
    blocks: [
      { type: "section", block_id: "etransport.remove.question", text: mrkdwn(m.removeQuestion()) },
      ...transportCard(t, { ...opts, language, buttons: false, detail: "compact" }),
      actions,
    ],
  };
}

/** What replaces the remove question after its Cancel: nothing was removed. */
export function removeCancelledMessage(codeUit: string, language: Language): SlackMessage {
  const m = words(language);
  const uit = userText(formatUit(codeUit), 40);
  return {
    text: m.removeCancelled({ uit }),
    blocks: [
      {
        type: "section",
        block_id: "etransport.remove.cancelled",
        text: mrkdwn(m.removeCancelled({ uit: `\`${uit}\`` })),
      },
    ],
  };
}
