import cron, { type ScheduledTask } from "node-cron";
import type { LoadTransportsParams } from "../../platform/fleet/client.js";
import { UnauthorizedError } from "../../platform/fleet/errors.js";
import type { TransportPage } from "../../platform/fleet/schemas.js";
import type { CallContext, Priority } from "../../platform/fleet/seam.js";
import { logger as rootLogger } from "../../platform/log.js";
import type { AlertPost, AlertRepository, AlertSubscription } from "../../platform/store/contract/index.js";
import { type TransportView, toTransportView } from "../../platform/store/contract/transportView.js";
import { MemorySharedState, type SharedState } from "../../platform/store/sharedState.js";
import { cronZone } from "../../platform/time/cronZone.js";
import type { WorkspaceKey } from "../../platform/workspaces/workspace.js";
import { AlertGroups, type DueAlerts, type GroupRun, postAttempt } from "./alertGroups.js";
import {
  evaluateSweep,
  FINISHED_STATUS_IDS,
  type IncidentChange,
  type IncidentRecord,
  isVehicleKind,
  SWEEP_STATUS_IDS,
  type SweepSettings,
  staleAfterMs,
  staleEnoughFor,
  subscriptionMatches,
  type VanishedFinding,
  vanishedChanges,
} from "./incidents.js";
import {
  type AlertDigest,
  AlertPublishError,
  type AlertPublisher,
  type AlertTarget,
  storedFailure,
  targetKey,
} from "./publisher.js";
import { VehicleWatch, type VehicleWatchPorts } from "./vehicleWatch/vehicleSweep.js";

/** What the poller needs of a fleet session (FleetSession has it). */
export interface TransportSource {
  loadTransports(params: LoadTransportsParams, ctx?: CallContext): Promise<TransportPage>;
  /** Which credentials it holds (FleetSession.credentialsId); absent: the source itself. */
  readonly credentialsId?: object;
  /** Where its credentials stand without a call (FleetSession.standing); absent: not known. */
  standing?(): Promise<"proven" | "unproven" | "refused" | "outdated">;
}

/** Subscriptions of one account that use the same credentials, and a source holding them. */
interface Link {
  source: TransportSource;
  subs: AlertSubscription[];
  /** Its credentials hold a live token. */
  proven: boolean;
  /** Its last login was refused. */
  refused: boolean;
}

/** A refusal of the credentials themselves: another link of the account may still work. */
function refusedCredentials(error: unknown): boolean {
  return (
    error instanceof UnauthorizedError && (error.reason === "login" || error.reason === "password-changed")
  );
}

/** How long a paused channel's notice is remembered (a link not fixed within it is told again). */
const PAUSED_NOTICE_MS = 30 * 24 * 3_600_000;

type Log = {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
};

export interface AlertPollerOptions {
  store: AlertRepository;
  publisher: AlertPublisher;
  /**
   * The session of a fleet account: `slackUser` is the subscription's creator (whose linked
   * account it is, in the subscription's `workspace`), undefined for the workspace subscription.
   * main.ts's sessionFor fits.
   */
  sessionFor(who: {
    account: string;
    slackUser?: string;
    workspace: WorkspaceKey;
  }): TransportSource | Promise<TransportSource>;
  now?: () => number;
  /** Expiry lead (default 12 h) and not-started grace (default 15 min). */
  settings?: Omit<SweepSettings, "complete">;
  /** load-transports page size (default 100, the simulator's and a safe maximum). */
  pageSize?: number;
  /** Zone of the cron expressions (COMPANY_TIMEZONE). */
  timeZone?: string;
  logger?: Log;
  /**
   * Whether fleetbot itself removed this UIT for the account (the audit trail knows): a transport
   * it removed is gone, not hidden. Default: never.
   */
  removedByFleetbot?(account: string, codeUit: string): Promise<boolean>;
  /**
   * Where "this channel was told its alerts are paused" is remembered (Redis: across replicas and
   * restarts). Default: this process' memory.
   */
  notices?: Pick<SharedState, "mark" | "isMarked" | "unmark">;
  /** At most this many transports no longer listed are checked with the service per sweep (default 10). */
  vanishedChecksPerSweep?: number;
  /** More alerts than this for one channel (of one workspace) in one sweep are one grouped alert (ALERTS_GROUP_OVER, default 5). */
  groupOver?: number;
  /** Vehicle watch (zones, company-vehicles, temperatures); absent: transports only. */
  vehicleWatch?: VehicleWatchPorts<TransportSource>;
}

export interface SweepResult {
  transports: TransportView[];
  /** load-transports calls made. */
  pages: number;
  totalRecords: number;
  /** False when fewer distinct transports were read than the service counted. */
  complete: boolean;
}

export interface AccountRunResult {
  account: string;
  /** Undefined when the sweep failed (the error says why); posts were still retried. */
  sweep?: { transports: number; pages: number; totalRecords: number; complete: boolean };
  error?: string;
  opened: number;
  confirmed: number;
  resolved: number;
  posted: number;
  resolutionsSent: number;
  failed: number;
  muted: number;
}

export interface PollResult {
  /** True when a run was already under way: this tick did nothing. */
  skipped: boolean;
  accounts: AccountRunResult[];
  /** Slack rate-limited this run: the rest waits for the next one. */
  rateLimited: boolean;
}

const MINUTE = 60_000;
/** A transport still hidden is looked up again this often (it may have been ended meanwhile). */
export const VANISHED_RECHECK_MS = 30 * MINUTE;

/** Shared by a run's accounts: Slack's rate limit seen, and the run's abort signal. */
interface RunState {
  rateLimited: boolean;
  signal: AbortSignal;
  /**
   * Every subscription, read once per run and grouped by account: with hundreds of workspaces a
   * query per account (a full read each in Redis) made the setup of a tick grow with their square.
   */
  subscriptionsOf: ReadonlyMap<string, AlertSubscription[]>;
}
const MAX_PAGES = 1000;

/** node-cron's zone option for an expression (cronZone: zone-free expressions run in UTC). */
function zoneOption(expression: string, timeZone: string | undefined): { timezone?: string } {
  const zone = cronZone(expression, timeZone);
  return zone ? { timezone: zone } : {};
}

/**
 * Polls load-transports for every subscribed account (one sweep over every page, at alert
 * priority through the gate: above reports, below interactive calls), turns each page into
 * incident changes, stores them and posts that page's alerts before the next page is read;
 * after the last page, incidents of transports no longer listed are resolved, and edits and
 * thread replies follow. A post is recorded with its ts when it succeeds and never repeated;
 * a failed one is retried on the next run.
 */
export class AlertPoller {
  private readonly store: AlertRepository;
  private readonly publisher: AlertPublisher;
  private readonly now: () => number;
  private readonly pageSize: number;
  private readonly log: Log;
  private running: Promise<PollResult> | undefined;
  /** Aborted by stop(): a sweep's calls still waiting in the gate leave it, so shutdown does not wait a slot. */
  private stopping = new AbortController();
  private pollTask: ScheduledTask | undefined;
  private digestTask: ScheduledTask | undefined;
  private readonly lastSweeps = new Map<string, { at: number; transports: TransportView[] }>();
  private lastRunEndedAt: number | undefined;
  /** Grouped alerts, when the publisher can post them. */
  private readonly groups: AlertGroups | undefined;
  /** Per groupKey (account and target), the group the run's storm went into (later pages join it). */
  private readonly groupOf = new Map<string, string>();
  /** Which stale subscriptions were told their alerts are paused. */
  private readonly notices: Pick<SharedState, "mark" | "isMarked" | "unmark">;
  private readonly vehicleWatch: VehicleWatch<TransportSource> | undefined;

  constructor(private readonly options: AlertPollerOptions) {
    this.store = options.store;
    this.publisher = options.publisher;
    this.now = options.now ?? Date.now;
    this.pageSize = options.pageSize ?? 100;
    this.log = options.logger ?? rootLogger.child({ module: "alerts" });
    this.groups = AlertGroups.for(this.store, this.publisher, options.groupOver ?? 5);
    this.notices = options.notices ?? new MemorySharedState({ now: this.now });
    this.vehicleWatch = options.vehicleWatch
      ? new VehicleWatch(this.store, options.vehicleWatch, this.log)
      : undefined;
  }

  /** What grouping needs of one account's run. */
  private groupRun(account: string, result: AccountRunResult, state: RunState, tried: Set<string>): GroupRun {
    return {
      account,
      result,
      state,
      tried,
      groupOf: this.groupOf,
      failed: (incident, target, error) => this.failed(incident, target, error, result, state),
    };
  }

  /** True while a run is under way. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** When the last run (not skipped, not aborted) ended: /healthz tells a schedule that stopped. */
  get lastRunAt(): number | undefined {
    return this.lastRunEndedAt;
  }

  /**
   * One poll of every subscribed account. A call while a run is under way is skipped (logged).
   * `signal` (Redis mode: the sweep lock was lost) stops the run: no post after it aborts.
   */
  async runOnce(options: { signal?: AbortSignal } = {}): Promise<PollResult> {
    if (this.running !== undefined) {
      this.log.info({}, "alert poll skipped: the previous one is still running");
      return { skipped: true, accounts: [], rateLimited: false };
    }
    const signal = options.signal
      ? AbortSignal.any([this.stopping.signal, options.signal])
      : this.stopping.signal;
    const run = this.run(signal);
    this.running = run;
    try {
      const result = await run;
      if (!signal.aborted) this.lastRunEndedAt = this.now();
      return result;
    } finally {
      this.running = undefined;
    }
  }

  private async run(signal: AbortSignal): Promise<PollResult> {
    const subscriptionsOf = new Map<string, AlertSubscription[]>();
    for (const sub of await this.store.subscriptions()) {
      const of = subscriptionsOf.get(sub.account);
      if (of) of.push(sub);
      else subscriptionsOf.set(sub.account, [sub]);
    }
    const state: RunState = { rateLimited: false, signal, subscriptionsOf };
    const accounts = [...subscriptionsOf.keys()].sort();
    const results = await Promise.all(accounts.map((account) => this.runAccount(account, state)));
    return { skipped: false, accounts: results, rateLimited: state.rateLimited };
  }

  /**
   * Every page of Pending, In Progress and Paused transports, deduplicated by uId. With
   * `onPage`, each page's transports not seen on an earlier page are handed over as soon as
   * the page is read; the next page is already asked for while `onPage` runs, so the sweep
   * keeps its place in the gate's line while alerts are posted.
   */
  async sweep(
    session: TransportSource,
    options: {
      priority?: Priority;
      onPage?: (fresh: TransportView[]) => Promise<void>;
      signal?: AbortSignal;
    } = {},
  ): Promise<SweepResult> {
    const ctx: CallContext = {
      priority: options.priority ?? "alert",
      signal: options.signal ?? this.stopping.signal,
    };
    const load = (pageIndex: number) =>
      session.loadTransports({ statusIds: SWEEP_STATUS_IDS, pageSize: this.pageSize, pageIndex }, ctx);
    const byUId = new Map<string, TransportView>();
    let pages = 0;
    let read = 0;
    let totalRecords = 0;
    let next = load(0);
    for (let pageIndex = 0; pageIndex < MAX_PAGES; pageIndex++) {
      const page = await next;
      pages++;
      totalRecords = page.totalRecords;
      read += page.transports.length;
      const fresh: TransportView[] = [];
      for (const t of page.transports) {
        if (byUId.has(t.uId)) continue;
        const view = toTransportView(t);
        byUId.set(t.uId, view);
        fresh.push(view);
      }
      const more = page.transports.length > 0 && read < totalRecords && pageIndex + 1 < MAX_PAGES;
      if (more) {
        next = load(pageIndex + 1);
        // Awaited on the next turn of the loop; this only keeps a failure that arrives while
        // onPage runs from counting as unhandled.
        next.catch(() => undefined);
      }
      if (options.onPage) await options.onPage(fresh);
      if (!more) break;
    }
    return { transports: [...byUId.values()], pages, totalRecords, complete: byUId.size >= totalRecords };
  }

  private async runAccount(account: string, state: RunState): Promise<AccountRunResult> {
    const result: AccountRunResult = {
      account,
      opened: 0,
      confirmed: 0,
      resolved: 0,
      posted: 0,
      resolutionsSent: 0,
      failed: 0,
      muted: 0,
    };
    const subs = state.subscriptionsOf.get(account) ?? [];
    // (incident, target) pairs whose post was tried in this run (postAttempt): a failure waits for the next run.
    const tried = new Set<string>();
    // A new run: a storm of this account starts a new group.
    for (const key of this.groupOf.keys()) if (key.startsWith(`${account}\u0000`)) this.groupOf.delete(key);
    const record = async (changes: readonly IncidentChange[]) => {
      // Stored before anything is posted: a crash now loses no incident and repeats no post.
      const touched = await this.store.applyChanges(changes);
      for (const c of changes) {
        if (c.type === "open") result.opened++;
        else if (c.type === "confirm") result.confirmed++;
        else if (c.type === "resolve") result.resolved++;
      }
      return touched;
    };
    // Only subscriptions whose own link works get alerts: a channel whose link holds a replaced
    // (or refused) password is told once that its alerts are paused, and gets nothing more.
    const links = await this.linksOf(account, subs);
    const stale = [...links.stale];
    let postTo: AlertSubscription[] = [];
    try {
      let swept = false;
      for (const [i, link] of links.live.entries()) {
        try {
          await this.sweepWith(account, link, subs, state, result, tried, record);
        } catch (error) {
          // Refused: the next link (another password) may work; any other failure ends the sweep.
          if (!refusedCredentials(error)) throw error;
          stale.push(...link.subs);
          continue;
        }
        swept = true;
        postTo = link.subs;
        // An account has one password: once this one works, the links holding others are outdated.
        for (const other of links.live.slice(i + 1)) stale.push(...other.subs);
        break;
      }
      if (!swept && links.live.length > 0)
        result.error = "no link of this account is accepted by the service";
    } catch (error) {
      result.error = error instanceof Error ? error.message : String(error);
      this.log.warn({ account, err: result.error }, "alert sweep failed; stored alerts are still delivered");
      // Not a refusal: what was stored still goes out, but only to a link holding a live token (one
      // the service accepted lately); a link not proven may hold an old password.
      postTo = links.live
        .filter((link) => link.proven)
        .flatMap((link) => link.subs)
        .filter((sub) => !stale.includes(sub));
    }
    await this.notePaused(account, stale, postTo, state);
    await this.publish(account, postTo, result, state, tried, stale);
    if (result.opened + result.resolved + result.posted + result.failed > 0) {
      this.log.info({ ...result }, "alert poll");
    }
    return result;
  }

  /** One account's sweep with one link's credentials: incidents stored, and posted to that link's channels. */
  private async sweepWith(
    account: string,
    link: Link,
    subs: readonly AlertSubscription[],
    state: RunState,
    result: AccountRunResult,
    tried: Set<string>,
    record: (changes: readonly IncidentChange[]) => Promise<IncidentRecord[]>,
  ): Promise<void> {
    const session = link.source;
    const settings = this.options.settings;
    const sweep = await this.sweep(session, {
      priority: "alert",
      signal: state.signal,
      // Each page's problems are stored and posted as soon as the page is read. Only what
      // the page shows changes here; transports missing from every page are resolved below.
      onPage: async (fresh) => {
        const changes = evaluateSweep(
          account,
          await this.store.activeIncidents(account),
          fresh,
          this.now(),
          { ...settings, staleAfterMs: staleAfterMs(subs), complete: false },
          subs,
        );
        const touched = await record(changes);
        await this.postOpen(touched, link.subs, result, state, tried);
      },
    });
    const at = this.now();
    this.lastSweeps.set(account, { at, transports: sweep.transports });
    result.sweep = {
      transports: sweep.transports.length,
      pages: sweep.pages,
      totalRecords: sweep.totalRecords,
      complete: sweep.complete,
    };
    if (!sweep.complete) {
      this.log.warn({ account, ...result.sweep }, "alert sweep read fewer transports than counted");
    }
    // The whole sweep once more, after the last page (confirms of pending incidents).
    await record(
      evaluateSweep(
        account,
        await this.store.activeIncidents(account),
        sweep.transports,
        at,
        { ...settings, staleAfterMs: staleAfterMs(subs), complete: sweep.complete },
        subs,
      ),
    );
    // Transports no longer listed: only a complete sweep can tell, and only the service
    // whether they completed or went into Error (hidden).
    if (sweep.complete && !state.signal.aborted) {
      const touched = await this.checkVanished(account, session, sweep.transports, state.signal, record);
      await this.postOpen(touched, link.subs, result, state, tried);
    }
    // The vehicles themselves, with the same credentials: one company-vehicles call for every
    // subscription, channel and workspace of the account.
    if (this.vehicleWatch && !state.signal.aborted) {
      const outcome = await this.vehicleWatch.run({
        account,
        source: session,
        subs,
        transports: sweep.transports,
        active: await this.store.activeIncidents(account),
        nowMs: this.now(),
        signal: state.signal,
        record,
      });
      await this.postOpen(outcome.touched, link.subs, result, state, tried);
    }
  }

  /**
   * The account's subscriptions grouped by the credentials they run as (their subscriber's link, or
   * the workspace's account), those holding a live token first; `stale`: those whose link is known
   * not to work (a replaced or refused password, or no link at all), which are not swept with.
   */
  private async linksOf(
    account: string,
    subs: readonly AlertSubscription[],
  ): Promise<{ live: Link[]; stale: AlertSubscription[] }> {
    const byCredentials = new Map<object, Link>();
    const stale: AlertSubscription[] = [];
    for (const sub of subs) {
      let source: TransportSource;
      try {
        source = await this.options.sessionFor(
          sub.createdBy === undefined
            ? { account, workspace: sub.workspace }
            : { account, slackUser: sub.createdBy, workspace: sub.workspace },
        );
      } catch {
        stale.push(sub);
        continue;
      }
      // A source that cannot tell (a test double) is taken as working, as before links had a standing.
      const standing = (await source.standing?.()) ?? "proven";
      // Outdated for good (the service took a newer password). A refused link stays a candidate,
      // tried last: its token manager sends nothing until ALERT_LOGIN_RETRY_MS has passed since the
      // refusal (then one login), so a passing 401 does not silence the account's alerts for good.
      if (standing === "outdated") {
        stale.push(sub);
        continue;
      }
      const id = source.credentialsId ?? source;
      const link = byCredentials.get(id);
      if (link) link.subs.push(sub);
      else
        byCredentials.set(id, {
          source,
          subs: [sub],
          proven: standing === "proven",
          refused: standing === "refused",
        });
    }
    // The workspace subscription's link first, then the proven ones (no login needed).
    // Refused links last; then the workspace subscription's link, then the proven ones (no login needed).
    const live = [...byCredentials.values()].sort(
      (a, b) =>
        Number(a.refused) - Number(b.refused) ||
        Number(b.subs.some((s) => s.createdBy === undefined)) -
          Number(a.subs.some((s) => s.createdBy === undefined)) ||
        Number(b.proven) - Number(a.proven),
    );
    return { live, stale };
  }

  /**
   * Tells each stale subscription's channel once that its alerts are paused (and its subscriber,
   * directly); a subscription swept again is forgotten, so a later break is told again.
   */
  private async notePaused(
    account: string,
    stale: readonly AlertSubscription[],
    live: readonly AlertSubscription[],
    state: RunState,
  ): Promise<void> {
    const postPaused = this.publisher.postPaused?.bind(this.publisher);
    for (const sub of live) {
      const key = `alerts-paused:${sub.id}`;
      if (await this.notices.isMarked(key)) await this.notices.unmark(key);
    }
    if (!postPaused) return;
    for (const sub of stale) {
      if (state.signal.aborted || state.rateLimited) return;
      const key = `alerts-paused:${sub.id}`;
      if (await this.notices.isMarked(key)) continue;
      try {
        await postPaused(
          { workspace: sub.workspace, channel: sub.channel },
          { account, ...(sub.createdBy === undefined ? {} : { subscriber: sub.createdBy }) },
        );
        await this.notices.mark(key, PAUSED_NOTICE_MS);
      } catch (error) {
        // Told at a later sweep.
        this.log.warn(
          { account, channel: sub.channel, err: String(error) },
          "paused-alerts notice not posted",
        );
      }
    }
  }

  /**
   * Transports the last complete sweep listed (or that have active incidents) and this one does
   * not: each is looked up once among Completed and Auto Completed (load-transports with its UIT
   * as searchValue: the service searches one word or phrase, so one call per transport, at alert
   * priority; at most vanishedChecksPerSweep, the rest next sweep). Completed, or removed by
   * fleetbot: its incidents resolve. Not found: a red vanished incident opens (it may be in
   * Error, which load-transports hides) and its other incidents stay open, never ✅. A vanished
   * incident already open is looked up again every VANISHED_RECHECK_MS. Then the listed set is
   * replaced, keeping the ones not yet checked.
   */
  private async checkVanished(
    account: string,
    session: TransportSource,
    listed: readonly TransportView[],
    signal: AbortSignal,
    record: (changes: readonly IncidentChange[]) => Promise<IncidentRecord[]>,
  ): Promise<IncidentRecord[]> {
    const now = this.now();
    const current = new Set(listed.map((t) => t.uId));
    const active = await this.store.activeIncidents(account);
    const candidates = new Map<string, TransportView>();
    for (const t of await this.store.listedTransports(account)) {
      if (!current.has(t.uId)) candidates.set(t.uId, t);
    }
    // Incidents of transports not listed (an upgrade from a version without the listed set, or
    // a store that lost it) are checked too, with their facts as last known.
    for (const incident of active) {
      // A vehicle incident's subject is a vehicle: vehicle watch resolves it, never this check.
      if (isVehicleKind(incident.kind)) continue;
      if (!current.has(incident.transportUId) && !candidates.has(incident.transportUId))
        candidates.set(incident.transportUId, incident.facts);
    }
    const cap = this.options.vanishedChecksPerSweep ?? 10;
    const unchecked: TransportView[] = [];
    const changes: IncidentChange[] = [];
    let checks = 0;
    for (const t of candidates.values()) {
      const vanished = active.find((i) => i.transportUId === t.uId && i.kind === "vanished");
      if (vanished && now - vanished.lastSeenAt < VANISHED_RECHECK_MS) continue;
      if (checks >= cap || signal.aborted) {
        if (!vanished) unchecked.push(t);
        continue;
      }
      checks++;
      const finding = await this.vanishedFinding(account, session, t, signal);
      if (finding === "unchecked" && !vanished) unchecked.push(t);
      changes.push(...vanishedChanges(account, t, finding, active, now));
    }
    const touched = await record(changes);
    if (!signal.aborted) await this.store.replaceListed(account, [...listed, ...unchecked]);
    return touched;
  }

  /** What the service (or fleetbot's own audit trail) says of one transport no longer listed. */
  private async vanishedFinding(
    account: string,
    session: TransportSource,
    t: TransportView,
    signal: AbortSignal,
  ): Promise<VanishedFinding> {
    const removed = await this.options.removedByFleetbot?.(account, t.codeUit).catch(() => false);
    if (removed) return "removed";
    try {
      const page = await session.loadTransports(
        { statusIds: FINISHED_STATUS_IDS, searchValue: t.codeUit, pageSize: 10, pageIndex: 0 },
        { priority: "alert", signal },
      );
      const same = (code: string) => code.replace(/[\s-]/g, "").toUpperCase();
      const found = page.transports.some((x) => x.uId === t.uId || same(x.codeUit) === same(t.codeUit));
      return found ? "completed" : "hidden";
    } catch (error) {
      this.log.warn({ account, codeUit: t.codeUit, err: String(error) }, "vanished transport not checked");
      return "unchecked";
    }
  }

  /** Posts what is owed for the account's open incidents, and resolutions of resolved ones. */
  private async publish(
    account: string,
    subs: readonly AlertSubscription[],
    result: AccountRunResult,
    state: RunState,
    tried: Set<string>,
    held: readonly AlertSubscription[] = [],
  ): Promise<void> {
    await this.postOpen(await this.store.activeIncidents(account), subs, result, state, tried);
    // Channels whose link stopped working: their alerts' resolutions wait until it works again.
    const heldTargets = new Set(
      held.map((sub) => targetKey({ workspace: sub.workspace, channel: sub.channel })),
    );
    const run = this.groupRun(account, result, state, tried);
    // Grouped members resolved in this run, by group: each group message is edited once.
    const groupResolutions = new Map<string, AlertPost[]>();
    for (const post of await this.store.unresolvedPosts(account)) {
      const incident = await this.store.incident(post.incidentId);
      if (!incident) continue;
      if (this.groups && (await this.groups.resolveMember(post, incident, groupResolutions, run))) {
        if (state.signal.aborted) return;
        continue;
      }
      const { workspace, channel } = post;
      if (heldTargets.has(targetKey({ workspace, channel }))) continue;
      if (post.ts === undefined) {
        // Never posted (failed or muted while open): nothing to resolve.
        await this.store.recordResolutionDone(post.incidentId, channel, workspace);
        continue;
      }
      if (state.rateLimited) continue;
      if (state.signal.aborted) return;
      const target: AlertTarget = { workspace, channel };
      try {
        if (post.resolvedUpdatedAt === undefined) {
          await this.publisher.markResolved(target, post.ts, incident);
          await this.store.recordResolvedUpdate(post.incidentId, channel, workspace);
        }
        if (post.replyTs === undefined) {
          const { ts } = await this.publisher.replyResolved(target, post.ts, incident);
          await this.store.recordResolvedReply(post.incidentId, channel, ts, workspace);
        }
        await this.store.recordResolutionDone(post.incidentId, channel, workspace);
        result.resolutionsSent++;
      } catch (error) {
        if (error instanceof AlertPublishError && error.failure === "message_gone") {
          await this.store.recordFailure(post.incidentId, channel, storedFailure(error), workspace);
          await this.store.recordResolutionDone(post.incidentId, channel, workspace);
          continue;
        }
        await this.failed(incident, target, error, result, state);
      }
    }
    await this.groups?.finishResolutions(groupResolutions, run);
  }

  /** Posts the alerts owed for open incidents among `incidents`, at most once per run and target. */
  private async postOpen(
    incidents: readonly IncidentRecord[],
    subs: readonly AlertSubscription[],
    result: AccountRunResult,
    state: RunState,
    tried: Set<string>,
  ): Promise<void> {
    const now = this.now();
    // The alerts owed per target (by targetKey), filters, minimum duration and mutes applied: a storm is grouped.
    const due = new Map<string, DueAlerts>();
    // Stored groups with a member owed its reply (or the group its post).
    const owedGroups = new Set<string>();
    for (const incident of incidents) {
      if (incident.state !== "open") continue;
      for (const sub of subs) {
        if (!subscriptionMatches(sub, incident)) continue;
        // Each subscription's own stale= (the incident opened at the account's smallest).
        if (incident.kind === "stalled" && !staleEnoughFor(sub, incident, now)) continue;
        if (now - incident.firstSeenAt < sub.minDurationMinutes * MINUTE) continue;
        const { workspace, channel } = sub;
        const target: AlertTarget = { workspace, channel };
        if (tried.has(postAttempt(incident.id, target))) continue;
        const post = await this.store.post(incident.id, channel, workspace);
        if (post?.ts !== undefined) continue;
        if (post?.groupId !== undefined && this.groups) {
          owedGroups.add(post.groupId);
          continue;
        }
        const mutedUntil = await this.store.mutedUntil(channel, incident.codeUit, now, workspace);
        if (mutedUntil !== undefined) {
          if (post?.mutedUntil !== mutedUntil) {
            await this.store.ensurePost(incident.id, channel, workspace);
            await this.store.recordMuted(incident.id, channel, mutedUntil, workspace);
            result.muted++;
          }
          continue;
        }
        if (state.rateLimited) continue;
        // Aborted (the sweep lock was lost): another sweep may be posting this very alert.
        if (state.signal.aborted) return;
        const key = targetKey(target);
        const owed = due.get(key) ?? { target, incidents: [] };
        owed.incidents.push(incident);
        due.set(key, owed);
      }
    }
    const account = incidents[0]?.account;
    const single =
      this.groups && account !== undefined
        ? await this.groups.deliver(due.values(), owedGroups, this.groupRun(account, result, state, tried))
        : [...due.values()].flatMap(({ target, incidents: list }) =>
            list.map((incident) => ({ incident, target })),
          );
    for (const { incident, target } of single) {
      if (state.rateLimited) continue;
      if (state.signal.aborted) return;
      tried.add(postAttempt(incident.id, target));
      await this.store.ensurePost(incident.id, target.channel, target.workspace);
      try {
        const { ts } = await this.publisher.post(target, incident);
        await this.store.recordPosted(incident.id, target.channel, ts, target.workspace);
        result.posted++;
      } catch (error) {
        await this.failed(incident, target, error, result, state);
      }
    }
  }

  private async failed(
    incident: IncidentRecord,
    target: AlertTarget,
    error: unknown,
    result: AccountRunResult,
    state: { rateLimited: boolean },
  ): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    // A code, not the words: the list says it in its reader's language (publisher.ts storedFailure).
    await this.store.recordFailure(incident.id, target.channel, storedFailure(error), target.workspace);
    result.failed++;
    if (error instanceof AlertPublishError && error.failure === "ratelimited") state.rateLimited = true;
    this.log.warn(
      {
        channel: target.channel,
        workspace: target.workspace,
        codeUit: incident.codeUit,
        kind: incident.kind,
        err: message,
      },
      "alert post failed; retried on the next poll",
    );
  }

  // ---------- digest ----------

  /**
   * The daily digest: per subscribed channel, its open incidents, transports by status and
   * UITs whose validity ends within a day. Uses the last sweep of the account when there is
   * one, else sweeps. Returns how many digests were posted.
   */
  async runDigest(): Promise<number> {
    const post = this.publisher.postDigest?.bind(this.publisher);
    if (!post) return 0;
    let sent = 0;
    for (const account of await this.store.subscribedAccounts()) {
      // Digests, like alerts, go only to the channels of the link that works (the first one).
      const link = (await this.linksOf(account, await this.store.subscriptions({ account }))).live[0];
      if (!link) continue;
      const subs = link.subs;
      let transports = this.lastSweeps.get(account)?.transports;
      if (!transports) {
        try {
          // The digest is a summary, not a warning: it waits behind reports.
          transports = (await this.sweep(link.source, { priority: "background" })).transports;
          this.lastSweeps.set(account, { at: this.now(), transports });
        } catch (error) {
          this.log.warn({ account, err: String(error) }, "digest sweep failed");
          continue;
        }
      }
      const now = this.now();
      const open = (await this.store.openIncidents()).filter((i) => i.account === account);
      for (const sub of subs) {
        const wantsVehicle = (t: TransportView) =>
          subscriptionMatches(
            { ...sub, codes: [], excludeCodes: [] },
            { kind: "expiry", code: "", facts: t },
          );
        const mine = transports.filter(wantsVehicle);
        const counts: Record<number, number> = {};
        for (const t of mine) counts[t.statusId] = (counts[t.statusId] ?? 0) + 1;
        const expiring = mine
          .filter((t) => t.validityEndMs !== undefined && t.validityEndMs - now <= 24 * 3600_000)
          .sort((a, b) => (a.validityEndMs ?? 0) - (b.validityEndMs ?? 0));
        const digest: AlertDigest = {
          account,
          incidents: open.filter((i) => subscriptionMatches(sub, i)),
          countsByStatus: counts,
          expiring,
          nowMs: now,
        };
        try {
          await post({ workspace: sub.workspace, channel: sub.channel }, digest);
          sent++;
        } catch (error) {
          this.log.warn(
            { channel: sub.channel, workspace: sub.workspace, err: String(error) },
            "alert digest failed",
          );
        }
      }
    }
    return sent;
  }

  // ---------- schedule ----------

  /** Polls on a cron expression (ALERTS_CRON); a tick while a run is under way is skipped. */
  start(cronExpression: string): void {
    void this.pollTask?.stop();
    this.pollTask = cron.schedule(
      cronExpression,
      async () => {
        await this.runOnce().catch((error: unknown) =>
          this.log.error({ err: String(error) }, "alert poll failed"),
        );
      },
      {
        name: "alerts-poll",
        noOverlap: true,
        ...zoneOption(cronExpression, this.options.timeZone),
      },
    );
    this.pollTask.on("execution:overlap", () => {
      this.log.info({}, "alert poll tick skipped: the previous one is still running");
    });
  }

  /** When the next scheduled poll starts (epoch ms); undefined when no schedule is running. */
  nextRunAt(): number | undefined {
    return this.pollTask?.getNextRun()?.getTime();
  }

  /** The optional daily digest on its own cron expression (off unless started). */
  startDigest(cronExpression: string): void {
    void this.digestTask?.stop();
    this.digestTask = cron.schedule(
      cronExpression,
      async () => {
        await this.runDigest().catch((error: unknown) =>
          this.log.error({ err: String(error) }, "alert digest failed"),
        );
      },
      {
        name: "alerts-digest",
        noOverlap: true,
        ...zoneOption(cronExpression, this.options.timeZone),
      },
    );
  }

  /** Stops both schedules and waits for a run under way. */
  async stop(): Promise<void> {
    await this.pollTask?.destroy();
    await this.digestTask?.destroy();
    this.pollTask = undefined;
    this.digestTask = undefined;
    // A call already sent runs to its end; one waiting for its slot is withdrawn. Nothing of a
    // sweep cut short is resolved (missing transports are resolved only after the last page).
    this.stopping.abort();
    await this.running?.catch(() => undefined);
    this.stopping = new AbortController();
  }
}
