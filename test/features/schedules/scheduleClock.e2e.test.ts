/**
 * Scheduled reports against time (issue 34), through the whole bot over signed HTTP: the schedules'
 * clock is the test's (StartOptions.scheduleClock), so "07:30 on the day the clocks move" or "the
 * morning after three hours down" is a value set, not a wait. Runs are claimed by
 * `schedules.tick()`; posts, footnotes and direct messages are read in the fake Slack.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { nextRunAfter } from "../../../src/features/schedules/index.js";
import { startFakeSlack } from "../../../src/sandbox/fakeSlack/index.js";
import { DEFAULT_CHANNELS } from "../../../src/sandbox/fakeSlack/server.js";
import { dmIdFor } from "../../../src/sandbox/fakeSlack/workspace.js";
import { type BotHarness, lastSeenBy, startBotHarness, textOf } from "../../helpers/botHarness.js";

const USER = "U0DISPATCH";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Epoch ms of a wall-clock time in Bucharest, given as its UTC offset there ("+02:00" / "+03:00"). */
const at = (iso: string) => Date.parse(iso);

type Harness = BotHarness;

function helpers(h: () => Harness) {
  const posts = (channel: string) =>
    h()
      .fake.messages(channel)
      .filter((m) => !m.ephemeral && !m.threadTs);
  return {
    posts,
    async fleet(text: string, channelId: string, userId = USER) {
      await h().driver.slashCommand({ command: "/fleet", text, userId, channelId });
      await h().settle();
      return textOf(lastSeenBy(h().fake, channelId, userId));
    },
    async tick() {
      const runs = await h().bot.schedules.tick();
      await h().settle();
      return runs;
    },
    async nextPost(channel: string, before: number) {
      await h().fake.waitFor(() => posts(channel).length > before);
      return textOf(posts(channel).at(-1));
    },
  };
}

describe("the days the calendar is awkward", () => {
  let h: Harness;
  let clock = 0;
  const { fleet, tick, posts, nextPost } = helpers(() => h);
  beforeAll(async () => {
    h = await startBotHarness({
      start: { scheduleClock: () => clock, schedulePolling: false },
      fakeSlack: {
        channels: [...DEFAULT_CHANNELS, { id: "C0DST", name: "dst", isPrivate: false, botIsMember: true }],
      },
    });
  });
  afterAll(async () => {
    await h.close();
  });
  afterEach(() => {
    expect(h.fake.violations).toEqual([]);
  });

  it("07:30 Europe/Bucharest on the Sunday the clocks go forward: at 04:30 UTC that day, 05:30 UTC the day before", async () => {
    // Made on Friday 26 March 2027, 12:00 in Bucharest (EET, +02:00).
    clock = at("2027-03-26T12:00:00+02:00");
    const answer = await fleet("schedule stops all yesterday every day at 07:30", "C0DST");
    expect(answer).toContain("Next run: Sat 27 Mar, 07:30");
    clock = at("2027-03-27T07:29:00+02:00");
    expect(await tick()).toEqual([]);
    clock = at("2027-03-27T07:30:00+02:00");
    const saturday = await tick();
    expect(saturday.map((r) => r.scheduledAt)).toEqual([at("2027-03-27T05:30:00Z")]);
    // Sunday 28 March: 03:00 became 04:00; 07:30 is now +03:00.
    clock = at("2027-03-28T07:29:00+03:00");
    expect(await tick()).toEqual([]);
    const before = posts("C0DST").length;
    clock = at("2027-03-28T07:30:00+03:00");
    const sunday = await tick();
    expect(sunday.map((r) => [r.scheduledAt, r.late])).toEqual([[at("2027-03-28T04:30:00Z"), false]]);
    // Its footnote names Monday's run, again at 07:30 local.
    expect(await nextPost("C0DST", before)).toContain("next run Mon 29 Mar, 07:30");
    await fleet(`schedule remove ${/`([0-9A-Z]+)`/.exec(answer.split("id ")[1] ?? "")?.[1]}`, "C0DST");
  });

  it("every month on 31: on 30 April, then 31 May; on 29 February in a leap year", async () => {
    clock = at("2027-04-02T12:00:00+03:00");
    const answer = await fleet("schedule fuel all last month every month on 31 at 08:00", "C0DST");
    expect(answer).toContain("every month on the 31st at 08:00 (a shorter month: on its last day)");
    expect(answer).toContain("Next run: Fri 30 Apr, 08:00");
    clock = at("2027-04-30T08:00:00+03:00");
    expect((await tick()).map((r) => r.scheduledAt)).toEqual([at("2027-04-30T05:00:00Z")]);
    clock = at("2027-05-30T08:00:00+03:00");
    expect(await tick()).toEqual([]);
    clock = at("2027-05-31T08:00:00+03:00");
    expect((await tick()).map((r) => r.scheduledAt)).toEqual([at("2027-05-31T05:00:00Z")]);
    const id = /id `([0-9A-Z]+)`/.exec(answer)?.[1];
    expect(await fleet(`schedule remove ${id}`, "C0DST")).toContain("Removed schedule");
    // February 2028 has 29 days.
    clock = at("2028-02-02T12:00:00+02:00");
    const leap = await fleet("schedule fuel all last month every month on 30 at 08:00", "C0DST");
    expect(leap).toContain("Next run: Tue 29 Feb, 08:00");
    await fleet(`schedule remove ${/id `([0-9A-Z]+)`/.exec(leap)?.[1]}`, "C0DST");
  });
});

describe("fleetbot down over a run", () => {
  let h: Harness;
  let clock = 0;
  const dataDir = mkdtempSync(join(tmpdir(), "fleetbot-schedules-"));
  const fakePromise = startFakeSlack({
    channels: [...DEFAULT_CHANNELS, { id: "C0DOWN", name: "down", isPrivate: false, botIsMember: true }],
  });
  const { fleet, tick, posts, nextPost } = helpers(() => h);
  const start = async () =>
    startBotHarness({
      fake: await fakePromise,
      dataDir,
      start: { scheduleClock: () => clock, schedulePolling: false },
    });
  afterAll(async () => {
    await h.close();
    await (await fakePromise).close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("a run missed while down is made once on return within 12 hours, marked late; one missed longer ago is skipped and said in the next post", async () => {
    // Three days ago at noon in Bucharest (the reports read periods in the past).
    const noon = Math.floor((Date.now() - 3 * DAY) / DAY) * DAY + 10 * HOUR;
    clock = noon;
    h = await start();
    const answer = await fleet("schedule fuel all yesterday every day at 07:30", "C0DOWN");
    const id = /id `([0-9A-Z]+)`/.exec(answer)?.[1];
    expect(id).toBeDefined();
    await h.close();

    // Back up three hours after the next morning's 07:30.
    // The next mornings' 07:30 (read through the recurrence: 24 h apart only without a clock change).
    const daily = { every: "day", time: "07:30" } as const;
    const first = nextRunAfter(daily, "Europe/Bucharest", noon)!;
    const second = nextRunAfter(daily, "Europe/Bucharest", first)!;
    const third = nextRunAfter(daily, "Europe/Bucharest", second)!;
    clock = first + 3 * HOUR;
    h = await start();
    const before = posts("C0DOWN").length;
    const runs = await tick();
    expect(runs.map((r) => [r.scheduledAt, r.late, r.skipped])).toEqual([[first, true, 0]]);
    const late = await nextPost("C0DOWN", before);
    expect(late).toMatch(/Late: due \w{3} \d+ \w{3}, 07:30, when fleetbot was not running\./);
    expect(await tick()).toEqual([]);

    // Down again over the next morning, back 13 hours after it: that run is skipped, not made.
    clock = second + 13 * HOUR;
    expect(await tick()).toEqual([]);
    // The morning after, on time, says one run was missed.
    const afterSkip = posts("C0DOWN").length;
    clock = third;
    const onTime = await tick();
    expect(onTime.map((r) => [r.scheduledAt, r.late])).toEqual([[third, false]]);
    expect(await nextPost("C0DOWN", afterSkip)).toContain(
      "One earlier run was missed while fleetbot was down",
    );
  });
});

describe("failures and limits", () => {
  let h: Harness;
  let clock = 0;
  const { fleet, tick } = helpers(() => h);
  beforeAll(async () => {
    h = await startBotHarness({
      start: { scheduleClock: () => clock, schedulePolling: false },
      fakeSlack: {
        channels: [...DEFAULT_CHANNELS, { id: "C0FAIL", name: "fail", isPrivate: false, botIsMember: true }],
      },
    });
    clock = Math.floor((Date.now() - 10 * DAY) / DAY) * DAY + 10 * HOUR;
  });
  afterAll(async () => {
    await h.close();
  });

  it("three failed runs in a row pause the schedule, and its author is told why and how to resume", async () => {
    const answer = await fleet("schedule fuel all yesterday every day at 07:30", "C0FAIL");
    const id = /id `([0-9A-Z]+)`/.exec(answer)?.[1];
    // Every consumption request answered with a body that is not the service's envelope.
    h.bot.simulator!.control.addFault({ kind: "malformed", endpoint: "consumption", count: 1_000 });
    const dmBefore = h.fake.messages(dmIdFor(USER)).length;
    for (let day = 1; day <= 3; day++) {
      clock += DAY;
      expect(await tick()).toHaveLength(1);
      await h.settle();
    }
    await h.fake.waitFor(() =>
      h.fake.messages(dmIdFor(USER)).some((m) => textOf(m).includes("is paused: its last 3 runs failed")),
    );
    // Each failure was the author's to read, not the channel's.
    expect(h.fake.messages(dmIdFor(USER)).length).toBeGreaterThanOrEqual(dmBefore + 4);
    expect(h.fake.messages("C0FAIL").filter((m) => !m.ephemeral && !m.threadTs)).toHaveLength(0);
    clock += DAY;
    expect(await tick()).toEqual([]);
    expect(await fleet("schedules", "C0FAIL")).toContain("Paused: its last 3 runs failed");
    h.bot.simulator!.control.reset();
    await fleet(`schedule remove ${id}`, "C0FAIL");
  });

  it("an account's schedules may take half its daily requests: one more is refused with the numbers", async () => {
    // With FLEET_MIN_INTERVAL_MS 60 (+5 ms margin) a day has 1,329,230 slots: far from the limit,
    // so the limit is shown at a realistic interval in its own harness below.
    const answer = await fleet("schedule fuel all yesterday every day at 09:00", "C0FAIL");
    expect(answer).toContain("Scheduled `fuel all yesterday`");
    await fleet(`schedule remove ${/id `([0-9A-Z]+)`/.exec(answer)?.[1]}`, "C0FAIL");
  });
});

describe("limits at a real interval", () => {
  let h: Harness;
  beforeAll(async () => {
    // 10 min a request: 144 a day, 72 for schedules (no call is made here: nothing waits a slot).
    h = await startBotHarness({ intervalMs: 600_000, start: { schedulePolling: false } });
  });
  afterAll(async () => {
    await h.close();
  });
  const { fleet } = helpers(() => h);

  it("refuses a schedule that would take the account past half its daily requests, saying the numbers", async () => {
    // A stops report of every vehicle over 31 days: many requests a run.
    const answers: string[] = [];
    for (let i = 0; i < 50; i++) {
      const answer = await fleet(
        `schedule stops all last 30d every day at 0${i % 10}:${10 + i}`,
        "C0GENERAL",
      );
      answers.push(answer);
      if (answer.includes("too much for the fleet account")) break;
    }
    const refused = answers.at(-1) ?? "";
    expect(refused).toMatch(
      /its schedules already take (\d[\d,]*) of the (\d+) requests a day they may use .* this one needs (\d+) a run/,
    );
    const [, used, max, needs] = /already take (\d+) of the (\d+) .* needs (\d+)/.exec(refused) ?? [];
    expect(Number(max)).toBe(
      Math.floor(Math.floor(86_400_000 / h.bot.slack.context.schedules.slotMs("demo")) / 2),
    );
    expect(Number(used) + Number(needs)).toBeGreaterThan(Number(max));
    expect(Number(used)).toBeLessThanOrEqual(Number(max));
    expect(answers.length).toBeGreaterThan(1);
  });

  it("refuses the 51st schedule of a workspace", async () => {
    const list = await h.bot.slack.context.schedules.store.list("");
    for (const s of list) await h.bot.slack.context.schedules.store.remove("", s.id);
    for (let i = 0; i < 50; i++)
      await h.bot.slack.context.schedules.store.add({
        workspace: "",
        channel: "C0GENERAL",
        createdBy: "U0VIEWER",
        command: "where all",
        recurrence: { every: "week", weekday: 1, time: "08:00" },
        timeZone: "Europe/Bucharest",
        nextRunAt: Date.now() + DAY,
      });
    const answer = await fleet("schedule fuel all yesterday every day at 07:30", "C0GENERAL");
    expect(answer).toContain("This workspace has 50 scheduled reports, the most it may have is 50");
  });
});
