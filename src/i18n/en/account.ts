/** English, the account commands: `/fleet language` (CONTRACT.md). */
import type { Language } from "../language.js";
import type { Section } from "../section.js";
import { common } from "./common.js";

export const account = {
  /** `/fleet language` without an argument. */
  languageShown: ({ language }: { language: Language }) =>
    `You read fleetbot in ${common.languageName(language)}. Change it with \`/fleet language ro\` (română) or \`/fleet language en\` (English).`,
  /** Sent in the language just chosen. */
  languageSet: () => "Done: fleetbot now speaks English to you.",
  languageWorkspaceSet: ({ language }: { language: Language }) =>
    `The workspace's default language is now ${common.languageName(language)}. It applies to everyone who has not chosen their own, and to channel alerts without \`lang=\`.`,
  languageNotAdmin: () =>
    "Only a workspace admin or the person who installed fleetbot can change the workspace's default language. You can still choose your own: `/fleet language ro` or `/fleet language en`.",
  /** `given`: what the user typed, escaped for mrkdwn. */
  languageUnknown: ({ given }: { given: string }) =>
    `fleetbot does not speak “${given}”. Choose \`ro\` (română) or \`en\` (English).`,
} satisfies Section;
