/**
 * A large fleet and long reports through the whole bot: every message stays within Slack's
 * limits (the fake rejects anything beyond them), long reports show their progress.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTIONS } from "../../../src/platform/slack/actionIds.js";
import { type BotHarness, startBotHarness, textOf } from "../../helpers/botHarness.js";

let h: BotHarness;
const USER = "U0DISPATCH";
const CHANNEL = "C0GENERAL";

beforeAll(async () => {
  h = await startBotHarness({
    intervalMs: 40,
    start: { simulator: { vehicleCount: 80 }, progressEveryMs: 0 },
  });
});
afterAll(async () => {
  await h.close();
});

const fleet = (text: string) =>
  h.driver.slashCommand({ command: "/fleet", text, userId: USER, channelId: CHANNEL });
const seen = () => h.fake.messages(CHANNEL).filter((m) => m.visibleTo === USER);

describe("large answers", () => {
  it("a fleet of 80 vehicles: paginated list within the limits, Next shows page 2", async () => {
    await fleet("vehicles");
    await h.settle();
    expect(h.fake.violations).toEqual([]);
    const list = seen().at(-1)!;
    const revisions = list.revisions;
    expect(textOf(list)).toMatch(/80/);
    const next = (list.blocks as { elements?: { action_id?: string; value?: string }[] }[])
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === ACTIONS.pageNext);
    expect(next?.value).toBeDefined();
    await h.driver.blockAction({
      userId: USER,
      channelId: CHANNEL,
      messageTs: list.ts,
      actionId: ACTIONS.pageNext,
      value: next!.value,
    });
    await h.fake.waitFor(() => seen().at(-1)!.revisions > revisions);
    expect(JSON.stringify(seen().at(-1)!.blocks)).toContain(ACTIONS.pagePrevious);
    expect(h.fake.violations).toEqual([]);
  });

  it("a stops report over every vehicle and a week (hundreds of stops) stays within the limits, with progress on the way", async () => {
    const before = h.fake.responses.length;
    await fleet("stops all last 7d min=1");
    await h.settle();
    expect(h.fake.violations).toEqual([]);
    const progress = h.fake.responses.slice(before).map((r) => JSON.stringify(r));
    // 80 vehicles = 8 calls of 10: the message said how far it was while they ran.
    expect(progress.some((r) => /\d+\/\d+ requests/.test(r))).toBe(true);
    const report = seen().at(-1)!;
    expect(textOf(report)).toMatch(/stops/i);
    expect(h.fake.files.some((f) => f.name === "stops.csv")).toBe(true);
    const csv = h.fake.files.find((f) => f.name === "stops.csv")!;
    const rows = (csv.bytes ?? Buffer.alloc(0)).toString("utf8").trim().split("\n").length - 1;
    expect(rows).toBeGreaterThan(300);
  });
});
