import type { Installation, InstallationQuery, InstallationStore } from "@slack/oauth";
import { type WebAPICallResult, WebClient, type WebClientOptions } from "@slack/web-api";
import type { Logger } from "pino";
import {
  InstallationNotFoundError,
  type InstallationRepository,
  installationKey,
  queryOfKey,
} from "../store/contract/index.js";
import type { WorkspaceEvents } from "./events.js";
import {
  type ClientKind,
  DEAD_TOKEN_ERRORS,
  ONLY_WORKSPACE,
  slackErrorCode,
  type Workspace,
  WorkspaceGoneError,
  type WorkspaceIds,
  type WorkspaceKey,
  workspaceKeyOf,
} from "./workspace.js";

/**
 * The workspaces fleetbot serves, and the one way to reach a workspace's Web API client. Single
 * mode: one workspace (key ""), the configured bot token. Multi-workspace mode: every installation
 * in the store, each with its own token, renewed before it expires.
 */
export interface Workspaces {
  readonly multi: boolean;
  /** The key of the workspace a Slack request comes from (Bolt's context ids); undefined: unknown. */
  keyOf(ids: WorkspaceIds): WorkspaceKey | undefined;
  /** The workspace, or undefined when it is not installed (or its installation cannot be read). */
  get(key: WorkspaceKey): Promise<Workspace | undefined>;
  /** Drops what is cached of a workspace (after an uninstall). */
  forget(key: WorkspaceKey): void;
}

/**
 * A workspace's client that notices when Slack refuses its token for good (invalid_auth,
 * token_revoked, …): every Web API method, files included, goes through apiCall.
 */
class WatchedWebClient extends WebClient {
  constructor(
    token: string,
    options: WebClientOptions,
    private readonly tokenDead: () => void,
  ) {
    super(token, options);
  }

  override async apiCall(method: string, options?: Record<string, unknown>): Promise<WebAPICallResult> {
    try {
      return await super.apiCall(method, options);
    } catch (error) {
      const code = slackErrorCode(error);
      if (code && DEAD_TOKEN_ERRORS.has(code)) this.tokenDead();
      throw error;
    }
  }
}

/** The one workspace of single-workspace mode and the sandbox. */
export class SingleWorkspace implements Workspaces {
  readonly multi = false;
  private readonly workspace: Workspace;

  constructor(clients: Record<ClientKind, WebClient>) {
    this.workspace = {
      key: ONLY_WORKSPACE,
      isEnterpriseInstall: false,
      client: async (kind = "default") => clients[kind],
    };
  }

  keyOf(): WorkspaceKey {
    return ONLY_WORKSPACE;
  }

  async get(key: WorkspaceKey): Promise<Workspace | undefined> {
    return key === ONLY_WORKSPACE ? this.workspace : undefined;
  }

  forget(): void {}
}

/** One renewal of a workspace's token at a time: in this process, or across replicas (Redis). */
export interface RenewalLock {
  run<T>(key: WorkspaceKey, work: () => Promise<T>): Promise<T>;
}

/** The lock of one process: renewals of one key queue behind each other. */
export class LocalRenewalLock implements RenewalLock {
  private readonly tails = new Map<WorkspaceKey, Promise<unknown>>();

  async run<T>(key: WorkspaceKey, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const mine = before.then(work, work);
    const tail = mine.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await mine;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

export interface InstalledWorkspacesOptions {
  installations: InstallationRepository;
  clientId: string;
  clientSecret: string;
  /** Every Web API call, oauth.v2.access included, goes here (SLACK_API_URL). */
  slackApiUrl: string;
  lock: RenewalLock;
  /** Renew a rotating token this long before it expires (default 15 min). */
  renewAheadMs?: number;
  /** Options of each kind of a workspace's Web API client (retries, logger). */
  clientOptions?: Partial<Record<ClientKind, Omit<WebClientOptions, "slackApiUrl">>>;
  now?: () => number;
  logger: Pick<Logger, "info" | "warn">;
  /** Where the registry announces a token Slack refused for good and a fresh install; its clients go on a removal. */
  events: WorkspaceEvents;
  /** An installation was stored (a new install, or a re-authorization), after a fresh one's leftovers went. */
  onInstalled?(installation: Installation, key: WorkspaceKey): Promise<void>;
}

/**
 * Multi-workspace mode: workspaces installed through "Add to Slack".
 *
 * Token rotation lives here, not in @slack/oauth's authorize: Bolt's own refresh runs on any
 * request without a lock, and two replicas refreshing one token at once can store a dead one
 * (node-slack-sdk #2504). So Bolt is handed installations without their refresh token (it then
 * never refreshes), and every reader (Bolt's authorize, background posts) goes through `fresh`,
 * which renews under the RenewalLock and reads again after taking it.
 */
export class InstalledWorkspaces implements Workspaces {
  readonly multi = true;
  private readonly clients = new Map<string, { token: string; client: WebClient }>();
  private readonly now: () => number;

  constructor(private readonly options: InstalledWorkspacesOptions) {
    this.now = options.now ?? Date.now;
    options.events.onRemoved({
      name: "clients",
      stage: "memory",
      deleteWorkspace: (key) => this.forget(key),
    });
  }

  keyOf(ids: WorkspaceIds): WorkspaceKey | undefined {
    return workspaceKeyOf(ids);
  }

  async get(key: WorkspaceKey): Promise<Workspace | undefined> {
    if (key === ONLY_WORKSPACE) return undefined;
    let installation: Installation;
    try {
      installation = await this.fresh(queryOfKey(key));
    } catch (error) {
      if (error instanceof InstallationNotFoundError) return undefined;
      if (error instanceof WorkspaceGoneError) return undefined;
      throw error;
    }
    // The first installer, never whoever ran "Add to Slack" last (the installation's user).
    const record = await this.options.installations.record(queryOfKey(key));
    return this.workspaceOf(key, installation, record?.installedBy);
  }

  forget(key: WorkspaceKey): void {
    this.clients.delete(`default|${key}`);
    this.clients.delete(`alerts|${key}`);
  }

  /** Bolt's view of the store: tokens fresh, refresh tokens kept from it (see the class comment). */
  boltInstallationStore(): InstallationStore {
    return {
      storeInstallation: async (installation) => {
        const key = installationKey(installation);
        const fresh = (await this.options.installations.installedAt(queryOfKey(key))) === undefined;
        await this.options.installations.storeInstallation(installation);
        this.forget(key);
        // A workspace that installs anew starts clean, even when its uninstall event was lost.
        if (fresh) await this.options.events.installedAnew(key);
        await this.options.onInstalled?.(installation, key);
      },
      fetchInstallation: async (query) => {
        const installation = await this.fresh(query);
        if (!installation.bot) return installation;
        const { refreshToken: _refresh, expiresAt: _expires, ...bot } = installation.bot;
        return { ...installation, bot };
      },
      deleteInstallation: (query) => this.options.installations.deleteInstallation(query),
    };
  }

  /** The installation serving the query, its bot token renewed first when it is about to expire. */
  async fresh(query: InstallationQuery<boolean>): Promise<Installation> {
    const stored = await this.options.installations.fetchInstallation(query);
    if (!this.expiring(stored)) return stored;
    const key = installationKey(stored);
    return this.options.lock.run(key, async () => {
      // Another holder may have renewed it while this one waited.
      const current = await this.options.installations.fetchInstallation(query);
      if (!this.expiring(current)) return current;
      return this.renew(key, current);
    });
  }

  private expiring(installation: Installation): boolean {
    const bot = installation.bot;
    if (!bot?.refreshToken || bot.expiresAt === undefined) return false;
    return bot.expiresAt * 1000 - this.now() <= (this.options.renewAheadMs ?? 15 * 60_000);
  }

  private async renew(key: WorkspaceKey, installation: Installation): Promise<Installation> {
    const bot = installation.bot;
    if (!bot?.refreshToken) return installation;
    const authorizedAt = (await this.options.installations.record(queryOfKey(key)))?.authorizedAt;
    const oauth = new WebClient(undefined, {
      slackApiUrl: this.options.slackApiUrl,
      retryConfig: { retries: 2 },
    });
    let answer: Awaited<ReturnType<WebClient["oauth"]["v2"]["access"]>>;
    try {
      answer = await oauth.oauth.v2.access({
        client_id: this.options.clientId,
        client_secret: this.options.clientSecret,
        grant_type: "refresh_token",
        refresh_token: bot.refreshToken,
      });
    } catch (error) {
      const code = slackErrorCode(error);
      if (code && (DEAD_TOKEN_ERRORS.has(code) || code === "invalid_refresh_token")) {
        this.options.logger.warn({ workspace: key, error: code }, "Slack refused the token renewal for good");
        this.options.events.tokenDead(key);
        throw new WorkspaceGoneError(key);
      }
      throw error;
    }
    if (!answer.access_token || !answer.refresh_token || answer.expires_in === undefined) {
      throw new Error(`oauth.v2.access renewed ${key} without a token, refresh token and lifetime`);
    }
    const tokens = {
      token: answer.access_token,
      refreshToken: answer.refresh_token,
      expiresAt: Math.floor(this.now() / 1000) + answer.expires_in,
    };
    await this.options.installations.updateBotToken(
      key,
      tokens,
      authorizedAt === undefined ? {} : { authorizedAt },
    );
    this.options.logger.info({ workspace: key, expiresAt: tokens.expiresAt }, "bot token renewed");
    return { ...installation, bot: { ...bot, ...tokens } };
  }

  private workspaceOf(
    key: WorkspaceKey,
    installation: Installation,
    installedBy: string | undefined,
  ): Workspace {
    const teamId = installation.team?.id;
    const enterpriseId = installation.enterprise?.id;
    return {
      key,
      ...(teamId ? { teamId } : {}),
      ...(enterpriseId ? { enterpriseId } : {}),
      isEnterpriseInstall: installation.isEnterpriseInstall === true,
      ...(installedBy ? { installerUserId: installedBy } : {}),
      // The installation just read serves the client while its token is not about to expire.
      client: (kind = "default") => this.clientFor(key, kind, installation),
    };
  }

  /** The workspace's client with its current token (a renewed token gets a new client). */
  private async clientFor(key: WorkspaceKey, kind: ClientKind, read: Installation): Promise<WebClient> {
    let installation = read;
    try {
      if (this.expiring(installation)) installation = await this.fresh(queryOfKey(key));
    } catch (error) {
      if (error instanceof InstallationNotFoundError) throw new WorkspaceGoneError(key);
      throw error;
    }
    const token = installation.bot?.token;
    if (!token) throw new WorkspaceGoneError(key);
    const cached = this.clients.get(`${kind}|${key}`);
    if (cached?.token === token) return cached.client;
    // One client per workspace and kind: Slack's rate limits are per workspace, and so is the SDK's queue.
    const client = new WatchedWebClient(
      token,
      { ...this.options.clientOptions?.[kind], slackApiUrl: this.options.slackApiUrl },
      () => {
        this.forget(key);
        this.options.events.tokenDead(key);
      },
    );
    this.clients.set(`${kind}|${key}`, { token, client });
    return client;
  }
}

/** A workspace's Web API client; WorkspaceGoneError when it is not (or no longer) installed. */
export async function workspaceClient(
  workspaces: Workspaces,
  key: WorkspaceKey,
  kind?: ClientKind,
): Promise<WebClient> {
  const workspace = await workspaces.get(key);
  if (!workspace) throw new WorkspaceGoneError(key);
  return workspace.client(kind);
}
