import type { ActionsBlock, Block, Button, ContextBlock, KnownBlock, SectionBlock } from "@slack/types";
import { faultDurationSpan, faultEnd, faultStartedAt } from "../../alerts/duration.js";
import {
  type IncidentKind,
  type IncidentRecord,
  type ResolveReason,
  SEND_LIMIT_MS,
  stalledSinceMs,
} from "../../alerts/incidents.js";
import { type AlertSeverity, alertSeverity, isDomesticRoute } from "../../alerts/severity.js";
import { formatSpan } from "../../etransport/form.js";
import { transportStateInfo, transportStatusName } from "../../etransport/state.js";
import type { TransportView } from "../../etransport/types.js";
import type { AlertSubscription } from "../../store/alertStore.js";
import { ACTIONS } from "../actionIds.js";
import { transportButtonValue } from "./etransport.js";
import {
  blocksText,
  cut,
  dateToken,
  formatUit,
  idPart,
  SEVERITY_MARKS as TRANSPORT_SEVERITY_MARKS,
} from "./etransportText.js";
import type { SlackMessage } from "./message.js";
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

const TITLES: Readonly<Record<IncidentKind, string>> = {
  transmission: "Transmission problem",
  changerequest: "Vehicle change request failed",
  expiry: "UIT validity ends soon",
  notstarted: "Transport not started",
  vanished: "No longer listed by the service",
  stalled: "Transmission stalled",
};

/** Red for a fault, amber for a warning, grey for information: the cards' marks too. */
export const SEVERITY_MARKS: Readonly<Record<AlertSeverity, string>> = TRANSPORT_SEVERITY_MARKS;

/** The title of an alert: a vehicle abroad on an international route is not a problem. */
export function titleOf(incident: Pick<AlertIncident, "kind" | "code" | "facts">): string {
  if (incident.kind === "transmission" && alertSeverity(incident) === "info")
    return "Vehicle outside Romania";
  return TITLES[incident.kind];
}

export function markOf(incident: Pick<AlertIncident, "kind" | "code" | "facts">): string {
  return SEVERITY_MARKS[alertSeverity(incident)];
}

function vehicleText(t: TransportView): string {
  const plate = t.carrierCode ? `*${userText(t.carrierCode, 30)}*` : "";
  const name = t.carrierName && t.carrierName !== t.carrierCode ? userText(t.carrierName, 80) : "";
  return [plate, name].filter((s) => s !== "").join(" · ") || "_vehicle not named_";
}

function vehiclePlain(t: TransportView): string {
  return cut(t.carrierCode ?? t.carrierName ?? "", 30);
}

/** "Error — data transmission error" and the advice, by kind. */
function problemLines(incident: AlertIncident, opts: AlertViewOptions): string[] {
  const t = incident.facts;
  const lines: string[] = [];
  switch (incident.kind) {
    case "transmission": {
      const tx = transportStateInfo({ ...t, transmissionStatusCode: incident.code }).transmission;
      lines.push(`*Transmission:* ${userText(incident.code, 60)} — ${tx.meaning}`);
      if (incident.code === "NotInRomania" && isDomesticRoute(t)) {
        // "Expected abroad" would be wrong here: both ends of the route are in Romania.
        lines.push(
          "_The route is within Romania, so the vehicle should not be abroad: positions are not reaching the platform. Check the vehicle's position and the tracking device; use the ANAF app as fallback._",
        );
      } else if (tx.advice) lines.push(`_${userText(tx.advice, 300)}_`);
      if (t.transmissionStatusErrorDescription) {
        lines.push(`“${userText(t.transmissionStatusErrorDescription, 300)}”`);
      }
      break;
    }
    case "changerequest": {
      const cr = transportStateInfo({ ...t, changeRequestStatusCode: incident.code }).changeRequest;
      lines.push(`*Vehicle change request:* ${userText(incident.code, 60)} — ${cr?.meaning ?? "failed"}`);
      const message = t.changeRequestAuthorityMessage ?? t.changeRequestMessage;
      if (message) lines.push(`“${userText(message, 300)}”`);
      lines.push("_The plate on the UIT must be updated before the vehicle is back on the road._");
      break;
    }
    case "expiry": {
      const end = t.validityEndMs;
      if (end !== undefined) {
        // An alert lives for days: no "in 8 h" that freezes when posted. The date token reads
        // "today" / "tomorrow" in the reader's zone whenever it is read.
        const ended = opts.nowMs !== undefined && opts.nowMs >= end ? " (ended)" : "";
        lines.push(`*UIT validity ends* ${dateToken(end, opts.timeZone)}${ended}`);
      }
      lines.push("_Using an expired UIT is prohibited: end the transport or request a new UIT._");
      break;
    }
    case "notstarted": {
      if (t.startMs !== undefined) {
        lines.push(`*Planned transmission start* ${dateToken(t.startMs, opts.timeZone)} — still Pending`);
      }
      lines.push("_Start the transport before the vehicle leaves._");
      break;
    }
    case "vanished": {
      lines.push(
        `*No longer listed by the service:* it was ${transportStatusName(t.statusId)}, and it is not completed either.`,
      );
      lines.push(
        "_It may be in Error, which the service hides: check it in TrackGPS now. Until it is fixed, positions may not reach ANAF._",
      );
      break;
    }
    case "stalled": {
      const since = stalledSinceMs(t);
      if (since !== undefined) {
        const now = opts.nowMs;
        lines.push(
          `*No position sent since* ${dateToken(since, opts.timeZone)}, though the code says ${userText(t.transmissionStatusCode ?? "nothing", 40)}.`,
        );
        // The limit as a time, not "4 h left", which would be wrong an hour after the post.
        const limit = since + SEND_LIMIT_MS;
        lines.push(
          now === undefined || now < limit
            ? `*The 6-hour limit is* ${dateToken(limit, opts.timeZone)}: positions older than that can no longer be sent (OldData).`
            : "*The 6-hour limit has passed:* these positions can no longer be sent (OldData).",
        );
      }
      lines.push("_Check the vehicle's tracking device and its power; use the ANAF app as fallback._");
      break;
    }
  }
  return lines;
}

function factsContext(incident: AlertIncident, opts: AlertViewOptions, blockId: string): ContextBlock {
  const t = incident.facts;
  const facts: string[] = [`Status ${transportStatusName(t.statusId)}`];
  if (t.lastGpsMs !== undefined) facts.push(`last GPS ${dateToken(t.lastGpsMs, opts.timeZone)}`);
  if (t.lastTransmissionMs !== undefined) {
    facts.push(`last sent to the platform ${dateToken(t.lastTransmissionMs, opts.timeZone)}`);
  }
  if (t.startLocation || t.endLocation) {
    facts.push(`${userText(t.startLocation ?? "?", 80)} → ${userText(t.endLocation ?? "?", 80)}`);
  }
  return { type: "context", block_id: blockId, elements: [mrkdwn(facts.join(" · "))] };
}

function alertButtons(incident: AlertIncident, channel: string): Button[] {
  const t = incident.facts;
  const allowed = transportStateInfo(t).actions;
  const value = transportButtonValue(t);
  const uit = formatUit(cut(t.codeUit, 40));
  const vehicle = vehiclePlain(t);
  const buttons: Button[] = [];
  if (allowed.includes("pause")) {
    buttons.push({ type: "button", action_id: ACTIONS.transportPause, text: plain("Pause"), value });
  }
  if (allowed.includes("end")) {
    buttons.push({
      type: "button",
      action_id: ACTIONS.transportEnd,
      text: plain("End"),
      value,
      confirm: {
        title: plain("End transport?"),
        text: plain(
          cut(`End UIT ${uit}${vehicle ? ` (${vehicle})` : ""}? It can no longer be modified.`, 300),
        ),
        confirm: plain("End transport"),
        deny: plain("Cancel"),
      },
    });
  }
  buttons.push({ type: "button", action_id: ACTIONS.transportShow, text: plain("Show transport"), value });
  buttons.push({
    type: "button",
    action_id: ACTIONS.alertMute,
    text: plain("Mute 24 h"),
    value: alertMuteValue(t.codeUit, channel),
  });
  return buttons;
}

/** The alert of an open incident in one channel. */
export function alertMessage(
  incident: AlertIncident,
  channel: string,
  opts: AlertViewOptions = {},
): SlackMessage {
  const t = incident.facts;
  const id = idPart(incident.id);
  const uit = formatUit(t.codeUit);
  const title = titleOf(incident);
  const mark = markOf(incident);
  const lines = [
    `${mark} *${title}* · \`${userText(uit, 40)}\``,
    `:truck: ${vehicleText(t)}`,
    ...problemLines(incident, opts),
    `*Since* ${dateToken(faultStartedAt(incident), opts.timeZone)}`,
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
      elements: alertButtons(incident, channel),
    } satisfies ActionsBlock,
  ];
  // The fallback text is what notifications show, read as mrkdwn: outside words are escaped
  // here as in the blocks, or a vehicle named `<!channel>` would ping the whole channel.
  const vehicle = t.carrierCode ? ` (${userText(t.carrierCode, 30)})` : "";
  return {
    text: fitMrkdwn(
      `${mark} ${title}: UIT ${userText(uit, 40)}${vehicle} — ${userText(incident.code, 60)}`,
      300,
    ),
    blocks,
  };
}

const REASONS: Readonly<Record<IncidentKind, string>> = {
  transmission: "the transmission is back to normal",
  changerequest: "the change request no longer shows an error",
  expiry: "the UIT validity was extended",
  notstarted: "the transport was started",
  vanished: "the service lists the transport again",
  stalled: "positions reach the platform again",
};

/** Why an incident ended, in words. */
export function resolveReasonText(kind: IncidentKind, reason: ResolveReason | undefined): string {
  switch (reason) {
    case "status":
      return "the transport is no longer In Progress";
    case "gone":
      return "the transport is no longer listed (ended, completed or removed)";
    case "completed":
      return "the service shows the transport completed";
    case "removed":
      return "the transport was removed through fleetbot";
    case "changed":
      return "the problem changed: a new alert follows";
    default:
      return REASONS[kind];
  }
}

/**
 * From the fault's start (the service's evidence, else the first poll that saw it) to its end:
 * one figure when the service's dates pin the end, else the span the alert checks allow
 * ("2–6 min": it ended between the last check that saw it and the first that did not).
 */
function lasted(incident: AlertIncident): string {
  const { shortestMs, longestMs } = faultDurationSpan(incident);
  const shortest = formatSpan(shortestMs);
  const longest = formatSpan(longestMs);
  if (shortest === longest) return longest;
  return /^\d+ min$/.test(shortest) && /^\d+ min$/.test(longest)
    ? `${shortest.replace(" min", "")}–${longest}`
    : `${shortest} – ${longest}`;
}

/** Said beside a span of durations: why it is not one figure. */
function lastedNote(incident: AlertIncident): string {
  const { shortestMs, longestMs } = faultDurationSpan(incident);
  return formatSpan(shortestMs) === formatSpan(longestMs) ? "" : " (it ended between two alert checks)";
}

/** The alert edited in place once the incident is resolved: ✅, how long, no buttons. */
export function resolvedAlertMessage(incident: AlertIncident, opts: AlertViewOptions = {}): SlackMessage {
  const t = incident.facts;
  const id = idPart(incident.id);
  const uit = formatUit(t.codeUit);
  const title = titleOf(incident);
  const resolvedAt = faultEnd(incident)?.latestMs ?? incident.resolvedAt ?? incident.firstSeenAt;
  const lines = [
    `✅ *Resolved* · ~${title}~ · \`${userText(uit, 40)}\``,
    `:truck: ${vehicleText(t)}`,
    `*${userText(incident.code, 60)}* from ${dateToken(faultStartedAt(incident), opts.timeZone)} to ${dateToken(resolvedAt, opts.timeZone)} — lasted *${lasted(incident)}*${lastedNote(incident)}`,
    `_${resolveReasonText(incident.kind, incident.resolveReason)}_`,
  ];
  const blocks: KnownBlock[] = [
    { type: "section", block_id: `alert.resolved.${id}`, text: mrkdwn(cut(lines.join("\n"), 2900)) },
    factsContext(incident, opts, `alert.resolved.facts.${id}`),
  ];
  return {
    text: fitMrkdwn(`✅ Resolved: ${title}, UIT ${userText(uit, 40)} — lasted ${lasted(incident)}`, 300),
    blocks,
  };
}

/** The thread reply under the alert: when it was resolved and how long it lasted. */
export function resolvedThreadReply(incident: AlertIncident, opts: AlertViewOptions = {}): SlackMessage {
  const resolvedAt = incident.resolvedAt ?? incident.firstSeenAt;
  const text = `✅ Resolved ${dateToken(resolvedAt, opts.timeZone)}: ${resolveReasonText(incident.kind, incident.resolveReason)}. It lasted ${lasted(incident)}${lastedNote(incident)}.`;
  return {
    text: cut(
      `✅ Resolved: ${resolveReasonText(incident.kind, incident.resolveReason)}. It lasted ${lasted(incident)}${lastedNote(incident)}.`,
      300,
    ),
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
}

const DIGEST_BUDGET = 10_000;
const DIGEST_MAX_LINES = 40;

/** The daily digest of one channel: open incidents, transports by status, UITs expiring within a day. */
export function digestMessage(input: DigestInput): SlackMessage {
  const opts: AlertViewOptions = { nowMs: input.nowMs };
  if (input.timeZone !== undefined) opts.timeZone = input.timeZone;
  const statusLine =
    Object.entries(input.countsByStatus)
      .filter(([, n]) => n > 0)
      .map(([id, n]) => `${transportStatusName(Number(id))}: *${n}*`)
      .join(" · ") || "no transport Pending, In Progress or Paused";
  const blocks: KnownBlock[] = [
    {
      type: "header",
      block_id: "alert.digest.header",
      text: plain(cut(`e-Transport digest · ${input.account}`, 150)),
    },
    { type: "section", block_id: "alert.digest.status", text: mrkdwn(`*Transports:* ${statusLine}`) },
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
    if (shown.length < items.length) body += `\n…and ${items.length - shown.length} more`;
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
    count("vanished") > 0 ? `${count("vanished")} no longer listed` : "",
    count("stalled") > 0 ? `${count("stalled")} stalled` : "",
  ].filter((p) => p !== "");
  section(
    "alert.digest.open",
    `Open alerts (${input.incidents.length}${apart.length > 0 ? `: ${apart.join(", ")}` : ""})`,
    input.incidents.map(
      (i) =>
        `${markOf(i)} \`${userText(formatUit(i.codeUit), 40)}\` ${i.facts.carrierCode ? `*${userText(i.facts.carrierCode, 30)}* ` : ""}${titleOf(i)}: ${userText(i.code, 60)} since ${dateToken(faultStartedAt(i), opts.timeZone)}`,
    ),
    "no open alerts",
  );
  section(
    "alert.digest.expiring",
    `UIT validity ending within a day (${input.expiring.length})`,
    input.expiring.map(
      (t) =>
        `⏳ \`${userText(formatUit(t.codeUit), 40)}\` ${t.carrierCode ? `*${userText(t.carrierCode, 30)}* ` : ""}ends ${t.validityEndMs === undefined ? "?" : dateToken(t.validityEndMs, opts.timeZone)}`,
    ),
    "none",
  );
  return {
    text: cut(
      `e-Transport digest: ${input.incidents.length} open alert${input.incidents.length === 1 ? "" : "s"}${apart.length > 0 ? ` (${apart.join(", ")})` : ""}, ${input.expiring.length} UIT${input.expiring.length === 1 ? "" : "s"} ending within a day`,
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

function describeSubscription(s: AlertSubscription): string {
  const parts = [`<#${s.channel}> as *${userText(s.account, 60)}*`];
  parts.push(
    s.codes.length > 0 ? `codes ${s.codes.map((c) => userText(c, 40)).join(", ")}` : "every alert kind",
  );
  if (s.excludeCodes.length > 0)
    parts.push(`except ${s.excludeCodes.map((c) => userText(c, 40)).join(", ")}`);
  if (s.vehicles.length > 0) {
    const shown = s.vehicles.slice(0, 10).map((v) => userText(v, 40));
    parts.push(
      `vehicles ${shown.join(", ")}${s.vehicles.length > 10 ? ` and ${s.vehicles.length - 10} more` : ""}`,
    );
  }
  if (s.minDurationMinutes > 0) parts.push(`after ${s.minDurationMinutes} min`);
  parts.push(
    s.staleMinutes > 0 ? `stalled after ${s.staleMinutes} min without a position` : "no stalled alerts",
  );
  parts.push(s.createdBy ? `by <@${s.createdBy}>` : "workspace account");
  return parts.join(" · ");
}

/** `/fleet alerts list`: the subscriptions, their filters, and a channel's last failure. */
export function subscriptionListMessage(
  subscriptions: readonly AlertSubscription[],
  opts: SubscriptionListOptions = {},
): SlackMessage {
  if (subscriptions.length === 0) {
    const text = "No alert subscriptions. Subscribe a channel with `/fleet alerts subscribe #channel`.";
    return { text, blocks: [{ type: "section", block_id: "alert.subs.empty", text: mrkdwn(text) }] };
  }
  const lines: string[] = [];
  for (const s of subscriptions.slice(0, 40)) {
    let line = `• ${describeSubscription(s)}`;
    const failure = opts.failures?.[s.channel];
    if (failure) line += `\n   ⚠️ last post failed (${failure.attempts}×): ${userText(failure.error, 200)}`;
    lines.push(line);
  }
  if (subscriptions.length > 40) lines.push(`…and ${subscriptions.length - 40} more`);
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
  return {
    text: `${subscriptions.length} alert subscription${subscriptions.length === 1 ? "" : "s"}`,
    blocks,
  };
}

/** Answer to subscribe / unsubscribe. */
export function subscriptionChangedMessage(
  change: "subscribed" | "updated" | "unsubscribed" | "not-subscribed",
  subscription: AlertSubscription | { channel: string; account?: string },
): SlackMessage {
  const channel = `<#${subscription.channel}>`;
  let text: string;
  switch (change) {
    case "subscribed":
      text = `🔔 ${channel} now gets transport alerts: ${describeSubscription(subscription as AlertSubscription)}.`;
      break;
    case "updated":
      text = `🔔 Alerts of ${channel} updated: ${describeSubscription(subscription as AlertSubscription)}.`;
      break;
    case "unsubscribed":
      text = `🔕 ${channel} no longer gets transport alerts${subscription.account ? ` of ${userText(subscription.account, 60)}` : ""}.`;
      break;
    case "not-subscribed":
      text = `${channel} had no alert subscription${subscription.account ? ` for ${userText(subscription.account, 60)}` : ""}.`;
      break;
  }
  return {
    text: fitMrkdwn(text, 3000),
    blocks: [{ type: "section", block_id: "alert.subs.changed", text: mrkdwn(fitMrkdwn(text, 2900)) }],
  };
}

/** Answer to the Mute button. */
export function alertMutedMessage(
  codeUit: string,
  channel: string,
  until: number,
  timeZone?: string,
): SlackMessage {
  const text = `🔕 Alerts of UIT \`${userText(formatUit(codeUit), 40)}\` are muted in <#${channel}> until ${dateToken(until, timeZone)}.`;
  return {
    text: fitMrkdwn(`Alerts of UIT ${userText(formatUit(codeUit), 40)} muted for 24 h.`, 300),
    blocks: [{ type: "section", block_id: "alert.muted", text: mrkdwn(text) }],
  };
}

/** Answer to the Unmute button. */
export function alertUnmutedMessage(codeUit: string, channel: string): SlackMessage {
  const uit = userText(formatUit(codeUit), 40);
  const text = `🔔 Alerts of UIT \`${uit}\` are no longer muted in <#${channel}>: a problem still there is posted at the next check.`;
  return {
    text: fitMrkdwn(`Alerts of UIT ${uit} no longer muted.`, 300),
    blocks: [{ type: "section", block_id: "alert.unmuted", text: mrkdwn(text) }],
  };
}

/** Block id of the line a mute (or an unmute) adds to the alert in the channel. */
const MUTED_LINE_ID = "alert.muted.line";

/** The alert's blocks with `line` above its buttons (replacing an earlier one) and its Mute/Unmute button swapped. */
function withMuteLine(blocks: readonly Block[], line: string, muted: boolean): Block[] {
  const lineBlock: ContextBlock = { type: "context", block_id: MUTED_LINE_ID, elements: [mrkdwn(line)] };
  const from = muted ? ACTIONS.alertMute : ACTIONS.alertUnmute;
  const swapped: Button = muted
    ? { type: "button", action_id: ACTIONS.alertUnmute, text: plain("Unmute") }
    : { type: "button", action_id: ACTIONS.alertMute, text: plain("Mute 24 h") };
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
  return withMuteLine(
    blocks,
    `🔕 Muted until ${dateToken(mute.until, mute.timeZone)} by <@${cut(mute.userId, 40)}>`,
    true,
  );
}

/** The alert once someone unmuted it: "🔔 Unmuted by @bob" and the Mute button back. */
export function alertBlocksWithoutMute(blocks: readonly Block[], unmute: { userId: string }): Block[] {
  return withMuteLine(blocks, `🔔 Unmuted by <@${cut(unmute.userId, 40)}>`, false);
}
