/**
 * Every listener of the app, registered in one place: each family module exports its
 * handlers as `(args, deps)`, and this table says which Slack id each one answers. The
 * manifest test reads the same table, so manifest.yml cannot drift from what is registered.
 */
import type {
  AllMiddlewareArgs,
  App,
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackOptionsMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from "@slack/bolt";
import { messages } from "../i18n/catalogue.js";
import { resolveLanguageWithSource } from "../i18n/resolve.js";
import { ACTIONS, INPUTS, VIEWS } from "../platform/slack/actionIds.js";
import {
  appUninstalled,
  teamAccessRevoked,
  tokensRevoked,
} from "../platform/slack/listeners/installation.js";
import { answerStoreFailure } from "../platform/slack/listeners/storeFailure.js";
import { noticeMessage } from "../platform/slack/views/notice.js";
import { statusModal } from "../platform/slack/views/statusModal.js";
import type { WorkspaceKey } from "../platform/workspaces/workspace.js";
import { homeLogin, homeLogout, loginSubmitted } from "./account/slack/listeners.js";
import { alertMute, alertUnmute } from "./alerts/slack/listeners.js";
import type { ListenerDeps, SlackContext } from "./context.js";
import {
  etransportCommand,
  transportActionButton,
  transportEdit,
  transportRemove,
  transportRemoveCancel,
  transportShow,
  transportSubmitted,
  transportVehicleOptions,
  turnTransportListPage,
} from "./etransport/slack/listeners.js";
import { fleetCommand } from "./fleetCommand/slack/listeners.js";
import { homeOpened } from "./home/slack/listeners.js";
import { cancelTask, refreshQueue } from "./queue/slack/listeners.js";
import { reportSubmitted, reportVehicleOptions, showPosition, turnPage } from "./reports/slack/listeners.js";
import { listenerDeps } from "./workspaceDeps.js";

type Listener<A> = (args: A, deps: ListenerDeps) => Promise<void>;
type CommandArgs = SlackCommandMiddlewareArgs & AllMiddlewareArgs;
type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;
type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;
type OptionsArgs = SlackOptionsMiddlewareArgs<"block_suggestion"> & AllMiddlewareArgs;
type HomeOpenedArgs = SlackEventMiddlewareArgs<"app_home_opened"> & AllMiddlewareArgs;

/** Slash commands (manifest.yml `features.slash_commands`). */
export const COMMANDS: Readonly<Record<string, Listener<CommandArgs>>> = {
  "/fleet": (args, deps) => fleetCommand(args, deps),
  "/etransport": (args, deps) => etransportCommand(args, deps.etransport),
};

/** Buttons, by action_id. */
export const BUTTONS: Readonly<Record<string, Listener<ButtonArgs>>> = {
  [ACTIONS.cancelTask]: (args, deps) => cancelTask(args, deps.queue),
  [ACTIONS.refreshQueue]: (args, deps) => refreshQueue(args, deps.queue),
  [ACTIONS.pageNext]: (args, deps) => turnPage(args, deps.reports),
  [ACTIONS.pagePrevious]: (args, deps) => turnPage(args, deps.reports),
  [ACTIONS.showPosition]: (args, deps) => showPosition(args, deps.reports),
  [ACTIONS.transportStart]: (args, deps) => transportActionButton("start")(args, deps.etransport),
  [ACTIONS.transportPause]: (args, deps) => transportActionButton("pause")(args, deps.etransport),
  [ACTIONS.transportEnd]: (args, deps) => transportActionButton("end")(args, deps.etransport),
  [ACTIONS.transportRemove]: (args, deps) => transportRemove(args, deps.etransport),
  [ACTIONS.transportRemoveCancel]: (args, deps) => transportRemoveCancel(args, deps.etransport),
  [ACTIONS.transportEdit]: (args, deps) => transportEdit(args, deps.etransport),
  [ACTIONS.transportShow]: (args, deps) => transportShow(args, deps.etransport),
  [ACTIONS.transportListNext]: (args, deps) => turnTransportListPage(args, deps.etransport),
  [ACTIONS.transportListPrevious]: (args, deps) => turnTransportListPage(args, deps.etransport),
  [ACTIONS.alertMute]: (args, deps) => alertMute(args, deps.alerts),
  [ACTIONS.alertUnmute]: (args, deps) => alertUnmute(args, deps.alerts),
  [ACTIONS.homeLogin]: (args, deps) => homeLogin(args, deps.account),
  [ACTIONS.homeLogout]: (args, deps) => homeLogout(args, deps.account),
};

/** Modal submissions, by callback_id. */
export const VIEW_SUBMISSIONS: Readonly<Record<string, Listener<ViewArgs>>> = {
  [VIEWS.login]: (args, deps) => loginSubmitted(args, deps.account),
  [VIEWS.report]: (args, deps) => reportSubmitted(args, deps.reports),
  [VIEWS.transportCreate]: (args, deps) => transportSubmitted("create")(args, deps.etransport),
  [VIEWS.transportEdit]: (args, deps) => transportSubmitted("edit")(args, deps.etransport),
};

/** External selects (manifest.yml `message_menu_options_url`), by block_id. */
export const SELECT_OPTIONS: Readonly<Record<string, Listener<OptionsArgs>>> = {
  [INPUTS.reportVehicles.block]: (args, deps) => reportVehicleOptions(args, deps.reports),
  [INPUTS.transportVehicle.block]: (args, deps) => transportVehicleOptions(args, deps.etransport),
};

/** Events (manifest.yml `settings.event_subscriptions.bot_events`). */
/** Multi-workspace mode: the Events API's uninstalls (listeners/installation.ts). */
export const INSTALLATION_EVENTS = ["app_uninstalled", "tokens_revoked", "team_access_revoked"] as const;

export const EVENTS: Readonly<Record<"app_home_opened", Listener<HomeOpenedArgs>>> = {
  app_home_opened: (args, deps) => homeOpened(args, deps.reports),
};

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
  app.event("app_home_opened", run(EVENTS.app_home_opened));
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
