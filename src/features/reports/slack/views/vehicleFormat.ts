/**
 * Text and layout helpers of the vehicle-data views (pure). Every size here keeps a
 * message inside shared/slack/LIMITS.md with a margin: ≤ 50 blocks, section text ≤ 3000,
 * ≤ 10 fields of ≤ 2000, header ≤ 150, button text ≤ 75 and value ≤ 2000, and the block
 * text of a message ≤ 11,000 characters (Slack rejects about 12,000 with msg_blocks_too_long).
 */
import type { ActionsBlock, Button, ContextBlock, KnownBlock, SectionBlock } from "@slack/types";
import { messages } from "../../../../i18n/catalogue.js";
import { duration, slackDate as slackDateOf, time } from "../../../../i18n/format.js";
import type { Language } from "../../../../i18n/language.js";
import { type PeriodLabel, periodText } from "../../../../i18n/periodText.js";
import { ACTIONS } from "../../../../platform/slack/actionIds.js";
import { type SlackMessage, slackDate } from "../../../../platform/slack/views/message.js";
import { userText } from "../../../../platform/slack/views/text.js";

export const MAX_BLOCKS = 50;
export const MAX_SECTION_TEXT = 3000;
export const MAX_FIELD_TEXT = 2000;
export const MAX_HEADER = 150;
export const MAX_BUTTON_VALUE = 2000;
/** Our own ceiling for the total block text of a message (Slack's is about 12,000). */
export const MAX_MESSAGE_TEXT = 11_000;
/** Sections are filled up to this many characters (below MAX_SECTION_TEXT). */
const SECTION_FILL = 2900;

/** Options shared by the vehicle-data views. */
export interface VehicleViewOptions {
  /**
   * COMPANY_TIMEZONE. When given, a context line says the fleet service's times are
   * company local time in that zone, shown in the reader's own zone.
   */
  companyTimeZone?: string;
  /** Zone of the fallback texts of dates (views with a period default to period.timeZone, else UTC). */
  timeZone?: string;
  /** The reader's language (resolved once per request or task). */
  language: Language;
  /** The present instant, so a date of another year shows its year. */
  nowMs?: number;
}

/** The language of a view's options. */

// ---------- text ----------

export { slackDate, userText };

/** Outside text on one line (runs of white space made one space), escaped and cut by {@link userText}. */
export function clipMrkdwn(text: string, max: number): string {
  return userText(text.replace(/\s+/g, " ").trim(), max);
}

/** Plain text (header, button) cut to `max` characters. */
export function clipPlain(text: string, max: number): string {
  const single = text.replace(/\s+/g, " ").trim();
  if (single.length <= max) return single;
  let out = "";
  for (const ch of single) {
    if (out.length + ch.length > max - 1) break;
    out += ch;
  }
  return `${out}…`;
}

/** "B-123-ABC — Volvo FH" (plate, name, or #id when both are missing). */
export function vehicleTitle(v: { vehicleId: number; plate: string; name: string }): string {
  return [v.plate, v.name].filter((s) => s.trim() !== "").join(" — ") || `#${v.vehicleId}`;
}

/** Bold plate and escaped name, clipped: "*B-123-ABC* — Volvo FH". */
export function vehicleMrkdwn(v: { vehicleId: number; plate: string; name: string }, maxName = 80): string {
  const plate = v.plate.trim() ? `*${clipMrkdwn(v.plate, 30)}*` : `*#${v.vehicleId}*`;
  return v.name.trim() ? `${plate} — ${clipMrkdwn(v.name, maxName)}` : plate;
}

// ---------- numbers and durations ----------

/** Minutes in the one duration form (format.ts): "45 min", "3 h 5 min", "53 h 10 min". */
export function fmtMinutes(lang: Language, minutes: number): string {
  return duration(lang, minutes * 60_000);
}

// ---------- dates ----------

/**
 * An instant for a reader: Slack's date token in the one form of format.ts (each reader sees
 * their own zone; Romanian uses the numeric tokens), the fallback in `timeZone`.
 */
export function slackDateIn(lang: Language, ms: number, timeZone: string, nowMs?: number): string {
  return slackDateOf(lang, ms, timeZone, nowMs === undefined ? {} : { nowMs });
}

/** Only the time of an instant ("14:05"), as a Slack token in the reader's zone. */
export function slackTimeIn(lang: Language, ms: number, timeZone: string): string {
  return slackDate(ms, "{time}", time(lang, ms, timeZone));
}

/**
 * "5 min ago". English: Slack's `{ago}`, rendered at reading time, the fallback the age at
 * `nowMs`. Slack writes `{ago}` in English whatever the reader's language, so Romanian gets
 * the age at `nowMs` as text ("acum 5 min").
 */
export function slackAgo(lang: Language, ms: number, nowMs: number): string {
  const m = messages(lang).common;
  const age = nowMs - ms;
  const text = age < 60_000 ? m.justNow() : m.ago({ duration: duration(lang, age) });
  return lang === "en" ? slackDate(ms, "{ago}", text) : text;
}

/**
 * A period as "label (from – to)", or only "from – to" when the header above already names
 * it (`labelInHeader`), so "yesterday (2026-11-24)" is not read twice.
 */
export function periodMrkdwn(
  period: {
    label: PeriodLabel;
    fromMs: number;
    toMs: number;
    timeZone: string;
  },
  options: { labelInHeader?: boolean; language: Language; nowMs?: number },
): string {
  // The one date form (format.ts), as the period's label writes its dates: one form per header.
  const lang = options.language;
  const range = `${slackDateIn(lang, period.fromMs, period.timeZone, options.nowMs)} – ${slackDateIn(lang, period.toMs, period.timeZone, options.nowMs)}`;
  if (options.labelInHeader === true) return range;
  const label = periodText(period.label, lang);
  return label.trim() ? `${clipMrkdwn(label, 100)} (${range})` : range;
}

export function companyTimeNote(options: VehicleViewOptions): string | undefined {
  return options.companyTimeZone
    ? messages(options.language).reports.companyTime({ zone: userText(options.companyTimeZone, 60) })
    : undefined;
}

// ---------- pagination ----------

/**
 * Greedy pages: at most `maxItems` items and `maxChars` characters (by `size`) each, at
 * least one item per page. Pure in its input, so re-rendering a stored report at page p
 * gives the same page. An empty list gives one empty page.
 */
export function paginate<T>(
  items: readonly T[],
  maxItems: number,
  maxChars: number,
  size: (item: T) => number,
): T[][] {
  const pages: T[][] = [];
  let page: T[] = [];
  let chars = 0;
  for (const item of items) {
    const s = size(item);
    if (page.length > 0 && (page.length >= maxItems || chars + s > maxChars)) {
      pages.push(page);
      page = [];
      chars = 0;
    }
    page.push(item);
    chars += s;
  }
  pages.push(page);
  return pages;
}

/** Pages are 0-based (0 = the first page, the one posted with the files); clamped into [0, count − 1]. */
export function clampPage(page: number, count: number): number {
  if (!Number.isFinite(page)) return 0;
  return Math.min(Math.max(0, Math.trunc(page)), Math.max(0, count - 1));
}

/** The value of a page button: the listener re-renders the stored report `t` at page `p` (0-based). */
export function pageButtonValue(pageToken: string, page: number): string {
  return JSON.stringify({ t: pageToken, p: page });
}

// ---------- blocks ----------

/**
 * Collects blocks with unique block_ids (`prefix.n`), keeps head, body and tail apart,
 * and at the end drops body blocks if the message would exceed the block or text limit,
 * saying so.
 */
export class MessageBuilder {
  readonly #head: KnownBlock[] = [];
  readonly #body: KnownBlock[] = [];
  readonly #tail: KnownBlock[] = [];
  #n = 0;
  constructor(
    readonly prefix: string,
    readonly language: Language,
  ) {}

  #id(): string {
    this.#n += 1;
    return `${this.prefix}.${this.#n}`;
  }

  header(text: string): this {
    this.#head.push({
      type: "header",
      block_id: this.#id(),
      text: { type: "plain_text", text: clipPlain(text, MAX_HEADER), emoji: true },
    });
    return this;
  }

  context(texts: (string | undefined)[], where: "head" | "body" | "tail" = "head"): this {
    const elements = texts
      .filter((t): t is string => !!t)
      .slice(0, 10)
      .map((t) => ({ type: "mrkdwn" as const, text: t.slice(0, MAX_SECTION_TEXT) }));
    if (elements.length === 0) return this;
    const block: ContextBlock = { type: "context", block_id: this.#id(), elements };
    this.#list(where).push(block);
    return this;
  }

  section(text: string, where: "head" | "body" | "tail" = "body", accessory?: Button): this {
    const block: SectionBlock = {
      type: "section",
      block_id: this.#id(),
      text: { type: "mrkdwn", text: text.slice(0, MAX_SECTION_TEXT) },
    };
    if (accessory) block.accessory = accessory;
    this.#list(where).push(block);
    return this;
  }

  /** Lines grouped into as few sections as fit SECTION_FILL characters each. */
  lines(lines: string[], where: "head" | "body" | "tail" = "body"): this {
    let chunk = "";
    for (const line of lines) {
      const l = line.slice(0, SECTION_FILL);
      if (chunk && chunk.length + 1 + l.length > SECTION_FILL) {
        this.section(chunk, where);
        chunk = "";
      }
      chunk = chunk ? `${chunk}\n${l}` : l;
    }
    if (chunk) this.section(chunk, where);
    return this;
  }

  fields(fields: string[], where: "head" | "body" | "tail" = "body"): this {
    for (let i = 0; i < fields.length; i += 10) {
      const block: SectionBlock = {
        type: "section",
        block_id: this.#id(),
        fields: fields
          .slice(i, i + 10)
          .map((t) => ({ type: "mrkdwn" as const, text: t.slice(0, MAX_FIELD_TEXT) })),
      };
      this.#list(where).push(block);
    }
    return this;
  }

  actions(elements: Button[], where: "head" | "body" | "tail" = "tail"): this {
    if (elements.length === 0) return this;
    const block: ActionsBlock = { type: "actions", block_id: this.#id(), elements: elements.slice(0, 25) };
    this.#list(where).push(block);
    return this;
  }

  /** Previous / Next buttons when there is more than one page (`page` 0-based, labels 1-based). */
  pager(page: number, pageCount: number, pageToken: string): this {
    if (pageCount <= 1) return this;
    const elements: Button[] = [];
    const button = (actionId: string, text: string, target: number): Button => ({
      type: "button",
      action_id: actionId,
      text: { type: "plain_text", text, emoji: true },
      value: pageButtonValue(pageToken, target).slice(0, MAX_BUTTON_VALUE),
    });
    const m = messages(this.language).reports;
    const count = String(pageCount);
    if (page > 0)
      elements.push(button(ACTIONS.pagePrevious, m.previous({ page: String(page), count }), page - 1));
    if (page < pageCount - 1)
      elements.push(button(ACTIONS.pageNext, m.next({ page: String(page + 2), count }), page + 1));
    const block: ActionsBlock = { type: "actions", block_id: this.#id(), elements };
    this.#tail.push(block);
    return this;
  }

  #list(where: "head" | "body" | "tail"): KnownBlock[] {
    return where === "head" ? this.#head : where === "tail" ? this.#tail : this.#body;
  }

  build(text: string): SlackMessage {
    const body = [...this.#body];
    const fits = (b: KnownBlock[], extra: number) =>
      this.#head.length + b.length + this.#tail.length + extra <= MAX_BLOCKS &&
      blocksText([...this.#head, ...b, ...this.#tail]) + (extra ? 200 : 0) <= MAX_MESSAGE_TEXT;
    let dropped = false;
    while (body.length > 0 && !fits(body, dropped ? 1 : 0)) {
      body.pop();
      dropped = true;
    }
    const blocks = [...this.#head, ...body];
    if (dropped) {
      blocks.push({
        type: "context",
        block_id: this.#id(),
        elements: [
          {
            type: "mrkdwn",
            text: messages(this.language).reports.linesLeftOut(),
          },
        ],
      });
    }
    blocks.push(...this.#tail);
    return { text: text.slice(0, 3000), blocks };
  }
}

import { blocksText } from "../../../../platform/slack/views/message.js";

export { blocksText };
