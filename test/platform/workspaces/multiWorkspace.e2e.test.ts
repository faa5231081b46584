/**
 * Multi-workspace mode end to end (SQLite): two Slack teams install fleetbot through "Add to
 * Slack" over HTTP, each links its own fleet account, and everything each team sends (commands,
 * buttons, uninstall events) goes through the signed driver exactly as Slack sends it. What each
 * team sees is read from its own workspace of the fake Slack: a Web API call lands in a team's
 * workspace only when it carried a token issued for that team (the fake routes issued tokens by
 * team), so a call recorded in a workspace is a call made with that workspace's token.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ACTIONS } from "../../../src/platform/slack/actionIds.js";
import { dmIdFor } from "../../../src/sandbox/fakeSlack/index.js";
import type { SimVehicle } from "../../../src/simulator/index.js";
import { buttonsOf, textOf } from "../../helpers/botHarness.js";
import { replayRedirect } from "../../helpers/installFlow.js";
import {
  type MultiWorkspaceHarness,
  startMultiWorkspaceHarness,
  TEAM_A,
  TEAM_B,
} from "../../helpers/multiWorkspaceHarness.js";
import {
  alertsFor,
  apiCallsText,
  buttonsIn,
  callsOf,
  command,
  FOREIGN,
  forgedClick,
  KEY_A,
  KEY_B,
  lastEphemeral,
  lastSeen,
  link,
  mentions,
  rowsOf,
  runningOn,
  type Side,
  seenBy,
  sidesOf,
  splitFleet,
  ZERO,
} from "./sides.js";

function installationRows(h: MultiWorkspaceHarness) {
  const db = new Database(join(h.dataDir, "fleetbot.sqlite"), { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT key, installed_at, updated_at FROM slack_installations ORDER BY key").all() as {
      key: string;
      installed_at: number;
      updated_at: number;
    }[];
  } finally {
    db.close();
  }
}

// ------------------------------------------------------------------------------------ the suite

describe("two workspaces, two fleet accounts", () => {
  let h: MultiWorkspaceHarness;
  let A: Side;
  let B: Side;
  let fleetA: SimVehicle[];
  let fleetB: SimVehicle[];

  beforeAll(async () => {
    h = await startMultiWorkspaceHarness();
    ({ A, B } = sidesOf(h));
    const split = splitFleet(h.bot.simulator!.vehicles);
    fleetA = split.a;
    fleetB = split.b;
    const sim = h.bot.simulator!.control;
    sim.upsertUser({ username: "carrier-a", password: "pass-a", vehicleIds: fleetA.map((v) => v.vehicleId) });
    sim.upsertUser({ username: "carrier-b", password: "pass-b", vehicleIds: fleetB.map((v) => v.vehicleId) });
  });
  afterAll(async () => {
    await h?.close();
  });
  afterEach(() => {
    // Every payload the bot sent to either team stayed within Slack's limits.
    expect(h.driverA.workspace.violations).toEqual([]);
    expect(h.driverB.workspace.violations).toEqual([]);
  });

  it("1. a Cancel stores nothing; A and B install through /slack/install; each installer gets a DM in their own team; a replayed state is refused and stores nothing", async () => {
    // B's installer presses Cancel first.
    const denied = await h.install({ teamId: TEAM_B, deny: true });
    expect(denied.status).toBe(200);
    expect(denied.body).toContain("fleetbot was not installed");
    expect(installationRows(h)).toEqual([]);
    expect(h.fake.oauth.installs).toHaveLength(0);
    expect(h.driverB.workspace.calls).toEqual([]);

    const installA = await h.install({ teamId: TEAM_A });
    expect(installA.status).toBe(200);
    expect(installA.body).toContain("fleetbot is installed");
    expect(installA.body).toMatch(/Fleet Sandbox/);
    const installB = await h.install({ teamId: TEAM_B });
    expect(installB.status).toBe(200);
    expect(installB.body).toMatch(/Second Carrier/);
    expect(installationRows(h).map((r) => r.key)).toEqual([KEY_A, KEY_B]);

    // Each installer's DM, in their own team: conversations.open for them, then the message.
    for (const side of [A, B]) {
      await vi.waitFor(() => expect(side.driver.workspace.messages(side.user).length).toBeGreaterThan(0));
      const opened = callsOf(side, "conversations.open");
      expect(opened.map((c) => c.args.users)).toEqual([side.user]);
      const posts = callsOf(side, "chat.postMessage").filter((c) => c.args.channel === dmIdFor(side.user));
      expect(posts).toHaveLength(1);
      const dm = textOf(side.driver.workspace.messages(side.user)[0]);
      expect(dm).toContain("/fleet login workspace");
      expect(dm).toContain("/fleet help");
    }
    expect(textOf(A.driver.workspace.messages(A.user)[0])).toContain("Fleet Sandbox");
    expect(textOf(B.driver.workspace.messages(B.user)[0])).toContain("Second Carrier");
    // Nothing of one team's welcome reached the other's workspace.
    expect(apiCallsText(A)).not.toContain(B.user);
    expect(apiCallsText(B)).not.toContain(A.user);

    // The same redirect (state and cookie) presented again after the success.
    const rowsBefore = installationRows(h);
    const exchanges = h.fake.calls.filter((c) => c.method === "oauth.v2.access").length;
    const dmsBefore = [A, B].map((s) => s.driver.workspace.messages(s.user).length);
    const replayed = await replayRedirect(installA.redirectUrl, installA.cookie);
    expect(replayed.status).toBe(400);
    expect(replayed.body).toContain("This install link cannot be used");
    await h.settle();
    expect(installationRows(h)).toEqual(rowsBefore);
    expect(h.fake.calls.filter((c) => c.method === "oauth.v2.access").length).toBe(exchanges);
    expect(h.fake.oauth.installs).toHaveLength(2);
    expect([A, B].map((s) => s.driver.workspace.messages(s.user).length)).toEqual(dmsBefore);
  });

  it("2. each team links its own fleet account, and /fleet vehicles answers each with its own account's vehicles, through its own token", async () => {
    await link(h, A, "carrier-a", "pass-a");
    await link(h, B, "carrier-b", "pass-b");
    // The link's DM went out in each team's own workspace.
    for (const side of [A, B]) {
      expect(callsOf(side, "chat.postMessage").some((c) => c.args.channel === dmIdFor(side.user))).toBe(true);
    }

    await command(h, A, "vehicles");
    await command(h, B, "vehicles");
    await h.settle();
    const answerA = textOf(lastSeen(A));
    const answerB = textOf(lastSeen(B));
    expect(
      fleetA.some((v) => mentions(answerA, v.plate)),
      answerA,
    ).toBe(true);
    expect(
      fleetB.some((v) => mentions(answerB, v.plate)),
      answerB,
    ).toBe(true);
    for (const v of fleetB) expect(mentions(answerA, v.plate), `A sees ${v.plate}`).toBe(false);
    for (const v of fleetA) expect(mentions(answerB, v.plate), `B sees ${v.plate}`).toBe(false);
    // Every message anywhere in each team: never a plate only the other account sees.
    const allText = (side: Side) =>
      [side.channel, side.user, side.other]
        .flatMap((c) => side.driver.workspace.messages(c).map(textOf))
        .join("\n");
    for (const v of fleetB) expect(mentions(allText(A), v.plate)).toBe(false);
    for (const v of fleetA) expect(mentions(allText(B), v.plate)).toBe(false);

    // A report with a file: the CSV goes to the user's DM, uploaded with the team's own token.
    await command(h, A, `stops ${fleetA[0]!.plate} last 3d`);
    await command(h, B, `stops ${fleetB[0]!.plate} last 3d`);
    await h.settle();
    for (const side of [A, B]) {
      await vi.waitFor(() =>
        expect(callsOf(side, "files.completeUploadExternal").filter((c) => c.ok)).toHaveLength(1),
      );
      expect(side.driver.workspace.files().some((f) => f.name === "stops.csv")).toBe(true);
      // The user's zone was asked of their own team.
      expect(callsOf(side, "users.info").length).toBeGreaterThan(0);
      expect(
        callsOf(side, "users.info").every((c) => c.args.user === side.user || c.args.user === side.other),
      ).toBe(true);
    }
    // No call of one team's work reached the other team's workspace.
    expect(apiCallsText(A)).not.toContain(B.user);
    expect(apiCallsText(A)).not.toContain(B.channel);
    expect(apiCallsText(B)).not.toContain(A.user);
    expect(apiCallsText(B)).not.toContain(`"${A.channel}"`);
  });

  let uitA = "";
  let uitB = "";

  it("3. each team's alerts go to its own channel with its own token, and nothing crosses", async () => {
    // A picks its channel; B types #general, which exists in both teams: B's lookup must find B's.
    await command(h, A, `alerts subscribe <#${A.channel}|general>`);
    await vi.waitFor(() => expect(textOf(lastEphemeral(A))).toMatch(/now gets alerts/i));
    await command(h, B, "alerts subscribe #general");
    await vi.waitFor(() => expect(textOf(lastEphemeral(B))).toMatch(/now gets alerts/i));
    expect(textOf(lastEphemeral(B))).toContain(B.channel);

    await h.bot.alerts.runOnce(); // the demo fleet's existing problems
    const runningA = runningOn(h, fleetA);
    const runningB = runningOn(h, fleetB);
    expect(runningA).toBeDefined();
    expect(runningB).toBeDefined();
    uitA = runningA!.codeUit;
    uitB = runningB!.codeUit;
    const sim = h.bot.simulator!.control;
    sim.setTransport(uitA, { transmissionStatusCode: "NoGPSCoordinates" });
    sim.setTransport(uitB, { transmissionStatusCode: "NoGPSCoordinates" });
    await h.bot.alerts.runOnce();
    await h.settle();

    expect(alertsFor(A, uitA)).toHaveLength(1);
    expect(alertsFor(B, uitB)).toHaveLength(1);
    expect(alertsFor(A, uitB)).toHaveLength(0);
    expect(alertsFor(B, uitA)).toHaveLength(0);
    // The posts were made in each team's workspace (its own token), in its own channel.
    const postedA = callsOf(A, "chat.postMessage").filter((c) => c.ok && c.args.channel === A.channel);
    const postedB = callsOf(B, "chat.postMessage").filter((c) => c.ok && c.args.channel === B.channel);
    expect(postedA.some((c) => JSON.stringify(c.args).replace(/-/g, "").includes(uitA))).toBe(true);
    expect(postedB.some((c) => JSON.stringify(c.args).replace(/-/g, "").includes(uitB))).toBe(true);
    // No transport of one account appears anywhere in the other team.
    const transportsOf = (vehicles: readonly SimVehicle[]) => {
      const uids = new Set(vehicles.map((v) => v.vehicleUId));
      return sim
        .transports()
        .filter((t) => uids.has(t.vehicleUId))
        .map((t) => t.codeUit);
    };
    const callsText = (side: Side) => apiCallsText(side).replace(/-/g, "");
    for (const uit of transportsOf(fleetB)) expect(callsText(A)).not.toContain(uit);
    for (const uit of transportsOf(fleetA)) expect(callsText(B)).not.toContain(uit);

    // Each team mutes its own alert: the mutes are stored per workspace (and deleted with it, below).
    for (const [side, uit] of [
      [A, uitA],
      [B, uitB],
    ] as const) {
      const alert = alertsFor(side, uit)[0]!;
      const mute = buttonsOf(alert, ACTIONS.alertMute)[0]!;
      await side.driver.blockAction({
        userId: side.user,
        channelId: side.channel,
        messageTs: alert.ts,
        actionId: ACTIONS.alertMute,
        value: mute.value,
      });
      await vi.waitFor(() => expect(textOf(lastEphemeral(side))).toMatch(/mute/i));
    }
    await h.settle();
    expect(rowsOf(h, KEY_A).alert_mutes).toBe(1);
    expect(rowsOf(h, KEY_B).alert_mutes).toBe(1);
  });

  it("4. a button from B carrying A's task id does nothing there and B's user is told the message is someone else's", async () => {
    // A page button: A's vehicle list is a done task with two pages.
    await command(h, A, "vehicles");
    await h.settle();
    const listA = seenBy(A)
      .filter((m) => buttonsOf(m, ACTIONS.pageNext).length > 0)
      .at(-1)!;
    const pageA = JSON.parse(buttonsOf(listA, ACTIONS.pageNext)[0]!.value) as { t: string; p: number };
    const taskA = await h.bot.tasks.get(pageA.t);
    expect(taskA?.workspace).toBe(KEY_A);

    await command(h, B, "vehicles");
    await h.settle();
    const listB = seenBy(B)
      .filter((m) => buttonsOf(m, ACTIONS.pageNext).length > 0)
      .at(-1)!;
    const revisionsB = listB.revisions;
    const seenInA = A.driver.workspace.messages(A.channel).length;
    const responsesA = A.driver.workspace.responses.length;
    await forgedClick(B, {
      userId: B.user,
      channelId: B.channel,
      messageTs: listB.ts,
      actionId: ACTIONS.pageNext,
      value: JSON.stringify(pageA),
    });
    await vi.waitFor(() => expect(textOf(lastEphemeral(B))).toMatch(FOREIGN));
    await h.settle();
    expect(B.driver.workspace.findMessage(B.channel, listB.ts)?.revisions).toBe(revisionsB);
    for (const v of fleetA) expect(mentions(textOf(lastSeen(B)), v.plate)).toBe(false);
    expect(A.driver.workspace.messages(A.channel).length).toBe(seenInA);
    expect(A.driver.workspace.responses.length).toBe(responsesA);

    // Cancel: A's longer request, cancelled from B with its id.
    const ack = await command(h, A, "stops all last 30d");
    const waiting = lastSeen(A)!;
    // Its id from its Cancel button; from the store when it already finished (the button is gone).
    const cancelId =
      buttonsIn(waiting, ACTIONS.cancelTask)[0]?.value ??
      buttonsIn(ack.posted, ACTIONS.cancelTask)[0]?.value ??
      (await h.bot.tasks.recent("carrier-a", 5, KEY_A)).find((t) => t.kind === "vehicle-report")?.id;
    expect(cancelId).toBeDefined();
    const refusalsB = B.driver.workspace.messages(B.channel).filter((m) => FOREIGN.test(textOf(m))).length;
    await forgedClick(B, {
      userId: B.user,
      channelId: B.channel,
      messageTs: listB.ts,
      actionId: ACTIONS.cancelTask,
      value: cancelId!,
    });
    await vi.waitFor(() =>
      expect(B.driver.workspace.messages(B.channel).filter((m) => FOREIGN.test(textOf(m))).length).toBe(
        refusalsB + 1,
      ),
    );
    await h.settle();
    const after = await h.bot.tasks.get(cancelId!);
    expect(after?.state).not.toBe("cancelled");
    expect(after?.reply.cancelledBy).toBeUndefined();
    expect(textOf(A.driver.workspace.findMessage(A.channel, waiting.ts))).not.toMatch(/cancelled/);

    // B's queue never lists A's requests (and A's never B's).
    await command(h, B, "queue");
    const queueB = lastEphemeral(B);
    expect(JSON.stringify(queueB?.blocks ?? [])).not.toContain(cancelId!);
    expect(textOf(queueB)).not.toContain("carrier-a");
  });

  let rowsB: ReturnType<typeof rowsOf>;

  it("5. uninstalling A deletes every row of A and nothing of B; B still works", async () => {
    // Each workspace names its own zone "Depou" (zones belong to a workspace, not to an account).
    await command(h, A, "zones add Depou 44.4326,25.9723");
    await command(h, B, "zones add Depou 46.77,23.59");
    const before = rowsOf(h, KEY_A);
    expect(before.zones).toBe(1);
    expect(before.tasks).toBeGreaterThan(0);
    expect(before.linked_accounts).toBe(1);
    expect(before.alert_subscriptions).toBe(1);
    expect(before.alert_posts).toBeGreaterThan(0);
    expect(before.alert_mutes).toBe(1);
    expect(before.slack_installations).toBe(1);
    rowsB = rowsOf(h, KEY_B);

    expect(h.fake.oauth.uninstall(TEAM_A)).toBeGreaterThan(0);
    const uninstalled = await h.driverA.appUninstalled();
    expect(uninstalled.status).toBe(200);
    await h.settle();
    await vi.waitFor(() => expect(rowsOf(h, KEY_A)).toEqual(ZERO), { timeout: 10_000 });
    expect(rowsOf(h, KEY_B)).toEqual(rowsB);

    // B still works: a command answered, with B's account.
    await command(h, B, "whoami");
    expect(textOf(lastEphemeral(B))).toContain("carrier-b");
    await command(h, B, "vehicles");
    await h.settle();
    expect(fleetB.some((v) => mentions(textOf(lastSeen(B)), v.plate))).toBe(true);
    rowsB = rowsOf(h, KEY_B);
    expect(rowsB.slack_installations).toBe(1);
    expect(rowsB.linked_accounts).toBe(1);
    expect(rowsB.alert_subscriptions).toBe(1);
    expect(rowsB.alert_posts).toBeGreaterThan(0);
    expect(rowsB.alert_mutes).toBe(1);
  });

  it("5. a duplicate app_uninstalled and a later tokens_revoked answer 200 and change nothing", async () => {
    const duplicate = await h.driverA.appUninstalled();
    expect(duplicate.status).toBe(200);
    const revoked = await h.driverA.tokensRevoked({ bot: [A.botUser] });
    expect(revoked.status).toBe(200);
    await h.settle();
    expect(rowsOf(h, KEY_A)).toEqual(ZERO);
    expect(rowsOf(h, KEY_B)).toEqual(rowsB);
    expect(installationRows(h).map((r) => r.key)).toEqual([KEY_B]);
  });

  let reinstalledAt = 0;

  it("6. a reinstall of A starts clean: no linked account, no subscriptions", async () => {
    reinstalledAt = Date.now();
    const again = await h.install({ teamId: TEAM_A });
    expect(again.status).toBe(200);
    expect(installationRows(h).map((r) => r.key)).toEqual([KEY_A, KEY_B]);

    await command(h, A, "whoami");
    expect(textOf(lastEphemeral(A))).toMatch(/You have not linked a fleet account/);
    // Linked again: the account has no subscription left in this workspace.
    await link(h, A, "carrier-a", "pass-a");
    await command(h, A, "alerts list");
    expect(textOf(lastEphemeral(A))).toMatch(/No alert subscriptions/);
    expect(rowsOf(h, KEY_A).alert_subscriptions).toBe(0);
    expect(rowsOf(h, KEY_A).alert_mutes).toBe(0);
    expect(rowsOf(h, KEY_B)).toMatchObject({
      linked_accounts: rowsB.linked_accounts,
      alert_subscriptions: rowsB.alert_subscriptions,
      alert_mutes: rowsB.alert_mutes,
      slack_installations: 1,
    });
  });

  it("5. an app_uninstalled older than the reinstall deletes nothing", async () => {
    const rowsA = rowsOf(h, KEY_A);
    expect(rowsA.linked_accounts).toBe(1);
    const late = await h.driverA.appUninstalled({ eventTime: Math.floor(reinstalledAt / 1000) - 5 });
    expect(late.status).toBe(200);
    await h.settle();
    // Any purge the event started (awaited or not) has ended: the rows below are final.
    await h.bot.removal.idle();
    expect(rowsOf(h, KEY_A)).toMatchObject({ slack_installations: 1, linked_accounts: 1 });
    await command(h, A, "whoami");
    expect(textOf(lastEphemeral(A))).toContain("carrier-a");
  });
});

describe("two workspaces linking the same fleet account", () => {
  let h: MultiWorkspaceHarness;
  let A: Side;
  let B: Side;

  beforeAll(async () => {
    // Calls are spaced widely: A's requests stay in the account's queue while B looks at its own.
    h = await startMultiWorkspaceHarness({ intervalMs: 400 });
    ({ A, B } = sidesOf(h));
    const fleet = h.bot.simulator!.vehicles;
    h.bot.simulator!.control.upsertUser({
      username: "carrier-a",
      password: "pass-a",
      vehicleIds: fleet.slice(0, 12).map((v) => v.vehicleId),
    });
    expect((await h.install({ teamId: TEAM_A })).status).toBe(200);
    expect((await h.install({ teamId: TEAM_B })).status).toBe(200);
    await link(h, A, "carrier-a", "pass-a");
    await link(h, B, "carrier-a", "pass-a");
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });
  afterEach(() => {
    expect(h.driverA.workspace.violations).toEqual([]);
    expect(h.driverB.workspace.violations).toEqual([]);
  });

  it("4. B's /fleet queue never lists A's requests, and B cannot cancel them, though both act as carrier-a", async () => {
    const plates = h.bot.simulator!.vehicles.slice(0, 12).map((v) => v.plate);
    await command(h, A, "stops all last 30d");
    await command(h, A, `fuel ${plates[0]}, ${plates[1]} last 30d`);
    await command(h, A, `refills ${plates[2]} last 30d`);
    await command(h, A, "queue");
    const queueA = lastEphemeral(A)!;
    const idsA = buttonsIn(queueA, ACTIONS.cancelTask).map((b) => b.value);
    expect(idsA.length, textOf(queueA)).toBeGreaterThan(0);
    for (const id of idsA) expect((await h.bot.tasks.get(id))?.workspace).toBe(KEY_A);

    // B, same fleet account, same moment: its queue is its own (empty).
    await command(h, B, "queue");
    const queueB = lastEphemeral(B)!;
    expect(textOf(queueB)).toMatch(/Nothing is waiting for the fleet account \*carrier-a\*/);
    for (const id of idsA) expect(JSON.stringify(queueB.blocks ?? [])).not.toContain(id);

    // B forges a Cancel of A's queued request: refused, and the request goes on.
    const target = idsA.at(-1)!;
    await forgedClick(B, {
      userId: B.user,
      channelId: B.channel,
      messageTs: queueB.ts,
      actionId: ACTIONS.cancelTask,
      value: target,
    });
    await vi.waitFor(() => expect(textOf(lastEphemeral(B))).toMatch(FOREIGN));
    const forged = await h.bot.tasks.get(target);
    expect(forged?.state).not.toBe("cancelled");
    expect(forged?.reply.cancelledBy).toBeUndefined();

    // B's own request is in B's queue only.
    await command(h, B, `stops ${plates[3]} last 30d`);
    await command(h, B, "queue");
    const idsB = buttonsIn(lastEphemeral(B), ACTIONS.cancelTask).map((b) => b.value);
    await command(h, A, "queue");
    const queueA2 = lastEphemeral(A)!;
    for (const id of idsB) expect(JSON.stringify(queueA2.blocks ?? [])).not.toContain(id);
    for (const id of idsB) expect((await h.bot.tasks.get(id))?.workspace).toBe(KEY_B);

    // Every answer goes to the team that asked: nothing of A's requests in B's workspace.
    await h.settle();
    expect((await h.bot.tasks.get(target))?.state).toBe("done");
    const bText = apiCallsText(B) + JSON.stringify(B.driver.workspace.responses);
    expect(bText).not.toContain(A.user);
    expect(bText).not.toContain(`"${A.channel}"`);
    const aText = apiCallsText(A) + JSON.stringify(A.driver.workspace.responses);
    expect(aText).not.toContain(B.user);
    expect(aText).not.toContain(B.channel);
    // A's fuel answer went to A's channel only.
    const fuelAnswers = (side: Side) =>
      side.driver.workspace.messages(side.channel).filter((m) => /fuel|consumption/i.test(textOf(m)));
    expect(fuelAnswers(A).length).toBeGreaterThan(0);
    expect(fuelAnswers(B)).toEqual([]);
  }, 60_000);
});

describe("token rotation", () => {
  let h: MultiWorkspaceHarness;
  let A: Side;
  /** The fake Slack's clock runs this far ahead of the wall clock. */
  let ahead = 0;

  beforeAll(async () => {
    h = await startMultiWorkspaceHarness({
      // 10 minutes: below the registry's 15 minutes of renewal ahead, so every token is already
      // "expiring" and renewed before use; the fake refuses a token once its 10 minutes are over.
      fakeSlack: { now: () => Date.now() + ahead, oauth: { tokenRotation: true, expiresInSeconds: 600 } },
    });
    ({ A } = sidesOf(h));
    h.bot.simulator!.control.upsertUser({
      username: "carrier-a",
      password: "pass-a",
      vehicleIds: h.bot.simulator!.vehicles.slice(0, 12).map((v) => v.vehicleId),
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  const refreshes = () =>
    h.fake.calls.filter((c) => c.method === "oauth.v2.access" && c.args.grant_type === "refresh_token");

  it("7. a background alert post, long after the install, goes out with a renewed token", async () => {
    expect((await h.install({ teamId: TEAM_A })).status).toBe(200);
    await link(h, A, "carrier-a", "pass-a");
    await command(h, A, "alerts subscribe");
    await vi.waitFor(() => expect(textOf(lastEphemeral(A))).toMatch(/now gets alerts/i));
    await h.bot.alerts.runOnce(); // the demo fleet's existing problems
    await h.settle();

    // Every token issued so far has expired at Slack.
    ahead += 601_000;
    const advancedAt = Date.now() + ahead;
    const renewedBefore = refreshes().length;
    const running = runningOn(h, h.bot.simulator!.vehicles.slice(0, 12))!;
    expect(running).toBeDefined();
    h.bot.simulator!.control.setTransport(running.codeUit, { transmissionStatusCode: "NoGPSCoordinates" });
    // No request from Slack: the sweep alone must renew the token before it posts.
    await h.bot.alerts.runOnce();
    await h.settle();

    expect(alertsFor(A, running.codeUit)).toHaveLength(1);
    const renewed = refreshes().slice(renewedBefore);
    expect(renewed.length).toBeGreaterThan(0);
    expect(renewed.every((c) => c.ok)).toBe(true);
    expect(renewed[0]!.at).toBeGreaterThanOrEqual(advancedAt);
    const post = callsOf(A, "chat.postMessage")
      .filter((c) => c.ok && JSON.stringify(c.args).replace(/-/g, "").includes(running.codeUit))
      .at(-1)!;
    expect(post).toBeDefined();
    // The post came after a renewal made once the old tokens were dead: it carried a new one.
    expect(post.at).toBeGreaterThanOrEqual(renewed[0]!.at);
    expect(rowsOf(h, KEY_A).slack_installations).toBe(1);
  });
});
