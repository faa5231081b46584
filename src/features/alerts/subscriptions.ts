import type { Language } from "../../i18n/language.js";
import type {
  AlertMute,
  AlertRepository,
  AlertSubscription,
  VehicleWatchOptions,
  ZoneRepository,
} from "../../platform/store/contract/index.js";
import { ONLY_WORKSPACE, type WorkspaceKey } from "../../platform/workspaces/workspace.js";
import { canonicalAlertCode, DEFAULT_STALE_MINUTES } from "./incidents.js";
import { zoneNameKey } from "./vehicleWatch/watches.js";

export interface SubscriptionFilters {
  /** Codes or kind names to alert on (ALERT_FILTER_WORDS); empty or absent = every alert. */
  codes?: readonly string[];
  /** Codes or kind names never to alert on. */
  exclude?: readonly string[];
  /** Plates or vehicle ids (carrierUId); absent = every vehicle. */
  vehicles?: readonly string[];
  /** How long a problem must last before it is posted (against flapping). */
  minDurationMinutes?: number;
  /** Minutes without a position sent before a stalled alert; 0 off; default DEFAULT_STALE_MINUTES. */
  staleMinutes?: number;
  /** Language of the channel's alerts (`lang=`); absent: the workspace default when rendered. */
  language?: Language;
  /** The vehicle kinds' options (`volts=`, `zones=`, …); absent: each kind's default. */
  watch?: VehicleWatchOptions;
}

/**
 * What is wrong with a subscription's filters, as a code and its data (the Slack side words it):
 * codes or kinds it does not know, a minimum duration or a stalled delay out of range.
 */
export type AlertFilterProblem =
  | { problem: "unknown-codes"; unknownCodes: readonly string[] }
  | { problem: "min-range"; min: 0; max: 1440 }
  | { problem: "stale-range"; min: 0; max: 360 }
  /** `zones=` names zones the workspace does not have; `known`: its zones' names. */
  | { problem: "unknown-zones"; names: readonly string[]; known: readonly string[] };

export class InvalidAlertFilterError extends Error {
  constructor(readonly detail: AlertFilterProblem) {
    // For logs only: users read the Slack side's words for `detail`.
    super(
      detail.problem === "unknown-codes"
        ? `invalid alert filter: unknown codes ${detail.unknownCodes.join(", ")}`
        : `invalid alert filter: ${detail.problem}`,
    );
    this.name = "InvalidAlertFilterError";
  }

  /** The codes or kinds not known (empty for a range problem). */
  get unknownCodes(): readonly string[] {
    return this.detail.problem === "unknown-codes" ? this.detail.unknownCodes : [];
  }
}

/** Canonical codes, or an InvalidAlertFilterError naming the unknown ones. */
export function normalizeAlertCodes(words: readonly string[] | undefined): string[] {
  const unknown: string[] = [];
  const out: string[] = [];
  for (const word of words ?? []) {
    if (word.trim() === "") continue;
    const code = canonicalAlertCode(word);
    if (code === undefined) unknown.push(word);
    else if (!out.includes(code)) out.push(code);
  }
  if (unknown.length > 0)
    throw new InvalidAlertFilterError({ problem: "unknown-codes", unknownCodes: unknown });
  return out;
}

function staleMinutesOf(filters: SubscriptionFilters): number {
  const stale = filters.staleMinutes ?? DEFAULT_STALE_MINUTES;
  if (!Number.isInteger(stale) || stale < 0 || stale > 360) {
    throw new InvalidAlertFilterError({ problem: "stale-range", min: 0, max: 360 });
  }
  return stale;
}

/**
 * Alert subscriptions over the store: one per (workspace, channel, fleet account). A
 * subscription runs as the account of the user who created it; the workspace one
 * (ALERTS_CHANNEL) has no creator and runs as the workspace account. Every method that names a
 * channel takes its workspace too ("" in single-workspace mode): a channel id alone names
 * nothing across workspaces.
 */
export class AlertSubscriptions {
  /** configuredKey()s of the subscriptions the configuration made (ALERTS_CHANNEL). */
  readonly #configured = new Set<string>();

  constructor(
    private readonly store: AlertRepository,
    private readonly now: () => number = Date.now,
    /** The workspaces' zones, to check `zones=` names (absent: not checked). */
    private readonly zones?: Pick<ZoneRepository, "zones">,
  ) {}

  /** Creates or replaces the workspace's channel's subscription for the account. Throws InvalidAlertFilterError. */
  async subscribe(
    channel: string,
    account: string,
    createdBy: string | undefined,
    filters: SubscriptionFilters = {},
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): Promise<{ subscription: AlertSubscription; created: boolean }> {
    const minutes = filters.minDurationMinutes ?? 0;
    if (!Number.isFinite(minutes) || minutes < 0 || minutes > 24 * 60) {
      throw new InvalidAlertFilterError({ problem: "min-range", min: 0, max: 1440 });
    }
    const input: Parameters<AlertRepository["upsertSubscription"]>[0] = {
      workspace,
      channel,
      account,
      codes: normalizeAlertCodes(filters.codes),
      excludeCodes: normalizeAlertCodes(filters.exclude),
      vehicles: [...(filters.vehicles ?? [])],
      minDurationMinutes: Math.floor(minutes),
      staleMinutes: staleMinutesOf(filters),
      // Awaited only when there are names to check: the rest stores in the same turn, as before.
      watch: filters.watch?.zones?.length
        ? await this.checkedWatch(filters.watch, workspace)
        : (filters.watch ?? {}),
    };
    if (createdBy !== undefined) input.createdBy = createdBy;
    if (filters.language !== undefined) input.language = filters.language;
    return await this.store.upsertSubscription(input);
  }

  /** The options, once every zone `zones=` names exists in the workspace. Throws InvalidAlertFilterError. */
  private async checkedWatch(
    watch: VehicleWatchOptions,
    workspace: WorkspaceKey,
  ): Promise<VehicleWatchOptions> {
    if (!this.zones || !watch.zones || watch.zones.length === 0) return watch;
    const zones = await this.zones.zones(workspace);
    const known = new Set(zones.map((z) => z.nameKey));
    const missing = watch.zones.filter((name) => !known.has(zoneNameKey(name)));
    if (missing.length > 0)
      throw new InvalidAlertFilterError({
        problem: "unknown-zones",
        names: missing,
        known: zones.map((z) => z.name),
      });
    // Stored as the zones are named, whatever the case typed.
    return {
      ...watch,
      zones: watch.zones.map((name) => zones.find((z) => z.nameKey === zoneNameKey(name))?.name ?? name),
    };
  }

  /**
   * Removes the workspace's channel's subscription of one account, or all of the channel's.
   * Returns how many. The subscription the configuration made is never removed here (see isConfigured).
   */
  async unsubscribe(
    channel: string,
    account?: string,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): Promise<number> {
    if (account !== undefined) {
      return this.isConfigured(channel, account, workspace)
        ? 0
        : await this.store.removeSubscription(channel, account, workspace);
    }
    let removed = 0;
    for (const sub of await this.store.subscriptions({ channel, workspace })) {
      if (!this.isConfigured(channel, sub.account, workspace))
        removed += await this.store.removeSubscription(channel, sub.account, workspace);
    }
    return removed;
  }

  /** Whether the channel's subscription for the account belongs to the configuration (ALERTS_CHANNEL): muted, never changed, from chat. */
  isConfigured(channel: string, account: string, workspace: WorkspaceKey = ONLY_WORKSPACE): boolean {
    return this.#configured.has(configuredKey(workspace, channel, account));
  }

  /**
   * Whether a user acting as `account` may mute this UIT in this channel: an alert of their own
   * account about it went to that channel of their workspace, so the transport is theirs to see.
   */
  canMute(
    channel: string,
    codeUit: string,
    account: string,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): Promise<boolean> {
    return this.store.hasPostFor(channel, codeUit, account, workspace);
  }

  /**
   * Subscriptions of an account, of a channel, of a workspace (any mix), or all. Without a
   * workspace, those of every workspace: a command answers with its own workspace's.
   */
  list(
    filter: { account?: string; channel?: string; workspace?: WorkspaceKey } = {},
  ): Promise<AlertSubscription[]> {
    return this.store.subscriptions(filter);
  }

  /**
   * ALERTS_CHANNEL: subscribes the channel for the workspace account at start, with every
   * alert. An existing subscription of that channel and account (maybe with filters) is kept.
   */
  async ensureWorkspaceSubscription(
    channel: string,
    account: string,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): Promise<AlertSubscription> {
    this.#configured.add(configuredKey(workspace, channel, account));
    const existing = await this.store.subscription(channel, account, workspace);
    if (existing) return existing;
    return (await this.store.upsertSubscription({ workspace, channel, account })).subscription;
  }

  /**
   * The sandbox's #alerts: subscribes the channel for the account in a fresh store only (no
   * subscription of the account anywhere, no incident ever), so a user who removed it does not
   * find it back after a restart. An ordinary one (no setting made it): listed, changed and
   * removed from chat like any other. Returns it when it was made.
   */
  async seedSubscription(
    channel: string,
    account: string,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
    filters: Pick<SubscriptionFilters, "codes" | "watch"> = {},
  ): Promise<AlertSubscription | undefined> {
    if ((await this.store.subscriptions({ account })).length > 0) return undefined;
    if ((await this.store.incidents(account)).length > 0) return undefined;
    const input: Parameters<AlertRepository["upsertSubscription"]>[0] = { workspace, channel, account };
    if (filters.codes) input.codes = normalizeAlertCodes(filters.codes);
    if (filters.watch) input.watch = filters.watch;
    return (await this.store.upsertSubscription(input)).subscription;
  }

  /** The Mute button: no new alert of this UIT in the workspace's channel for `ms` (default 24 h). */
  mute(
    channel: string,
    codeUit: string,
    ms = 24 * 3600_000,
    workspace: WorkspaceKey = ONLY_WORKSPACE,
  ): Promise<AlertMute> {
    return this.store.mute(channel, codeUit, this.now() + ms, workspace);
  }

  unmute(channel: string, codeUit: string, workspace: WorkspaceKey = ONLY_WORKSPACE): Promise<boolean> {
    return this.store.unmute(channel, codeUit, workspace);
  }
}

const configuredKey = (workspace: WorkspaceKey, channel: string, account: string) =>
  `${workspace}\u0000${channel}\u0000${account}`;
