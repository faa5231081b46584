import type { KnownBlock } from "@slack/types";
import { type Language, messages } from "../../i18n/index.js";
import type { SlackMessage } from "./message.js";
import { userText } from "./text.js";

function section(text: string): KnownBlock {
  return { type: "section", text: { type: "mrkdwn", text } };
}

/** Where people get help with this fleetbot: the operator's support page, or what to do without one. */
export function supportLine(supportUrl: string | undefined, language: Language = "en"): string {
  const t = messages(language).help;
  return supportUrl
    ? t.supportAt({ link: `<${supportUrl}|${userText(new URL(supportUrl).host, 80)}>` })
    : t.supportAsk();
}

/**
 * The direct message to whoever installed fleetbot ("Add to Slack"): the one thing to do first
 * (the workspace's fleet account), then how everyone starts.
 */
export function installWelcomeMessage(facts: { teamName?: string; supportUrl?: string }): SlackMessage {
  const where = facts.teamName ? ` in *${userText(facts.teamName, 100)}*` : "";
  const text = `:wave: fleetbot is installed${where}. First, set the fleet account your workspace uses: type \`/fleet login workspace\` (you, or a workspace admin, can do it).`;
  return {
    text,
    blocks: [
      section(text),
      section(
        "Then anyone here can start with `/fleet help`, or `/fleet where B-123-ABC`. People with their own fleet-service login can link it with `/fleet login`; the others act as the workspace account. Transport alerts: `/fleet alerts subscribe #channel`.",
      ),
      { type: "context", elements: [{ type: "mrkdwn", text: supportLine(facts.supportUrl) }] },
    ],
  };
}
