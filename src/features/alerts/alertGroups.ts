import type { AlertPost, AlertRepository } from "../../platform/store/contract/index.js";
import type { IncidentRecord } from "./incidents.js";
import {
  type AlertGroupView,
  AlertPublishError,
  type AlertPublisher,
  type AlertTarget,
  storedFailure,
  targetKey,
} from "./publisher.js";

/**
 * Grouped alerts: when one sweep owes a channel more than `over` alerts (a storm: the link to
 * ANAF fails and every In-Progress transport goes Error), they become one message listing them
 * all, with each member's alert and buttons as a reply in its thread. Same recording as single
 * alerts: the group and its members are stored before anything is posted; the group's ts, each
 * reply's ts (the member's post row) and each resolution are recorded when Slack accepts them.
 */

/** What grouping needs of the poller's run: its counts, rate limit, abort, and failure handling. */
export interface GroupRun {
  account: string;
  result: { posted: number; resolutionsSent: number };
  state: { rateLimited: boolean; signal: AbortSignal };
  /** Attempts of this run (postAttempt; a group's as `group\0<id>`): a failure waits for the next run. */
  tried: Set<string>;
  /** The group each target's storm went into in this run (by groupKey): later pages of the sweep join it. */
  groupOf: Map<string, string>;
  failed(incident: IncidentRecord, target: AlertTarget, error: unknown): Promise<void>;
}

/** The alerts owed to one target (a channel of one workspace) in one sweep. */
export interface DueAlerts {
  target: AlertTarget;
  incidents: IncidentRecord[];
}

/** The key of one post's attempt in a run's `tried`. */
export const postAttempt = (incidentId: string, target: AlertTarget): string =>
  `${incidentId}\u0000${targetKey(target)}`;

/** The key of an account's storm in one target in a run's `groupOf`. */
export const groupKey = (account: string, target: AlertTarget): string =>
  `${account}\u0000${targetKey(target)}`;

const targetOf = (row: { workspace: string; channel: string }): AlertTarget => ({
  workspace: row.workspace,
  channel: row.channel,
});

type GroupPublisher = Required<Pick<AlertPublisher, "postGroup" | "updateGroup" | "postInThread">> &
  Pick<AlertPublisher, "markResolved">;

const groupAttempt = (groupId: string) => `group\u0000${groupId}`;

export class AlertGroups {
  private constructor(
    private readonly store: AlertRepository,
    private readonly publisher: GroupPublisher,
    /** More alerts than this for one channel in one sweep are grouped. */
    readonly over: number,
  ) {}

  /** Grouping for a publisher that can post groups; undefined (every alert single) otherwise. */
  static for(store: AlertRepository, publisher: AlertPublisher, over: number): AlertGroups | undefined {
    const { postGroup, updateGroup, postInThread } = publisher;
    if (!postGroup || !updateGroup || !postInThread) return undefined;
    return new AlertGroups(
      store,
      {
        postGroup: postGroup.bind(publisher),
        updateGroup: updateGroup.bind(publisher),
        postInThread: postInThread.bind(publisher),
        markResolved: publisher.markResolved.bind(publisher),
      },
      over,
    );
  }

  /**
   * Sorts the alerts owed (per target, muted and filtered ones already left out) into groups,
   * posts the groups and their members' replies (and those of `owed`: groups stored earlier with
   * a step still to do), and returns the alerts to post one by one.
   */
  async deliver(
    due: Iterable<DueAlerts>,
    owed: Set<string>,
    run: GroupRun,
  ): Promise<{ incident: IncidentRecord; target: AlertTarget }[]> {
    const single: { incident: IncidentRecord; target: AlertTarget }[] = [];
    for (const { target, incidents } of due) {
      const key = groupKey(run.account, target);
      const joining = run.groupOf.get(key);
      if (joining === undefined && incidents.length <= this.over) {
        for (const incident of incidents) single.push({ incident, target });
        continue;
      }
      if (run.state.signal.aborted) return [];
      const ids = incidents.map((i) => i.id);
      // Stored before anything is posted: a crash now posts this group on the next run, once.
      const group =
        joining !== undefined
          ? await this.store.addToGroup(joining, ids)
          : await this.store.createGroup(run.account, target.channel, ids, target.workspace);
      if (group === undefined) {
        for (const incident of incidents) single.push({ incident, target });
        continue;
      }
      run.groupOf.set(key, group.id);
      owed.add(group.id);
    }
    for (const groupId of owed) await this.post(groupId, run);
    return single;
  }

  /** The group message (posted, or edited to list members that joined), then the members' replies. */
  private async post(groupId: string, run: GroupRun): Promise<void> {
    if (run.tried.has(groupAttempt(groupId))) return;
    let group = await this.store.group(groupId);
    if (!group) return;
    const target = targetOf(group);
    const members = await this.store.groupMembers(groupId);
    const first = members[0];
    if (!first) return;
    const view: AlertGroupView = { id: groupId, incidents: members.map((m) => m.incident) };
    if (run.state.rateLimited || run.state.signal.aborted) return;
    let threadTs = group.ts;
    try {
      if (threadTs === undefined) {
        // Every member resolved before the group got out: nothing left to tell.
        if (members.every((m) => m.incident.state === "resolved")) return;
        const { ts } = await this.publisher.postGroup(target, view);
        await this.store.recordGroupPosted(groupId, ts, members.length);
        run.result.posted++;
        threadTs = ts;
      } else if (group.shown < members.length) {
        await this.updateUnlessGone(groupId, target, threadTs, view, members.length);
      }
    } catch (error) {
      run.tried.add(groupAttempt(groupId));
      await this.store.recordGroupFailure(groupId, storedFailure(error));
      // Also on a member's post: `/fleet alerts list` shows the channel's last failure.
      await run.failed(first.incident, target, error);
      return;
    }
    group = { ...group, ts: threadTs };
    for (const { incident, post } of members) {
      if (post.ts !== undefined || incident.state !== "open") continue;
      if (run.state.rateLimited || run.state.signal.aborted) return;
      const attempt = postAttempt(incident.id, target);
      if (run.tried.has(attempt)) continue;
      run.tried.add(attempt);
      try {
        const { ts } = await this.publisher.postInThread(target, threadTs, incident);
        await this.store.recordPosted(incident.id, target.channel, ts, target.workspace);
        run.result.posted++;
      } catch (error) {
        await run.failed(incident, target, error);
      }
    }
  }

  /**
   * The group message edited to list the members that joined. Someone deleted it: it is not
   * edited again (counted as shown), and the members still get their replies with their buttons.
   */
  private async updateUnlessGone(
    groupId: string,
    target: AlertTarget,
    ts: string,
    view: AlertGroupView,
    members: number,
  ): Promise<void> {
    try {
      await this.publisher.updateGroup(target, ts, view);
    } catch (error) {
      if (!(error instanceof AlertPublishError && error.failure === "message_gone")) throw error;
    }
    await this.store.recordGroupShown(groupId, members);
  }

  /**
   * The first half of a grouped member's resolution: its reply edited to resolved (no buttons).
   * The group message is edited once per group afterwards (finishResolutions), and only then is
   * each member's resolution recorded done. False: the post is not a grouped one (handled singly).
   */
  async resolveMember(
    post: AlertPost,
    incident: IncidentRecord,
    pending: Map<string, AlertPost[]>,
    run: GroupRun,
  ): Promise<boolean> {
    if (post.groupId === undefined) return false;
    const group = await this.store.group(post.groupId);
    if (!group) return false;
    if (group.ts === undefined) {
      // The group was never posted: nothing in Slack to resolve.
      await this.store.recordResolutionDone(post.incidentId, post.channel, post.workspace);
      return true;
    }
    if (run.state.rateLimited || run.state.signal.aborted) return true;
    if (post.ts !== undefined && post.resolvedUpdatedAt === undefined) {
      const target = targetOf(post);
      try {
        await this.publisher.markResolved(target, post.ts, incident);
        await this.store.recordResolvedUpdate(post.incidentId, post.channel, post.workspace);
      } catch (error) {
        if (!(error instanceof AlertPublishError && error.failure === "message_gone")) {
          await run.failed(incident, target, error);
          return true;
        }
        // The reply was deleted: the group message still shows the line resolved.
        await this.store.recordFailure(post.incidentId, post.channel, storedFailure(error), post.workspace);
      }
    }
    const list = pending.get(group.id) ?? [];
    list.push(post);
    pending.set(group.id, list);
    return true;
  }

  /** Edits each group message once for its members resolved in this run (✅ header after the last). */
  async finishResolutions(pending: ReadonlyMap<string, readonly AlertPost[]>, run: GroupRun): Promise<void> {
    for (const [groupId, posts] of pending) {
      if (run.state.rateLimited || run.state.signal.aborted) return;
      const group = await this.store.group(groupId);
      if (!group?.ts) continue;
      const members = await this.store.groupMembers(groupId);
      const incidents = members.map((m) => m.incident);
      const target = targetOf(group);
      try {
        await this.publisher.updateGroup(target, group.ts, { id: groupId, incidents });
        if (incidents.every((i) => i.state === "resolved")) await this.store.recordGroupResolved(groupId);
      } catch (error) {
        if (!(error instanceof AlertPublishError && error.failure === "message_gone")) {
          const incident = incidents.find((i) => i.id === posts[0]?.incidentId) ?? incidents[0];
          if (incident) await run.failed(incident, target, error);
          continue;
        }
        // The group message was deleted: its resolutions are given up.
      }
      for (const post of posts) {
        await this.store.recordResolutionDone(post.incidentId, post.channel, post.workspace);
        run.result.resolutionsSent++;
      }
    }
  }
}
