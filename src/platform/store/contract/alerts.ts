import type { Language } from "../../../i18n/language.js";
import { ONLY_WORKSPACE, type WorkspaceKey } from "../../workspaces/workspace.js";
import type { IncidentChange, IncidentRecord } from "./incidentRecords.js";
import type { TransportView } from "./transportView.js";

/**
 * Alert subscriptions, incidents, their posts per channel, grouped alerts, mutes and each
 * account's last complete sweep. Incidents belong to a fleet account, shared by every workspace
 * that subscribes to it (the incident records and their changes are the domain's, in
 * src/features/alerts/incidents.ts); what holds Slack ids belongs to a workspace: a subscription is one per
 * (workspace, channel, account), a post one per (incident, workspace, channel), a mute one per
 * (workspace, channel, UIT), a group one (workspace, channel)'s. A Slack Connect channel has one
 * id in two workspaces: the channel id alone names nothing. Where a method takes a workspace, it
 * defaults to the single workspace (""). Implemented by SqliteAlertStore (alertStore.ts) and
 * RedisAlertStore (redis/alertStore.ts).
 */

export interface AlertSubscription {
  id: string;
  /** The workspace of the channel ("" in single-workspace mode). */
  workspace: WorkspaceKey;
  channel: string;
  /** Fleet account (username) the subscription's sweeps run as. */
  account: string;
  /** Slack user who subscribed; undefined for the workspace subscription (ALERTS_CHANNEL). */
  createdBy?: string;
  codes: string[];
  excludeCodes: string[];
  vehicles: string[];
  minDurationMinutes: number;
  /** Minutes without a position sent before a stalled alert (`stale=`); 0: never. */
  staleMinutes: number;
  /** Language of the channel's alerts and digests (`lang=`); undefined: the workspace default. */
  language?: Language;
  /** The vehicle kinds' thresholds as given (`volts=`, `zones=`, …); {} when none (each kind's default). */
  watch: VehicleWatchOptions;
  createdAt: number;
}

/**
 * A subscription's vehicle-watch options as typed (absent: the kind's default, applied by
 * src/features/alerts/vehicleWatch/). Stored as they are: the store checks nothing in them.
 */
export interface VehicleWatchOptions {
  /** `volts=`: PowerCut below this external voltage. */
  volts?: number;
  /** `zones=`: the zone names watched (as typed); absent: every zone of the workspace. */
  zones?: string[];
  /** `idle=` minutes. */
  idleMinutes?: number;
  /** `speed=` km/h. */
  speedKmh?: number;
  /** `offline=` minutes. */
  offlineMinutes?: number;
  /** `hours=HH:MM-HH:MM`. */
  hours?: string;
  /** `temp=<min>..<max>` °C. */
  tempMin?: number;
  tempMax?: number;
  /** `tempfor=` minutes. */
  tempForMinutes?: number;
}

export interface NewAlertSubscription {
  /** Default "" (single-workspace mode). */
  workspace?: WorkspaceKey;
  channel: string;
  account: string;
  createdBy?: string;
  codes?: readonly string[];
  excludeCodes?: readonly string[];
  vehicles?: readonly string[];
  minDurationMinutes?: number;
  /** Default DEFAULT_STALE_MINUTES (30). */
  staleMinutes?: number;
  /** Default none: the workspace default when rendered. */
  language?: Language;
  /** Default {}. */
  watch?: VehicleWatchOptions;
}

/** One incident's message in one channel of one workspace. */
export interface AlertPost {
  incidentId: string;
  workspace: WorkspaceKey;
  channel: string;
  /** Set once chat.postMessage succeeded: the post is done and never repeated. */
  ts?: string;
  postedAt?: number;
  /** When the alert was edited to resolved. */
  resolvedUpdatedAt?: number;
  /** The resolution's thread reply. */
  replyTs?: string;
  /** When the resolution (edit + reply) was completed, or given up. */
  resolvedPostedAt?: number;
  attempts: number;
  lastError?: string;
  /** The post was held back by a mute until then. */
  mutedUntil?: number;
  /** Posted as a member of this grouped alert: `ts` is then the member's thread reply. */
  groupId?: string;
}

/** One grouped alert: a storm of incidents of one account in one channel, posted as one message. */
export interface AlertGroup {
  id: string;
  account: string;
  workspace: WorkspaceKey;
  channel: string;
  createdAt: number;
  /** Set once the group message was posted: never posted again. */
  ts?: string;
  postedAt?: number;
  /** How many members the group message listed when Slack last accepted it. */
  shown: number;
  /** When the group message was edited to resolved as a whole. */
  resolvedAt?: number;
  attempts: number;
  lastError?: string;
}

/** A member of a group: its incident as stored and its post row in the group's channel. */
export interface AlertGroupMember {
  incident: IncidentRecord;
  post: AlertPost;
}

export interface AlertMute {
  workspace: WorkspaceKey;
  channel: string;
  codeUit: string;
  until: number;
}

/** A channel's most recent post failure. */
export interface AlertPostFailure {
  codeUit: string;
  error: string;
  attempts: number;
}

/** What deleteWorkspace removed. */
export interface DeletedWorkspaceAlerts {
  subscriptions: number;
  posts: number;
  mutes: number;
  groups: number;
  /** Incidents of fleet accounts no subscription of any workspace uses any more. */
  incidents: number;
}

export interface AlertRepository {
  // ---------- subscriptions

  /** Creates or replaces the subscription of (workspace, channel, account). `created` says which. */
  upsertSubscription(
    input: NewAlertSubscription,
  ): Promise<{ subscription: AlertSubscription; created: boolean }>;
  subscription(
    channel: string,
    account: string,
    workspace?: WorkspaceKey,
  ): Promise<AlertSubscription | undefined>;
  /**
   * All subscriptions, or those of an account, a channel id and/or a workspace, in creation order.
   * Without a workspace, a channel id matches in every workspace (a Slack Connect channel's two).
   */
  subscriptions(filter?: {
    account?: string;
    channel?: string;
    workspace?: WorkspaceKey;
  }): Promise<AlertSubscription[]>;
  /** Removes the channel's subscription of one account, or all of the channel's; how many. */
  removeSubscription(channel: string, account?: string, workspace?: WorkspaceKey): Promise<number>;
  /** Distinct fleet accounts with at least one subscription, in any workspace (each is swept once). */
  subscribedAccounts(): Promise<string[]>;

  // ---------- incidents

  incident(id: string): Promise<IncidentRecord | undefined>;
  /** Pending and open incidents of an account. */
  activeIncidents(account: string): Promise<IncidentRecord[]>;
  /** Every incident of an account, resolved ones included. */
  incidents(account: string): Promise<IncidentRecord[]>;
  /** Open incidents of every account (the digest). */
  openIncidents(): Promise<IncidentRecord[]>;
  /**
   * Stores one sweep's changes at once, in order (at most one active incident per transport and
   * kind). Returns the incidents opened, confirmed or resolved, as stored.
   */
  applyChanges(changes: readonly IncidentChange[]): Promise<IncidentRecord[]>;

  // ---------- posts

  /** Whether an alert of this account about this UIT was posted (or is due) in the workspace's channel. */
  hasPostFor(channel: string, codeUit: string, account: string, workspace?: WorkspaceKey): Promise<boolean>;
  post(incidentId: string, channel: string, workspace?: WorkspaceKey): Promise<AlertPost | undefined>;
  /** The incident's posts in every workspace, by workspace then channel. */
  posts(incidentId: string): Promise<AlertPost[]>;
  /** The post of (incident, workspace, channel), created empty when missing (the incident must exist). */
  ensurePost(incidentId: string, channel: string, workspace?: WorkspaceKey): Promise<AlertPost>;
  /** Posts (of every workspace) of resolved incidents of the account whose resolution is not done yet. */
  unresolvedPosts(account: string): Promise<AlertPost[]>;
  /** The alert was posted (once: a second call changes nothing). */
  recordPosted(incidentId: string, channel: string, ts: string, workspace?: WorkspaceKey): Promise<void>;
  /** A post attempt failed (the error kept, cut to 500 characters). */
  recordFailure(incidentId: string, channel: string, error: string, workspace?: WorkspaceKey): Promise<void>;
  /** The post is held back by a mute until then. */
  recordMuted(incidentId: string, channel: string, until: number, workspace?: WorkspaceKey): Promise<void>;
  /** The alert was edited to resolved. */
  recordResolvedUpdate(incidentId: string, channel: string, workspace?: WorkspaceKey): Promise<void>;
  /** The resolution's thread reply was posted (once). */
  recordResolvedReply(
    incidentId: string,
    channel: string,
    ts: string,
    workspace?: WorkspaceKey,
  ): Promise<void>;
  /** The resolution of this post is complete (or given up: nothing more will be sent). */
  recordResolutionDone(incidentId: string, channel: string, workspace?: WorkspaceKey): Promise<void>;
  /** The workspace's channel's most recent post failure, for `/fleet alerts list`. */
  lastFailure(channel: string, workspace?: WorkspaceKey): Promise<AlertPostFailure | undefined>;

  // ---------- grouped alerts

  /**
   * Makes a group of `incidentIds` in the workspace's `channel`, before anything is posted: each
   * incident's post there is created and names the group, unless it was posted or grouped already.
   */
  createGroup(
    account: string,
    channel: string,
    incidentIds: readonly string[],
    workspace?: WorkspaceKey,
  ): Promise<AlertGroup>;
  /** Adds incidents to a group (a later page of the same sweep), by createGroup's rules; undefined: no such group. */
  addToGroup(groupId: string, incidentIds: readonly string[]): Promise<AlertGroup | undefined>;
  group(id: string): Promise<AlertGroup | undefined>;
  /** A group's members in the order they joined it. */
  groupMembers(groupId: string): Promise<AlertGroupMember[]>;
  /** The group message was posted, listing `shown` members (once: a second call changes nothing). */
  recordGroupPosted(groupId: string, ts: string, shown: number): Promise<void>;
  /** The group message was edited to list `shown` members (never fewer than before). */
  recordGroupShown(groupId: string, shown: number): Promise<void>;
  /** A group post or edit failed (the error kept, cut to 500 characters). */
  recordGroupFailure(groupId: string, error: string): Promise<void>;
  /** The group message was edited to resolved as a whole (once). */
  recordGroupResolved(groupId: string): Promise<void>;

  // ---------- mutes

  /** Mutes a UIT's alerts in the workspace's channel until then (replacing an earlier mute). */
  mute(channel: string, codeUit: string, until: number, workspace?: WorkspaceKey): Promise<AlertMute>;
  /** Lifts a mute; whether there was one. */
  unmute(channel: string, codeUit: string, workspace?: WorkspaceKey): Promise<boolean>;
  /** Until when alerts of this UIT are muted in the workspace's channel, if they are at `at` (default: now). */
  mutedUntil(
    channel: string,
    codeUit: string,
    at?: number,
    workspace?: WorkspaceKey,
  ): Promise<number | undefined>;

  // ---------- the last complete sweep

  /** The transports the account's last complete sweep listed (Pending, In Progress, Paused). */
  listedTransports(account: string): Promise<TransportView[]>;
  /** Replaces that list (after a complete sweep, and its vanished ones checked). */
  replaceListed(account: string, transports: readonly TransportView[]): Promise<void>;
  /**
   * The account's vehicle-watch memory between sweeps (last positions, since-whens), as the JSON
   * text the alerts feature wrote, or undefined. Forgotten with the account's incidents.
   */
  watchState(account: string): Promise<string | undefined>;
  /** Replaces it (after a sweep that read the vehicles). */
  replaceWatchState(account: string, state: string): Promise<void>;

  // ---------- retention and uninstalls

  /** Drops expired mutes, and resolved incidents older than `olderThan` whose posts are all done (a group goes with its last member). */
  purge(olderThan: number): Promise<{ mutes: number; incidents: number }>;
  /**
   * Forgets an uninstalled workspace's alerts at once: its subscriptions, posts, mutes and groups;
   * then the incidents (and last sweeps) of the fleet accounts those named that no subscription of
   * any workspace uses any more. Refuses the single workspace (""); a second call finds nothing.
   */
  deleteWorkspace(workspace: WorkspaceKey): Promise<DeletedWorkspaceAlerts>;
}

/** deleteWorkspace refuses the single workspace (both implementations). */
export function assertDeletableWorkspace(workspace: WorkspaceKey): void {
  if (workspace === ONLY_WORKSPACE)
    throw new Error("the single workspace's alerts are never deleted as an uninstalled workspace's");
}
