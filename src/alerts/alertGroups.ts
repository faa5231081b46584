import type { AlertPost } from "../store/alertStore.js";
import type { AlertRepository } from "../store/repositories.js";
import type { IncidentRecord } from "./incidents.js";
import { type AlertGroupView, AlertPublishError, type AlertPublisher } from "./publisher.js";

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
  /** Attempts of this run (as the poller keys them; a group's as `group\0<id>`): a failure waits for the next run. */
  tried: Set<string>;
  /** The group each channel's storm went into in this run: later pages of the sweep join it. */
  groupOf: Map<string, string>;
  failed(incident: IncidentRecord, channel: string, error: unknown): Promise<void>;
}

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
   * Sorts the alerts owed (per channel, muted and filtered ones already left out) into groups,
   * posts the groups and their members' replies (and those of `owed`: groups stored earlier with
   * a step still to do), and returns the alerts to post one by one.
   */
  async deliver(
    due: ReadonlyMap<string, readonly IncidentRecord[]>,
    owed: Set<string>,
    run: GroupRun,
  ): Promise<{ incident: IncidentRecord; channel: string }[]> {
    const single: { incident: IncidentRecord; channel: string }[] = [];
    for (const [channel, incidents] of due) {
      const key = `${run.account}\u0000${channel}`;
      const joining = run.groupOf.get(key);
      if (joining === undefined && incidents.length <= this.over) {
        for (const incident of incidents) single.push({ incident, channel });
        continue;
      }
      if (run.state.signal.aborted) return [];
      const ids = incidents.map((i) => i.id);
      // Stored before anything is posted: a crash now posts this group on the next run, once.
      const group =
        joining !== undefined
          ? await this.store.addToGroup(joining, ids)
          : await this.store.createGroup(run.account, channel, ids);
      if (group === undefined) {
        for (const incident of incidents) single.push({ incident, channel });
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
    const { channel } = group;
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
        const { ts } = await this.publisher.postGroup(channel, view);
        await this.store.recordGroupPosted(groupId, ts, members.length);
        run.result.posted++;
        threadTs = ts;
      } else if (group.shown < members.length) {
        await this.updateUnlessGone(groupId, channel, threadTs, view, members.length);
      }
    } catch (error) {
      run.tried.add(groupAttempt(groupId));
      const message = error instanceof Error ? error.message : String(error);
      await this.store.recordGroupFailure(groupId, message);
      // Also on a member's post: `/fleet alerts list` shows the channel's last failure.
      await run.failed(first.incident, channel, error);
      return;
    }
    group = { ...group, ts: threadTs };
    for (const { incident, post } of members) {
      if (post.ts !== undefined || incident.state !== "open") continue;
      if (run.state.rateLimited || run.state.signal.aborted) return;
      const attempt = `${incident.id}\u0000${channel}`;
      if (run.tried.has(attempt)) continue;
      run.tried.add(attempt);
      try {
        const { ts } = await this.publisher.postInThread(channel, threadTs, incident);
        await this.store.recordPosted(incident.id, channel, ts);
        run.result.posted++;
      } catch (error) {
        await run.failed(incident, channel, error);
      }
    }
  }

  /**
   * The group message edited to list the members that joined. Someone deleted it: it is not
   * edited again (counted as shown), and the members still get their replies with their buttons.
   */
  private async updateUnlessGone(
    groupId: string,
    channel: string,
    ts: string,
    view: AlertGroupView,
    members: number,
  ): Promise<void> {
    try {
      await this.publisher.updateGroup(channel, ts, view);
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
      await this.store.recordResolutionDone(post.incidentId, post.channel);
      return true;
    }
    if (run.state.rateLimited || run.state.signal.aborted) return true;
    if (post.ts !== undefined && post.resolvedUpdatedAt === undefined) {
      try {
        await this.publisher.markResolved(post.channel, post.ts, incident);
        await this.store.recordResolvedUpdate(post.incidentId, post.channel);
      } catch (error) {
        if (!(error instanceof AlertPublishError && error.failure === "message_gone")) {
          await run.failed(incident, post.channel, error);
          return true;
        }
        // The reply was deleted: the group message still shows the line resolved.
        await this.store.recordFailure(post.incidentId, post.channel, error.message);
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
      try {
        await this.publisher.updateGroup(group.channel, group.ts, { id: groupId, incidents });
        if (incidents.every((i) => i.state === "resolved")) await this.store.recordGroupResolved(groupId);
      } catch (error) {
        if (!(error instanceof AlertPublishError && error.failure === "message_gone")) {
          const incident = incidents.find((i) => i.id === posts[0]?.incidentId) ?? incidents[0];
          if (incident) await run.failed(incident, group.channel, error);
          continue;
        }
        // The group message was deleted: its resolutions are given up.
      }
      for (const post of posts) {
        await this.store.recordResolutionDone(post.incidentId, post.channel);
        run.result.resolutionsSent++;
      }
    }
  }
}
