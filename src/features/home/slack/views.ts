/** The App Home tab: the account the reader acts as, their requests, scheduled reports and the help. */
import type { KnownBlock, View } from "@slack/types";
import { scheduleUsage } from "../../../commands/help.js";
import type { Language } from "../../../i18n/index.js";
import { messages } from "../../../i18n/index.js";
import { ACTIONS } from "../../../platform/slack/actionIds.js";
import { context, plain, section, sectionsOf } from "../../../platform/slack/views/blocks.js";
import { waitText } from "../../../platform/slack/views/progress.js";
import type { QueueEntry } from "../../queue/index.js";

export interface HomeFacts {
  /** The reader's language: every word of the tab is in it. */
  language: Language;
  /** mrkdwn: which fleet account the reader acts as (the `help` section's `homeAccount…`). */
  accountLine: string;
  linked: boolean;
  queue: QueueEntry[];
  help: string;
  /** Where to get help, and what uninstalling deletes (the App Home's last line). */
  support?: string;
}

export function homeView(facts: HomeFacts, nowMs: number): View {
  const t = messages(facts.language).help;
  const schedule = scheduleUsage(facts.language);
  const blocks: KnownBlock[] = [
    { type: "header", text: plain("fleetbot") },
    section(facts.accountLine),
    {
      type: "actions",
      elements: [
        facts.linked
          ? {
              type: "button",
              action_id: ACTIONS.homeLogout,
              text: plain(t.homeUnlink()),
              value: "logout",
            }
          : {
              type: "button",
              action_id: ACTIONS.homeLogin,
              text: plain(t.homeLink()),
              value: "login",
              style: "primary",
            },
      ],
    },
    { type: "divider" },
    section(
      facts.queue.length === 0
        ? t.homeNoRequests()
        : `${t.homeRequests()}\n${facts.queue
            .slice(0, 10)
            .map((e) => {
              const left =
                e.progress?.expectedFinishAt === undefined ? undefined : e.progress.expectedFinishAt - nowMs;
              const eta = left === undefined ? "" : `, ${waitText(left, facts.language)}`;
              return `• ${e.description} (${t.homeTaskState(e.task.state)}${eta})`;
            })
            .join("\n")}`,
    ),
    section(t.homeSchedules({ example: schedule.add.example, list: schedule.list.example })),
    { type: "divider" },
    ...sectionsOf(facts.help).slice(0, 20),
    ...(facts.support ? [{ type: "divider" } as const, context(facts.support)] : []),
  ];
  return { type: "home", blocks };
}
