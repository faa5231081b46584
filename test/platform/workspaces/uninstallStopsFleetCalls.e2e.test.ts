/**
 * Issue 30, point 2: an uninstall stops every fleet call of the accounts only that workspace used.
 *
 * Multi-workspace mode over real HTTP: the fake Slack (two teams, OAuth, signed requests), the
 * simulator behind a pass-through proxy (FLEET_API_URL; the proxy holds one endpoint's answers
 * when the test asks), one process on SQLite or two replicas on one redis-server. Workspace B links
 * fleet user X, has X's vehicle list cached and in use on every replica, upkeep keeping X ready,
 * and a report waiting in X's gate; workspace A links another user. After B's `app_uninstalled`
 * (or `tokens_revoked`) the simulator's arrival log must hold no request as X, over rounds that
 * each span a vehicle-cache lifetime and an upkeep pass on every replica, while A keeps working.
 * When A links the same X, B's uninstall leaves X running for A.
 *
 * Upkeep runs by hand (`upkeep.tick()` on each replica, upkeepEveryMs 0): a tick returns what it
 * started and resolves once that work is done, so "upkeep did nothing for X" is read from the
 * tick, not inferred from a quiet pause. Tokens live 2 s (upkeep renews them at every tick: the
 * login path) or an hour (upkeep refreshes the list in use at every tick: the company-vehicles path).
 */
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import type { Fleetbot } from "../../../src/app/start.js";
import type { SimVehicle } from "../../../src/simulator/index.js";
import { textOf } from "../../helpers/botHarness.js";
import { TEAM_B } from "../../helpers/multiWorkspaceHarness.js";
import { redisSkipReason } from "../../helpers/redisServer.js";
import { until } from "../../helpers/replicaHarness.js";
import { startWorkspaceReplicas, TEAMS, type Team } from "../../helpers/workspaceReplicas.js";
import { mentions } from "./sides.js";

const INTERVAL_MS = 60;
const CACHE_TTL_MS = 300;
const X = "carrier-x";
const Y = "carrier-a";

async function startBed(replicas: number, tokenTtlSeconds: number) {
  const base = await startWorkspaceReplicas({
    replicas,
    tokenTtlSeconds,
    intervalMs: INTERVAL_MS,
    cacheTtlMs: CACHE_TTL_MS,
    dataDirPrefix: "fleetbot-uninstall-",
  });
  const { sim, bots, drivers } = base;
  const half = (from: number) => sim.vehicles.slice(from, from + 12);
  const fleets: Record<string, readonly SimVehicle[]> = { [Y]: half(0), [X]: half(12) };
  sim.control.upsertUser({ username: Y, password: "pass-a", vehicleIds: half(0).map((v) => v.vehicleId) });
  sim.control.upsertUser({ username: X, password: "pass-x", vehicleIds: half(12).map((v) => v.vehicleId) });

  const bed = {
    ...base,
    fleets,
    /** A team's `/fleet vehicles` on a replica, answered with that account's plates. */
    async vehicles(replica: number, team: Team, account: string) {
      const ws = drivers[replica]![team].workspace;
      const before = ws.messages(TEAMS[team].channel).length;
      await base.command(replica, team, "vehicles");
      await base.settle();
      const answers = ws
        .messages(TEAMS[team].channel)
        .slice(before)
        .map((m) => textOf(m))
        .join("\n");
      expect(fleets[account]!.some((v) => mentions(answers, v.plate))).toBe(true);
    },
    /** The account's list read on every replica as a person's picker reads it (cached, in use). */
    async warm(team: Team, account: string) {
      for (const bot of bots)
        await bot.accounts.vehiclesOf(
          { account, slackUser: TEAMS[team].user, workspace: TEAMS[team].key },
          { priority: "interactive" },
        );
    },
    /**
     * Upkeep passes on every replica until each has started `account` (at most 5 each): a replica
     * rightly skips an account whose shared gate is still busy with another replica's refresh.
     * What each replica started, over all its passes.
     */
    async tickUntil(account: string) {
      const started: string[][] = [];
      for (const bot of bots) {
        const mine: string[] = [];
        for (let pass = 0; pass < 5 && !mine.includes(account); pass++) {
          if (pass > 0) await new Promise((resolve) => setTimeout(resolve, 100));
          const { renewed, refreshed } = await bot.upkeep.tick();
          mine.push(...renewed, ...refreshed);
        }
        started.push(mine);
      }
      return started;
    },
    /** What a replica holds of an account: a session upkeep keeps, or anything in its vehicle cache. */
    holds(bot: Fleetbot, account: string) {
      return (
        [...bot.accounts.sessions()].some((s) => s.account === account) ||
        bot.vehicles.known().includes(account)
      );
    },
  };
  return bed;
}

type Bed = Awaited<ReturnType<typeof startBed>>;

const CASES = [
  { replicas: 1, tokenTtlSeconds: 2, event: "app_uninstalled" },
  { replicas: 1, tokenTtlSeconds: 3600, event: "tokens_revoked" },
  { replicas: 2, tokenTtlSeconds: 2, event: "app_uninstalled" },
  { replicas: 2, tokenTtlSeconds: 3600, event: "app_uninstalled" },
] as const;

/** B's uninstall as Slack sends it, to replica 0 (its tokens revoked at the fake first). */
async function uninstallB(bed: Bed, event: "app_uninstalled" | "tokens_revoked") {
  expect(bed.fake.oauth.uninstall(TEAM_B)).toBeGreaterThan(0);
  const driver = bed.drivers[0]!.B;
  const answer =
    event === "app_uninstalled"
      ? await driver.appUninstalled()
      : await driver.tokensRevoked({ bot: [driver.workspace.options.botUserId] });
  expect(answer.status).toBe(200);
}

/** Rounds after the uninstall: each waits out a cache lifetime, has A ask, and runs upkeep everywhere. */
async function rounds(bed: Bed, count: number, check: (started: string[][]) => void) {
  for (let round = 0; round < count; round++) {
    // A cache lifetime has passed on every replica: A's list is stale wherever it is kept.
    await until(() => bed.bots.every((bot) => bot.vehicles.isStale(Y)), 5_000, "a cache lifetime");
    await bed.vehicles(round % bed.bots.length, "A", Y);
    await bed.warm("A", Y);
    check(await bed.tickUntil(Y));
    await bed.settle();
  }
}

describe.each(CASES)(
  "uninstall stops the fleet calls: $replicas replica(s), $tokenTtlSeconds-s tokens, $event",
  ({ replicas, tokenTtlSeconds, event }) => {
    let bed: Bed | undefined;
    afterEach(async () => {
      if (bed) {
        expect(bed.drivers[0]!.A.workspace.violations).toEqual([]);
        expect(bed.drivers[0]!.B.workspace.violations).toEqual([]);
        await bed.close();
      }
      bed = undefined;
    });

    it.skipIf(replicas > 1 && redisSkipReason)(
      "after B's uninstall no request as B's fleet user reaches the service; A keeps working",
      async () => {
        bed = await startBed(replicas, tokenTtlSeconds);
        await bed.link(replicas - 1, "A", Y, "pass-a");
        await bed.link(0, "B", X, "pass-x");
        await bed.vehicles(0, "B", X);
        await bed.warm("B", X);
        await bed.warm("A", Y);

        // Upkeep keeps X ready on every replica: a tick renews X's token or refreshes its list, upstream.
        const before = bed.callsAs(X).length;
        for (const started of await bed.tickUntil(X)) expect(started).toContain(X);
        await bed.settle();
        expect(bed.callsAs(X).length).toBeGreaterThan(before);

        // A report of B waits in X's gate: its first call is out (its answer held), the others queue.
        bed.proxy.hold("way", "answer");
        const plate = bed.fleets[X]![0]!.plate;
        await bed.command(0, "B", `route ${plate} 2026-01-01..2026-03-31`);
        await until(() => bed!.proxy.held() === 1, 10_000, "B's report's first call out");

        const uninstalledAt = Date.now();
        await uninstallB(bed, event);
        // Every replica let go of X (the uninstalling one itself, the other told over Redis).
        await until(() => bed!.bots.every((bot) => !bed!.holds(bot, X)), 10_000, "X let go of everywhere");
        if (bed.redis) {
          const redis = new Redis(bed.redis.url);
          try {
            expect(await redis.exists(`fleetbot:fleet-token:${X}`)).toBe(0);
          } finally {
            redis.disconnect();
          }
        }
        bed.proxy.release();
        await bed.settle();

        // Several cache lifetimes and upkeep passes on every replica: A's work goes on, X's does not.
        await rounds(bed, 4, (started) => {
          for (const accounts of started) {
            expect(accounts).toContain(Y);
            expect(accounts).not.toContain(X);
          }
        });
        for (const bot of bed.bots) expect(bed.holds(bot, X)).toBe(false);

        const callsAsX = bed.callsAs(X, uninstalledAt);
        expect(callsAsX.map((r) => `${r.at} ${r.endpoint}`)).toEqual([]);
        expect(bed.callsAs(Y, uninstalledAt).length).toBeGreaterThan(4);
      },
      90_000,
    );

    it.skipIf(replicas > 1 && redisSkipReason)(
      "when A links the same fleet user, B's uninstall keeps it running for A",
      async () => {
        bed = await startBed(replicas, tokenTtlSeconds);
        await bed.link(replicas - 1, "A", X, "pass-x");
        await bed.link(0, "B", X, "pass-x");
        await bed.vehicles(0, "B", X);
        await bed.warm("B", X);
        await bed.warm("A", X);

        const uninstalledAt = Date.now();
        await uninstallB(bed, event);
        await bed.settle();
        for (let round = 0; round < 3; round++) {
          await until(() => bed!.bots.every((bot) => bot.vehicles.isStale(X)), 5_000, "a cache lifetime");
          await bed.vehicles(round % bed.bots.length, "A", X);
          await bed.warm("A", X);
          for (const started of await bed.tickUntil(X)) expect(started).toContain(X);
          await bed.settle();
        }
        for (const bot of bed.bots) expect(bed.holds(bot, X)).toBe(true);
        expect(bed.callsAs(X, uninstalledAt).length).toBeGreaterThan(3);
      },
      90_000,
    );
  },
);
