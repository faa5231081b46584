/**
 * Slack's unsigned `ssl_check` probe must never carry anything past the request guard. Each
 * kind of request Slack sends (slash command, block_actions, view_submission,
 * block_suggestion) is built by the driver exactly as Slack builds it, then has its signature
 * stripped and `ssl_check=1` smuggled in, over real HTTP against the built bot. Before the fix,
 * these ended and removed transports as the workspace account and answered options with the
 * fleet's plates. Each must get an empty 200 (or a 401) and have no effect at all.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ACTIONS, INPUTS } from "../../../src/platform/slack/actionIds.js";
import { SlackDriver } from "../../../src/sandbox/fakeSlack/index.js";
import { type BotHarness, buttonsOf, lastSeenBy, startBotHarness } from "../../helpers/botHarness.js";

let h: BotHarness;
const USER = "U0DISPATCH";
const CHANNEL = "C0GENERAL";

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

const FORM = "application/x-www-form-urlencoded";
type Alter = NonNullable<ConstructorParameters<typeof SlackDriver>[0]["alterRequest"]>;

/** Without Slack's signature headers: what anyone on the internet can send. */
function unsigned(headers: Record<string, string>): Record<string, string> {
  const { "x-slack-signature": _signature, "x-slack-request-timestamp": _timestamp, ...rest } = headers;
  return rest;
}

/** The ways an ssl_check can be smuggled beside a real payload. */
const SMUGGLES: Record<string, Alter> = {
  // Bolt answered this one itself before the fix; kept so that it stays so.
  "form, ssl_check=1 first": ({ body, headers }) => ({
    body: `ssl_check=1&${body}`,
    headers: unsigned(headers),
  }),
  "form, ssl_check=1 last": ({ body, headers }) => ({
    body: `${body}&ssl_check=1`,
    headers: unsigned(headers),
  }),
  // node:querystring (Bolt) reads a list here; URLSearchParams (the guard) read "1".
  "form, ssl_check twice": ({ body, headers }) => ({
    body: `ssl_check=1&ssl_check=1&${body}`,
    headers: unsigned(headers),
  }),
  // The guard once took only the media type's exact spelling as a form.
  "form, charset and capitals": ({ body, headers }) => ({
    body: `ssl_check=1&${body}`,
    headers: { ...unsigned(headers), "content-type": "Application/X-WWW-Form-Urlencoded; charset=utf-8" },
  }),
  // A forged signature beside the probe (headers present, wrong).
  "form, forged signature": ({ body, headers }) => ({
    body: `ssl_check=1&ssl_check=1&${body}`,
    headers: { ...headers, "x-slack-signature": `v0=${"0".repeat(64)}` },
  }),
  // The same payload as a JSON body with ssl_check inside it.
  "JSON, ssl_check inside": ({ body, headers }) => {
    const form = new URLSearchParams(body);
    const payload = form.get("payload");
    const fields = payload ? JSON.parse(payload) : Object.fromEntries(form);
    return {
      body: JSON.stringify({ ...fields, ssl_check: "1" }),
      headers: { ...unsigned(headers), "content-type": "application/json" },
    };
  },
};

function smuggler(alter: Alter): SlackDriver {
  return new SlackDriver({ botUrl: `${h.bot.url}/slack/events`, fake: h.fake, alterRequest: alter });
}

const sim = () => h.bot.simulator!;
const requestsTo = (endpoint: string) =>
  sim()
    .control.requests(1000)
    .filter((r) => r.endpoint === endpoint).length;
const tasksSince = async (since: number) =>
  (await h.bot.tasks.recent("demo", 200)).filter((t) => t.createdAt >= since);
/** What the fake Slack received since `from` calls (posts, views, response_url uses). */
const slackCallsSince = (from: number) => h.fake.calls.slice(from);

/** An empty 200 (Slack's ssl_check answer) or a 401: nothing else is acceptable. */
function expectRefusedOrProbe(result: { status: number; body: unknown }): void {
  expect([200, 401]).toContain(result.status);
  expect(result.body ?? "").toEqual("");
}

describe.each(Object.keys(SMUGGLES))("ssl_check smuggled (%s)", (name) => {
  const attacker = () => smuggler(SMUGGLES[name]!);

  it("a slash command runs nothing", async () => {
    await h.settle();
    const since = Date.now();
    const calls = h.fake.calls.length;
    const plate = sim().vehicles[2]!.plate;
    const result = await attacker().slashCommand({
      userId: USER,
      channelId: CHANNEL,
      text: `where ${plate}`,
    });
    expectRefusedOrProbe(result);
    await h.settle();
    expect(await tasksSince(since)).toEqual([]);
    expect(slackCallsSince(calls)).toEqual([]);
  });

  it("an End button (block_actions) sends no end-transports and changes no transport", async () => {
    const running = sim()
      .control.transports()
      .find((t) => t.statusId === 2)!;
    await h.driver.slashCommand({
      command: "/etransport",
      text: `list active ${running.codeUit}`,
      userId: USER,
      channelId: CHANNEL,
    });
    await h.settle();
    const message = lastSeenBy(h.fake, CHANNEL, USER);
    const end = buttonsOf(message, ACTIONS.transportEnd)[0];
    expect(end, "End button of the listed transport").toBeDefined();
    const ends = requestsTo("end-transports");
    const calls = h.fake.calls.length;
    const result = await attacker().blockAction({
      userId: USER,
      channelId: CHANNEL,
      messageTs: message!.ts,
      actionId: ACTIONS.transportEnd,
      value: end!.value,
    });
    expectRefusedOrProbe(result);
    await h.settle();
    expect(requestsTo("end-transports")).toBe(ends);
    expect(
      sim()
        .control.transports()
        .find((t) => t.codeUit === running.codeUit)?.statusId,
    ).toBe(2);
    expect(slackCallsSince(calls)).toEqual([]);
  });

  it("a create form (view_submission) sends no add-transport", async () => {
    const opened = h.fake.calls.filter((c) => c.method === "views.open").length;
    await h.driver.slashCommand({ command: "/etransport", text: "new", userId: USER, channelId: CHANNEL });
    await h.fake.waitFor(() => h.fake.calls.filter((c) => c.method === "views.open").length > opened);
    const view = [...h.fake.views.values()].at(-1)!;
    await h.settle();
    const adds = requestsTo("add-transport");
    const since = Date.now();
    const calls = h.fake.calls.length;
    const startSec = Math.floor(Date.now() / 1000) + 3600;
    const result = await attacker().viewSubmission({
      userId: USER,
      viewId: view.id,
      values: {
        [INPUTS.transportVehicle.block]: { [INPUTS.transportVehicle.action]: sim().vehicles[0]!.vehicleUId },
        [INPUTS.transportUit.block]: { [INPUTS.transportUit.action]: "ABCD1234EFGH5678" },
        [INPUTS.transportVat.block]: { [INPUTS.transportVat.action]: "RO16341004" },
        [INPUTS.transportValidityStart.block]: { [INPUTS.transportValidityStart.action]: startSec },
        [INPUTS.transportValidityEnd.block]: { [INPUTS.transportValidityEnd.action]: startSec + 86_400 },
        [INPUTS.transportStartLocation.block]: { [INPUTS.transportStartLocation.action]: "București" },
        [INPUTS.transportEndLocation.block]: { [INPUTS.transportEndLocation.action]: "Constanța" },
      },
    });
    expectRefusedOrProbe(result);
    await h.settle();
    expect(requestsTo("add-transport")).toBe(adds);
    expect(await tasksSince(since)).toEqual([]);
    expect(slackCallsSince(calls)).toEqual([]);
  });

  it("an options request (block_suggestion) is answered with no plates", async () => {
    const opened = h.fake.calls.filter((c) => c.method === "views.open").length;
    await h.driver.slashCommand({ command: "/fleet", text: "report", userId: USER, channelId: CHANNEL });
    await h.fake.waitFor(() => h.fake.calls.filter((c) => c.method === "views.open").length > opened);
    const view = [...h.fake.views.values()].at(-1)!;
    await h.settle();
    const plate = sim().vehicles[3]!.plate;
    // The same request, signed, is answered with the plate: the smuggled one must not be.
    // The vehicle list may still be loading on the first request (options come from the cache).
    const ask = () =>
      h.driver.blockSuggestion({
        userId: USER,
        actionId: INPUTS.reportVehicles.action,
        blockId: INPUTS.reportVehicles.block,
        value: plate.slice(0, 4),
        viewId: view.id,
      });
    let genuine = await ask();
    for (let i = 0; i < 100 && !JSON.stringify(genuine.body).includes(plate); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      genuine = await ask();
    }
    expect(JSON.stringify(genuine.body)).toContain(plate);
    // Sent raw: the driver's check of an options answer would flag the empty one as a violation.
    const form = new URLSearchParams({ payload: JSON.stringify(genuine.payload) }).toString();
    const result = await attacker().rawPost(form, { "content-type": FORM, ...h.driver.sign(form) });
    expectRefusedOrProbe(result);
    expect(JSON.stringify(result.body ?? "")).not.toContain(plate);
  });
});

describe("what Slack itself sends", () => {
  it("Slack's own ssl_check (unsigned, `ssl_check=1&token=…`) gets an empty 200", async () => {
    const result = await h.driver.rawPost(`ssl_check=1&token=${h.fake.options.verificationToken}`, {
      "content-type": FORM,
    });
    expect(result.status).toBe(200);
    expect(result.body).toBeUndefined();
  });

  it("an unsigned body that is not an ssl_check is refused with 401", async () => {
    const result = await h.driver.rawPost("command=%2Ffleet&text=help", { "content-type": FORM });
    expect(result.status).toBe(401);
  });
});
