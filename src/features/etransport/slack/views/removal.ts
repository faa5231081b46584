/** /etransport remove: the question before a transport is deleted, and its Cancel. */
import type { ActionsBlock, Button } from "@slack/types";
import type { Language } from "../../../../i18n/language.js";
import { ACTIONS } from "../../../../platform/slack/actionIds.js";
import { mrkdwn, plain } from "../../../../platform/slack/views/blocks.js";
import type { SlackMessage } from "../../../../platform/slack/views/message.js";
import { userText } from "../../../../platform/slack/views/text.js";
import type { TransportView } from "../../types.js";
import { transportButtonValue } from "./buttonValues.js";
import { transportCard } from "./card.js";
import { transportButton } from "./cardButtons.js";
import type { TransportCardOptions } from "./cardOptions.js";
import { formatUit, idPart } from "./transportText.js";
import { words } from "./words.js";

/** /etransport remove <UIT>: what will be deleted, and a danger button that asks once more. */
export function removeConfirmationMessage(
  t: TransportView,
  opts: Pick<TransportCardOptions, "timeZone" | "nowMs" | "language">,
): SlackMessage {
  const language = opts.language;
  const m = words(language);
  const uit = formatUit(t.codeUit);
  const button = transportButton(t, "remove", language);
  button.text = plain(m.removeButton());
  // Next to the danger button, a way out that leaves the transport as it is.
  const keep: Button = {
    type: "button",
    action_id: ACTIONS.transportRemoveCancel,
    text: plain(m.cancel()),
    value: transportButtonValue(t),
  };
  const actions: ActionsBlock = {
    type: "actions",
    block_id: `etransport.remove.${idPart(t.codeUit)}`,
    elements: [button, keep],
  };
  return {
    text: m.removeQuestionText({ uit: userText(uit, 40) }),
    blocks: [
      { type: "section", block_id: "etransport.remove.question", text: mrkdwn(m.removeQuestion()) },
      ...transportCard(t, { ...opts, language, buttons: false, detail: "compact" }),
      actions,
    ],
  };
}

/** What replaces the remove question after its Cancel: nothing was removed. */
export function removeCancelledMessage(codeUit: string, language: Language): SlackMessage {
  const m = words(language);
  const uit = userText(formatUit(codeUit), 40);
  return {
    text: m.removeCancelled({ uit }),
    blocks: [
      {
        type: "section",
        block_id: "etransport.remove.cancelled",
        text: mrkdwn(m.removeCancelled({ uit: `\`${uit}\`` })),
      },
    ],
  };
}
