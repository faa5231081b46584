/**
 * Issue 30, point 1: a changed fleet password cuts a workspace off at once.
 *
 * Multi-workspace mode over real HTTP (the fake Slack's two teams, signed requests, the embedded
 * simulator). Workspaces A and B link the same fleet user with its password, both subscribe a
 * channel to its alerts, and both read its vehicles. The carrier changes the password at the
 * service and links A again with the new one. From then on B (still holding the old password):
 * - gets no position from the list A's call cached, and its command sends no login (no wrong
 *   password is tried against the account): it is told, in its language, to link again;
 * - reads no e-Transport history from fleetbot's store;
 * - gets no alert of the account in its channel, only one "alerts paused" notice, and its
 *   subscriber one direct message; A's channel gets the alert.
 * And B linking again with the new password brings everything back.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ACTIONS } from "../../../src/platform/slack/actionIds.js";
import { dmIdFor } from "../../../src/sandbox/fakeSlack/index.js";
import type { SimVehicle } from "../../../src/simulator/index.js";
import { buttonsOf, textOf } from "../../helpers/botHarness.js";
import {
  type MultiWorkspaceHarness,
  startMultiWorkspaceHarness,
  TEAM_A,
  TEAM_B,
} from "../../helpers/multiWorkspaceHarness.js";
import {
  alertsFor,
  command,
  forgedClick,
  lastEphemeral,
  lastSeen,
  link,
  runningOn,
  type Side,
  seenBy,
  sidesOf,
  splitFleet,
} from "./sides.js";

const USER = "shared-fleet";
const OLD = "old-password";
const NEW = "new-password";

describe("a changed fleet password cuts the other workspace off at once", () => {
  let h: MultiWorkspaceHarness;
  let A: Side;
  let B: Side;
  let fleet: SimVehicle[];
  /** Index in the simulator's request log where the password changed. */
  let changedAt = 0;

  const requestsSince = (from: number) =>
    h.bot
      .simulator!.control.requests()
      .slice(from)
      .filter((r) => r.username === USER);
  const channelText = (side: Side) =>
    seenBy(side)
      .map((m) => textOf(m))
      .join("\n");

  beforeAll(async () => {
    h = await startMultiWorkspaceHarness();
    ({ A, B } = sidesOf(h));
    fleet = splitFleet(h.bot.simulator!.vehicles).a;
    h.bot.simulator!.control.upsertUser({
      username: USER,
      password: OLD,
      vehicleIds: fleet.map((v) => v.vehicleId),
    });
    await h.install({ teamId: TEAM_A });
    await h.install({ teamId: TEAM_B });
    await link(h, A, USER, OLD);
    await link(h, B, USER, OLD);
    // B's dispatcher reads fleetbot in Romanian.
    await command(h, B, "limba ro");
    await h.settle();
    for (const side of [A, B]) {
      await command(h, side, `alerts subscribe <#${side.channel}|general>`);
      await h.settle();
    }
    await h.bot.alerts.runOnce(); // the demo fleet's existing problems
    await h.settle();
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  /** B's vehicle list from before the change: a stored answer with a Next page button. */
  let listB: { ts: string; next: string } | undefined;

  it("before the change, both workspaces read the account", async () => {
    const plate = fleet[0]!.plate;
    for (const side of [A, B]) {
      await command(h, side, `where ${plate}`);
      await h.settle();
      await vi.waitFor(() => expect(textOf(lastSeen(side))).toContain(plate));
    }
    await command(h, B, "vehicles");
    await h.settle();
    const list = seenBy(B)
      .filter((m) => buttonsOf(m, ACTIONS.pageNext).length > 0)
      .at(-1);
    expect(list).toBeDefined();
    listB = { ts: list!.ts, next: buttonsOf(list!, ACTIONS.pageNext)[0]!.value };
  });

  it("after the carrier changes the password and links A again, B's where sends nothing and is told to link again", async () => {
    h.bot.simulator!.control.upsertUser({
      username: USER,
      password: NEW,
      vehicleIds: fleet.map((v) => v.vehicleId),
    });
    await link(h, A, USER, NEW);
    changedAt = h.bot.simulator!.control.requests().length;

    const plate = fleet[1]!.plate;
    await command(h, B, `where ${plate}`);
    await h.settle();
    await vi.waitFor(() =>
      expect(textOf(lastSeen(B))).toMatch(/Parola acestui cont al platformei GPS s-a schimbat/),
    );
    expect(textOf(lastSeen(B))).not.toContain(fleet[1]!.name);
    // B's old password was not tried against the account: no login, no call at all.
    expect(requestsSince(changedAt)).toEqual([]);

    // A, with the new password, still reads it (from its own list or a fresh one).
    await command(h, A, `where ${plate}`);
    await h.settle();
    await vi.waitFor(() => expect(textOf(lastSeen(A))).toContain(plate));
    expect(requestsSince(changedAt).every((r) => r.status !== 401)).toBe(true);
  });

  it("B turns no page of its stored vehicle list any more (a stored answer is fleet data too)", async () => {
    const before = B.driver.workspace.findMessage(B.channel, listB!.ts)?.revisions;
    await forgedClick(B, {
      userId: B.user,
      channelId: B.channel,
      messageTs: listB!.ts,
      actionId: ACTIONS.pageNext,
      value: listB!.next,
    });
    await h.settle();
    await vi.waitFor(() =>
      expect(textOf(lastEphemeral(B))).toMatch(/Parola acestui cont al platformei GPS s-a schimbat/),
    );
    expect(B.driver.workspace.findMessage(B.channel, listB!.ts)?.revisions).toBe(before);
  });

  it("B reads no e-Transport history from the store; A does", async () => {
    const uit = runningOn(h, fleet)!.codeUit;
    await B.driver.slashCommand({
      command: "/etransport",
      text: `history ${uit}`,
      userId: B.user,
      channelId: B.channel,
    });
    await h.settle();
    await vi.waitFor(() =>
      expect(textOf(lastSeen(B))).toMatch(/Parola acestui cont al platformei GPS s-a schimbat/),
    );
    await A.driver.slashCommand({
      command: "/etransport",
      text: `history ${uit}`,
      userId: A.user,
      channelId: A.channel,
    });
    await h.settle();
    await vi.waitFor(() => expect(textOf(lastSeen(A))).not.toMatch(/password|checking/i));
  });

  it("an alert goes to A's channel only; B's channel is told once that its alerts are paused, and B's subscriber gets one DM", async () => {
    const running = runningOn(h, fleet)!;
    h.bot.simulator!.control.setTransport(running.codeUit, { transmissionStatusCode: "NoGPSCoordinates" });
    await h.bot.alerts.runOnce();
    await h.settle();
    expect(alertsFor(A, running.codeUit)).toHaveLength(1);
    expect(alertsFor(B, running.codeUit)).toHaveLength(0);
    const paused = () =>
      seenBy(B).filter((m) => /Alerts of \*shared-fleet\* are paused here/.test(textOf(m)));
    expect(paused()).toHaveLength(1);
    expect(textOf(paused()[0])).toContain(`<@${B.user}>`);
    const dms = () =>
      B.driver.workspace.messages(dmIdFor(B.user)).filter((m) => /fost schimbată/.test(textOf(m)));
    expect(dms()).toHaveLength(1);
    expect(textOf(dms()[0])).toContain("/fleet login");

    // The next sweep tells nobody again, and B still gets nothing of the account.
    await h.bot.alerts.runOnce();
    await h.settle();
    expect(paused()).toHaveLength(1);
    expect(dms()).toHaveLength(1);
    expect(alertsFor(B, running.codeUit)).toHaveLength(0);
    // No sweep tried B's old password either.
    expect(requestsSince(changedAt).every((r) => r.status !== 401)).toBe(true);
    expect(channelText(B)).not.toContain(running.codeUit.replace(/(.{4})(?=.)/g, "$1-"));
  });

  it("B linking again with the new password brings its answers and alerts back", async () => {
    // (The link helper reads the English confirmation.)
    await command(h, B, "language en");
    await link(h, B, USER, NEW);
    const plate = fleet[2]!.plate;
    await command(h, B, `where ${plate}`);
    await h.settle();
    await vi.waitFor(() => expect(textOf(lastSeen(B))).toContain(plate));
    const running = runningOn(h, fleet.slice(3)) ?? runningOn(h, fleet)!;
    h.bot.simulator!.control.setTransport(running.codeUit, { transmissionStatusCode: "OldData" });
    await h.bot.alerts.runOnce();
    await h.settle();
    expect(alertsFor(B, running.codeUit).length).toBeGreaterThan(0);
  });
});
