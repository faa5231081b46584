/**
 * The replicas' shared fleet token in a real redis-server: kept sealed with CREDENTIALS_KEY,
 * read back by another connection (another replica), expiring with the token, and dropped on a
 * refusal only while it is still the refused one.
 */
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FleetClient } from "../../../src/platform/fleet/client.js";
import { UnauthorizedError } from "../../../src/platform/fleet/errors.js";
import { RedisSharedTokens } from "../../../src/platform/store/redis/sharedTokens.js";
import { COMPANY_ZONE, type FleetHarness, startFleetHarness } from "../../helpers/fleetHarness.js";
import { redisForTests, redisSkipReason } from "../../helpers/redisServer.js";

const TOKEN = "eyJhbGciOi.the-token-text.sig";
const skip = redisSkipReason;

describe.skipIf(skip !== undefined)(skip ?? "RedisSharedTokens", () => {
  const redis = redisForTests();
  const key = randomBytes(32);

  function replica(prefix: string, withKey = key) {
    return new RedisSharedTokens(redis.connect(), withKey, { prefix });
  }

  it("another replica reads the token one saved; Redis holds it sealed, with the token's expiry", async () => {
    const prefix = `t${Date.now()}a:`;
    const now = Date.now();
    await replica(prefix).save("demo", "pw", {
      value: TOKEN,
      obtainedAtMs: now,
      expiresInSeconds: 3600,
      scope: "openid",
    });
    expect(await replica(prefix).load("demo", "pw")).toEqual({
      value: TOKEN,
      obtainedAtMs: now,
      expiresInSeconds: 3600,
      scope: "openid",
    });
    expect(await replica(prefix).load("other", "pw")).toBeUndefined();
    const raw = redis.connect();
    const stored = await raw.hgetall(`${prefix}fleet-token:demo`);
    expect(JSON.stringify(stored)).not.toContain("the-token-text");
    const ttl = await raw.pttl(`${prefix}fleet-token:demo`);
    expect(ttl).toBeGreaterThan(3590_000);
    expect(ttl).toBeLessThanOrEqual(3600_000);
  });

  it("a token sealed with another CREDENTIALS_KEY is not handed out; an expired one is not kept", async () => {
    const prefix = `t${Date.now()}b:`;
    await replica(prefix).save("demo", "pw", {
      value: TOKEN,
      obtainedAtMs: Date.now(),
      expiresInSeconds: 3600,
    });
    expect(await replica(prefix, randomBytes(32)).load("demo", "pw")).toBeUndefined();
    await replica(prefix).save("gone", "pw", {
      value: TOKEN,
      obtainedAtMs: Date.now() - 7200_000,
      expiresInSeconds: 3600,
    });
    expect(await redis.connect().exists(`${prefix}fleet-token:gone`)).toBe(0);
  });

  it("a token opens only for the password it was obtained with", async () => {
    const prefix = `t${Date.now()}d:`;
    await replica(prefix).save("demo", "current", {
      value: TOKEN,
      obtainedAtMs: Date.now(),
      expiresInSeconds: 3600,
    });
    expect(await replica(prefix).load("demo", "old")).toBeUndefined();
    expect((await replica(prefix).load("demo", "current"))?.value).toBe(TOKEN);
    // Redis holds no trace of the password, not even its digest.
    const stored = JSON.stringify(await redis.connect().hgetall(`${prefix}fleet-token:demo`));
    expect(stored).not.toContain("current");
  });

  it("drop forgets the token only while it is the refused one", async () => {
    const prefix = `t${Date.now()}c:`;
    const a = replica(prefix);
    await a.save("demo", "pw", { value: "new-token", obtainedAtMs: Date.now(), expiresInSeconds: 3600 });
    await a.drop("demo", "old-token");
    expect((await a.load("demo", "pw"))?.value).toBe("new-token");
    await replica(prefix).drop("demo", "new-token");
    expect(await a.load("demo", "pw")).toBeUndefined();
  });

  describe("replicas against the simulator, after the password was changed to revoke access", () => {
    let harness: FleetHarness | undefined;
    afterEach(async () => {
      await harness?.close();
      harness = undefined;
    });

    it("a session with the old password does not get the token: it logs in itself and is refused", async () => {
      harness = await startFleetHarness();
      const { clock, gate, run, sim } = harness;
      const prefix = `t${Date.now()}e:`;
      /** A replica: its own client, sharing tokens through the same Redis. */
      const replicaClient = () =>
        new FleetClient({
          baseUrl: sim.url,
          apiVersion: "2.0",
          timeZone: COMPANY_ZONE,
          gate,
          now: () => clock.now(),
          sharedTokens: new RedisSharedTokens(redis.connect(), key, { prefix, now: () => clock.now() }),
        });
      const logins = () => sim.control.stats().requests.demo?.login ?? 0;
      await fetch(`${sim.url}/__control/users`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "demo", password: "changed", vehicleIds: "all" }),
      });
      const current = replicaClient().session({ username: "demo", password: "changed" });
      await run(current.tokens.token());
      expect(logins()).toBe(1);
      await vi.waitFor(async () => expect(await redis.connect().exists(`${prefix}fleet-token:demo`)).toBe(1));

      // Another replica still holding the old password (its user's link not yet updated).
      const outdated = replicaClient().session({ username: "demo", password: "demo" });
      await expect(run(outdated.tokens.token())).rejects.toBeInstanceOf(UnauthorizedError);
      expect(logins()).toBe(3); // its own login, refused, and the one retry of a passing 401

      // A replica with the current password still takes the shared token without a login.
      const again = replicaClient().session({ username: "demo", password: "changed" });
      expect((await run(again.tokens.token())).authorization()).toBe(
        (await run(current.tokens.token())).authorization(),
      );
      expect(logins()).toBe(3);
    });

    it("a link's proving login (a detached session) shares its token: another replica needs no login", async () => {
      harness = await startFleetHarness();
      const { clock, gate, run, sim } = harness;
      const prefix = `t${Date.now()}d:`;
      const replicaClient = () =>
        new FleetClient({
          baseUrl: sim.url,
          apiVersion: "2.0",
          timeZone: COMPANY_ZONE,
          gate,
          now: () => clock.now(),
          sharedTokens: new RedisSharedTokens(redis.connect(), key, { prefix, now: () => clock.now() }),
        });
      const logins = () => sim.control.stats().requests.demo?.login ?? 0;
      const linking = replicaClient();
      const probe = linking.detachedSession({ username: "demo", password: "demo" });
      await run(probe.login());
      linking.adopt(probe);
      expect(logins()).toBe(1);
      await vi.waitFor(async () => expect(await redis.connect().exists(`${prefix}fleet-token:demo`)).toBe(1));
      // The replica that sweeps the account's alerts takes that token instead of logging in.
      const other = replicaClient().session({ username: "demo", password: "demo" });
      expect((await run(other.tokens.token())).authorization()).toBe(
        (await run(probe.tokens.token())).authorization(),
      );
      expect(logins()).toBe(1);
      // A refused probe (someone else's user name, a wrong password) shares nothing.
      const refused = replicaClient().detachedSession({ username: "viewer", password: "wrong" });
      await expect(run(refused.login())).rejects.toBeInstanceOf(UnauthorizedError);
      expect(await redis.connect().exists(`${prefix}fleet-token:viewer`)).toBe(0);
    });
  });
});
