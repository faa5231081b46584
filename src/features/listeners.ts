/**
 * Every listener of the app, registered in one place: each feature exports its table
 * (slack/registration.ts, through its index.ts), merged here. The manifest test reads the same
 * tables, so manifest.yml cannot drift from what is registered.
 */
import type { App, BlockAction, ButtonAction, ViewSubmitAction } from "@slack/bolt";
import { messages } from "../i18n/catalogue.js";
import { resolveLanguageWithSource } from "../i18n/resolve.js";
import {
  appUninstalled,
  teamAccessRevoked,
  tokensRevoked,
} from "../platform/slack/listeners/installation.js";
import { answerStoreFailure } from "../platform/slack/listeners/storeFailure.js";
import { noticeMessage } from "../platform/slack/views/notice.js";
import { statusModal } from "../platform/slack/views/statusModal.js";
import type { WorkspaceKey } from "../platform/workspaces/workspace.js";
import { accountListeners } from "./account/index.js";
import { alertsListeners } from "./alerts/index.js";
import type { ListenerDeps, SlackContext } from "./context.js";
import { etransportListeners } from "./etransport/index.js";
import {
  type FeatureListeners,
  type HomeOpenedArgs,
  type Listener,
  mergedListeners,
} from "./featureListeners.js";
import { fleetCommandListeners } from "./fleetCommand/index.js";
import { homeListeners } from "./home/index.js";
import { queueListeners } from "./queue/index.js";
import { reportsListeners } from "./reports/index.js";
import { schedulesListeners } from "./schedules/index.js";
import { listenerDeps } from "./workspaceDeps.js";

/** Every feature's listeners: the one list the app registers and manifest.yml declares. */
const FEATURES: readonly FeatureListeners[] = [
  fleetCommandListeners,
  reportsListeners,
  etransportListeners,
  alertsListeners,
  accountListeners,
  queueListeners,
  homeListeners,
  schedulesListeners,
];

/** Slash commands (manifest.yml `features.slash_commands`). */
export const COMMANDS = mergedListeners(FEATURES.map((f) => f.commands));
/** Buttons, by action_id. */
export const BUTTONS = mergedListeners(FEATURES.map((f) => f.buttons));
/** Modal submissions, by callback_id. */
export const VIEW_SUBMISSIONS = mergedListeners(FEATURES.map((f) => f.viewSubmissions));
/** External selects (manifest.yml `message_menu_options_url`), by block_id. */
export const SELECT_OPTIONS = mergedListeners(FEATURES.map((f) => f.selectOptions));

/** Multi-workspace mode: the Events API's uninstalls (platform/slack/listeners/installation.ts). */
export const INSTALLATION_EVENTS = ["app_uninstalled", "tokens_revoked", "team_access_revoked"] as const;

/** Events (manifest.yml `settings.event_subscriptions.bot_events`). */
export const EVENTS = mergedListeners<HomeOpenedArgs>(FEATURES.map((f) => f.events));

/** What the app registers, for manifest.yml to declare. */
export const REGISTERED = {
  slashCommands: Object.keys(COMMANDS),
  botEvents: [...Object.keys(EVENTS), ...INSTALLATION_EVENTS],
  interactive: Object.keys(BUTTONS).length + Object.keys(VIEW_SUBMISSIONS).length > 0,
  selectOptions: Object.keys(SELECT_OPTIONS).length > 0,
};

/** A Bolt listener's args: its context names the workspace the request comes from. */
type WithContext = {
  context: { teamId?: string; enterpriseId?: string; isEnterpriseInstall?: boolean };
  body?: unknown;
};

/**
 * Registers every listener with its family's deps. The deps are the workspace's own (built once
 * per workspace): every store read and write a listener makes is scoped to the workspace of the
 * request, so ids from another workspace reach nothing. Returns how to forget a workspace.
 */
export function registerListeners(app: App, ctx: SlackContext): { forgetWorkspace(key: WorkspaceKey): void } {
  const built = new Map<WorkspaceKey, ListenerDeps>();
  const depsOf = (args: WithContext): ListenerDeps | undefined => {
    const { teamId, enterpriseId, isEnterpriseInstall } = args.context;
    const key = ctx.workspaces.keyOf({ teamId, enterpriseId, isEnterpriseInstall });
    if (key === undefined) return undefined;
    let deps = built.get(key);
    if (!deps) {
      deps = listenerDeps(ctx, key);
      built.set(key, deps);
    }
    return deps;
  };
  /**
   * A request Slack sent without a workspace fleetbot can name is acknowledged and left alone.
   * A Slack Connect user from another organisation is refused (refuseExternalUser).
   */
  const run =
    <A extends WithContext>(listener: Listener<A>) =>
    async (args: A): Promise<void> => {
      const external = externalUserOf(args);
      if (external) return refuseExternalUser(ctx, args, external);
      const deps = depsOf(args);
      if (deps) return listener(args, deps);
      ctx.logger.warn("Slack request without a workspace fleetbot knows: ignored");
      const ack = (args as { ack?: () => Promise<void> }).ack;
      if (ack) await ack();
    };
  app.use(answerStoreFailure(ctx.storeHealth, ctx.defaultLanguage));
  for (const [name, listener] of Object.entries(COMMANDS)) app.command(name, run(listener));
  for (const [id, listener] of Object.entries(BUTTONS))
    app.action<BlockAction<ButtonAction>>(id, run(listener));
  for (const [id, listener] of Object.entries(VIEW_SUBMISSIONS))
    app.view<ViewSubmitAction>(id, run(listener));
  for (const [block, listener] of Object.entries(SELECT_OPTIONS))
    app.options<"block_suggestion">({ block_id: block }, run(listener));
  const homeOpened = EVENTS.app_home_opened;
  if (homeOpened) app.event("app_home_opened", run(homeOpened));
  const installation = ctx.installation;
  if (installation) {
    // Multi-workspace mode: uninstalls, from the Events API (Bolt runs the first two without authorizing).
    app.event("app_uninstalled", (args) => appUninstalled(args, installation));
    app.event("tokens_revoked", (args) => tokensRevoked(args, installation));
    app.event("team_access_revoked", (args) => teamAccessRevoked(args, installation));
  }
  return { forgetWorkspace: (key) => built.delete(key) };
}

/** A Slack Connect user from another organisation: their id and their own team (or org) id. */
interface ExternalUser {
  userId: string;
  team: string;
}

/**
 * The user of an interaction (button, form, menu) who belongs to another organisation than the
 * installation the request reached: a Slack Connect user in a channel shared with it. Slack puts
 * the user's own team in `user.team_id` (their org's id inside Enterprise Grid), while the request
 * reaches the installation of the channel's host. A slash command carries no such field: Slack
 * sends it to the installation of the invoking user's own workspace, so it is never external.
 */
function externalUserOf(args: WithContext): ExternalUser | undefined {
  const body = args.body;
  if (typeof body !== "object" || body === null) return undefined;
  const user = (body as { user?: unknown }).user;
  if (typeof user !== "object" || user === null) return undefined;
  const { id, team_id: team } = user as { id?: unknown; team_id?: unknown };
  if (typeof id !== "string" || typeof team !== "string" || team === "") return undefined;
  const { teamId, enterpriseId } = args.context;
  if (team === teamId || team === enterpriseId) return undefined;
  return { userId: id, team };
}

/**
 * A Slack Connect user from another organisation never acts here: not as this workspace's fleet
 * account, nor through its links, tasks or settings. They are told so, in their own language (their
 * choice in their own workspace, then that workspace's default, then DEFAULT_LANGUAGE), and to use
 * fleetbot from their own workspace, where their own link and language apply.
 */
async function refuseExternalUser(
  ctx: SlackContext,
  args: WithContext,
  external: ExternalUser,
): Promise<void> {
  ctx.logger.info({ team: external.team }, "an interaction by a user of another organisation: refused");
  const home: WorkspaceKey = external.team.startsWith("E") ? `E:${external.team}` : `T:${external.team}`;
  const [user, ofWorkspace] = await Promise.all([
    ctx.settings.userLanguage(home, external.userId).catch(() => undefined),
    ctx.settings.workspaceLanguage(home).catch(() => undefined),
  ]);
  const { language } = resolveLanguageWithSource({
    user,
    workspace: ofWorkspace,
    configured: ctx.defaultLanguage,
  });
  const t = messages(language).account;
  const loose = args as unknown as {
    ack?: (answer?: unknown) => Promise<void>;
    respond?: (message: unknown) => Promise<unknown>;
  };
  const type = (args.body as { type?: unknown }).type;
  if (type === "view_submission") {
    await loose.ack?.({
      response_action: "update",
      view: statusModal(
        t.loginTitle(),
        `${t.externalUserRefused()} ${t.externalUserWhatToDo()}`,
        undefined,
        language,
      ),
    });
    return;
  }
  if (type === "block_suggestion") {
    await loose.ack?.({ options: [] });
    return;
  }
  await loose.ack?.();
  if (type !== "block_actions" || !loose.respond) return;
  const hasResponseUrl = typeof (args.body as { response_url?: unknown }).response_url === "string";
  if (!hasResponseUrl) return;
  const notice = noticeMessage(t.externalUserRefused(), t.externalUserWhatToDo());
  await loose
    .respond({ ...notice, response_type: "ephemeral", replace_original: false })
    .catch((error: unknown) => ctx.logger.warn({ err: error }, "could not tell an external user why"));
}
