/** A transport card's buttons by state (start, pause, end, edit, remove), with their confirm dialogs. */
import type { Button, ConfirmationDialog } from "@slack/types";
import type { Language } from "../../../../i18n/language.js";
import { ACTIONS } from "../../../../platform/slack/actionIds.js";
import { plain } from "../../../../platform/slack/views/blocks.js";
import { transportStateInfo } from "../../state.js";
import type { TransportAction, TransportView } from "../../types.js";
import { transportButtonValue } from "./buttonValues.js";
import { type CardDetail, LIMITS_BY_DETAIL } from "./cardOptions.js";
import { cut, formatUit } from "./transportText.js";
import { words } from "./words.js";

/** Plain-text vehicle for confirm dialogs (the plate only when `short`). */
function vehiclePlain(t: TransportView, short = false): string {
  const name = t.carrierName && t.carrierName !== t.carrierCode ? t.carrierName : undefined;
  const parts = short ? [t.carrierCode ?? name] : [t.carrierCode, name];
  return parts
    .filter((s): s is string => !!s)
    .map((s) => cut(s, short ? 20 : 40))
    .join(" · ");
}

function confirmDialog(
  language: Language,
  title: string,
  text: string,
  confirm: string,
  danger: boolean,
): ConfirmationDialog {
  return {
    title: plain(cut(title, 100)),
    text: plain(cut(text, 300)),
    confirm: plain(cut(confirm, 30)),
    deny: plain(words(language).cancel()),
    ...(danger ? { style: "danger" as const } : {}),
  };
}

/** "UIT Y45R-577U-N544-GY4S (B-12-ABC · Truck 12)" for a confirm dialog (plain text). */
function confirmUit(t: TransportView, long: boolean, language: Language): string {
  const vehicle = vehiclePlain(t, !long);
  return `${words(language).uitNamed({ uit: formatUit(cut(t.codeUit, 40)) })}${vehicle ? ` (${vehicle})` : ""}`;
}

function removeConfirm(t: TransportView, long: boolean, language: Language): ConfirmationDialog {
  const m = words(language);
  const uit = confirmUit(t, long, language);
  return confirmDialog(
    language,
    m.removeConfirmTitle(),
    long ? m.removeConfirmLong({ uit }) : m.removeConfirmShort({ uit }),
    m.removeConfirmButton(),
    true,
  );
}

function endConfirm(t: TransportView, long: boolean, language: Language): ConfirmationDialog {
  const m = words(language);
  const uit = confirmUit(t, long, language);
  return confirmDialog(
    language,
    m.endConfirmTitle(),
    long ? m.endConfirmLong({ uit }) : m.endConfirmShort({ uit }),
    m.endConfirmButton(),
    false,
  );
}

const BUTTON_IDS: Readonly<Record<TransportAction, string>> = {
  start: ACTIONS.transportStart,
  pause: ACTIONS.transportPause,
  end: ACTIONS.transportEnd,
  edit: ACTIONS.transportEdit,
  remove: ACTIONS.transportRemove,
};

export function transportButton(
  t: TransportView,
  action: TransportAction,
  language: Language,
  longConfirm = true,
  listToken?: string,
): Button {
  const button: Button = {
    type: "button",
    action_id: BUTTON_IDS[action],
    text: plain(words(language).button(action)),
    value: transportButtonValue(t, listToken),
  };
  if (action === "start") button.style = "primary";
  if (action === "remove") {
    button.style = "danger";
    button.confirm = removeConfirm(t, longConfirm, language);
  }
  if (action === "end") button.confirm = endConfirm(t, longConfirm, language);
  return button;
}

/** The button actions a transport allows in its state (fleetbot's rules, see transportStateInfo). */
export function transportButtons(
  t: TransportView,
  detail: CardDetail,
  listToken: string | undefined,
  language: Language,
): Button[] {
  const long = LIMITS_BY_DETAIL[detail].longConfirm;
  return transportStateInfo(t).actions.map((action) => transportButton(t, action, language, long, listToken));
}
