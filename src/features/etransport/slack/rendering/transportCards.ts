/**
 * The `transport-find`, `transport-save` and `transport-remove` kinds on the Slack side: a
 * transport's card, its edit form or remove question, the outcome of a save or a removal, and
 * after an edit the earlier cards of that transport brought up to date where they were shown.
 */

import { messages } from "../../../../i18n/catalogue.js";
import type { Language } from "../../../../i18n/language.js";
import { TRANSPORT_STATUS } from "../../../../platform/fleet/schemas.js";
import { VIEWS } from "../../../../platform/slack/actionIds.js";
import type { Rendered } from "../../../../platform/slack/rendered.js";
import { taskLanguage, uitOr } from "../../../../platform/slack/rendering/renderContext.js";
import type { StoredAnswers } from "../../../../platform/slack/rendering/storedAnswers.js";
import { noticeMessage } from "../../../../platform/slack/views/notice.js";
import { statusModal } from "../../../../platform/slack/views/statusModal.js";
import { ECHO_MAX, userText } from "../../../../platform/slack/views/text.js";
import type { TaskRecord } from "../../../../platform/tasks/task.js";
import type { KindRenderer } from "../../../kindRenderer.js";
import { type TaskOf, taskOf } from "../../../taskKinds.js";
import type { TransportFindResult } from "../../kinds/transports.js";
import type { TransportView } from "../../types.js";
import { transportCard } from "../views/card.js";
import { transportModal } from "../views/formModal.js";
import { removeConfirmationMessage } from "../views/removal.js";
import { formatUit, transportStatusText } from "../views/transportText.js";
import { mergeTransports } from "./transportList.js";

/** Transports that can no longer be modified. */
const FINISHED: ReadonlySet<number> = new Set([TRANSPORT_STATUS.completed, TRANSPORT_STATUS.autoCompleted]);

function renderTransportFind(
  task: TaskOf<"transport-find">,
  result: TransportFindResult,
  language: Language,
): Rendered {
  const p = task.params;
  const e = messages(language).etransport;
  const transport = result.transport;
  if (!transport) {
    const text = userText(e.notFound({ uit: formatUit(p.uit), search: p.uit.slice(0, 4) }), 1000);
    return {
      message: noticeMessage(`:warning: ${text}`),
      view: statusModal(e.notFoundTitle(), text, VIEWS.transportEdit, language),
    };
  }
  if (p.purpose === "edit") return renderEditForm(task, transport, language);
  if (p.purpose === "remove")
    return { message: removeConfirmationMessage(transport, { timeZone: p.timeZone, language }) };
  return {
    message: {
      text: e.transportTitle({ uit: userText(formatUit(p.uit), ECHO_MAX) }),
      blocks: transportCard(transport, { timeZone: p.timeZone, language }),
    },
  };
}

/** A found transport to edit: its form, or why it cannot be edited any more. */
function renderEditForm(
  task: TaskOf<"transport-find">,
  transport: TransportView,
  language: Language,
): Rendered {
  const p = task.params;
  const e = messages(language).etransport;
  if (FINISHED.has(transport.statusId)) {
    const status = transportStatusText(language, transport.statusId).toLocaleLowerCase(language);
    const text = userText(e.finished({ uit: formatUit(p.uit), status }), 1000);
    return {
      message: noticeMessage(`:no_entry: ${text}`),
      view: statusModal(e.cannotEditTitle(), text, VIEWS.transportEdit, language),
    };
  }
  return {
    message: noticeMessage(e.editing({ uit: userText(formatUit(p.uit), ECHO_MAX) })),
    view: transportModal({
      mode: "edit",
      vehicles: undefined,
      initial: transport,
      userTimeZone: p.timeZone,
      language,
      // The channel it was asked in: the edited card is posted there, as the form says.
      // `saved`: the instants as held, which the pickers show to the minute (kept when untouched).
      privateMetadata: {
        transportUId: transport.uId,
        uit: transport.codeUit,
        channel: task.reply.channel,
        saved: {
          validityStartMs: transport.validityStartMs,
          validityEndMs: transport.validityEndMs,
          startMs: transport.startMs,
          endMs: transport.endMs,
        },
      },
    }),
  };
}

/**
 * One earlier answer showing the edited transport, re-rendered in place: the card an earlier
 * save posted (chat.update), or a list that shows it while its response_url lasts; where, or
 * undefined.
 */
async function refreshCard(
  earlier: TaskRecord,
  edited: TransportView,
  answers: StoredAnswers,
  language: Language,
): Promise<string | undefined> {
  const saved = taskOf(earlier, "transport-save");
  const posted = earlier.reply.posted;
  if (saved?.result?.transport?.uId === edited.uId && posted) {
    await answers.updateResult(earlier.id, { ...saved.result, transport: edited });
    const current = await answers.get(earlier.id);
    if (!current) return undefined;
    const { message } = await answers.render(current);
    await answers.updatePosted(earlier, posted, message);
    return posted.channel.startsWith("D") ? messages(language).tasks.placeDm() : `<#${posted.channel}>`;
  }
  const list = taskOf(earlier, "transport-list");
  if (!list?.result?.transports.some((t) => t.uId === edited.uId) || !answers.responseUrlOpen(earlier))
    return undefined;
  await answers.updateResult(earlier.id, {
    ...list.result,
    transports: mergeTransports(list.result.transports, [edited]),
  });
  const current = await answers.get(earlier.id);
  if (!current) return undefined;
  const { message } = await answers.render(current);
  const sent = await answers.replaceThroughResponseUrl(current, message);
  return sent ? messages(language).tasks.placeList() : undefined;
}

export const transportFindRenderer: KindRenderer<"transport-find"> = {
  describe: (task, language) => {
    const t = messages(language).tasks;
    const uit = task?.params.uit;
    return uit ? t.transportFind({ uit: userText(formatUit(uit), ECHO_MAX) }) : t.transportFindAny();
  },
  render: (task, result, context) =>
    renderTransportFind(task, result, taskLanguage(task, context.defaultLanguage)),
};

export const transportSaveRenderer: KindRenderer<"transport-save"> = {
  describe: (task, language) => {
    const t = messages(language).tasks;
    const save = task?.params;
    const uit = userText(uitOr(save?.draft.codeUit, ""), ECHO_MAX);
    return (save?.transportUId ? t.transportUpdate({ uit }) : t.transportCreate({ uit })).trim();
  },
  render: (task, result, context) => {
    const language = taskLanguage(task, context.defaultLanguage);
    const p = task.params;
    const e = messages(language).etransport;
    const created = !p.transportUId;
    if (!result.saved) return { message: noticeMessage(e.notSaved({ created })) };
    const card = result.transport ? transportCard(result.transport, { timeZone: p.timeZone, language }) : [];
    const text = e.saved({
      uit: userText(uitOr(p.draft.codeUit, ""), ECHO_MAX),
      created,
      alreadyThere: result.alreadyThere === true,
    });
    return { message: { text, blocks: [{ type: "section", text: { type: "mrkdwn", text } }, ...card] } };
  },
  // After an edit, every earlier card of that transport fleetbot can still update.
  staleAnswers: (task) => {
    const edited = task.params.transportUId && task.result?.saved ? task.result.transport : undefined;
    if (!edited) return undefined;
    return (earlier, answers, language) => refreshCard(earlier, edited, answers, language);
  },
};

export const transportRemoveRenderer: KindRenderer<"transport-remove"> = {
  describe: (task, language) => {
    const t = messages(language).tasks;
    const uit = task?.params.uit;
    return uit ? t.transportRemove({ uit: userText(formatUit(uit), ECHO_MAX) }) : t.transportRemoveAny();
  },
  render: (task, result, context) => {
    const language = taskLanguage(task, context.defaultLanguage);
    const e = messages(language).etransport;
    const uit = userText(formatUit(result.uit), ECHO_MAX);
    return {
      message: noticeMessage(result.removed ? e.removed({ uit }) : e.notRemovedByService({ uit })),
    };
  },
};
