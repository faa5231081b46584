import type { Installation, InstallationQuery, InstallationStore } from "@slack/bolt";

/**
 * Slack installations (multi-workspace mode): what @slack/oauth's InstallProvider stores after
 * "Add to Slack", one per workspace, or one per Enterprise Grid org for an org-wide install.
 * Key: `E:<enterpriseId>` for an org-wide install (it serves every workspace of the org), else
 * `T:<teamId>`. Every token and the incoming-webhook URL is kept sealed with CREDENTIALS_KEY
 * (installationSealing.ts).
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
 * the store recognises that object and only replaces the tokens, provided the authorization it
 * came from is still the stored one (a refresh racing an uninstall or a reinstall neither
 * resurrects nor overwrites).
 *
 * Implemented by SqliteInstallationStore (installationStore.ts) and RedisInstallationStore
 * (redis/installationStore.ts); both pass test/platform/store/contract/installationRepository.test.ts.
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
  /** Whether tokens can be sealed (a CREDENTIALS_KEY is set). */
  readonly canStore: boolean;
  /**
   * Stores an installation after "Add to Slack" (a re-authorization keeps who installed first, and
   * when), or the refreshed tokens of one this store fetched; throws CredentialsKeyMissingError
   * (accounts.ts) without a key.
   */
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

/** The query a key stands for (the inverse of exactKey). */
export function queryOfKey(key: string): InstallationQuery<boolean> {
  if (key.startsWith("E:"))
    return { enterpriseId: key.slice(2), isEnterpriseInstall: true, teamId: undefined };
  return { teamId: key.slice(2), isEnterpriseInstall: false, enterpriseId: undefined };
}

/**
 * The keys that may serve a query, first match wins: an org-wide query → the org; a team's →
 * the team's own install, else its org's org-wide install (a workspace of an org where the app
 * is installed org-wide).
 */
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
