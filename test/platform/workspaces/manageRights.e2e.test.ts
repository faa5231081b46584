/**
 * Who manages a workspace, and who acts in it (issue 30, points 3, 5 and 7), end to end: fleetbot
 * in multi-workspace mode over real HTTP, signed requests from the fake Slack, OAuth through
 * /slack/install.
 *
 * 3. Running "Add to Slack" again grants nothing: the first installer keeps the right to set the
 *    workspace's fleet account and language, a workspace admin or owner has it (users.info, asked
 *    again when the form is submitted), a plain member who re-authorized does not; the store keeps
 *    the first install's time and installer and records the last re-authorization apart.
 * 5. An org-wide install (`E:`) is managed by an org admin or owner only (users.info
 *    `enterprise_user`); a workspace admin of one of the org's workspaces is refused.
 * 7. Slack Connect: a user of another organisation in a channel shared with the host never acts
 *    under the host's installation (its workspace account, links or tasks); their own commands
 *    reach their own workspace's installation and act as its account, in their language there.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ACTIONS, INPUTS } from "../../../src/platform/slack/actionIds.js";
import { DEFAULT_USERS, SECOND_TEAM } from "../../../src/sandbox/fakeSlack/index.js";
import { textOf } from "../../helpers/botHarness.js";
import {
  type MultiWorkspaceHarness,
  startMultiWorkspaceHarness,
  TEAM_A,
  TEAM_B,
} from "../../helpers/multiWorkspaceHarness.js";
import {
  alertsFor,
  buttonsIn,
  callsOf,
  command,
  lastEphemeral,
  rowsOf,
  type Side,
  sidesOf,
} from "./sides.js";

interface InstallationRow {
  key: string;
  installed_at: number;
  installed_by: string | null;
  authorized_at: number | null;
  authorized_by: string | null;
}

function installationRow(h: MultiWorkspaceHarness, key: string): InstallationRow | undefined {
  const db = new Database(join(h.dataDir, "fleetbot.sqlite"), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(
        "SELECT key, installed_at, installed_by, authorized_at, authorized_by FROM slack_installations WHERE key = ?",
      )
      .get(key) as InstallationRow | undefined;
  } finally {
    db.close();
  }
}

/** `/fleet login workspace` by `userId`: whether the form opened, and its view id. */
async function openWorkspaceForm(h: MultiWorkspaceHarness, side: Side, userId: string) {
  const opens = callsOf(side, "views.open").filter((c) => c.ok).length;
  await command(h, side, "login workspace", userId);
  const opened = callsOf(side, "views.open").filter((c) => c.ok).length > opens;
  const viewId = opened
    ? [...side.driver.workspace.viewsSnapshot().values()].filter((v) => v.user === userId).at(-1)?.id
    : undefined;
  return { opened, viewId };
}

/** The workspace form submitted with these credentials; waits for fleetbot's work to settle. */
async function submitWorkspaceForm(
  h: MultiWorkspaceHarness,
  side: Side,
  userId: string,
  viewId: string,
  username: string,
  password: string,
) {
  await side.driver.viewSubmission({
    userId,
    viewId,
    values: {
      [INPUTS.loginUsername.block]: { [INPUTS.loginUsername.action]: username },
      [INPUTS.loginPassword.block]: { [INPUTS.loginPassword.action]: password },
    },
  });
  await h.settle();
  return JSON.stringify(side.driver.workspace.viewsSnapshot().get(viewId)?.view ?? {});
}

async function whoami(h: MultiWorkspaceHarness, side: Side, userId: string): Promise<string> {
  await command(h, side, "whoami", userId);
  return textOf(lastEphemeral(side, userId));
}

describe("3. re-running Add to Slack grants no rights", () => {
  let h: MultiWorkspaceHarness;
  let A: Side;
  const INSTALLER = "U0DISPATCH";
  const MEMBER = "U0NEWYORK";
  const ADMIN = "U0AADMIN";
  const OWNER = "U0AOWNER";
  let first: InstallationRow;

  beforeAll(async () => {
    h = await startMultiWorkspaceHarness({
      fakeSlack: {
        users: [
          ...DEFAULT_USERS,
          { id: ADMIN, name: "admin-a", realName: "Ada Admin", tz: "Europe/Bucharest", isAdmin: true },
          {
            id: OWNER,
            name: "owner-a",
            realName: "Otto Owner",
            tz: "Europe/Bucharest",
            isPrimaryOwner: true,
          },
        ],
      },
    });
    ({ A } = sidesOf(h));
    expect((await h.install({ teamId: TEAM_A, userId: INSTALLER })).status).toBe(200);
    first = installationRow(h, `T:${TEAM_A}`)!;
    expect(first).toMatchObject({ installed_by: INSTALLER, authorized_by: INSTALLER });
    expect(first.authorized_at).toBe(first.installed_at);
  });
  afterAll(async () => {
    await h?.close();
  });

  it("a plain member is refused, re-runs OAuth, and is still refused, in their language, with what to do", async () => {
    expect((await openWorkspaceForm(h, A, MEMBER)).opened).toBe(false);
    expect(textOf(lastEphemeral(A, MEMBER))).toMatch(/Only whoever installed fleetbot here/);

    await new Promise((resolve) => setTimeout(resolve, 5));
    const again = await h.install({ teamId: TEAM_A, userId: MEMBER });
    expect(again.status, again.body).toBe(200);

    // The first install is kept; the re-authorization is recorded apart.
    const row = installationRow(h, `T:${TEAM_A}`)!;
    expect(row.installed_at).toBe(first.installed_at);
    expect(row.installed_by).toBe(INSTALLER);
    expect(row.authorized_by).toBe(MEMBER);
    expect(row.authorized_at).toBeGreaterThan(first.installed_at);

    expect((await openWorkspaceForm(h, A, MEMBER)).opened).toBe(false);
    const refused = textOf(lastEphemeral(A, MEMBER));
    expect(refused).toMatch(/Only whoever installed fleetbot here, or a workspace admin or owner/);
    expect(refused).toMatch(/running Add to Slack again gives no rights/);
    expect(refused).toContain("/fleet login");
    await command(h, A, "language workspace ro", MEMBER);
    expect(textOf(lastEphemeral(A, MEMBER))).toMatch(
      /Only whoever installed fleetbot here.*default language[\s\S]*Ask a workspace admin or owner/,
    );

    // In Romanian once the member reads Romanian.
    await command(h, A, "limba ro", MEMBER);
    await command(h, A, "login workspace", MEMBER);
    const ro = textOf(lastEphemeral(A, MEMBER));
    expect(ro).toContain("Doar cine a instalat fleetbot aici");
    expect(ro).toContain("reinstalarea cu Add to Slack nu dă drepturi");
  });

  it("the first installer keeps the right and sets the workspace account; the member acts as it", async () => {
    const form = await openWorkspaceForm(h, A, INSTALLER);
    expect(form.opened).toBe(true);
    await submitWorkspaceForm(h, A, INSTALLER, form.viewId!, "demo", "demo");
    await vi.waitFor(async () =>
      expect(await whoami(h, A, "U0VIEWER")).toMatch(/\*demo\* \(the workspace account\)/),
    );
  });

  it("a workspace admin may, but only while Slack says so when the form is submitted", async () => {
    const form = await openWorkspaceForm(h, A, ADMIN);
    expect(form.opened).toBe(true);
    // The admin role is taken away while the form is open.
    const admin = A.driver.workspace.users.get(ADMIN)!;
    admin.isAdmin = false;
    const view = await submitWorkspaceForm(h, A, ADMIN, form.viewId!, "viewer", "viewer");
    expect(view).toMatch(/Only whoever installed fleetbot here, or a workspace admin or owner/);
    expect(await whoami(h, A, "U0VIEWER")).toMatch(/\*demo\*/);

    admin.isAdmin = true;
    const again = await openWorkspaceForm(h, A, ADMIN);
    expect(again.opened).toBe(true);
    await submitWorkspaceForm(h, A, ADMIN, again.viewId!, "viewer", "viewer");
    await vi.waitFor(async () => expect(await whoami(h, A, "U0VIEWER")).toMatch(/\*viewer\*/));
  });

  it("the primary owner may set the workspace language; the re-authorizing member still may not", async () => {
    await command(h, A, "language workspace ro", OWNER);
    expect(textOf(lastEphemeral(A, OWNER))).toContain("Limba implicită a acestui workspace este acum româna");
    await command(h, A, "language workspace en", MEMBER);
    expect(textOf(lastEphemeral(A, MEMBER))).toContain("Doar cine a instalat fleetbot aici");
    // Nothing the member did changed who installed first.
    expect(installationRow(h, `T:${TEAM_A}`)).toMatchObject({
      installed_by: INSTALLER,
      authorized_by: MEMBER,
    });
  });
});

describe("5. an org-wide install is managed by an org admin or owner only", () => {
  const ENTERPRISE = "E0RIGHTS";
  const ORG_ONE = "T0RIGHTSONE";
  const ORG_TWO = "T0RIGHTSTWO";
  let h: MultiWorkspaceHarness;
  let one: Side;
  let two: Side;

  beforeAll(async () => {
    h = await startMultiWorkspaceHarness({
      fakeSlack: {
        teams: [
          SECOND_TEAM,
          {
            teamId: ORG_ONE,
            teamName: "Rights North",
            enterpriseId: ENTERPRISE,
            enterpriseName: "Rights Group",
            botUserId: "U0RONEBOT",
            botId: "B0RONEBOT",
            users: [
              {
                id: "U0RORGOWNER",
                name: "org-owner",
                tz: "Europe/Bucharest",
                isOrgOwner: true,
                isAdmin: true,
              },
              { id: "U0RWSADMIN", name: "ws-admin", tz: "Europe/Bucharest", isAdmin: true, isOwner: true },
              { id: "U0RPLAIN", name: "plain", tz: "Europe/Bucharest" },
            ],
            channels: [{ id: "C0RONEGEN", name: "general", isPrivate: false, botIsMember: true }],
          },
          {
            teamId: ORG_TWO,
            teamName: "Rights South",
            enterpriseId: ENTERPRISE,
            enterpriseName: "Rights Group",
            botUserId: "U0RTWOBOT",
            botId: "B0RTWOBOT",
            users: [
              { id: "U0RSOUTHADM", name: "south-admin", tz: "Europe/Bucharest", isAdmin: true },
              { id: "U0RORGADMIN", name: "org-admin", tz: "Europe/Bucharest", isOrgAdmin: true },
            ],
            channels: [{ id: "C0RTWOGEN", name: "general", isPrivate: false, botIsMember: true }],
          },
        ],
      },
    });
    const base = { key: `E:${ENTERPRISE}`, botUser: "U0RONEBOT" };
    one = {
      ...base,
      name: "A",
      driver: h.driverA.asTeam(ORG_ONE, { enterpriseInstall: true }),
      user: "U0RWSADMIN",
      other: "U0RPLAIN",
      channel: "C0RONEGEN",
    };
    two = {
      ...base,
      name: "B",
      driver: h.driverA.asTeam(ORG_TWO, { enterpriseInstall: true }),
      user: "U0RSOUTHADM",
      other: "U0RORGADMIN",
      channel: "C0RTWOGEN",
    };
    const installed = await h.install({ teamId: ORG_ONE, orgWide: true, userId: "U0RORGOWNER" });
    expect(installed.status, installed.body).toBe(200);
  });
  afterAll(async () => {
    await h?.close();
  });

  it("a workspace admin or owner of one of the org's workspaces is refused the org's account and language, with what to do", async () => {
    for (const [side, userId] of [
      [one, "U0RWSADMIN"],
      [two, "U0RSOUTHADM"],
    ] as const) {
      expect((await openWorkspaceForm(h, side, userId)).opened, userId).toBe(false);
      const said = textOf(lastEphemeral(side, userId));
      expect(said).toMatch(/only an org admin or owner can set the org's fleet account/);
      expect(said).toMatch(/Ask an org admin or owner/);
      await command(h, side, "language workspace ro", userId);
      expect(textOf(lastEphemeral(side, userId))).toMatch(
        /only an org admin or owner can set the org's default language/,
      );
    }
    // In Romanian for one who reads it.
    await command(h, two, "limba ro", "U0RSOUTHADM");
    await command(h, two, "limba workspace ro", "U0RSOUTHADM");
    expect(textOf(lastEphemeral(two, "U0RSOUTHADM"))).toContain(
      "doar un administrator sau proprietar al organizației poate stabili limba implicită a organizației",
    );
    // Nothing changed: a plain user still reads fleetbot's default and has no workspace account.
    await command(h, one, "language", "U0RPLAIN");
    expect(textOf(lastEphemeral(one, "U0RPLAIN"))).toContain("fleetbot's default");
    expect(await whoami(h, one, "U0RPLAIN")).toMatch(/You have not linked a fleet account/);
  });

  it("an org admin (of another workspace of the org) sets the org's account; the org owner its language", async () => {
    const form = await openWorkspaceForm(h, two, "U0RORGADMIN");
    expect(form.opened).toBe(true);
    await submitWorkspaceForm(h, two, "U0RORGADMIN", form.viewId!, "demo", "demo");
    await vi.waitFor(async () =>
      expect(await whoami(h, one, "U0RPLAIN")).toMatch(/\*demo\* \(the workspace account\)/),
    );
    await command(h, one, "language workspace ro", "U0RORGOWNER");
    expect(textOf(lastEphemeral(one, "U0RORGOWNER"))).toContain(
      "Limba implicită a acestui workspace este acum româna",
    );
  });
});

describe("7. Slack Connect: a user of another organisation never acts as the host's account", () => {
  let h: MultiWorkspaceHarness;
  let A: Side;
  let B: Side;
  const GUEST = "U0SECADMIN";

  beforeAll(async () => {
    h = await startMultiWorkspaceHarness();
    ({ A, B } = sidesOf(h));
    expect((await h.install({ teamId: TEAM_A, userId: "U0DISPATCH" })).status).toBe(200);
    expect((await h.install({ teamId: TEAM_B, userId: "U0SECDISP" })).status).toBe(200);
    // Each workspace's own account: A's is demo (every vehicle), B's viewer.
    for (const [side, userId, username] of [
      [A, "U0DISPATCH", "demo"],
      [B, "U0SECDISP", "viewer"],
    ] as const) {
      const form = await openWorkspaceForm(h, side, userId);
      expect(form.opened).toBe(true);
      await submitWorkspaceForm(h, side, userId, form.viewId!, username, username);
    }
    // B's guest reads Romanian in their own workspace.
    await command(h, B, "limba ro", GUEST);
    // A's #general is shared with B; B's admin joins it.
    h.fake.shareChannel({ channelId: A.channel, hostTeamId: TEAM_A, guestTeamId: TEAM_B, users: [GUEST] });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("a button of the host's alert clicked by the guest is refused in the guest's language, and nothing is done as the host's account", async () => {
    // The shared channel gets the transport alerts of A's workspace account (demo).
    await command(h, A, `alerts subscribe <#${A.channel}|general>`, "U0VIEWER");
    await vi.waitFor(() => expect(textOf(lastEphemeral(A, "U0VIEWER"))).toMatch(/now gets alerts/i));
    await h.bot.alerts.runOnce();
    const running = h.bot
      .simulator!.control.transports()
      .find((t) => t.statusId === 2 && !t.pinnedTransmission);
    expect(running).toBeDefined();
    h.bot.simulator!.control.setTransport(running!.codeUit, { transmissionStatusCode: "NoGPSCoordinates" });
    await h.bot.alerts.runOnce();
    await h.settle();
    const alert = alertsFor(A, running!.codeUit)[0];
    expect(alert, "an alert in the shared channel").toBeDefined();
    const mute = buttonsIn(alert, ACTIONS.alertMute)[0];
    expect(mute).toBeDefined();
    const revisions = alert!.revisions;
    const mutesBefore = rowsOf(h, `T:${TEAM_A}`).alert_mutes;
    const tasksBefore = rowsOf(h, `T:${TEAM_A}`).tasks;

    const clicked = await A.driver.blockAction({
      userId: GUEST,
      channelId: A.channel,
      messageTs: alert!.ts,
      actionId: ACTIONS.alertMute,
      value: mute!.value,
    });
    expect(clicked.status).toBe(200);
    // Slack names the host's team as the request's, and the guest's own as the user's.
    expect(clicked.payload).toMatchObject({ team: { id: TEAM_A }, user: { id: GUEST, team_id: TEAM_B } });
    await h.settle();
    await vi.waitFor(() =>
      expect(textOf(lastEphemeral(A, GUEST))).toContain("Ești în acest canal din altă organizație"),
    );
    expect(textOf(lastEphemeral(A, GUEST))).toContain("Folosește /fleet din propriul tău workspace");
    // Nothing was muted, edited or queued for the host.
    expect(rowsOf(h, `T:${TEAM_A}`).alert_mutes).toBe(mutesBefore);
    expect(rowsOf(h, `T:${TEAM_A}`).tasks).toBe(tasksBefore);
    expect(A.driver.workspace.findMessage(A.channel, alert!.ts)?.revisions).toBe(revisions);

    // The same button clicked by the host's own member works (the refusal is the guest's only).
    await A.driver.blockAction({
      userId: "U0VIEWER",
      channelId: A.channel,
      messageTs: alert!.ts,
      actionId: ACTIONS.alertMute,
      value: mute!.value,
    });
    await h.settle();
    await vi.waitFor(() => expect(rowsOf(h, `T:${TEAM_A}`).alert_mutes).toBe(mutesBefore + 1));
    expect(A.driver.workspace.violations).toEqual([]);
  });

  it("the guest's own commands reach their own workspace's installation: its account, their language there", async () => {
    // Slack sends the guest's /fleet to B's installation, even in the shared channel.
    await expect(
      A.driver.slashCommand({ command: "/fleet", text: "whoami", userId: GUEST, channelId: A.channel }),
    ).rejects.toThrow(/their own team's installation/);
    const said = await (async () => {
      await B.driver.slashCommand({ command: "/fleet", text: "whoami", userId: GUEST, channelId: A.channel });
      await h.bot.slack.idle();
      return textOf(lastEphemeral(B, GUEST, A.channel));
    })();
    expect(said).toContain("*viewer*");
    expect(said).not.toContain("*demo*");
    expect(said).toMatch(/contul workspace-ului/);
  });

  it("the host's people are unaffected in the shared channel", async () => {
    expect(await whoami(h, A, "U0VIEWER")).toMatch(/\*demo\* \(the workspace account\)/);
  });
});
