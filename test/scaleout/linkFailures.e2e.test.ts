/**
 * Issue 30, point 4, with REDIS_URL: the cap on failed link attempts per fleet user name is one
 * count for every replica. Wrong passwords for the fleet account "demo" (the one the replicas act
 * as) are submitted alternately to two replicas; past LINK_FAILURE_LIMIT no replica sends a
 * login as demo, and whoever tried is told so. The simulator's arrival log is the judge.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INPUTS } from "../../src/platform/slack/actionIds.js";
import type { SlackDriver } from "../../src/sandbox/fakeSlack/index.js";
import { redisSkipReason } from "../helpers/redisServer.js";
import { CHANNEL, type ReplicaHarness, startReplicaHarness, until } from "../helpers/replicaHarness.js";

const LIMIT = 3;

describe.skipIf(redisSkipReason)("failed link attempts on two replicas sharing Redis", () => {
  let h: ReplicaHarness;
  beforeAll(async () => {
    h = await startReplicaHarness({
      env: { LINK_FAILURE_LIMIT: String(LIMIT), LINK_FAILURE_WINDOW_MS: String(10 * 60_000) },
    });
  }, 30_000);
  afterAll(async () => {
    await h?.close();
  });

  /** `/fleet login` on one replica, the form submitted to it; what the form then says. */
  async function attempt(driver: SlackDriver, userId: string, password: string): Promise<string> {
    const before = new Set(h.fake.views.keys());
    const ack = await driver.slashCommand({ command: "/fleet", text: "login", userId, channelId: CHANNEL });
    expect(ack.status).toBe(200);
    await until(() => [...h.fake.views.keys()].some((id) => !before.has(id)), 10_000, "login form");
    const viewId = [...h.fake.views.keys()].find((id) => !before.has(id))!;
    await driver.viewSubmission({
      userId,
      viewId,
      values: {
        [INPUTS.loginUsername.block]: { [INPUTS.loginUsername.action]: "demo" },
        [INPUTS.loginPassword.block]: { [INPUTS.loginPassword.action]: password },
      },
    });
    await h.settle();
    return JSON.stringify(h.fake.views.get(viewId)?.view ?? {});
  }

  it("wrong passwords sent to either replica share one cap: LIMIT logins in all, then none", async () => {
    const refusedLogins = () =>
      h.requests().filter((r) => r.endpoint === "login" && r.username === "demo" && r.status === 401).length;
    const users = ["U0DISPATCH", "U0NEWYORK", "U0VIEWER"];
    const told: string[] = [];
    for (let i = 0; i < 2 * LIMIT; i++) {
      told.push(await attempt(h.drivers[i % 2]!, users[i % users.length]!, `wrong-${i}`));
      expect(refusedLogins()).toBe(Math.min(i + 1, LIMIT));
    }
    for (const words of told.slice(0, LIMIT))
      expect(words).toMatch(/did not accept this user name and password/);
    for (const words of told.slice(LIMIT)) {
      expect(words).toMatch(/Too many wrong passwords were tried for this account recently/);
      expect(words).toMatch(/Try again in \d+ min\./);
    }
    // The replicas' own work as demo goes on: a lookup on each is answered.
    for (const replica of [0, 1]) {
      const { responseUrl } = await h.command(replica, "/fleet", "vehicles", "U0DISPATCH");
      await h.settle();
      expect(h.answersTo(responseUrl!).length).toBeGreaterThan(0);
    }
    expect(h.fake.violations).toEqual([]);
  }, 60_000);
});
