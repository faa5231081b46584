import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastSeenBy, textOf } from "../helpers/botHarness.js";
import { redisSkipReason } from "../helpers/redisServer.js";
import { startReplicaHarness } from "../helpers/replicaHarness.js";

const CHANNEL = "C0GENERAL";

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(redisSkipReason)("two replicas on Redis", () => {
  let h: Awaited<ReturnType<typeof startReplicaHarness>>;
  beforeAll(async () => {
    h = await startReplicaHarness();
  }, 30_000);
  afterAll(async () => {
    await h?.close();
  });

  it("answers commands sent alternately to each replica", async () => {
    const plate = h.sim.vehicles[0]!.plate;
    const users = ["U0DISPATCH", "U0NEWYORK", "U0VIEWER"];
    for (const [i, userId] of users.entries()) {
      const ack = await h.drivers[i % 2]!.slashCommand({
        command: "/fleet",
        text: `where ${plate}`,
        userId,
        channelId: CHANNEL,
      });
      expect(ack.status).toBe(200);
    }
    await until(() =>
      users.every((u) => textOf(lastSeenBy(h.fake, CHANNEL, u)).includes("openstreetmap.org")),
    );
    expect(h.fake.violations).toEqual([]);
  }, 30_000);

  it("the replicas share the account's token: the one that has not logged in takes the other's", async () => {
    // Each replica's own fleet client, as main.ts wires it, for an account neither has used yet.
    const account = { username: "viewer", password: "viewer" };
    const logins = () => h.requests().filter((r) => r.endpoint === "login" && r.username === "viewer").length;
    expect(h.bots.map((b) => b.client.loginCalls("viewer"))).toEqual([1, 1]);
    await h.bots[0]!.client.session(account).vehicles();
    expect(logins()).toBe(1);
    await h.bots[1]!.client.session(account).vehicles();
    expect(logins()).toBe(1);
    expect(h.bots.map((b) => b.client.loginCalls("viewer"))).toEqual([0, 0]);
  }, 30_000);
});
