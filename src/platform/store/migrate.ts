import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Redis } from "ioredis";
import { z } from "zod";
import { LANGUAGES } from "../../i18n/language.js";
import type { TaskRecord } from "../tasks/task.js";
import { SqliteAlertStore } from "./alertStore.js";
import { SqliteAuditStore } from "./auditStore.js";
import type { IncidentRecord } from "./contract/incidentRecords.js";
import type {
  AlertGroup,
  AlertMute,
  AlertPost,
  AlertSubscription,
  AuditEntry,
  ReportSchedule,
  Zone,
} from "./contract/index.js";
import type { TransportView } from "./contract/transportView.js";
import { type Db, openDatabase, StoreError } from "./database.js";
import { isReadable, type SealedInstallation } from "./installationSealing.js";
import { readSealedInstallations } from "./installationStore.js";
import {
  type LearnedLimitRecord,
  RedisMigrationTarget,
  type SettingRecord,
  type StepRecord,
} from "./migrationTarget.js";
import type { SealedAccount } from "./redis/accountStore.js";
import { RedisAuditStore } from "./redis/auditStore.js";
import { DEFAULT_PREFIX } from "./redis/lua.js";
import { readSchedules } from "./scheduleStore.js";
import { decryptSecret, linkAssociatedData } from "./sealing.js";
import { SqliteTaskStore } from "./taskStore.js";
import { toZone } from "./zoneStore.js";

/**
 * `npm run migrate -- --to-redis`: copies what a single fleetbot keeps in SQLite into Redis,
 * so a team moves to replicas without anyone linking again and without losing queued work:
 * linked accounts (sealed as they are: no key needed), alert subscriptions, live incidents
 * with their posts, mutes still in force, unfinished tasks with their journal, learned limits,
 * the audit trail of transport changes (all of it: it outlives the tasks that made the changes),
 * and the Slack installations of multi-workspace mode (sealed as they are, like the accounts: both
 * stores seal them the same way, bound to the installation key, so Redis opens them with the same
 * CREDENTIALS_KEY; their line shows only when there are any), and the language settings (each
 * user's, per workspace, and each installed workspace's default; their line shows only when there
 * are any; one already in Redis is the live one and is kept).
 *
 * Also copied, because dropping them would lose something a user sees: resolved incidents whose
 * resolution post is still owed (else the alert stays "open" in Slack for ever; the same rule
 * retention keeps them by), and finished tasks whose answer never went out (a restart
 * re-announces them). Other finished tasks and resolved incidents stay behind. The grouped
 * alerts those incidents' posts belong to, and each account's last complete sweep (which tells
 * the next sweep what vanished), go along; their lines show only when there were any.
 *
 * Vehicle watch goes too: each subscription's thresholds with it, each account's watch memory
 * (one already in Redis is the live one and is kept), and each workspace's zones with their ids
 * (incidents name a zone by its id; a zone of that name already in Redis is kept); their lines
 * show only when there are any.
 *
 * Scheduled reports go with their ids (people type them), state, next run and last outcome; a
 * schedule already in Redis is kept, and one whose id another schedule of its workspace holds
 * there is skipped and counted; their line shows only when there are any.
 *
 * Every row keeps its workspace (subscriptions, posts, mutes, groups, zones).
 *
 * Every record is copied with its id and times, each in one atomic write that does nothing when
 * the record is already in Redis: a second run changes nothing, and says so.
 */

export type MigrationSource = { dataDir: string } | { db: Db };

export interface MigrateOptions {
  source: MigrationSource;
  redis: Redis;
  prefix?: string;
  /** CREDENTIALS_KEY, when known: only to count the accounts and installations it cannot open (nothing is decrypted into Redis). */
  key?: Buffer;
  now?: () => number;
}

export interface KindOutcome {
  /** What was copied, as the summary names it. */
  kind: string;
  copied: number;
  /** Already in Redis: left as it is. */
  present: number;
  /** Not copied, with why (e.g. Redis already has another active incident of that transport and kind). */
  skipped: number;
  skipReason?: string;
  /** Details for the line: parts copied along (posts, journal steps). */
  detail?: string;
}

export interface MigrationReport {
  outcomes: KindOutcome[];
  /** Linked accounts the given key cannot open (counted only when a key is given). */
  unreadableAccounts?: number;
  /** Slack installations the given key cannot open (counted only when a key is given). */
  unreadableInstallations?: number;
}

const accountRow = z.object({
  workspace: z.string(),
  slack_user: z.string(),
  username: z.string(),
  secret: z.string(),
  linked_at: z.number(),
});
const idRow = z.object({ id: z.string() });
const postKeyRow = z.object({ workspace: z.string(), channel: z.string() });
const stepRow = z.object({
  step: z.string(),
  state: z.enum(["sending", "done"]),
  result: z.string().nullable(),
  updated_at: z.number(),
});
const muteRow = z.object({
  workspace: z.string(),
  channel: z.string(),
  code_uit: z.string(),
  until: z.number(),
});
const settingRow = z.object({
  workspace: z.string(),
  slack_user: z.string().nullable(),
  language: z.enum(LANGUAGES),
  updated_at: z.number(),
});
const limitRow = z.object({
  service: z.string(),
  endpoint: z.string(),
  max_vehicles: z.number().nullable(),
  max_days: z.number().nullable(),
  learned_at: z.number(),
});

/** Everything the migration copies, read in one SQLite transaction (one consistent snapshot). */
export interface SqliteSnapshot {
  /** Slack installations (multi-workspace mode), tokens sealed. */
  installations: SealedInstallation[];
  accounts: SealedAccount[];
  /** Language settings: the users' (per workspace), then the installed workspaces' defaults. */
  settings: SettingRecord[];
  subscriptions: AlertSubscription[];
  /** The groups the copied incidents' posts name. */
  groups: AlertGroup[];
  incidents: { incident: IncidentRecord; posts: AlertPost[] }[];
  mutes: AlertMute[];
  /** Each account's last complete sweep. */
  listed: { account: string; transports: TransportView[] }[];
  /** Each account's vehicle-watch memory (JSON text as the alerts feature wrote it). */
  watchStates: { account: string; state: string }[];
  /** Every workspace's zones, by workspace then name key. */
  zones: Zone[];
  tasks: { task: TaskRecord; steps: StepRecord[] }[];
  /** Every scheduled report, each workspace's oldest first. */
  schedules: ReportSchedule[];
  limits: LearnedLimitRecord[];
  audit: AuditEntry[];
}

function readAccounts(db: Db): SealedAccount[] {
  return db
    .prepare("SELECT workspace, slack_user, username, secret, linked_at FROM linked_accounts ORDER BY rowid")
    .all()
    .map((raw) => {
      const row = accountRow.parse(raw);
      return {
        workspace: row.workspace,
        slackUser: row.slack_user,
        username: row.username,
        secret: row.secret,
        linkedAt: row.linked_at,
      };
    });
}

/** The users' settings (per workspace), then the installed workspaces' defaults. */
function readSettings(db: Db): SettingRecord[] {
  return db
    .prepare(
      `SELECT workspace, slack_user, language, updated_at FROM
           (SELECT 0 AS part, rowid AS n, workspace, slack_user, language, updated_at FROM user_settings
            UNION ALL
            SELECT 1, rowid, workspace, NULL, language, updated_at FROM workspace_settings)
         ORDER BY part, n`,
    )
    .all()
    .map((raw): SettingRecord => {
      const row = settingRow.parse(raw);
      const record: SettingRecord = {
        workspace: row.workspace,
        language: row.language,
        updatedAt: row.updated_at,
      };
      if (row.slack_user !== null) record.slackUser = row.slack_user;
      return record;
    });
}

/** Live incidents, and resolved ones whose resolution post is still owed, each with its posts. */
function readIncidents(db: Db, alerts: SqliteAlertStore): SqliteSnapshot["incidents"] {
  const liveIncidentIds = db
    .prepare(
      `SELECT id FROM alert_incidents i WHERE state IN ('pending','open')
           OR (state = 'resolved' AND EXISTS (SELECT 1 FROM alert_posts p
                 WHERE p.incident_id = i.id AND p.ts IS NOT NULL AND p.resolved_posted_at IS NULL))
         ORDER BY first_seen_at, rowid`,
    )
    .all()
    .map((raw) => idRow.parse(raw).id);
  const postChannels = db.prepare(
    "SELECT workspace, channel FROM alert_posts WHERE incident_id = ? ORDER BY rowid",
  );
  return liveIncidentIds.flatMap((id) => {
    const incident = alerts.incident(id);
    if (!incident) return [];
    const posts = postChannels
      .all(id)
      .map((raw) => {
        const key = postKeyRow.parse(raw);
        return alerts.post(id, key.channel, key.workspace);
      })
      .filter((post): post is AlertPost => post !== undefined);
    return [{ incident, posts }];
  });
}

/** The groups the incidents' posts name. */
function readGroups(alerts: SqliteAlertStore, incidents: SqliteSnapshot["incidents"]): AlertGroup[] {
  const groupIds = [
    ...new Set(incidents.flatMap(({ posts }) => posts.flatMap((p) => (p.groupId ? [p.groupId] : [])))),
  ];
  return groupIds.flatMap((id) => {
    const group = alerts.group(id);
    return group ? [group] : [];
  });
}

/** Each account's last complete sweep, when it listed anything. */
function readListed(db: Db, alerts: SqliteAlertStore): SqliteSnapshot["listed"] {
  return db
    .prepare("SELECT DISTINCT account FROM alert_listed ORDER BY account")
    .all()
    .map((raw) => {
      const { account } = z.object({ account: z.string() }).parse(raw);
      return { account, transports: alerts.listedTransports(account) };
    })
    .filter((l) => l.transports.length > 0);
}

/** Each account's vehicle-watch memory. */
function readWatchStates(db: Db): SqliteSnapshot["watchStates"] {
  const row = z.object({ account: z.string(), state: z.string() });
  return db
    .prepare("SELECT account, state FROM alert_watch_state ORDER BY account")
    .all()
    .map((raw) => row.parse(raw));
}

function readZones(db: Db): Zone[] {
  return db.prepare("SELECT * FROM zones ORDER BY workspace, name_key").all().map(toZone);
}

/** The mutes still in force at `now`. */
function readMutes(db: Db, now: number): AlertMute[] {
  return db
    .prepare("SELECT workspace, channel, code_uit, until FROM alert_mutes WHERE until > ? ORDER BY rowid")
    .all(now)
    .map((raw): AlertMute => {
      const row = muteRow.parse(raw);
      return { workspace: row.workspace, channel: row.channel, codeUit: row.code_uit, until: row.until };
    });
}

/** Unfinished tasks, and finished ones whose answer never went out, each with its journal. */
function readTasks(db: Db, tasks: SqliteTaskStore): SqliteSnapshot["tasks"] {
  const taskIds = db
    .prepare(
      `SELECT id FROM tasks WHERE state IN ('queued','running')
           OR (delivered_at IS NULL AND state IN ('done','failed','cancelled'))
         ORDER BY rowid`,
    )
    .all()
    .map((raw) => idRow.parse(raw).id);
  const stepsOf = db.prepare(
    "SELECT step, state, result, updated_at FROM task_steps WHERE task_id = ? ORDER BY step",
  );
  return taskIds.flatMap((id) => {
    const task = tasks.get(id);
    if (!task) return [];
    const steps = stepsOf.all(id).map((raw): StepRecord => {
      const row = stepRow.parse(raw);
      return {
        step: row.step,
        state:
          row.state === "sending"
            ? { state: "sending" }
            : { state: "done", result: row.result === null ? undefined : JSON.parse(row.result) },
        updatedAt: row.updated_at,
      };
    });
    return [{ task, steps }];
  });
}

function readLimits(db: Db): LearnedLimitRecord[] {
  return db
    .prepare(
      "SELECT service, endpoint, max_vehicles, max_days, learned_at FROM learned_limits ORDER BY rowid",
    )
    .all()
    .map((raw): LearnedLimitRecord => {
      const row = limitRow.parse(raw);
      const record: LearnedLimitRecord = {
        service: row.service,
        endpoint: row.endpoint,
        learnedAt: row.learned_at,
      };
      if (row.max_vehicles !== null) record.maxVehicles = row.max_vehicles;
      if (row.max_days !== null) record.maxDays = row.max_days;
      return record;
    });
}

export function readSqliteSnapshot(db: Db, now: number): SqliteSnapshot {
  const tasks = new SqliteTaskStore(db);
  const alerts = new SqliteAlertStore(db);
  const read = db.transaction((): SqliteSnapshot => {
    const accounts = readAccounts(db);
    const settings = readSettings(db);
    const incidents = readIncidents(db, alerts);
    const groups = readGroups(alerts, incidents);
    const listed = readListed(db, alerts);
    const watchStates = readWatchStates(db);
    const mutes = readMutes(db, now);
    const taskCopies = readTasks(db, tasks);
    const limits = readLimits(db);
    return {
      installations: readSealedInstallations(db),
      accounts,
      settings,
      subscriptions: alerts.subscriptions(),
      groups,
      incidents,
      mutes,
      listed,
      watchStates,
      zones: readZones(db),
      tasks: taskCopies,
      schedules: readSchedules(db),
      limits,
      audit: new SqliteAuditStore(db).all(),
    };
  });
  return read();
}

function openSource(source: MigrationSource): { db: Db; close: () => void } {
  if ("db" in source) return { db: source.db, close: () => {} };
  const file = join(source.dataDir, "fleetbot.sqlite");
  // openDatabase would create an empty store: a mistyped DATA_DIR must not "migrate" nothing quietly.
  if (!existsSync(file)) {
    throw new StoreError(
      `No fleetbot store at ${file}: set DATA_DIR to the directory the single instance used.`,
    );
  }
  const db = openDatabase(source.dataDir);
  return { db, close: () => db.close() };
}

async function copyEach<T>(
  kind: string,
  items: readonly T[],
  copy: (item: T) => Promise<"copied" | "present" | "conflict">,
  skipReason?: string,
): Promise<KindOutcome> {
  const outcome: KindOutcome = { kind, copied: 0, present: 0, skipped: 0 };
  // One at a time, in the source's order: Redis keeps SQLite's insertion order for equal times.
  for (const item of items) {
    const result = await copy(item);
    if (result === "copied") outcome.copied++;
    else if (result === "present") outcome.present++;
    else outcome.skipped++;
  }
  if (outcome.skipped > 0 && skipReason) outcome.skipReason = skipReason;
  return outcome;
}

const copiedOrPresent = (copied: boolean): "copied" | "present" => (copied ? "copied" : "present");

/** The snapshot of the source store, which is closed again (when opened here) whatever happens. */
function snapshotOf(source: MigrationSource, now: () => number): SqliteSnapshot {
  const { db, close } = openSource(source);
  try {
    return readSqliteSnapshot(db, now());
  } finally {
    close();
  }
}

/** Slack installations, linked accounts and language settings. */
async function copyWorkspaceRecords(
  snapshot: SqliteSnapshot,
  target: RedisMigrationTarget,
): Promise<KindOutcome[]> {
  const outcomes: KindOutcome[] = [];
  // An installation already in Redis (a replica's install, reinstall or token rotation) is the
  // live one: it is kept, whatever its times.
  if (snapshot.installations.length > 0)
    outcomes.push(
      await copyEach("Slack installations", snapshot.installations, async (i) =>
        copiedOrPresent(await target.importInstallation(i)),
      ),
    );
  outcomes.push(
    await copyEach("linked accounts", snapshot.accounts, async (a) =>
      copiedOrPresent(await target.importAccount(a)),
    ),
  );
  // A setting already in Redis (chosen on a replica since) is the live one: it is kept.
  if (snapshot.settings.length > 0)
    outcomes.push(
      await copyEach("language settings", snapshot.settings, async (s) =>
        copiedOrPresent(await target.importSetting(s)),
      ),
    );
  return outcomes;
}

async function copyIncidents(snapshot: SqliteSnapshot, target: RedisMigrationTarget): Promise<KindOutcome> {
  const incidents = await copyEach(
    "incidents",
    snapshot.incidents,
    async ({ incident, posts }) => await target.importIncident(incident, posts),
    "Redis already has another active incident of that transport and kind",
  );
  incidents.detail = `${snapshot.incidents.reduce((n, i) => n + i.posts.length, 0)} posts with them`;
  return incidents;
}

/** Alert subscriptions, groups, incidents with their posts, mutes, last sweeps, watch memory and zones. */
async function copyAlertRecords(
  snapshot: SqliteSnapshot,
  target: RedisMigrationTarget,
): Promise<KindOutcome[]> {
  const outcomes: KindOutcome[] = [];
  outcomes.push(
    await copyEach("alert subscriptions", snapshot.subscriptions, async (s) =>
      copiedOrPresent(await target.importSubscription(s)),
    ),
  );
  // Before the incidents: each copied post that names a group joins it.
  if (snapshot.groups.length > 0)
    outcomes.push(
      await copyEach("alert groups", snapshot.groups, async (g) =>
        copiedOrPresent(await target.importGroup(g)),
      ),
    );
  outcomes.push(await copyIncidents(snapshot, target));
  outcomes.push(
    await copyEach("mutes", snapshot.mutes, async (m) => copiedOrPresent(await target.importMute(m))),
  );
  if (snapshot.listed.length > 0)
    outcomes.push(
      await copyEach("last sweeps", snapshot.listed, async (l) =>
        copiedOrPresent(await target.importListed(l.account, l.transports)),
      ),
    );
  if (snapshot.watchStates.length > 0)
    outcomes.push(
      await copyEach("vehicle watch states", snapshot.watchStates, async (w) =>
        copiedOrPresent(await target.importWatchState(w.account, w.state)),
      ),
    );
  if (snapshot.zones.length > 0)
    outcomes.push(
      await copyEach("zones", snapshot.zones, async (zone) => copiedOrPresent(await target.importZone(zone))),
    );
  return outcomes;
}

async function copyTasks(snapshot: SqliteSnapshot, target: RedisMigrationTarget): Promise<KindOutcome> {
  const taskOutcome = await copyEach("tasks", snapshot.tasks, async ({ task, steps }) =>
    copiedOrPresent(await target.importTask(task, steps)),
  );
  const unfinished = snapshot.tasks.filter((t) => t.task.state === "queued" || t.task.state === "running");
  taskOutcome.detail =
    `${unfinished.length} unfinished, ${snapshot.tasks.length - unfinished.length} finished with the answer not out; ` +
    `${snapshot.tasks.reduce((n, t) => n + t.steps.length, 0)} journal steps`;
  return taskOutcome;
}

/** Tasks with their journal, scheduled reports, learned limits and the audit trail. */
async function copyWorkRecords(
  snapshot: SqliteSnapshot,
  target: RedisMigrationTarget,
  audit: RedisAuditStore,
): Promise<KindOutcome[]> {
  const outcomes: KindOutcome[] = [];
  outcomes.push(await copyTasks(snapshot, target));
  // With their ids (people type them) and next runs: a run is claimed once, on whichever side runs it.
  if (snapshot.schedules.length > 0)
    outcomes.push(
      await copyEach(
        "scheduled reports",
        snapshot.schedules,
        async (s) => await target.importSchedule(s),
        "Redis already has another schedule of that id in its workspace",
      ),
    );
  outcomes.push(
    await copyEach("learned limits", snapshot.limits, async (l) =>
      copiedOrPresent(await target.importLimit(l)),
    ),
  );
  outcomes.push(
    await copyEach("audit entries", snapshot.audit, async (e) =>
      copiedOrPresent((await audit.record([e])) === 1),
    ),
  );
  return outcomes;
}

/** Counts the accounts and installations the key cannot open (nothing is decrypted into Redis). */
function countUnreadable(report: MigrationReport, snapshot: SqliteSnapshot, key: Buffer): void {
  report.unreadableAccounts = snapshot.accounts.filter((a) => {
    try {
      decryptSecret(key, a.secret, linkAssociatedData(a.workspace, a.slackUser));
      return false;
    } catch {
      return true;
    }
  }).length;
  if (snapshot.installations.length > 0)
    report.unreadableInstallations = snapshot.installations.filter((i) => !isReadable(key, i)).length;
}

export async function migrateToRedis(options: MigrateOptions): Promise<MigrationReport> {
  const now = options.now ?? Date.now;
  const storeOptions = { prefix: options.prefix ?? DEFAULT_PREFIX, now };
  const snapshot = snapshotOf(options.source, now);
  // Each record through the migration's own writes (migrationTarget.ts); the audit trail through
  // the repository's record, which already keeps an entry stored twice once.
  const target = new RedisMigrationTarget(options.redis, storeOptions);
  const audit = new RedisAuditStore(options.redis, storeOptions);

  const outcomes: KindOutcome[] = [];
  outcomes.push(...(await copyWorkspaceRecords(snapshot, target)));
  outcomes.push(...(await copyAlertRecords(snapshot, target)));
  outcomes.push(...(await copyWorkRecords(snapshot, target, audit)));

  const report: MigrationReport = { outcomes };
  const key = options.key;
  if (key) countUnreadable(report, snapshot, key);
  return report;
}

/** The summary, one line per kind (counts only: no names, no secrets). */
export function formatMigrationReport(report: MigrationReport): string[] {
  const lines = report.outcomes.map((o) => {
    const parts = [`${o.copied} copied`, `${o.present} already in Redis`];
    if (o.skipped > 0) parts.push(`${o.skipped} skipped (${o.skipReason ?? "not copied"})`);
    return `${o.kind}: ${parts.join(", ")}${o.detail ? ` [${o.detail}]` : ""}`;
  });
  if (report.unreadableAccounts !== undefined && report.unreadableAccounts > 0) {
    lines.push(
      `warning: ${report.unreadableAccounts} linked account(s) do not open with this CREDENTIALS_KEY; ` +
        "they were copied as they are, and their users must link again unless the old key is restored",
    );
  }
  if (report.unreadableInstallations !== undefined && report.unreadableInstallations > 0) {
    lines.push(
      `warning: ${report.unreadableInstallations} Slack installation(s) do not open with this CREDENTIALS_KEY; ` +
        "they were copied as they are, and their workspaces must install fleetbot again unless the old key is restored",
    );
  }
  return lines;
}
