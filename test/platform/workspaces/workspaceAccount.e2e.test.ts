/**
 * `/fleet login workspace`: in multi-workspace mode the installer or a workspace admin sets the
 * fleet account everyone else in that workspace acts as; nobody else may, and another workspace
 * never sees it. In single-workspace mode the operator sets it (FLEET_USERNAME), and says so.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { INPUTS } from "../../../src/platform/slack/actionIds.js";
import { type BotHarness, startBotHarness, textOf } from "../../helpers/botHarness.js";
import {
  type MultiWorkspaceHarness,
  startMultiWorkspaceHarness,
  TEAM_A,
  TEAM_B,
} from "../../helpers/multiWorkspaceHarness.js";
import { callsOf, command, lastEphemeral, type Side, sidesOf } from "./sides.js";

let h: MultiWorkspaceHarness;
let A: Side;
let B: Side;

beforeAll(async () => {
  h = await startMultiWorkspaceHarness();
  ({ A, B } = sidesOf(h));
  expect((await h.install({ teamId: TEAM_A, userId: "U0DISPATCH" })).status).toBe(200);
  expect((await h.install({ teamId: TEAM_B, userId: "U0SECDISP" })).status).toBe(200);
});
afterAll(async () => {
  await h.close();
});

/** `/fleet login workspace` by `userId`, then the form (if one opened) submitted with these credentials. */
async function setWorkspaceAccount(side: Side, userId: string, username: string, password: string) {
  const opens = callsOf(side, "views.open").filter((c) => c.ok).length;
  await command(h, side, "login workspace", userId);
  const opened = callsOf(side, "views.open").filter((c) => c.ok).length > opens;
  if (!opened) return { opened };
  const view = [...side.driver.workspace.viewsSnapshot().values()].filter((v) => v.user === userId).at(-1)!;
  expect(JSON.stringify(view.view)).toContain("Workspace account");
  const dmBefore = side.driver.workspace.messages(userId).length;
  await side.driver.viewSubmission({
    userId,
    viewId: view.id,
    values: {
      [INPUTS.loginUsername.block]: { [INPUTS.loginUsername.action]: username },
      [INPUTS.loginPassword.block]: { [INPUTS.loginPassword.action]: password },
    },
  });
  await h.settle();
  return { opened, viewId: view.id, dm: side.driver.workspace.messages(userId).slice(dmBefore) };
}

describe("/fleet login workspace (multi-workspace mode)", () => {
  it("is refused to a user who neither installed fleetbot nor administers the workspace, with what to do instead", async () => {
    const result = await setWorkspaceAccount(A, "U0NEWYORK", "demo", "demo");
    expect(result.opened).toBe(false);
    const said = textOf(lastEphemeral(A, "U0NEWYORK"));
    expect(said).toMatch(/Only whoever installed fleetbot here, or a workspace admin or owner/);
    expect(said).toContain("/fleet login");
  });

  it("the installer sets it; then a user who linked nothing acts as it, and is told so", async () => {
    const result = await setWorkspaceAccount(A, "U0DISPATCH", "demo", "demo");
    expect(result.opened).toBe(true);
    await vi.waitFor(() =>
      expect((result.dm ?? []).map((m) => textOf(m)).join("\n")).toMatch(
        /everyone in this workspace who has not linked their own account now acts as the fleet account \*demo\*/,
      ),
    );
    await command(h, A, "whoami", "U0VIEWER");
    expect(textOf(lastEphemeral(A, "U0VIEWER"))).toMatch(/\*demo\* \(the workspace account\)/);
    // The workspace account answers that user's commands.
    await command(h, A, "vehicles", "U0VIEWER");
    await h.settle();
    expect(
      (h.bot.simulator?.control.requests(5000) ?? []).some(
        (r) => r.endpoint === "company-vehicles" && r.username === "demo",
      ),
    ).toBe(true);
  });

  it("a workspace admin who did not install fleetbot may set it too (users.info is_admin)", async () => {
    const result = await setWorkspaceAccount(B, "U0SECADMIN", "viewer", "viewer");
    expect(result.opened).toBe(true);
    await command(h, B, "whoami", "U0SECDISP");
    expect(textOf(lastEphemeral(B, "U0SECDISP"))).toMatch(/\*viewer\* \(the workspace account\)/);
  });

  it("one workspace's account is never another's", async () => {
    // Team A's account is demo, team B's viewer: each team's users see their own workspace's.
    await command(h, A, "whoami", "U0NEWYORK");
    expect(textOf(lastEphemeral(A, "U0NEWYORK"))).toContain("*demo*");
    await command(h, B, "whoami", "U0SECADMIN");
    expect(textOf(lastEphemeral(B, "U0SECADMIN"))).toContain("*viewer*");
  });

  it("a wrong password gives the form back with the refusal, and the workspace account stays as it was", async () => {
    const result = await setWorkspaceAccount(A, "U0DISPATCH", "viewer", "not-the-password");
    expect(result.opened).toBe(true);
    await vi.waitFor(() =>
      expect(JSON.stringify(A.driver.workspace.viewsSnapshot().get(result.viewId ?? "")?.view)).toMatch(
        /did not accept/,
      ),
    );
    await command(h, A, "whoami", "U0VIEWER");
    expect(textOf(lastEphemeral(A, "U0VIEWER"))).toContain("*demo*");
  });
});

describe("/fleet login workspace (single-workspace mode)", () => {
  let single: BotHarness;
  beforeAll(async () => {
    single = await startBotHarness();
  });
  afterAll(async () => {
    await single.close();
  });

  it("says the operator sets the workspace account, and how to link one's own", async () => {
    await single.driver.slashCommand({
      command: "/fleet",
      text: "login workspace",
      userId: "U0DISPATCH",
      channelId: "C0GENERAL",
    });
    await single.bot.slack.idle();
    const said = single.fake
      .messages("C0GENERAL")
      .filter((m) => m.visibleTo === "U0DISPATCH")
      .at(-1);
    expect(textOf(said)).toMatch(/set by whoever runs it \(FLEET_USERNAME and FLEET_PASSWORD\)/);
    expect(single.fake.calls.filter((c) => c.method === "views.open")).toEqual([]);
    expect(TEAM_B).toBe("T0SECOND");
  });
});
