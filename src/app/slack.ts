import type { Installation } from "@slack/oauth";
import { LogLevel, WebClient } from "@slack/web-api";
import type { UserZoneDeps } from "../features/account/handlers/userZone.js";
import { ALERT_CLIENT_OPTIONS, createAlertWebClient } from "../features/alerts/slackPublisher.js";
import type { SlackContext } from "../features/context.js";
import { registerListeners } from "../features/listeners.js";
import type { Language } from "../i18n/language.js";
import type { FleetAccounts } from "../platform/accounts/fleetAccounts.js";
import type { FleetClient, FleetSession } from "../platform/fleet/client.js";
import type { Logger } from "../platform/log.js";
import { type HttpRoute, type RunningSlackApp, startSlackApp } from "../platform/slack/app.js";
import type { TaskDelivery } from "../platform/slack/delivery.js";
import { installOptions, type PublicSite, publicRoutes } from "../platform/slack/installRoutes.js";
import { isChannelMember } from "../platform/slack/listeners/channelMembership.js";
import type { PendingAcks } from "../platform/slack/pendingAcks.js";
import { People } from "../platform/slack/people.js";
import { installWelcomeMessage } from "../platform/slack/views/installation.js";
import { MemorySharedState, type SharedState } from "../platform/store/sharedState.js";
import type { TaskRunner } from "../platform/tasks/runner.js";
import type { WorkspaceEvents } from "../platform/workspaces/events.js";
import {
  InstalledWorkspaces,
  SingleWorkspace,
  type Workspaces,
  workspaceClient,
} from "../platform/workspaces/registry.js";
import { WorkspaceRemoval } from "../platform/workspaces/removal.js";
import type { WorkspaceKey } from "../platform/workspaces/workspace.js";
import type { FakeSlack } from "../sandbox/fakeSlack/index.js";
import type { AlertParts } from "./alerts.js";
import type { Backend } from "./backend/backend.js";
import type { Config } from "./config.js";
import type { HealthState } from "./health.js";
import type { ScheduleParts } from "./schedules.js";

export interface SlackSettings {
  mode: "http" | "socket" | "multi";
  botToken: string;
  signingSecret?: string;
  appToken?: string;
  apiUrl: string;
  /** The in-process fake Slack of the sandbox mode. */
  fake?: FakeSlack;
}

/** The configured workspace, or (sandbox mode) a fake Slack in this process. */
export async function slackSettings(config: Config): Promise<SlackSettings> {
  if (config.slack.mode === "sandbox") {
    // Imported only in the sandbox mode, like the simulator.
    const { startFakeSlack } = await import("../sandbox/fakeSlack/index.js");
    const fake = await startFakeSlack({ port: 0 });
    return {
      mode: "http",
      botToken: fake.options.botToken,
      signingSecret: fake.options.signingSecret,
      apiUrl: fake.apiUrl,
      fake,
    };
  }
  return {
    mode: config.slack.mode,
    // Multi-workspace mode has no token of its own: each installation brings one.
    botToken: config.slack.botToken ?? "",
    signingSecret: config.slack.signingSecret,
    appToken: config.slack.appToken,
    apiUrl: config.slack.apiUrl,
  };
}

/**
 * The workspaces fleetbot serves: the configured one with its bot token (and the sandbox's), or
 * in multi-workspace mode every installation, each with its own token (renewed under a lock).
 */
export function slackWorkspaces(
  config: Config,
  slackSide: SlackSettings,
  stores: Backend,
  logger: Logger,
  events: WorkspaceEvents,
): { workspaces: Workspaces; removal?: WorkspaceRemoval } {
  const oauth = config.slack.oauth;
  if (slackSide.mode !== "multi" || !oauth)
    // fleetbot's own Web API client (answers, files, zones, membership checks); Bolt keeps one for its listeners.
    return {
      workspaces: new SingleWorkspace({
        default: new WebClient(slackSide.botToken, { slackApiUrl: slackSide.apiUrl }),
        alerts: createAlertWebClient(slackSide.botToken, { slackApiUrl: slackSide.apiUrl }),
      }),
    };
  // Uninstalls and dead tokens: the installation, then what every subscriber of `events` keeps.
  const removal = new WorkspaceRemoval({
    installations: stores.installations,
    events,
    logger: logger.child({ module: "workspaces" }),
  });
  const registry: InstalledWorkspaces = new InstalledWorkspaces({
    installations: stores.installations,
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
    slackApiUrl: slackSide.apiUrl,
    lock: stores.renewalLock,
    clientOptions: { alerts: { ...ALERT_CLIENT_OPTIONS, logLevel: LogLevel.ERROR } },
    logger: logger.child({ module: "workspaces" }),
    events,
    onInstalled: async (installation, key) => {
      // Just installed: nobody there has chosen a language, nor the workspace a default.
      await welcomeInstaller(
        registry,
        installation,
        key,
        config.slack.supportUrl,
        config.defaultLanguage,
      ).catch((error: unknown) =>
        logger.warn({ err: error, workspace: key }, "could not send the installer the first steps"),
      );
    },
  });
  return { workspaces: registry, removal };
}

/** The installer's direct message: the workspace account first (`/fleet login workspace`), then `/fleet help`. */
export async function welcomeInstaller(
  workspaces: Workspaces,
  installation: Installation,
  key: WorkspaceKey,
  supportUrl: string | undefined,
  language: Language,
): Promise<void> {
  const installer = installation.user?.id;
  if (!installer) return;
  const client = await workspaceClient(workspaces, key);
  const opened = await client.conversations.open({ users: installer });
  if (!opened.channel?.id) return;
  const teamName = installation.team?.name ?? installation.enterprise?.name;
  const message = installWelcomeMessage({
    ...(teamName ? { teamName } : {}),
    ...(supportUrl ? { supportUrl } : {}),
    language,
  });
  await client.chat.postMessage({ channel: opened.channel.id, text: message.text, blocks: message.blocks });
}

/** Who Slack users are (zones, the account they act as), and how a task settles its user's zone. */
export function peopleParts(
  config: Config,
  parts: { stores: Backend; fleet: FleetAccounts; workspaces: Workspaces; events: WorkspaceEvents },
) {
  const { stores, fleet, workspaces } = parts;
  const people = new People({
    accounts: stores.accounts,
    workspaceAccount: fleet.workspaceAccount,
    companyTimeZone: config.companyTimeZone,
  });
  parts.events.onRemoved({
    name: "cached users",
    stage: "memory",
    deleteWorkspace: (key) => people.forgetWorkspace(key),
  });
  // The user's zone is settled in each task, after the ack (users.info never delays an ack).
  const zones: UserZoneDeps = {
    settle: async (slackUser, workspace) => {
      const client = await workspaceClient(workspaces, workspace).catch(() => undefined);
      // An uninstalled workspace's task ends unanswered anyway; its times need no zone from Slack.
      return client ? people.settleZone(client, slackUser, workspace) : { zone: config.companyTimeZone };
    },
    saveParams: (taskId, params) => stores.tasks.updateParams(taskId, params),
  };
  return { people, zones };
}

/**
 * The Slack side, started: the listeners' context, the Bolt app with its routes (its listeners'
 * per-workspace deps go when a workspace is removed), and Slack's health for /healthz.
 */
export async function startSlack(
  config: Config,
  parts: Parameters<typeof slackContext>[1] &
    Omit<Parameters<typeof startSlackSide>[1], "context" | "usedStates"> & {
      health: HealthState;
      events: WorkspaceEvents;
    },
): Promise<FleetbotSlack> {
  const { stores, workspaces, logger } = parts;
  const context = slackContext(config, parts);
  const slack = await startSlackSide(config, {
    ...parts,
    context,
    usedStates: stores.sharedState ?? new MemorySharedState(),
  });
  parts.events.onRemoved({
    name: "listener deps",
    stage: "memory",
    deleteWorkspace: (key) => slack.forgetWorkspace(key),
  });
  parts.health.slack = await checkSlackToken(slack, workspaces, logger);
  return slack;
}

/** What the listeners are built from (listeners/index.ts narrows it per command family). */
/** The Slack app (HTTP or Socket Mode) with its routes; the sandbox page learns its address. */
export async function startSlackSide(
  config: Config,
  parts: {
    slackSide: SlackSettings;
    routes: HttpRoute[];
    pendingAcks: PendingAcks;
    context: SlackContext;
    sandbox: { listening(url: string): void } | undefined;
    fleet: FleetAccounts;
    workspaces: Workspaces;
    usedStates: SharedState;
    logger: Logger;
  },
): Promise<FleetbotSlack> {
  const { slackSide, sandbox, workspaces } = parts;
  const oauth = config.slack.oauth;
  const site: PublicSite = {
    supportUrl: config.slack.supportUrl ?? "/privacy",
    taskRetentionDays: config.taskRetentionDays,
    auditRetentionDays: config.auditRetentionDays,
  };
  // Multi-workspace mode: Bolt's installer serves /slack/install and /slack/oauth_redirect.
  const install =
    oauth && workspaces instanceof InstalledWorkspaces
      ? installOptions({
          ...oauth,
          slackApiUrl: slackSide.apiUrl,
          installationStore: workspaces.boltInstallationStore(),
          usedStates: parts.usedStates,
          site,
        })
      : undefined;
  const slack = await startSlackApp({
    ...slackSide,
    port: config.port,
    // The sandbox page drives a fleet account with no sign-in: reachable from this machine only.
    ...(slackSide.fake ? { host: "127.0.0.1" } : {}),
    ...(install ? { install } : {}),
    routes: install ? [...parts.routes, ...publicRoutes(site)] : parts.routes,
    logger: parts.logger,
    pendingAcks: parts.pendingAcks,
    ...(parts.context.sharedState ? { sharedState: parts.context.sharedState } : {}),
    register: (app) => registerListeners(app, parts.context),
  });
  sandbox?.listening(slack.url);
  return { ...slack, context: parts.context };
}

/** The running Slack app with the context its listeners were built from. */
export type FleetbotSlack = RunningSlackApp & { context: SlackContext };

export function slackContext(
  config: Config,
  parts: {
    stores: Backend;
    client: FleetClient;
    fleet: FleetAccounts;
    runner: TaskRunner<FleetSession>;
    delivery: TaskDelivery;
    alerts: AlertParts;
    schedules: ScheduleParts;
    people: People;
    workspaces: Workspaces;
    removal?: WorkspaceRemoval;
    logger: Logger;
  },
): SlackContext {
  const { stores, client, fleet, runner, delivery, alerts, schedules, people, workspaces, removal, logger } =
    parts;
  return {
    runner,
    tasks: stores.tasks,
    accounts: stores.accounts,
    auditHistory: (account, uit, limit) => stores.audit.history(account, uit, limit),
    fleetAccess: (account, slackUser, workspace) => fleet.accessOf({ account, slackUser, workspace }),
    client,
    vehicles: fleet.vehicles,
    people,
    delivery,
    credentialsKey: config.credentialsKey,
    companyTimeZone: config.companyTimeZone,
    defaultLanguage: config.defaultLanguage,
    settings: stores.settings,
    alerts: {
      subscriptions: alerts.subscriptions,
      store: stores.alerts,
      checkChannel: (channel, workspace) => alerts.publisher.checkChannel(channel, workspace),
      isMember: async (channel, userId, workspace) =>
        isChannelMember(await workspaceClient(workspaces, workspace), channel, userId),
      zones: stores.zones,
    },
    schedules: {
      store: stores.schedules,
      runNow: (schedule, byUser) => schedules.runs.runNow(schedule, byUser),
      accountCalls: (account) => schedules.accountCalls(account),
      slotMs: (account) => schedules.slotMs(account),
      now: schedules.now,
    },
    workspaces,
    ...(config.slack.supportUrl ? { supportUrl: config.slack.supportUrl } : {}),
    ...(removal
      ? { installation: { uninstalled: (ids, eventTimeMs) => removal.uninstalled(ids, eventTimeMs) } }
      : {}),
    releaseAccount: (username) => fleet.release(username),
    warmVehicles: (account, slackUser, workspace) => fleet.warmVehicles({ account, slackUser, workspace }),
    cachedVehicles: async (account, slackUser, workspace) =>
      (await fleet.cachedListOf({ account, slackUser, workspace }))?.vehicles,
    storeHealth: stores.health,
    ...(stores.sharedState ? { sharedState: stores.sharedState } : {}),
    logger: logger.child({ module: "slack" }),
    now: () => Date.now(),
  };
}

export async function checkSlackToken(
  slack: RunningSlackApp,
  workspaces: Workspaces,
  logger: Logger,
): Promise<string> {
  // Multi-workspace mode: /healthz depends on no one workspace's token.
  if (workspaces.multi) return "multi-workspace";
  try {
    await slack.client.auth.test();
    return "ok";
  } catch (error) {
    logger.error({ err: error }, "Slack rejected the bot token (auth.test)");
    return "auth.test failed";
  }
}
