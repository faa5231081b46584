/** Romanian, the account commands: `/fleet limba` is the Romanian word of `/fleet language` (CONTRACT.md). */
import type { account as en } from "../en/account.js";
import type { SameParameters, Translation } from "../section.js";
import { common } from "./common.js";

export const account = {
  languageShown: ({ language }) =>
    `Citești fleetbot în ${common.languageName(language)}. O poți schimba cu \`/fleet limba ro\` (română) sau \`/fleet limba en\` (English).`,
  languageSet: () => "Gata: de acum fleetbot îți vorbește în română.",
  languageWorkspaceSet: ({ language }) =>
    `Limba implicită a spațiului de lucru este acum ${common.languageName(language)}. Se aplică tuturor celor care nu și-au ales propria limbă și alertelor din canale fără \`lang=\`.`,
  languageNotAdmin: () =>
    "Doar un administrator al spațiului de lucru sau persoana care a instalat fleetbot poate schimba limba implicită. Îți poți alege în continuare propria limbă: `/fleet limba ro` sau `/fleet limba en`.",
  languageUnknown: ({ given }) =>
    `fleetbot nu vorbește „${given}”. Alege \`ro\` (română) sau \`en\` (English).`,
} satisfies Translation<typeof en>;
true satisfies SameParameters<typeof en, typeof account>;
