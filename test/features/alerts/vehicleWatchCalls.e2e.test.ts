/**
 * Vehicle watch costs one `company-vehicles` call (and one `temperatures` call) per fleet account
 * per sweep (issue 32), however many subscriptions, channels and workspaces share the account:
 * here every vehicle kind is subscribed in three channels of two workspaces that link one fleet
 * account, with different thresholds, in multi-workspace mode over real HTTP (signed requests, the
 * fake Slack, the simulator behind a pass-through proxy).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { textOf } from "../../helpers/botHarness.js";
import { startWorkspaceReplicas, TEAMS, type WorkspaceReplicas } from "../../helpers/workspaceReplicas.js";

const ACCOUNT = "carrier-shared";
let bed: WorkspaceReplicas;

beforeAll(async () => {
  bed = await startWorkspaceReplicas({ replicas: 1, dataDirPrefix: "fleetbot-vehicle-calls-" });
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

/** The team's answer to a `/fleet` command, as its user sees it. */
async function answer(team: "A" | "B", text: string): Promise<string> {
  await bed.command(0, team, text);
  await bed.settle();
  const ws = bed.drivers[0]![team].workspace;
  const seen = ws
    .messages(TEAMS[team].channel)
    .filter((m) => !m.ephemeral || m.visibleTo === TEAMS[team].user);
  return textOf(seen.at(-1));
}

describe("one company-vehicles and one temperatures call per account per sweep", () => {
  it("8 kinds in 3 channels of 2 workspaces sharing one fleet account", async () => {
    const all = "PowerCut Zone Idle Speeding Offline Towed AfterHours Temperature";
    expect(await answer("A", "zones add Depou 44.4326,25.9723")).toMatch(/Zone \*Depou\* added/);
    expect(await answer("B", "zones add Depozit 46.77,23.59 radius=800")).toMatch(/Zone \*Depozit\* added/);
    expect(await answer("A", `alerts subscribe ${all} temp=2..8`)).toMatch(
      /now gets alerts of \*carrier-shared\*/,
    );
    expect(
      await answer("A", `alerts subscribe <#C0ALERTS|alerts> ${all} temp=-25..-15 speed=110 idle=30`),
    ).toMatch(/now gets alerts of \*carrier-shared\*/);
    expect(await answer("B", `alerts subscribe ${all} temp=0..10 tempfor=30 offline=120`)).toMatch(
      /now gets alerts of \*carrier-shared\*/,
    );
    for (let sweep = 0; sweep < 3; sweep++) {
      const since = bed.sim.control.now();
      const run = await bed.bots[0]!.alerts.runOnce();
      expect(run.accounts.map((a) => a.account)).toEqual([ACCOUNT]);
      const calls = bed.callsAs(ACCOUNT, since);
      const count = (endpoint: string) => calls.filter((c) => c.endpoint === endpoint).length;
      expect(count("company-vehicles"), `sweep ${sweep}`).toBe(1);
      expect(count("temperatures"), `sweep ${sweep}`).toBe(1);
    }
  });
});
