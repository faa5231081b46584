/**
 * The two catalogues: every word a dispatcher reads, one catalogue per language, one section
 * per area. English is the reference (`Catalogue` is `typeof en`, each message returning a
 * string); Romanian must have every section, every key, and every message with exactly the
 * English parameters, or the build fails.
 *
 * To add a message: its English in `en/<area>.ts` (parameter types written out), its Romanian in
 * `ro/<area>.ts` (same key; the compiler gives the parameters). To add an area: a file in each
 * folder and one line in each object below.
 */
import { account as enAccount } from "./en/account.js";
import { alerts as enAlerts } from "./en/alerts.js";
import { common as enCommon } from "./en/common.js";
import { etransport as enEtransport } from "./en/etransport.js";
import { grammar as enGrammar } from "./en/grammar.js";
import { help as enHelp } from "./en/help.js";
import { reports as enReports } from "./en/reports.js";
import { schedules as enSchedules } from "./en/schedules.js";
import { tasks as enTasks } from "./en/tasks.js";
import { vehicleWatch as enVehicleWatch } from "./en/vehicleWatch.js";
import type { Language } from "./language.js";
import { account as roAccount } from "./ro/account.js";
import { alerts as roAlerts } from "./ro/alerts.js";
import { common as roCommon } from "./ro/common.js";
import { etransport as roEtransport } from "./ro/etransport.js";
import { grammar as roGrammar } from "./ro/grammar.js";
import { help as roHelp } from "./ro/help.js";
import { reports as roReports } from "./ro/reports.js";
import { schedules as roSchedules } from "./ro/schedules.js";
import { tasks as roTasks } from "./ro/tasks.js";
import { vehicleWatch as roVehicleWatch } from "./ro/vehicleWatch.js";
import type { ParameterMismatch, Section, Translation } from "./section.js";

export const en = {
  account: enAccount,
  alerts: enAlerts,
  common: enCommon,
  etransport: enEtransport,
  grammar: enGrammar,
  help: enHelp,
  reports: enReports,
  schedules: enSchedules,
  tasks: enTasks,
  vehicleWatch: enVehicleWatch,
} satisfies Readonly<Record<string, Section>>;

/**
 * The shape every language's catalogue has: English's sections, keys and parameter types, each
 * message returning `string` (not the literal text English happens to return).
 */
export type Catalogue = { readonly [S in keyof typeof en]: Translation<(typeof en)[S]> };

const roSections = {
  account: roAccount,
  alerts: roAlerts,
  common: roCommon,
  etransport: roEtransport,
  grammar: roGrammar,
  help: roHelp,
  reports: roReports,
  schedules: roSchedules,
  tasks: roTasks,
  vehicleWatch: roVehicleWatch,
};

/** `true` when R has E's sections, and each message E's parameters; else names "section.key". */
export type SameCatalogue<E, R> = [CatalogueMismatch<E, R>] extends [never]
  ? true
  : { parametersDifferIn: CatalogueMismatch<E, R> };

type CatalogueMismatch<E, R> =
  | {
      [S in keyof E & string]: S extends keyof R
        ? `${S}.${ParameterMismatch<E[S], R[S]> & string}`
        : `${S} (no such section)`;
    }[keyof E & string]
  | `${Exclude<keyof R, keyof E> & string} (not in English)`;

// The combined check, on top of each section's own: a section added here without its check fails too.
true satisfies SameCatalogue<Catalogue, typeof roSections>;

export const ro: Catalogue = roSections;

const CATALOGUES: Readonly<Record<Language, Catalogue>> = { en, ro };

/** The catalogue of `lang`: `messages(lang).etransport.transmissionStatus("OldData")`. */
export function messages(lang: Language): Catalogue {
  return CATALOGUES[lang];
}
