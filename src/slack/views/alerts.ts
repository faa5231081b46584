import type { ActionsBlock, Block, Button, ContextBlock, KnownBlock, SectionBlock } from "@slack/types";
import { faultDurationSpan, faultEnd, faultStartedAt } from "../../alerts/duration.js";
import {
  ALERT_FILTER_WORDS,
  INCIDENT_KINDS,
  type IncidentKind,
  type IncidentRecord,
  type ResolveReason,
  SEND_LIMIT_MS,
  stalledSinceMs,
} from "../../alerts/incidents.js";
import { type AlertSeverity, alertSeverity, isDomesticRoute } from "../../alerts/severity.js";
import type { AlertFilterProblem } from "../../alerts/subscriptions.js";
import { transportStateInfo } from "../../etransport/state.js";
import type { TransportView } from "../../etransport/types.js";
import {
  CHANGE_REQUEST_STATUS_CODES,
  TRANSMISSION_STATUS_CODES,
  TRANSPORT_STATUS,
  type TransportStatusId,
} from "../../fleet/schemas.js";
import {
  type AdvisedTransmissionCode,
  type ChangeRequestCode,
  duration,
  LANGUAGES,
  type Language,
  messages,
  number,
  slackDate,
  type TransmissionCode,
} from "../../i18n/index.js";
import type { AlertSubscription } from "../../store/alertStore.js";
import { ACTIONS } from "../actionIds.js";
import type { AlertOptionProblem } from "../grammar/alerts.js";
import { transportButtonValue } from "./etransport/buttonValues.js";
import {
  blocksText,
  cut,
  formatUit,
  idPart,
  SEVERITY_MARKS as TRANSPORT_SEVERITY_MARKS,
} from "./etransportText.js";
import { alertOptionMessage } from "./grammarError.js";
import type { SlackMessage } from "./message.js";
import { noticeMessage } from "./notice.js";
import { fitMrkdwn, userText } from "./text.js";

/**
 * Alert messages (pure): one alert per incident and channel with Pause / End / Show / Mute
 * buttons, its resolved version (edited in place, no buttons), the thread reply of the
 * resolution, the daily digest and the subscription list.
 */

export type { SlackMessage } from "./message.js";

/** What a view needs of an incident (IncidentRecord has it). */
export type AlertIncident = Pick<
  IncidentRecord,
  "id" | "kind" | "code" | "codeUit" | "firstSeenAt" | "openedAt" | "resolvedAt" | "resolveReason" | "facts"
> &
  // The last check that saw the fault and the service's date of its end bound how long it lasted.
  Partial<Pick<IncidentRecord, "lastSeenAt" | "endEvidenceMs">>;

export interface AlertViewOptions {
  /** Zone of the date fallbacks; readers see date tokens in their own zone. UTC when absent. */
  timeZone?: string;
  /** With it, an expiry alert says "in 7 h". */
  nowMs?: number;
  /**
   * The language of the post: its subscription's, else the workspace's default, else
   * DEFAULT_LANGUAGE, resolved once per post by the publisher.
   */
  language: Language;
}

/** A date token in the post's language (`{date_num}` in Romanian), its fallback in `timeZone`. */
export function alertDate(ms: number, opts: AlertViewOptions): string {
  const options = opts.nowMs === undefined ? {} : { nowMs: opts.nowMs };
  return slackDate(opts.language, ms, opts.timeZone ?? "UTC", options);
}

const isTransmissionCode = (code: string): code is TransmissionCode =>
  (TRANSMISSION_STATUS_CODES as readonly string[]).includes(code);
const isChangeRequestCode = (code: string): code is ChangeRequestCode =>
  (CHANGE_REQUEST_STATUS_CODES as readonly string[]).includes(code);
const isAdvised = (code: TransmissionCode): code is AdvisedTransmissionCode =>
  code !== "Active" && code !== "Finalized";
const STATUS_IDS: readonly number[] = Object.values(TRANSPORT_STATUS);
const isTransportStatusId = (id: number): id is TransportStatusId => STATUS_IDS.includes(id);

/**
 * A status name after the code and a dash ("Error — transmission error"): TrackGPS's table names
 * are capitalised as headings; inside a line they read as the rest of the sentence.
 */
function lowerFirst(lang: Language, name: string): string {
  return name.charAt(0).toLocaleLowerCase(lang) + name.slice(1);
}

/** A transport status's name in `lang` (an unknown id as the English view says it). */
export function statusName(lang: Language, id: number): string {
  const e = messages(lang).etransport;
  return isTransportStatusId(id) ? e.transportStatus(id) : e.unknownTransportStatus({ id: String(id) });
}

/** Value of the Mute button: `{"u": codeUit, "c": channel}`. */
export interface AlertMuteValue {
  u: string;
  c: string;
}

export function alertMuteValue(codeUit: string, channel: string): string {
  const value: AlertMuteValue = { u: codeUit.slice(0, 200), c: channel.slice(0, 100) };
  return JSON.stringify(value);
}

export function parseAlertMuteValue(value: string | undefined): AlertMuteValue | undefined {
  try {
    const parsed: unknown = JSON.parse(value ?? "");
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const { u, c } = parsed as Record<string, unknown>;
    return typeof u === "string" && typeof c === "string" ? { u, c } : undefined;
  } catch {
    return undefined;
  }
}

/** How long the Mute button mutes a UIT in a channel. */
export const ALERT_MUTE_MS = 24 * 3600_000;

const plain = (text: string) => ({ type: "plain_text" as const, text, emoji: true });
const mrkdwn = (text: string) => ({ type: "mrkdwn" as const, text });

/** Red for a fault, amber for a warning, grey for information: the cards' marks too. */
export const SEVERITY_MARKS: Readonly<Record<AlertSeverity, string>> = TRANSPORT_SEVERITY_MARKS;

/** The title of an alert: a vehicle abroad on an international route is not a problem. */
export function titleOf(incident: Pick<AlertIncident, "kind" | "code" | "facts">, lang: Language): string {
  const m = messages(lang).alerts;
  if (incident.kind === "transmission" && alertSeverity(incident) === "info") return m.titleOutsideRomania();
  return m.title(incident.kind);
}

export function markOf(incident: Pick<AlertIncident, "kind" | "code" | "facts">): string {
  return SEVERITY_MARKS[alertSeverity(incident)];
}

function vehicleText(t: TransportView, lang: Language): string {
  const plate = t.carrierCode ? `*${userText(t.carrierCode, 30)}*` : "";
  const name = t.carrierName && t.carrierName !== t.carrierCode ? userText(t.carrierName, 80) : "";
  return [plate, name].filter((s) => s !== "").join(" · ") || `_${messages(lang).alerts.vehicleNotNamed()}_`;
}

function vehiclePlain(t: TransportView): string {
  return cut(t.carrierCode ?? t.carrierName ?? "", 30);
}

/** "Error — Transmission error" and the advice, by kind, in the post's language. */
function problemLines(incident: AlertIncident, opts: AlertViewOptions): string[] {
  const t = incident.facts;
  const lang = opts.language;
  const m = messages(lang).alerts;
  const e = messages(lang).etransport;
  const when = (ms: number) => alertDate(ms, opts);
  const lines: string[] = [];
  switch (incident.kind) {
    case "transmission": {
      const known = isTransmissionCode(incident.code) ? incident.code : undefined;
      const status = known
        ? lowerFirst(lang, e.transmissionStatus(known))
        : e.unknownTransmissionStatus({ code: userText(incident.code, 60) });
      lines.push(m.transmissionLine({ code: userText(incident.code, 60), status }));
      if (incident.code === "NotInRomania" && isDomesticRoute(t)) {
        // "Expected abroad" would be wrong here: both ends of the route are in Romania.
        lines.push(`_${m.domesticRouteAbroad()}_`);
      } else if (known && isAdvised(known)) lines.push(`_${e.transmissionAdvice(known)}_`);
      if (t.transmissionStatusErrorDescription) {
        lines.push(`“${userText(t.transmissionStatusErrorDescription, 300)}”`);
      }
      break;
    }
    case "changerequest": {
      const status = isChangeRequestCode(incident.code)
        ? lowerFirst(lang, e.changeRequestStatus(incident.code))
        : m.changeRequestFailed();
      lines.push(m.changeRequestLine({ code: userText(incident.code, 60), status }));
      const message = t.changeRequestAuthorityMessage ?? t.changeRequestMessage;
      if (message) lines.push(`“${userText(message, 300)}”`);
      lines.push(`_${m.plateMustBeUpdated()}_`);
      break;
    }
    case "expiry": {
      const end = t.validityEndMs;
      if (end !== undefined) {
        // An alert lives for days: no "in 8 h" that freezes when posted. The date token reads
        // "today" / "tomorrow" in the reader's zone whenever it is read.
        const ended = opts.nowMs !== undefined && opts.nowMs >= end;
        lines.push(ended ? m.validityEnded({ when: when(end) }) : m.validityEnds({ when: when(end) }));
      }
      lines.push(`_${m.expiredUitProhibited()}_`);
      break;
    }
    case "notstarted": {
      if (t.startMs !== undefined) {
        lines.push(
          m.plannedStart({ when: when(t.startMs), status: e.transportStatus(TRANSPORT_STATUS.pending) }),
        );
      }
      lines.push(`_${m.startBeforeLeaving()}_`);
      break;
    }
    case "vanished": {
      lines.push(m.vanishedLine({ status: statusName(lang, t.statusId) }));
      lines.push(`_${m.vanishedAdvice()}_`);
      break;
    }
    case "stalled": {
      const since = stalledSinceMs(t);
      if (since !== undefined) {
        const now = opts.nowMs;
        lines.push(
          m.stalledSince({
            when: when(since),
            code: t.transmissionStatusCode ? userText(t.transmissionStatusCode, 40) : m.noCode(),
          }),
        );
        // The limit as a time, not "4 h left", which would be wrong an hour after the post.
        const limit = since + SEND_LIMIT_MS;
        lines.push(
          now === undefined || now < limit ? m.stalledLimit({ when: when(limit) }) : m.stalledLimitPassed(),
        );
      }
      lines.push(`_${m.stalledAdvice()}_`);
      break;
    }
  }
  return lines;
}

function factsContext(incident: AlertIncident, opts: AlertViewOptions, blockId: string): ContextBlock {
  const t = incident.facts;
  const lang = opts.language;
  const m = messages(lang).alerts;
  const facts: string[] = [m.factStatus({ status: statusName(lang, t.statusId) })];
  if (t.lastGpsMs !== undefined) facts.push(m.factLastGps({ when: alertDate(t.lastGpsMs, opts) }));
  if (t.lastTransmissionMs !== undefined) {
    facts.push(m.factLastSent({ when: alertDate(t.lastTransmissionMs, opts) }));
  }
  if (t.startLocation || t.endLocation) {
    facts.push(`${userText(t.startLocation ?? "?", 80)} → ${userText(t.endLocation ?? "?", 80)}`);
  }
  return { type: "context", block_id: blockId, elements: [mrkdwn(facts.join(" · "))] };
}

function alertButtons(incident: AlertIncident, channel: string, lang: Language): Button[] {
  const m = messages(lang).alerts;
  const t = incident.facts;
  const allowed = transportStateInfo(t).actions;
  const value = transportButtonValue(t);
  const uit = formatUit(cut(t.codeUit, 40));
  const vehicle = vehiclePlain(t);
  const buttons: Button[] = [];
  if (allowed.includes("pause")) {
    buttons.push({ type: "button", action_id: ACTIONS.transportPause, text: plain(m.buttonPause()), value });
  }
  if (allowed.includes("end")) {
    buttons.push({
      type: "button",
      action_id: ACTIONS.transportEnd,
      text: plain(m.buttonEnd()),
      value,
      confirm: {
        title: plain(m.endConfirmTitle()),
        text: plain(cut(m.endConfirmText({ uit, vehicle: vehicle ? ` (${vehicle})` : "" }), 300)),
        confirm: plain(m.endConfirm()),
        deny: plain(m.endDeny()),
      },
    });
  }
  buttons.push({ type: "button", action_id: ACTIONS.transportShow, text: plain(m.buttonShow()), value });
  buttons.push({
    type: "button",
    action_id: ACTIONS.alertMute,
    text: plain(m.buttonMute()),
    value: alertMuteValue(t.codeUit, channel),
  });
  return buttons;
}

/** The alert of an open incident in one channel. */
export function alertMessage(incident: AlertIncident, channel: string, opts: AlertViewOptions): SlackMessage {
  const t = incident.facts;
  const lang = opts.language;
  const m = messages(lang).alerts;
  const id = idPart(incident.id);
  const uit = formatUit(t.codeUit);
  const title = titleOf(incident, lang);
  const mark = markOf(incident);
  const lines = [
    `${mark} *${title}* · \`${userText(uit, 40)}\``,
    `:truck: ${vehicleText(t, lang)}`,
    ...problemLines(incident, opts),
    m.since({ when: alertDate(faultStartedAt(incident), opts) }),
  ];
  const blocks: KnownBlock[] = [
    {
      type: "section",
      block_id: `alert.open.${id}`,
      text: mrkdwn(cut(lines.join("\n"), 2900)),
    } satisfies SectionBlock,
    factsContext(incident, opts, `alert.facts.${id}`),
    {
      type: "actions",
      block_id: `alert.actions.${id}`,
      elements: alertButtons(incident, channel, lang),
    } satisfies ActionsBlock,
  ];
  // The fallback text is what notifications show, read as mrkdwn: outside words are escaped
  // here as in the blocks, or a vehicle named `<!channel>` would ping the whole channel.
  const vehicle = t.carrierCode ? ` (${userText(t.carrierCode, 30)})` : "";
  return {
    text: fitMrkdwn(
      m.alertText({ mark, title, uit: userText(uit, 40), vehicle, code: userText(incident.code, 60) }),
      300,
    ),
    blocks,
  };
}

/** Why an incident ended, in words. */
export function resolveReasonText(
  kind: IncidentKind,
  reason: ResolveReason | undefined,
  lang: Language,
): string {
  return messages(lang).alerts.resolveReason(kind, reason ?? "recovered");
}

/**
 * From the fault's start (the service's evidence, else the first poll that saw it) to its end:
 * one figure when the service's dates pin the end, else the span the alert checks allow
 * ("2–6 min": it ended between the last check that saw it and the first that did not).
 */
function lasted(incident: AlertIncident, lang: Language): string {
  const { shortestMs, longestMs } = faultDurationSpan(incident);
  const shortest = duration(lang, shortestMs);
  const longest = duration(lang, longestMs);
  if (shortest === longest) return longest;
  return /^\d+ min$/.test(shortest) && /^\d+ min$/.test(longest)
    ? `${shortest.replace(" min", "")}–${longest}`
    : `${shortest} – ${longest}`;
}

/** Said beside a span of durations: why it is not one figure. */
function lastedNote(incident: AlertIncident, lang: Language): string {
  const { shortestMs, longestMs } = faultDurationSpan(incident);
  return duration(lang, shortestMs) === duration(lang, longestMs)
    ? ""
    : messages(lang).alerts.betweenChecks();
}

/** The alert edited in place once the incident is resolved: ✅, how long, no buttons. */
export function resolvedAlertMessage(incident: AlertIncident, opts: AlertViewOptions): SlackMessage {
  const t = incident.facts;
  const lang = opts.language;
  const m = messages(lang).alerts;
  const id = idPart(incident.id);
  const uit = formatUit(t.codeUit);
  const title = titleOf(incident, lang);
  const resolvedAt = faultEnd(incident)?.latestMs ?? incident.resolvedAt ?? incident.firstSeenAt;
  const took = lasted(incident, lang);
  const lines = [
    `✅ *${m.resolved()}* · ~${title}~ · \`${userText(uit, 40)}\``,
    `:truck: ${vehicleText(t, lang)}`,
    `${m.resolvedSpan({
      code: userText(incident.code, 60),
      from: alertDate(faultStartedAt(incident), opts),
      to: alertDate(resolvedAt, opts),
      lasted: took,
    })}${lastedNote(incident, lang)}`,
    `_${resolveReasonText(incident.kind, incident.resolveReason, lang)}_`,
  ];
  const blocks: KnownBlock[] = [
    { type: "section", block_id: `alert.resolved.${id}`, text: mrkdwn(cut(lines.join("\n"), 2900)) },
    factsContext(incident, opts, `alert.resolved.facts.${id}`),
  ];
  return {
    text: fitMrkdwn(m.resolvedText({ title, uit: userText(uit, 40), lasted: took }), 300),
    blocks,
  };
}

/** The thread reply under the alert: when it was resolved and how long it lasted. */
export function resolvedThreadReply(incident: AlertIncident, opts: AlertViewOptions): SlackMessage {
  const lang = opts.language;
  const m = messages(lang).alerts;
  const resolvedAt = incident.resolvedAt ?? incident.firstSeenAt;
  const reason = resolveReasonText(incident.kind, incident.resolveReason, lang);
  const took = lasted(incident, lang);
  const note = lastedNote(incident, lang);
  const text = `${m.resolvedReply({ when: alertDate(resolvedAt, opts), reason, lasted: took })}${note}.`;
  return {
    text: cut(`${m.resolvedReplyText({ reason, lasted: took })}${note}.`, 300),
    blocks: [{ type: "section", block_id: `alert.reply.${idPart(incident.id)}`, text: mrkdwn(text) }],
  };
}

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

// ---------- subscriptions ----------

export interface SubscriptionListOptions {
  /** The channel's last post failure, if any (AlertStore.lastFailure). */
  failures?: Readonly<Record<string, { codeUit: string; error: string; attempts: number } | undefined>>;
}

/**
 * A subscription in words, in the reader's language: channel and account (left out where the
 * sentence already names them), filters, language, who made it.
 */
function describeSubscription(s: AlertSubscription, lang: Language, withChannel = true): string {
  const m = messages(lang).alerts;
  const minutes = (n: number) => duration(lang, n * 60_000);
  const parts = withChannel
    ? [m.subscriptionChannelAs({ channel: `<#${s.channel}>`, account: userText(s.account, 60) })]
    : [];
  parts.push(
    s.codes.length > 0
      ? m.subscriptionCodes({ codes: s.codes.map((c) => userText(c, 40)).join(", ") })
      : m.subscriptionEveryKind(),
  );
  if (s.excludeCodes.length > 0)
    parts.push(m.subscriptionExcept({ codes: s.excludeCodes.map((c) => userText(c, 40)).join(", ") }));
  if (s.vehicles.length > 0) {
    const shown = s.vehicles.slice(0, 10).map((v) => userText(v, 40));
    parts.push(
      m.subscriptionVehicles({ vehicles: shown.join(", "), more: Math.max(0, s.vehicles.length - 10) }),
    );
  }
  if (s.minDurationMinutes > 0) parts.push(m.subscriptionAfter({ duration: minutes(s.minDurationMinutes) }));
  parts.push(
    s.staleMinutes > 0
      ? m.subscriptionStalledAfter({ duration: minutes(s.staleMinutes) })
      : m.subscriptionNoStalled(),
  );
  parts.push(
    s.language === undefined
      ? m.subscriptionWorkspaceLanguage()
      : m.subscriptionLanguage({ language: messages(lang).common.languageName(s.language) }),
  );
  parts.push(
    s.createdBy ? m.subscriptionBy({ user: `<@${s.createdBy}>` }) : m.subscriptionWorkspaceAccount(),
  );
  return parts.join(" · ");
}

/**
 * A post's last failure in words: stored as a code (publisher.ts storedFailure). A row stored
 * before codes holds its English words, shown as they are.
 */
export function postFailureText(lang: Language, stored: string): string {
  const m = messages(lang).alerts;
  const [failure, code] = stored.split(":", 2);
  switch (failure) {
    case "ratelimited":
      return m.failureRateLimited();
    case "message_gone":
      return m.failureMessageGone();
    case "channel":
      switch (code) {
        case "not_in_channel":
          return m.failureNotInChannel();
        case "channel_not_found":
          return m.failureChannelNotFound();
        case "is_archived":
          return m.failureArchived();
        case "restricted_action":
          return m.failureRestricted();
        case "missing_scope":
          return m.failureMissingScope();
        default:
          return m.failureSlackRefused({ code: code ?? failure });
      }
    case "other":
      return code === undefined || code.startsWith("slack_webapi_")
        ? m.failureOther()
        : m.failureSlackRefused({ code });
    default:
      return stored;
  }
}

/** Room for the list's lines: Slack refuses about 12,000 characters of block text. */
const SUBSCRIPTION_LIST_BUDGET = 10_000;

/**
 * `/fleet alerts list`: the subscriptions, their filters, and a channel's last failure, in the
 * language of the user who asked (`language`, resolved once by the listener).
 */
export function subscriptionListMessage(
  subscriptions: readonly AlertSubscription[],
  opts: SubscriptionListOptions = {},
  language: Language,
): SlackMessage {
  const m = messages(language).alerts;
  if (subscriptions.length === 0) {
    const text = m.subscriptionsNone();
    return { text, blocks: [{ type: "section", block_id: "alert.subs.empty", text: mrkdwn(text) }] };
  }
  const lines: string[] = [];
  // At most 40, and within Slack's ~12,000 characters of block text (Romanian is longer).
  let used = 0;
  for (const s of subscriptions.slice(0, 40)) {
    let line = `• ${describeSubscription(s, language)}`;
    const failure = opts.failures?.[s.channel];
    if (failure) {
      line += `\n   ${m.subscriptionLastFailed({
        attempts: failure.attempts,
        error: userText(postFailureText(language, failure.error), 200),
      })}`;
    }
    if (used + line.length + 1 > SUBSCRIPTION_LIST_BUDGET) break;
    used += line.length + 1;
    lines.push(line);
  }
  if (subscriptions.length > lines.length)
    lines.push(m.subscriptionsMore(subscriptions.length - lines.length));
  const blocks: KnownBlock[] = [];
  let chunk = "";
  for (const line of lines) {
    if (chunk.length + line.length + 1 > 2900) {
      blocks.push({ type: "section", block_id: `alert.subs.${blocks.length}`, text: mrkdwn(chunk) });
      chunk = "";
    }
    chunk = chunk ? `${chunk}\n${line}` : line;
  }
  if (chunk) blocks.push({ type: "section", block_id: `alert.subs.${blocks.length}`, text: mrkdwn(chunk) });
  return { text: m.subscriptionsText(subscriptions.length), blocks };
}

/** Answer to subscribe / unsubscribe, in the language of the user who typed it. */
export function subscriptionChangedMessage(
  change: "subscribed" | "updated" | "unsubscribed" | "not-subscribed",
  subscription: AlertSubscription | { channel: string; account?: string },
  language: Language,
): SlackMessage {
  const m = messages(language).alerts;
  const channel = `<#${subscription.channel}>`;
  const account = subscription.account ? userText(subscription.account, 60) : undefined;
  let text: string;
  switch (change) {
    case "subscribed":
      text = m.subscribed({
        channel,
        account: account ?? "",
        description: describeSubscription(subscription as AlertSubscription, language, false),
      });
      break;
    case "updated":
      text = m.subscriptionUpdated({
        channel,
        account: account ?? "",
        description: describeSubscription(subscription as AlertSubscription, language, false),
      });
      break;
    case "unsubscribed":
      text = account ? m.unsubscribedOf({ channel, account }) : m.unsubscribed({ channel });
      break;
    case "not-subscribed":
      text = account ? m.notSubscribedFor({ channel, account }) : m.notSubscribed({ channel });
      break;
  }
  return {
    text: fitMrkdwn(text, 3000),
    blocks: [{ type: "section", block_id: "alert.subs.changed", text: mrkdwn(fitMrkdwn(text, 2900)) }],
  };
}

/**
 * Why a channel's alerts were not changed, said to the user who asked: they are not a member
 * (or Slack could not say), the configuration owns the subscription (ALERTS_CHANNEL), or
 * fleetbot cannot post there (`code`: Slack's error code, as checkChannel gives it).
 */
export type SubscriptionRefusal =
  | { refusal: "not-member" | "membership-unknown" | "configured"; channel: string }
  | { refusal: "cannot-post"; channel: string; code: string };

export function subscriptionRefusalMessage(refusal: SubscriptionRefusal, language: Language): SlackMessage {
  const m = messages(language).alerts;
  const channel = `<#${refusal.channel}>`;
  switch (refusal.refusal) {
    case "not-member":
      return noticeMessage(m.notChannelMember({ channel }), m.notChannelMemberDetail());
    case "membership-unknown":
      return noticeMessage(m.membershipUnknown({ channel }), m.membershipUnknownDetail());
    case "configured":
      return noticeMessage(m.configuredChannel({ channel }), m.configuredChannelDetail());
    case "cannot-post":
      return noticeMessage(
        `:warning: ${postFailureText(language, `channel:${refusal.code}`)}`,
        m.cannotPostDetail(),
      );
  }
}

/** The filter codes a subscription takes (Error, OldData…), and the kind names, as the refusal lists them. */
const KNOWN_CODES = ALERT_FILTER_WORDS.filter((w) => !(INCIDENT_KINDS as readonly string[]).includes(w));

/** A subscription's filters refused by src/alerts/subscriptions.ts, worded, with an example that works. */
export function alertFilterErrorMessage(problem: AlertFilterProblem, language: Language): SlackMessage {
  const m = messages(language).alerts;
  let text: string;
  switch (problem.problem) {
    case "unknown-codes":
      text = m.filterUnknownCodes({
        n: problem.unknownCodes.length,
        codes: problem.unknownCodes.map((c) => userText(c, 40)).join(", "),
        known: KNOWN_CODES.join(", "),
        kinds: INCIDENT_KINDS.join(", "),
      });
      break;
    case "min-range":
      text = m.filterMinRange();
      break;
    case "stale-range":
      text = m.filterStaleRange();
      break;
  }
  return noticeMessage(`:warning: ${fitMrkdwn(text, 2800)}`, m.filterExample());
}

/** The answer to an option of `/fleet alerts subscribe` that cannot be read, with an example that works. */
export function alertOptionProblemMessage(problem: AlertOptionProblem, language: Language): SlackMessage {
  return alertOptionMessage({ code: "alertOption", ...problem }, language);
}

/** Answer to the Mute button, in the clicker's language (whatever the alert's). */
export function alertMutedMessage(
  codeUit: string,
  channel: string,
  until: number,
  timeZone: string | undefined,
  language: Language,
): SlackMessage {
  const m = messages(language).alerts;
  const uit = userText(formatUit(codeUit), 40);
  const when = alertDate(until, { language, ...(timeZone === undefined ? {} : { timeZone }) });
  return {
    text: fitMrkdwn(m.mutedAnswerText({ uit }), 300),
    blocks: [
      {
        type: "section",
        block_id: "alert.muted",
        text: mrkdwn(m.mutedAnswer({ uit, channel: `<#${channel}>`, when })),
      },
    ],
  };
}

/** Answer to the Unmute button, in the clicker's language (whatever the alert's). */
export function alertUnmutedMessage(codeUit: string, channel: string, language: Language): SlackMessage {
  const m = messages(language).alerts;
  const uit = userText(formatUit(codeUit), 40);
  return {
    text: fitMrkdwn(m.unmutedAnswerText({ uit }), 300),
    blocks: [
      {
        type: "section",
        block_id: "alert.unmuted",
        text: mrkdwn(m.unmutedAnswer({ uit, channel: `<#${channel}>` })),
      },
    ],
  };
}

/** Block id of the line a mute (or an unmute) adds to the alert in the channel. */
const MUTED_LINE_ID = "alert.muted.line";

/** The alert's blocks with `line` above its buttons (replacing an earlier one) and its Mute/Unmute button swapped. */
function withMuteLine(blocks: readonly Block[], line: string, muted: boolean, lang: Language): Block[] {
  const m = messages(lang).alerts;
  const lineBlock: ContextBlock = { type: "context", block_id: MUTED_LINE_ID, elements: [mrkdwn(line)] };
  const from = muted ? ACTIONS.alertMute : ACTIONS.alertUnmute;
  const swapped: Button = muted
    ? { type: "button", action_id: ACTIONS.alertUnmute, text: plain(m.buttonUnmute()) }
    : { type: "button", action_id: ACTIONS.alertMute, text: plain(m.buttonMute()) };
  const kept = blocks
    .filter((b) => b.block_id !== MUTED_LINE_ID)
    .map((b): Block => {
      if (b.type !== "actions") return b;
      const actions = b as ActionsBlock;
      // The button keeps its value (UIT and channel): Mute and Unmute read the same one.
      const elements = actions.elements.map((e) =>
        e.type === "button" && e.action_id === from
          ? { ...swapped, ...(e.value === undefined ? {} : { value: e.value }) }
          : e,
      );
      const swappedActions: ActionsBlock = { ...actions, elements };
      return swappedActions;
    });
  const actions = kept.findIndex((b) => b.type === "actions");
  const at = actions < 0 ? kept.length : actions;
  return [...kept.slice(0, at), lineBlock, ...kept.slice(at)];
}

/**
 * The alert as the channel sees it once someone muted it: the same blocks with one context
 * line ("🔕 Muted until … by @ana") above the buttons, and Unmute where Mute was, since
 * muting a muted alert again does nothing a reader would want.
 */
export function alertBlocksWithMute(
  blocks: readonly Block[],
  mute: { userId: string; until: number; timeZone?: string },
): Block[] {
  const lang = alertLanguageOf(blocks);
  const opts: AlertViewOptions = { language: lang };
  if (mute.timeZone !== undefined) opts.timeZone = mute.timeZone;
  const line = messages(lang).alerts.mutedLine({
    when: alertDate(mute.until, opts),
    user: `<@${cut(mute.userId, 40)}>`,
  });
  return withMuteLine(blocks, line, true, lang);
}

/** The alert once someone unmuted it: "🔔 Unmuted by @bob" and the Mute button back. */
export function alertBlocksWithoutMute(blocks: readonly Block[], unmute: { userId: string }): Block[] {
  const lang = alertLanguageOf(blocks);
  const line = messages(lang).alerts.unmutedLine({ user: `<@${cut(unmute.userId, 40)}>` });
  return withMuteLine(blocks, line, false, lang);
}

/**
 * The language an alert was posted in, read from its own Show / Mute / Unmute button (nothing
 * stored says it, and the channel's subscription may have changed since): the line a mute adds
 * is in the alert's language, not the clicker's. English when no button says otherwise.
 */
export function alertLanguageOf(blocks: readonly Block[]): Language {
  for (const block of blocks) {
    if (block.type !== "actions") continue;
    for (const e of (block as ActionsBlock).elements) {
      if (e.type !== "button") continue;
      const label = e.text.text;
      for (const lang of LANGUAGES) {
        const m = messages(lang).alerts;
        if (label === m.buttonShow() || label === m.buttonMute() || label === m.buttonUnmute()) return lang;
      }
    }
  }
  return "en";
}

/** A channel's alerts of an account paused: its link's password no longer works. */
export function alertsPausedMessage(
  notice: { account: string; subscriber?: string },
  language: Language,
): SlackMessage {
  const m = messages(language).alerts;
  const account = userText(notice.account, 100);
  const text = notice.subscriber
    ? m.pausedPasswordChanged({ account, subscriber: `<@${notice.subscriber}>` })
    : m.pausedWorkspacePasswordChanged({ account });
  return { text, blocks: [{ type: "section", text: { type: "mrkdwn", text } }] };
}

/** To the subscriber: their link stopped working, so their channel's alerts are paused. */
export function alertsPausedDirectMessage(
  notice: { account: string; channel: string },
  language: Language,
): SlackMessage {
  const text = messages(language).alerts.pausedLinkAgain({
    account: userText(notice.account, 100),
    channel: `<#${notice.channel}>`,
  });
  return { text, blocks: [{ type: "section", text: { type: "mrkdwn", text } }] };
}
