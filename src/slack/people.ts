import type { WebClient } from "@slack/web-api";
import type { AccountStore } from "../store/accountStore.js";
import { isTimeZone } from "../time/zone.js";

/**
 * Who a Slack user is to fleetbot: their time zone (periods are read in it) and the fleet
 * account they act as (their own linked one, else the workspace account).
 */
export class People {
  private readonly zones = new Map<string, { zone: string; at: number }>();

  constructor(
    private readonly deps: {
      accounts: AccountStore;
      workspaceAccount?: { username: string };
      companyTimeZone: string;
      now?: () => number;
      zoneTtlMs?: number;
    },
  ) {}

  /** users.info, cached for a day; the company zone when Slack does not say. */
  async timeZoneOf(client: WebClient, userId: string): Promise<string> {
    const now = this.deps.now?.() ?? Date.now();
    const cached = this.zones.get(userId);
    if (cached && now - cached.at < (this.deps.zoneTtlMs ?? 24 * 3600_000)) return cached.zone;
    try {
      const info = await client.users.info({ user: userId });
      const zone = info.user?.tz && isTimeZone(info.user.tz) ? info.user.tz : this.deps.companyTimeZone;
      this.zones.set(userId, { zone, at: now });
      return zone;
    } catch {
      return cached?.zone ?? this.deps.companyTimeZone;
    }
  }

  /** The fleet account the user's commands and clicks run as, or undefined (they must link one). */
  accountOf(userId: string): { username: string; linked: boolean } | undefined {
    const linked = this.deps.accounts.usernameOf(userId);
    if (linked) return { username: linked, linked: true };
    if (this.deps.workspaceAccount) return { username: this.deps.workspaceAccount.username, linked: false };
    return undefined;
  }
}
