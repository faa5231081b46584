import type { ActionsBlock, Button, ConfirmationDialog, KnownBlock, SectionBlock } from "@slack/types";
import { describeTransportFailure, isKnownTransportFailure } from "../../etransport/failures.js";
import { formatSpan } from "../../etransport/form.js";
import { type Severity, transportStateInfo } from "../../etransport/state.js";
import type { TransportAction, TransportView } from "../../etransport/types.js";
import type { TransportActionResult } from "../../fleet/schemas.js";
import { ACTIONS } from "../actionIds.js";
import { blocksText, cut, dateToken, formatUit, idPart, SEVERITY_MARKS } from "./etransportText.js";
import type { SlackMessage } from "./message.js";
import { userText } from "./text.js";

/**
 * e-Transport messages (pure): transport cards with buttons by state, the paged list,
 * outcomes of start/pause/end/remove and the remove confirmation. Input is TransportView
 * (JSON-safe), so results stored in a task render the same later.
 */

export type { SlackMessage } from "./message.js";

/** Cards per list page: 8 cards stay under 50 blocks and the message text budget. */
export const TRANSPORT_LIST_PAGE_SIZE = 8;
/** Text budget of one message (Slack starts refusing at about 12,000; LIMITS.md). */
export const MESSAGE_TEXT_BUDGET = 11_000;
const MAX_MESSAGE_BLOCKS = 50;

export type CardDetail = "full" | "compact" | "minimal";

export interface TransportCardOptions {
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
function vehicleLabel(t: TransportView, max: number): string {
  const plate = t.carrierCode ? `*${userText(t.carrierCode, 30)}*` : "";
  const name = t.carrierName && t.carrierName !== t.carrierCode ? userText(t.carrierName, max) : "";
  return [plate, name].filter((s) => s !== "").join(" · ") || "_vehicle not named_";
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

function confirmDialog(title: string, text: string, confirm: string, danger: boolean): ConfirmationDialog {
  return {
    title: plain(cut(title, 100)),
    text: plain(cut(text, 300)),
    confirm: plain(cut(confirm, 30)),
    deny: plain("Cancel"),
    ...(danger ? { style: "danger" as const } : {}),
  };
}

function removeConfirm(t: TransportView, long: boolean): ConfirmationDialog {
  const vehicle = vehiclePlain(t, !long);
  const uit = `UIT ${formatUit(cut(t.codeUit, 40))}${vehicle ? ` (${vehicle})` : ""}`;
  return confirmDialog(
    "Remove transport?",
    long
      ? `Remove the transport with ${uit}? This is irreversible: the transport is deleted from the fleet service and its GPS transmission stops.`
      : `Remove ${uit}? Irreversible: it is deleted.`,
    "Remove",
    true,
  );
}

function endConfirm(t: TransportView, long: boolean): ConfirmationDialog {
  const vehicle = vehiclePlain(t, !long);
  const uit = `UIT ${formatUit(cut(t.codeUit, 40))}${vehicle ? ` (${vehicle})` : ""}`;
  return confirmDialog(
    "End transport?",
    long
      ? `End the transport with ${uit}? Once ended it can no longer be modified.`
      : `End ${uit}? It can no longer be modified.`,
    "End transport",
    false,
  );
}

const BUTTONS: Readonly<Record<TransportAction, { actionId: string; label: string }>> = {
  start: { actionId: ACTIONS.transportStart, label: "Start" },
  pause: { actionId: ACTIONS.transportPause, label: "Pause" },
  end: { actionId: ACTIONS.transportEnd, label: "End" },
  edit: { actionId: ACTIONS.transportEdit, label: "Edit" },
  remove: { actionId: ACTIONS.transportRemove, label: "Remove" },
};

function transportButton(
  t: TransportView,
  action: TransportAction,
  longConfirm = true,
  listToken?: string,
): Button {
  const { actionId, label } = BUTTONS[action];
  const button: Button = {
    type: "button",
    action_id: actionId,
    text: plain(label),
    value: transportButtonValue(t, listToken),
  };
  if (action === "start") button.style = "primary";
  if (action === "remove") {
    button.style = "danger";
    button.confirm = removeConfirm(t, longConfirm);
  }
  if (action === "end") button.confirm = endConfirm(t, longConfirm);
  return button;
}

/** The button actions a transport allows in its state (fleetbot's rules, see transportStateInfo). */
export function transportButtons(
  t: TransportView,
  detail: CardDetail = "full",
  listToken?: string,
): Button[] {
  const long = LIMITS_BY_DETAIL[detail].longConfirm;
  return transportStateInfo(t).actions.map((action) => transportButton(t, action, long, listToken));
}

function validityText(t: TransportView, opts: TransportCardOptions): string | undefined {
  const { validityStartMs: start, validityEndMs: end } = t;
  if (start === undefined && end === undefined) return undefined;
  const from = start === undefined ? "?" : dateToken(start, opts.timeZone);
  const to = end === undefined ? "?" : dateToken(end, opts.timeZone);
  let relative = "";
  if (opts.nowMs !== undefined && end !== undefined) {
    if (start !== undefined && opts.nowMs < start)
      relative = ` (starts in ${formatSpan(start - opts.nowMs)})`;
    else if (opts.nowMs < end) relative = ` (ends in ${formatSpan(end - opts.nowMs)})`;
    else relative = " (ended)";
  }
  return `*UIT validity:* ${from} → ${to}${relative}`;
}

// ---------- card ----------

/** One transport: a section with the facts, a context with dates and places, buttons by state. */
export function transportCard(t: TransportView, opts: TransportCardOptions = {}): KnownBlock[] {
  const detail = LIMITS_BY_DETAIL[opts.detail ?? "full"];
  const info = transportStateInfo(t);
  const id = `${idPart(t.codeUit)}${opts.blockIdSuffix ? `-${idPart(opts.blockIdSuffix)}` : ""}`;

  const lines: string[] = [];
  lines.push(
    `${MARKER[info.severity]}*\`${userText(formatUit(t.codeUit), 40)}\`* · ${STATUS_EMOJI[t.statusId] ?? "❔"} *${info.statusName}*`,
  );
  lines.push(`:truck: ${vehicleLabel(t, detail.name)}`);

  const tx = info.transmission;
  let txLine = `*Transmission:* ${MARKER[tx.severity]}${tx.code ? `${userText(tx.code, 40)} — ` : ""}${tx.meaning}`;
  if (tx.severity !== "ok" && tx.advice && detail.advice) txLine += `\n      _${tx.advice}_`;
  if (t.transmissionStatusErrorDescription && tx.severity !== "ok") {
    txLine += `\n      “${userText(t.transmissionStatusErrorDescription, detail.message)}”`;
  }
  lines.push(txLine);

  const validity = validityText(t, opts);
  if (validity) lines.push(validity);

  if (info.changeRequest) {
    const cr = info.changeRequest;
    const message = t.changeRequestAuthorityMessage ?? t.changeRequestMessage;
    lines.push(
      `*Vehicle change request:* ${MARKER[cr.severity]}${cr.severity === "bad" ? "*" : ""}${userText(cr.code, 40)} — ${cr.meaning}${cr.severity === "bad" ? "*" : ""}` +
        (message ? `: “${userText(message, detail.message)}”` : ""),
    );
  }
  if (t.statusId === 5 && t.externalResponse) {
    lines.push(`*Platform answer:* “${userText(t.externalResponse, detail.message)}”`);
  }
  if (t.notes && detail.notes > 0) lines.push(`*Notes:* ${userText(t.notes, detail.notes)}`);

  const facts: string[] = [];
  if (t.lastTransmissionMs !== undefined) {
    facts.push(`Last sent to the platform ${dateToken(t.lastTransmissionMs, opts.timeZone)}`);
  }
  if (t.lastGpsMs !== undefined) facts.push(`last GPS ${dateToken(t.lastGpsMs, opts.timeZone)}`);
  if (detail.allFacts && (t.startMs !== undefined || t.endMs !== undefined)) {
    const from = t.startMs === undefined ? "" : dateToken(t.startMs, opts.timeZone);
    const to = t.endMs === undefined ? "" : dateToken(t.endMs, opts.timeZone);
    facts.push(
      from && to
        ? `transmission ${from} → ${to}`
        : from
          ? `transmitting since ${from}`
          : `transmission until ${to}`,
    );
  }
  const trailers = [t.trailer1Code, t.trailer2Code]
    .filter((s): s is string => !!s)
    .map((s) => userText(s, 20));
  if (trailers.length > 0) facts.push(`trailer${trailers.length > 1 ? "s" : ""} ${trailers.join(", ")}`);
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
    const elements = transportButtons(t, opts.detail, opts.listToken);
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
}

/** The state words of `/etransport list` as a dispatcher reads them ("active" is In Progress). */
const LIST_STATE_WORDS: Readonly<Record<string, string>> = {
  pending: "pending",
  active: "in progress",
  paused: "paused",
  completed: "completed",
};

/**
 * What a list shows, in dispatcher words: "open transports (pending, in progress or paused)",
 * "pending transports", "transports in progress", "transports paused or completed". The
 * filter words are the grammar's ("default" when none was typed).
 */
export function transportListPhrase(filterLabel: string, count?: number): string {
  const noun = count === 1 ? "transport" : "transports";
  const words = filterLabel
    .toLowerCase()
    .split(/[\s,]+/)
    .filter((w) => w !== "");
  if (words.length === 0 || (words.length === 1 && words[0] === "default")) {
    return `open ${noun} (pending, in progress or paused)`;
  }
  // A label that is not made of the grammar's words is already in reader's words.
  if (!words.every((w) => w === "all" || Object.hasOwn(LIST_STATE_WORDS, w))) return `${filterLabel} ${noun}`;
  if (words.includes("all")) return `${noun} in any state`;
  const states = [...new Set(words.map((w) => LIST_STATE_WORDS[w] ?? w))];
  if (states.length === 1 && states[0] !== "in progress") return `${states[0]} ${noun}`;
  const listed =
    states.length === 1 ? states[0] : `${states.slice(0, -1).join(", ")} or ${states.at(-1) ?? ""}`;
  return `${noun} ${listed}`;
}

/** /etransport list: a header with totals, up to 8 cards, Previous/Next. */
export function transportListMessage(input: TransportListInput): SlackMessage {
  const { totalRecords, pageIndex, filterLabel, search } = input;
  const pageSize = Math.max(1, input.pageSize);
  const filter = input.filter ?? filterLabel;
  const what = `${totalRecords} ${transportListPhrase(filterLabel, totalRecords)}`;
  // A UIT search is shown as UITs are everywhere else (grouped with dashes).
  const shownSearch = search === undefined ? undefined : formatUit(search);
  const searchText = shownSearch ? ` matching “${shownSearch}”` : "";

  if (input.transports.length === 0) {
    const text =
      totalRecords > 0
        ? `No ${transportListPhrase(filterLabel)} on page ${pageIndex + 1}${searchText}; there are ${totalRecords} in all.`
        : `No ${transportListPhrase(filterLabel)}${searchText}.`;
    const blocks: KnownBlock[] = [
      {
        type: "section",
        block_id: "etransport.list.empty",
        text: mrkdwn(
          `${userText(text, 400)}\nTry \`/etransport list all\`, search with \`/etransport list all B-12-ABC\`, or add one with \`/etransport new\`.`,
        ),
      },
    ];
    if (pageIndex > 0) blocks.push(navBlock(filter, search, pageIndex, false));
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
    `${first}–${last} of ${totalRecords}`,
    pages > 1 ? `page ${pageIndex + 1} of ${pages}` : undefined,
    shownSearch ? `search “${userText(shownSearch, 100)}”` : undefined,
    input.transports.length > shown.length
      ? `only the first ${shown.length} of this page are shown; ask for smaller pages`
      : undefined,
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
  const nav = hasPrevious || hasNext ? navBlock(filter, search, pageIndex, hasNext) : undefined;
  const fixed = blocksText(blocks) + (nav ? blocksText([nav]) : 0);
  const cardOpts: TransportCardOptions = {};
  if (input.timeZone !== undefined) cardOpts.timeZone = input.timeZone;
  if (input.nowMs !== undefined) cardOpts.nowMs = input.nowMs;
  if (input.listToken !== undefined) cardOpts.listToken = input.listToken;
  blocks.push(...fittingCards(shown, cardOpts, MESSAGE_TEXT_BUDGET - fixed).blocks);
  if (nav) blocks.push({ type: "divider" }, nav);
  return {
    text: `e-Transport · ${what}${shownSearch ? ` matching “${userText(shownSearch, 100)}”` : ""}${pages > 1 ? ` (page ${pageIndex + 1} of ${pages})` : ""}`,
    blocks,
  };
}

function navBlock(
  filter: string,
  search: string | undefined,
  pageIndex: number,
  hasNext: boolean,
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
      text: plain("◀ Previous"),
      value: value(pageIndex - 1),
    });
  }
  if (hasNext) {
    elements.push({
      type: "button",
      action_id: ACTIONS.transportListNext,
      text: plain("Next ▶"),
      value: value(pageIndex + 1),
    });
  }
  return { type: "actions", block_id: `etransport.list.nav.${pageIndex}`, elements };
}

// ---------- action outcomes ----------

/** The actions a card's buttons run as one task (Edit and Remove ask first). */
type TransportCardAction = Exclude<TransportAction, "edit" | "remove">;

const UNDER_WAY: Readonly<Record<TransportCardAction, string>> = {
  start: "Starting…",
  pause: "Pausing…",
  end: "Ending…",
};

/**
 * A list while an action on one of its cards runs: that card's buttons (the actions block the
 * click came from) give way to "⏳ Starting…"; every other card and button stays as it was.
 */
export function withCardUnderWay(
  list: SlackMessage,
  actionsBlockId: string,
  action: TransportCardAction,
  /** Where the action stands ("next in line, about 30 s"), as commands say it (progressPhrase). */
  wait?: string,
): SlackMessage {
  const line = `:hourglass_flowing_sand: ${UNDER_WAY[action]}${wait ? ` ${wait}` : ""}`;
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
export function actionUnderWayNote(action: TransportCardAction, codeUit: string, wait: string): SlackMessage {
  const text = `:hourglass_flowing_sand: ${UNDER_WAY[action]} UIT ${userText(formatUit(codeUit), 40)}: ${wait}`;
  return { text, blocks: [{ type: "section", block_id: "etransport.under-way", text: mrkdwn(text) }] };
}

/** The clicking user's note while "Show transport" looks the transport up. */
export function lookupUnderWayNote(codeUit: string, wait: string): SlackMessage {
  const text = `:mag: Looking up UIT ${userText(formatUit(codeUit), 40)}: ${wait}`;
  return { text, blocks: [{ type: "section", block_id: "etransport.lookup", text: mrkdwn(text) }] };
}

export type TransportBulkAction = "start" | "pause" | "end" | "remove";

const DONE: Readonly<
  Record<TransportBulkAction, { ok: string; failed: string; title: string; past: string }>
> = {
  start: { ok: "started", failed: "not started", title: "Start", past: "Started" },
  pause: { ok: "paused", failed: "not paused", title: "Pause", past: "Paused" },
  end: { ok: "ended", failed: "not ended", title: "End", past: "Ended" },
  remove: { ok: "removed", failed: "not removed", title: "Remove", past: "Removed" },
};

export interface TransportActionResultOptions {
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
): string {
  const words = DONE[action];
  const total = results.length;
  const succeeded = results.filter((r) => r.isSuccess).length;
  const refused = total - succeeded;
  if (total === 0) return `${words.title}: no transport was named.`;
  if (refused === 0)
    return total === 1 ? `${words.past} the transport.` : `${words.past} all ${total} transports.`;
  if (succeeded === 0) return `${words.title} refused for ${refused} of ${total}.`;
  return `${words.past} ${succeeded} of ${total}; ${refused} refused.`;
}

/** Per-UIT ✅/❌ with the service's error text (and its meaning when known), then the updated cards. */
export function transportActionResultMessage(
  action: TransportBulkAction,
  results: readonly TransportActionResult[],
  transportsAfter?: readonly TransportView[],
  opts: TransportActionResultOptions = {},
): SlackMessage {
  const words = DONE[action];
  const failed = results.filter((r) => !r.isSuccess).length;
  const headline = transportActionHeadline(action, results);

  const lines = results.map((r) => {
    const uit = `\`${userText(formatUit(r.codeUit), 40)}\``;
    // Not reported: the service answered for the request as a whole (or a resumed task found
    // the change made); the reader should know this UIT was not confirmed on its own.
    if (r.isSuccess)
      return `✅ ${uit} ${words.ok}${r.reported ? "" : " _(the service accepted the request as a whole, without an answer for each UIT)_"}`;
    const errors = r.errors.length > 0 ? r.errors : ["no reason given"];
    const explained = errors.map((e) => {
      const code = e.trim();
      const known = isKnownTransportFailure(code)
        ? ` — ${describeTransportFailure(code, [formatUit(r.codeUit)]).summary}`
        : "";
      return `${userText(code, 200)}${userText(known, 300)}`;
    });
    return `❌ ${uit} ${words.failed}: ${explained.join("; ")}`;
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
      elements: [mrkdwn(`…and ${omitted} more; see \`/etransport list all\`.`)],
    });
  }
  if (failed > 0 && opts.correlationId) {
    blocks.push({
      type: "context",
      block_id: "etransport.result.support",
      elements: [mrkdwn(`For support: correlation id \`${userText(opts.correlationId, 100)}\``)],
    });
  }

  if (transportsAfter && transportsAfter.length > 0) {
    const room = Math.floor((MAX_MESSAGE_BLOCKS - blocks.length - 2) / 4);
    const candidates = transportsAfter.slice(0, Math.max(0, Math.min(room, TRANSPORT_LIST_PAGE_SIZE)));
    const cardOpts: TransportCardOptions = {};
    if (opts.timeZone !== undefined) cardOpts.timeZone = opts.timeZone;
    if (opts.nowMs !== undefined) cardOpts.nowMs = opts.nowMs;
    const budget = MESSAGE_TEXT_BUDGET - blocksText(blocks) - 200;
    const cards = fittingCards(candidates, cardOpts, budget, true);
    if (cards.shown > 0) blocks.push({ type: "divider" }, ...cards.blocks);
    if (cards.shown < transportsAfter.length) {
      blocks.push({
        type: "context",
        block_id: "etransport.result.more",
        elements: [
          mrkdwn(
            `${transportsAfter.length - cards.shown} more transport${transportsAfter.length - cards.shown === 1 ? "" : "s"} not shown: see \`/etransport list all\`.`,
          ),
        ],
      });
    }
  }
  return { text: headline, blocks };
}

// ---------- remove confirmation ----------

/** /etransport remove <UIT>: what will be deleted, and a danger button that asks once more. */
export function removeConfirmationMessage(
  t: TransportView,
  opts: Pick<TransportCardOptions, "timeZone" | "nowMs"> = {},
): SlackMessage {
  const uit = formatUit(t.codeUit);
  const button = transportButton(t, "remove");
  button.text = plain("Remove transport");
  // Next to the danger button, a way out that leaves the transport as it is.
  const keep: Button = {
    type: "button",
    action_id: ACTIONS.transportRemoveCancel,
    text: plain("Cancel"),
    value: transportButtonValue(t),
  };
  const actions: ActionsBlock = {
    type: "actions",
    block_id: `etransport.remove.${idPart(t.codeUit)}`,
    elements: [button, keep],
  };
  return {
    text: `Remove the transport with UIT ${userText(uit, 40)}? This cannot be undone.`,
    blocks: [
      {
        type: "section",
        block_id: "etransport.remove.question",
        text: mrkdwn(
          `:warning: *Remove this transport?* It is deleted from the fleet service and its GPS transmission stops. *This cannot be undone.*`,
        ),
      },
      ...transportCard(t, { ...opts, buttons: false, detail: "compact" }),
      actions,
    ],
  };
}

/** What replaces the remove question after its Cancel: nothing was removed. */
export function removeCancelledMessage(codeUit: string): SlackMessage {
  const uit = formatUit(codeUit);
  return {
    text: `Not removed: the transport with UIT ${userText(uit, 40)} stays as it was.`,
    blocks: [
      {
        type: "section",
        block_id: "etransport.remove.cancelled",
        text: mrkdwn(`Not removed: the transport with UIT \`${userText(uit, 40)}\` stays as it was.`),
      },
    ],
  };
}
