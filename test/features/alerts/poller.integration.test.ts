import { afterEach, describe, expect, it } from "vitest";
import { postFailureText } from "../../../src/features/alerts/slack/views/subscriptionList.js";
import { textOf } from "../../helpers/botHarness.js";
import { type AlertHarness, startAlertHarness } from "./alertHarness.js";

let h: AlertHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const MIN = 60_000;
const GENERAL = "C0GENERAL";
const ALERTS = "C0ALERTS";

describe("alert poller (real simulator, client and gate in virtual time; fake Slack)", () => {
  it("open → one post; three more polls → none; Active again → edited to resolved and a thread reply", async () => {
    h = await startAlertHarness();
    const t = h.healthyTransport();
    await h.subscriptions.subscribe(GENERAL, "demo", "U0DISPATCH", { vehicles: [t.carrierCode] });

    const first = await h.poll();
    // The demo fleet's standing problems open incidents too; the vehicle filter keeps them out.
    expect(first.accounts[0]).toMatchObject({ account: "demo", opened: 4, posted: 0 });
    expect(h.sessions[0]).toEqual({ account: "demo", slackUser: "U0DISPATCH", workspace: "" });
    expect(h.alerts(GENERAL)).toHaveLength(0);

    await h.control(t.codeUit, { transmissionStatusCode: "NoGPSCoordinates" });
    await h.advance(5 * MIN);
    const opened = await h.poll();
    expect(opened.accounts[0]).toMatchObject({ opened: 1, posted: 1, failed: 0 });
    const [alert] = h.alerts(GENERAL);
    expect(h.alerts(GENERAL)).toHaveLength(1);
    const text = textOf(alert);
    expect(text).toContain("Transmission problem");
    expect(text).toContain(t.carrierCode);
    expect(text).toContain("NoGPSCoordinates — no GPS signal");
    expect(text).toMatch(/last GPS <!date\^\d+\^/);

    for (let i = 0; i < 3; i++) {
      await h.advance(5 * MIN);
      const again = await h.poll();
      expect(again.accounts[0]).toMatchObject({ opened: 0, posted: 0, resolved: 0 });
    }
    expect(h.alerts(GENERAL)).toHaveLength(1);
    expect(h.fake.calls.filter((c) => c.method === "chat.postMessage")).toHaveLength(1);

    await h.control(t.codeUit, { clear: true, transmissionStatusCode: "Active" });
    await h.advance(5 * MIN);
    const recovered = await h.poll();
    expect(recovered.accounts[0]).toMatchObject({ resolved: 1, resolutionsSent: 1 });
    const updates = h.fake.calls.filter((c) => c.method === "chat.update");
    expect(updates).toHaveLength(1);
    expect(updates[0]!.args.ts).toBe(alert!.ts);
    const edited = h.alerts(GENERAL)[0]!;
    expect(edited.revisions).toBe(1);
    expect(textOf(edited)).toContain("✅");
    // From the last transmission the service reported before the fault (10:04; the poll
    // that first saw it ran at 10:05) to the recovery, released right after the 10:20 poll:
    // between that poll and the last position sent before the 10:25 one (10:24).
    const [stored] = h.store.incidents("demo").filter((i) => i.transportUId === t.uId);
    const lastSent = stored!.facts.lastTransmissionMs!;
    expect(lastSent).toBeLessThan(stored!.firstSeenAt);
    expect(textOf(edited)).toContain(`from <!date^${lastSent / 1000}^`);
    expect(textOf(edited)).toContain("lasted *17–20 min* (it ended between two alert checks)");
    expect(JSON.stringify(edited.blocks)).not.toContain('"actions"');
    const replies = h.replies(GENERAL);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.threadTs).toBe(alert!.ts);
    expect(replies[0]!.text).toContain("It lasted 17–20 min");

    // Quiet afterwards; a new bad code later is a new incident and a new alert.
    await h.advance(5 * MIN);
    await h.poll();
    expect(h.fake.calls.filter((c) => c.method === "chat.postMessage")).toHaveLength(2);
    await h.control(t.codeUit, { transmissionStatusCode: "OldData" });
    await h.advance(5 * MIN);
    await h.poll();
    expect(h.alerts(GENERAL)).toHaveLength(2);
    expect(h.fake.violations).toEqual([]);
  });

  it("posts the demo fleet's standing problems once each (pinned Error, NotInRomania, change request, expiry)", async () => {
    h = await startAlertHarness();
    await h.subscriptions.subscribe(GENERAL, "demo", "U0DISPATCH");
    await h.poll();
    const titles = h.alerts(GENERAL).map((m) => m.text.replace(/:.*/, ""));
    expect(titles.sort()).toEqual(
      [
        "🔴 Transmission problem",
        // NotInRomania on the demo's Timișoara → Budapesta route: expected abroad, informational.
        "⚪ Vehicle outside Romania",
        "🔴 UIT validity ends soon",
        "🔴 Vehicle change request failed",
      ].sort(),
    );
    await h.advance(5 * MIN);
    await h.poll();
    expect(h.alerts(GENERAL)).toHaveLength(4);
    expect(h.fake.violations).toEqual([]);
  });

  it("a problem shorter than the minimum duration posts nothing (flapping); a longer one posts once", async () => {
    h = await startAlertHarness();
    const t = h.healthyTransport();
    await h.subscriptions.subscribe(GENERAL, "demo", "U0DISPATCH", {
      vehicles: [t.carrierCode],
      minDurationMinutes: 10,
    });
    for (let i = 0; i < 3; i++) {
      await h.control(t.codeUit, { transmissionStatusCode: "WithoutTransmission" });
      await h.advance(5 * MIN);
      await h.poll();
      await h.control(t.codeUit, { clear: true, transmissionStatusCode: "Active" });
      await h.advance(4 * MIN);
      await h.poll();
    }
    expect(h.alerts(GENERAL)).toHaveLength(0);
    const mine = () => h!.store.incidents("demo").filter((i) => i.transportUId === t.uId);
    expect(mine().map((i) => `${i.state}:${i.openedAt ?? "-"}`)).toEqual([
      "resolved:-",
      "resolved:-",
      "resolved:-",
    ]);

    await h.control(t.codeUit, { transmissionStatusCode: "Error" });
    for (let i = 0; i < 4; i++) {
      await h.advance(5 * MIN);
      await h.poll();
    }
    expect(h.alerts(GENERAL)).toHaveLength(1);
  });

  it("two channels get one post each; after unsubscribe a channel gets no more posts", async () => {
    h = await startAlertHarness();
    const t = h.healthyTransport();
    const u = h.healthyTransport([t.codeUit]);
    const vehicles = [t.carrierCode, u.carrierCode];
    await h.subscriptions.subscribe(GENERAL, "demo", "U0DISPATCH", { vehicles });
    // C0ALERTS is public and the bot is not a member: chat:write.public lets it post.
    await h.subscriptions.subscribe(ALERTS, "demo", "U0VIEWER", { vehicles });
    await h.control(t.codeUit, { transmissionStatusCode: "Error" });
    const run = await h.poll();
    expect(run.accounts).toHaveLength(1);
    expect(run.accounts[0]!.sweep!.pages).toBe(1);
    expect(h.alerts(GENERAL)).toHaveLength(1);
    expect(h.alerts(ALERTS)).toHaveLength(1);

    expect(await h.subscriptions.unsubscribe(ALERTS)).toBe(1);
    await h.control(u.codeUit, { transmissionStatusCode: "OldData" });
    await h.advance(5 * MIN);
    await h.poll();
    expect(h.alerts(GENERAL)).toHaveLength(2);
    expect(h.alerts(ALERTS)).toHaveLength(1);

    // The alert already in the unsubscribed channel is still resolved in place.
    await h.control(t.codeUit, { clear: true, transmissionStatusCode: "Active" });
    await h.advance(5 * MIN);
    await h.poll();
    expect(textOf(h.alerts(ALERTS)[0])).toContain("✅");
  });

  it("a post Slack keeps rate-limiting past the Retry-After waits is recorded and retried on the next poll, once", async () => {
    h = await startAlertHarness();
    const t = h.healthyTransport();
    await h.subscriptions.subscribe(GENERAL, "demo", "U0DISPATCH", { vehicles: [t.carrierCode] });
    await h.control(t.codeUit, { transmissionStatusCode: "Error" });
    // Still refused after the publisher's bounded Retry-After waits (6 tries).
    h.fake.rateLimit("chat.postMessage", { times: 6, retryAfterSeconds: 1 });
    const failed = await h.poll();
    expect(failed.rateLimited).toBe(true);
    expect(failed.accounts[0]).toMatchObject({ posted: 0, failed: 1 });
    expect(h.alerts(GENERAL)).toHaveLength(0);
    const incident = h.store.activeIncidents("demo").find((i) => i.transportUId === t.uId);
    expect(h.store.post(incident!.id, GENERAL)).toMatchObject({
      attempts: 1,
      // Stored as a code; the list says it in words (postFailureText).
      lastError: "ratelimited",
    });
    expect(postFailureText("en", "ratelimited")).toMatch(/rate limit/);

    await h.advance(5 * MIN);
    const retried = await h.poll();
    expect(retried.accounts[0]).toMatchObject({ opened: 0, posted: 1, failed: 0 });
    expect(h.alerts(GENERAL)).toHaveLength(1);
    expect(h.store.post(incident!.id, GENERAL)).toMatchObject({ attempts: 2 });
    expect(h.store.post(incident!.id, GENERAL)!.lastError).toBeUndefined();
    await h.advance(5 * MIN);
    await h.poll();
    expect(h.alerts(GENERAL)).toHaveLength(1);
  });

  it("a private channel without the bot records a clear error and keeps retrying", async () => {
    h = await startAlertHarness();
    const t = h.healthyTransport();
    await h.subscriptions.subscribe("G0PRIVATE", "demo", "U0DISPATCH", { vehicles: [t.carrierCode] });
    expect(await h.publisher.checkChannel("G0PRIVATE")).toEqual({
      ok: false,
      code: "channel_not_found",
    });
    expect(await h.publisher.checkChannel(ALERTS)).toEqual({ ok: true });
    await h.control(t.codeUit, { transmissionStatusCode: "Error" });
    await h.poll();
    await h.advance(5 * MIN);
    await h.poll();
    expect(h.store.lastFailure("G0PRIVATE")).toMatchObject({ attempts: 2, error: "channel:not_in_channel" });
    expect(postFailureText("en", "channel:not_in_channel")).toContain(
      "invite fleetbot to the private channel",
    );
    expect(postFailureText("ro", "channel:not_in_channel")).toContain(
      "invită-l în canal cu /invite @fleetbot",
    );
    // Invited: the next poll posts it.
    const g = h.fake.workspace.channels.get("G0PRIVATE")!;
    g.botIsMember = true;
    await h.advance(5 * MIN);
    await h.poll();
    expect(h.alerts("G0PRIVATE")).toHaveLength(1);
  });

  it("a restart between polls neither repeats nor loses an alert", async () => {
    h = await startAlertHarness();
    const t = h.healthyTransport();
    await h.subscriptions.subscribe(GENERAL, "demo", "U0DISPATCH", { vehicles: [t.carrierCode] });
    await h.control(t.codeUit, { transmissionStatusCode: "NotInRomania" });
    await h.poll();
    expect(h.alerts(GENERAL)).toHaveLength(1);

    h.restart();
    await h.advance(5 * MIN);
    await h.poll();
    expect(h.alerts(GENERAL)).toHaveLength(1);

    // A post that failed before the restart goes out after it.
    const u = h.healthyTransport([t.codeUit]);
    await h.subscriptions.subscribe(GENERAL, "demo", "U0DISPATCH", {
      vehicles: [t.carrierCode, u.carrierCode],
    });
    await h.control(u.codeUit, { transmissionStatusCode: "Error" });
    h.fake.rateLimit("chat.postMessage", { times: 6, retryAfterSeconds: 1 });
    await h.advance(5 * MIN);
    await h.poll();
    expect(h.alerts(GENERAL)).toHaveLength(1);
    h.restart();
    await h.advance(5 * MIN);
    await h.poll();
    expect(h.alerts(GENERAL)).toHaveLength(2);

    await h.control(t.codeUit, { clear: true, transmissionStatusCode: "Active" });
    h.restart();
    await h.advance(5 * MIN);
    await h.poll();
    expect(h.fake.calls.filter((c) => c.method === "chat.update")).toHaveLength(1);
    expect(h.replies(GENERAL)).toHaveLength(1);
  });

  it("warns once when a UIT's validity ends within the lead time, and resolves when it is extended", async () => {
    h = await startAlertHarness();
    const t = h.healthyTransport();
    await h.subscriptions.subscribe(GENERAL, "demo", "U0DISPATCH", {
      vehicles: [t.carrierCode],
      codes: ["expiry"],
    });
    const iso = (ms: number) => new Date(ms).toISOString();
    await h.control(t.codeUit, { validityEndDate: iso(h.fleet.clock.now() + 6 * 3600_000) });
    await h.poll();
    expect(h.alerts(GENERAL)).toHaveLength(1);
    expect(textOf(h.alerts(GENERAL)[0])).toContain("UIT validity ends soon");
    expect(textOf(h.alerts(GENERAL)[0])).toMatch(/UIT validity ends\* <!date\^\d+\^/);
    await h.advance(5 * MIN);
    await h.poll();
    expect(h.alerts(GENERAL)).toHaveLength(1);
    await h.control(t.codeUit, { validityEndDate: iso(h.fleet.clock.now() + 5 * 86_400_000) });
    await h.advance(5 * MIN);
    await h.poll();
    expect(h.replies(GENERAL)[0]!.text).toContain("validity was extended");
  });

  it("a tick while a run is under way is skipped", async () => {
    h = await startAlertHarness();
    await h.subscriptions.subscribe(GENERAL, "demo", "U0DISPATCH");
    const first = h.poller.runOnce();
    const second = await h.poller.runOnce();
    expect(second).toEqual({ skipped: true, accounts: [], rateLimited: false });
    expect(h.poller.busy).toBe(true);
    const done = await h.fleet.run(first);
    expect(done.skipped).toBe(false);
    expect(h.poller.busy).toBe(false);
  });

  it("sends the digest per subscribed channel", async () => {
    h = await startAlertHarness();
    await h.subscriptions.subscribe(GENERAL, "demo", "U0DISPATCH");
    await h.poll();
    const sent = await h.fleet.run(h.poller.runDigest());
    expect(sent).toBe(1);
    const digest = h.alerts(GENERAL).find((m) => m.text.startsWith("e-Transport digest"));
    expect(digest?.text).toContain("4 open alerts");
    expect(textOf(digest)).toContain("In Progress");
  });
});

describe("sweep cost", () => {
  it("reads every page of a large fleet with exactly ceil(total / 100) load-transports calls, interactive calls first", async () => {
    h = await startAlertHarness({ sim: { transportCount: 300 } });
    await h.subscriptions.subscribe(GENERAL, "demo", "U0DISPATCH", { codes: ["NoGPSCoordinates"] });
    const before = h.fleet.sim.control.stats().requests.demo?.["load-transports"] ?? 0;
    // An interactive call issued while the sweep waits is served before the sweep's next page.
    const polling = h.poller.runOnce();
    const interactive = h.fleet.session.vehicles({ priority: "interactive" });
    const [result] = await h.fleet.run(Promise.all([polling, interactive]));
    const sweep = result.accounts[0]!.sweep!;
    const open = h.fleet.sim.control.transports().filter((t) => [1, 2, 6].includes(t.statusId)).length;
    expect(sweep.totalRecords).toBe(open);
    expect(sweep.transports).toBe(open);
    expect(sweep.complete).toBe(true);
    expect(open).toBeGreaterThan(100);
    const calls = (h.fleet.sim.control.stats().requests.demo?.["load-transports"] ?? 0) - before;
    expect(calls).toBe(Math.ceil(open / 100));
    expect(sweep.pages).toBe(calls);
    const order = h.fleet.sim.control
      .requests(50)
      .map((r) => r.endpoint)
      .filter((e) => e !== "login");
    expect(order.indexOf("company-vehicles")).toBeLessThan(order.lastIndexOf("load-transports"));
  });
});

describe("alert latency (issue 12): the sweep is not held up by reports or by its own later pages", () => {
  const SLOT = 30_000 + 250;

  it("a sweep due while a 20-call report waits posts its alert one slot after the poll", async () => {
    h = await startAlertHarness();
    const t = h.healthyTransport();
    await h.subscriptions.subscribe(GENERAL, "demo", "U0DISPATCH", { vehicles: [t.carrierCode] });
    await h.control(t.codeUit, { transmissionStatusCode: "NoGPSCoordinates" });
    // A 20-call report: distinct reads, so the gate shares none of them.
    const report = Array.from({ length: 20 }, (_, pageIndex) =>
      h!.fleet.session.loadTransports(
        { statusIds: [1, 2, 6], pageSize: 1, pageIndex },
        { priority: "report", taskId: "report" },
      ),
    );
    const polledAt = h.fleet.clock.now();
    const run = await h.poll();
    expect(run.accounts[0]).toMatchObject({ posted: 1, failed: 0 });
    expect(h.posted.map((p) => p.codeUit)).toEqual([t.codeUit]);
    // The report's first call was already under way; the sweep's page is next in line.
    expect(h.posted[0]!.at - polledAt).toBeLessThanOrEqual(SLOT);
    const pending = (await h.fleet.gate.schedule("demo")).waiting;
    expect(pending.length).toBeGreaterThanOrEqual(18);
    expect(pending.every((w) => w.priority === "report")).toBe(true);
    await h.fleet.run(Promise.all(report));
  });

  it("with 4 pages, a broken transport on page 1 is posted before page 2 is read", async () => {
    const answered: { pageIndex: number; uIds: string[]; at: number }[] = [];
    h = await startAlertHarness({
      sim: { transportCount: 550 }, // 395 open transports: 4 pages, as measured in issue 12
      wrapSession: (session) => ({
        async loadTransports(params, ctx) {
          const page = await session.loadTransports(params, ctx);
          answered.push({
            pageIndex: params.pageIndex ?? 0,
            uIds: page.transports.map((x) => x.uId),
            at: h!.fleet.clock.now(),
          });
          return page;
        },
      }),
    });
    await h.subscriptions.subscribe(GENERAL, "demo", "U0DISPATCH", { codes: ["NoGPSCoordinates"] });
    const quiet = await h.poll();
    expect(quiet.accounts[0]!.sweep!.pages).toBe(4);
    expect(h.posted).toEqual([]);

    const firstPage = new Set(answered.find((a) => a.pageIndex === 0)!.uIds);
    const broken = h.fleet.sim.control
      .transports()
      .find((x) => firstPage.has(x.uId) && x.statusId === 2 && !x.pinnedTransmission);
    expect(broken).toBeDefined();
    await h.control(broken!.codeUit, { transmissionStatusCode: "NoGPSCoordinates" });
    await h.advance(5 * MIN);
    answered.length = 0;
    const polledAt = h.fleet.clock.now();
    const run = await h.poll();
    expect(run.accounts[0]).toMatchObject({ opened: 1, posted: 1, sweep: { pages: 4, complete: true } });
    expect(answered.map((a) => a.pageIndex)).toEqual([0, 1, 2, 3]);
    expect(answered[0]!.uIds).toContain(broken!.uId);
    const [post] = h.posted;
    expect(post?.codeUit).toBe(broken!.codeUit);
    expect(post!.at).toBeLessThan(answered[1]!.at);
    expect(post!.at - polledAt).toBeLessThan(SLOT);
    expect(h.fake.violations).toEqual([]);
  });
});
