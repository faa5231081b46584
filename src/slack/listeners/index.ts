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
import type { WebClient } from "@slack/web-api";
import type { AlertSubscriptions } from "../../alerts/subscriptions.js";
import { messages } from "../../i18n/catalogue.js";
import { resolveLanguageWithSource } from "../../i18n/resolve.js";
import { encryptSecret, linkAssociatedData } from "../../store/sealing.js";
import { MemorySharedState } from "../../store/sharedState.js";
import { withTimeout } from "../../time/withTimeout.js";
import { ONLY_WORKSPACE, type WorkspaceKey } from "../../workspaces/workspace.js";
import { ACTIONS, INPUTS, VIEWS } from "../actionIds.js";
import type { AlertDeps, CachedVehicles, ListenerDeps, SlackContext, TaskDesk, Users } from "../context.js";
import { noticeMessage } from "../views/notice.js";
import { statusModal } from "../views/statusModal.js";
import { homeLogin, homeLogout, LinkAttempts, loginSubmitted } from "./account.js";
import { alertMute, alertUnmute } from "./alerts.js";
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
} from "./etransport.js";
import { fleetCommand } from "./fleetCommand.js";
import { homeOpened } from "./home.js";
import { appUninstalled, teamAccessRevoked, tokensRevoked } from "./installation.js";
import { cancelTask, refreshQueue } from "./queue.js";
import { answerStoreFailure } from "./storeFailure.js";
import { taskOwnership } from "./taskOwnership.js";
import { reportSubmitted, reportVehicleOptions, showPosition, turnPage } from "./vehicleReports.js";

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

/** The families' narrow deps for one workspace: every id they read or write is that workspace's. */
export function listenerDeps(ctx: SlackContext, workspace: WorkspaceKey = ONLY_WORKSPACE): ListenerDeps {
  // The user's choice, the workspace's default (none stored for the single workspace), DEFAULT_LANGUAGE.
  const language = async (userId: string, slackLocale?: string) => {
    const [user, ofWorkspace] = await Promise.all([
      ctx.settings.userLanguage(workspace, userId),
      workspace === ONLY_WORKSPACE ? undefined : ctx.settings.workspaceLanguage(workspace),
    ]);
    return resolveLanguageWithSource({
      user,
      workspace: ofWorkspace,
      configured: ctx.defaultLanguage,
      slackLocale,
    });
  };
  const users: Users = {
    timeZoneOf: (client, userId) => ctx.people.timeZoneOf(client, userId, workspace),
    zoneAtAck: (userId) => ctx.people.zoneAtAck(userId, workspace),
    accountOf: (userId) => ctx.people.accountOf(userId, workspace),
    languageOf: async (userId, slackLocale) => (await language(userId, slackLocale)).language,
  };
  const tasks: TaskDesk = {
    // A write the store refuses is told to the user within the ack (answerStoreFailure) and to /healthz.
    submit: (task) => ctx.runner.submit({ ...task, workspace }),
    progressOf: (taskId) => ctx.runner.progressOf(taskId),
    holdUntilAck: (reply) => ctx.delivery.holdUntilAck(reply),
    cancel: async (taskId, byUser) => {
      const task = await ctx.tasks.get(taskId);
      // Another workspace's task id cancels nothing.
      if (!task || task.workspace !== workspace) return false;
      // Written before cancelling: a queued task's answer goes out at once.
      if (byUser) await ctx.tasks.setReply(taskId, { ...task.reply, cancelledBy: byUser });
      return await ctx.runner.cancel(taskId);
    },
    owned: async (taskId, userId) =>
      taskOwnership(
        await ctx.tasks.get(taskId),
        userId,
        await ctx.people.accountOf(userId, workspace),
        workspace,
      ),
    unfinished: (account, limit) => ctx.tasks.unfinished(account, limit, workspace),
    countUnfinished: (account) => ctx.tasks.countUnfinished(account, workspace),
    progressOfMany: (tasks) => ctx.runner.progressOfMany(tasks),
  };
  const vehicles: CachedVehicles = {
    peek: (account, slackUser) => {
      // A person reads the list: upkeep keeps it from expiring while they do.
      ctx.vehicles.noteUse(account);
      return ctx.cachedVehicles(account, slackUser, workspace);
    },
    warm: (account, slackUser) => void ctx.warmVehicles(account, slackUser, workspace),
    within: async (account, slackUser, waitMs) => {
      const cached = await vehicles.peek(account, slackUser);
      if (cached) return cached;
      await settledWithin(ctx.warmVehicles(account, slackUser, workspace), waitMs);
      return ctx.cachedVehicles(account, slackUser, workspace);
    },
  };
  const now = () => ctx.now();
  const queue = { users, tasks, now, ...(ctx.supportUrl ? { supportUrl: ctx.supportUrl } : {}) };
  const attempts = new LinkAttempts(ctx.sharedState ?? new MemorySharedState({ now }));
  const key = ctx.credentialsKey;
  return {
    queue,
    reports: {
      ...queue,
      vehicles,
      render: { now, companyTimeZone: ctx.companyTimeZone, defaultLanguage: ctx.defaultLanguage },
      fleetAccess: (account, slackUser) => ctx.fleetAccess(account, slackUser, workspace),
    },
    etransport: {
      ...queue,
      vehicles,
      formWarnings: new Map(),
      auditHistory: (account, uit, limit) => ctx.auditHistory(account, uit, limit),
      fleetAccess: (account, slackUser) => ctx.fleetAccess(account, slackUser, workspace),
    },
    alerts: {
      users,
      now,
      subscriptions: workspaceSubscriptions(ctx.alerts.subscriptions, workspace),
      lastFailure: (channel) => ctx.alerts.store.lastFailure(channel, workspace),
      checkChannel: (channel) => ctx.alerts.checkChannel(channel, workspace),
      isMember: (channel, userId) => ctx.alerts.isMember(channel, userId, workspace),
    },
    account: {
      ...queue,
      linking:
        ctx.accounts.canStore && key
          ? {
              seal: (slackUser, password) =>
                encryptSecret(key, password, linkAssociatedData(workspace, slackUser)),
              attempts: {
                take: (slackUser) => attempts.take(workspace, slackUser),
              },
            }
          : null,
      unlink: async (slackUser) => {
        const linkedAs = await ctx.accounts.usernameOf(workspace, slackUser);
        const had = await ctx.accounts.unlink(workspace, slackUser);
        if (linkedAs) await ctx.releaseAccount(linkedAs);
        return had;
      },
      ...(ctx.workspaces.multi
        ? {
            workspaceAccount: {
              mayManage: (client, userId) => mayManageWorkspace(ctx, workspace, client, userId),
              orgWide: isOrgWide(workspace),
            },
          }
        : {}),
    },
    language: {
      users,
      now,
      defaultLanguage: ctx.defaultLanguage,
      current: (userId) => language(userId),
      choose: (userId, chosen) => ctx.settings.setUserLanguage(workspace, userId, chosen),
      ...(ctx.workspaces.multi
        ? {
            workspaceDefault: {
              mayManage: (client, userId) => mayManageWorkspace(ctx, workspace, client, userId),
              orgWide: isOrgWide(workspace),
              set: (chosen) => ctx.settings.setWorkspaceLanguage(workspace, chosen),
            },
          }
        : {}),
    },
  };
}

/** An org-wide install on Enterprise Grid (`E:<enterprise>`): one installation for the whole org. */
function isOrgWide(workspace: WorkspaceKey): boolean {
  return workspace.startsWith("E:");
}

/**
 * Who may set a workspace's own fleet account or default language, asked at every use (the form's
 * submission included), so a role taken away counts at once:
 * - a workspace install (`T:`): whoever installed fleetbot there first (a later run of "Add to
 *   Slack", by anyone, transfers nothing: the store keeps the first installer), or a workspace
 *   admin or owner (users.info `is_admin`, `is_owner`, `is_primary_owner`);
 * - an org-wide install (`E:`), whose settings every workspace of the org acts under: an org admin
 *   or owner of that org only (users.info `enterprise_user`); a workspace admin is not enough.
 * Undefined when Slack did not answer within 2 s (an ack cannot wait longer).
 */
async function mayManageWorkspace(
  ctx: SlackContext,
  workspace: WorkspaceKey,
  client: WebClient,
  userId: string,
): Promise<boolean | undefined> {
  const orgWide = isOrgWide(workspace);
  if (!orgWide) {
    const installed = await ctx.workspaces.get(workspace);
    if (installed?.installerUserId === userId) return true;
  }
  const asked = client.users
    .info({ user: userId })
    .then((answer) => {
      const user = answer.user;
      if (orgWide) {
        const org = user?.enterprise_user;
        return (
          org?.enterprise_id === workspace.slice(2) &&
          (org.is_admin === true || org.is_owner === true || org.is_primary_owner === true)
        );
      }
      return user?.is_admin === true || user?.is_owner === true || user?.is_primary_owner === true;
    })
    .catch(() => undefined);
  return await withTimeout(asked, 2_000, undefined);
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

/** The alert subscriptions as one workspace's listeners see them: its channels only, whatever they pass. */
function workspaceSubscriptions(
  subscriptions: AlertSubscriptions,
  workspace: WorkspaceKey,
): AlertDeps["subscriptions"] {
  return {
    list: (filter = {}) => subscriptions.list({ ...filter, workspace }),
    subscribe: (channel, account, createdBy, filters) =>
      subscriptions.subscribe(channel, account, createdBy, filters, workspace),
    unsubscribe: (channel, account) => subscriptions.unsubscribe(channel, account, workspace),
    mute: (channel, codeUit, ms) => subscriptions.mute(channel, codeUit, ms, workspace),
    unmute: (channel, codeUit) => subscriptions.unmute(channel, codeUit, workspace),
    isConfigured: (channel, account) => subscriptions.isConfigured(channel, account, workspace),
    canMute: (channel, codeUit, account) => subscriptions.canMute(channel, codeUit, account, workspace),
  };
}

/** Waits for `work` to settle, at most `ms` (a Slack request must be answered within 3 s). */
async function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
  await withTimeout(work.then(noop, noop), ms, undefined);
}

function noop(): void {}
