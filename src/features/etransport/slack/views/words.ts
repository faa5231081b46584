/** The e-Transport section of the catalogue, in the reader's language. */
import { messages } from "../../../../i18n/catalogue.js";
import type { Language } from "../../../../i18n/language.js";

export const words = (language: Language) => messages(language).etransport;
