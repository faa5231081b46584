/**
 * The families' deps for one workspace (registerListeners builds them once per workspace): every
 * store read and write a listener makes through them is scoped to that workspace.
 */
import type { WebClient } from "@slack/web-api";
import type { Language } from "../i18n/language.js";
import { resolveLanguageWithSource } from "../i18n/resolve.js";
import { taskOwnership } from "../platform/slack/listeners/taskOwnership.js";
import { encryptSecret, linkAssociatedData } from "../platform/store/sealing.js";
import { MemorySharedState } from "../platform/store/sharedState.js";
import { withTimeout } from "../platform/time/withTimeout.js";
import { ONLY_WORKSPACE, type WorkspaceKey } from "../platform/workspaces/workspace.js";
import { LinkAttempts } from "./account/slack/listeners.js";
import type { AlertSubscriptions } from "./alerts/subscriptions.js";
import type {
  AccountDeps,
  AlertDeps,
  CachedVehicles,
  LanguageDeps,
  ListenerDeps,
  QueueDeps,
  ScheduleDeps,
  SlackContext,
  TaskDesk,
  Users,
} from "./context.js";
import { checkScheduleLimits } from "./schedules/index.js";

/** The reader's language and where it came from, resolved for one workspace. */
type LanguageOf = (
  userId: string,
  slackLocale?: string,
) => Promise<ReturnType<typeof resolveLanguageWithSource>>;

/** The families' narrow deps for one workspace: every id they read or write is that workspace's. */
export function listenerDeps(ctx: SlackContext, workspace: WorkspaceKey = ONLY_WORKSPACE): ListenerDeps {
  const language = workspaceLanguage(ctx, workspace);
  const users = workspaceUsers(ctx, workspace, language);
  const tasks = workspaceTasks(ctx, workspace);
  const vehicles = workspaceVehicles(ctx, workspace);
  const now = () => ctx.now();
  const queue = { users, tasks, now, ...(ctx.supportUrl ? { supportUrl: ctx.supportUrl } : {}) };
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
      zones: {
        list: () => ctx.alerts.zones.zones(workspace),
        add: (zone) => ctx.alerts.zones.addZone({ ...zone, workspace }),
        remove: (nameKey) => ctx.alerts.zones.removeZone(workspace, nameKey),
      },
      vehicles,
    },
    schedules: scheduleDeps(ctx, workspace, { ...queue, vehicles }),
    account: accountDeps(ctx, workspace, queue),
    language: languageDeps(ctx, workspace, { users, now, language }),
  };
}

/** The user's choice, the workspace's default (none stored for the single workspace), DEFAULT_LANGUAGE. */
function workspaceLanguage(ctx: SlackContext, workspace: WorkspaceKey): LanguageOf {
  return async (userId, slackLocale) => {
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
}

function workspaceUsers(ctx: SlackContext, workspace: WorkspaceKey, language: LanguageOf): Users {
  return {
    timeZoneOf: (client, userId) => ctx.people.timeZoneOf(client, userId, workspace),
    zoneAtAck: (userId) => ctx.people.zoneAtAck(userId, workspace),
    accountOf: (userId) => ctx.people.accountOf(userId, workspace),
    languageOf: async (userId, slackLocale) => (await language(userId, slackLocale)).language,
  };
}

function workspaceTasks(ctx: SlackContext, workspace: WorkspaceKey): TaskDesk {
  return {
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
}

function workspaceVehicles(ctx: SlackContext, workspace: WorkspaceKey): CachedVehicles {
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
  return vehicles;
}

function accountDeps(ctx: SlackContext, workspace: WorkspaceKey, queue: QueueDeps): AccountDeps {
  const attempts = new LinkAttempts(ctx.sharedState ?? new MemorySharedState({ now: queue.now }));
  const key = ctx.credentialsKey;
  return {
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
  };
}

function scheduleDeps(
  ctx: SlackContext,
  workspace: WorkspaceKey,
  parts: QueueDeps & { vehicles: CachedVehicles },
): ScheduleDeps {
  const store = ctx.schedules.store;
  return {
    users: parts.users,
    now: () => ctx.schedules.now(),
    ...(parts.supportUrl ? { supportUrl: parts.supportUrl } : {}),
    vehicles: parts.vehicles,
    schedules: {
      add: (input) => store.add({ ...input, workspace }),
      get: (id) => store.get(workspace, id),
      list: (filter) => store.list(workspace, filter),
      setState: (id, change) => store.setState(workspace, id, change),
      remove: (id) => store.remove(workspace, id),
    },
    fits: async (account, callsPerRun) =>
      checkScheduleLimits({
        workspaceCount: await store.count(workspace),
        accountCalls: await ctx.schedules.accountCalls(account),
        newCalls: callsPerRun,
        slotMs: ctx.schedules.slotMs(account),
      }),
    plannedCalls: (task) => ctx.runner.plannedCalls(task),
    canPost: (channel) => ctx.alerts.checkChannel(channel, workspace),
    isMember: (channel, userId) => ctx.alerts.isMember(channel, userId, workspace),
    runNow: (schedule, byUser) =>
      // Only this workspace's schedules: the listener read it through `get` above.
      schedule.workspace === workspace
        ? ctx.schedules.runNow(schedule, byUser)
        : Promise.resolve({ ok: false, refusal: "not-found" }),
  };
}

function languageDeps(
  ctx: SlackContext,
  workspace: WorkspaceKey,
  parts: { users: Users; now: () => number; language: LanguageOf },
): LanguageDeps {
  return {
    users: parts.users,
    now: parts.now,
    defaultLanguage: ctx.defaultLanguage,
    current: (userId) => parts.language(userId),
    choose: (userId, chosen: Language) => ctx.settings.setUserLanguage(workspace, userId, chosen),
    ...(ctx.workspaces.multi
      ? {
          workspaceDefault: {
            mayManage: (client, userId) => mayManageWorkspace(ctx, workspace, client, userId),
            orgWide: isOrgWide(workspace),
            set: (chosen) => ctx.settings.setWorkspaceLanguage(workspace, chosen),
          },
        }
      : {}),
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
