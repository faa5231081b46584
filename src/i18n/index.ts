/** fleetbot's words in the reader's language (docs/ARCHITECTURE.md, Languages). */
export { type Catalogue, en, messages, ro } from "./catalogue.js";
export type { AdvisedTransmissionCode, ChangeRequestCode, TransmissionCode } from "./en/etransport.js";
export {
  consumption,
  type DateOptions,
  date,
  dateTime,
  duration,
  km,
  litres,
  type NumberOptions,
  number,
  slackDate,
  temperature,
  time,
} from "./format.js";
export { isLanguage, LANGUAGES, type Language, languageFromSlackLocale } from "./language.js";
export {
  count,
  type FormsOf,
  type PluralForms,
  type PluralOptions,
  plural,
  pluralCategory,
} from "./plural.js";
