/**
 * A schedule whose author unlinked their fleet account (issue 34), in a workspace with no
 * workspace account: its next run is not made as anyone else; the schedule pauses, its author is
 * told by direct message, and, the author gone, anyone in the channel may remove it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dmIdFor } from "../../../src/sandbox/fakeSlack/workspace.js";
import type { RunningSimulator } from "../../../src/simulator/index.js";
import { textOf } from "../../helpers/botHarness.js";
import {
  type MultiWorkspaceHarness,
  startMultiWorkspaceHarness,
  TEAM_A,
} from "../../helpers/multiWorkspaceHarness.js";
import { command, lastEphemeral, link, type Side, sidesOf } from "../../platform/workspaces/sides.js";

let h: MultiWorkspaceHarness;
let A: Side;
let sim: RunningSimulator;

beforeAll(async () => {
  let clock: () => number = Date.now;
  h = await startMultiWorkspaceHarness({
    start: { scheduleClock: () => clock(), schedulePolling: false },
  });
  sim = h.bot.simulator!;
  clock = () => sim.control.now();
  ({ A } = sidesOf(h));
  expect((await h.install({ teamId: TEAM_A, userId: A.user })).status).toBe(200);
});
afterAll(async () => {
  await h.close();
});

/** Everything said to the user in direct messages, as text. */
const dmText = (userId: string) =>
  [...A.driver.workspace.messages(dmIdFor(userId)), ...A.driver.workspace.messages(userId)]
    .map((m) => textOf(m))
    .join("\n");

async function say(text: string, userId = A.user): Promise<string> {
  await command(h, A, text, userId);
  await h.settle();
  return textOf(lastEphemeral(A, userId));
}

describe("a schedule whose author unlinked", () => {
  let id = "";

  it("is made while its author has their own account", async () => {
    await link(h, A, "demo", "demo");
    const made = await say("schedule vehicles every day at 07:30");
    id = /id `([0-9A-Z]+)`/.exec(made)?.[1] ?? "";
    expect(id, made).not.toBe("");
  });

  it("pauses at its next run instead of running, and its author is told why in a DM", async () => {
    expect(await say("logout")).toContain("unlinked");
    // Nobody else in the workspace has an account to run it as.
    expect(await say("whoami")).not.toContain("demo");
    const requestsBefore = sim.control.requests(10_000).length;
    const dmBefore = dmText(A.user);
    const next = (await h.bot.slack.context.schedules.store.get(A.key, id))!.nextRunAt;
    sim.control.advanceClock(Math.max(0, next - sim.control.now()));
    expect(await h.bot.schedules.tick()).toHaveLength(1);
    await h.settle();
    const stored = (await h.bot.slack.context.schedules.store.get(A.key, id))!;
    expect(stored.state).toBe("paused");
    expect(stored.pausedBecause).toBe("unlinked");
    // Nothing was asked of the fleet service, and nothing was posted in the channel.
    expect(sim.control.requests(10_000).length).toBe(requestsBefore);
    expect(
      A.driver.workspace.messages(A.channel).filter((m) => !m.ephemeral && /Scheduled by/.test(textOf(m))),
    ).toEqual([]);
    const told = dmText(A.user).slice(dmBefore.length);
    expect(told).toContain("its author has no fleet account linked any more");
    expect(told).toContain("/fleet login");
  });

  it("is listed as paused, and anyone in the channel may remove it", async () => {
    expect(await say("schedules", A.other)).toContain(
      "Paused: its author has no fleet account linked any more",
    );
    expect(await say(`schedule remove ${id}`, A.other)).toContain(`Removed schedule \`${id}\``);
    expect(await h.bot.slack.context.schedules.store.get(A.key, id)).toBeUndefined();
  });
});
