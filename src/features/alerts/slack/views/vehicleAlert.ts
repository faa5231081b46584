/**
 * A vehicle-watch alert (pure): power cut, zone, idling, speeding, offline, towed, out of hours,
 * reefer temperature. Like a transport alert it is posted once and edited in place when resolved,
 * but it names a vehicle, not a UIT: the plate is its subject and what Mute silences. Each says how
 * long (durations, not two clock times to subtract) and when the evidence was seen (a date token,
 * the position's own time); a vehicle in private mode shows no place.
 */
import type { ActionsBlock, ContextBlock, KnownBlock, SectionBlock } from "@slack/types";
import { duration, type Language, messages, number } from "../../../../i18n/index.js";
import { ACTIONS } from "../../../../platform/slack/actionIds.js";
import { mrkdwn, plain } from "../../../../platform/slack/views/blocks.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import { fitMrkdwn, userText } from "../../../../platform/slack/views/text.js";
import type { VehicleFacts } from "../../../../platform/store/contract/vehicleFacts.js";
import { openStreetMapUrl } from "../../../../platform/vehicles/openStreetMap.js";
import { cut, formatUit, idPart } from "../../../etransport/index.js";
import { faultEnd, faultStartedAt } from "../../duration.js";
import type { IncidentKind, ResolveReason } from "../../incidents.js";
import {
  type AlertIncident,
  type AlertViewOptions,
  alertDate,
  markOf,
  titleOf,
  vehicleText,
} from "./incidentText.js";
import { lasted } from "./lasted.js";
import { alertMuteValue } from "./mute.js";

const kmh = (lang: Language, value: number | undefined) => number(lang, Math.round(value ?? 0));
const volts = (lang: Language, value: number | undefined) =>
  number(lang, value ?? 0, { maxFractionDigits: 1, minFractionDigits: 1 });
const minutes = (lang: Language, value: number | undefined) => duration(lang, (value ?? 0) * 60_000);
const celsius = (lang: Language, value: number | undefined) =>
  number(lang, value ?? 0, { maxFractionDigits: 1 });

/** How long the condition had lasted at the last check that saw it (the post may go out later). */
function lastedSoFar(incident: AlertIncident, opts: AlertViewOptions): string {
  const seen = Math.max(incident.lastSeenAt ?? incident.firstSeenAt, incident.firstSeenAt);
  return duration(opts.language, seen - faultStartedAt(incident));
}

function distanceText(lang: Language, meters: number): string {
  return meters < 1000
    ? `${number(lang, Math.round(meters))} m`
    : `${number(lang, meters / 1000, { maxFractionDigits: 1 })} km`;
}

function problemLines(incident: AlertIncident, v: VehicleFacts, opts: AlertViewOptions): string[] {
  const lang = opts.language;
  const w = messages(lang).vehicleWatch;
  const lasted = lastedSoFar(incident, opts);
  switch (incident.kind) {
    case "powercut": {
      const lines = [
        w.powerCutLine({ volts: volts(lang, v.volts), threshold: volts(lang, v.threshold), lasted }),
      ];
      if (v.transportCodeUit)
        lines.push(w.powerCutTransport({ uit: `\`${userText(formatUit(v.transportCodeUit), 40)}\`` }));
      lines.push(`_${w.powerCutAdvice()}_`);
      return lines;
    }
    case "zone":
      return [
        w.insideZoneLine({
          zone: userText(v.zoneName ?? "?", 80),
          radius: number(lang, incident.facts.vehicle?.threshold ?? 0),
          lasted,
        }),
      ];
    case "idle":
      return [w.idleLine({ lasted, limit: minutes(lang, v.threshold) }), `_${w.idleAdvice()}_`];
    case "speeding":
      return [
        w.speedingLine({
          speed: kmh(lang, v.speedKmh),
          limit: kmh(lang, v.threshold),
          peak: kmh(lang, v.peakSpeedKmh ?? v.speedKmh),
        }),
      ];
    case "offline":
      return [w.offlineLine({ lasted, limit: minutes(lang, v.threshold) }), `_${w.offlineAdvice()}_`];
    case "towed":
      return [w.towedLine({ distance: distanceText(lang, v.movedMeters ?? 0) }), `_${w.towedAdvice()}_`];
    case "afterhours":
      return [w.afterHoursLine({ speed: kmh(lang, v.speedKmh), hours: (v.hours ?? "").replace("-", "–") })];
    case "temperature":
      return [
        w.temperatureLine({
          value: celsius(lang, v.temperature),
          min: celsius(lang, v.tempMin),
          max: celsius(lang, v.tempMax),
          lasted,
        }),
        `_${w.temperatureAdvice()}_`,
      ];
    default:
      return [];
  }
}

/** The place and the evidence's time: address and map link, or the private-mode line. */
function placeContext(v: VehicleFacts, opts: AlertViewOptions, blockId: string): ContextBlock {
  const w = messages(opts.language).vehicleWatch;
  const parts: string[] = [];
  if (v.private) parts.push(`_${w.privatePlace()}_`);
  else if (v.latitude !== undefined && v.longitude !== undefined) {
    const where = v.address
      ? userText(v.address, 200)
      : `${v.latitude.toFixed(5)}, ${v.longitude.toFixed(5)}`;
    parts.push(`:round_pushpin: ${where} · <${openStreetMapUrl(v.latitude, v.longitude)}|${w.mapLink()}>`);
  }
  if (v.gpsMs !== undefined) parts.push(w.seenAt({ when: alertDate(v.gpsMs, opts) }));
  return { type: "context", block_id: blockId, elements: [mrkdwn(parts.join(" · ") || " ")] };
}

function vehicleName(incident: AlertIncident): string {
  return userText(incident.facts.carrierCode ?? incident.codeUit, 30);
}

/** The alert of an open vehicle incident in one channel. */
export function vehicleAlertMessage(
  incident: AlertIncident,
  channel: string,
  opts: AlertViewOptions,
): SlackMessage {
  const v = incident.facts.vehicle;
  const lang = opts.language;
  const w = messages(lang).vehicleWatch;
  const id = idPart(incident.id);
  const title = titleOf(incident, lang);
  const mark = markOf(incident);
  const lines = [
    `${mark} *${title}*`,
    `:truck: ${vehicleText(incident.facts, lang)}`,
    ...(v ? problemLines(incident, v, opts) : []),
    messages(lang).alerts.since({ when: alertDate(faultStartedAt(incident), opts) }),
  ];
  const blocks: KnownBlock[] = [
    {
      type: "section",
      block_id: `alert.open.${id}`,
      text: mrkdwn(cut(lines.join("\n"), 2900)),
    } satisfies SectionBlock,
  ];
  if (v) blocks.push(placeContext(v, opts, `alert.facts.${id}`));
  blocks.push({
    type: "actions",
    block_id: `alert.actions.${id}`,
    elements: [
      {
        type: "button",
        action_id: ACTIONS.alertMute,
        text: plain(w.buttonMuteVehicle()),
        value: alertMuteValue(incident.codeUit, channel),
      },
    ],
  } satisfies ActionsBlock);
  return { text: fitMrkdwn(w.alertText({ mark, title, vehicle: vehicleName(incident) }), 300), blocks };
}

/** Why a vehicle incident ended, in words. */
export function vehicleResolveReasonText(
  kind: IncidentKind,
  reason: ResolveReason | undefined,
  lang: Language,
): string {
  const w = messages(lang).vehicleWatch;
  if (reason === "gone") return w.reasonGone();
  if (reason === "status") return kind === "offline" ? w.reasonTransport() : w.reasonPrivate();
  return messages(lang).alerts.resolveReason(kind, reason ?? "recovered");
}

/** What the resolution adds by kind: how long it stayed in the zone, the highest speed. */
function resolutionLines(incident: AlertIncident, lang: Language, lasted: string): string[] {
  const v = incident.facts.vehicle;
  const w = messages(lang).vehicleWatch;
  if (!v) return [];
  if (incident.kind === "zone") return [w.zoneStayed({ zone: userText(v.zoneName ?? "?", 80), lasted })];
  if (incident.kind === "speeding")
    return [w.speedingPeak({ peak: kmh(lang, v.peakSpeedKmh ?? v.speedKmh) })];
  return [];
}

/** The vehicle alert edited in place once resolved: ✅, from–to and how long, no buttons. */
export function resolvedVehicleAlertMessage(incident: AlertIncident, opts: AlertViewOptions): SlackMessage {
  const lang = opts.language;
  const w = messages(lang).vehicleWatch;
  const id = idPart(incident.id);
  const title = titleOf(incident, lang);
  const resolvedAt = faultEnd(incident)?.latestMs ?? incident.resolvedAt ?? incident.firstSeenAt;
  const took = lasted(incident, lang);
  const lines = [
    `✅ *${messages(lang).alerts.resolved()}* · ~${title}~`,
    `:truck: ${vehicleText(incident.facts, lang)}`,
    w.resolvedLine({
      from: alertDate(faultStartedAt(incident), opts),
      to: alertDate(resolvedAt, opts),
      lasted: took,
    }),
    ...resolutionLines(incident, lang, took),
    `_${vehicleResolveReasonText(incident.kind, incident.resolveReason, lang)}_`,
  ];
  const blocks: KnownBlock[] = [
    { type: "section", block_id: `alert.resolved.${id}`, text: mrkdwn(cut(lines.join("\n"), 2900)) },
  ];
  if (incident.facts.vehicle)
    blocks.push(placeContext(incident.facts.vehicle, opts, `alert.resolved.facts.${id}`));
  return {
    text: fitMrkdwn(w.resolvedText({ title, vehicle: vehicleName(incident), lasted: took }), 300),
    blocks,
  };
}

/** The thread reply under a vehicle alert: when and why it ended, how long it lasted. */
export function resolvedVehicleThreadReply(incident: AlertIncident, opts: AlertViewOptions): SlackMessage {
  const lang = opts.language;
  const m = messages(lang).alerts;
  const resolvedAt = incident.resolvedAt ?? incident.firstSeenAt;
  const reason = vehicleResolveReasonText(incident.kind, incident.resolveReason, lang);
  const took = lasted(incident, lang);
  const extra = resolutionLines(incident, lang, took);
  const text = [
    `${m.resolvedReply({ when: alertDate(resolvedAt, opts), reason, lasted: took })}.`,
    ...extra,
  ].join("\n");
  return {
    text: cut(`${m.resolvedReplyText({ reason, lasted: took })}.`, 300),
    blocks: [{ type: "section", block_id: `alert.reply.${idPart(incident.id)}`, text: mrkdwn(text) }],
  };
}
