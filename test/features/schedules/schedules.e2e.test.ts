/**
 * Scheduled reports through the whole bot (issue 34): schedules made by signed commands, runs
 * claimed by `schedules.tick()` on the simulator's clock (StartOptions.scheduleClock), posts,
 * files and footnotes in the fake Slack, the list's buttons, pauses told to the author.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { nextRunAfter } from "../../../src/features/schedules/index.js";
import { ACTIONS } from "../../../src/platform/slack/actionIds.js";
import { DEFAULT_CHANNELS } from "../../../src/sandbox/fakeSlack/server.js";
import { dmIdFor } from "../../../src/sandbox/fakeSlack/workspace.js";
import type { RunningSimulator } from "../../../src/simulator/index.js";
import { type BotHarness, buttonsOf, lastSeenBy, startBotHarness, textOf } from "../../helpers/botHarness.js";

const USER = "U0DISPATCH";
const OTHER = "U0VIEWER";
const CHANNEL = "C0GENERAL";
const ZONE = "Europe/Bucharest";
const MIN = 60_000;

let h: BotHarness;
let sim: RunningSimulator;

beforeAll(async () => {
  let clock: () => number = Date.now;
  h = await startBotHarness({
    start: { scheduleClock: () => clock(), schedulePolling: false },
    fakeSlack: {
      channels: [
        ...DEFAULT_CHANNELS,
        {
          id: "C0DISPECERAT",
          name: "dispecerat",
          isPrivate: false,
          botIsMember: true,
          members: [USER, OTHER],
        },
        { id: "C0NOBOT", name: "nobot", isPrivate: true, botIsMember: false, members: [USER] },
        { id: "G0KICKED", name: "kicked", isPrivate: true, botIsMember: true, members: [USER] },
        { id: "C0RO", name: "dispecerat-ro", isPrivate: false, botIsMember: true, members: [USER] },
      ],
    },
  });
  sim = h.bot.simulator!;
  clock = () => sim.control.now();
});
afterAll(async () => {
  await h.close();
});
afterEach(() => {
  expect(h.fake.violations).toEqual([]);
});

async function fleet(text: string, channelId = CHANNEL, userId = USER): Promise<string> {
  await h.driver.slashCommand({ command: "/fleet", text, userId, channelId });
  await h.settle();
  return textOf(lastSeenBy(h.fake, channelId, userId));
}

/** "HH:MM" a few minutes after the simulator's now, in Bucharest. */
function soon(minutes: number): string {
  const at = new Date(sim.control.now() + minutes * MIN);
  return new Intl.DateTimeFormat("en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: ZONE,
  }).format(at);
}

async function tick() {
  const runs = await h.bot.schedules.tick();
  await h.settle();
  return runs;
}

const posts = (channel: string) => h.fake.messages(channel).filter((m) => !m.ephemeral && !m.threadTs);
const idIn = (answer: string) => /id `([0-9A-Z]+)`/.exec(answer)?.[1] ?? "";

describe("a daily schedule", () => {
  let id = "";
  let time = "";

  it("is made by a command typed in the channel, with its id, zone and next run", async () => {
    time = soon(10);
    const answer = await fleet(`schedule fuel all yesterday every day at ${time}`, "C0DISPECERAT");
    expect(answer).toContain(
      `Scheduled \`fuel all yesterday\` every day at ${time} (${ZONE}) in <#C0DISPECERAT>`,
    );
    id = idIn(answer);
    expect(id).toMatch(/^[0-9A-Z]{4,}$/);
    expect(answer).toMatch(/Next run: \w{3} \d{1,2} \w{3}, \d{2}:\d{2}/);
  });

  it("is not run before its time, then once, in the channel, with its files and footnote", async () => {
    expect(await tick()).toEqual([]);
    const before = posts("C0DISPECERAT").length;
    const due = nextRunAfter({ every: "day", time }, ZONE, sim.control.now() - 1);
    sim.control.advanceClock(due! - sim.control.now());
    const runs = await tick();
    expect(runs.map((r) => [r.schedule.id, r.scheduledAt, r.late])).toEqual([[id, due, false]]);
    await h.fake.waitFor(() => posts("C0DISPECERAT").length > before);
    const post = posts("C0DISPECERAT").at(-1)!;
    const text = textOf(post);
    expect(text).toMatch(/fuel|Fuel/);
    expect(text).toContain(`Scheduled by <@${USER}> · next run`);
    // The CSV in the post's thread, for everyone in the channel.
    await h.fake.waitFor(() =>
      h.fake.messages("C0DISPECERAT").some((m) => m.threadTs === post.ts && m.files?.length),
    );
    // Exactly once: ticking again at the same moment claims nothing.
    expect(await tick()).toEqual([]);
  });

  it("/fleet schedules lists it with its buttons; Run now posts it again, saying who ran it", async () => {
    const answer = await fleet("schedules", "C0DISPECERAT");
    expect(answer).toContain(`\`${id}\` · \`fuel all yesterday\` · every day at ${time}`);
    expect(answer).toContain("last run");
    const list = lastSeenBy(h.fake, "C0DISPECERAT", USER)!;
    const [runNow] = buttonsOf(list, ACTIONS.scheduleRunNow);
    expect(runNow?.value).toBe(id);
    const before = posts("C0DISPECERAT").length;
    await h.driver
      .blockAction({
        userId: OTHER,
        channelId: "C0DISPECERAT",
        messageTs: list.ts,
        actionId: ACTIONS.scheduleRunNow,
        value: id,
      })
      .catch(() => undefined);
    // The list is USER's ephemeral message: OTHER cannot click it (the driver refuses); USER can.
    await h.driver.blockAction({
      userId: USER,
      channelId: "C0DISPECERAT",
      messageTs: list.ts,
      actionId: ACTIONS.scheduleRunNow,
      value: id,
    });
    await h.settle();
    await h.fake.waitFor(() => posts("C0DISPECERAT").length > before);
    expect(textOf(posts("C0DISPECERAT").at(-1))).toContain(`run now by <@${USER}>`);
    // The clicked list says so, in place (the post and its files came after it).
    const listNow = h.fake.messages("C0DISPECERAT").find((m) => m.ts === list.ts);
    expect(textOf(listNow)).toContain(`Running schedule \`${id}\` now`);
  });

  it("Pause stops its runs; Resume starts again from the next time", async () => {
    await fleet("schedules", "C0DISPECERAT");
    const list = lastSeenBy(h.fake, "C0DISPECERAT", USER)!;
    await h.driver.blockAction({
      userId: USER,
      channelId: "C0DISPECERAT",
      messageTs: list.ts,
      actionId: ACTIONS.schedulePause,
      value: id,
    });
    await h.settle();
    expect(textOf(lastSeenBy(h.fake, "C0DISPECERAT", USER))).toContain(`Schedule \`${id}\` paused`);
    sim.control.advanceClock(24 * 60 * MIN);
    expect(await tick()).toEqual([]);
    const paused = lastSeenBy(h.fake, "C0DISPECERAT", USER)!;
    expect(buttonsOf(paused, ACTIONS.scheduleResume).map((b) => b.value)).toContain(id);
    await h.driver.blockAction({
      userId: USER,
      channelId: "C0DISPECERAT",
      messageTs: paused.ts,
      actionId: ACTIONS.scheduleResume,
      value: id,
    });
    await h.settle();
    expect(textOf(lastSeenBy(h.fake, "C0DISPECERAT", USER))).toContain(
      `Schedule \`${id}\` resumed. Next run:`,
    );
    // The day missed while paused is not made.
    expect(await tick()).toEqual([]);
  });

  it("pauses by itself when its author left the channel, and tells them in a direct message", async () => {
    const channel = h.fake.team(h.fake.options.teamId)!.channels.get("C0DISPECERAT")!;
    channel.members.splice(channel.members.indexOf(USER), 1);
    const dmBefore = h.fake.messages(dmIdFor(USER)).length;
    // To its next run (23 or 25 h away on a day the clocks change, not always 24).
    const next = (await h.bot.slack.context.schedules.store.get("", id))!.nextRunAt;
    sim.control.advanceClock(Math.max(0, next - sim.control.now()));
    const runs = await tick();
    expect(runs).toHaveLength(1);
    await h.fake.waitFor(() => h.fake.messages(dmIdFor(USER)).length > dmBefore);
    const dm = textOf(h.fake.messages(dmIdFor(USER)).at(-1));
    expect(dm).toContain("is paused: its author is no longer in the channel");
    expect(dm).toContain("Join the channel again");
    channel.members.push(USER);
    await fleet("schedules", "C0DISPECERAT");
    const list = lastSeenBy(h.fake, "C0DISPECERAT", USER)!;
    expect(textOf(list)).toContain("Paused: its author is no longer in the channel");
    // Back in the channel, the author resumes it.
    await h.driver.blockAction({
      userId: USER,
      channelId: "C0DISPECERAT",
      messageTs: list.ts,
      actionId: ACTIONS.scheduleResume,
      value: id,
    });
    await h.settle();
    expect(textOf(lastSeenBy(h.fake, "C0DISPECERAT", USER))).toContain(`Schedule \`${id}\` resumed`);
  });

  it("is removed by its author only", async () => {
    expect(await fleet(`schedule remove ${id}`, "C0DISPECERAT", OTHER)).toContain("Only its author");
    expect(await fleet(`schedule remove ${id}`, "C0DISPECERAT")).toContain(`Removed schedule \`${id}\``);
    expect(await fleet(`schedule remove ${id}`, "C0DISPECERAT")).toContain(`There is no schedule \`${id}\``);
  });
});

describe("the channel decides", () => {
  it("the post's language is the channel's alert subscription's (lang=ro), whatever the author reads", async () => {
    await fleet("alerts subscribe Error lang=ro", "C0RO");
    const answer = await fleet("schedule fuel all yesterday every day at 07:30", "C0RO");
    const id = idIn(answer);
    const schedule = (await h.bot.slack.context.schedules.store.get("", id))!;
    expect((await h.bot.schedules.runs.runNow(schedule, USER)).ok).toBe(true);
    const post = await h.fake.waitFor(() =>
      h.fake.messages("C0RO").find((m) => !m.ephemeral && !m.threadTs && textOf(m).includes("Programat de")),
    );
    expect(textOf(post)).toContain(`Programat de <@${USER}> · rulat acum de <@${USER}>`);
    expect(textOf(post)).toMatch(/Combustibil|combustibil/);
    await fleet(`schedule remove ${id}`, "C0RO");
    await fleet("alerts unsubscribe", "C0RO");
  });

  it("pauses when fleetbot was removed from the channel, and the DM says to invite it again", async () => {
    const answer = await fleet("schedule vehicles every day at 07:30", "G0KICKED");
    const id = idIn(answer);
    h.fake.team(h.fake.options.teamId)!.channels.get("G0KICKED")!.botIsMember = false;
    const schedule = (await h.bot.slack.context.schedules.store.get("", id))!;
    sim.control.advanceClock(Math.max(0, schedule.nextRunAt - sim.control.now()));
    const dmBefore = h.fake.messages(dmIdFor(USER)).length;
    expect(await tick()).toHaveLength(1);
    await h.fake.waitFor(() => h.fake.messages(dmIdFor(USER)).length > dmBefore);
    const dm = textOf(h.fake.messages(dmIdFor(USER)).at(-1));
    expect(dm).toContain("is paused: fleetbot can no longer post in the channel");
    expect(dm).toContain("/invite @fleetbot");
    expect((await h.bot.slack.context.schedules.store.get("", id))?.state).toBe("paused");
    await fleet(`schedule remove ${id}`, "C0GENERAL");
  });
});

describe("a public channel fleetbot is not a member of", () => {
  it("takes the post; its files, which Slack shares only where fleetbot is a member, go to the author", async () => {
    const answer = await fleet("schedule fuel all yesterday every day at 07:30", "C0ALERTS");
    const id = idIn(answer);
    expect(id).not.toBe("");
    const runs = await h.bot.schedules.runs.runNow(
      (await h.bot.slack.context.schedules.store.get("", id))!,
      USER,
    );
    expect(runs.ok).toBe(true);
    const post = await h.fake.waitFor(() =>
      h.fake.messages("C0ALERTS").find((m) => !m.ephemeral && textOf(m).includes("run now by")),
    );
    expect(textOf(post)).toMatch(/Fuel/);
    await h.fake.waitFor(() => h.fake.messages(dmIdFor(USER)).some((m) => m.files?.length));
    expect(h.fake.messages("C0ALERTS").filter((m) => m.files?.length)).toHaveLength(0);
    await fleet(`schedule remove ${id}`, "C0ALERTS");
  });
});

describe("wrong input is answered with an example that works", () => {
  it.each([
    ["schedule fuel all yesterday every day", /at 07:30/],
    ["schedule fuel all yesterday at 07:30", /every day/],
    ["schedule fuel all yesterday every month on 32 at 08:00", /`32` is not a day of the month/],
    ["schedule every day at 07:30", /Which report\?/],
    ["schedule fuel B-999-ZZZ yesterday every day at 07:30", /B-999-ZZZ/],
  ])("/fleet %s", async (text, expected) => {
    const answer = await fleet(text);
    expect(answer).toMatch(expected);
    expect(answer).not.toContain("Scheduled `");
  });

  it("a channel fleetbot cannot post in is refused before anything is stored", async () => {
    const answer = await fleet("schedule fuel all yesterday every day at 07:30", "G0PRIVATE");
    expect(answer).toContain("fleetbot cannot post in <#G0PRIVATE>");
    expect(answer).toContain("/invite @fleetbot");
  });
});

describe("Romanian", () => {
  it("programează … în fiecare lună pe 31 la 08:00: made, and said in Romanian", async () => {
    await fleet("language ro");
    const answer = await fleet("programează combustibil toate luna trecută în fiecare lună pe 31 la 08:00");
    expect(answer).toContain("Programat: `combustibil toate luna trecută` în fiecare lună pe 31 la 08:00");
    expect(answer).toContain("într-o lună mai scurtă, în ultima ei zi");
    const list = await fleet("programări");
    expect(list).toContain("Rapoarte programate în <#C0GENERAL>");
    const wrong = await fleet("programează combustibil toate ieri în fiecare zi");
    expect(wrong).toContain("la 07:30");
    await fleet(`programează șterge ${idIn(answer.replace("cod", "id"))}`);
    await fleet("limba en");
  });
});
