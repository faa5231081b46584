import type { Installation, InstallationQuery, InstallationStore } from "@slack/bolt";
import { z } from "zod";
import { CredentialsKeyMissingError, decryptSecret, encryptSecret } from "./accountStore.js";
import type { Db } from "./database.js";

/**
 * Slack installations (multi-workspace mode): what @slack/oauth's InstallProvider stores after
 * "Add to Slack", one per workspace, or one per Enterprise Grid org for an org-wide install.
 *
 * Key: `E:<enterpriseId>` for an org-wide install (it serves every workspace of the org), else
 * `T:<teamId>`. Every token (bot, bot refresh, user, user refresh) and the incoming-webhook URL
 * is sealed with CREDENTIALS_KEY (AES-256-GCM, `encryptSecret`), the installation key and the
 * field bound as associated data, so a sealed value copied to another installation or field
 * does not open. The rest of the Installation is kept as JSON and zod-parsed on read.
 *
 * `installedAt` and `installedBy` are the first install's (the store's clock when the OAuth flow
 * stored it, and the Slack user who ran it): running "Add to Slack" again in an installed
 * workspace (a re-authorization, by anyone) replaces the tokens and the rest of the Installation
 * but never these two, so it transfers nothing (the first installer may manage the workspace;
 * see listeners/index.ts mayManageWorkspace). `authorizedAt` and `authorizedBy` record the last
 * OAuth authorization (the first install's on a fresh one). `authorizedAt` is also the version
 * of the stored tokens: an uninstall event that arrives late, after a reinstall, leaves the new
 * installation alone (`deleteIfInstalledBefore`). A token refresh changes none of the four:
 * InstallProvider.authorize() stores the installation it fetched with the refreshed tokens, and
 * the store recognises that object (see `FetchedMarks`) and only replaces the tokens, provided
 * the authorization it came from is still the stored one (a refresh racing an uninstall or a
 * reinstall neither resurrects nor overwrites).
 *
 * SQLite here, Redis in `redis/installationStore.ts`; both pass test/store/contract/installationRepository.test.ts.
 */

/** What background work needs of an installation (no token). */
export interface InstallationRef {
  /** `E:<enterpriseId>` or `T:<teamId>`. */
  key: string;
  teamId: string | undefined;
  enterpriseId: string | undefined;
  isEnterpriseInstall: boolean;
  installedAt: number;
}

/** Who installed fleetbot first and who authorized it last (a re-run of "Add to Slack"). */
export interface InstallationRecord {
  /** The first install (store clock, ms). */
  installedAt: number;
  /** The Slack user who ran the first install. */
  installedBy: string | undefined;
  /** The last OAuth authorization (the first install's until "Add to Slack" is run again). */
  authorizedAt: number;
  authorizedBy: string | undefined;
}

/** New bot tokens after a rotation (oauth.v2.access grant_type=refresh_token). expiresAt: epoch seconds, as @slack/oauth keeps it. */
export interface RotatedBotToken {
  token: string;
  refreshToken: string;
  expiresAt: number;
}

/**
 * The installation store fleetbot uses: @slack/oauth's InstallationStore (for Bolt) plus what
 * the deletion of a workspace, token rotation and background work need. Both backends
 * implement it exactly.
 */
export interface InstallationRepository extends InstallationStore {
  readonly canStore: boolean;
  storeInstallation<AuthVersion extends "v1" | "v2">(
    installation: Installation<AuthVersion, boolean>,
    logger?: unknown,
  ): Promise<void>;
  /** The installation serving the query; throws InstallationNotFoundError or InstallationUnreadableError. */
  fetchInstallation(
    query: InstallationQuery<boolean>,
    logger?: unknown,
  ): Promise<Installation<"v1" | "v2", boolean>>;
  /** Deletes the query's own installation (exact key, no org fallback); nothing when there is none. */
  deleteInstallation(query: InstallationQuery<boolean>, logger?: unknown): Promise<void>;
  /** When the installation serving the query was first installed (store clock, ms), or undefined. */
  installedAt(query: InstallationQuery<boolean>): Promise<number | undefined>;
  /** Who installed the installation serving the query first, and who authorized it last; undefined: none. */
  record(query: InstallationQuery<boolean>): Promise<InstallationRecord | undefined>;
  /** Every installation, by key. */
  all(): Promise<InstallationRef[]>;
  /**
   * Deletes the query's own installation (exact key) only if it was last authorized at or before
   * `eventTimeMs`: an uninstall event older than a reinstall deletes nothing. True when deleted.
   */
  deleteIfInstalledBefore(query: InstallationQuery<boolean>, eventTimeMs: number): Promise<boolean>;
  /**
   * Replaces the bot token after a rotation. With `authorizedAt`, only if that authorization is
   * still the stored one. False when there is no (such) installation or it has no bot.
   */
  updateBotToken(key: string, tokens: RotatedBotToken, options?: { authorizedAt?: number }): Promise<boolean>;
  /** Installations this CREDENTIALS_KEY cannot open (all of them without a key). */
  unreadable(): Promise<InstallationRef[]>;
}

export class InstallationNotFoundError extends Error {
  constructor(readonly query: string) {
    super(`No Slack installation for ${query}`);
    this.name = "InstallationNotFoundError";
  }
}

/** The stored tokens do not open with this CREDENTIALS_KEY (it was changed): the workspace must install again. */
export class InstallationUnreadableError extends Error {
  constructor(readonly key: string) {
    super(
      `The Slack installation ${key} cannot be read: CREDENTIALS_KEY was changed. The workspace must install fleetbot again.`,
    );
    this.name = "InstallationUnreadableError";
  }
}

// ------------------------------------------------------------------ keys and queries

export function teamKey(teamId: string): string {
  return `T:${teamId}`;
}

export function enterpriseKey(enterpriseId: string): string {
  return `E:${enterpriseId}`;
}

/** The key an installation is stored under. */
export function installationKey(installation: Installation): string {
  if (installation.isEnterpriseInstall) {
    const id = installation.enterprise?.id;
    if (!id) throw new Error("An enterprise install without an enterprise id cannot be stored");
    return enterpriseKey(id);
  }
  const id = installation.team?.id;
  if (!id) throw new Error("A workspace install without a team id cannot be stored");
  return teamKey(id);
}

/** The query's own key: the org's for an org-wide query, else the team's. */
export function exactKey(query: InstallationQuery<boolean>): string | undefined {
  if (query.isEnterpriseInstall) return query.enterpriseId ? enterpriseKey(query.enterpriseId) : undefined;
  return query.teamId ? teamKey(query.teamId) : undefined;
}

/**
 * The keys that may serve a query, first match wins: an org-wide query → the org; a team's →
 * the team's own install, else its org's org-wide install (a workspace of an org where the app
 * is installed org-wide).
 */
/** The query a key stands for (the inverse of exactKey). */
export function queryOfKey(key: string): InstallationQuery<boolean> {
  if (key.startsWith("E:"))
    return { enterpriseId: key.slice(2), isEnterpriseInstall: true, teamId: undefined };
  return { teamId: key.slice(2), isEnterpriseInstall: false, enterpriseId: undefined };
}

export function candidateKeys(query: InstallationQuery<boolean>): string[] {
  if (query.isEnterpriseInstall) return query.enterpriseId ? [enterpriseKey(query.enterpriseId)] : [];
  return [
    ...(query.teamId ? [teamKey(query.teamId)] : []),
    ...(query.enterpriseId ? [enterpriseKey(query.enterpriseId)] : []),
  ];
}

export function describeQuery(query: InstallationQuery<boolean>): string {
  return candidateKeys(query).join(" or ") || "an empty query";
}

// ------------------------------------------------------------------ the stored shape

const SECRET_FIELDS = [
  "bot.token",
  "bot.refreshToken",
  "user.token",
  "user.refreshToken",
  "incomingWebhook.url",
] as const;
type SecretField = (typeof SECRET_FIELDS)[number];
type Secrets = Partial<Record<SecretField, string>>;

const secretsSchema = z.partialRecord(z.enum(SECRET_FIELDS), z.string());

/** The Installation without its secrets, as kept in clear. */
const bodySchema = z.object({
  team: z.object({ id: z.string(), name: z.string().optional() }).optional(),
  enterprise: z.object({ id: z.string(), name: z.string().optional() }).optional(),
  user: z.object({
    id: z.string(),
    scopes: z.array(z.string()).optional(),
    expiresAt: z.number().optional(),
  }),
  bot: z
    .object({
      id: z.string(),
      userId: z.string(),
      scopes: z.array(z.string()),
      expiresAt: z.number().optional(),
    })
    .optional(),
  incomingWebhook: z
    .object({
      channel: z.string().optional(),
      channelId: z.string().optional(),
      configurationUrl: z.string().optional(),
    })
    .optional(),
  appId: z.string().optional(),
  tokenType: z.literal("bot").optional(),
  enterpriseUrl: z.string().optional(),
  isEnterpriseInstall: z.boolean().optional(),
  authVersion: z.enum(["v1", "v2"]).optional(),
  metadata: z.string().optional(),
});
type Body = z.infer<typeof bodySchema>;

/** One installation as either backend keeps it: tokens sealed. */
export interface SealedInstallation {
  key: string;
  teamId: string | undefined;
  enterpriseId: string | undefined;
  isEnterpriseInstall: boolean;
  /** JSON of the Installation without secrets. */
  body: string;
  /** JSON of the sealed secrets by field. */
  secrets: string;
  installedAt: number;
  updatedAt: number;
  installedBy: string | undefined;
  authorizedAt: number;
  authorizedBy: string | undefined;
}

/** When and by whom: a fresh install's four are its own; a re-authorization keeps the first two. */
export interface InstallationTimes {
  installedAt: number;
  updatedAt: number;
  /** Default: installedAt (a fresh install). */
  authorizedAt?: number;
  /** Default: the installation's user (a fresh install). */
  installedBy?: string | undefined;
}

export function recordOf(sealed: SealedInstallation): InstallationRecord {
  return {
    installedAt: sealed.installedAt,
    installedBy: sealed.installedBy,
    authorizedAt: sealed.authorizedAt,
    authorizedBy: sealed.authorizedBy,
  };
}

/** The Slack user in a sealed body (rows stored before installed_by existed). */
export function bodyUserOf(body: string): string | undefined {
  try {
    const id = (JSON.parse(body) as { user?: { id?: unknown } }).user?.id;
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}

const nullToUndefined = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

/** Drops null and undefined (what InstallProvider may leave), so the body parses and stays small. */
function compact<T extends Record<string, unknown>>(object: T): T {
  return Object.fromEntries(
    Object.entries(object).filter(([, value]) => value !== undefined && value !== null),
  ) as T;
}

function associated(key: string, field: SecretField): string {
  return `slack-installation:${key}:${field}`;
}

/** Seals an installation for storage under `key`. */
export function sealInstallation(
  cryptoKey: Buffer,
  installation: Installation,
  times: InstallationTimes,
): SealedInstallation {
  const key = installationKey(installation);
  const plain: Secrets = compact({
    "bot.token": installation.bot?.token,
    "bot.refreshToken": nullToUndefined(installation.bot?.refreshToken),
    "user.token": nullToUndefined(installation.user?.token),
    "user.refreshToken": nullToUndefined(installation.user?.refreshToken),
    "incomingWebhook.url": installation.incomingWebhook?.url,
  });
  const body: Body = bodySchema.parse(
    compact({
      team: installation.team
        ? compact({ id: installation.team.id, name: installation.team.name })
        : undefined,
      enterprise: installation.enterprise
        ? compact({ id: installation.enterprise.id, name: installation.enterprise.name })
        : undefined,
      user: compact({
        id: installation.user.id,
        scopes: nullToUndefined(installation.user.scopes),
        expiresAt: nullToUndefined(installation.user.expiresAt),
      }),
      bot: installation.bot
        ? compact({
            id: installation.bot.id,
            userId: installation.bot.userId,
            scopes: installation.bot.scopes,
            expiresAt: nullToUndefined(installation.bot.expiresAt),
          })
        : undefined,
      incomingWebhook: installation.incomingWebhook
        ? compact({
            channel: installation.incomingWebhook.channel,
            channelId: installation.incomingWebhook.channelId,
            configurationUrl: installation.incomingWebhook.configurationUrl,
          })
        : undefined,
      appId: nullToUndefined(installation.appId),
      tokenType: nullToUndefined(installation.tokenType),
      enterpriseUrl: nullToUndefined(installation.enterpriseUrl),
      isEnterpriseInstall: nullToUndefined(installation.isEnterpriseInstall),
      authVersion: nullToUndefined(installation.authVersion),
      metadata: nullToUndefined(installation.metadata),
    }),
  );
  const secrets: Secrets = {};
  for (const field of SECRET_FIELDS) {
    const value = plain[field];
    if (value !== undefined) secrets[field] = encryptSecret(cryptoKey, value, associated(key, field));
  }
  return {
    key,
    teamId: installation.isEnterpriseInstall ? undefined : installation.team?.id,
    enterpriseId: installation.enterprise?.id,
    isEnterpriseInstall: installation.isEnterpriseInstall === true,
    body: JSON.stringify(body),
    secrets: JSON.stringify(secrets),
    installedAt: times.installedAt,
    updatedAt: times.updatedAt,
    installedBy: "installedBy" in times ? times.installedBy : body.user.id,
    authorizedAt: times.authorizedAt ?? times.installedAt,
    authorizedBy: body.user.id,
  };
}

function openSecrets(cryptoKey: Buffer | undefined, sealed: SealedInstallation): Secrets {
  if (!cryptoKey) throw new InstallationUnreadableError(sealed.key);
  const stored = secretsSchema.parse(JSON.parse(sealed.secrets));
  const opened: Secrets = {};
  try {
    for (const field of SECRET_FIELDS) {
      const value = stored[field];
      if (value !== undefined) opened[field] = decryptSecret(cryptoKey, value, associated(sealed.key, field));
    }
  } catch {
    throw new InstallationUnreadableError(sealed.key);
  }
  return opened;
}

/** Opens a stored installation into what @slack/oauth expects; throws InstallationUnreadableError on a wrong key. */
export function openInstallation(
  cryptoKey: Buffer | undefined,
  sealed: SealedInstallation,
): Installation<"v1" | "v2", boolean> {
  const secrets = openSecrets(cryptoKey, sealed);
  const body = bodySchema.parse(JSON.parse(sealed.body));
  const { bot, incomingWebhook, user, ...rest } = body;
  const botToken = secrets["bot.token"];
  const webhookUrl = secrets["incomingWebhook.url"];
  return {
    ...rest,
    team: body.team,
    enterprise: body.enterprise,
    user: compact({
      ...user,
      scopes: user.scopes,
      token: secrets["user.token"],
      refreshToken: secrets["user.refreshToken"],
    }),
    ...(bot && botToken !== undefined
      ? { bot: compact({ ...bot, token: botToken, refreshToken: secrets["bot.refreshToken"] }) }
      : {}),
    ...(incomingWebhook && webhookUrl !== undefined
      ? { incomingWebhook: { ...incomingWebhook, url: webhookUrl } }
      : {}),
  };
}

/** The sealed installation with a rotated bot token; undefined when it has no bot. */
export function withRotatedBotToken(
  cryptoKey: Buffer,
  sealed: SealedInstallation,
  tokens: RotatedBotToken,
  updatedAt: number,
): SealedInstallation | undefined {
  const body = bodySchema.parse(JSON.parse(sealed.body));
  if (!body.bot) return undefined;
  const secrets = secretsSchema.parse(JSON.parse(sealed.secrets));
  secrets["bot.token"] = encryptSecret(cryptoKey, tokens.token, associated(sealed.key, "bot.token"));
  secrets["bot.refreshToken"] = encryptSecret(
    cryptoKey,
    tokens.refreshToken,
    associated(sealed.key, "bot.refreshToken"),
  );
  body.bot.expiresAt = tokens.expiresAt;
  return { ...sealed, body: JSON.stringify(body), secrets: JSON.stringify(secrets), updatedAt };
}

export function refOf(sealed: SealedInstallation): InstallationRef {
  return {
    key: sealed.key,
    teamId: sealed.teamId,
    enterpriseId: sealed.enterpriseId,
    isEnterpriseInstall: sealed.isEnterpriseInstall,
    installedAt: sealed.installedAt,
  };
}

export function isReadable(cryptoKey: Buffer | undefined, sealed: SealedInstallation): boolean {
  try {
    openSecrets(cryptoKey, sealed);
    return true;
  } catch {
    return false;
  }
}

/** Where a fetched installation came from: its key and the stored authorization it was read from. */
export interface FetchedOrigin {
  key: string;
  installedAt: number;
  installedBy: string | undefined;
  authorizedAt: number;
}

/**
 * The installations a store handed out, by object identity. InstallProvider.authorize() refreshes
 * a rotating token by changing the fetched object's `bot` (or `user`) in place and storing a
 * shallow copy of it: such an object is a refresh of the installation fetched, not a new install.
 */
export class FetchedMarks {
  private readonly marks = new WeakMap<object, FetchedOrigin>();

  mark(installation: Installation, sealed: SealedInstallation): void {
    const mark: FetchedOrigin = {
      key: sealed.key,
      installedAt: sealed.installedAt,
      installedBy: sealed.installedBy,
      authorizedAt: sealed.authorizedAt,
    };
    this.marks.set(installation, mark);
    this.marks.set(installation.user, mark);
    if (installation.bot) this.marks.set(installation.bot, mark);
  }

  /** The installation this one was fetched as, when it is (a copy of) one this store handed out. */
  origin(installation: Installation): FetchedOrigin | undefined {
    const found =
      this.marks.get(installation) ??
      (installation.bot ? this.marks.get(installation.bot) : undefined) ??
      this.marks.get(installation.user);
    return found && found.key === installationKey(installation) ? found : undefined;
  }
}

// ------------------------------------------------------------------ SQLite

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
