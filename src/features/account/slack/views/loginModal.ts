/** The /fleet login form. */
import type { ModalView } from "@slack/types";
import { type Language, messages } from "../../../../i18n/index.js";
import { INPUTS, VIEWS } from "../../../../platform/slack/actionIds.js";
import { plain, section } from "../../../../platform/slack/views/blocks.js";

/**
 * The login form, in the user's `language`. `refused`: the fleet service did not accept the last
 * attempt. Slack shows field errors only in the ack of a submission (response_action "errors",
 * within 3 s), and the login check waits for a slot of the account, so the answer comes later
 * through views.update: the form comes back with the user name kept and the refusal written under
 * the password field (its hint), the closest Slack allows to an inline error.
 */
export function loginModal(
  privateMetadata: string,
  language: Language,
  options: { error?: string; refused?: { username: string; reason: string }; forWorkspace?: boolean } = {},
): ModalView {
  const t = messages(language).account;
  const { error, refused, forWorkspace = false } = options;
  return {
    type: "modal",
    callback_id: VIEWS.login,
    private_metadata: privateMetadata,
    title: plain((forWorkspace ? t.loginTitleWorkspace() : t.loginTitle()).slice(0, 24)),
    submit: plain(t.loginSubmit()),
    close: plain(messages(language).tasks.cancel()),
    blocks: [
      section(forWorkspace ? t.loginIntroWorkspace() : t.loginIntro()),
      ...(error ? [section(`:warning: ${error}`)] : []),
      {
        type: "input",
        block_id: INPUTS.loginUsername.block,
        label: plain(t.loginUsername()),
        element: {
          type: "plain_text_input",
          action_id: INPUTS.loginUsername.action,
          max_length: 200,
          ...(refused ? { initial_value: refused.username.slice(0, 200) } : {}),
        },
      },
      {
        type: "input",
        block_id: INPUTS.loginPassword.block,
        label: plain(t.loginPassword()),
        hint: plain(
          refused ? t.loginRefusedHint({ reason: refused.reason }).slice(0, 2000) : t.loginPasswordHint(),
        ),
        element: { type: "plain_text_input", action_id: INPUTS.loginPassword.action, max_length: 200 },
      },
    ],
  };
}
