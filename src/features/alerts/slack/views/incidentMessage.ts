/**
 * Alert messages (pure): one alert per incident and channel with Pause / End / Show / Mute
 * buttons (this module), its resolved version and the thread reply of the resolution
 * (resolution.ts), the daily digest (digest.ts) and the subscription list (subscriptionList.ts).
 */
import type { ActionsBlock, Button, ContextBlock, KnownBlock, SectionBlock } from "@slack/types";
import { duration, type Language, messages } from "../../../../i18n/index.js";
import { TRANSPORT_STATUS } from "../../../../platform/fleet/schemas.js";
import { ACTIONS } from "../../../../platform/slack/actionIds.js";
import { mrkdwn, plain } from "../../../../platform/slack/views/blocks.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import { fitMrkdwn, userText } from "../../../../platform/slack/views/text.js";
import {
  cut,
  formatUit,
  idPart,
  isDomesticRoute,
  transportButtonValue,
  transportStateInfo,
} from "../../../etransport/index.js";
import { faultStartedAt } from "../../duration.js";
import { isVehicleKind, SEND_LIMIT_MS, stalledSinceMs } from "../../incidents.js";
import {
  type AlertIncident,
  type AlertViewOptions,
  alertDate,
  isAdvised,
  isChangeRequestCode,
  isTransmissionCode,
  lowerFirst,
  markOf,
  statusName,
  titleOf,
  vehiclePlain,
  vehicleText,
} from "./incidentText.js";
import { alertMuteValue } from "./mute.js";
import { vehicleAlertMessage } from "./vehicleAlert.js";

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
        // How long and how long is left (issue 22: no subtraction for the reader), as of the
        // post, with the times beside them as date tokens, which stay true after it.
        const now = opts.nowMs ?? incident.lastSeenAt ?? incident.firstSeenAt;
        lines.push(
          m.stalledSince({
            lasted: duration(lang, now - since),
            when: when(since),
            code: t.transmissionStatusCode ? userText(t.transmissionStatusCode, 40) : m.noCode(),
          }),
        );
        const limit = since + SEND_LIMIT_MS;
        lines.push(
          now < limit
            ? m.stalledLimit({ left: duration(lang, limit - now), when: when(limit) })
            : m.stalledLimitPassed(),
        );
      }
      lines.push(`_${m.stalledAdvice()}_`);
      break;
    }
  }
  return lines;
}

export function factsContext(incident: AlertIncident, opts: AlertViewOptions, blockId: string): ContextBlock {
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
  if (isVehicleKind(incident.kind)) return vehicleAlertMessage(incident, channel, opts);
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
