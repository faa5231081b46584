/** The daily digest of a channel's alerts. */
import type { KnownBlock } from "@slack/types";
import { faultStartedAt } from "../../../alerts/duration.js";
import type { IncidentKind } from "../../../alerts/incidents.js";
import type { TransportView } from "../../../etransport/types.js";
import { type Language, messages, number } from "../../../i18n/index.js";
import { mrkdwn, plain } from "../blocks.js";
import { blocksText, cut, formatUit } from "../etransportText.js";
import type { SlackMessage } from "../message.js";
import { userText } from "../text.js";
import {
  type AlertIncident,
  type AlertViewOptions,
  alertDate,
  markOf,
  statusName,
  titleOf,
} from "./incidentText.js";

// ---------- digest ----------

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
  const statusLine =
    Object.entries(input.countsByStatus)
      .filter(([, n]) => n > 0)
      .map(([id, n]) => `${statusName(lang, Number(id))}: *${number(lang, n)}*`)
      .join(" · ") || m.digestNoTransports();
  const blocks: KnownBlock[] = [
    {
      type: "header",
      block_id: "alert.digest.header",
      text: plain(cut(m.digestHeader({ account: input.account }), 150)),
    },
    {
      type: "section",
      block_id: "alert.digest.status",
      text: mrkdwn(m.digestTransports({ counts: statusLine })),
    },
  ];
  const section = (blockId: string, title: string, items: string[], none: string) => {
    const shown: string[] = [];
    let used = blocksText(blocks) + title.length;
    for (const item of items) {
      if (shown.length >= DIGEST_MAX_LINES || used + item.length > DIGEST_BUDGET / 2) break;
      shown.push(item);
      used += item.length + 1;
    }
    let body = shown.length > 0 ? shown.join("\n") : `_${none}_`;
    if (shown.length < items.length) body += `\n${m.digestMore(items.length - shown.length)}`;
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
  };
  // The two kinds that say "look now" are counted apart: hidden transports and stalled ones.
  const count = (kind: IncidentKind) => input.incidents.filter((i) => i.kind === kind).length;
  const apart = [
    count("vanished") > 0 ? m.digestVanished(count("vanished")) : "",
    count("stalled") > 0 ? m.digestStalled(count("stalled")) : "",
  ].filter((p) => p !== "");
  section(
    "alert.digest.open",
    m.digestOpenTitle({ n: input.incidents.length, apart: apart.join(", ") }),
    input.incidents.map(
      (i) =>
        `${markOf(i)} \`${userText(formatUit(i.codeUit), 40)}\` ${i.facts.carrierCode ? `*${userText(i.facts.carrierCode, 30)}* ` : ""}${m.digestOpenLine({ title: titleOf(i, lang), code: userText(i.code, 60), when: alertDate(faultStartedAt(i), opts) })}`,
    ),
    m.digestNoOpen(),
  );
  section(
    "alert.digest.expiring",
    m.digestExpiringTitle(input.expiring.length),
    input.expiring.map(
      (t) =>
        `⏳ \`${userText(formatUit(t.codeUit), 40)}\` ${t.carrierCode ? `*${userText(t.carrierCode, 30)}* ` : ""}${m.digestEnds({ when: t.validityEndMs === undefined ? "?" : alertDate(t.validityEndMs, opts) })}`,
    ),
    m.digestNone(),
  );
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
