/**
 * Multi-workspace mode with REDIS_URL: uninstalling one workspace deletes every Redis key of it
 * and keeps the other's. Two teams install through "Add to Slack", each links its own fleet
 * account, runs commands, subscribes a channel to alerts and mutes one; then team A uninstalls
 * (Slack revokes its tokens, then sends app_uninstalled) and the whole keyspace is scanned.
 */
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ACTIONS } from "../../../src/platform/slack/actionIds.js";
import { buttonsOf, textOf } from "../../helpers/botHarness.js";
import {
  type MultiWorkspaceHarness,
  startMultiWorkspaceHarness,
  TEAM_A,
  TEAM_B,
} from "../../helpers/multiWorkspaceHarness.js";
import { redisForTests, redisSkipReason } from "../../helpers/redisServer.js";
import {
  alertsFor,
  command,
  KEY_A,
  KEY_B,
  lastEphemeral,
  lastSeen,
  link,
  mentions,
  runningOn,
  type Side,
  sidesOf,
  splitFleet,
} from "./sides.js";

/** Every key of the keyspace (SCAN, not KEYS). */
async function allKeys(redis: Redis): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await redis.scan(cursor, "COUNT", 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== "0");
  return keys.sort();
}

/** A key's contents as text (whatever its type), to look for a workspace's id in it. */
async function contentsOf(redis: Redis, key: string): Promise<string> {
  const type = await redis.type(key);
  switch (type) {
    case "string":
      return (await redis.get(key)) ?? "";
    case "hash":
      return JSON.stringify(await redis.hgetall(key));
    case "set":
      return JSON.stringify(await redis.smembers(key));
    case "zset":
      return JSON.stringify(await redis.zrange(key, 0, -1));
    case "list":
      return JSON.stringify(await redis.lrange(key, 0, -1));
    case "stream":
      return JSON.stringify(await redis.xrange(key, "-", "+"));
    default:
      return "";
  }
}

describe.skipIf(redisSkipReason)("multi-workspace uninstall with REDIS_URL", () => {
  const redis = redisForTests();
  let h: MultiWorkspaceHarness;
  let A: Side;
  let B: Side;
  let keysBBefore: string[] = [];

  beforeAll(async () => {
    const server = redis.server();
    if (!server) throw new Error("redis-server not started");
    h = await startMultiWorkspaceHarness({ env: { REDIS_URL: server.url } });
    ({ A, B } = sidesOf(h));
    const split = splitFleet(h.bot.simulator!.vehicles);
    const sim = h.bot.simulator!.control;
    sim.upsertUser({
      username: "carrier-a",
      password: "pass-a",
      vehicleIds: split.a.map((v) => v.vehicleId),
    });
    sim.upsertUser({
      username: "carrier-b",
      password: "pass-b",
      vehicleIds: split.b.map((v) => v.vehicleId),
    });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });
  afterEach(() => {
    expect(h.driverA.workspace.violations).toEqual([]);
    expect(h.driverB.workspace.violations).toEqual([]);
  });

  it("both teams install, link, ask, subscribe and mute: each has keys of its own", async () => {
    expect((await h.install({ teamId: TEAM_A })).status).toBe(200);
    expect((await h.install({ teamId: TEAM_B })).status).toBe(200);
    const split = splitFleet(h.bot.simulator!.vehicles);
    await link(h, A, "carrier-a", "pass-a");
    await link(h, B, "carrier-b", "pass-b");
    for (const [side, fleet] of [
      [A, split.a],
      [B, split.b],
    ] as const) {
      await command(h, side, "vehicles");
      await h.settle();
      // With Redis the task is a queue job: settle() cannot see one no worker has taken yet (a
      // loaded machine), so the answer is waited for.
      await vi.waitFor(
        () => expect(fleet.some((v) => mentions(textOf(lastSeen(side)), v.plate))).toBe(true),
        { timeout: 10_000 },
      );
      await command(h, side, "alerts subscribe");
      await vi.waitFor(() => expect(textOf(lastEphemeral(side))).toMatch(/now gets alerts/i));
    }

    await h.bot.alerts.runOnce();
    const sim = h.bot.simulator!.control;
    for (const [side, fleet] of [
      [A, split.a],
      [B, split.b],
    ] as const) {
      const running = runningOn(h, fleet)!;
      expect(running).toBeDefined();
      sim.setTransport(running.codeUit, { transmissionStatusCode: "NoGPSCoordinates" });
      await h.bot.alerts.runOnce();
      const alert = alertsFor(side, running.codeUit)[0]!;
      expect(alert).toBeDefined();
      await side.driver.blockAction({
        userId: side.user,
        channelId: side.channel,
        messageTs: alert.ts,
        actionId: ACTIONS.alertMute,
        value: buttonsOf(alert, ACTIONS.alertMute)[0]!.value,
      });
      await vi.waitFor(() => expect(textOf(lastEphemeral(side))).toMatch(/mute/i));
    }
    await h.settle();

    const keys = await allKeys(redis.connect());
    expect(keys.filter((k) => k.includes(KEY_A)).length).toBeGreaterThan(0);
    keysBBefore = keys.filter((k) => k.includes(KEY_B));
    expect(keysBBefore.length).toBeGreaterThan(0);
  });

  /** Short-lived request memory (link-attempt windows, seen requests): it expires by itself. */
  const shortLived = (key: string) => key.startsWith("fleetbot:shared:");

  it("5. after A's uninstall no stored key of A is left (installation, tasks, links, alerts), and B's keys remain; B still works", async () => {
    const client = redis.connect();
    expect(h.fake.oauth.uninstall(TEAM_A)).toBeGreaterThan(0);
    expect((await h.driverA.appUninstalled()).status).toBe(200);
    await h.settle();
    await vi.waitFor(
      async () =>
        expect((await allKeys(client)).filter((k) => k.includes(KEY_A) && !shortLived(k))).toEqual([]),
      { timeout: 10_000 },
    );
    const keys = await allKeys(client);
    for (const key of keysBBefore) expect(keys, key).toContain(key);

    // A duplicate uninstall and a tokens_revoked after it: 200, nothing more goes.
    expect((await h.driverA.appUninstalled()).status).toBe(200);
    expect((await h.driverA.tokensRevoked({ bot: [A.botUser] })).status).toBe(200);
    await h.settle();
    const after = await allKeys(client);
    expect(after.filter((k) => k.includes(KEY_A) && !shortLived(k))).toEqual([]);
    for (const key of keysBBefore) expect(after, key).toContain(key);

    await command(h, B, "whoami");
    expect(textOf(lastEphemeral(B))).toContain("carrier-b");
    await command(h, B, "vehicles");
    await h.settle();
    await vi.waitFor(
      () =>
        expect(
          splitFleet(h.bot.simulator!.vehicles).b.some((v) => mentions(textOf(lastSeen(B)), v.plate)),
        ).toBe(true),
      { timeout: 10_000 },
    );
  });

  it("5. after A's uninstall no key of the whole keyspace names T:T0FLEET, short-lived ones included", async () => {
    // Short-lived ones too: the link-attempt window of A's users (`/fleet login`) names A and its
    // user, and "uninstalling deletes everything it stored for the workspace within a minute".
    const client = redis.connect();
    expect((await allKeys(client)).filter((k) => k.includes(KEY_A))).toEqual([]);
  });

  it("5. after A's uninstall no key's contents name T:T0FLEET either", async () => {
    const client = redis.connect();
    const holding: string[] = [];
    for (const key of await allKeys(client)) {
      if ((await contentsOf(client, key)).includes(KEY_A)) holding.push(key);
    }
    expect(holding).toEqual([]);
  });
});
