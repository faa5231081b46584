/**
 * No Web API call before an ack (issue 11 point 7): a user's first command is acknowledged
 * without users.info; the task settles the zone (re-reading the typed period in it), and
 * falls back to COMPANY_TIMEZONE with a note when Slack does not answer in time.
 */
import { TZDate } from "@date-fns/tz";
import { startOfDay, subDays } from "date-fns";
import { afterEach, describe, expect, it } from "vitest";
import { taskOf } from "../../../src/features/taskKinds.js";
import { type BotHarness, lastSeenBy, startBotHarness, textOf } from "../../helpers/botHarness.js";

const NEW_YORK_USER = "U0NEWYORK";
const CHANNEL = "C0GENERAL";
const NOTE = "Times in Europe/Bucharest: Slack did not say your time zone.";

let h: BotHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function stopsYesterday(harness: BotHarness) {
  const plate = harness.bot.simulator!.vehicles[2]!.plate;
  const ack = await harness.driver.slashCommand({
    command: "/fleet",
    text: `stops ${plate} yesterday`,
    userId: NEW_YORK_USER,
    channelId: CHANNEL,
  });
  await harness.settle();
  const stored = (await harness.bot.tasks.recent("demo", 1))[0]!;
  const task = taskOf(stored, "vehicle-report");
  if (!task) throw new Error("no vehicle report task");
  return { ack, task };
}

describe("the user's zone is settled in the task, not before the ack", () => {
  it("users.info answering 429 Retry-After 3: the ack is in time, the answer in the company zone with a note", async () => {
    h = await startBotHarness();
    h.fake.rateLimit("users.info", { times: 1, retryAfterSeconds: 3 });
    const { ack, task } = await stopsYesterday(h);
    expect(ack.timedOut).toBe(false);
    expect(ack.status).toBe(200);
    // The ack was the queue message, not an error.
    expect(JSON.stringify(ack.body)).toContain("hourglass");
    expect(h.fake.violations.filter((v) => v.error === "ack_timeout")).toEqual([]);
    expect(task.params.timeZone).toBe("Europe/Bucharest");
    // Stored as a flag, not words: the note is worded in the reader's language when rendered.
    expect(task.params.zoneGuessed).toBe(true);
    expect(task.params.zoneNote).toBeUndefined();
    expect(textOf(lastSeenBy(h.fake, CHANNEL, NEW_YORK_USER))).toContain(NOTE);
    // users.info was asked (by the task) and refused once.
    expect(h.fake.calls.some((c) => c.method === "users.info")).toBe(true);
  });

  it("a Romanian reader gets the note in Romanian", async () => {
    h = await startBotHarness();
    await h.driver.slashCommand({
      command: "/fleet",
      text: "limba ro",
      userId: NEW_YORK_USER,
      channelId: CHANNEL,
    });
    h.fake.rateLimit("users.info", { times: 1, retryAfterSeconds: 3 });
    const { task } = await stopsYesterday(h);
    expect(task.params.zoneGuessed).toBe(true);
    const answer = textOf(lastSeenBy(h.fake, CHANNEL, NEW_YORK_USER));
    expect(answer).toContain("Orele sunt în fusul Europe/Bucharest: Slack nu ne-a transmis fusul tău orar.");
    expect(answer).not.toContain("did not say your time zone");
  });

  it("Slack answering: the period typed is read in the user's own zone, with no note", async () => {
    h = await startBotHarness();
    const { ack, task } = await stopsYesterday(h);
    expect(ack.status).toBe(200);
    expect(task.params.timeZone).toBe("America/New_York");
    expect(task.params.zoneGuessed).toBeUndefined();
    const today = startOfDay(new TZDate(task.createdAt, "America/New_York"));
    expect(task.params.period?.fromMs).toBe(subDays(today, 1).getTime());
    expect(task.params.period?.toMs).toBe(today.getTime());
    expect(textOf(lastSeenBy(h.fake, CHANNEL, NEW_YORK_USER))).not.toContain("did not say your time zone");
  });
});
