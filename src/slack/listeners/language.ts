import type { WebClient } from "@slack/web-api";
import type { Language } from "../../i18n/language.js";
import type { LanguageSource } from "../../i18n/resolve.js";
import type { LanguageDeps } from "../context.js";
import { noticeMessage } from "../views/common.js";
import { type Ack, ephemeral } from "./shared.js";

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
}

/** What the grammar read (src/slack/grammar/fleet.ts parseLanguage). */
export interface LanguageCommand {
  scope: "user" | "workspace";
  language?: Language;
}

/**
 * The command's texts, in every language with the same keys (the compiler holds both to
 * `LanguageTexts`). Kept here until the message catalogues (src/i18n/) take them.
 */
interface LanguageTexts {
  /** The name of a language, as a sentence of this language names it. */
  name: Readonly<Record<Language, string>>;
  current(language: Language, source: LanguageSource): string;
  howToChange: string;
  chosen(language: Language): string;
  chosenDetail: string;
  workspaceSet(language: Language): string;
  /** The setter's own language, when it is not the workspace's new default. */
  workspaceSetYours(yours: Language, source: LanguageSource): string;
  workspaceSetDetail: string;
  workspaceBySingle(configured: Language): string;
  workspaceRefused: string;
  workspaceAdminUnknown: string;
  chooseYours: string;
}

export const LANGUAGE_TEXTS: Readonly<Record<Language, LanguageTexts>> = {
  en: {
    name: { en: "English", ro: "Romanian" },
    current: (language, source) =>
      `Your language is *${LANGUAGE_TEXTS.en.name[language]}* (${
        {
          user: "your choice",
          workspace: "this workspace's default: you have not chosen one",
          slack: "from your Slack language: you have not chosen one",
          configured: "fleetbot's default: you have not chosen one",
        }[source]
      }).`,
    howToChange:
      "Change it with `/fleet language ro` (Romanian) or `/fleet language en` (English); `/fleet limba ro` works too.",
    chosen: (language) => `Your language is now ${LANGUAGE_TEXTS.en.name[language]}.`,
    chosenDetail: "For Romanian: `/fleet language ro` (or `/fleet limba ro`).",
    workspaceSet: (language) =>
      `This workspace's default language is now ${LANGUAGE_TEXTS.en.name[language]}: everyone here who has not chosen their own gets it.`,
    workspaceSetYours: (yours, source) =>
      `Yours stays ${LANGUAGE_TEXTS.en.name[yours]}${source === "user" ? " (your choice)" : ""}.`,
    workspaceSetDetail:
      "Anyone can still choose their own with `/fleet language ro` or `/fleet language en`.",
    workspaceBySingle: (configured) =>
      `This fleetbot serves one workspace: its default language is set by whoever runs it (DEFAULT_LANGUAGE, now ${LANGUAGE_TEXTS.en.name[configured]}).`,
    workspaceRefused:
      "Only whoever installed fleetbot here, or a workspace admin or owner, can set the workspace's default language.",
    workspaceAdminUnknown:
      "Slack did not say in time whether you are a workspace admin: try `/fleet language workspace` again in a moment.",
    chooseYours: "Choose your own with `/fleet language ro` or `/fleet language en`.",
  },
  ro: {
    name: { en: "engleza", ro: "româna" },
    current: (language, source) =>
      `Limba ta este *${LANGUAGE_TEXTS.ro.name[language]}* (${
        {
          user: "aleasă de tine",
          workspace: "cea implicită a acestui workspace: nu ți-ai ales una",
          slack: "după limba ta din Slack: nu ți-ai ales una",
          configured: "cea implicită a fleetbot: nu ți-ai ales una",
        }[source]
      }).`,
    howToChange:
      "O schimbi cu `/fleet limba ro` (română) sau `/fleet limba en` (engleză); merge și `/fleet language ro`.",
    chosen: (language) => `Limba ta este acum ${LANGUAGE_TEXTS.ro.name[language]}.`,
    // Said plainly until the catalogue covers every answer: a dispatcher must not be surprised.
    chosenDetail:
      "În această versiune ajutorul, pagina Home, alertele din canale și răspunsurile despre limbă sunt în română; celelalte răspunsuri vin încă în engleză. Pentru engleză: `/fleet limba en`.",
    workspaceSet: (language) =>
      `Limba implicită a acestui workspace este acum ${LANGUAGE_TEXTS.ro.name[language]}: o primesc toți cei de aici care nu și-au ales una.`,
    workspaceSetYours: (yours, source) =>
      `A ta rămâne ${LANGUAGE_TEXTS.ro.name[yours]}${source === "user" ? " (aleasă de tine)" : ""}.`,
    workspaceSetDetail:
      "Oricine își poate alege în continuare limba cu `/fleet limba ro` sau `/fleet limba en`.",
    workspaceBySingle: (configured) =>
      `Acest fleetbot servește un singur workspace: limba lui implicită o stabilește cine îl administrează (DEFAULT_LANGUAGE, acum ${LANGUAGE_TEXTS.ro.name[configured]}).`,
    workspaceRefused:
      "Doar cine a instalat fleetbot aici, sau un administrator ori proprietar al workspace-ului, poate stabili limba implicită a workspace-ului.",
    workspaceAdminUnknown:
      "Slack nu a spus la timp dacă ești administrator al workspace-ului: încearcă din nou `/fleet limba workspace` peste câteva momente.",
    chooseYours: "Îți alegi limba cu `/fleet limba ro` sau `/fleet limba en`.",
  },
};

/** `/fleet language [workspace] [ro|en]`: show, choose one's own, or set the workspace default. */
export async function languageCommand(
  args: LanguageCommandArgs,
  command: LanguageCommand,
  deps: LanguageDeps,
): Promise<void> {
  if (command.scope === "workspace") return workspaceLanguage(args, command.language, deps);
  if (command.language === undefined) {
    const { language, source } = await deps.current(args.userId);
    const t = LANGUAGE_TEXTS[language];
    await args.ack(ephemeral(noticeMessage(t.current(language, source), t.howToChange)));
    return;
  }
  await deps.choose(args.userId, command.language);
  // The user's own choice wins over everything else: the answer is in the language just chosen.
  const t = LANGUAGE_TEXTS[command.language];
  await args.ack(ephemeral(noticeMessage(t.chosen(command.language), t.chosenDetail)));
}

/** `/fleet language workspace ro|en`: multi-workspace mode, by the installer or an admin. */
async function workspaceLanguage(
  args: LanguageCommandArgs,
  language: Language | undefined,
  deps: LanguageDeps,
): Promise<void> {
  const say = async (text: (t: LanguageTexts) => string, detail: (t: LanguageTexts) => string) => {
    const t = LANGUAGE_TEXTS[await deps.users.languageOf(args.userId)];
    await args.ack(ephemeral(noticeMessage(text(t), detail(t))));
  };
  const manage = deps.workspaceDefault;
  if (!manage) {
    await say(
      (t) => t.workspaceBySingle(deps.defaultLanguage),
      (t) => t.chooseYours,
    );
    return;
  }
  // The grammar never gives the workspace form without a language; said rather than assumed.
  if (language === undefined) {
    await say(
      (t) => t.chooseYours,
      (t) => t.howToChange,
    );
    return;
  }
  const allowed = await manage.mayManage(args.client, args.userId);
  if (!allowed) {
    await say(
      (t) => (allowed === undefined ? t.workspaceAdminUnknown : t.workspaceRefused),
      (t) => t.chooseYours,
    );
    return;
  }
  await manage.set(language);
  // Read again: the setter who never chose their own now reads the new default.
  const yours = await deps.current(args.userId);
  const t = LANGUAGE_TEXTS[yours.language];
  const text =
    yours.language === language
      ? t.workspaceSet(language)
      : `${t.workspaceSet(language)} ${t.workspaceSetYours(yours.language, yours.source)}`;
  await args.ack(ephemeral(noticeMessage(text, t.workspaceSetDetail)));
}
