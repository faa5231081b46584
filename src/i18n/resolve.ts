/**
 * Which language fleetbot answers a person in, resolved once per request or task (then passed to
 * the views, never looked up again in each one).
 *
 * The order, first that says something wins:
 *   1. the person's own choice (`/fleet language ro|en`, stored per workspace and user);
 *   2. their workspace's default, set in Slack (`/fleet language workspace ro|en`, multi-workspace
 *      mode only);
 *   3. Slack's locale, only as a hint: when it names a language fleetbot has, and that language
 *      is not English (see `localeHint`);
 *   4. DEFAULT_LANGUAGE, the operator's default (`en` unless set to `ro`).
 *
 * Why an English locale is no hint: Slack's interface is English unless a person picks another
 * language, and Slack has no Romanian at all, so a dispatcher in Romania reads Slack in en-US (or
 * en-GB) whatever they would rather read. Taken as a hint, `en-US` would turn every answer of a
 * DEFAULT_LANGUAGE=ro deployment into English: the operator's deliberate default overridden by
 * what Slack happens to offer. An English locale therefore says nothing about the person; a
 * locale in another language fleetbot has (`ro-RO`, should Slack ever offer it) was picked by
 * them, and is followed before DEFAULT_LANGUAGE. Anything else (`de-DE`, `fr-FR`, …) names no
 * language fleetbot has and is ignored.
 */
import { type Language, languageFromSlackLocale } from "./language.js";

/** Where the resolved language came from (what `/fleet language` tells the person). */
export type LanguageSource = "user" | "workspace" | "slack" | "configured";

export interface LanguageInputs {
  /** The person's own choice, if they made one. */
  user?: Language | undefined;
  /** Their workspace's default set in Slack, if any. */
  workspace?: Language | undefined;
  /** DEFAULT_LANGUAGE. */
  configured: Language;
  /** Slack's `locale` of the person (users.info with include_locale), when known: `en-US`, `ro-RO`… */
  slackLocale?: string | undefined;
}

export interface ResolvedLanguage {
  language: Language;
  source: LanguageSource;
}

/** Slack's interface language for everyone who never picked another: its locale says nothing about them. */
const SLACK_DEFAULT_INTERFACE: Language = "en";

/** The language a Slack locale hints at: one fleetbot has, other than Slack's default English. */
export function localeHint(locale: string | undefined): Language | undefined {
  const language = languageFromSlackLocale(locale);
  return language === SLACK_DEFAULT_INTERFACE ? undefined : language;
}

/** The language and where it came from, in the order above. */
export function resolveLanguageWithSource(inputs: LanguageInputs): ResolvedLanguage {
  if (inputs.user !== undefined) return { language: inputs.user, source: "user" };
  if (inputs.workspace !== undefined) return { language: inputs.workspace, source: "workspace" };
  const hinted = localeHint(inputs.slackLocale);
  if (hinted !== undefined) return { language: hinted, source: "slack" };
  return { language: inputs.configured, source: "configured" };
}

/** The language to answer in (pure: the caller reads the choices once per request or task). */
export function resolveLanguage(inputs: LanguageInputs): Language {
  return resolveLanguageWithSource(inputs).language;
}
