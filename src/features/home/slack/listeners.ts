import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import { helpText, vehicleExamples } from "../../../commands/help.js";
import { messages } from "../../../i18n/index.js";
import { supportLine } from "../../../platform/slack/views/installation.js";
import { userText } from "../../../platform/slack/views/text.js";
import type { CachedVehicles, QueueDeps } from "../../context.js";
import { queueEntries } from "../../queue/index.js";
import { homeView } from "./views.js";

/**
 * The Home tab, in the user's language: the account the user acts as, their requests under way,
 * the command list (its examples with the account's own plates when `deps.vehicles` has its list).
 */
export async function publishHome(
  deps: QueueDeps & { vehicles?: CachedVehicles },
  client: WebClient,
  userId: string,
): Promise<void> {
  const account = await deps.users.accountOf(userId);
  const language = await deps.users.languageOf(userId);
  const queue = account
    ? (await queueEntries(deps, account.username, language)).entries.filter(
        (e) => e.task.slackUser === userId,
      )
    : [];
  const cached = account ? await deps.vehicles?.peek(account.username, userId) : undefined;
  const examples = cached ? vehicleExamples(cached) : undefined;
  const t = messages(language).help;
  const accountLine = account
    ? (account.linked ? t.homeAccountLinked : t.homeAccountWorkspace)({
        account: userText(account.username, 100),
      })
    : t.homeNoAccount();
  await client.views.publish({
    user_id: userId,
    view: homeView(
      {
        language,
        accountLine,
        linked: account?.linked ?? false,
        queue,
        help: helpText("all", examples, language),
        support: supportLine(deps.supportUrl, language),
      },
      deps.now(),
    ),
  });
}

export async function homeOpened(
  { event, client }: SlackEventMiddlewareArgs<"app_home_opened"> & AllMiddlewareArgs,
  deps: QueueDeps & { vehicles?: CachedVehicles },
): Promise<void> {
  if (event.tab !== "home") return;
  await publishHome(deps, client, event.user);
}
