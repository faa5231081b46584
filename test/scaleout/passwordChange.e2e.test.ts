/**
 * Issue 30, point 1, on 2 replicas on Redis: a changed fleet password cuts a workspace off at
 * once, whichever replica it talks to.
 *
 * Multi-workspace mode over real HTTP (the fake Slack's two teams installed through "Add to
 * Slack", signed requests), two replicas in this process on one redis-server, CREDENTIALS_KEY set
 * (the replicas share the accepted-password record only with it). Workspaces A and B link the same
 * fleet user X with password P1 and both read X's vehicles on both replicas, so each replica holds
 * a live P1 token and a P1-fetched vehicle list in memory. The carrier changes X's password to P2
 * at the service and A links again with P2 on replica 1. From then on B (still holding P1):
 * - its `/fleet where` on replica 2 (and on replica 1) is answered, in Romanian, that the password
 *   changed, and sends nothing as X (no login with the old password, no call with the old token);
 *   a command's task may run on either replica (BullMQ), so each replica is also asked directly
 *   for B's picker list, list read and history check, which all refuse without a call;
 * - an alert sweep (on replica 2, then on replica 1) posts X's alert to A's channel only, and B's
 *   channel gets one "alerts paused" notice (remembered in Redis: the second replica's sweep does
 *   not repeat it) and B's subscriber one DM.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { UnauthorizedError } from "../../src/platform/fleet/errors.js";
import type { FakeMessage } from "../../src/sandbox/fakeSlack/index.js";
import { dmIdFor } from "../../src/sandbox/fakeSlack/index.js";
import type { SimVehicle } from "../../src/simulator/index.js";
import { textOf } from "../helpers/botHarness.js";
import { redisSkipReason } from "../helpers/redisServer.js";
import {
  startWorkspaceReplicas,
  TEAMS,
  type Team,
  type WorkspaceReplicas,
} from "../helpers/workspaceReplicas.js";

const X = "shared-fleet";
const P1 = "old-password";
const P2 = "new-password";
/** Replica indexes: "replica 1" and "replica 2" of the issue. */
const R1 = 0;
const R2 = 1;
/** B's dispatcher as the fleet accounts see them (a picker, a list read). */
const actorB = { account: X, slackUser: TEAMS.B.user, workspace: TEAMS.B.key };
const PASSWORD_CHANGED_RO = /Parola acestui cont al platformei GPS s-a schimbat/;

describe.skipIf(redisSkipReason)(
  "a changed fleet password cuts the other workspace off on 2 replicas",
  () => {
    let bed: WorkspaceReplicas;
    let fleet: SimVehicle[];
    /** When A's link with the new password was done and every replica was quiet. */
    let changedAt = 0;

    /** What a team's user sees in its channel: public messages and the ephemeral ones to them. */
    const seenBy = (team: Team): FakeMessage[] =>
      bed.drivers[R1]![team].workspace.messages(TEAMS[team].channel).filter(
        (m) => !m.ephemeral || m.visibleTo === TEAMS[team].user,
      );
    const lastSeen = (team: Team) => seenBy(team).at(-1);
    /** Alert messages (not thread replies, not ephemeral) of a team's channel that mention the UIT. */
    const alertsFor = (team: Team, uit: string) =>
      bed.drivers[R1]![team].workspace.messages(TEAMS[team].channel).filter(
        (m) =>
          !m.ephemeral &&
          !m.threadTs &&
          JSON.stringify(m.blocks ?? [])
            .replace(/-/g, "")
            .includes(uit),
      );
    /** A transport In Progress that transmits normally, on one of X's vehicles. */
    const running = () => {
      const uids = new Set(fleet.map((v) => v.vehicleUId));
      return bed.sim.control
        .transports()
        .find((t) => t.statusId === 2 && !t.pinnedTransmission && uids.has(t.vehicleUId));
    };
    /** A team's `/fleet where <plate>` on one replica; the answer it saw. */
    const where = async (replica: number, team: Team, plate: string) => {
      const before = seenBy(team).length;
      await bed.command(replica, team, `where ${plate}`);
      await bed.settle();
      await vi.waitFor(() => expect(seenBy(team).length).toBeGreaterThan(before));
      return textOf(lastSeen(team));
    };

    beforeAll(async () => {
      bed = await startWorkspaceReplicas({ replicas: 2, dataDirPrefix: "fleetbot-password-replicas-" });
      fleet = bed.sim.vehicles.slice(0, 12);
      bed.sim.control.upsertUser({ username: X, password: P1, vehicleIds: fleet.map((v) => v.vehicleId) });
      await bed.link(R1, "A", X, P1);
      await bed.link(R2, "B", X, P1);
      // B's dispatcher reads fleetbot in Romanian (kept in Redis: every replica answers B in it).
      await bed.command(R2, "B", "limba ro");
      await bed.settle();
      // B subscribes first: its link is the first a sweep would try (and its P1 token still works at
      // the service), so only the shared record of the accepted password keeps the sweep off it.
      await bed.command(R2, "B", `alerts subscribe <#${TEAMS.B.channel}|general>`);
      await bed.settle();
      await bed.command(R1, "A", `alerts subscribe <#${TEAMS.A.channel}|general>`);
      await bed.settle();
      await bed.bots[R1]!.alerts.runOnce(); // the demo fleet's existing problems
      await bed.settle();
    }, 90_000);

    afterAll(async () => {
      if (!bed) return;
      expect(bed.drivers[R1]!.A.workspace.violations).toEqual([]);
      expect(bed.drivers[R1]!.B.workspace.violations).toEqual([]);
      await bed.close();
    });

    it("before the change, both workspaces read X on both replicas, and each replica holds P1's token and list", async () => {
      const plate = fleet[0]!.plate;
      for (const replica of [R1, R2])
        for (const team of ["A", "B"] as const) expect(await where(replica, team, plate)).toContain(plate);
      // Tasks run on whichever replica takes them: each replica reads B's list itself, so each holds
      // a live token of P1 and a list P1 fetched, in its own memory (what a stale replica could serve).
      for (const bot of bed.bots) {
        await bot.accounts.vehiclesOf(actorB, { priority: "interactive" });
        expect(await (await bot.accounts.sessionFor(actorB)).standing()).toBe("proven");
        expect(await bot.accounts.cachedListOf(actorB)).toBeDefined();
      }
    });

    it("after the change and A's re-link on replica 1, B's where on replica 2 sends nothing as X and is told, in Romanian, to link again", async () => {
      bed.sim.control.upsertUser({ username: X, password: P2, vehicleIds: fleet.map((v) => v.vehicleId) });
      await bed.link(R1, "A", X, P2);
      await bed.settle();
      changedAt = Date.now();

      const plate = fleet[1]!.plate;
      const answer = await where(R2, "B", plate);
      expect(answer).toMatch(PASSWORD_CHANGED_RO);
      expect(answer).not.toContain(fleet[1]!.name);
      // Commands alternate: replica 1 (where A re-linked) answers B the same.
      const again = await where(R1, "B", plate);
      expect(again).toMatch(PASSWORD_CHANGED_RO);
      expect(again).not.toContain(fleet[1]!.name);
      // Neither replica serves B from what it holds in memory (P1's token, the list P1 fetched): the
      // picker's cached list, a list read and the history check all refuse, without a call.
      for (const bot of bed.bots) {
        expect(await bot.accounts.cachedListOf(actorB)).toBeUndefined();
        expect(await bot.accounts.accessOf(actorB)).toBe("outdated");
        const refused = await bot.accounts.vehiclesOf(actorB, { priority: "interactive" }).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(refused).toBeInstanceOf(UnauthorizedError);
        expect((refused as UnauthorizedError).reason).toBe("password-changed");
      }
      // B's old password and old token were not tried against the account: no login, no call at all.
      expect(bed.callsAs(X, changedAt).map((r) => `${r.at} ${r.endpoint} ${r.status}`)).toEqual([]);

      // A, with the new password, reads X on replica 2 as well (no refused call on the way).
      expect(await where(R2, "A", plate)).toContain(plate);
      expect(bed.callsAs(X, changedAt).filter((r) => r.status === 401)).toEqual([]);
    });

    it("an alert sweep on either replica posts to A's channel only; B's channel gets one 'alerts paused' notice", async () => {
      const transport = running();
      expect(transport).toBeDefined();
      const uit = transport!.codeUit;
      bed.sim.control.setTransport(uit, { transmissionStatusCode: "NoGPSCoordinates" });
      const sweepFrom = Date.now();

      // Replica 2 sweeps first: it holds B's P1 session (and token) in memory.
      await bed.bots[R2]!.alerts.runOnce();
      await bed.settle();
      expect(alertsFor("A", uit)).toHaveLength(1);
      expect(alertsFor("B", uit)).toHaveLength(0);
      const paused = () =>
        seenBy("B").filter((m) => /Alerts of \*shared-fleet\* are paused here/.test(textOf(m)));
      expect(paused()).toHaveLength(1);
      expect(textOf(paused()[0])).toContain(`<@${TEAMS.B.user}>`);
      const dms = () =>
        bed.drivers[R1]!.B.workspace.messages(dmIdFor(TEAMS.B.user)).filter((m) =>
          /fost schimbată/.test(textOf(m)),
        );
      expect(dms()).toHaveLength(1);

      // Then replica 1: the notice is remembered across replicas, and B still gets nothing of X.
      await bed.bots[R1]!.alerts.runOnce();
      await bed.settle();
      expect(paused()).toHaveLength(1);
      expect(dms()).toHaveLength(1);
      expect(alertsFor("A", uit)).toHaveLength(1);
      expect(alertsFor("B", uit)).toHaveLength(0);
      expect(
        seenBy("B")
          .map((m) => textOf(m))
          .join("\n"),
      ).not.toContain(uit.replace(/(.{4})(?=.)/g, "$1-"));

      // The sweeps ran as X with the new password only: calls were made, none refused.
      const sweepCalls = bed.callsAs(X, sweepFrom);
      expect(sweepCalls.length).toBeGreaterThan(0);
      expect(bed.callsAs(X, changedAt).filter((r) => r.status === 401)).toEqual([]);
    });
  },
);
