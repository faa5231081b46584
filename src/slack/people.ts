import type { WebClient } from "@slack/web-api";
import type { AccountRepository } from "../store/repositories.js";
import { isTimeZone } from "../time/zone.js";

/** A user's zone as settled for a task; `note` when it is the company's because Slack did not say. */
export interface UserZone {
  zone: string;
  note?: string;
}

/** How long a task waits for users.info before it writes its times in the company zone. */
const ZONE_WAIT_MS = 2_000;

/**
 * Who a Slack user is to fleetbot: their time zone (periods are read in it) and the fleet
 * account they act as (their own linked one, else the workspace account).
 *
 * The zone has two readings. Before an ack only the cache may be read (`zoneAtAck`): no Web
 * API call may delay Slack's 3 seconds. A task settles it (`settleZone`) from the cache or
 * users.info, before its first time is rendered.
 */
export class People {
  private readonly zones = new Map<string, { zone: string; at: number; told: boolean }>();
  /** users.info calls under way, one per user: a slow or rate-limited one is not asked twice. */
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
  zoneAtAck(userId: string): string {
    return this.zones.get(userId)?.zone ?? this.deps.companyTimeZone;
  }

  /**
   * The zone a task writes its times in: cached (a day), else users.info within a short wait.
   * When Slack does not answer in time (a 429 with Retry-After, an outage) or has no zone for
   * the user, the company zone with a note; a late answer still fills the cache for next time.
   */
  async settleZone(client: WebClient, userId: string): Promise<UserZone> {
    const now = this.deps.now?.() ?? Date.now();
    const cached = this.zones.get(userId);
    const fresh = cached && now - cached.at < (this.deps.zoneTtlMs ?? 24 * 3600_000);
    if (cached && fresh) return this.told(cached);
    let asking = this.asking.get(userId);
    if (!asking) {
      asking = this.askSlack(client, userId, now);
      this.asking.set(userId, asking);
      void asking.finally(() => this.asking.delete(userId));
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), this.deps.zoneWaitMs ?? ZONE_WAIT_MS);
    });
    const answer = await Promise.race([asking, late]).finally(() => clearTimeout(timer));
    if (answer) return this.told(answer);
    // A zone Slack gave before (now stale) is better than the company's.
    return cached ? { zone: cached.zone } : this.told({ zone: this.deps.companyTimeZone, told: false });
  }

  /** After an ack: the zone settled as a task would (buttons whose answer renders times). */
  async timeZoneOf(client: WebClient, userId: string): Promise<string> {
    return (await this.settleZone(client, userId)).zone;
  }

  /** The fleet account the user's commands and clicks run as, or undefined (they must link one). */
  async accountOf(userId: string): Promise<{ username: string; linked: boolean } | undefined> {
    const linked = await this.deps.accounts.usernameOf(userId);
    if (linked) return { username: linked, linked: true };
    if (this.deps.workspaceAccount) return { username: this.deps.workspaceAccount.username, linked: false };
    return undefined;
  }

  private async askSlack(
    client: WebClient,
    userId: string,
    at: number,
  ): Promise<{ zone: string; told: boolean } | undefined> {
    try {
      const info = await client.users.info({ user: userId });
      const tz = info.user?.tz;
      const entry =
        tz && isTimeZone(tz)
          ? { zone: tz, at, told: true }
          : { zone: this.deps.companyTimeZone, at, told: false };
      this.zones.set(userId, entry);
      return entry;
    } catch {
      return undefined;
    }
  }

  private told(entry: { zone: string; told: boolean }): UserZone {
    return entry.told
      ? { zone: entry.zone }
      : { zone: entry.zone, note: `Times in ${entry.zone}: Slack did not say your time zone.` };
  }
}
