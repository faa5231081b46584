/**
 * Enterprise Grid end to end (SQLite): fleetbot installed once for a whole org ("Add to Slack"
 * with the org chosen) serves every workspace of the org from ONE installation, `E:<enterprise>`.
 * Two workspaces of the org link fleet accounts and run commands through the signed driver, as
 * Slack sends requests to an org-wide install (is_enterprise_install true, enterprise_id set);
 * then the org's admins take fleetbot from one workspace (team_access_revoked) — the org-wide
 * install stays — and finally remove it from the org (app_uninstalled for the org), which deletes
 * the installation and every row of it.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SECOND_TEAM } from "../../../src/sandbox/fakeSlack/index.js";
import type { SimVehicle } from "../../../src/simulator/index.js";
import { textOf } from "../../helpers/botHarness.js";
import {
  type MultiWorkspaceHarness,
  startMultiWorkspaceHarness,
} from "../../helpers/multiWorkspaceHarness.js";
import {
  apiCallsText,
  command,
  lastEphemeral,
  lastSeen,
  link,
  mentions,
  rowsOf,
  type Side,
  seenBy,
  splitFleet,
  ZERO,
} from "./sides.js";

const ENTERPRISE = "E0CARRIER";
const ORG_KEY = `E:${ENTERPRISE}`;
const ORG_ONE = "T0ORGONE";
const ORG_TWO = "T0ORGTWO";

function installationRows(h: MultiWorkspaceHarness) {
  const db = new Database(join(h.dataDir, "fleetbot.sqlite"), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(
        "SELECT key, team_id, enterprise_id, is_enterprise_install FROM slack_installations ORDER BY key",
      )
      .all() as {
      key: string;
      team_id: string | null;
      enterprise_id: string | null;
      is_enterprise_install: number;
    }[];
  } finally {
    db.close();
  }
}

/** The workspace keys tasks were stored with. */
function taskWorkspaces(h: MultiWorkspaceHarness): string[] {
  const db = new Database(join(h.dataDir, "fleetbot.sqlite"), { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT DISTINCT workspace FROM tasks ORDER BY workspace").pluck().all() as string[];
  } finally {
    db.close();
  }
}

describe("an org-wide install on Enterprise Grid", () => {
  let h: MultiWorkspaceHarness;
  let one: Side;
  let two: Side;
  let fleetOne: SimVehicle[];
  let fleetTwo: SimVehicle[];

  beforeAll(async () => {
    h = await startMultiWorkspaceHarness({
      fakeSlack: {
        teams: [
          // The harness's second team (its driverB) stays; the org's two workspaces come after it.
          SECOND_TEAM,
          {
            teamId: ORG_ONE,
            teamName: "Carrier North",
            teamDomain: "carrier-north",
            enterpriseId: ENTERPRISE,
            enterpriseName: "Carrier Group",
            botUserId: "U0ORGONEBOT",
            botId: "B0ORGONEBOT",
            users: [
              { id: "U0NORTHDISP", name: "nord", realName: "Nina Nord", tz: "Europe/Bucharest" },
              { id: "U0NORTHOPS", name: "ops-nord", realName: "Ovidiu Ops", tz: "Europe/Bucharest" },
            ],
            channels: [{ id: "C0NORTHGEN", name: "general", isPrivate: false, botIsMember: true }],
          },
          {
            teamId: ORG_TWO,
            teamName: "Carrier South",
            teamDomain: "carrier-south",
            enterpriseId: ENTERPRISE,
            enterpriseName: "Carrier Group",
            botUserId: "U0ORGTWOBOT",
            botId: "B0ORGTWOBOT",
            users: [
              { id: "U0SOUTHDISP", name: "sud", realName: "Sanda Sud", tz: "Europe/Bucharest" },
              { id: "U0SOUTHOPS", name: "ops-sud", realName: "Paul Ops", tz: "Europe/Bucharest" },
            ],
            channels: [{ id: "C0SOUTHGEN", name: "general", isPrivate: false, botIsMember: true }],
          },
        ],
      },
    });
    const botUser = "U0ORGONEBOT";
    one = {
      name: "A",
      key: ORG_KEY,
      driver: h.driverA.asTeam(ORG_ONE, { enterpriseInstall: true }),
      user: "U0NORTHDISP",
      other: "U0NORTHOPS",
      channel: "C0NORTHGEN",
      botUser,
    };
    two = {
      name: "B",
      key: ORG_KEY,
      driver: h.driverA.asTeam(ORG_TWO, { enterpriseInstall: true }),
      user: "U0SOUTHDISP",
      other: "U0SOUTHOPS",
      channel: "C0SOUTHGEN",
      botUser,
    };
    const split = splitFleet(h.bot.simulator!.vehicles);
    fleetOne = split.a;
    fleetTwo = split.b;
    const sim = h.bot.simulator!.control;
    sim.upsertUser({
      username: "north",
      password: "pass-north",
      vehicleIds: fleetOne.map((v) => v.vehicleId),
    });
    sim.upsertUser({
      username: "south",
      password: "pass-south",
      vehicleIds: fleetTwo.map((v) => v.vehicleId),
    });
  });
  afterAll(async () => {
    await h?.close();
  });
  afterEach(() => {
    // Every payload the bot sent to either workspace of the org stayed within Slack's limits.
    expect(one.driver.workspace.violations).toEqual([]);
    expect(two.driver.workspace.violations).toEqual([]);
  });

  it("1. an org-wide install stores ONE installation, keyed by the enterprise, and the success page names the org", async () => {
    const installed = await h.install({ teamId: ORG_ONE, orgWide: true });
    expect(installed.status, installed.body).toBe(200);
    expect(installed.body).toContain("fleetbot is installed");
    expect(installed.body).toContain("Carrier Group");
    expect(installationRows(h)).toEqual([
      { key: ORG_KEY, team_id: null, enterprise_id: ENTERPRISE, is_enterprise_install: 1 },
    ]);
    expect(h.fake.oauth.installs).toMatchObject([
      { teamId: undefined, enterpriseId: ENTERPRISE, isEnterpriseInstall: true },
    ]);
    // The installer (the org's first workspace's first user) got the first steps in a DM.
    await vi.waitFor(() => expect(one.driver.workspace.messages(one.user).length).toBeGreaterThan(0));
    expect(textOf(one.driver.workspace.messages(one.user)[0])).toContain("Carrier Group");
  });

  it("2. a user of each workspace of the org links a fleet account and /fleet vehicles answers each; tasks are the org's", async () => {
    await link(h, one, "north", "pass-north");
    await link(h, two, "south", "pass-south");
    for (const side of [one, two]) {
      await command(h, side, "vehicles");
      await h.settle();
    }
    const answerOne = textOf(lastSeen(one));
    const answerTwo = textOf(lastSeen(two));
    expect(
      fleetOne.some((v) => mentions(answerOne, v.plate)),
      answerOne,
    ).toBe(true);
    expect(
      fleetTwo.some((v) => mentions(answerTwo, v.plate)),
      answerTwo,
    ).toBe(true);
    for (const v of fleetTwo) expect(mentions(answerOne, v.plate), `north sees ${v.plate}`).toBe(false);
    for (const v of fleetOne) expect(mentions(answerTwo, v.plate), `south sees ${v.plate}`).toBe(false);
    // Nothing of one workspace's work reached the other's (the org-wide token acts in the team of
    // the channel or user it names).
    expect(apiCallsText(one)).not.toContain(two.user);
    expect(apiCallsText(one)).not.toContain(two.channel);
    expect(apiCallsText(two)).not.toContain(one.user);
    expect(apiCallsText(two)).not.toContain(one.channel);

    // Both links and every task belong to the one org-wide installation.
    const rows = rowsOf(h, ORG_KEY);
    expect(rows.linked_accounts).toBe(2);
    expect(rows.tasks).toBeGreaterThanOrEqual(2);
    expect(taskWorkspaces(h)).toEqual([ORG_KEY]);
    expect(rowsOf(h, `T:${ORG_ONE}`)).toEqual(ZERO);
    expect(rowsOf(h, `T:${ORG_TWO}`)).toEqual(ZERO);
  });

  it("3. team_access_revoked for one workspace leaves the org-wide installation; the other workspace is still answered", async () => {
    const before = rowsOf(h, ORG_KEY);
    h.fake.oauth.revokeTeamAccess(ENTERPRISE, [ORG_TWO]);
    const revoked = await two.driver.teamAccessRevoked({ enterpriseId: ENTERPRISE, teamIds: [ORG_TWO] });
    expect(revoked.status).toBe(200);
    await h.settle();
    // Any removal the event (or a token refused meanwhile) started has ended: the rows below are final.
    await h.bot.removal.idle();
    expect(installationRows(h).map((r) => r.key)).toEqual([ORG_KEY]);
    expect(rowsOf(h, ORG_KEY)).toEqual(before);

    await command(h, one, "whoami");
    expect(textOf(lastEphemeral(one))).toMatch(/\*north\*/);
    // A new answer (not test 2's), with the account's vehicles.
    const seenBefore = seenBy(one).length;
    await command(h, one, "vehicles");
    await h.settle();
    const answers = seenBy(one).slice(seenBefore).map(textOf).join("\n");
    expect(
      fleetOne.some((v) => mentions(answers, v.plate)),
      answers,
    ).toBe(true);
  });

  it("4. app_uninstalled for the org deletes the E: installation and every row of it", async () => {
    const before = rowsOf(h, ORG_KEY);
    expect(before.slack_installations).toBe(1);
    expect(before.linked_accounts).toBe(2);
    expect(before.tasks).toBeGreaterThan(0);

    expect(h.fake.oauth.uninstall(ENTERPRISE)).toBeGreaterThan(0);
    const uninstalled = await one.driver.appUninstalled({ orgWide: true, enterpriseId: ENTERPRISE });
    expect(uninstalled.status).toBe(200);
    await h.settle();
    await vi.waitFor(() => expect(rowsOf(h, ORG_KEY)).toEqual(ZERO), { timeout: 10_000 });
    expect(installationRows(h)).toEqual([]);
  });
});
