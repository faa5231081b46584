/**
 * Alerts never give a false all-clear, and warn before the fine (issue 22, parts 1 and 2),
 * through the whole bot: a subscription by signed command, sweeps against the simulator, posts
 * and edits in the fake Slack.
 * - A transport the platform moves to Error vanishes from load-transports. Its red alert must
 *   never turn ✅; a red "no longer listed" alert follows, with or without an earlier incident,
 *   and resolves in place when the transport is listed again.
 * - A transport that completes normally is looked up once and its alert resolves ✅, with no
 *   vanished alert.
 * - A transmission that stalls (no position sent for stale= minutes, code still Active) raises
 *   an amber alert that says how long remains before the 6-hour limit, and resolves when
 *   positions flow again.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CHANNELS } from "../../../src/sandbox/fakeSlack/server.js";
import { alertMessagesFor, type BotHarness, startBotHarness, textOf } from "../../helpers/botHarness.js";

let h: BotHarness;
const USER = "U0DISPATCH";
const CHANNEL = "C0GENERAL";

beforeAll(async () => {
  h = await startBotHarness({
    // More running transports than the demo fleet's few: each test takes one of its own.
    start: { simulator: { transportCount: 24 } },
    fakeSlack: {
      channels: [...DEFAULT_CHANNELS, { id: "C0QUIET", name: "quiet", isPrivate: false, botIsMember: true }],
    },
  });
  await h.driver.slashCommand({
    command: "/fleet",
    text: "alerts subscribe",
    userId: USER,
    channelId: CHANNEL,
  });
  await h.bot.slack.idle();
  // The demo fleet's existing problems are posted first; the tests look at their own UITs only.
  await h.bot.alerts.runOnce();
});
afterAll(async () => {
  await h.close();
});
afterEach(() => {
  expect(h.fake.violations).toEqual([]);
});

const sim = () => h.bot.simulator!;
const alertsFor = (uit: string) => alertMessagesFor(h.fake, CHANNEL, uit);
const used: string[] = [];
/** An In-Progress transport transmitting normally, with no alert, that no other test has touched. */
function runningActive(): string {
  const t = sim()
    .control.transports()
    // No alert of its own yet (a failed change request, say), so what follows is about this test.
    .find(
      (x) =>
        x.statusId === 2 &&
        !x.pinnedTransmission &&
        !used.includes(x.codeUit) &&
        alertsFor(x.codeUit).length === 0,
    );
  if (!t) throw new Error("no In-Progress transport left in the demo fleet");
  used.push(t.codeUit);
  return t.codeUit;
}
/** load-transports calls that looked the UIT up among Completed and Auto Completed. */
/**
 * The service's answered lookups of a UIT among completed transports: a request it turned away
 * (429 on a loaded machine, 401 for an expired token) and the gate sent again is the same lookup.
 */
const lookups = (uit: string) =>
  sim()
    .control.requests(2000)
    .filter((r) => {
      if (r.endpoint !== "load-transports" || r.status === 429 || r.status === 401) return false;
      const body = r.body as { statusIds?: number[]; searchValue?: string };
      return body.searchValue === uit && JSON.stringify(body.statusIds) === "[3,4]";
    }).length;
const RESOLVED = /✅|Resolved/;

describe("a transport the service stops listing", () => {
  it("in Error with an open alert: the red alert stays red, and a red 'no longer listed' alert follows", async () => {
    const uit = runningActive();
    sim().control.setTransport(uit, { transmissionStatusCode: "NoGPSCoordinates" });
    await h.bot.alerts.runOnce();
    expect(alertsFor(uit)).toHaveLength(1);
    const first = alertsFor(uit)[0]!;

    sim().control.setTransport(uit, { statusId: 5 });
    await h.bot.alerts.runOnce();
    // Looked up once among the finished ones, by its UIT.
    expect(lookups(uit)).toBe(1);
    const [original, vanished] = alertsFor(uit);
    expect(original!.ts).toBe(first.ts);
    expect(textOf(original)).not.toMatch(RESOLVED);
    expect(textOf(original)).toMatch(/NoGPSCoordinates|No GPS/);
    expect(vanished, "the vanished alert").toBeDefined();
    expect(textOf(vanished)).toMatch(/No longer listed by the service/);
    expect(textOf(vanished)).toMatch(/Error/);
    expect(textOf(vanished)).toContain("🔴");

    // Later sweeps: nothing new, nothing turned green, no second lookup within the recheck time.
    await h.bot.alerts.runOnce();
    expect(alertsFor(uit)).toHaveLength(2);
    expect(lookups(uit)).toBe(1);
    expect(alertsFor(uit).some((m) => RESOLVED.test(textOf(m)))).toBe(false);

    // Listed again (the dispatcher fixed it in TrackGPS): the vanished alert resolves in place.
    sim().control.setTransport(uit, { statusId: 2 });
    await h.bot.alerts.runOnce();
    const after = alertsFor(uit);
    expect(after).toHaveLength(2);
    expect(after[1]!.ts).toBe(vanished!.ts);
    expect(textOf(after[1])).toMatch(RESOLVED);
    expect(textOf(after[1])).toMatch(/lists the transport again/);
  });

  it("in Error with no alert before: a red 'no longer listed' alert is the only one", async () => {
    const uit = runningActive();
    await h.bot.alerts.runOnce();
    expect(alertsFor(uit)).toHaveLength(0);
    sim().control.setTransport(uit, { statusId: 5 });
    await h.bot.alerts.runOnce();
    expect(alertsFor(uit)).toHaveLength(1);
    expect(textOf(alertsFor(uit)[0])).toMatch(/No longer listed by the service/);
  });

  it("completed normally: its alert resolves ✅ as completed, and no vanished alert is posted", async () => {
    const uit = runningActive();
    sim().control.setTransport(uit, { transmissionStatusCode: "NoGPSCoordinates" });
    await h.bot.alerts.runOnce();
    expect(alertsFor(uit)).toHaveLength(1);
    sim().control.setTransport(uit, { statusId: 3 });
    await h.bot.alerts.runOnce();
    expect(lookups(uit)).toBe(1);
    const alerts = alertsFor(uit);
    expect(alerts).toHaveLength(1);
    expect(textOf(alerts[0])).toMatch(RESOLVED);
    const replies = h.fake.messages(CHANNEL).filter((m) => m.threadTs === alerts[0]!.ts);
    expect(replies.map((m) => textOf(m)).join("\n")).toMatch(/completed/);
    expect(textOf(alerts[0])).not.toMatch(/No longer listed/);
  });
});

describe("a stalled transmission", () => {
  it("raised after stale= minutes with how long is left before the 6-hour limit, then resolved when positions flow", async () => {
    const uit = runningActive();
    const fortyFive = new Date(Date.now() - 45 * 60_000).toISOString();
    sim().control.setTransport(uit, { lastTransmissionDate: fortyFive, lastGpsDate: fortyFive });
    await h.bot.alerts.runOnce();
    const [stalled] = alertsFor(uit);
    expect(stalled, "the stalled alert").toBeDefined();
    expect(textOf(stalled)).toContain("🟠");
    expect(textOf(stalled)).toMatch(/Transmission stalled/);
    expect(textOf(stalled)).toMatch(/Nothing sent for \d+ min\* \(last position sent <!date\^\d+\^/);
    // How long is left, and the limit itself as a date token beside it (6 h after the last position).
    expect(textOf(stalled)).toMatch(/\d+ h( \d+ min)? left before the 6-hour limit\* \(<!date\^\d+\^/);

    sim().control.setTransport(uit, { clear: true });
    await h.bot.alerts.runOnce();
    const after = alertsFor(uit);
    expect(after).toHaveLength(1);
    expect(after[0]!.ts).toBe(stalled!.ts);
    expect(textOf(after[0])).toMatch(RESOLVED);
  });

  it("a channel with stale=0 gets no stalled alert", async () => {
    const quiet = "C0QUIET";
    await h.driver.slashCommand({
      command: "/fleet",
      text: "alerts subscribe stale=0",
      userId: USER,
      channelId: quiet,
    });
    await h.bot.slack.idle();
    const uit = runningActive();
    const hourAgo = new Date(Date.now() - 60 * 60_000).toISOString();
    sim().control.setTransport(uit, { lastTransmissionDate: hourAgo, lastGpsDate: hourAgo });
    await h.bot.alerts.runOnce();
    expect(alertsFor(uit)).toHaveLength(1);
    expect(alertMessagesFor(h.fake, quiet, uit)).toHaveLength(0);
  });
});
