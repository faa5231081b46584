/**
 * e-Transport messages (pure): transport cards with buttons by state, the paged list,
 * outcomes of start/pause/end/remove and the remove confirmation. Input is TransportView
 * (JSON-safe), so results stored in a task render the same later.
 *
 * This module: one transport's card, and the cards of several fitted to a text budget.
 */
import type { ActionsBlock, KnownBlock, SectionBlock } from "@slack/types";
import { DAY_MS } from "../../../../commands/time.js";
import { duration } from "../../../../i18n/format.js";
import type { Language } from "../../../../i18n/language.js";
import { mrkdwn } from "../../../../platform/slack/views/blocks.js";
import { userText } from "../../../../platform/slack/views/text.js";
import { type Severity, type TransportStateInfo, transportStateInfo } from "../../state.js";
import type { TransportView } from "../../types.js";
import { transportButtons } from "./cardButtons.js";
import { type DetailLimits, LIMITS_BY_DETAIL, type TransportCardOptions } from "./cardOptions.js";
import {
  blocksText,
  dateToken,
  formatUit,
  idPart,
  isAdvisedTransmission,
  isChangeRequestCode,
  isTransmissionCode,
  lowerFirst,
  SEVERITY_MARKS,
  transportStatusText,
} from "./transportText.js";
import { words } from "./words.js";

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

/** "B-12-ABC · Truck 12" (mrkdwn, escaped). */
function vehicleLabel(t: TransportView, max: number, language: Language): string {
  const plate = t.carrierCode ? `*${userText(t.carrierCode, 30)}*` : "";
  const name = t.carrierName && t.carrierName !== t.carrierCode ? userText(t.carrierName, max) : "";
  return [plate, name].filter((s) => s !== "").join(" · ") || `_${words(language).vehicleNotNamed()}_`;
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
      relative = validityLeft(start - opts.nowMs, language, "starts");
    else if (opts.nowMs < end) relative = validityLeft(end - opts.nowMs, language, "ends");
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

// ---------- cards ----------

/** One transport: a section with the facts, a context with dates and places, buttons by state. */
export function transportCard(t: TransportView, opts: TransportCardOptions): KnownBlock[] {
  const language = opts.language;
  const detail = LIMITS_BY_DETAIL[opts.detail ?? "full"];
  const id = `${idPart(t.codeUit)}${opts.blockIdSuffix ? `-${idPart(opts.blockIdSuffix)}` : ""}`;
  const lines = cardLines(t, opts, detail);
  const facts = cardFacts(t, opts, detail);
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

/** The card's section: UIT and status, vehicle, transmission, validity, change request, answer, notes. */
function cardLines(t: TransportView, opts: TransportCardOptions, detail: DetailLimits): string[] {
  const language = opts.language;
  const m = words(language);
  const info = transportStateInfo(t);
  const lines: string[] = [];
  lines.push(
    `${MARKER[info.severity]}*\`${userText(formatUit(t.codeUit), 40)}\`* · ${STATUS_EMOJI[t.statusId] ?? "❔"} *${transportStatusText(language, t.statusId)}*`,
  );
  lines.push(`:truck: ${vehicleLabel(t, detail.name, language)}`);
  lines.push(transmissionLine(t, info.transmission, detail, language));

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
  return lines;
}

/** The transmission status, its meaning, and (when it is not fine) the advice and the service's words. */
function transmissionLine(
  t: TransportView,
  tx: TransportStateInfo["transmission"],
  detail: DetailLimits,
  language: Language,
): string {
  const m = words(language);
  const txWords = transmissionWords(tx, language);
  let txLine = `${m.transmissionLabel()} ${MARKER[tx.severity]}${tx.code ? `${userText(tx.code, 40)} — ` : ""}${txWords.meaning}`;
  if (tx.severity !== "ok" && txWords.advice && detail.advice) txLine += `\n      _${txWords.advice}_`;
  if (t.transmissionStatusErrorDescription && tx.severity !== "ok") {
    txLine += `\n      “${userText(t.transmissionStatusErrorDescription, detail.message)}”`;
  }
  return txLine;
}

/** The card's context line: last sent, last GPS, transmission window, trailers, places. */
function cardFacts(t: TransportView, opts: TransportCardOptions, detail: DetailLimits): string[] {
  const language = opts.language;
  const m = words(language);
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
  return facts;
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
export function fittingCards(
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

/** Two days or more until the validity starts or ends are counted in whole days ("ends in 4 days"); less, in hours and minutes. */
function validityLeft(ms: number, language: Language, edge: "starts" | "ends"): string {
  const m = words(language);
  const days = Math.floor(ms / DAY_MS);
  if (days >= 2) return edge === "starts" ? m.validityStartsInDays(days) : m.validityEndsInDays(days);
  const span = duration(language, ms);
  return edge === "starts" ? m.validityStartsIn({ span }) : m.validityEndsIn({ span });
}
