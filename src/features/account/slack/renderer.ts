/** The `account-link` kind on the Slack side: its description, and the link's answer or the form back. */
import { messages } from "../../../i18n/catalogue.js";
import { duration } from "../../../i18n/format.js";
import type { Language } from "../../../i18n/language.js";
import type { Rendered } from "../../../platform/slack/rendered.js";
import { taskLanguage } from "../../../platform/slack/rendering/renderContext.js";
import { noticeMessage } from "../../../platform/slack/views/notice.js";
import { statusModal } from "../../../platform/slack/views/statusModal.js";
import { ECHO_MAX, userText } from "../../../platform/slack/views/text.js";
import type { KindRenderer } from "../../kindRenderer.js";
import type { TaskOf } from "../../taskKinds.js";
import type { AccountLinkResult } from "../kinds/accountLink.js";
import { loginModal } from "./views/loginModal.js";

/** The link's answer: linked, or the form back with the refusal under its password. */
function renderAccountLink(
  task: TaskOf<"account-link">,
  result: AccountLinkResult,
  language: Language,
  nowMs: number,
): Rendered {
  const t = messages(language).account;
  const forWorkspace = task.params.linkAs === "workspace";
  if (result.linked) {
    const username = userText(result.username, ECHO_MAX);
    return {
      message: noticeMessage(forWorkspace ? t.linkedWorkspace({ username }) : t.linkedUser({ username })),
    };
  }
  if (result.code === "too-many-failures") {
    // No login was sent; the words are the same whether the user name exists or not.
    const text = t.linkTooManyFailures({ wait: retryWait(language, (result.retryAt ?? nowMs) - nowMs) });
    return {
      view: statusModal(forWorkspace ? t.loginTitleWorkspace() : t.loginTitle(), text, undefined, language),
      message: noticeMessage(text),
    };
  }
  const reason = linkRefusalText(result, language);
  return {
    // The form comes back with the refusal on its password field; the message is for a closed form.
    view: loginModal(
      JSON.stringify({
        ...(task.reply.channel ? { channel: task.reply.channel } : {}),
        ...(forWorkspace ? { workspace: true } : {}),
      }),
      language,
      { refused: { username: result.username, reason }, forWorkspace },
    ),
    message: noticeMessage(
      `:x: ${userText(reason, 1000)}`,
      forWorkspace ? t.linkTryAgainWorkspace() : t.linkTryAgain(),
    ),
  };
}

/** How long until an attempt is allowed again, rounded up (never "0 s" while it is not). */
function retryWait(language: Language, ms: number): string {
  const unit = ms < 60_000 ? 1000 : 60_000;
  return duration(language, Math.max(1, Math.ceil(ms / unit)) * unit);
}

/** Why a link was refused, in words: from its code; a row stored before codes keeps its English. */
function linkRefusalText(result: Extract<AccountLinkResult, { linked: false }>, language: Language): string {
  if (result.code === "login" || result.reason === undefined)
    return messages(language).account.linkRefusedLogin();
  return result.reason;
}

export const accountLinkRenderer: KindRenderer<"account-link"> = {
  describe: (task, language) =>
    messages(language)
      .tasks.accountCheck({ username: userText(task?.params.username ?? "", ECHO_MAX) })
      .trim(),
  render: (task, result, context) =>
    renderAccountLink(task, result, taskLanguage(task, context.defaultLanguage), context.now()),
};
