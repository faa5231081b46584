import { accessSync, constants, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";

export type Db = Database.Database;

/**
 * The embedded store: one SQLite file in DATA_DIR. Schema changes are numbered migrations,
 * applied in order inside a transaction; `user_version` records the last one applied.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: durable tasks and the journal that makes mutations idempotent across crashes.
  `CREATE TABLE tasks (
     id TEXT PRIMARY KEY,
     kind TEXT NOT NULL,
     params TEXT NOT NULL,
     account TEXT NOT NULL,
     slack_user TEXT,
     reply TEXT NOT NULL,
     priority TEXT NOT NULL,
     state TEXT NOT NULL CHECK (state IN ('queued','running','done','failed','cancelled')),
     dedupe_key TEXT,
     progress_done INTEGER NOT NULL DEFAULT 0,
     progress_total INTEGER NOT NULL DEFAULT 0,
     result TEXT,
     error TEXT,
     attempts INTEGER NOT NULL DEFAULT 0,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     finished_at INTEGER,
     delivered_at INTEGER
   );
   CREATE INDEX tasks_undelivered ON tasks (state) WHERE delivered_at IS NULL AND state IN ('done','failed','cancelled');
   CREATE INDEX tasks_unfinished ON tasks (state) WHERE state IN ('queued','running');
   CREATE INDEX tasks_account ON tasks (account, state);
   CREATE UNIQUE INDEX tasks_pending_dedupe ON tasks (dedupe_key)
     WHERE dedupe_key IS NOT NULL AND state IN ('queued','running');
   CREATE TABLE task_steps (
     task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
     step TEXT NOT NULL,
     state TEXT NOT NULL CHECK (state IN ('sending','done')),
     result TEXT,
     updated_at INTEGER NOT NULL,
     PRIMARY KEY (task_id, step)
   );`,
  // 2: fleet accounts linked by Slack users (password encrypted with CREDENTIALS_KEY).
  `CREATE TABLE linked_accounts (
     slack_user TEXT PRIMARY KEY,
     username TEXT NOT NULL,
     secret TEXT NOT NULL,
     linked_at INTEGER NOT NULL
   );`,
  // 3: transport alerts: channel subscriptions, incidents (one active per transport and kind),
  // their posts per channel (retried until done) and mutes.
  `CREATE TABLE alert_subscriptions (
     id TEXT PRIMARY KEY,
     channel TEXT NOT NULL,
     account TEXT NOT NULL,
     created_by TEXT,
     codes TEXT NOT NULL DEFAULT '[]',
     exclude_codes TEXT NOT NULL DEFAULT '[]',
     vehicles TEXT NOT NULL DEFAULT '[]',
     min_duration_minutes INTEGER NOT NULL DEFAULT 0 CHECK (min_duration_minutes >= 0),
     created_at INTEGER NOT NULL,
     UNIQUE (channel, account)
   );
   CREATE INDEX alert_subscriptions_account ON alert_subscriptions (account);
   CREATE TABLE alert_incidents (
     id TEXT PRIMARY KEY,
     account TEXT NOT NULL,
     transport_uid TEXT NOT NULL,
     code_uit TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('transmission','changerequest','expiry','notstarted')),
     code TEXT NOT NULL,
     first_seen_at INTEGER NOT NULL,
     opened_at INTEGER,
     resolved_at INTEGER,
     resolve_reason TEXT,
     state TEXT NOT NULL CHECK (state IN ('pending','open','resolved')),
     last_seen_at INTEGER NOT NULL,
     facts TEXT NOT NULL
   );
   CREATE UNIQUE INDEX alert_incidents_one_active ON alert_incidents (account, transport_uid, kind)
     WHERE state IN ('pending','open');
   CREATE INDEX alert_incidents_account ON alert_incidents (account, state);
   CREATE TABLE alert_posts (
     incident_id TEXT NOT NULL REFERENCES alert_incidents(id) ON DELETE CASCADE,
     channel TEXT NOT NULL,
     ts TEXT,
     posted_at INTEGER,
     resolved_updated_at INTEGER,
     reply_ts TEXT,
     resolved_posted_at INTEGER,
     attempts INTEGER NOT NULL DEFAULT 0,
     last_error TEXT,
     muted_until INTEGER,
     PRIMARY KEY (incident_id, channel)
   );
   CREATE TABLE alert_mutes (
     channel TEXT NOT NULL,
     code_uit TEXT NOT NULL,
     until INTEGER NOT NULL,
     PRIMARY KEY (channel, code_uit)
   );`,
  // 4: per-call limits the fleet service revealed by refusing (fleet-api.md leaves them open),
  // per service base URL and endpoint; NULL: none learned for that dimension.
  `CREATE TABLE learned_limits (
     service TEXT NOT NULL,
     endpoint TEXT NOT NULL,
     max_vehicles INTEGER CHECK (max_vehicles IS NULL OR max_vehicles >= 1),
     max_days REAL CHECK (max_days IS NULL OR max_days > 0),
     learned_at INTEGER NOT NULL,
     PRIMARY KEY (service, endpoint)
   );`,
  // 5: the audit trail of transport changes, kept AUDIT_RETENTION_DAYS (not tied to the tasks,
  // which go after TASK_RETENTION_DAYS). One account's history of a UIT is one index range.
  `CREATE TABLE audit_log (
     id TEXT PRIMARY KEY,
     at INTEGER NOT NULL,
     account TEXT NOT NULL,
     slack_user TEXT,
     uit TEXT NOT NULL,
     action TEXT NOT NULL CHECK (action IN ('create','update','start','pause','end','remove')),
     outcome TEXT NOT NULL CHECK (outcome IN ('success','failure','unknown')),
     code TEXT,
     message TEXT,
     task_id TEXT
   );
   CREATE INDEX audit_log_uit ON audit_log (account, uit, at);
   CREATE INDEX audit_log_at ON audit_log (at);`,
  // 6: grouped alerts: a storm of incidents in one channel is one message (the group), each
  // member's post row names it and its ts is the member's thread reply. `shown`: how many
  // members the group message listed when Slack last accepted it.
  `CREATE TABLE alert_groups (
     id TEXT PRIMARY KEY,
     account TEXT NOT NULL,
     channel TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     ts TEXT,
     posted_at INTEGER,
     shown INTEGER NOT NULL DEFAULT 0,
     resolved_at INTEGER,
     attempts INTEGER NOT NULL DEFAULT 0,
     last_error TEXT
   );
   ALTER TABLE alert_posts ADD COLUMN group_id TEXT REFERENCES alert_groups(id);
   CREATE INDEX alert_posts_group ON alert_posts (group_id) WHERE group_id IS NOT NULL;`,
  // 7: two incident kinds (vanished: no longer listed and not completed, maybe in Error, which
  // load-transports hides; stalled: no position sent for the subscription's stale= minutes).
  // SQLite cannot change a CHECK in place: the table is rebuilt (foreign keys are off while
  // migrations run, so alert_posts keeps its rows). The transports each account's last complete
  // sweep listed, to tell which ones vanished. Subscriptions gain stale= (default 30).
  `CREATE TABLE alert_incidents_v7 (
     id TEXT PRIMARY KEY,
     account TEXT NOT NULL,
     transport_uid TEXT NOT NULL,
     code_uit TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('transmission','changerequest','expiry','notstarted','vanished','stalled')),
     code TEXT NOT NULL,
     first_seen_at INTEGER NOT NULL,
     opened_at INTEGER,
     resolved_at INTEGER,
     resolve_reason TEXT,
     state TEXT NOT NULL CHECK (state IN ('pending','open','resolved')),
     last_seen_at INTEGER NOT NULL,
     facts TEXT NOT NULL
   );
   INSERT INTO alert_incidents_v7 (id, account, transport_uid, code_uit, kind, code, first_seen_at,
       opened_at, resolved_at, resolve_reason, state, last_seen_at, facts)
     SELECT id, account, transport_uid, code_uit, kind, code, first_seen_at, opened_at, resolved_at,
       resolve_reason, state, last_seen_at, facts FROM alert_incidents;
   DROP TABLE alert_incidents;
   ALTER TABLE alert_incidents_v7 RENAME TO alert_incidents;
   CREATE UNIQUE INDEX alert_incidents_one_active ON alert_incidents (account, transport_uid, kind)
     WHERE state IN ('pending','open');
   CREATE INDEX alert_incidents_account ON alert_incidents (account, state);
   ALTER TABLE alert_subscriptions ADD COLUMN stale_minutes INTEGER NOT NULL DEFAULT 30 CHECK (stale_minutes >= 0);
   CREATE TABLE alert_listed (
     account TEXT NOT NULL,
     transport_uid TEXT NOT NULL,
     facts TEXT NOT NULL,
     PRIMARY KEY (account, transport_uid)
   );`,
  // 8: the service's own date for a fault's end, read at resolution (alerts/duration.ts faultEnd).
  "ALTER TABLE alert_incidents ADD COLUMN end_evidence_at INTEGER;",
  // 9: Slack installations (multi-workspace mode), keyed E:<enterprise> (org-wide) or T:<team>;
  // tokens sealed with CREDENTIALS_KEY (store/installationSealing.ts).
  `CREATE TABLE slack_installations (
     key TEXT PRIMARY KEY,
     team_id TEXT,
     enterprise_id TEXT,
     is_enterprise_install INTEGER NOT NULL CHECK (is_enterprise_install IN (0, 1)),
     body TEXT NOT NULL,
     secrets TEXT NOT NULL,
     installed_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   );`,
  // 10: tasks belong to a workspace ('' = single-workspace mode; T:<team> or E:<enterprise>).
  `ALTER TABLE tasks ADD COLUMN workspace TEXT NOT NULL DEFAULT '';
   CREATE INDEX tasks_workspace ON tasks (workspace);
   DROP INDEX tasks_pending_dedupe;
   CREATE UNIQUE INDEX tasks_pending_dedupe ON tasks (workspace, dedupe_key)
     WHERE dedupe_key IS NOT NULL AND state IN ('queued','running');`,
  // 11: alert subscriptions, posts, mutes and groups belong to a workspace.
  // A channel id names nothing outside its workspace (a Slack Connect channel has one id in
  // two): subscriptions are unique by (workspace, channel, account), posts by (incident,
  // workspace, channel), mutes by (workspace, channel, UIT). SQLite cannot change a PK or
  // UNIQUE in place: those three tables are rebuilt, rows kept with their rowids (the order of
  // posts and failures) in workspace ''. Groups only gain the column. Incidents stay per fleet
  // account, shared by the workspaces that subscribe to it.
  `CREATE TABLE alert_subscriptions_v11 (
     id TEXT PRIMARY KEY,
     workspace TEXT NOT NULL DEFAULT '',
     channel TEXT NOT NULL,
     account TEXT NOT NULL,
     created_by TEXT,
     codes TEXT NOT NULL DEFAULT '[]',
     exclude_codes TEXT NOT NULL DEFAULT '[]',
     vehicles TEXT NOT NULL DEFAULT '[]',
     min_duration_minutes INTEGER NOT NULL DEFAULT 0 CHECK (min_duration_minutes >= 0),
     created_at INTEGER NOT NULL,
     stale_minutes INTEGER NOT NULL DEFAULT 30 CHECK (stale_minutes >= 0),
     UNIQUE (workspace, channel, account)
   );
   INSERT INTO alert_subscriptions_v11 (rowid, id, workspace, channel, account, created_by, codes,
       exclude_codes, vehicles, min_duration_minutes, created_at, stale_minutes)
     SELECT rowid, id, '', channel, account, created_by, codes, exclude_codes, vehicles,
       min_duration_minutes, created_at, stale_minutes FROM alert_subscriptions;
   DROP TABLE alert_subscriptions;
   ALTER TABLE alert_subscriptions_v11 RENAME TO alert_subscriptions;
   CREATE INDEX alert_subscriptions_account ON alert_subscriptions (account);
   ALTER TABLE alert_groups ADD COLUMN workspace TEXT NOT NULL DEFAULT '';
   CREATE INDEX alert_groups_workspace ON alert_groups (workspace);
   CREATE TABLE alert_posts_v11 (
     incident_id TEXT NOT NULL REFERENCES alert_incidents(id) ON DELETE CASCADE,
     workspace TEXT NOT NULL DEFAULT '',
     channel TEXT NOT NULL,
     ts TEXT,
     posted_at INTEGER,
     resolved_updated_at INTEGER,
     reply_ts TEXT,
     resolved_posted_at INTEGER,
     attempts INTEGER NOT NULL DEFAULT 0,
     last_error TEXT,
     muted_until INTEGER,
     group_id TEXT REFERENCES alert_groups(id),
     PRIMARY KEY (incident_id, workspace, channel)
   );
   INSERT INTO alert_posts_v11 (rowid, incident_id, workspace, channel, ts, posted_at,
       resolved_updated_at, reply_ts, resolved_posted_at, attempts, last_error, muted_until, group_id)
     SELECT rowid, incident_id, '', channel, ts, posted_at, resolved_updated_at, reply_ts,
       resolved_posted_at, attempts, last_error, muted_until, group_id FROM alert_posts;
   DROP TABLE alert_posts;
   ALTER TABLE alert_posts_v11 RENAME TO alert_posts;
   CREATE INDEX alert_posts_group ON alert_posts (group_id) WHERE group_id IS NOT NULL;
   CREATE INDEX alert_posts_channel ON alert_posts (workspace, channel);
   CREATE TABLE alert_mutes_v11 (
     workspace TEXT NOT NULL DEFAULT '',
     channel TEXT NOT NULL,
     code_uit TEXT NOT NULL,
     until INTEGER NOT NULL,
     PRIMARY KEY (workspace, channel, code_uit)
   );
   INSERT INTO alert_mutes_v11 (rowid, workspace, channel, code_uit, until)
     SELECT rowid, '', channel, code_uit, until FROM alert_mutes;
   DROP TABLE alert_mutes;
   ALTER TABLE alert_mutes_v11 RENAME TO alert_mutes;`,
  // 12: linked accounts are keyed by (workspace, Slack user).
  // Rebuilt (SQLite cannot change a primary key in place); every existing row is the single
  // workspace's (''), whose passwords stay sealed as they were (sealing.ts linkAssociatedData).
  `CREATE TABLE linked_accounts_v12 (
     workspace TEXT NOT NULL DEFAULT '',
     slack_user TEXT NOT NULL,
     username TEXT NOT NULL,
     secret TEXT NOT NULL,
     linked_at INTEGER NOT NULL,
     PRIMARY KEY (workspace, slack_user)
   );
   INSERT INTO linked_accounts_v12 (workspace, slack_user, username, secret, linked_at)
     SELECT '', slack_user, username, secret, linked_at FROM linked_accounts ORDER BY rowid;
   DROP TABLE linked_accounts;
   ALTER TABLE linked_accounts_v12 RENAME TO linked_accounts;
   CREATE INDEX linked_accounts_username ON linked_accounts (username);`,
  // 13: settings (settingsStore.ts): each user's language per (workspace, Slack user), and an
  // installed workspace's default language (the single workspace's is DEFAULT_LANGUAGE).
  `CREATE TABLE user_settings (
     workspace TEXT NOT NULL,
     slack_user TEXT NOT NULL,
     language TEXT NOT NULL CHECK (language IN ('en','ro')),
     updated_at INTEGER NOT NULL,
     PRIMARY KEY (workspace, slack_user)
   );
   CREATE TABLE workspace_settings (
     workspace TEXT PRIMARY KEY,
     language TEXT NOT NULL CHECK (language IN ('en','ro')),
     updated_at INTEGER NOT NULL
   );`,
  // 14: an alert subscription's language (`lang=` of `/fleet alerts subscribe`); NULL: the
  // workspace default when the alert is rendered.
  "ALTER TABLE alert_subscriptions ADD COLUMN language TEXT CHECK (language IN ('en','ro'))",
  // 15: who installed fleetbot first (installed_at already says when), and the last OAuth
  // authorization (a re-run of "Add to Slack"): when and by whom. A re-authorization replaces the
  // tokens and grants nothing; rows from before hold their one install as both.
  `ALTER TABLE slack_installations ADD COLUMN installed_by TEXT;
   ALTER TABLE slack_installations ADD COLUMN authorized_at INTEGER;
   ALTER TABLE slack_installations ADD COLUMN authorized_by TEXT;
   UPDATE slack_installations SET installed_by = json_extract(body, '$.user.id'),
     authorized_by = json_extract(body, '$.user.id'), authorized_at = installed_at;`,
  // 16: vehicle watch (opt-in alerts about the vehicles themselves). Incidents gain the vehicle
  // kinds: the CHECK is rebuilt as in 7, rows kept with their rowids (the order of incidents
  // first seen together) and alert_posts' references with them (foreign keys are off while
  // migrations run, and checked before the version is written). Subscriptions keep their
  // thresholds as typed (JSON; '{}': each kind's default); each account keeps the watch's memory
  // between sweeps (JSON the alerts feature writes, forgotten with the account's incidents); each
  // workspace keeps its named zones, unique by folded name.
  `CREATE TABLE alert_incidents_v16 (
     id TEXT PRIMARY KEY,
     account TEXT NOT NULL,
     transport_uid TEXT NOT NULL,
     code_uit TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('transmission','changerequest','expiry','notstarted','vanished','stalled',
       'powercut','zone','idle','speeding','offline','towed','afterhours','temperature')),
     code TEXT NOT NULL,
     first_seen_at INTEGER NOT NULL,
     opened_at INTEGER,
     resolved_at INTEGER,
     resolve_reason TEXT,
     state TEXT NOT NULL CHECK (state IN ('pending','open','resolved')),
     last_seen_at INTEGER NOT NULL,
     facts TEXT NOT NULL,
     end_evidence_at INTEGER
   );
   INSERT INTO alert_incidents_v16 (rowid, id, account, transport_uid, code_uit, kind, code, first_seen_at,
       opened_at, resolved_at, resolve_reason, state, last_seen_at, facts, end_evidence_at)
     SELECT rowid, id, account, transport_uid, code_uit, kind, code, first_seen_at, opened_at, resolved_at,
       resolve_reason, state, last_seen_at, facts, end_evidence_at FROM alert_incidents;
   DROP TABLE alert_incidents;
   ALTER TABLE alert_incidents_v16 RENAME TO alert_incidents;
   CREATE UNIQUE INDEX alert_incidents_one_active ON alert_incidents (account, transport_uid, kind)
     WHERE state IN ('pending','open');
   CREATE INDEX alert_incidents_account ON alert_incidents (account, state);
   ALTER TABLE alert_subscriptions ADD COLUMN watch TEXT NOT NULL DEFAULT '{}';
   CREATE TABLE alert_watch_state (
     account TEXT PRIMARY KEY,
     state TEXT NOT NULL
   );
   CREATE TABLE zones (
     workspace TEXT NOT NULL,
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     name_key TEXT NOT NULL,
     latitude REAL NOT NULL,
     longitude REAL NOT NULL,
     radius_meters REAL NOT NULL,
     created_by TEXT,
     created_at INTEGER NOT NULL,
     UNIQUE (workspace, name_key)
   );`,
  // 17: scheduled reports (scheduleStore.ts, contract/schedules.ts): a report command posted into
  // a channel on a recurrence (JSON as the contract types it). The short id people type is unique
  // in its workspace; each run is claimed by moving next_run_at with a compare-and-set, and the
  // due sweep reads the active ones by next_run_at. Pause reasons and outcomes are checked when
  // read, not by a CHECK, so a new one needs no rebuild.
  `CREATE TABLE report_schedules (
     workspace TEXT NOT NULL,
     id TEXT NOT NULL,
     channel TEXT NOT NULL,
     created_by TEXT NOT NULL,
     command TEXT NOT NULL,
     recurrence TEXT NOT NULL,
     time_zone TEXT NOT NULL,
     language TEXT CHECK (language IN ('en','ro')),
     state TEXT NOT NULL CHECK (state IN ('active','paused')),
     paused_because TEXT,
     next_run_at INTEGER NOT NULL,
     last_run_at INTEGER,
     last_run_made_at INTEGER,
     last_task_id TEXT,
     last_outcome TEXT,
     failures_in_row INTEGER NOT NULL DEFAULT 0 CHECK (failures_in_row >= 0),
     created_at INTEGER NOT NULL,
     PRIMARY KEY (workspace, id)
   );
   CREATE INDEX report_schedules_due ON report_schedules (next_run_at, workspace, id) WHERE state = 'active';
   CREATE INDEX report_schedules_created ON report_schedules (workspace, created_at);`,
  // 18: how many runs were skipped since the last one made, so that the next post says
  // them all, not "one" (a schedule whose last outcome was a skip counted at least one).
  `ALTER TABLE report_schedules ADD COLUMN skipped_runs INTEGER NOT NULL DEFAULT 0 CHECK (skipped_runs >= 0);
   UPDATE report_schedules SET skipped_runs = 1 WHERE last_outcome = 'skipped';`,
];

export class StoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StoreError";
  }
}

export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * A read-only DATA_DIR (or store file) is said as such: the corrupt-store message would send an
 * operator to move a perfectly good file away.
 */
function assertWritable(dataDir: string, path: string): void {
  for (const target of existsSync(path) ? [dataDir, path] : [dataDir]) {
    try {
      accessSync(target, constants.W_OK);
    } catch (cause) {
      const code = (cause as NodeJS.ErrnoException).code;
      throw new StoreError(
        `DATA_DIR ${dataDir} is read-only (${code ?? "not writable"}${target === path ? ` for ${path}` : ""}): ` +
          "fleetbot keeps its queue there and must write to it. Mount it read-write, or point DATA_DIR elsewhere.",
        { cause },
      );
    }
  }
}

/**
 * Opens (creating if needed) the store and brings its schema up to date. A file that is
 * not a database, fails its integrity check, or comes from a newer fleetbot stops the
 * start with a clear message: better to refuse than to lose tasks silently.
 */
export function openDatabase(dataDir: string, fileName = "fleetbot.sqlite"): Db {
  const path = dataDir === ":memory:" ? ":memory:" : join(dataDir, fileName);
  if (path !== ":memory:") {
    try {
      mkdirSync(dataDir, { recursive: true });
    } catch (cause) {
      throw new StoreError(`Cannot create DATA_DIR ${dataDir}: ${(cause as Error).message}`, { cause });
    }
  }
  if (path !== ":memory:") assertWritable(dataDir, path);
  let db: Db;
  try {
    db = new Database(path);
    db.pragma("journal_mode = WAL");
    // WAL + NORMAL survives a killed process (only a power loss can drop the last commits).
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    db.pragma("busy_timeout = 5000");
    const check = db.pragma("quick_check", { simple: true });
    if (check !== "ok") throw new Error(String(check));
  } catch (cause) {
    throw new StoreError(
      `The store at ${path} is unreadable or corrupt (${(cause as Error).message}). ` +
        "fleetbot stopped instead of starting empty: restore it from a backup, or move it away to start afresh.",
      { cause },
    );
  }
  migrate(db, path);
  return db;
}

function migrate(db: Db, path: string): void {
  const current = Number(db.pragma("user_version", { simple: true }));
  if (current > MIGRATIONS.length) {
    db.close();
    throw new StoreError(
      `The store at ${path} has schema version ${current}, newer than this fleetbot knows (${MIGRATIONS.length}). ` +
        "Run the newer fleetbot, or restore a matching backup.",
    );
  }
  if (current === MIGRATIONS.length) return;
  // Off while tables are rebuilt (SQLite's own recipe for changing a table): a DROP would
  // otherwise cascade to the rows that refer to it. Checked before it is turned on again.
  db.pragma("foreign_keys = OFF");
  try {
    for (let version = current; version < MIGRATIONS.length; version++) {
      const apply = db.transaction(() => {
        db.exec(MIGRATIONS[version]!);
        const broken = db.pragma("foreign_key_check") as unknown[];
        if (broken.length > 0) throw new Error(`migration ${version + 1} broke ${broken.length} references`);
        db.pragma(`user_version = ${version + 1}`);
      });
      apply();
    }
  } finally {
    db.pragma("foreign_keys = ON");
  }
}
