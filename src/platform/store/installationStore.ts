import type { Installation, InstallationQuery } from "@slack/bolt";
import {
  candidateKeys,
  describeQuery,
  exactKey,
  InstallationNotFoundError,
  type InstallationRecord,
  type InstallationRef,
  type InstallationRepository,
  type RotatedBotToken,
} from "./contract/installations.js";
import type { Db } from "./database.js";
import {
  bodyUserOf,
  FetchedMarks,
  isReadable,
  openInstallation,
  recordOf,
  refOf,
  type SealedInstallation,
  sealInstallation,
  withRotatedBotToken,
} from "./installationSealing.js";
import { CredentialsKeyMissingError } from "./sealing.js";

/**
 * Slack installations in SQLite (the contract: contract/installations.ts; the sealed form:
 * installationSealing.ts). One row per installation key; Redis in `redis/installationStore.ts`.
 */

interface Row {
  key: string;
  team_id: string | null;
  enterprise_id: string | null;
  is_enterprise_install: number;
  body: string;
  secrets: string;
  installed_at: number;
  updated_at: number;
  installed_by: string | null;
  authorized_at: number | null;
  authorized_by: string | null;
}

function fromRow(row: Row): SealedInstallation {
  return {
    key: row.key,
    teamId: row.team_id ?? undefined,
    enterpriseId: row.enterprise_id ?? undefined,
    isEnterpriseInstall: row.is_enterprise_install === 1,
    body: row.body,
    secrets: row.secrets,
    installedAt: row.installed_at,
    updatedAt: row.updated_at,
    installedBy: row.installed_by ?? bodyUserOf(row.body),
    authorizedAt: row.authorized_at ?? row.installed_at,
    authorizedBy: row.authorized_by ?? bodyUserOf(row.body),
  };
}

const COLUMNS =
  "key, team_id, enterprise_id, is_enterprise_install, body, secrets, installed_at, updated_at, installed_by, authorized_at, authorized_by";

/** Every installation as stored, tokens still sealed (the migration to Redis copies them as they are, without the key). */
export function readSealedInstallations(db: Db): SealedInstallation[] {
  return (db.prepare(`SELECT ${COLUMNS} FROM slack_installations ORDER BY key`).all() as Row[]).map(fromRow);
}

export class SqliteInstallationStore implements InstallationRepository {
  private readonly statements;
  private readonly marks = new FetchedMarks();

  constructor(
    private readonly db: Db,
    private readonly key: Buffer | undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.statements = {
      upsert: db.prepare(
        // A re-authorization (the key is installed) keeps who installed first, and when.
        `INSERT INTO slack_installations (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET team_id = excluded.team_id, enterprise_id = excluded.enterprise_id,
           is_enterprise_install = excluded.is_enterprise_install, body = excluded.body, secrets = excluded.secrets,
           updated_at = excluded.updated_at, authorized_at = excluded.authorized_at,
           authorized_by = excluded.authorized_by,
           installed_by = COALESCE(installed_by, json_extract(body, '$.user.id'))`,
      ),
      replaceIfSame: db.prepare(
        "UPDATE slack_installations SET body = ?, secrets = ?, updated_at = ? WHERE key = ? AND COALESCE(authorized_at, installed_at) = ?",
      ),
      byKey: db.prepare(`SELECT ${COLUMNS} FROM slack_installations WHERE key = ?`),
      all: db.prepare(`SELECT ${COLUMNS} FROM slack_installations ORDER BY key`),
      delete: db.prepare("DELETE FROM slack_installations WHERE key = ?"),
      deleteIfBefore: db.prepare(
        "DELETE FROM slack_installations WHERE key = ? AND COALESCE(authorized_at, installed_at) <= ?",
      ),
    };
  }

  get canStore(): boolean {
    return this.key !== undefined;
  }

  private sealedByKey(key: string): SealedInstallation | undefined {
    const row = this.statements.byKey.get(key) as Row | undefined;
    return row ? fromRow(row) : undefined;
  }

  private serving(query: InstallationQuery<boolean>): SealedInstallation | undefined {
    for (const key of candidateKeys(query)) {
      const found = this.sealedByKey(key);
      if (found) return found;
    }
    return undefined;
  }

  async storeInstallation<AuthVersion extends "v1" | "v2">(
    installation: Installation<AuthVersion, boolean>,
  ): Promise<void> {
    if (!this.key) throw new CredentialsKeyMissingError();
    const now = this.now();
    const origin = this.marks.origin(installation);
    if (origin) {
      // A token refresh of the installation fetched: replace it only if it is still the one stored.
      const sealed = sealInstallation(this.key, installation, {
        installedAt: origin.installedAt,
        installedBy: origin.installedBy,
        authorizedAt: origin.authorizedAt,
        updatedAt: now,
      });
      this.statements.replaceIfSame.run(sealed.body, sealed.secrets, now, sealed.key, origin.authorizedAt);
      return;
    }
    const s = sealInstallation(this.key, installation, { installedAt: now, updatedAt: now });
    this.statements.upsert.run(
      s.key,
      s.teamId ?? null,
      s.enterpriseId ?? null,
      s.isEnterpriseInstall ? 1 : 0,
      s.body,
      s.secrets,
      s.installedAt,
      s.updatedAt,
      s.installedBy ?? null,
      s.authorizedAt,
      s.authorizedBy ?? null,
    );
  }

  async fetchInstallation(query: InstallationQuery<boolean>): Promise<Installation<"v1" | "v2", boolean>> {
    const sealed = this.serving(query);
    if (!sealed) throw new InstallationNotFoundError(describeQuery(query));
    const installation = openInstallation(this.key, sealed);
    this.marks.mark(installation, sealed);
    return installation;
  }

  async deleteInstallation(query: InstallationQuery<boolean>): Promise<void> {
    const key = exactKey(query);
    if (key) this.statements.delete.run(key);
  }

  async installedAt(query: InstallationQuery<boolean>): Promise<number | undefined> {
    return this.serving(query)?.installedAt;
  }

  async record(query: InstallationQuery<boolean>): Promise<InstallationRecord | undefined> {
    const sealed = this.serving(query);
    return sealed ? recordOf(sealed) : undefined;
  }

  async all(): Promise<InstallationRef[]> {
    return (this.statements.all.all() as Row[]).map((row) => refOf(fromRow(row)));
  }

  async deleteIfInstalledBefore(query: InstallationQuery<boolean>, eventTimeMs: number): Promise<boolean> {
    const key = exactKey(query);
    return key ? this.statements.deleteIfBefore.run(key, eventTimeMs).changes > 0 : false;
  }

  async updateBotToken(
    key: string,
    tokens: RotatedBotToken,
    options: { authorizedAt?: number } = {},
  ): Promise<boolean> {
    const cryptoKey = this.key;
    if (!cryptoKey) throw new CredentialsKeyMissingError();
    return this.db.transaction(() => {
      const sealed = this.sealedByKey(key);
      if (!sealed || (options.authorizedAt !== undefined && sealed.authorizedAt !== options.authorizedAt))
        return false;
      const rotated = withRotatedBotToken(cryptoKey, sealed, tokens, this.now());
      if (!rotated) return false;
      return (
        this.statements.replaceIfSame.run(
          rotated.body,
          rotated.secrets,
          rotated.updatedAt,
          key,
          sealed.authorizedAt,
        ).changes > 0
      );
    })();
  }

  async unreadable(): Promise<InstallationRef[]> {
    return (this.statements.all.all() as Row[])
      .map(fromRow)
      .filter((sealed) => !isReadable(this.key, sealed))
      .map(refOf);
  }
}
