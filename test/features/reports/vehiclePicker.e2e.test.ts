/**
 * The report form's vehicle picker on an account whose vehicle list is not loaded yet (issue 24):
 * the options request is answered within Slack's 3 s with the vehicles when their fetch ends in
 * time, else with a "loading" hint the form refuses kindly; and the help's examples name the
 * account's own plates once its list is known.
 */
import { afterEach, describe, expect, it } from "vitest";
import { VEHICLES_LOADING_VALUE } from "../../../src/features/reports/slack/listeners.js";
import { INPUTS } from "../../../src/platform/slack/actionIds.js";
import { type BotHarness, lastSeenBy, startBotHarness, textOf } from "../../helpers/botHarness.js";

const USER = "U0DISPATCH";
const CHANNEL = "C0GENERAL";

let h: BotHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function openReportForm(bot: BotHarness) {
  await bot.driver.slashCommand({ command: "/fleet", text: "report", userId: USER, channelId: CHANNEL });
  await bot.fake.waitForCall("views.open");
  return [...bot.fake.views.values()].at(-1)!;
}

function suggest(bot: BotHarness, viewId: string, value = "") {
  return bot.driver.blockSuggestion({
    userId: USER,
    actionId: INPUTS.reportVehicles.action,
    blockId: INPUTS.reportVehicles.block,
    value,
    viewId,
  });
}

type Options = { options: { text: { text: string }; value: string }[] };

describe("the report form's vehicle picker while the list loads", () => {
  it("waits for a fetch that ends within the options deadline and lists the vehicles at once", async () => {
    // Login, then company-vehicles one interval later: well within the 2 s the picker waits.
    h = await startBotHarness({ intervalMs: 600 });
    const view = await openReportForm(h);
    const answer = await suggest(h, view.id);
    expect(answer.timedOut).toBe(false);
    expect(answer.elapsedMs).toBeLessThan(3_000);
    const { options } = answer.body as Options;
    const plates = h.bot.simulator!.vehicles.map((v) => v.plate);
    expect(options.length).toBeGreaterThan(0);
    expect(plates).toContain(options[0]!.text.text.split(" ")[0]);
  });

  it("answers a 'loading' hint within 3 s when the list takes longer, refuses it kindly, then lists the vehicles", async () => {
    h = await startBotHarness({ intervalMs: 4_000 });
    const view = await openReportForm(h);
    const answer = await suggest(h, view.id);
    expect(answer.timedOut).toBe(false);
    expect(answer.elapsedMs).toBeLessThan(3_000);
    const { options } = answer.body as Options;
    expect(options).toEqual([
      {
        text: expect.objectContaining({ text: expect.stringMatching(/^Loading vehicles/) }),
        value: VEHICLES_LOADING_VALUE,
      },
    ]);

    const submitted = await h.driver.viewSubmission({
      userId: USER,
      viewId: view.id,
      values: {
        [INPUTS.reportKind.block]: { [INPUTS.reportKind.action]: "where" },
        [INPUTS.reportVehicles.block]: { [INPUTS.reportVehicles.action]: [VEHICLES_LOADING_VALUE] },
      },
    });
    const body = submitted.body as { response_action: string; errors: Record<string, string> };
    expect(body.response_action).toBe("errors");
    expect(body.errors[INPUTS.reportVehicles.block]).toMatch(/not a vehicle.*type part of a plate again/);

    // The fetch that was under way ends: the next keystroke lists the vehicles.
    await h.settle();
    await expect
      .poll(async () => ((await suggest(h!, view.id)).body as Options).options[0]?.value, { timeout: 10_000 })
      .toMatch(/^\d+$/);
  });
});

describe("help examples", () => {
  it("name the account's own plates once its vehicle list is known, made-up ones before", async () => {
    h = await startBotHarness();
    const help = async () => {
      await h!.driver.slashCommand({ command: "/fleet", text: "help", userId: USER, channelId: CHANNEL });
      return textOf(lastSeenBy(h!.fake, CHANNEL, USER));
    };
    expect(await help()).toContain("/fleet where B-123-ABC");
    await h.driver.slashCommand({ command: "/fleet", text: "vehicles", userId: USER, channelId: CHANNEL });
    await h.settle();
    const text = await help();
    const plates = h.bot.simulator!.vehicles.map((v) => v.plate);
    const where = /e\.g\. `\/fleet where (\S+)`/.exec(text)?.[1];
    expect(plates).toContain(where);
    expect(text).not.toMatch(/B-123-ABC|CJ-07-XYZ|CJ-10-XYZ|#1234\b/);
    // The example a newcomer copies finds the vehicle.
    await h.driver.slashCommand({
      command: "/fleet",
      text: `where ${where}`,
      userId: USER,
      channelId: CHANNEL,
    });
    await h.settle();
    expect(textOf(lastSeenBy(h.fake, CHANNEL, USER))).not.toMatch(/No vehicle|could not be found/);
    expect(textOf(lastSeenBy(h.fake, CHANNEL, USER))).toContain(where);
    // A wrong argument's "example that works" names the account's own vehicle too.
    await h.driver.slashCommand({
      command: "/fleet",
      text: "stops min=abc",
      userId: USER,
      channelId: CHANNEL,
    });
    const error = textOf(lastSeenBy(h.fake, CHANNEL, USER));
    expect(error).toContain(`/fleet stops ${where} min=10`);
    expect(error).not.toContain("B-123-ABC");
  });
});
