/**
 * Text and layout helpers of the vehicle-data views (pure). Every size here keeps a
 * message inside shared/slack/LIMITS.md with a margin: ≤ 50 blocks, section text ≤ 3000,
 * ≤ 10 fields of ≤ 2000, header ≤ 150, button text ≤ 75 and value ≤ 2000, and the block
 * text of a message ≤ 11,000 characters (Slack rejects about 12,000 with msg_blocks_too_long).
 */
import type { ActionsBlock, Button, ContextBlock, KnownBlock, SectionBlock } from "@slack/types";
import { ACTIONS } from "../actionIds.js";
import { type SlackMessage, slackDate } from "./message.js";
import { userText } from "./text.js";
import { wallDateTime } from "./wallClock.js";

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
}

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

/**
 * One formatter per number of decimals, made once: `toLocaleString` with options builds a new
 * Intl.NumberFormat at every call (about 0.1–0.2 ms each, three of them in every `where` card).
 */
const numberFormats = new Map<number, Intl.NumberFormat>();

export function fmtNumber(value: number, digits = 1): string {
  let format = numberFormats.get(digits);
  if (!format) {
    format = new Intl.NumberFormat("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
    numberFormats.set(digits, format);
  }
  return format.format(value);
}

/** 45 min · 3 h 05 min · 2 d 3 h */
export function fmtMinutes(minutes: number): string {
  const m = Math.max(0, Math.round(minutes));
  if (m < 60) return `${m} min`;
  if (m < 1440) return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, "0")} min`;
  return `${Math.floor(m / 1440)} d ${Math.floor((m % 1440) / 60)} h`;
}

// ---------- dates ----------

/**
 * Slack date formatting: each reader sees the time in their own zone. The fallback (for
 * clients that cannot render it) is the wall time in `timeZone` with its offset.
 */
export function slackDateIn(ms: number, timeZone: string, tokens = "{date_short_pretty} {time}"): string {
  return slackDate(ms, tokens, wallDateTime(ms, timeZone));
}

/** "5 min ago" rendered by Slack at reading time; the fallback is the age at `nowMs`. */
export function slackAgo(ms: number, nowMs: number): string {
  return slackDate(ms, "{ago}", `${fmtMinutes((nowMs - ms) / 60_000)} ago`);
}

/**
 * A period as "label (from – to)", or only "from – to" when the header above already names
 * it (`labelInHeader`), so "yesterday (2026-11-24)" is not read twice.
 */
export function periodMrkdwn(
  period: {
    label: string;
    fromMs: number;
    toMs: number;
    timeZone: string;
  },
  options: { labelInHeader?: boolean } = {},
): string {
  // {date_num} (2026-11-03) is the form the period's label uses: one date format per header.
  const range = `${slackDateIn(period.fromMs, period.timeZone, "{date_num} {time}")} – ${slackDateIn(period.toMs, period.timeZone, "{date_num} {time}")}`;
  if (options.labelInHeader === true) return range;
  return period.label.trim() ? `${clipMrkdwn(period.label, 100)} (${range})` : range;
}

export function companyTimeNote(options: VehicleViewOptions): string | undefined {
  return options.companyTimeZone
    ? `Times from the fleet service are company local time (${userText(options.companyTimeZone, 60)}), shown in your time zone.`
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
  constructor(readonly prefix: string) {}

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
    if (page > 0) elements.push(button(ACTIONS.pagePrevious, `◀ Previous (${page}/${pageCount})`, page - 1));
    if (page < pageCount - 1)
      elements.push(button(ACTIONS.pageNext, `Next (${page + 2}/${pageCount}) ▶`, page + 1));
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
            text: "Some lines were left out to fit Slack's limits; the attached file has everything.",
          },
        ],
      });
    }
    blocks.push(...this.#tail);
    return { text: text.slice(0, 3000), blocks };
  }
}

import { blocksText } from "./message.js";

export { blocksText };
