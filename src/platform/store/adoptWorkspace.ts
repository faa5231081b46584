import type { Redis } from "ioredis";
import { z } from "zod";
import { ONLY_WORKSPACE, type WorkspaceKey } from "../workspaces/workspace.js";
import type { Db } from "./database.js";
import { RedisMigrationTarget } from "./migrationTarget.js";
import { decryptSecret, encryptSecret, linkAssociatedData } from "./sealing.js";

/**
 * `npm run migrate -- --adopt-workspace T:<team>`: an operator moving from single- to
 * multi-workspace mode keeps the links. The single workspace's links ("") become the installed
 * workspace's, each password opened and sealed anew under the new link's associated data
 * (linkAssociatedData binds the workspace): moving the row alone would leave it unreadable.
 *
 * - A user who already linked in the target workspace keeps that link; their old one is dropped.
 * - A link this CREDENTIALS_KEY cannot open stays where it was (counted): run again with the
 *   right key, or its user links again.
 * - A second run finds nothing left to move.
 *
 * The single workspace's users' language settings go along (nothing sealed: moved as they are,
 * with their times); a user who already has one in the target workspace keeps it, and the old one
 * is dropped. The single workspace has no stored default (DEFAULT_LANGUAGE is its default), so
 * none moves. SQLite: in the same transaction as the links. Redis: each user's in one script.
 */

export type AdoptTarget = { db: Db } | { redis: Redis; prefix?: string };

export interface AdoptReport {
  from: WorkspaceKey;
  to: WorkspaceKey;
  /** Moved to the target workspace, re-sealed. */
  moved: number;
  /** Dropped: the user had already linked in the target workspace (that link stays). */
  replaced: number;
  /** Left where they were: this key cannot open them. */
  unreadable: number;
  /** Re-linked or unlinked while the adoption ran (Redis: left alone; a second run takes them). */
  changed: number;
  /** Users' language settings moved to the target workspace. */
  settingsMoved: number;
  /** Users' language settings dropped: the user already had one in the target workspace (it stays). */
  settingsKept: number;
}

/** What an installed workspace's key looks like (workspaceKeyOf): T:<team> or E:<enterprise>. */
export const INSTALLED_WORKSPACE = /^[TE]:[A-Z0-9]+$/;

function tryOpen(
  key: Buffer,
  secret: string,
  workspace: WorkspaceKey,
  slackUser: string,
): string | undefined {
  try {
    return decryptSecret(key, secret, linkAssociatedData(workspace, slackUser));
  } catch {
    return undefined;
  }
}

const settingRow = z.object({ slack_user: z.string(), language: z.string(), updated_at: z.number() });

const linkRow = z.object({
  slack_user: z.string(),
  username: z.string(),
  secret: z.string(),
  linked_at: z.number(),
});

/** Re-seals every link of workspace `from` (default: the single workspace) as workspace `to`'s. */
export async function adoptWorkspace(
  target: AdoptTarget,
  key: Buffer,
  from: WorkspaceKey,
  to: WorkspaceKey,
): Promise<AdoptReport> {
  if (!INSTALLED_WORKSPACE.test(to))
    throw new Error(`Not a workspace key: ${JSON.stringify(to)} (expected T:<team id> or E:<enterprise id>)`);
  if (from === to) throw new Error(`The links are already workspace ${to}'s`);
  return "db" in target ? adoptInSqlite(target.db, key, from, to) : await adoptInRedis(target, key, from, to);
}

function adoptInSqlite(db: Db, key: Buffer, from: WorkspaceKey, to: WorkspaceKey): AdoptReport {
  const report: AdoptReport = {
    from,
    to,
    moved: 0,
    replaced: 0,
    unreadable: 0,
    changed: 0,
    settingsMoved: 0,
    settingsKept: 0,
  };
  const rows = db.prepare(
    "SELECT slack_user, username, secret, linked_at FROM linked_accounts WHERE workspace = ? ORDER BY rowid",
  );
  const exists = db.prepare("SELECT 1 FROM linked_accounts WHERE workspace = ? AND slack_user = ?");
  const remove = db.prepare("DELETE FROM linked_accounts WHERE workspace = ? AND slack_user = ?");
  const insert = db.prepare(
    "INSERT INTO linked_accounts (workspace, slack_user, username, secret, linked_at) VALUES (?, ?, ?, ?, ?)",
  );
  const settings = db.prepare(
    "SELECT slack_user, language, updated_at FROM user_settings WHERE workspace = ? ORDER BY rowid",
  );
  const hasSetting = db.prepare("SELECT 1 FROM user_settings WHERE workspace = ? AND slack_user = ?");
  const removeSetting = db.prepare("DELETE FROM user_settings WHERE workspace = ? AND slack_user = ?");
  const insertSetting = db.prepare(
    "INSERT INTO user_settings (workspace, slack_user, language, updated_at) VALUES (?, ?, ?, ?)",
  );
  // One transaction: a crash leaves every link and setting where it was, or every one moved.
  db.transaction(() => {
    for (const raw of rows.all(from)) {
      const row = linkRow.parse(raw);
      const password = tryOpen(key, row.secret, from, row.slack_user);
      if (password === undefined) {
        report.unreadable++;
        continue;
      }
      remove.run(from, row.slack_user);
      if (exists.get(to, row.slack_user) !== undefined) {
        report.replaced++;
        continue;
      }
      const secret = encryptSecret(key, password, linkAssociatedData(to, row.slack_user));
      insert.run(to, row.slack_user, row.username, secret, row.linked_at);
      report.moved++;
    }
    for (const raw of settings.all(from)) {
      const row = settingRow.parse(raw);
      removeSetting.run(from, row.slack_user);
      if (hasSetting.get(to, row.slack_user) !== undefined) {
        report.settingsKept++;
        continue;
      }
      insertSetting.run(to, row.slack_user, row.language, row.updated_at);
      report.settingsMoved++;
    }
  })();
  return report;
}

async function adoptInRedis(
  target: { redis: Redis; prefix?: string },
  key: Buffer,
  from: WorkspaceKey,
  to: WorkspaceKey,
): Promise<AdoptReport> {
  const report: AdoptReport = {
    from,
    to,
    moved: 0,
    replaced: 0,
    unreadable: 0,
    changed: 0,
    settingsMoved: 0,
    settingsKept: 0,
  };
  const prefix = target.prefix !== undefined ? { prefix: target.prefix } : {};
  const redis = new RedisMigrationTarget(target.redis, prefix);
  for (const row of await redis.sealedAccounts()) {
    if (row.workspace !== from) continue;
    const password = tryOpen(key, row.secret, from, row.slackUser);
    if (password === undefined) {
      report.unreadable++;
      continue;
    }
    // Each link moves in one script, only if it is still the one read here.
    const outcome = await redis.moveSealed(
      row,
      to,
      encryptSecret(key, password, linkAssociatedData(to, row.slackUser)),
    );
    if (outcome === "moved") report.moved++;
    else if (outcome === "kept") report.replaced++;
    else report.changed++;
  }
  for (const slackUser of await redis.usersWithSettings(from)) {
    // Each user's setting moves in one script; 'gone': no longer there (another run took it).
    const outcome = await redis.moveUserSetting(from, to, slackUser);
    if (outcome === "moved") report.settingsMoved++;
    else if (outcome === "kept") report.settingsKept++;
  }
  return report;
}

/** The summary line (counts only: no names, no secrets). */
export function formatAdoptReport(report: AdoptReport): string[] {
  const from = report.from === ONLY_WORKSPACE ? "the single workspace" : report.from;
  const lines = [
    `linked accounts: ${report.moved} moved from ${from} to ${report.to} (re-sealed), ` +
      `${report.replaced} dropped (the user had already linked in ${report.to})`,
  ];
  if (report.settingsMoved + report.settingsKept > 0)
    lines.push(
      `language settings: ${report.settingsMoved} moved from ${from} to ${report.to}, ` +
        `${report.settingsKept} dropped (the user already had one in ${report.to})`,
    );
  if (report.changed > 0)
    lines.push(
      `${report.changed} linked account(s) changed while this ran and were left alone: run it again`,
    );
  if (report.unreadable > 0)
    lines.push(
      `warning: ${report.unreadable} linked account(s) do not open with this CREDENTIALS_KEY; ` +
        `they stay in ${from}: run again with the key they were sealed with, or their users must link again`,
    );
  return lines;
}
