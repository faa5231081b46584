import { describe, expect, it } from "vitest";
import { AlertPoller, type TransportSource } from "../../../src/features/alerts/poller.js";
import {
  type AlertDigest,
  AlertPublishError,
  type AlertPublisher,
  type AlertsPausedNotice,
  type AlertTarget,
} from "../../../src/features/alerts/publisher.js";
import { toPublishError } from "../../../src/features/alerts/slackPublisher.js";
import { AlertSubscriptions } from "../../../src/features/alerts/subscriptions.js";
import type { LoadTransportsParams } from "../../../src/platform/fleet/client.js";
import { UnauthorizedError } from "../../../src/platform/fleet/errors.js";
import type { Transport } from "../../../src/platform/fleet/schemas.js";
import type { CallContext } from "../../../src/platform/fleet/seam.js";
import { SqliteAlertStore } from "../../../src/platform/store/alertStore.js";
import { openDatabase } from "../../../src/platform/store/database.js";
import { promised } from "../../../src/platform/store/promised.js";

const NOW = Date.UTC(2026, 10, 3, 8, 0, 0);
const silent = { info() {}, warn() {}, debug() {}, error() {} };

function transport(i: number, code = "Active"): Transport {
  return {
    uId: `t-${i}`,
    codeUit: `UIT${String(i).padStart(13, "0")}`,
    statusId: 2,
    carrierCode: `B-${i}-ABC`,
    transmissionStatusCode: code,
    validityEndDate: new Date(NOW + 5 * 86_400_000),
  } as Transport;
}

/** load-transports over a fixed list; `shift` inserts transports between pages. */
class FakeSource implements TransportSource {
  calls: LoadTransportsParams[] = [];
  failWith: Error | undefined;
  /** Completed ones: what a lookup among statuses 3 and 4 finds, by UIT. */
  finished: Transport[] = [];
  constructor(
    public list: Transport[],
    private readonly onPage?: (index: number, self: FakeSource) => void,
  ) {}
  async loadTransports(params: LoadTransportsParams) {
    this.calls.push(params);
    if (this.failWith) throw this.failWith;
    if (params.statusIds.includes(3)) {
      const found = this.finished.filter((t) => t.codeUit === params.searchValue);
      return { totalRecords: found.length, transports: found };
    }
    const size = params.pageSize ?? 20;
    const index = params.pageIndex ?? 0;
    const page = this.list.slice(index * size, (index + 1) * size);
    const answer = { totalRecords: this.list.length, transports: page };
    this.onPage?.(index, this);
    return answer;
  }
}

/** A target as the recording shows it: the channel, after its workspace when that is not the single one. */
const label = (target: AlertTarget) =>
  target.workspace === "" ? target.channel : `${target.workspace}/${target.channel}`;

class RecordingPublisher implements AlertPublisher {
  posts: string[] = [];
  updates: string[] = [];
  replies: string[] = [];
  nextError: Error | undefined;
  private n = 0;
  private take(): void {
    const e = this.nextError;
    this.nextError = undefined;
    if (e) throw e;
  }
  async post(target: AlertTarget, incident: { codeUit: string }) {
    this.take();
    this.posts.push(`${label(target)}:${incident.codeUit}`);
    return { ts: `${++this.n}.000` };
  }
  async markResolved(target: AlertTarget, ts: string) {
    this.take();
    this.updates.push(`${label(target)}:${ts}`);
  }
  async replyResolved(target: AlertTarget, ts: string) {
    this.take();
    this.replies.push(`${label(target)}:${ts}`);
    return { ts: `${++this.n}.000` };
  }
  digests: { channel: string; workspace: string; digest: AlertDigest }[] = [];
  async postDigest(target: AlertTarget, digest: AlertDigest) {
    this.take();
    this.digests.push({ channel: target.channel, workspace: target.workspace, digest });
    return { ts: `${++this.n}.000` };
  }
}

function setup(list: Transport[], onPage?: (index: number, self: FakeSource) => void) {
  let now = NOW;
  const db = openDatabase(":memory:");
  const store = new SqliteAlertStore(db, () => now);
  const source = new FakeSource(list, onPage);
  const publisher = new RecordingPublisher();
  const poller = new AlertPoller({
    store: promised(store),
    publisher,
    sessionFor: () => source,
    now: () => now,
    logger: silent,
  });
  const subs = new AlertSubscriptions(promised(store), () => now);
  return {
    db,
    store,
    source,
    publisher,
    poller,
    subs,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe("AlertPoller.sweep", () => {
  it("reads pages from 0 until totalRecords are read", async () => {
    const s = setup(Array.from({ length: 250 }, (_, i) => transport(i)));
    const sweep = await s.poller.sweep(s.source);
    expect(s.source.calls.map((c) => c.pageIndex)).toEqual([0, 1, 2]);
    expect(s.source.calls[0]).toEqual({ statusIds: [1, 2, 6], pageSize: 100, pageIndex: 0 });
    expect(sweep).toMatchObject({ pages: 3, totalRecords: 250, complete: true });
    expect(sweep.transports).toHaveLength(250);
  });

  it("stops on an empty page, and reports an incomplete sweep when pages shifted", async () => {
    const s = setup(
      Array.from({ length: 150 }, (_, i) => transport(i)),
      (index, self) => {
        // A transport is added at the top (newest first) while the sweep reads: page 1 repeats one.
        if (index === 0) self.list = [transport(999), ...self.list];
      },
    );
    const sweep = await s.poller.sweep(s.source);
    expect(sweep.pages).toBe(2);
    expect(sweep.transports).toHaveLength(150);
    expect(sweep.totalRecords).toBe(151);
    expect(sweep.complete).toBe(false);
    const empty = setup([]);
    expect(await empty.poller.sweep(empty.source)).toMatchObject({
      pages: 1,
      complete: true,
      totalRecords: 0,
    });
  });
});

describe("AlertPoller.runOnce", () => {
  it("keeps incidents when the sweep is incomplete, and delivers stored posts when the sweep fails", async () => {
    const s = setup([transport(1, "Error")]);
    s.subs.subscribe("C1", "demo", "U1");
    s.publisher.nextError = new AlertPublishError("other", "network down");
    const first = await s.poller.runOnce();
    expect(first.accounts[0]).toMatchObject({ opened: 1, posted: 0, failed: 1 });
    s.source.failWith = new Error("fleet service unreachable");
    s.advance(60_000);
    const second = await s.poller.runOnce();
    expect(second.accounts[0]).toMatchObject({ error: "fleet service unreachable", posted: 1 });
    expect(s.publisher.posts).toEqual(["C1:UIT0000000000001"]);
    expect(s.store.activeIncidents("demo")).toHaveLength(1);
  });

  it("posts what the pages read show even when a later page fails, and resolves nothing as gone then", async () => {
    const list = Array.from({ length: 150 }, (_, i) => transport(i));
    list[120] = transport(120, "OldData");
    const s = setup(list);
    s.subs.subscribe("C1", "demo", "U1");
    await s.poller.runOnce();
    expect(s.publisher.posts).toEqual(["C1:UIT0000000000120"]);

    // Next run: a new fault on page 0, the OldData transport gone from the list, page 1 unreadable.
    s.source.list = [transport(7, "Error"), ...list.slice(0, 120).filter((t) => t.uId !== "t-7")];
    const failOnPage1 = s.source.loadTransports.bind(s.source);
    s.source.loadTransports = async (params) => {
      if ((params.pageIndex ?? 0) > 0) throw new Error("fleet service unreachable");
      return failOnPage1(params);
    };
    s.advance(60_000);
    const run = await s.poller.runOnce();
    expect(run.accounts[0]).toMatchObject({
      error: "fleet service unreachable",
      opened: 1,
      posted: 1,
      resolved: 0,
    });
    expect(s.publisher.posts).toEqual(["C1:UIT0000000000120", "C1:UIT0000000000007"]);
    expect(
      s.store
        .activeIncidents("demo")
        .map((i) => i.codeUit)
        .sort(),
    ).toEqual(["UIT0000000000007", "UIT0000000000120"]);
  });

  it("resolves incidents of transports no longer listed only after the last page", async () => {
    const list = Array.from({ length: 250 }, (_, i) => transport(i));
    list[3] = transport(3, "Error");
    const s = setup(list);
    s.subs.subscribe("C1", "demo", "U1");
    await s.poller.runOnce();
    const incident = s.store.activeIncidents("demo")[0]!;
    s.source.list = list.filter((t) => t.uId !== "t-3");
    // It completed: the lookup after the last page finds it among the finished ones.
    s.source.finished = [{ ...list[3]!, statusId: 3 }];
    const activeAtPage: number[] = [];
    const read = s.source.loadTransports.bind(s.source);
    s.source.loadTransports = async (params) => {
      activeAtPage.push(s.store.activeIncidents("demo").length);
      return read(params);
    };
    s.advance(60_000);
    const run = await s.poller.runOnce();
    // Three pages, then the one lookup: nothing was resolved before the last page.
    expect(activeAtPage).toEqual([1, 1, 1, 1]);
    expect(s.source.calls.at(-1)).toMatchObject({ statusIds: [3, 4], searchValue: list[3]!.codeUit });
    expect(run.accounts[0]).toMatchObject({ resolved: 1, resolutionsSent: 1 });
    expect(s.store.incident(incident.id)).toMatchObject({ state: "resolved", resolveReason: "completed" });
  });

  it("gives up the resolution of a deleted alert, and finishes a half-done resolution without repeating", async () => {
    const s = setup([transport(1, "Error"), transport(2, "OldData")]);
    s.subs.subscribe("C1", "demo", "U1");
    await s.poller.runOnce();
    expect(s.publisher.posts).toHaveLength(2);
    s.source.finished = s.source.list.map((t) => ({ ...t, statusId: 3 }));
    s.source.list = [];
    s.advance(60_000);
    // First resolution: the message is gone. Second: update works, reply fails.
    let calls = 0;
    const original = s.publisher.markResolved.bind(s.publisher);
    s.publisher.markResolved = async (target: AlertTarget, ts: string) => {
      calls++;
      if (calls === 1) throw new AlertPublishError("message_gone", "The alert message was deleted.");
      return original(target, ts);
    };
    const originalReply = s.publisher.replyResolved.bind(s.publisher);
    let replies = 0;
    s.publisher.replyResolved = async (target: AlertTarget, ts: string) => {
      replies++;
      if (replies === 1) throw new AlertPublishError("other", "network");
      return originalReply(target, ts);
    };
    const run = await s.poller.runOnce();
    expect(run.accounts[0]).toMatchObject({ resolved: 2, resolutionsSent: 0, failed: 1 });
    s.advance(60_000);
    await s.poller.runOnce();
    expect(s.publisher.updates).toHaveLength(1);
    expect(s.publisher.replies).toHaveLength(1);
    expect(calls).toBe(2);
    s.advance(60_000);
    await s.poller.runOnce();
    expect(s.store.unresolvedPosts("demo")).toEqual([]);
    expect(s.publisher.replies).toHaveLength(1);
  });

  it("posts to each workspace's channel of the same id, mutes per workspace, and resolves each post in its own workspace", async () => {
    const s = setup([transport(1, "Error")]);
    await s.subs.subscribe("C1", "demo", "U1", {}, "T:ALPHA");
    await s.subs.subscribe("C1", "demo", "U1", {}, "T:BRAVO");
    await s.subs.subscribe("C1", "demo", "U1");
    await s.subs.mute("C1", "UIT0000000000001", 3_600_000, "T:BRAVO");
    const first = await s.poller.runOnce();
    // One sweep of the account for the three subscriptions.
    expect(s.source.calls).toHaveLength(1);
    expect(first.accounts[0]).toMatchObject({ posted: 2, muted: 1 });
    expect([...s.publisher.posts].sort()).toEqual(["C1:UIT0000000000001", "T:ALPHA/C1:UIT0000000000001"]);
    const [incident] = s.store.activeIncidents("demo");
    expect(s.store.post(incident!.id, "C1", "T:ALPHA")?.ts).toBeDefined();
    expect(s.store.post(incident!.id, "C1", "T:BRAVO")).toMatchObject({ mutedUntil: NOW + 3_600_000 });
    expect(s.store.post(incident!.id, "C1", "T:BRAVO")?.ts).toBeUndefined();
    expect(await s.subs.canMute("C1", "UIT0000000000001", "demo", "T:ALPHA")).toBe(true);
    expect(await s.subs.canMute("C1", "UIT0000000000001", "demo", "T:OTHER")).toBe(false);

    s.source.finished = s.source.list.map((t) => ({ ...t, statusId: 3 }));
    s.source.list = [];
    s.advance(60_000);
    await s.poller.runOnce();
    const tsIn = (workspace: string) => s.store.post(incident!.id, "C1", workspace)?.ts;
    expect([...s.publisher.updates].sort()).toEqual(
      [`C1:${tsIn("")}`, `T:ALPHA/C1:${tsIn("T:ALPHA")}`].sort(),
    );
    expect(s.publisher.replies).toHaveLength(2);
    expect(s.store.unresolvedPosts("demo")).toEqual([]);
  });

  it("unsubscribes and lists one workspace's channel; the configured subscription is the single workspace's", async () => {
    const s = setup([]);
    await s.subs.ensureWorkspaceSubscription("C1", "demo");
    await s.subs.subscribe("C1", "demo", "U1", {}, "T:ALPHA");
    expect(s.subs.isConfigured("C1", "demo")).toBe(true);
    expect(s.subs.isConfigured("C1", "demo", "T:ALPHA")).toBe(false);
    expect((await s.subs.list({ workspace: "T:ALPHA" })).map((x) => x.channel)).toEqual(["C1"]);
    expect(await s.subs.list({ channel: "C1" })).toHaveLength(2);
    expect(await s.subs.unsubscribe("C1", undefined, "T:ALPHA")).toBe(1);
    expect(await s.subs.unsubscribe("C1")).toBe(0);
    expect((await s.subs.list()).map((x) => x.workspace)).toEqual([""]);
  });

  it("holds posts back while the UIT is muted in the channel, and posts after the mute", async () => {
    const s = setup([transport(1, "Error")]);
    s.subs.subscribe("C1", "demo", "U1");
    s.subs.subscribe("C2", "demo", "U1");
    s.subs.mute("C1", "UIT0000000000001", 3_600_000);
    const first = await s.poller.runOnce();
    expect(first.accounts[0]).toMatchObject({ posted: 1, muted: 1 });
    expect(s.publisher.posts).toEqual(["C2:UIT0000000000001"]);
    s.advance(30 * 60_000);
    await s.poller.runOnce();
    expect(s.publisher.posts).toHaveLength(1);
    s.advance(31 * 60_000);
    await s.poller.runOnce();
    expect(s.publisher.posts).toEqual(["C2:UIT0000000000001", "C1:UIT0000000000001"]);
  });

  it("hands the digest to the publisher as data: the channel's incidents, counts by status, UITs expiring within a day", async () => {
    const expiringSoon = { ...transport(3), validityEndDate: new Date(NOW + 3_600_000) };
    const s = setup([transport(1, "Error"), transport(2), expiringSoon]);
    s.subs.subscribe("C1", "demo", "U1");
    await s.poller.runOnce();
    expect(await s.poller.runDigest()).toBe(1);
    expect(s.publisher.digests).toHaveLength(1);
    const { channel, digest } = s.publisher.digests[0]!;
    expect(channel).toBe("C1");
    expect(digest).toMatchObject({ account: "demo", countsByStatus: { 2: 3 }, nowMs: NOW });
    expect(digest.incidents.map((i) => i.codeUit)).toContain("UIT0000000000001");
    expect(digest.expiring.map((t) => t.codeUit)).toEqual(["UIT0000000000003"]);
  });

  it("stops posting in a run once Slack rate-limits", async () => {
    const s = setup([transport(1, "Error"), transport(2, "Error"), transport(3, "Error")]);
    s.subs.subscribe("C1", "demo", "U1");
    s.publisher.nextError = new AlertPublishError("ratelimited", "Slack rate limit");
    const run = await s.poller.runOnce();
    expect(run).toMatchObject({ rateLimited: true });
    expect(run.accounts[0]).toMatchObject({ posted: 0, failed: 1 });
    await s.poller.runOnce();
    expect(s.publisher.posts).toHaveLength(3);
  });

  it("runs each account's sweep as a subscriber of that account, each subscription's own link looked up", async () => {
    const s = setup([]);
    const asked: unknown[] = [];
    const poller = new AlertPoller({
      store: promised(s.store),
      publisher: s.publisher,
      sessionFor: (who) => {
        asked.push(who);
        if (who.slackUser === "U-unlinked") throw new Error("No credentials");
        return s.source;
      },
      logger: silent,
    });
    await s.subs.subscribe("C1", "acme", "U-unlinked");
    await s.subs.subscribe("C2", "acme", "U-linked");
    await s.subs.ensureWorkspaceSubscription("C3", "demo");
    await s.subs.subscribe("C4", "demo", "U9");
    const run = await poller.runOnce();
    expect(run.accounts.map((a) => a.error)).toEqual([undefined, undefined]);
    // acme: its first subscriber is not linked any more, the second is; demo: the workspace account
    // and U9's link. Each subscription's own link decides whether it gets the alerts (issue 30).
    const of = (account: string) => asked.filter((w) => (w as { account: string }).account === account);
    expect(of("acme")).toEqual([
      { account: "acme", slackUser: "U-unlinked", workspace: "" },
      { account: "acme", slackUser: "U-linked", workspace: "" },
    ]);
    expect(of("demo")).toEqual(
      expect.arrayContaining([
        { account: "demo", workspace: "" },
        { account: "demo", slackUser: "U9", workspace: "" },
      ]),
    );
  });

  it("starts on a cron expression and stops", async () => {
    const s = setup([transport(1, "Error")]);
    s.subs.subscribe("C1", "demo", "U1");
    s.poller.start("* * * * * *");
    const deadline = Date.now() + 3000;
    while (s.publisher.posts.length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    await s.poller.stop();
    expect(s.publisher.posts).toEqual(["C1:UIT0000000000001"]);
  });
});

describe("toPublishError", () => {
  const platform = (error: string) => ({ code: "slack_webapi_platform_error", data: { ok: false, error } });
  it.each([
    [platform("not_in_channel"), "channel", /not_in_channel/],
    [platform("channel_not_found"), "channel", /channel_not_found/],
    [platform("message_not_found"), "message_gone", /deleted/],
    [platform("ratelimited"), "ratelimited", /retried on the next poll/],
    [{ code: "slack_webapi_rate_limited_error", retryAfter: 3 }, "ratelimited", /retry after 3 s/],
    [{ code: "slack_webapi_request_error", message: "ECONNRESET" }, "other", /could not be reached/],
    [platform("invalid_blocks"), "other", /invalid_blocks/],
    [new Error("boom"), "other", /boom/],
  ])("%o → %s", (error, failure, message) => {
    const mapped = toPublishError(error);
    expect(mapped.failure).toBe(failure);
    expect(mapped.message).toMatch(message);
  });
});

describe("AlertPoller.stop", () => {
  it("withdraws a sweep's call still waiting for its slot, instead of waiting for it", async () => {
    const s = setup([transport(1, "Error")]);
    s.subs.subscribe("C1", "demo", "U1");
    // A gate that never grants the slot: the call waits until its signal is aborted.
    let asked = 0;
    s.source.loadTransports = (_params: LoadTransportsParams, ctx?: CallContext) =>
      new Promise<Awaited<ReturnType<FakeSource["loadTransports"]>>>((_resolve, reject) => {
        asked++;
        ctx?.signal?.addEventListener("abort", () => reject(new Error("withdrawn from the gate")), {
          once: true,
        });
      });
    const run = s.poller.runOnce();
    while (asked === 0) await new Promise((r) => setTimeout(r, 5));
    const stopped = await Promise.race([
      s.poller.stop().then(() => "stopped"),
      new Promise((r) => setTimeout(() => r("still waiting"), 2_000)),
    ]);
    expect(stopped).toBe("stopped");
    const result = await run;
    expect(result.accounts[0]?.error).toBeDefined();
    expect(s.publisher.posts).toEqual([]); // nothing posted or resolved from a sweep cut short
    expect(s.publisher.updates).toEqual([]);
  });
});

describe("AlertPoller: a stale link does not disturb the others (issue 30, point 6)", () => {
  /** Two links of one account: `stale` holds a password the service refuses, `working` the current one. */
  function twoLinks() {
    const s = setup([transport(1, "Error")]);
    const stale = new FakeSource([transport(1, "Error")]);
    stale.failWith = new UnauthorizedError("login", "login");
    const paused: { channel: string; subscriber?: string }[] = [];
    const publisher = Object.assign(s.publisher, {
      async postPaused(target: AlertTarget, notice: AlertsPausedNotice) {
        paused.push({
          channel: target.channel,
          ...(notice.subscriber ? { subscriber: notice.subscriber } : {}),
        });
      },
    });
    const poller = new AlertPoller({
      store: promised(s.store),
      publisher,
      // U-stale's link sorts first (it subscribed first); U-working's is the working one.
      sessionFor: (who) => (who.slackUser === "U-stale" ? stale : s.source),
      now: () => NOW,
      logger: silent,
    });
    return { ...s, stale, poller, paused };
  }

  it("a refused link that sorts first does not stop the sweep: the working link's channel gets the alert, the stale one is told once", async () => {
    const t = twoLinks();
    await t.subs.subscribe("C-STALE", "demo", "U-stale");
    await t.subs.subscribe("C-WORKING", "demo", "U-working");
    const run = await t.poller.runOnce();
    expect(run.accounts.map((a) => a.error)).toEqual([undefined]);
    expect(t.publisher.posts).toEqual(["C-WORKING:UIT0000000000001"]);
    expect(t.paused).toEqual([{ channel: "C-STALE", subscriber: "U-stale" }]);
    // The stale link was tried once; the next sweep tells nobody again and still posts nothing there.
    await t.poller.runOnce();
    expect(t.paused).toHaveLength(1);
    expect(t.publisher.posts.filter((p) => p.startsWith("C-STALE"))).toEqual([]);
  });

  it("a link known refused is not tried at all: no login against the account each sweep", async () => {
    const t = twoLinks();
    Object.assign(t.stale, { standing: async () => "refused" as const });
    await t.subs.subscribe("C-STALE", "demo", "U-stale");
    await t.subs.subscribe("C-WORKING", "demo", "U-working");
    await t.poller.runOnce();
    expect(t.stale.calls).toEqual([]);
    expect(t.publisher.posts).toEqual(["C-WORKING:UIT0000000000001"]);
    expect(t.paused).toEqual([{ channel: "C-STALE", subscriber: "U-stale" }]);
  });
});

describe("AlertPoller: a refused link is tried again (issue 30, review)", () => {
  it("an account whose only link was refused once still gets its alerts when its login works again", async () => {
    const s = setup([transport(1, "Error")]);
    // The token manager decides when a refused login may be tried again (ALERT_LOGIN_RETRY_MS).
    Object.assign(s.source, { standing: async () => "refused" as const });
    await s.subs.subscribe("C1", "demo", "U1");
    await s.poller.runOnce();
    expect(s.source.calls.length).toBeGreaterThan(0);
    expect(s.publisher.posts).toEqual(["C1:UIT0000000000001"]);
  });
});
