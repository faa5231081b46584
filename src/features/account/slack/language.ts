import type { WebClient } from "@slack/web-api";
import { type Catalogue, messages } from "../../../i18n/catalogue.js";
import type { Language } from "../../../i18n/language.js";
import { type Ack, ephemeral } from "../../../platform/slack/listeners/responses.js";
import { noticeMessage } from "../../../platform/slack/views/notice.js";
import type { LanguageDeps } from "../../context.js";

/**
 * `/fleet language` (`limba`, `limbă`): the user's own language, and an installed workspace's
 * default. Every answer is to the user alone, in the language the request resolves to after the
 * command took effect (a confirmation of `/fleet language ro` is already in Romanian).
 */

/** What the command needs of the request. */
export interface LanguageCommandArgs {
  ack: Ack;
  client: WebClient;
  userId: string;
  /** The user's language as the command resolved it (before this command takes effect). */
  language?: Language;
}

/** What the grammar read (src/commands/fleet.ts parseLanguage). */
export interface LanguageCommand {
  scope: "user" | "workspace";
  language?: Language;
}

/** `/fleet language [workspace] [ro|en]`: show, choose one's own, or set the workspace default. */
export async function languageCommand(
  args: LanguageCommandArgs,
  command: LanguageCommand,
  deps: LanguageDeps,
): Promise<void> {
  if (command.scope === "workspace") return workspaceLanguage(args, command.language, deps);
  if (command.language === undefined) {
    const { language, source } = await deps.current(args.userId);
    const t = messages(language).account;
    await args.ack(
      ephemeral(noticeMessage(t.languageCurrent({ language, source }), t.languageHowToChange())),
    );
    return;
  }
  await deps.choose(args.userId, command.language);
  // The user's own choice wins over everything else: the answer is in the language just chosen.
  const t = messages(command.language).account;
  await args.ack(
    ephemeral(noticeMessage(t.languageChosen({ language: command.language }), t.languageChosenDetail())),
  );
}

/** `/fleet language workspace ro|en`: multi-workspace mode, by the first installer or an admin (org-wide: an org admin). */
async function workspaceLanguage(
  args: LanguageCommandArgs,
  language: Language | undefined,
  deps: LanguageDeps,
): Promise<void> {
  type Texts = Catalogue["account"];
  const say = async (text: (t: Texts) => string, detail: (t: Texts) => string) => {
    const t = messages(args.language ?? (await deps.users.languageOf(args.userId))).account;
    await args.ack(ephemeral(noticeMessage(text(t), detail(t))));
  };
  const manage = deps.workspaceDefault;
  if (!manage) {
    await say(
      (t) => t.languageBySingle({ configured: deps.defaultLanguage }),
      (t) => t.languageChooseYours(),
    );
    return;
  }
  // The grammar never gives the workspace form without a language; said rather than assumed.
  if (language === undefined) {
    await say(
      (t) => t.languageChooseYours(),
      (t) => t.languageHowToChange(),
    );
    return;
  }
  const allowed = await manage.mayManage(args.client, args.userId);
  if (!allowed) {
    if (manage.orgWide)
      await say(
        (t) => (allowed === undefined ? t.orgAdminUnknown() : t.languageOrgRefused()),
        (t) => t.languageOrgAskAdmin(),
      );
    else
      await say(
        (t) => (allowed === undefined ? t.languageAdminUnknown() : t.languageWorkspaceRefused()),
        (t) => t.languageWorkspaceAskAdmin(),
      );
    return;
  }
  await manage.set(language);
  // Read again: the setter who never chose their own now reads the new default.
  const yours = await deps.current(args.userId);
  const t = messages(yours.language).account;
  const text =
    yours.language === language
      ? t.languageWorkspaceDefault({ language })
      : `${t.languageWorkspaceDefault({ language })} ${t.languageWorkspaceYours({ yours: yours.language, source: yours.source })}`;
  await args.ack(ephemeral(noticeMessage(text, t.languageWorkspaceDetail())));
}
