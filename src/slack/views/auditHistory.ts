import type { KnownBlock } from "@slack/types";
import type { AuditAction, AuditEntry, AuditHistory } from "../../store/auditStore.js";
import { dateToken, formatUit } from "./etransportText.js";
import { blocksText, type SlackMessage } from "./message.js";
import { userCode, userText } from "./text.js";

/**
 * `/etransport history <UIT>`: the audit trail of one transport, as the asking user's fleet
 * account recorded it, newest first. Pure; all the words a user reads of it are here.
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

const DONE: Record<AuditAction, string> = {
  create: "Created",
  update: "Edited",
  start: "Started",
  pause: "Paused",
  end: "Ended",
  remove: "Removed",
};

const ASKED: Record<AuditAction, string> = {
  create: "Create",
  update: "Edit",
  start: "Start",
  pause: "Pause",
  end: "End",
  remove: "Removal",
};

/** A Slack user id written as a mention (fleetbot's own token); anything else as plain text. */
function who(slackUser: string | undefined): string {
  if (!slackUser) return "no Slack user recorded";
  return /^[UW][A-Z0-9]{2,}$/.test(slackUser) ? `<@${slackUser}>` : userText(slackUser, 40);
}

/** What the service answered, in the service's own words where it gave some. */
function answerOf(entry: AuditEntry): string {
  const code = entry.code ? ` ${userCode(entry.code, 80)}` : "";
  const said = entry.message ? userText(entry.message, SERVICE_TEXT_MAX) : undefined;
  switch (entry.outcome) {
    case "success":
      return `:white_check_mark: done${said ? ` (${said})` : ""}`;
    case "failure":
      return `:x: refused by the fleet service${code}${said ? `: ${said}` : ""}`;
    case "unknown":
      return `:grey_question: sent, no usable answer${code}: the change may or may not have been made${said ? ` (${said})` : ""}`;
  }
}

function entryText(entry: AuditEntry, timeZone: string): string {
  const title = entry.outcome === "success" ? DONE[entry.action] : ASKED[entry.action];
  return `*${title}* · ${dateToken(entry.at, timeZone)} · ${who(entry.slackUser)}\n${answerOf(entry)}`;
}

export interface AuditHistoryInput {
  uit: string;
  account: string;
  history: AuditHistory;
  /** The reader's zone, for the dates' fallback text (Slack shows each reader their own). */
  timeZone: string;
}

/** The entries, newest first, as many as Slack's limits allow; the rest are counted. */
export function auditHistoryMessage(input: AuditHistoryInput): SlackMessage {
  const { history } = input;
  const uit = userCode(formatUit(input.uit));
  if (history.total === 0 || history.entries.length === 0) return noAuditHistoryMessage(input);
  const changes = `${history.total} recorded change${history.total === 1 ? "" : "s"}`;
  const heading = section(
    `*History of ${uit}* (fleet account ${userCode(input.account, 60)}): ${changes}, newest first.`,
  );
  const blocks: KnownBlock[] = [heading];
  let text = blocksText(heading);
  for (const entry of history.entries.slice(0, HISTORY_MAX_ENTRIES)) {
    const block = section(entryText(entry, input.timeZone));
    const size = blocksText(block);
    if (text + size > HISTORY_TEXT_BUDGET) break;
    blocks.push(block);
    text += size;
  }
  const left = history.total - (blocks.length - 1);
  if (left > 0) {
    blocks.push(
      context(
        `${left} older change${left === 1 ? " is" : "s are"} not shown: one Slack message has room for the newest only.`,
      ),
    );
  }
  return { text: `History of ${formatUit(input.uit)}: ${changes}.`, blocks };
}

/** No entry of this account for the UIT: said so, with what is recorded and commands that work. */
export function noAuditHistoryMessage(input: Pick<AuditHistoryInput, "uit" | "account">): SlackMessage {
  const uit = formatUit(input.uit);
  const text = `No changes of ${userCode(uit)} are recorded for fleet account ${userCode(input.account, 60)}.`;
  return {
    text,
    blocks: [
      section(text),
      context(
        `fleetbot records the transports your fleet account creates, edits, starts, pauses, ends or removes through it. ` +
          `Find yours with ${userCode("/etransport list all")}, then e.g. ${userCode(`/etransport history ${uit}`)}.`,
      ),
    ],
  };
}

/** The store could not be read: nothing else is wrong, asking again later works. */
export const AUDIT_UNREADABLE: SlackMessage = {
  text: "fleetbot cannot read its history right now. Try again in a minute.",
  blocks: [section("fleetbot cannot read its history right now. Try again in a minute.")],
};
