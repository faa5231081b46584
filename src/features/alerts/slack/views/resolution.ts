/** An incident that ended: its alert edited in place, and the reply in its thread. */
import type { KnownBlock } from "@slack/types";
import { type Language, messages } from "../../../../i18n/index.js";
import { mrkdwn } from "../../../../platform/slack/views/blocks.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import { fitMrkdwn, userText } from "../../../../platform/slack/views/text.js";
import { cut, formatUit, idPart } from "../../../etransport/index.js";
import { faultEnd, faultStartedAt } from "../../duration.js";
import { type IncidentKind, isVehicleKind, type ResolveReason } from "../../incidents.js";
import { factsContext } from "./incidentMessage.js";
import {
  type AlertIncident,
  type AlertViewOptions,
  alertDate,
  titleOf,
  vehicleText,
} from "./incidentText.js";
import { lasted, lastedNote } from "./lasted.js";
import {
  resolvedVehicleAlertMessage,
  resolvedVehicleThreadReply,
  vehicleResolveReasonText,
} from "./vehicleAlert.js";

/** Why an incident ended, in words. */
export function resolveReasonText(
  kind: IncidentKind,
  reason: ResolveReason | undefined,
  lang: Language,
): string {
  if (isVehicleKind(kind)) return vehicleResolveReasonText(kind, reason, lang);
  return messages(lang).alerts.resolveReason(kind, reason ?? "recovered");
}

/** The alert edited in place once the incident is resolved: ✅, how long, no buttons. */
export function resolvedAlertMessage(incident: AlertIncident, opts: AlertViewOptions): SlackMessage {
  if (isVehicleKind(incident.kind)) return resolvedVehicleAlertMessage(incident, opts);
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
  if (isVehicleKind(incident.kind)) return resolvedVehicleThreadReply(incident, opts);
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
