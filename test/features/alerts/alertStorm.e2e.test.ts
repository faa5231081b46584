/**
 * A storm (the TrackGPS–ANAF link fails: every In-Progress transport goes Error at once) is one
 * grouped alert with a thread reply per transport, through the whole bot: signed commands, sweeps
 * against the simulator, and a fake Slack that enforces chat.postMessage ≈1/s per channel with
 * HTTP 429 + Retry-After. Its clock is virtual: the bot's waits for Retry-After advance it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ACTIONS } from "../../../src/platform/slack/actionIds.js";
import type { TransmissionCode } from "../../../src/simulator/index.js";
import { type BotHarness, buttonsOf, startBotHarness, textOf } from "../../helpers/botHarness.js";

let h: BotHarness;
const USER = "U0DISPATCH";
const CHANNEL = "C0GENERAL";
/** The fake Slack's clock runs ahead of the wall clock by what the bot waited out. */
let skewMs = 0;
const waits: number[] = [];

beforeAll(async () => {
  h = await startBotHarness({
    fakeSlack: { postRate: "per-channel", now: () => Date.now() + skewMs },
    start: {
      alertSleep: async (ms) => {
        waits.push(ms);
        skewMs += ms;
      },
      // A fleet with room for a storm: 30 In Progress transports and more.
      simulator: { vehicleCount: 80, transportCount: 120 },
    },
  });
});
afterAll(async () => {
  await h.close();
});
afterEach(() => {
  expect(h.fake.violations).toEqual([]);
});

const sim = () => h.bot.simulator!;
const fleet = async (text: string) => {
  await h.driver.slashCommand({ command: "/fleet", text, userId: USER, channelId: CHANNEL });
  await h.bot.slack.idle();
};
const topLevel = () => h.fake.messages(CHANNEL).filter((m) => !m.ephemeral && m.threadTs === undefined);
const repliesTo = (ts: string) => h.fake.messages(CHANNEL).filter((m) => m.threadTs === ts);
const posts = () => h.fake.calls.filter((c) => c.method === "chat.postMessage");
const uitIn = (m: { blocks?: unknown[] }, uit: string) =>
  JSON.stringify(m.blocks ?? [])
    .replace(/-/g, "")
    .includes(uit);
/** In Progress transports transmitting normally (drift is off), none of `skip`. */
const healthy = (count: number, skip: readonly string[] = []) => {
  const found = sim()
    .control.transports()
    .filter((t) => t.statusId === 2 && !t.pinnedTransmission && !skip.includes(t.codeUit))
    .slice(0, count)
    .map((t) => t.codeUit);
  expect(found).toHaveLength(count);
  return found;
};
const setCode = (uits: readonly string[], code: TransmissionCode) => {
  for (const uit of uits) sim().control.setTransport(uit, { transmissionStatusCode: code });
};

describe("an alert storm", () => {
  const used: string[] = [];

  it("subscribes the channel to Error alerts; the demo fleet's existing problems go out first", async () => {
    await fleet("alerts subscribe Error");
    await h.bot.alerts.runOnce();
    expect(h.fake.calls.filter((c) => c.method === "chat.postMessage" && !c.ok)).toEqual(
      h.fake.calls.filter((c) => c.method === "chat.postMessage" && c.error === "ratelimited"),
    );
  });

  it("filtered codes are not counted: 5 Error and 3 OldData are 5 single alerts, no group", async () => {
    const before = topLevel().length;
    const errors = healthy(5);
    const filtered = healthy(3, errors);
    used.push(...errors, ...filtered);
    setCode(errors, "Error");
    setCode(filtered, "OldData");
    await h.bot.alerts.runOnce();
    const fresh = topLevel().slice(before);
    expect(fresh).toHaveLength(5);
    for (const uit of errors) expect(fresh.filter((m) => uitIn(m, uit))).toHaveLength(1);
    for (const uit of filtered) expect(fresh.some((m) => uitIn(m, uit))).toBe(false);
    expect(fresh.some((m) => textOf(m).includes("transports"))).toBe(false);
    // Back to normal: they resolve as single alerts do.
    setCode([...errors, ...filtered], "Active");
    await h.bot.alerts.runOnce();
  });

  let storm: string[] = [];
  let groupTs = "";

  it("30 transports going Error in one sweep: one grouped alert and a reply per transport; no 429 lost, nothing twice", async () => {
    const before = topLevel().length;
    const postsBefore = posts().length;
    const waitsBefore = waits.length;
    storm = healthy(30, used);
    setCode(storm, "Error");
    await h.bot.alerts.runOnce();

    const fresh = topLevel().slice(before);
    expect(fresh).toHaveLength(1);
    const group = fresh[0]!;
    groupTs = group.ts;
    expect(textOf(group)).toContain("30 transports");
    for (const uit of storm) expect(uitIn(group, uit)).toBe(true);

    const replies = repliesTo(groupTs);
    expect(replies).toHaveLength(30);
    for (const uit of storm) {
      const mine = replies.filter((m) => uitIn(m, uit));
      expect(mine).toHaveLength(1);
      // Each reply carries the buttons a single alert has.
      for (const action of [
        ACTIONS.transportPause,
        ACTIONS.transportEnd,
        ACTIONS.transportShow,
        ACTIONS.alertMute,
      ]) {
        expect(buttonsOf(mine[0], action)).toHaveLength(1);
      }
    }
    // Slack said 429 (the fake enforces ~1/s per channel), the bot waited Retry-After and sent
    // again: every refused post landed once.
    const tried = posts().slice(postsBefore);
    const refused = tried.filter((c) => c.error === "ratelimited");
    expect(refused.length).toBeGreaterThan(0);
    expect(tried.filter((c) => c.ok)).toHaveLength(31);
    expect(tried.filter((c) => !c.ok && c.error !== "ratelimited")).toEqual([]);
    expect(waits.slice(waitsBefore).every((ms) => ms === 1000)).toBe(true);
  });

  it("a later sweep in the same state posts nothing", async () => {
    const postsBefore = posts().length;
    await h.bot.alerts.runOnce();
    expect(posts().length).toBe(postsBefore);
  });

  it("the daily digest still counts the grouped incidents one by one", async () => {
    await h.bot.alerts.runDigest();
    const digest = topLevel().at(-1)!;
    expect(textOf(digest)).toContain("e-Transport digest");
    expect(textOf(digest)).toMatch(/Open alerts \((3\d)\)/);
    for (const uit of storm.slice(0, 5)) expect(uitIn(digest, uit)).toBe(true);
  });

  it("resolving them one by one edits the group in place; the last one resolves it as a whole", async () => {
    const groupOf = () => h.fake.messages(CHANNEL).find((m) => m.ts === groupTs)!;
    const replyOf = (uit: string) => repliesTo(groupTs).find((m) => uitIn(m, uit))!;
    const [first, second, ...rest] = storm;
    const last = rest.pop()!;
    const postsBefore = posts().length;

    setCode([first!], "Active");
    await h.bot.alerts.runOnce();
    let group = groupOf();
    const revisions = group.revisions;
    expect(revisions).toBeGreaterThan(0);
    expect(textOf(group)).toContain("29 open");
    expect(textOf(group)).toMatch(new RegExp(`✅ ~${first!.slice(0, 4)}-`));
    expect(textOf(replyOf(first!))).toMatch(/resolved/i);
    expect(buttonsOf(replyOf(first!), ACTIONS.alertMute)).toHaveLength(0);
    expect(buttonsOf(replyOf(second!), ACTIONS.alertMute)).toHaveLength(1);

    setCode([second!], "Active");
    await h.bot.alerts.runOnce();
    group = groupOf();
    expect(group.revisions).toBe(revisions + 1);
    expect(textOf(group)).toContain("28 open");

    setCode(rest, "Active");
    await h.bot.alerts.runOnce();
    expect(textOf(groupOf())).toContain("1 open");
    expect(textOf(groupOf())).not.toContain("Resolved ·");

    setCode([last], "Active");
    await h.bot.alerts.runOnce();
    group = groupOf();
    expect(textOf(group)).toContain("✅ Resolved · Transmission problem · 30 transports");
    expect(textOf(group)).toContain("All 30 resolved");
    for (const uit of storm) expect(textOf(replyOf(uit))).toMatch(/resolved/i);
    // All of it by editing: not one message more.
    expect(posts().length).toBe(postsBefore);
    expect(topLevel().filter((m) => m.ts === groupTs)).toHaveLength(1);
  });
});
