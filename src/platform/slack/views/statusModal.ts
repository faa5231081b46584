/** A modal that only says something. */
import type { ModalView } from "@slack/types";
import { type Language, messages } from "../../../i18n/index.js";
import { VIEWS } from "../actionIds.js";
import { plain, section } from "./blocks.js";

/** A modal that only says something (login checking, linked, failed); its Close in `language`. */
export function statusModal(
  title: string,
  text: string,
  callbackId: string = VIEWS.login,
  language: Language,
): ModalView {
  return {
    type: "modal",
    callback_id: callbackId,
    title: plain(title.slice(0, 24)),
    close: plain(messages(language).common.close()),
    blocks: [section(text)],
  };
}
