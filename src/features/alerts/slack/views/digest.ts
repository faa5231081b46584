/** The daily digest of a channel's alerts. */
import type { KnownBlock } from "@slack/types";
import { type Language, messages, number } from "../../../../i18n/index.js";
import { mrkdwn, plain } from "../../../../platform/slack/views/blocks.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import { userText } from "../../../../platform/slack/views/text.js";
import type { TransportView } from "../../../etransport/index.js";
import { blocksText, cut, formatUit } from "../../../etransport/index.js";
import { faultStartedAt } from "../../duration.js";
import type { IncidentKind } from "../../incidents.js";
import { isVehicleKind } from "../../incidents.js";
import {
  type AlertIncident,
  type AlertViewOptions,
  alertDate,
  markOf,
  statusName,
  titleOf,
} from "./incidentText.js";

export interface DigestInput {
  /** Open incidents this channel wants. */
  incidents: readonly AlertIncident[];
  /** Transports of the sweep by status id. */
  countsByStatus: Readonly<Record<number, number>>;
  /** UITs whose validity ends within a day. */
  expiring: readonly TransportView[];
  account: string;
  nowMs: number;
  timeZone?: string;
  /** The subscription's language (resolved by the publisher). */
  language: Language;
}

const DIGEST_BUDGET = 10_000;
const DIGEST_MAX_LINES = 40;

/** The daily digest of one channel: open incidents, transports by status, UITs expiring within a day. */
export function digestMessage(input: DigestInput): SlackMessage {
  const lang = input.language;
  const opts: AlertViewOptions = { nowMs: input.nowMs, language: lang };
  if (input.timeZone !== undefined) opts.timeZone = input.timeZone;
  const m = messages(lang).alerts;
  const blocks: KnownBlock[] = [
    {
      type: "header",
      block_id: "alert.digest.header",
      text: plain(cut(m.digestHeader({ account: input.account }), 150)),
    },
    {
      type: "section",
      block_id: "alert.digest.status",
      text: mrkdwn(m.digestTransports({ counts: statusLine(input.countsByStatus, lang) })),
    },
  ];
  // The two kinds that say "look now" are counted apart: hidden transports and stalled ones.
  const count = (kind: IncidentKind) => input.incidents.filter((i) => i.kind === kind).length;
  const apart = [
    count("vanished") > 0 ? m.digestVanished(count("vanished")) : "",
    count("stalled") > 0 ? m.digestStalled(count("stalled")) : "",
  ].filter((p) => p !== "");
  pushDigestSection(blocks, lang, {
    blockId: "alert.digest.open",
    title: m.digestOpenTitle({ n: input.incidents.length, apart: apart.join(", ") }),
    items: input.incidents.map((i) => openIncidentLine(i, opts)),
    none: m.digestNoOpen(),
  });
  pushDigestSection(blocks, lang, {
    blockId: "alert.digest.expiring",
    title: m.digestExpiringTitle(input.expiring.length),
    items: input.expiring.map((t) => expiringLine(t, opts)),
    none: m.digestNone(),
  });
  return {
    text: cut(
      m.digestText({
        open: input.incidents.length,
        apart: apart.join(", "),
        expiring: input.expiring.length,
      }),
      300,
    ),
    blocks,
  };
}

/** "Pending: *3* · In progress: *12*", or that there is none. */
function statusLine(countsByStatus: Readonly<Record<number, number>>, lang: Language): string {
  return (
    Object.entries(countsByStatus)
      .filter(([, n]) => n > 0)
      .map(([id, n]) => `${statusName(lang, Number(id))}: *${number(lang, n)}*`)
      .join(" · ") || messages(lang).alerts.digestNoTransports()
  );
}

function openIncidentLine(i: AlertIncident, opts: AlertViewOptions): string {
  const m = messages(opts.language).alerts;
  // A vehicle alert names no UIT: its plate (codeUit) is shown once, as the vehicle.
  const uit = isVehicleKind(i.kind) ? "" : `\`${userText(formatUit(i.codeUit), 40)}\` `;
  return `${markOf(i)} ${uit}${i.facts.carrierCode ? `*${userText(i.facts.carrierCode, 30)}* ` : ""}${m.digestOpenLine({ title: titleOf(i, opts.language), code: userText(i.code, 60), when: alertDate(faultStartedAt(i), opts) })}`;
}

function expiringLine(t: TransportView, opts: AlertViewOptions): string {
  const m = messages(opts.language).alerts;
  return `⏳ \`${userText(formatUit(t.codeUit), 40)}\` ${t.carrierCode ? `*${userText(t.carrierCode, 30)}* ` : ""}${m.digestEnds({ when: t.validityEndMs === undefined ? "?" : alertDate(t.validityEndMs, opts) })}`;
}

/**
 * A titled list of the digest: as many items as fit (DIGEST_MAX_LINES, half the budget, counted
 * with the blocks before it), the rest counted, in sections of at most 2900 characters.
 */
function pushDigestSection(
  blocks: KnownBlock[],
  lang: Language,
  list: { blockId: string; title: string; items: string[]; none: string },
): void {
  const { blockId, title, items, none } = list;
  const shown: string[] = [];
  let used = blocksText(blocks) + title.length;
  for (const item of items) {
    if (shown.length >= DIGEST_MAX_LINES || used + item.length > DIGEST_BUDGET / 2) break;
    shown.push(item);
    used += item.length + 1;
  }
  let body = shown.length > 0 ? shown.join("\n") : `_${none}_`;
  if (shown.length < items.length)
    body += `\n${messages(lang).alerts.digestMore(items.length - shown.length)}`;
  // Sections hold at most 3000 characters: split long bodies.
  const chunks: string[] = [];
  let chunk = `*${title}*`;
  for (const line of body.split("\n")) {
    if (chunk.length + line.length + 1 > 2900) {
      chunks.push(chunk);
      chunk = line;
    } else chunk += `\n${line}`;
  }
  chunks.push(chunk);
  chunks.forEach((text, i) => {
    blocks.push({ type: "section", block_id: `${blockId}.${i}`, text: mrkdwn(text) });
  });
}
