import type { KnownBlock } from "@slack/types";
import { messages } from "../../../../i18n/catalogue.js";
import type { Language } from "../../../../i18n/language.js";
import type { FleetAccess } from "../../../../platform/accounts/fleetAccounts.js";
import { blocksText, type SlackMessage } from "../../../../platform/slack/views/message.js";
import { userCode, userText } from "../../../../platform/slack/views/text.js";
import type { AuditEntry, AuditHistory } from "../../../../platform/store/contract/index.js";
import { NOT_CONFIRMED } from "../../kinds/transports.js";
import { dateToken, formatUit } from "./transportText.js";

/**
 * `/etransport history <UIT>`: the audit trail of one transport, as the asking user's fleet
 * account recorded it, newest first. Pure; the words are the catalogue's (etransport.history…), in the reader's language.
 */

/** Slack allows 50 blocks: the heading, the entries, and the line counting what was left out. */
export const HISTORY_MAX_ENTRIES = 48;
/** Slack refuses a message of about 12,000 characters of block text, even with each block within its own limit. */
const HISTORY_TEXT_BUDGET = 10_000;
/** The service's failure text per entry (its own words, escaped and cut). */
const SERVICE_TEXT_MAX = 300;

const mrkdwn = (text: string) => ({ type: "mrkdwn" as const, text });
const section = (text: string): KnownBlock => ({ type: "section", text: mrkdwn(text) });
const context = (text: string): KnownBlock => ({ type: "context", elements: [mrkdwn(text)] });

/** A Slack user id written as a mention (fleetbot's own token); anything else as plain text. */
function who(slackUser: string | undefined, language: Language): string {
  if (!slackUser) return messages(language).etransport.historyNoUser();
  return /^[UW][A-Z0-9]{2,}$/.test(slackUser) ? `<@${slackUser}>` : userText(slackUser, 40);
}

/** What the service answered, in the service's own words where it gave some. */
function answerOf(entry: AuditEntry, language: Language): string {
  const m = messages(language).etransport;
  const code = entry.code ? userCode(entry.code, 80) : "";
  const said = entry.message ? userText(entry.message, SERVICE_TEXT_MAX) : "";
  switch (entry.outcome) {
    case "success":
      return m.historyOk({ said });
    case "failure":
      // fleetbot's own code for a change the service did not confirm: its words, not the code.
      if (entry.code === NOT_CONFIRMED && !said) return m.historyNotConfirmed();
      return m.historyRefused({ code, said });
    case "unknown":
      return m.historyUnknown({ code, said });
  }
}

function entryText(entry: AuditEntry, timeZone: string, language: Language): string {
  const m = messages(language).etransport;
  const title = entry.outcome === "success" ? m.historyDone(entry.action) : m.historyAsked(entry.action);
  return `*${title}* · ${dateToken(entry.at, timeZone, language)} · ${who(entry.slackUser, language)}\n${answerOf(entry, language)}`;
}

export interface AuditHistoryInput {
  uit: string;
  account: string;
  history: AuditHistory;
  /** The reader's zone, for the dates' fallback text (Slack shows each reader their own). */
  timeZone: string;
  /** The reader's language, resolved once per request (required: no view guesses English). */
  language: Language;
}

/** The entries, newest first, as many as Slack's limits allow; the rest are counted. */
export function auditHistoryMessage(input: AuditHistoryInput): SlackMessage {
  const { history } = input;
  const language = input.language;
  const m = messages(language).etransport;
  const uit = userCode(formatUit(input.uit));
  if (history.total === 0 || history.entries.length === 0) return noAuditHistoryMessage(input);
  const changes = m.historyChanges({ count: history.total });
  const heading = section(m.historyHeading({ uit, account: userCode(input.account, 60), changes }));
  const blocks: KnownBlock[] = [heading];
  let text = blocksText(heading);
  for (const entry of history.entries.slice(0, HISTORY_MAX_ENTRIES)) {
    const block = section(entryText(entry, input.timeZone, language));
    const size = blocksText(block);
    if (text + size > HISTORY_TEXT_BUDGET) break;
    blocks.push(block);
    text += size;
  }
  const left = history.total - (blocks.length - 1);
  if (left > 0) blocks.push(context(m.historyOlder({ count: left })));
  return { text: m.historyText({ uit: formatUit(input.uit), changes }), blocks };
}

/** No entry of this account for the UIT: said so, with what is recorded and commands that work. */
export function noAuditHistoryMessage(
  input: Pick<AuditHistoryInput, "uit" | "account" | "language">,
): SlackMessage {
  const m = messages(input.language).etransport;
  const uit = formatUit(input.uit);
  const text = m.historyNone({ uit: userCode(uit), account: userCode(input.account, 60) });
  return {
    text,
    blocks: [
      section(text),
      context(
        m.historyNoneHint({
          list: userCode("/etransport list all"),
          example: userCode(`/etransport history ${uit}`),
        }),
      ),
    ],
  };
}

/** The store could not be read: nothing else is wrong, asking again later works. */
export function auditUnreadableMessage(language: Language): SlackMessage {
  const text = messages(language).etransport.historyUnreadable();
  return { text, blocks: [section(text)] };
}

/** Why the history is not shown to this link now (its password changed or was refused, or it is being checked). */
export function fleetAccessMessage(access: Exclude<FleetAccess, "proven">, language: Language): SlackMessage {
  const m = messages(language);
  const text =
    access === "outdated"
      ? m.tasks.unauthorizedPasswordChanged()
      : access === "refused"
        ? m.etransport.historyLinkRefused()
        : m.etransport.historyChecking();
  return { text, blocks: [section(text)] };
}

/** The English of auditUnreadableMessage. */
export const AUDIT_UNREADABLE: SlackMessage = auditUnreadableMessage("en");
