import type { ContextBlock, HeaderBlock, KnownBlock, SectionBlock } from "@slack/types";
import { duration, type Language, messages } from "../../../../i18n/index.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import { fitMrkdwn, userText } from "../../../../platform/slack/views/text.js";
import { cut, formatUit, idPart } from "../../../etransport/index.js";
import { faultDurationMs, faultStartedAt } from "../../duration.js";
import type { IncidentRecord } from "../../incidents.js";
import { isVehicleKind } from "../../incidents.js";
import {
  type AlertIncident,
  type AlertViewOptions,
  alertDate,
  markOf,
  SEVERITY_MARKS,
  severityOf,
  titleOf,
} from "./incidentText.js";

/**
 * The grouped alert (pure): when one sweep opens a storm of incidents in one channel, they are
 * one message listing every UIT, vehicle and code, edited in place as each resolves. Each
 * transport's buttons are in its own thread reply (alertMessage), not here.
 */

/** A member as the group message shows it: an incident and whether it is still open. */
export type AlertGroupIncident = AlertIncident & Pick<IncidentRecord, "state">;

export interface AlertGroupInput {
  id: string;
  /** The members in the order they joined the group. */
  incidents: readonly AlertGroupIncident[];
}

/** Room for the member lines: Slack refuses a message of about 12,000 characters of block text. */
const LINES_BUDGET = 8_000;
/** A section holds 3000 characters; lines are packed below that. */
const SECTION_MAX = 2_900;

const plain = (text: string) => ({ type: "plain_text" as const, text, emoji: true });
const mrkdwn = (text: string) => ({ type: "mrkdwn" as const, text });

const isOpen = (i: AlertGroupIncident) => i.state !== "resolved";

/** The members' common title ("Transmission problem"), or a neutral one for a mix of kinds. */
function groupTitle(incidents: readonly AlertGroupIncident[], lang: Language): string {
  const titles = new Set(incidents.map((i) => titleOf(i, lang)));
  const [only] = titles;
  if (titles.size === 1 && only !== undefined) return only;
  return allVehicles(incidents)
    ? messages(lang).vehicleWatch.groupTitle()
    : messages(lang).alerts.groupMixedTitle();
}

/** A storm of vehicle alerts counts vehicles, and has only Mute buttons in its thread. */
function allVehicles(incidents: readonly AlertGroupIncident[]): boolean {
  return incidents.length > 0 && incidents.every((i) => isVehicleKind(i.kind));
}

/** The most severe mark among the open members (red before amber before grey). */
function groupMark(incidents: readonly AlertGroupIncident[]): string {
  const severities = new Set(incidents.filter(isOpen).map(severityOf));
  if (severities.has("fault")) return SEVERITY_MARKS.fault;
  if (severities.has("warning")) return SEVERITY_MARKS.warning;
  return SEVERITY_MARKS.info;
}

function memberLine(incident: AlertGroupIncident, lang: Language): string {
  const t = incident.facts;
  const uit = userText(formatUit(t.codeUit), 40);
  const plate = t.carrierCode ? userText(t.carrierCode, 30) : messages(lang).alerts.vehicleNotNamed();
  const zone = t.vehicle?.zoneName ? ` (${userText(t.vehicle.zoneName, 40)})` : "";
  const code = `${userText(incident.code, 60)}${zone}`;
  // A vehicle alert has no UIT: the plate is its subject.
  if (isVehicleKind(incident.kind))
    return isOpen(incident) ? `${markOf(incident)} *${plate}* · ${code}` : `✅ ~${plate} · ${code}~`;
  // Struck through once resolved: the line stays, so the channel sees the storm ebb.
  return isOpen(incident)
    ? `${markOf(incident)} \`${uit}\` · *${plate}* · ${code}`
    : `✅ ~${uit} · ${plate} · ${code}~`;
}

/** "Error ×28, OldData ×2" of the open members (all members once every one is resolved). */
function codeSummary(incidents: readonly AlertGroupIncident[]): string {
  const counts = new Map<string, number>();
  for (const i of incidents) counts.set(i.code, (counts.get(i.code) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([code, n]) => `${cut(code, 40)} ×${n}`)
    .join(", ");
}

/**
 * The group message: a header (🔴 while any member is open, ✅ once all are resolved), a summary,
 * and one line per member (UIT, vehicle, code; struck through with ✅ when resolved), cut to
 * Slack's limits with "…and N more" (every member still has its thread reply).
 */
export function groupedAlertMessage(group: AlertGroupInput, opts: AlertViewOptions): SlackMessage {
  const lang = opts.language;
  const m = messages(lang).alerts;
  const vehicles = allVehicles(group.incidents);
  const transportsWord = (n: number) =>
    vehicles ? messages(lang).vehicleWatch.vehicles(n) : m.transports(n);
  const buttonsInThread = vehicles
    ? messages(lang).vehicleWatch.groupButtonsInThread()
    : m.groupButtonsInThread();
  const id = idPart(group.id);
  const all = group.incidents;
  const open = all.filter(isOpen);
  const resolved = all.length - open.length;
  const title = groupTitle(all, lang);
  const done = open.length === 0;
  const mark = done ? "✅" : groupMark(all);
  const header: HeaderBlock = {
    type: "header",
    block_id: `alert.group.header.${id}`,
    text: plain(
      cut(`${mark} ${done ? m.groupResolvedPrefix() : ""}${title} · ${transportsWord(all.length)}`, 150),
    ),
  };
  const since = all.length > 0 ? Math.min(...all.map(faultStartedAt)) : undefined;
  const summary = done
    ? m.groupAllResolved({ n: all.length, longest: duration(lang, Math.max(0, ...all.map(faultDurationMs))) })
    : `${m.groupOpen(open.length)}${resolved > 0 ? m.groupResolvedCount(resolved) : ""}${since !== undefined ? m.groupSince({ when: alertDate(since, opts) }) : ""}\n_${buttonsInThread}_`;
  const blocks: KnownBlock[] = [
    header,
    { type: "section", block_id: `alert.group.summary.${id}`, text: mrkdwn(summary) } satisfies SectionBlock,
  ];
  // Open members first: those are the ones to act on.
  const ordered = [...open, ...all.filter((i) => !isOpen(i))];
  const lines: string[] = [];
  let used = 0;
  for (const incident of ordered) {
    const line = memberLine(incident, lang);
    if (used + line.length + 1 > LINES_BUDGET) break;
    lines.push(line);
    used += line.length + 1;
  }
  const left = ordered.length - lines.length;
  if (left > 0) lines.push(m.groupMore(left));
  let chunk = "";
  const sections: string[] = [];
  for (const line of lines) {
    if (chunk !== "" && chunk.length + line.length + 1 > SECTION_MAX) {
      sections.push(chunk);
      chunk = "";
    }
    chunk = chunk === "" ? line : `${chunk}\n${line}`;
  }
  if (chunk !== "") sections.push(chunk);
  sections.forEach((text, i) => {
    blocks.push({ type: "section", block_id: `alert.group.lines.${id}.${i}`, text: mrkdwn(text) });
  });
  const context: ContextBlock = {
    type: "context",
    block_id: `alert.group.context.${id}`,
    elements: [mrkdwn(m.groupContext({ transports: transportsWord(all.length) }))],
  };
  blocks.push(context);
  const text = done
    ? m.groupResolvedText({ title, transports: transportsWord(all.length) })
    : `${mark} ${title}: ${transportsWord(open.length)} (${codeSummary(open)})`;
  return { text: fitMrkdwn(userText(text, 300), 300), blocks };
}
