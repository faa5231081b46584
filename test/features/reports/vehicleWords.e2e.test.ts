/**
 * Issue 14 point 5 end to end (signed driver → bot → simulator): Romanian period words are read as
 * periods, and a vehicle the cached list does not know is answered at once instead of queued.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parsePeriod } from "../../../src/commands/index.js";
import { vehicleReportParams } from "../../../src/features/reports/kind.js";
import { type BotHarness, lastSeenBy, startBotHarness, textOf } from "../../helpers/botHarness.js";

let h: BotHarness;
const USER = "U0DISPATCH";
const CHANNEL = "C0GENERAL";
const ACCOUNT = "demo";
const ZONE = "Europe/Bucharest";

beforeAll(async () => {
  h = await startBotHarness();
});
afterAll(async () => {
  await h.close();
});
afterEach(() => {
  expect(h.fake.violations).toEqual([]);
  h.fake.reset();
});

const fleet = (text: string) =>
  h.driver.slashCommand({ command: "/fleet", text, userId: USER, channelId: CHANNEL });
const lastSeen = () => lastSeenBy(h.fake, CHANNEL, USER);
const plateOf = (index: number) => h.bot.simulator!.vehicles[index]!.plate;
const newestTask = async () => (await h.bot.tasks.recent(ACCOUNT, 1))[0];

/** The vehicle list cached for the account, as after any earlier command. */
async function cacheVehicleList(): Promise<void> {
  await fleet("vehicles");
  await h.settle();
  expect(h.bot.vehicles.peek(ACCOUNT)).toBeDefined();
}

describe("/fleet with the vehicle list cached", () => {
  beforeAll(cacheVehicleList);

  it("fuel <plate> ieri queues a fuel report for that plate, yesterday", async () => {
    const plate = plateOf(0);
    const before = (await newestTask())?.id;
    const result = await fleet(`fuel ${plate} ieri`);
    expect(result.status).toBe(200);
    const task = await newestTask();
    expect(task?.id).not.toBe(before);
    const params = vehicleReportParams.parse(task?.params);
    expect(params.report).toBe("fuel");
    expect(params.refs.map((r) => r.raw)).toEqual([plate]);
    const yesterday = parsePeriod("yesterday", { timeZone: ZONE, now: new Date(task!.createdAt) });
    if (!yesterday.ok) throw new Error(yesterday.problem.code);
    expect(params.period).toMatchObject({
      fromMs: yesterday.period.from.getTime(),
      toMs: yesterday.period.to.getTime(),
      label: yesterday.period.label,
    });
    await h.settle();
    expect(textOf(lastSeen())).not.toContain("No vehicle");
  });

  it("where NOPE-123 answers at once, to the user alone, and queues nothing", async () => {
    const before = (await h.bot.tasks.recent(ACCOUNT, 1000)).length;
    const callsBefore = h.bot.simulator!.control.requests(1000).length;
    const result = await fleet("where NOPE-123");
    expect(result.status).toBe(200);
    const seen = lastSeen();
    expect(seen?.ephemeral).toBe(true);
    expect(textOf(seen)).toContain("No vehicle named `NOPE-123`");
    await h.settle();
    expect((await h.bot.tasks.recent(ACCOUNT, 1000)).length).toBe(before);
    expect(h.bot.simulator!.control.requests(1000).length).toBe(callsBefore);
  });

  it("a mistyped plate is answered at once with the closest plate, in an example that works", async () => {
    const plate = plateOf(1);
    const typo = `${plate.slice(0, -1)}${plate.endsWith("Z") ? "Y" : "Z"}`;
    const before = (await h.bot.tasks.recent(ACCOUNT, 1000)).length;
    await fleet(`stops ${plateOf(0)}, ${typo} ieri`);
    const text = textOf(lastSeen());
    expect(text).toContain(`\`${typo}\``);
    expect(text).toContain(`/fleet stops ${plateOf(0)}, ${plate} ieri`);
    expect((await h.bot.tasks.recent(ACCOUNT, 1000)).length).toBe(before);
  });

  it("stops all yesterday please blames please, with an example that works", async () => {
    const before = (await h.bot.tasks.recent(ACCOUNT, 1000)).length;
    await fleet("stops all yesterday please");
    const text = textOf(lastSeen());
    expect(text).toContain("`please` is neither a vehicle nor a period");
    expect(text).toContain("/fleet stops all yesterday");
    expect((await h.bot.tasks.recent(ACCOUNT, 1000)).length).toBe(before);
  });
});

describe("/fleet with a cold vehicle list", () => {
  it("keeps resolving in the task: an unknown vehicle is queued and told after the list is read", async () => {
    h.bot.vehicles.invalidate(ACCOUNT);
    const before = (await newestTask())?.id;
    await fleet("where NOPE-123");
    expect((await newestTask())?.id).not.toBe(before);
    await h.settle();
    expect(textOf(lastSeen())).toContain("No vehicle named `NOPE-123`");
  });
});
