import type { Logger } from "pino";
import type { FleetClient, FleetSession } from "../fleet/client.js";
import type { Vehicle } from "../fleet/schemas.js";
import type { CallContext } from "../fleet/seam.js";
import type { AccountGate } from "../gate/gate.js";
import { type CachedVehicles, VehicleCache } from "../vehicles/vehicleCache.js";
import { ONLY_WORKSPACE, WORKSPACE_ACCOUNT_USER, type WorkspaceKey } from "../workspaces/workspace.js";

export interface FleetCredentials {
  username: string;
  password: string;
}

/** What FleetAccounts needs of the linked-account store (passwords are decrypted on read). */
export interface LinkedCredentials {
  /** A Slack user's link in a workspace (WORKSPACE_ACCOUNT_USER: the workspace's own account). */
  get(workspace: WorkspaceKey, slackUser: string): Promise<FleetCredentials | undefined>;
  /** Any readable link of that fleet account, in any workspace. */
  credentialsOf(username: string): Promise<FleetCredentials | undefined>;
  /** Whether anyone, in any workspace, has that fleet account linked. */
  isLinked(username: string): Promise<boolean>;
}

/**
 * Whether a link may be answered fleet data now, without a call: `proven` (the service accepted its
 * own password within one token lifetime), `outdated` (the service took a newer password since),
 * `refused` (its login was refused), `checking` (no live token: a login was just started).
 */
export type FleetAccess = Exclude<Awaited<ReturnType<FleetSession["standing"]>>, "unproven"> | "checking";

export interface FleetAccountsOptions {
  client: FleetClient;
  linked: LinkedCredentials;
  /**
   * FLEET_USERNAME/FLEET_PASSWORD (or the simulator's demo login): used by users who linked none
   * in single-workspace mode (workspace ""). An installed workspace's users fall back to that
   * workspace's own link (WORKSPACE_ACCOUNT_USER) instead.
   */
  workspaceAccount?: FleetCredentials;
  vehicleCacheTtlMs: number;
  /** The gate: an account let go of has its waiting calls cancelled there (release). */
  gate?: Pick<AccountGate, "forgetAccount">;
  logger?: Pick<Logger, "warn">;
}

/**
 * Who acts: the fleet account a task or click runs as, the Slack user behind it (none for an
 * alert sweep) and the workspace they act in (default "", single-workspace mode). A TaskRecord fits.
 */
export interface Actor {
  account: string;
  slackUser?: string;
  workspace?: WorkspaceKey;
}

/**
 * The fleet accounts fleetbot acts as: a session per account (credentials from the user's own
 * link, else the workspace account), their vehicle lists, and letting go of an account nobody
 * uses any more. Every read of a vehicle list names whose session fetches it, so nothing
 * depends on a session having been opened earlier by someone else. Sessions are per fleet
 * account, whichever workspace asks: two workspaces linking one username share its session
 * (and its gate).
 */
export class FleetAccounts {
  readonly vehicles: VehicleCache<Vehicle>;
  private readonly open = new Map<string, FleetSession>();
  /** Every account a session was opened for and not let go of (forget keeps it: its manager remains). */
  private readonly seen = new Set<string>();

  constructor(private readonly options: FleetAccountsOptions) {
    this.vehicles = new VehicleCache<Vehicle>({ ttlMs: options.vehicleCacheTtlMs });
  }

  get workspaceAccount(): FleetCredentials | undefined {
    return this.options.workspaceAccount;
  }

  /** The session `actor` runs as; throws when fleetbot holds no credentials for that account. */
  async sessionFor(actor: Actor): Promise<FleetSession> {
    const credentials = await this.credentialsFor(actor);
    if (!credentials) throw new Error(`No credentials for fleet account ${actor.account}`);
    const session = this.options.client.session(credentials);
    // The session upkeep keeps ready is the account's working one: a link whose password the
    // service replaced (an alert sweep or a stale workspace asking) never takes its place.
    if (!(await session.tokens.passwordSuperseded())) this.open.set(session.account, session);
    this.seen.add(session.account);
    return session;
  }

  /**
   * The actor's own link in their workspace, else their workspace's account (single mode: the
   * configured one; an installed workspace: its WORKSPACE_ACCOUNT_USER link), when it is the
   * account asked for. An actor with no Slack user (an alert sweep of a subscribed account)
   * may also use any readable link of that account.
   */
  private async credentialsFor(actor: Actor): Promise<FleetCredentials | undefined> {
    const { linked, workspaceAccount } = this.options;
    const workspace = actor.workspace ?? ONLY_WORKSPACE;
    const fits = (found: FleetCredentials | undefined) =>
      found && found.username === actor.account
        ? { username: found.username, password: found.password }
        : undefined;
    const own = actor.slackUser ? fits(await linked.get(workspace, actor.slackUser)) : undefined;
    if (own) return own;
    if (workspace === ONLY_WORKSPACE) {
      if (workspaceAccount?.username === actor.account) return workspaceAccount;
    } else {
      const ofWorkspace = fits(await linked.get(workspace, WORKSPACE_ACCOUNT_USER));
      if (ofWorkspace) return ofWorkspace;
    }
    return actor.slackUser === undefined ? await linked.credentialsOf(actor.account) : undefined;
  }

  /** Sessions of the accounts in use since start (upkeep renews their tokens and lists). */
  sessions(): Iterable<FleetSession> {
    return this.open.values();
  }

  /** The actor's vehicle list, no older than `maxAgeMs`, fetched with the actor's own session. */
  async vehiclesOf(actor: Actor, ctx: CallContext, maxAgeMs?: number): Promise<CachedVehicles<Vehicle>> {
    return this.vehicles.get(await this.sessionFor(actor), ctx, maxAgeMs);
  }

  /**
   * The actor's cached list, however old, without any call (a picker answers within Slack's 3 s),
   * only when the actor's own credentials fetched it and the service has not replaced their
   * password since: another workspace's list of the same fleet account is never answered.
   */
  async cachedListOf(actor: Actor): Promise<CachedVehicles<Vehicle> | undefined> {
    try {
      const credentials = await this.credentialsFor(actor);
      if (!credentials) return undefined;
      const session = this.options.client.session(credentials);
      // Not to a link the service replaced or refused: it would read what it can no longer ask.
      const standing = await session.standing();
      if (standing === "outdated" || standing === "refused") return undefined;
      return this.vehicles.peekFor(actor.account, session.credentialsId);
    } catch (error) {
      // A link that cannot be read (a changed CREDENTIALS_KEY, the store failing) has no list to
      // show; the request itself then says why, in words (the task's failure).
      this.options.logger?.warn(
        { err: error, account: actor.account },
        "the link behind a vehicle list could not be read",
      );
      return undefined;
    }
  }

  /**
   * Whether the actor's own credentials were accepted by the service within one token lifetime,
   * for answers given from fleetbot's store without a fleet call (an e-Transport history). When
   * they were not proven yet, a login starts (its answer decides the next ask).
   */
  async accessOf(actor: Actor): Promise<FleetAccess> {
    const credentials = await this.credentialsFor(actor);
    if (!credentials) return "refused";
    const session = this.options.client.session(credentials);
    const standing = await session.standing();
    if (standing !== "unproven") return standing;
    this.open.set(session.account, session);
    session.tokens.token({ priority: "interactive" }).catch((error: unknown) => {
      this.options.logger?.warn(
        { err: error, account: actor.account },
        "the fleet account could not be checked",
      );
    });
    return "checking";
  }

  /**
   * Starts a background fetch of the list when none is cached (a modal's select needs it within 3 s).
   * Resolves once the list is stored, or the fetch failed (logged here): a picker may wait for it.
   */
  async warmVehicles(actor: Actor): Promise<void> {
    // Fire-and-forget work never rejects (cachedListOf does not either).
    if (await this.cachedListOf(actor)) return;
    const underWay = this.vehicles.pending(actor.account);
    if (underWay)
      return underWay.then(
        () => undefined,
        () => undefined,
      );
    return this.vehiclesOf(actor, { priority: "interactive" }).then(
      () => undefined,
      (error: unknown) => {
        this.options.logger?.warn({ err: error, account: actor.account }, "could not load the vehicle list");
      },
    );
  }

  /**
   * Lets go of an account unless the workspace account or a link (in any workspace) still uses it:
   * its session (upkeep stops), token managers (sessions still held send nothing more), shared
   * token, vehicle list and waiting calls in the gate. A subscription without a link makes no call
   * (its sweep needs a link's credentials), so links decide. True when it was let go of.
   */
  async release(username: string): Promise<void> {
    await this.letGo(username);
  }

  private async letGo(username: string): Promise<boolean> {
    if (this.options.workspaceAccount?.username === username) return false;
    if (await this.options.linked.isLinked(username)) return false;
    this.open.delete(username);
    this.seen.delete(username);
    this.vehicles.drop(username);
    await this.options.client.forget(username);
    await this.options.gate?.forgetAccount?.(username);
    return true;
  }

  /**
   * Lets go of every account this process holds anything of that nobody links any more (after a
   * workspace's links were deleted: its uninstall, here or announced by another replica).
   * The accounts let go of.
   */
  async releaseUnused(): Promise<string[]> {
    const released: string[] = [];
    for (const account of new Set([...this.seen, ...this.open.keys(), ...this.vehicles.known()])) {
      if (await this.letGo(account)) released.push(account);
    }
    return released;
  }

  /**
   * The service refused the account's login (password changed, user deactivated): stop keeping it
   * ready. The client keeps its token manager, which remembers the refusal, so no background work
   * logs in with these credentials again until they change (a re-link) or a person's login succeeds.
   */
  forget(username: string): void {
    this.open.delete(username);
  }
}
