import { randomUUID } from "node:crypto";
import { z } from "zod";
import { LANGUAGES } from "../../i18n/language.js";
import { ONLY_WORKSPACE, type WorkspaceKey } from "../workspaces/workspace.js";
import {
  type AlertGroup,
  type AlertGroupMember,
  type AlertMute,
  type AlertPost,
  type AlertPostFailure,
  type AlertRepository,
  type AlertSubscription,
  assertDeletableWorkspace,
  type DeletedWorkspaceAlerts,
  type NewAlertSubscription,
} from "./contract/alerts.js";
import {
  DEFAULT_STALE_MINUTES,
  INCIDENT_KINDS,
  type IncidentChange,
  type IncidentRecord,
  type ResolveReason,
  storedAlertCodes,
} from "./contract/incidentRecords.js";
import type { Synchronous } from "./contract/synchronous.js";
import { parseTransportView, type TransportView } from "./contract/transportView.js";
import { type IncidentFacts, parseIncidentFacts } from "./contract/vehicleFacts.js";
import type { Db } from "./database.js";
import { parseWatchOptions, watchText } from "./watchOptions.js";

/**
 * Alert subscriptions, incidents, their posts per channel and mutes in SQLite (the contract and
 * its records: contract/alerts.ts; tables of migration 3). Every
 * write is one statement or one transaction: incident changes are stored before any post,
 * and a post row with a ts is done, so a restart neither loses nor repeats an alert.
 *
 * Incidents belong to a fleet account, shared by every workspace that subscribes to it; what
 * holds Slack ids belongs to a workspace (migration 11): a subscription is one per (workspace,
 * channel, account), a post one per (incident, workspace, channel), a mute one per (workspace,
 * channel, UIT), a group one (workspace, channel)'s. A Slack Connect channel has one id in two
 * workspaces: the channel id alone names nothing.
 *
 * Vehicle watch (migration 16): a subscription's thresholds as JSON text, each account's watch
 * memory between sweeps (alert_watch_state), forgotten with the account's last sweep.
 */

const jsonList = z.string().transform((s, ctx) => {
  try {
    const parsed = z.array(z.string()).safeParse(JSON.parse(s));
    if (parsed.success) return parsed.data;
  } catch {
    // reported below
  }
  ctx.addIssue({ code: "custom", message: "not a JSON list of strings" });
  return z.NEVER;
});

const subscriptionRow = z.object({
  id: z.string(),
  workspace: z.string(),
  channel: z.string(),
  account: z.string(),
  created_by: z.string().nullable(),
  codes: jsonList,
  exclude_codes: jsonList,
  vehicles: jsonList,
  min_duration_minutes: z.number().int().min(0),
  stale_minutes: z.number().int().min(0),
  language: z.enum(LANGUAGES).nullable().optional(),
  // Checked apart (parseWatchOptions): an unreadable value reads as no options, not as no subscription.
  watch: z.string().optional(),
  created_at: z.number(),
});

const RESOLVE_REASONS = [
  "recovered",
  "changed",
  "status",
  "gone",
  "completed",
  "removed",
] as const satisfies readonly ResolveReason[];

const incidentRow = z.object({
  id: z.string(),
  account: z.string(),
  transport_uid: z.string(),
  code_uit: z.string(),
  kind: z.enum(INCIDENT_KINDS),
  code: z.string(),
  first_seen_at: z.number(),
  opened_at: z.number().nullable(),
  resolved_at: z.number().nullable(),
  resolve_reason: z.enum(RESOLVE_REASONS).nullable(),
  end_evidence_at: z.number().nullable(),
  state: z.enum(["pending", "open", "resolved"]),
  last_seen_at: z.number(),
  facts: z.string(),
});

const postRow = z.object({
  incident_id: z.string(),
  workspace: z.string(),
  channel: z.string(),
  ts: z.string().nullable(),
  posted_at: z.number().nullable(),
  resolved_updated_at: z.number().nullable(),
  reply_ts: z.string().nullable(),
  resolved_posted_at: z.number().nullable(),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  muted_until: z.number().nullable(),
  group_id: z.string().nullable(),
});

const groupRow = z.object({
  id: z.string(),
  account: z.string(),
  workspace: z.string(),
  channel: z.string(),
  created_at: z.number(),
  ts: z.string().nullable(),
  posted_at: z.number().nullable(),
  shown: z.number().int(),
  resolved_at: z.number().nullable(),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
});

const watchStateRow = z.object({ state: z.string() });

function toSubscription(raw: unknown): AlertSubscription {
  const row = subscriptionRow.parse(raw);
  const sub: AlertSubscription = {
    id: row.id,
    workspace: row.workspace,
    channel: row.channel,
    account: row.account,
    codes: storedAlertCodes(row.codes),
    excludeCodes: row.exclude_codes,
    vehicles: row.vehicles,
    minDurationMinutes: row.min_duration_minutes,
    staleMinutes: row.stale_minutes,
    watch: parseWatchOptions(row.watch),
    createdAt: row.created_at,
  };
  if (row.created_by !== null) sub.createdBy = row.created_by;
  if (row.language != null) sub.language = row.language;
  return sub;
}

function toIncident(raw: unknown): IncidentRecord {
  const row = incidentRow.parse(raw);
  const facts: IncidentFacts = parseIncidentFacts(JSON.parse(row.facts)) ?? {
    uId: row.transport_uid,
    codeUit: row.code_uit,
    statusId: 0,
  };
  const incident: IncidentRecord = {
    id: row.id,
    account: row.account,
    transportUId: row.transport_uid,
    codeUit: row.code_uit,
    kind: row.kind,
    code: row.code,
    firstSeenAt: row.first_seen_at,
    state: row.state,
    lastSeenAt: row.last_seen_at,
    facts,
  };
  if (row.opened_at !== null) incident.openedAt = row.opened_at;
  if (row.resolved_at !== null) incident.resolvedAt = row.resolved_at;
  if (row.resolve_reason !== null) incident.resolveReason = row.resolve_reason;
  if (row.end_evidence_at !== null) incident.endEvidenceMs = row.end_evidence_at;
  return incident;
}

function toPost(raw: unknown): AlertPost {
  const row = postRow.parse(raw);
  const post: AlertPost = {
    incidentId: row.incident_id,
    workspace: row.workspace,
    channel: row.channel,
    attempts: row.attempts,
  };
  if (row.ts !== null) post.ts = row.ts;
  if (row.posted_at !== null) post.postedAt = row.posted_at;
  if (row.resolved_updated_at !== null) post.resolvedUpdatedAt = row.resolved_updated_at;
  if (row.reply_ts !== null) post.replyTs = row.reply_ts;
  if (row.resolved_posted_at !== null) post.resolvedPostedAt = row.resolved_posted_at;
  if (row.last_error !== null) post.lastError = row.last_error;
  if (row.muted_until !== null) post.mutedUntil = row.muted_until;
  if (row.group_id !== null) post.groupId = row.group_id;
  return post;
}

function toGroup(raw: unknown): AlertGroup {
  const row = groupRow.parse(raw);
  const group: AlertGroup = {
    id: row.id,
    account: row.account,
    workspace: row.workspace,
    channel: row.channel,
    createdAt: row.created_at,
    shown: row.shown,
    attempts: row.attempts,
  };
  if (row.ts !== null) group.ts = row.ts;
  if (row.posted_at !== null) group.postedAt = row.posted_at;
  if (row.resolved_at !== null) group.resolvedAt = row.resolved_at;
  if (row.last_error !== null) group.lastError = row.last_error;
  return group;
}

const uniq = (list: readonly string[] | undefined) => [
  ...new Set((list ?? []).map((s) => s.trim()).filter(Boolean)),
];

/** The subscriptions: one per (workspace, channel, account). */
function subscriptionStatements(db: Db) {
  return {
    upsertSub: db.prepare(
      `INSERT INTO alert_subscriptions (id, workspace, channel, account, created_by, codes, exclude_codes, vehicles, min_duration_minutes, stale_minutes, language, watch, created_at)
         VALUES (@id, @workspace, @channel, @account, @created_by, @codes, @exclude_codes, @vehicles, @min, @stale, @language, @watch, @now)
         ON CONFLICT (workspace, channel, account) DO UPDATE SET created_by = excluded.created_by, codes = excluded.codes,
           exclude_codes = excluded.exclude_codes, vehicles = excluded.vehicles, min_duration_minutes = excluded.min_duration_minutes,
           stale_minutes = excluded.stale_minutes, language = excluded.language, watch = excluded.watch`,
    ),
    subByKey: db.prepare(
      "SELECT * FROM alert_subscriptions WHERE workspace = ? AND channel = ? AND account = ?",
    ),
    // Subscriptions are few (one per workspace, channel and account): one statement for every filter.
    subsWhere: db.prepare(
      `SELECT * FROM alert_subscriptions
         WHERE (@account IS NULL OR account = @account) AND (@channel IS NULL OR channel = @channel)
           AND (@workspace IS NULL OR workspace = @workspace)
         ORDER BY created_at, rowid`,
    ),
    deleteSub: db.prepare(
      "DELETE FROM alert_subscriptions WHERE workspace = ? AND channel = ? AND account = ?",
    ),
    deleteSubsOfChannel: db.prepare("DELETE FROM alert_subscriptions WHERE workspace = ? AND channel = ?"),
    accounts: db.prepare("SELECT DISTINCT account FROM alert_subscriptions ORDER BY account"),
  };
}

/** The incidents of a fleet account and their changes. */
function incidentStatements(db: Db) {
  return {
    incident: db.prepare("SELECT * FROM alert_incidents WHERE id = ?"),
    activeOfAccount: db.prepare(
      "SELECT * FROM alert_incidents WHERE account = ? AND state IN ('pending','open') ORDER BY first_seen_at, rowid",
    ),
    openAll: db.prepare("SELECT * FROM alert_incidents WHERE state = 'open' ORDER BY first_seen_at, rowid"),
    incidentsOfAccount: db.prepare(
      "SELECT * FROM alert_incidents WHERE account = ? ORDER BY first_seen_at, rowid",
    ),
    insertIncident: db.prepare(
      `INSERT INTO alert_incidents (id, account, transport_uid, code_uit, kind, code, first_seen_at, opened_at, state, last_seen_at, facts)
         VALUES (@id, @account, @transport_uid, @code_uit, @kind, @code, @at, @opened_at, @state, @at, @facts)`,
    ),
    confirm: db.prepare(
      `UPDATE alert_incidents SET state = 'open', opened_at = @at, last_seen_at = @at, facts = @facts
         WHERE id = @id AND state = 'pending'`,
    ),
    // Facts NULL: the still carries none, the stored ones stay.
    still: db.prepare(
      `UPDATE alert_incidents SET last_seen_at = MAX(last_seen_at, @at), facts = COALESCE(@facts, facts)
         WHERE id = @id AND state IN ('pending','open')`,
    ),
    resolve: db.prepare(
      `UPDATE alert_incidents SET state = 'resolved', resolved_at = @at, resolve_reason = @reason,
           end_evidence_at = @end_evidence_at
         WHERE id = @id AND state IN ('pending','open')`,
    ),
  };
}

/** The posts of an incident, one per (incident, workspace, channel). */
function postStatements(db: Db) {
  return {
    post: db.prepare("SELECT * FROM alert_posts WHERE incident_id = ? AND workspace = ? AND channel = ?"),
    postedFor: db.prepare(
      `SELECT 1 FROM alert_posts p JOIN alert_incidents i ON i.id = p.incident_id
         WHERE p.workspace = ? AND p.channel = ? AND i.code_uit = ? AND i.account = ? LIMIT 1`,
    ),
    postsOf: db.prepare("SELECT * FROM alert_posts WHERE incident_id = ? ORDER BY workspace, channel"),
    unresolvedPosts: db.prepare(
      `SELECT p.* FROM alert_posts p JOIN alert_incidents i ON i.id = p.incident_id
         WHERE i.account = ? AND i.state = 'resolved' AND p.resolved_posted_at IS NULL
         ORDER BY i.resolved_at, p.rowid`,
    ),
    ensurePost: db.prepare(
      `INSERT INTO alert_posts (incident_id, workspace, channel) VALUES (?, ?, ?)
         ON CONFLICT (incident_id, workspace, channel) DO NOTHING`,
    ),
    posted: db.prepare(
      `UPDATE alert_posts SET ts = @ts, posted_at = @at, attempts = attempts + 1, last_error = NULL, muted_until = NULL
         WHERE incident_id = @incident_id AND workspace = @workspace AND channel = @channel AND ts IS NULL`,
    ),
    failed: db.prepare(
      `UPDATE alert_posts SET attempts = attempts + 1, last_error = @error
         WHERE incident_id = @incident_id AND workspace = @workspace AND channel = @channel`,
    ),
    muted: db.prepare(
      `UPDATE alert_posts SET muted_until = @until
         WHERE incident_id = @incident_id AND workspace = @workspace AND channel = @channel`,
    ),
    resolvedUpdated: db.prepare(
      `UPDATE alert_posts SET resolved_updated_at = @at, last_error = NULL
         WHERE incident_id = @incident_id AND workspace = @workspace AND channel = @channel`,
    ),
    replied: db.prepare(
      `UPDATE alert_posts SET reply_ts = @ts, last_error = NULL
         WHERE incident_id = @incident_id AND workspace = @workspace AND channel = @channel AND reply_ts IS NULL`,
    ),
    resolutionDone: db.prepare(
      `UPDATE alert_posts SET resolved_posted_at = @at
         WHERE incident_id = @incident_id AND workspace = @workspace AND channel = @channel`,
    ),
    lastErrors: db.prepare(
      `SELECT p.last_error, p.attempts, i.code_uit FROM alert_posts p JOIN alert_incidents i ON i.id = p.incident_id
         WHERE p.last_error IS NOT NULL AND p.workspace = ? AND p.channel = ? ORDER BY p.rowid DESC LIMIT 1`,
    ),
  };
}

/** Grouped alerts and the posts that join them. */
function groupStatements(db: Db) {
  return {
    insertGroup: db.prepare(
      `INSERT INTO alert_groups (id, account, workspace, channel, created_at)
         VALUES (@id, @account, @workspace, @channel, @at)`,
    ),
    group: db.prepare("SELECT * FROM alert_groups WHERE id = ?"),
    joinGroup: db.prepare(
      `UPDATE alert_posts SET group_id = @group_id
         WHERE incident_id = @incident_id AND workspace = @workspace AND channel = @channel
           AND ts IS NULL AND group_id IS NULL`,
    ),
    groupMembers: db.prepare(`SELECT p.* FROM alert_posts p WHERE p.group_id = ? ORDER BY p.rowid`),
    groupPosted: db.prepare(
      `UPDATE alert_groups SET ts = @ts, posted_at = @at, shown = @shown, attempts = attempts + 1, last_error = NULL
         WHERE id = @id AND ts IS NULL`,
    ),
    groupShown: db.prepare("UPDATE alert_groups SET shown = MAX(shown, @shown) WHERE id = @id"),
    groupFailed: db.prepare(
      "UPDATE alert_groups SET attempts = attempts + 1, last_error = @error WHERE id = @id",
    ),
    groupResolved: db.prepare(
      "UPDATE alert_groups SET resolved_at = @at WHERE id = @id AND resolved_at IS NULL",
    ),
  };
}

/** The mutes, one per (workspace, channel, UIT). */
function muteStatements(db: Db) {
  return {
    mute: db.prepare(
      `INSERT INTO alert_mutes (workspace, channel, code_uit, until) VALUES (@workspace, @channel, @code_uit, @until)
         ON CONFLICT (workspace, channel, code_uit) DO UPDATE SET until = excluded.until`,
    ),
    unmute: db.prepare("DELETE FROM alert_mutes WHERE workspace = ? AND channel = ? AND code_uit = ?"),
    muteOf: db.prepare("SELECT until FROM alert_mutes WHERE workspace = ? AND channel = ? AND code_uit = ?"),
  };
}

/** Each account's last complete sweep, and its vehicle watch's memory. */
function listedStatements(db: Db) {
  return {
    watchState: db.prepare("SELECT state FROM alert_watch_state WHERE account = ?"),
    replaceWatchState: db.prepare(
      `INSERT INTO alert_watch_state (account, state) VALUES (?, ?)
         ON CONFLICT (account) DO UPDATE SET state = excluded.state`,
    ),
    clearWatchState: db.prepare("DELETE FROM alert_watch_state WHERE account = ?"),
    listed: db.prepare("SELECT facts FROM alert_listed WHERE account = ? ORDER BY rowid"),
    clearListed: db.prepare("DELETE FROM alert_listed WHERE account = ?"),
    addListed: db.prepare(
      "INSERT OR REPLACE INTO alert_listed (account, transport_uid, facts) VALUES (?, ?, ?)",
    ),
  };
}

/** Retention: mutes past their time, resolved incidents with nothing owed, empty groups. */
function purgeStatements(db: Db) {
  return {
    purgeMutes: db.prepare("DELETE FROM alert_mutes WHERE until <= ?"),
    purgeIncidents: db.prepare(
      `DELETE FROM alert_incidents WHERE state = 'resolved' AND resolved_at < ?
         AND NOT EXISTS (SELECT 1 FROM alert_posts p WHERE p.incident_id = alert_incidents.id AND p.ts IS NOT NULL AND p.resolved_posted_at IS NULL)`,
    ),
    purgeGroups: db.prepare(
      "DELETE FROM alert_groups WHERE NOT EXISTS (SELECT 1 FROM alert_posts p WHERE p.group_id = alert_groups.id)",
    ),
  };
}

/** deleteWorkspace: the fleet accounts the workspace's rows name, then its rows. */
function workspaceDeletionStatements(db: Db) {
  return {
    accountsOfWorkspace: db.prepare(
      `SELECT account FROM alert_subscriptions WHERE workspace = @workspace
         UNION SELECT i.account FROM alert_posts p JOIN alert_incidents i ON i.id = p.incident_id WHERE p.workspace = @workspace
         UNION SELECT account FROM alert_groups WHERE workspace = @workspace`,
    ),
    deleteSubsOfWorkspace: db.prepare("DELETE FROM alert_subscriptions WHERE workspace = ?"),
    deletePostsOfWorkspace: db.prepare("DELETE FROM alert_posts WHERE workspace = ?"),
    deleteMutesOfWorkspace: db.prepare("DELETE FROM alert_mutes WHERE workspace = ?"),
    // Posts of other workspaces never name these groups (a group and its members share theirs).
    deleteGroupsOfWorkspace: db.prepare("DELETE FROM alert_groups WHERE workspace = ?"),
    isSubscribed: db.prepare("SELECT 1 FROM alert_subscriptions WHERE account = ? LIMIT 1"),
    // Their posts in other workspaces go with them (ON DELETE CASCADE).
    deleteIncidentsOfAccount: db.prepare("DELETE FROM alert_incidents WHERE account = ?"),
  };
}

export class SqliteAlertStore implements Synchronous<AlertRepository> {
  private readonly s;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.s = {
      ...subscriptionStatements(db),
      ...incidentStatements(db),
      ...postStatements(db),
      ...groupStatements(db),
      ...muteStatements(db),
      ...listedStatements(db),
      ...purgeStatements(db),
      ...workspaceDeletionStatements(db),
    };
  }

  // ---------- subscriptions ----------

  /** Creates or replaces the subscription of (workspace, channel, account). `created` says which. */
  upsertSubscription(input: NewAlertSubscription): { subscription: AlertSubscription; created: boolean } {
    const workspace = input.workspace ?? ONLY_WORKSPACE;
    const run = this.db.transaction(() => {
      const existing = this.s.subByKey.get(workspace, input.channel, input.account);
      this.s.upsertSub.run({
        id: randomUUID(),
        workspace,
        channel: input.channel,
        account: input.account,
        created_by: input.createdBy ?? null,
        codes: JSON.stringify(uniq(input.codes)),
        exclude_codes: JSON.stringify(uniq(input.excludeCodes)),
        vehicles: JSON.stringify(uniq(input.vehicles)),
        min: Math.max(0, Math.floor(input.minDurationMinutes ?? 0)),
        stale: Math.max(0, Math.floor(input.staleMinutes ?? DEFAULT_STALE_MINUTES)),
        language: input.language ?? null,
        watch: watchText(input.watch),
        now: this.now(),
      });
      return {
        subscription: toSubscription(this.s.subByKey.get(workspace, input.channel, input.account)),
        created: existing === undefined,
      };
    });
    return run.immediate();
  }

  subscription(
    channel: string,
    account: string,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): AlertSubscription | undefined {
    const row = this.s.subByKey.get(workspace, channel, account);
    return row ? toSubscription(row) : undefined;
  }

  /**
   * All subscriptions, or those of an account, a channel id and/or a workspace, in creation order.
   * Without a workspace, a channel id matches in every workspace (a Slack Connect channel's two).
   */
  subscriptions(
    filter: { account?: string; channel?: string; workspace?: WorkspaceKey } = {},
  ): AlertSubscription[] {
    return this.s.subsWhere
      .all({
        account: filter.account ?? null,
        channel: filter.channel ?? null,
        workspace: filter.workspace ?? null,
      })
      .map(toSubscription);
  }

  /** Removes the channel's subscription of one account, or all of the channel's; returns how many. */
  removeSubscription(channel: string, account?: string, workspace: WorkspaceKey = ONLY_WORKSPACE): number {
    const info =
      account === undefined
        ? this.s.deleteSubsOfChannel.run(workspace, channel)
        : this.s.deleteSub.run(workspace, channel, account);
    return info.changes;
  }

  /** Distinct fleet accounts with at least one subscription, in any workspace (each is swept once). */
  subscribedAccounts(): string[] {
    return (this.s.accounts.all() as { account: string }[]).map((r) => r.account);
  }

  // ---------- incidents ----------

  incident(id: string): IncidentRecord | undefined {
    const row = this.s.incident.get(id);
    return row ? toIncident(row) : undefined;
  }

  /** Pending and open incidents of an account. */
  activeIncidents(account: string): IncidentRecord[] {
    return this.s.activeOfAccount.all(account).map(toIncident);
  }

  /** Every incident of an account, resolved ones included (tests, history). */
  incidents(account: string): IncidentRecord[] {
    return this.s.incidentsOfAccount.all(account).map(toIncident);
  }

  /** Open incidents of every account (digest). */
  openIncidents(): IncidentRecord[] {
    return this.s.openAll.all().map(toIncident);
  }

  /**
   * Stores one sweep's changes in one transaction, in order (resolves come first, so the
   * one-active-incident index holds). Returns the incidents touched, as stored.
   */
  applyChanges(changes: readonly IncidentChange[]): IncidentRecord[] {
    const run = this.db.transaction(() => {
      const touched: string[] = [];
      for (const change of changes) {
        switch (change.type) {
          case "open": {
            const id = randomUUID();
            this.s.insertIncident.run({
              id,
              account: change.account,
              transport_uid: change.transportUId,
              code_uit: change.codeUit,
              kind: change.kind,
              code: change.code,
              at: change.at,
              opened_at: change.state === "open" ? change.at : null,
              state: change.state,
              facts: JSON.stringify(change.facts),
            });
            touched.push(id);
            break;
          }
          case "confirm":
            this.s.confirm.run({ id: change.id, at: change.at, facts: JSON.stringify(change.facts) });
            touched.push(change.id);
            break;
          case "still":
            this.s.still.run({
              id: change.id,
              at: change.at,
              facts: change.facts === undefined ? null : JSON.stringify(change.facts),
            });
            break;
          case "resolve":
            this.s.resolve.run({
              id: change.id,
              at: change.at,
              reason: change.reason,
              end_evidence_at: change.endEvidenceMs ?? null,
            });
            touched.push(change.id);
            break;
        }
      }
      return touched.map((id) => toIncident(this.s.incident.get(id)));
    });
    return run.immediate();
  }

  // ---------- posts ----------

  /** Whether an alert of this account about this UIT was posted (or is due) in the workspace's channel. */
  hasPostFor(
    channel: string,
    codeUit: string,
    account: string,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): boolean {
    return this.s.postedFor.get(workspace, channel, codeUit, account) !== undefined;
  }

  post(incidentId: string, channel: string, workspace: WorkspaceKey = ONLY_WORKSPACE): AlertPost | undefined {
    const row = this.s.post.get(incidentId, workspace, channel);
    return row ? toPost(row) : undefined;
  }

  /** The incident's posts in every workspace, by workspace then channel. */
  posts(incidentId: string): AlertPost[] {
    return this.s.postsOf.all(incidentId).map(toPost);
  }

  /** The post row of (incident, workspace, channel), created empty when missing. */
  ensurePost(incidentId: string, channel: string, workspace: WorkspaceKey = ONLY_WORKSPACE): AlertPost {
    this.s.ensurePost.run(incidentId, workspace, channel);
    return toPost(this.s.post.get(incidentId, workspace, channel));
  }

  /** Posts (of every workspace) of resolved incidents of the account whose resolution is not done yet. */
  unresolvedPosts(account: string): AlertPost[] {
    return this.s.unresolvedPosts.all(account).map(toPost);
  }

  recordPosted(
    incidentId: string,
    channel: string,
    ts: string,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): void {
    this.s.posted.run({ incident_id: incidentId, workspace, channel, ts, at: this.now() });
  }

  recordFailure(
    incidentId: string,
    channel: string,
    error: string,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): void {
    this.s.failed.run({ incident_id: incidentId, workspace, channel, error: error.slice(0, 500) });
  }

  recordMuted(
    incidentId: string,
    channel: string,
    until: number,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): void {
    this.s.muted.run({ incident_id: incidentId, workspace, channel, until });
  }

  recordResolvedUpdate(incidentId: string, channel: string, workspace: WorkspaceKey = ONLY_WORKSPACE): void {
    this.s.resolvedUpdated.run({ incident_id: incidentId, workspace, channel, at: this.now() });
  }

  recordResolvedReply(
    incidentId: string,
    channel: string,
    ts: string,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): void {
    this.s.replied.run({ incident_id: incidentId, workspace, channel, ts });
  }

  /** The resolution of this post is complete (or given up: nothing more will be sent). */
  recordResolutionDone(incidentId: string, channel: string, workspace: WorkspaceKey = ONLY_WORKSPACE): void {
    this.s.resolutionDone.run({ incident_id: incidentId, workspace, channel, at: this.now() });
  }

  /** The workspace's channel's most recent post failure, for `/fleet alerts list`. */
  lastFailure(channel: string, workspace: WorkspaceKey = ONLY_WORKSPACE): AlertPostFailure | undefined {
    const row = this.s.lastErrors.get(workspace, channel) as
      | { last_error: string; attempts: number; code_uit: string }
      | undefined;
    return row ? { codeUit: row.code_uit, error: row.last_error, attempts: row.attempts } : undefined;
  }

  // ---------- grouped alerts ----------

  /**
   * Makes a group of `incidentIds` in the workspace's `channel` (one transaction, before anything
   * is posted): each incident's post row there is created and names the group, unless it was
   * posted or grouped already.
   */
  createGroup(
    account: string,
    channel: string,
    incidentIds: readonly string[],
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): AlertGroup {
    const run = this.db.transaction(() => {
      const id = randomUUID();
      this.s.insertGroup.run({ id, account, workspace, channel, at: this.now() });
      this.attach(id, workspace, channel, incidentIds);
      return toGroup(this.s.group.get(id));
    });
    return run.immediate();
  }

  /** Adds incidents to a group (a later page of the same sweep); same rules as createGroup. */
  addToGroup(groupId: string, incidentIds: readonly string[]): AlertGroup | undefined {
    const run = this.db.transaction(() => {
      const row = this.s.group.get(groupId);
      if (row === undefined) return undefined;
      const group = toGroup(row);
      this.attach(group.id, group.workspace, group.channel, incidentIds);
      return group;
    });
    return run.immediate();
  }

  private attach(
    groupId: string,
    workspace: WorkspaceKey,
    channel: string,
    incidentIds: readonly string[],
  ): void {
    for (const incidentId of incidentIds) {
      this.s.ensurePost.run(incidentId, workspace, channel);
      this.s.joinGroup.run({ group_id: groupId, incident_id: incidentId, workspace, channel });
    }
  }

  group(id: string): AlertGroup | undefined {
    const row = this.s.group.get(id);
    return row ? toGroup(row) : undefined;
  }

  /** A group's members in the order they joined it. */
  groupMembers(groupId: string): AlertGroupMember[] {
    return this.s.groupMembers.all(groupId).map((raw) => {
      const post = toPost(raw);
      return { incident: toIncident(this.s.incident.get(post.incidentId)), post };
    });
  }

  /** The group message was posted, listing `shown` members; a second call changes nothing. */
  recordGroupPosted(groupId: string, ts: string, shown: number): void {
    this.s.groupPosted.run({ id: groupId, ts, at: this.now(), shown });
  }

  /** The group message was edited to list `shown` members. */
  recordGroupShown(groupId: string, shown: number): void {
    this.s.groupShown.run({ id: groupId, shown });
  }

  recordGroupFailure(groupId: string, error: string): void {
    this.s.groupFailed.run({ id: groupId, error: error.slice(0, 500) });
  }

  /** The group message was edited to resolved as a whole. */
  recordGroupResolved(groupId: string): void {
    this.s.groupResolved.run({ id: groupId, at: this.now() });
  }

  // ---------- mutes ----------

  mute(channel: string, codeUit: string, until: number, workspace: WorkspaceKey = ONLY_WORKSPACE): AlertMute {
    this.s.mute.run({ workspace, channel, code_uit: codeUit, until });
    return { workspace, channel, codeUit, until };
  }

  unmute(channel: string, codeUit: string, workspace: WorkspaceKey = ONLY_WORKSPACE): boolean {
    return this.s.unmute.run(workspace, channel, codeUit).changes > 0;
  }

  /** Until when alerts of this UIT are muted in the workspace's channel, if they are at `at`. */
  mutedUntil(
    channel: string,
    codeUit: string,
    at: number = this.now(),
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): number | undefined {
    const row = this.s.muteOf.get(workspace, channel, codeUit) as { until: number } | undefined;
    return row && row.until > at ? row.until : undefined;
  }

  // ---------- the last complete sweep ----------

  /** The transports the account's last complete sweep listed (Pending, In Progress, Paused). */
  listedTransports(account: string): TransportView[] {
    return this.s.listed
      .all(account)
      .map((row) => parseTransportView(JSON.parse(z.object({ facts: z.string() }).parse(row).facts)))
      .filter((t): t is TransportView => t !== undefined);
  }

  /** Replaces that list (after a complete sweep, and its vanished ones checked). */
  replaceListed(account: string, transports: readonly TransportView[]): void {
    const run = this.db.transaction(() => {
      this.s.clearListed.run(account);
      for (const t of transports) this.s.addListed.run(account, t.uId, JSON.stringify(t));
    });
    run.immediate();
  }

  /** The account's vehicle-watch memory (JSON text, kept as written), or undefined. */
  watchState(account: string): string | undefined {
    const row = this.s.watchState.get(account);
    return row === undefined ? undefined : watchStateRow.parse(row).state;
  }

  /** Replaces it (after a sweep that read the vehicles). */
  replaceWatchState(account: string, state: string): void {
    this.s.replaceWatchState.run(account, state);
  }

  /** Drops expired mutes and resolved incidents older than `olderThan` whose posts are all done. */
  purge(olderThan: number): { mutes: number; incidents: number } {
    const run = this.db.transaction(() => {
      const result = {
        mutes: this.s.purgeMutes.run(this.now()).changes,
        incidents: this.s.purgeIncidents.run(olderThan).changes,
      };
      // A group goes with its last member.
      this.s.purgeGroups.run();
      return result;
    });
    return run.immediate();
  }

  // ---------- an uninstalled workspace ----------

  /**
   * Forgets an uninstalled workspace's alerts, in one transaction: its subscriptions, posts,
   * mutes and groups; then the incidents (last-sweep lists and watch memory) of the fleet
   * accounts those named that no subscription of any workspace uses any more. An account another workspace
   * still subscribes to keeps its incidents (they are the account's, not the workspace's).
   * Refuses the single workspace (""); a second call finds nothing.
   */
  deleteWorkspace(workspace: WorkspaceKey): DeletedWorkspaceAlerts {
    assertDeletableWorkspace(workspace);
    const run = this.db.transaction((): DeletedWorkspaceAlerts => {
      const accounts = (this.s.accountsOfWorkspace.all({ workspace }) as { account: string }[]).map(
        (r) => r.account,
      );
      const deleted: DeletedWorkspaceAlerts = {
        subscriptions: this.s.deleteSubsOfWorkspace.run(workspace).changes,
        posts: this.s.deletePostsOfWorkspace.run(workspace).changes,
        mutes: this.s.deleteMutesOfWorkspace.run(workspace).changes,
        groups: this.s.deleteGroupsOfWorkspace.run(workspace).changes,
        incidents: 0,
      };
      for (const account of accounts) {
        if (this.s.isSubscribed.get(account) !== undefined) continue;
        deleted.incidents += this.s.deleteIncidentsOfAccount.run(account).changes;
        this.s.clearListed.run(account);
        this.s.clearWatchState.run(account);
      }
      // Groups of other workspaces whose last member went with those incidents.
      this.s.purgeGroups.run();
      return deleted;
    });
    return run.immediate();
  }
}
