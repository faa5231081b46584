import type { WebClient } from "@slack/web-api";
import type { Logger } from "pino";
import type { Language } from "../i18n/language.js";
import type { ResolvedLanguage } from "../i18n/resolve.js";
import type { FleetAccess } from "../platform/accounts/fleetAccounts.js";
import type { FleetClient, FleetSession } from "../platform/fleet/client.js";
import type { Vehicle } from "../platform/fleet/schemas.js";
import type { AckHold, TaskDelivery } from "../platform/slack/delivery.js";
import type { InstallationDeps } from "../platform/slack/listeners/installation.js";
import type { TaskOwnership } from "../platform/slack/listeners/taskOwnership.js";
import type { People } from "../platform/slack/people.js";
import type {
  AccountRepository,
  AddZoneResult,
  AlertRepository,
  AuditHistory,
  NewZone,
  SettingsRepository,
  TaskRepository,
  Zone,
  ZoneRepository,
} from "../platform/store/contract/index.js";
import type {
  NewReportSchedule,
  ReportSchedule,
  SchedulePause,
  ScheduleRepository,
} from "../platform/store/contract/schedules.js";
import type { StoreHealth } from "../platform/store/health.js";
import type { SharedState, WindowTake } from "../platform/store/sharedState.js";
import type { TaskRunner } from "../platform/tasks/runner.js";
import type { ReplyTarget, TaskProgress, TaskRecord } from "../platform/tasks/task.js";
import type { VehicleCache } from "../platform/vehicles/vehicleCache.js";
import type { Workspaces } from "../platform/workspaces/registry.js";
import type { WorkspaceKey } from "../platform/workspaces/workspace.js";
import type { AlertSubscriptions } from "./alerts/subscriptions.js";
import type { RenderContext } from "./renderers.js";
import type { ScheduleLimit } from "./schedules/index.js";
import type { NewTaskOf, TaskKind } from "./taskKinds.js";

/** What the app is built from (main.ts): the parts behind the listeners' narrow deps below. */
export interface SlackContext {
  runner: TaskRunner<FleetSession>;
  tasks: TaskRepository;
  accounts: AccountRepository;
  /** One fleet account's audit entries of a UIT, newest first (at most `limit`), and their total. */
  auditHistory(account: string, uit: string, limit: number): Promise<AuditHistory>;
  /** Whether the user's own link was accepted by the service within one token lifetime (FleetAccess). */
  fleetAccess(account: string, slackUser: string, workspace: WorkspaceKey): Promise<FleetAccess>;
  client: FleetClient;
  vehicles: VehicleCache<Vehicle>;
  people: People;
  delivery: TaskDelivery;
  credentialsKey?: Buffer;
  companyTimeZone: string;
  /** DEFAULT_LANGUAGE: whoever has no choice of their own nor a workspace default gets it. */
  defaultLanguage: Language;
  /** Users' languages and installed workspaces' default languages. */
  settings: SettingsRepository;
  alerts: {
    subscriptions: AlertSubscriptions;
    store: AlertRepository;
    /** Can the bot post in this channel of the workspace? (private channels need an invitation) */
    checkChannel(
      channel: string,
      workspace: WorkspaceKey,
    ): Promise<{ ok: true } | { ok: false; code: string }>;
    /** Is the user a member of the channel (conversations.members)? undefined when Slack could not tell. */
    isMember(channel: string, userId: string, workspace: WorkspaceKey): Promise<boolean | undefined>;
    /** Every workspace's zones. */
    zones: ZoneRepository;
  };
  /** Scheduled reports: the store, the runs (Run now) and the limits. */
  schedules: {
    store: ScheduleRepository;
    runNow(
      schedule: ReportSchedule,
      byUser: string,
    ): Promise<{ ok: true; task: TaskRecord } | { ok: false; refusal: string }>;
    /** The daily calls the active schedules run as `account` plan (every workspace's). */
    accountCalls(account: string): Promise<number[]>;
    /** One account's slot (FLEET_MIN_INTERVAL_MS plus margin). */
    slotMs(account: string): number;
    /** The schedules' clock (StartOptions.scheduleClock): next runs are counted from it. */
    now(): number;
  };
  /** SUPPORT_URL, when the operator set one. */
  supportUrl?: string;
  /** The workspaces served: a request's workspace, and each one's Web API client. */
  workspaces: Workspaces;
  /** Multi-workspace mode: uninstall events delete the workspace's installation and data. */
  installation?: InstallationDeps;
  /** After an unlink: forget the account's session and token unless someone else still uses it. */
  releaseAccount(username: string): Promise<void>;
  /**
   * Starts a background fetch of the account's vehicle list (modals need it for their selects);
   * resolves once it is stored or failed.
   */
  warmVehicles(account: string, slackUser: string, workspace: WorkspaceKey): Promise<void>;
  /**
   * The account's cached vehicle list as the user's own credentials fetched it (no call); none when
   * another link's credentials fetched it, or the service has replaced this link's password since.
   */
  cachedVehicles(
    account: string,
    slackUser: string,
    workspace: WorkspaceKey,
  ): Promise<readonly Vehicle[] | undefined>;
  /** Whether the store takes writes; a failed submission is recorded here (and told at the ack). */
  storeHealth: Pick<StoreHealth, "failed"> & { readonly outage: "unwritable" | "unreachable" };
  logger: Pick<Logger, "info" | "warn" | "error" | "debug">;
  now(): number;
  /** Memory every replica must share (request resends, link attempts); default: this process'. */
  sharedState?: SharedState;
}

// ---------------------------------------------------------------------------------------------
// The listeners' deps: each family gets only what it uses, never a store.

/** Who the clicking or typing user is: their zone and the fleet account they act as. */
export interface Users {
  /** After an ack only: the zone from the cache or users.info. */
  timeZoneOf(client: WebClient, userId: string): Promise<string>;
  /** Before an ack: the cached zone, else the company's (no Web API call; the task settles it). */
  zoneAtAck(userId: string): string;
  accountOf(userId: string): Promise<{ username: string; linked: boolean } | undefined>;
  /**
   * The language to answer the user in (src/i18n/resolve.ts): read once per request and passed
   * to the views. `slackLocale` only when the caller has it (a slash command carries none).
   */
  languageOf(userId: string, slackLocale?: string): Promise<Language>;
}

/** Submitting tasks and following them (the queue, cancel, the answer held until the ack). */
export interface TaskDesk {
  submit<K extends TaskKind>(task: NewTaskOf<K>): Promise<{ task: TaskRecord; created: boolean }>;
  progressOf(taskId: string): Promise<TaskProgress | undefined>;
  /** Taken before a task is stored; released (with the new task's id) once the ack is sent. */
  holdUntilAck(reply: ReplyTarget): Promise<AckHold>;
  /** `byUser`: who clicked Cancel (the task's waiting message names them). */
  cancel(taskId: string, byUser?: string): Promise<boolean>;
  /**
   * The task a button or a form names, only when it belongs to the clicking user (their fleet
   * account's, or their own): the one way listeners read a task by id, so none can forget the check.
   */
  owned(taskId: string, userId: string): Promise<TaskOwnership>;
  /** The account's oldest unfinished tasks, at most `limit`. */
  unfinished(account: string, limit: number): Promise<TaskRecord[]>;
  countUnfinished(account: string): Promise<number>;
  /** Progress of several tasks, estimated in one pass. */
  progressOfMany(tasks: readonly TaskRecord[]): Promise<Map<string, TaskProgress>>;
}

/** The account's vehicles as cached (a modal's select answers within 3 s from it, never the service). */
export interface CachedVehicles {
  /** The list as this user's own credentials fetched it (none from another link of the account). */
  peek(account: string, slackUser: string): Promise<readonly Vehicle[] | undefined>;
  /** Starts a background fetch of the list. */
  warm(account: string, slackUser: string): void;
  /**
   * For a picker, which must answer within Slack's 3 s: the cached list at once, else the fetch
   * (started if none is under way) when it ends within `waitMs`; undefined while it still loads.
   */
  within(account: string, slackUser: string, waitMs: number): Promise<readonly Vehicle[] | undefined>;
}

interface Common {
  users: Users;
  now(): number;
  /** SUPPORT_URL: where people get help (the App Home says it). */
  supportUrl?: string;
}

export interface QueueDeps extends Common {
  tasks: TaskDesk;
}

export interface ReportDeps extends QueueDeps {
  vehicles: CachedVehicles;
  render: RenderContext;
  /** Whether the user's own link may be answered fleet data from the store now (a stored page). */
  fleetAccess(account: string, slackUser: string): Promise<FleetAccess>;
}

export interface EtransportDeps extends QueueDeps {
  vehicles: CachedVehicles;
  /** Warnings a user was shown for a modal (by view id): submitting the same form again confirms them. */
  formWarnings: Map<string, string>;
  /** The audit trail, read only: one account's entries of a UIT (answered from the store, no fleet call). */
  auditHistory: SlackContext["auditHistory"];
  /** Whether the user's own link may be answered fleet data from the store now. */
  fleetAccess(account: string, slackUser: string): Promise<FleetAccess>;
}

export interface AlertDeps extends Common {
  subscriptions: Pick<
    AlertSubscriptions,
    "list" | "subscribe" | "unsubscribe" | "mute" | "unmute" | "isConfigured" | "canMute"
  >;
  lastFailure: AlertRepository["lastFailure"];
  /** Can the bot post in this channel of the request's workspace? */
  checkChannel(channel: string): Promise<{ ok: true } | { ok: false; code: string }>;
  /** Is the user a member of the channel? undefined when Slack could not tell. */
  isMember(channel: string, userId: string): Promise<boolean | undefined>;
  /** The workspace's zones (`/fleet zones`). */
  zones: {
    list(): Promise<Zone[]>;
    add(zone: Omit<NewZone, "workspace">): Promise<AddZoneResult>;
    remove(nameKey: string): Promise<Zone | undefined>;
  };
  /** The user's vehicles as cached (`zones add … at <vehicle>`). */
  vehicles: CachedVehicles;
}

export interface AccountDeps extends QueueDeps {
  /** Null when linking is not enabled (no CREDENTIALS_KEY). */
  linking: {
    /** Seals the password for the user's link in this workspace (the account-link task opens it). */
    seal(slackUser: string, password: string): string;
    /** Link attempts per Slack user of this workspace (see LinkAttempts). */
    attempts: { take(slackUser: string): Promise<WindowTake> };
  } | null;
  /** Unlinks the user's own account (and releases its session); false when none was linked. */
  unlink(slackUser: string): Promise<boolean>;
  /**
   * Multi-workspace mode: the workspace's own fleet account is set in Slack, by whoever installed
   * fleetbot first or a workspace admin (an org admin for an org-wide install). Undefined in
   * single-workspace mode (the operator sets it).
   */
  workspaceAccount?: {
    /**
     * The first installer, or users.info says admin or owner (org-wide install: org admin or
     * owner, users.info `enterprise_user`); undefined when Slack did not answer.
     */
    mayManage(client: WebClient, userId: string): Promise<boolean | undefined>;
    /** An org-wide (Enterprise Grid) install: only an org admin or owner manages it. */
    orgWide?: boolean;
  };
}

/** `/fleet language`: the user's language, where it comes from, and choosing it. */
export interface LanguageDeps extends Common {
  /** DEFAULT_LANGUAGE (what single-workspace mode has instead of a workspace default set in Slack). */
  defaultLanguage: Language;
  /** The user's language as a request resolves it, and where it comes from. */
  current(userId: string): Promise<ResolvedLanguage>;
  /** Stores the user's own language in this workspace. */
  choose(userId: string, language: Language): Promise<void>;
  /**
   * Multi-workspace mode: the workspace's default language, set by whoever installed fleetbot or
   * a workspace admin. Undefined in single-workspace mode (DEFAULT_LANGUAGE, the operator's).
   */
  workspaceDefault?: {
    /** As AccountDeps.workspaceAccount.mayManage. */
    mayManage(client: WebClient, userId: string): Promise<boolean | undefined>;
    /** An org-wide (Enterprise Grid) install: only an org admin or owner manages it. */
    orgWide?: boolean;
    set(language: Language): Promise<void>;
  };
}

/** `/fleet schedule`, `/fleet schedules` and the list's buttons: one workspace's schedules. */
export interface ScheduleDeps extends Common {
  schedules: {
    add(input: Omit<NewReportSchedule, "workspace">): Promise<ReportSchedule>;
    get(id: string): Promise<ReportSchedule | undefined>;
    list(filter?: { channel?: string; createdBy?: string }): Promise<ReportSchedule[]>;
    setState(
      id: string,
      change: { state: "paused"; because: SchedulePause } | { state: "active"; nextRunAt: number },
    ): Promise<ReportSchedule | undefined>;
    remove(id: string): Promise<boolean>;
  };
  /**
   * Whether one more schedule of the author fits: the workspace's count, and the daily calls of
   * the schedules run as the author's fleet account (`callsPerRun`: the new one's).
   */
  fits(account: string, callsPerRun: number): Promise<ScheduleLimit>;
  /** The calls one run of a report task plans (TaskRunner.plannedCalls). */
  plannedCalls(task: Pick<TaskRecord, "kind" | "params" | "account">): number;
  /** Can the bot post in this channel of the request's workspace? */
  canPost(channel: string): Promise<{ ok: true } | { ok: false; code: string }>;
  /** Is the user a member of the channel? undefined when Slack could not tell. */
  isMember(channel: string, userId: string): Promise<boolean | undefined>;
  /** Runs a schedule now (its checks told, not pausing it); the task posts in its channel. */
  runNow(
    schedule: ReportSchedule,
    byUser: string,
  ): Promise<{ ok: true; task: TaskRecord } | { ok: false; refusal: string }>;
  vehicles: CachedVehicles;
}

export interface ListenerDeps {
  schedules: ScheduleDeps;
  queue: QueueDeps;
  reports: ReportDeps;
  etransport: EtransportDeps;
  alerts: AlertDeps;
  account: AccountDeps;
  language: LanguageDeps;
}
