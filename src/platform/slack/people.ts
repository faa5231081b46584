import type { WebClient } from "@slack/web-api";
import type { AccountRepository } from "../store/contract/index.js";
import { withTimeout } from "../time/withTimeout.js";
import { isTimeZone } from "../time/zone.js";
import { ONLY_WORKSPACE, WORKSPACE_ACCOUNT_USER, type WorkspaceKey } from "../workspaces/workspace.js";

/** A user's zone as settled for a task; `guessed` when it is the company's because Slack did not say. */
export interface UserZone {
  zone: string;
  guessed?: true;
}

/** How long a task waits for users.info before it writes its times in the company zone. */
const ZONE_WAIT_MS = 2_000;

interface CachedZone {
  zone: string;
  at: number;
  told: boolean;
}

/**
 * Who a Slack user is to fleetbot: their time zone (periods are read in it) and the fleet
 * account they act as (their own linked one, else the workspace account). A user id means
 * nothing outside its workspace: everything here is per (workspace, user), the workspace ""
 * (single-workspace mode) by default.
 *
 * The zone has two readings. Before an ack only the cache may be read (`zoneAtAck`): no Web
 * API call may delay Slack's 3 seconds. A task settles it (`settleZone`) from the cache or
 * users.info, before its first time is rendered.
 */
export class People {
  /** Zones by workspace, then user. */
  private readonly zones = new Map<WorkspaceKey, Map<string, CachedZone>>();
  /** users.info calls under way, one per (workspace, user): a slow or rate-limited one is not asked twice. */
  private readonly asking = new Map<string, Promise<{ zone: string; told: boolean } | undefined>>();

  constructor(
    private readonly deps: {
      accounts: AccountRepository;
      workspaceAccount?: { username: string };
      companyTimeZone: string;
      now?: () => number;
      zoneTtlMs?: number;
      /** Least wait for users.info in a task (default 2 s). */
      zoneWaitMs?: number;
    },
  ) {}

  /** The zone known without asking Slack: the cached one, else the company's (a task settles it later). */
  zoneAtAck(userId: string, workspace: WorkspaceKey = ONLY_WORKSPACE): string {
    return this.zones.get(workspace)?.get(userId)?.zone ?? this.deps.companyTimeZone;
  }

  /**
   * The zone a task writes its times in: cached (a day), else users.info within a short wait.
   * When Slack does not answer in time (a 429 with Retry-After, an outage) or has no zone for
   * the user, the company zone with a note; a late answer still fills the cache for next time.
   */
  async settleZone(
    client: WebClient,
    userId: string,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): Promise<UserZone> {
    const now = this.deps.now?.() ?? Date.now();
    const cached = this.zones.get(workspace)?.get(userId);
    const fresh = cached && now - cached.at < (this.deps.zoneTtlMs ?? 24 * 3600_000);
    if (cached && fresh) return this.told(cached);
    const askingKey = `${workspace}\n${userId}`;
    let asking = this.asking.get(askingKey);
    if (!asking) {
      const started = this.askSlack(client, userId, this.zonesOf(workspace), now);
      this.asking.set(askingKey, started);
      void started.finally(() => {
        if (this.asking.get(askingKey) === started) this.asking.delete(askingKey);
      });
      asking = started;
    }
    const answer = await withTimeout(asking, this.deps.zoneWaitMs ?? ZONE_WAIT_MS, undefined);
    if (answer) return this.told(answer);
    // A zone Slack gave before (now stale) is better than the company's.
    return cached ? { zone: cached.zone } : this.told({ zone: this.deps.companyTimeZone, told: false });
  }

  /** After an ack: the zone settled as a task would (buttons whose answer renders times). */
  async timeZoneOf(
    client: WebClient,
    userId: string,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): Promise<string> {
    return (await this.settleZone(client, userId, workspace)).zone;
  }

  /**
   * The fleet account the user's commands and clicks run as, or undefined (they must link one):
   * their own link in that workspace, else the workspace's account (an installed workspace's
   * WORKSPACE_ACCOUNT_USER link; in single-workspace mode, the configured one).
   */
  async accountOf(
    userId: string,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): Promise<{ username: string; linked: boolean } | undefined> {
    const linked = await this.deps.accounts.usernameOf(workspace, userId);
    if (linked) return { username: linked, linked: true };
    if (workspace !== ONLY_WORKSPACE) {
      const ofWorkspace = await this.deps.accounts.usernameOf(workspace, WORKSPACE_ACCOUNT_USER);
      return ofWorkspace ? { username: ofWorkspace, linked: false } : undefined;
    }
    if (this.deps.workspaceAccount) return { username: this.deps.workspaceAccount.username, linked: false };
    return undefined;
  }

  /** Drops the cached zones of a workspace (it uninstalled fleetbot). */
  forgetWorkspace(workspace: WorkspaceKey): void {
    this.zones.delete(workspace);
    for (const key of this.asking.keys()) if (key.startsWith(`${workspace}\n`)) this.asking.delete(key);
  }

  private zonesOf(workspace: WorkspaceKey): Map<string, CachedZone> {
    let zones = this.zones.get(workspace);
    if (!zones) {
      zones = new Map();
      this.zones.set(workspace, zones);
    }
    return zones;
  }

  /** Asks Slack and fills `zones` (the workspace's map as it was asked: a forgotten workspace stays forgotten). */
  private async askSlack(
    client: WebClient,
    userId: string,
    zones: Map<string, CachedZone>,
    at: number,
  ): Promise<{ zone: string; told: boolean } | undefined> {
    try {
      const info = await client.users.info({ user: userId });
      const tz = info.user?.tz;
      const entry =
        tz && isTimeZone(tz)
          ? { zone: tz, at, told: true }
          : { zone: this.deps.companyTimeZone, at, told: false };
      zones.set(userId, entry);
      return entry;
    } catch {
      return undefined;
    }
  }

  private told(entry: { zone: string; told: boolean }): UserZone {
    return entry.told ? { zone: entry.zone } : { zone: entry.zone, guessed: true };
  }
}
