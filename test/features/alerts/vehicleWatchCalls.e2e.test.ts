/**
 * Vehicle watch costs one `company-vehicles` call (and one `temperatures` call) per fleet account
 * per sweep (issue 32), however many subscriptions, channels and workspaces share the account:
 * here every vehicle kind is subscribed in three channels of two workspaces that link one fleet
 * account, with different thresholds, in multi-workspace mode over real HTTP (signed requests, the
 * fake Slack, the simulator behind a pass-through proxy).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { textOf } from "../../helpers/botHarness.js";
import { startWorkspaceReplicas, TEAMS, type WorkspaceReplicas } from "../../helpers/workspaceReplicas.js";

const ACCOUNT = "carrier-shared";
let bed: WorkspaceReplicas;

beforeAll(async () => {
  bed = await startWorkspaceReplicas({
    replicas: 1,
    intervalMs: 120,
    dataDirPrefix: "fleetbot-vehicle-calls-",
  });
  bed.sim.control.upsertUser({
    username: ACCOUNT,
    password: "pass-shared",
    vehicleIds: bed.sim.vehicles.map((v) => v.vehicleId),
  });
  await bed.link(0, "A", ACCOUNT, "pass-shared");
  await bed.link(0, "B", ACCOUNT, "pass-shared");
});
afterAll(async () => {
  await bed.close();
});

/** Sends a team's `/fleet` command and waits for its user to see an answer matching `expected`. */
async function expectAnswer(team: "A" | "B", text: string, expected: RegExp): Promise<void> {
  const ws = bed.drivers[0]![team].workspace;
  const seen = () =>
    ws.messages(TEAMS[team].channel).filter((m) => !m.ephemeral || m.visibleTo === TEAMS[team].user);
  const before = seen().length;
  await bed.command(0, team, text);
  await bed.settle();
  await vi.waitFor(
    () =>
      expect(
        seen()
          .slice(before)
          .map((m) => textOf(m))
          .join("\n"),
      ).toMatch(expected),
    { timeout: 10_000 },
  );
}

describe("one company-vehicles and one temperatures call per account per sweep", () => {
  it("8 kinds in 3 channels of 2 workspaces sharing one fleet account", async () => {
    const all = "PowerCut Zone Idle Speeding Offline Towed AfterHours Temperature";
    const subscribed = /now gets alerts of \*carrier-shared\*/;
    await expectAnswer("A", "zones add Depou 44.4326,25.9723", /Zone \*Depou\* added/);
    await expectAnswer("B", "zones add Depozit 46.77,23.59 radius=800", /Zone \*Depozit\* added/);
    await expectAnswer("A", `alerts subscribe ${all} temp=2..8`, subscribed);
    await expectAnswer(
      "A",
      `alerts subscribe <#C0ALERTS|alerts> ${all} temp=-25..-15 speed=110 idle=30`,
      subscribed,
    );
    await expectAnswer("B", `alerts subscribe ${all} temp=0..10 tempfor=30 offline=120`, subscribed);
    // Linking warms each link's vehicle list in the background: those calls are over before counting.
    await bed.settle();
    await vi.waitFor(
      async () => {
        const before = bed.callsAs(ACCOUNT).length;
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(bed.callsAs(ACCOUNT).length).toBe(before);
      },
      { timeout: 10_000 },
    );
    for (let sweep = 0; sweep < 3; sweep++) {
      const since = bed.sim.control.now();
      const run = await bed.bots[0]!.alerts.runOnce();
      expect(run.accounts.map((a) => a.account)).toEqual([ACCOUNT]);
      // Calls the service answered: a request turned away with 429 (a loaded machine) or 401 (a
      // token that expired) is retried by the gate or the client as the same call, not another.
      const calls = bed.callsAs(ACCOUNT, since).filter((c) => c.status === 200);
      const count = (endpoint: string) => calls.filter((c) => c.endpoint === endpoint).length;
      const seen = JSON.stringify(bed.callsAs(ACCOUNT, since).map((c) => [c.endpoint, c.status]));
      expect(count("company-vehicles"), `sweep ${sweep}: ${seen}`).toBe(1);
      expect(count("temperatures"), `sweep ${sweep}: ${seen}`).toBe(1);
    }
  });
});

describe("a service that takes few vehicles per temperatures call", () => {
  it("is still one temperatures call per sweep, within its limit; reefers are found and then asked every sweep", async () => {
    bed.sim.control.setLimits({ temperaturesMaxVehicles: 10 });
    try {
      const reefers = bed.sim.vehicles.filter((v) => v.reefer !== undefined).map((v) => v.vehicleId);
      const asked: number[][] = [];
      for (let sweep = 0; sweep < 6; sweep++) {
        const since = bed.sim.control.now();
        await bed.bots[0]!.alerts.runOnce();
        const calls = bed
          .callsAs(ACCOUNT, since)
          .filter((c) => c.endpoint === "temperatures" && c.status !== 429 && c.status !== 401);
        expect(calls, `sweep ${sweep}`).toHaveLength(1);
        const body = calls[0]!.body as { vehiclesList?: number[] };
        asked.push(body.vehiclesList ?? []);
      }
      // The first refusal teaches the limit; from then on every call names at most 10 vehicles.
      for (const list of asked.slice(1)) expect(list.length).toBeLessThanOrEqual(10);
      // Once found, the reefers are named at every sweep.
      for (const list of asked.slice(-2)) for (const id of reefers) expect(list).toContain(id);
      const refused = bed.sim.control
        .requests(100_000)
        .filter((r) => r.username === ACCOUNT && r.endpoint === "temperatures" && r.status === 400);
      expect(refused.length).toBeLessThanOrEqual(1);
    } finally {
      bed.sim.control.setLimits({ temperaturesMaxVehicles: null });
    }
  });
});
