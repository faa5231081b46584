/**
 * `/etransport history <UIT>` end to end: transports started, paused and ended through signed
 * /etransport commands against the simulator, then their audit trail read back from the store,
 * by the same fleet account only.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { formatUit } from "../../../src/features/etransport/slack/views/transportText.js";
import { INPUTS } from "../../../src/platform/slack/actionIds.js";
import { type BotHarness, startBotHarness, textOf } from "../../helpers/botHarness.js";

let h: BotHarness;
const DISPATCHER = "U0DISPATCH";
// A second user of the same (workspace) fleet account.
const COLLEAGUE = "U0NEWYORK";
const VIEWER = "U0VIEWER";
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

const sim = () => h.bot.simulator!;
const et = async (text: string, userId = DISPATCHER) => {
  const result = await h.driver.slashCommand({ command: "/etransport", text, userId, channelId: CHANNEL });
  await h.settle();
  return result;
};
const statusOf = (uit: string) =>
  sim()
    .control.transports()
    .find((t) => t.codeUit === uit)?.statusId;
const fleetRequests = () => sim().control.requests(1000).length;

/** The history as the user reads it (the ephemeral ack), after checking nothing reached the fleet service. */
async function history(uit: string, userId = DISPATCHER) {
  const before = fleetRequests();
  const result = await et(`history ${uit}`, userId);
  expect(result.status).toBe(200);
  expect(fleetRequests()).toBe(before);
  const posted = result.posted;
  expect(posted?.ephemeral).toBe(true);
  return { text: textOf(posted), blocks: posted?.blocks ?? [] };
}

async function linkViewer() {
  await h.driver.slashCommand({ command: "/fleet", text: "login", userId: VIEWER, channelId: CHANNEL });
  await h.fake.waitForCall("views.open");
  const login = [...h.fake.views.values()].at(-1)!;
  await h.driver.viewSubmission({
    userId: VIEWER,
    viewId: login.id,
    values: {
      [INPUTS.loginUsername.block]: { [INPUTS.loginUsername.action]: "viewer" },
      [INPUTS.loginPassword.block]: { [INPUTS.loginPassword.action]: "viewer" },
    },
  });
  await h.settle();
}

describe("/etransport history", () => {
  it("shows who started, paused and ended a transport, newest first, each UIT of a bulk start its own entry; another fleet account sees none", async () => {
    const uit = sim()
      .control.transports()
      .find((t) => t.statusId === 1)?.codeUit;
    // A running transport paused by the simulator's control can be started again.
    const other = sim()
      .control.transports()
      .find((t) => t.statusId === 2)?.codeUit;
    if (!uit || !other) throw new Error("the simulator has no pending or running transport");
    sim().control.setTransport(other, { statusId: 6 });

    await et(`start ${formatUit(uit)} ${other}`);
    expect(statusOf(uit)).toBe(2);
    expect(statusOf(other)).toBe(2);
    await et(`pause ${uit}`, COLLEAGUE);
    expect(statusOf(uit)).toBe(6);
    await et(`end ${uit}`);
    expect(statusOf(uit)).toBe(3);
    // Ending it again: the service refuses, and its answer is kept too.
    await et(`end ${uit}`);

    const seen = await history(uit);
    expect(seen.text).toContain("4 recorded changes, newest first");
    expect(seen.text).toContain("fleet account `demo`");
    const order = ["End", "Ended", "Paused", "Started"].map((word) => seen.text.indexOf(`*${word}*`));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(seen.text).toMatch(/\*End\*.*\n:x: refused by the fleet service/);
    expect(seen.text).toMatch(new RegExp(`\\*Paused\\*.*<@${COLLEAGUE}>`));
    expect(seen.text).toMatch(new RegExp(`\\*Started\\*.*<@${DISPATCHER}>`));
    // One block per entry, the heading above them.
    expect(seen.blocks).toHaveLength(5);

    const bulk = await history(other);
    expect(bulk.text).toContain("1 recorded change,");
    expect(bulk.text).toContain("*Started*");

    await linkViewer();
    const foreign = await history(uit, VIEWER);
    expect(foreign.text).toContain(
      `No changes of \`${formatUit(uit)}\` are recorded for fleet account \`viewer\``,
    );
    expect(foreign.text).toContain("/etransport list all");
    expect(foreign.text).not.toContain(DISPATCHER);
  });

  it("a missing, malformed or second UIT is answered with what is wrong and an example, and nothing is read", async () => {
    const missing = await history("");
    expect(missing.text).toContain("needs the UIT");
    expect(missing.text).toMatch(/Try: `\/etransport history [A-Z0-9-]{19}`/);
    const short = await history("ABC-123");
    expect(short.text).toContain("is not a UIT");
    const two = await history("AB12CD34EF56GH78 ZX98YW76VU54TS32");
    expect(two.text).toContain("one transport at a time");
  });
});
