import type { App, RespondArguments } from "@slack/bolt";
import type { SlackContext } from "../context.js";
import { helpText } from "../grammar/help.js";
import { parseEtransportCommand } from "../grammar/index.js";
import { describeTask } from "../renderers.js";
import { grammarErrorMessage, helpMessage, noticeMessage, progressMessage } from "../views/common.js";
import type { SlackMessage } from "../views/message.js";
import { replyFromCommand } from "./fleetCommand.js";

const ephemeral = (message: SlackMessage): RespondArguments => ({ response_type: "ephemeral", ...message });

/** /etransport: transports of the RO e-Transport system, acted on through tasks. */
export function registerEtransportCommand(app: App, ctx: SlackContext): void {
  app.command("/etransport", async ({ command, ack }) => {
    const zone = await ctx.people.timeZoneOf(app.client, command.user_id);
    const parsed = parseEtransportCommand(command.text, { timeZone: zone, now: new Date(ctx.now()) });
    if (!parsed.ok) {
      await ack(ephemeral(grammarErrorMessage(parsed, helpText("etransport"))));
      return;
    }
    const account = ctx.people.accountOf(command.user_id);
    if (parsed.kind === "help") {
      await ack(ephemeral(helpMessage(helpText("etransport"))));
      return;
    }
    if (!account) {
      await ack(
        ephemeral(noticeMessage("You have no fleet account to act with.", "Link yours with /fleet login.")),
      );
      return;
    }
    switch (parsed.kind) {
      case "start":
      case "pause":
      case "end": {
        const uits = [...new Set(parsed.uits)].sort();
        const { task } = ctx.runner.submit({
          kind: "transport-action",
          params: { action: parsed.kind, uits },
          account: account.username,
          slackUser: command.user_id,
          reply: replyFromCommand(command, ctx.now()),
          priority: "interactive",
          // The same action on the same transports while one is pending runs once.
          dedupeKey: `${account.username}:${parsed.kind}:${uits.join(",")}`,
        });
        const release = ctx.delivery.holdUntilAck(task.id);
        const progress = await ctx.runner.progressOf(task.id);
        await ack(
          ephemeral(
            progress ? progressMessage(describeTask(task), progress, ctx.now()) : noticeMessage("Queued."),
          ),
        );
        release();
        return;
      }
      default:
        await ack(
          ephemeral(
            noticeMessage(
              `\`/etransport ${parsed.kind}\` is not available in this version yet.`,
              "Start, pause and end work: /etransport start <UIT>.",
            ),
          ),
        );
    }
  });
}
