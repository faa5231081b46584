import type { KnownBlock } from "@slack/types";
import { type Language, messages } from "../../../i18n/index.js";
import type { SlackMessage } from "./message.js";
import { userText } from "./text.js";

function section(text: string): KnownBlock {
  return { type: "section", text: { type: "mrkdwn", text } };
}

/** Where people get help with this fleetbot: the operator's support page, or what to do without one. */
export function supportLine(supportUrl: string | undefined, language: Language): string {
  const t = messages(language).help;
  return supportUrl
    ? t.supportAt({ link: `<${supportUrl}|${userText(new URL(supportUrl).host, 80)}>` })
    : t.supportAsk();
}

/**
 * The direct message to whoever installed fleetbot ("Add to Slack"), in `language`: the one thing
 * to do first (the workspace's fleet account), then how everyone starts.
 */
export function installWelcomeMessage(facts: {
  teamName?: string;
  supportUrl?: string;
  language: Language;
}): SlackMessage {
  const t = messages(facts.language).account;
  const text = facts.teamName
    ? t.welcomeInstalledIn({ team: userText(facts.teamName, 100) })
    : t.welcomeInstalled();
  return {
    text,
    blocks: [
      section(text),
      section(t.welcomeNext()),
      {
        type: "context",
        elements: [{ type: "mrkdwn", text: supportLine(facts.supportUrl, facts.language) }],
      },
    ],
  };
}
