/**
 * `/fleet language` (`limba`, `limbă`) end to end: signed slash commands to the real bot over
 * HTTP, answers read from the fake Slack. Single-workspace mode (the user's own language, the
 * workspace form refused: DEFAULT_LANGUAGE is the operator's), DEFAULT_LANGUAGE=ro, and
 * multi-workspace mode (the installer sets the workspace default; a plain user may not; one
 * workspace's default is not another's).
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type BotHarness, lastSeenBy, startBotHarness, textOf } from "../../helpers/botHarness.js";
import {
  type MultiWorkspaceHarness,
  startMultiWorkspaceHarness,
  TEAM_A,
  TEAM_B,
} from "../../helpers/multiWorkspaceHarness.js";
import { command, lastEphemeral, type Side, sidesOf } from "../../platform/workspaces/sides.js";

const CHANNEL = "C0GENERAL";

describe("/fleet language, single workspace", () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness();
  });
  afterAll(async () => {
    await h?.close();
  });
  afterEach(() => {
    expect(h.fake.violations).toEqual([]);
    h.fake.reset();
  });

  /** The command, then what the user alone was answered (checked ephemeral and theirs). */
  const say = async (text: string, userId: string) => {
    const result = await h.driver.slashCommand({ command: "/fleet", text, userId, channelId: CHANNEL });
    expect(result.status).toBe(200);
    const seen = lastSeenBy(h.fake, CHANNEL, userId);
    expect(seen?.ephemeral, text).toBe(true);
    expect(seen?.visibleTo, text).toBe(userId);
    return textOf(seen);
  };

  it("shows the language and where it comes from, with how to change it", async () => {
    const answer = await say("language", "U0DISPATCH");
    expect(answer).toContain("Your language is *English* (fleetbot's default: you have not chosen one).");
    expect(answer).toContain("`/fleet language ro`");
    // Nobody else saw anything.
    expect(h.fake.messages(CHANNEL).filter((m) => m.visibleTo !== "U0DISPATCH")).toEqual([]);
  });

  it("sets ro (confirmed in Romanian), shows it as the user's choice, then en again", async () => {
    const user = "U0DISPATCH";
    const ro = await say("language ro", user);
    expect(ro).toContain("Limba ta este acum româna.");
    expect(ro).toContain("`/fleet limba en`");
    expect(ro).not.toMatch(/Your language/);
    expect(await say("language", user)).toContain("Limba ta este *româna* (aleasă de tine).");
    // Another user is not touched.
    expect(await say("language", "U0NEWYORK")).toContain("Your language is *English* (fleetbot's default");
    const en = await say("language en", user);
    expect(en).toContain("Your language is now English.");
    expect(await say("language", user)).toContain("Your language is *English* (your choice).");
  });

  it("`limba ro`, `limbă ro` and `limba română` set it too", async () => {
    for (const text of ["limba ro", "limbă ro", "limba română", "LIMBA RO"]) {
      expect(await say(text, "U0NEWYORK"), text).toContain("Limba ta este acum româna.");
    }
    expect(await say("limba", "U0NEWYORK")).toContain("Limba ta este *româna* (aleasă de tine).");
    expect(await say("limba en", "U0NEWYORK")).toContain("Your language is now English.");
  });

  it("the workspace form is refused: DEFAULT_LANGUAGE sets it, with the operator; nothing stored", async () => {
    const answer = await say("language workspace ro", "U0VIEWER");
    expect(answer).toContain("This fleetbot serves one workspace");
    expect(answer).toContain("DEFAULT_LANGUAGE, now English");
    expect(await say("language", "U0VIEWER")).toContain("Your language is *English* (fleetbot's default");
    // Said in the asker's own language.
    await say("limba ro", "U0VIEWER");
    expect(await say("limba workspace en", "U0VIEWER")).toContain(
      "Acest fleetbot servește un singur workspace",
    );
    await say("language en", "U0VIEWER");
  });

  it("a language fleetbot does not have is a grammar error with an example", async () => {
    const answer = await say("language de", "U0VIEWER");
    expect(answer).toContain("is not a language fleetbot answers in");
    expect(answer).toMatch(/Try: `\/fleet language en`/);
  });
});

describe("/fleet language with DEFAULT_LANGUAGE=ro", () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness({ env: { DEFAULT_LANGUAGE: "ro" } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("a user who never chose gets ro; their own en wins", async () => {
    const say = async (text: string) => {
      await h.driver.slashCommand({ command: "/fleet", text, userId: "U0DISPATCH", channelId: CHANNEL });
      return textOf(lastSeenBy(h.fake, CHANNEL, "U0DISPATCH"));
    };
    expect(await say("limba")).toContain("Limba ta este *româna* (cea implicită a lui fleetbot");
    expect(await say("language en")).toContain("Your language is now English.");
    expect(await say("language")).toContain("Your language is *English* (your choice).");
  });
});

describe("/fleet language, multi-workspace", () => {
  let h: MultiWorkspaceHarness;
  let A: Side;
  let B: Side;
  beforeAll(async () => {
    h = await startMultiWorkspaceHarness();
    ({ A, B } = sidesOf(h));
    expect((await h.install({ teamId: TEAM_A })).status).toBe(200);
    expect((await h.install({ teamId: TEAM_B })).status).toBe(200);
  });
  afterAll(async () => {
    await h?.close();
  });
  afterEach(() => {
    expect(h.driverA.workspace.violations).toEqual([]);
    expect(h.driverB.workspace.violations).toEqual([]);
  });

  const say = async (side: Side, text: string, userId: string) => {
    const result = await command(h, side, text, userId);
    expect(result.status).toBe(200);
    const seen = lastEphemeral(side, userId);
    expect(seen, text).toBeDefined();
    return textOf(seen);
  };

  it("a plain user is refused the workspace form; the installer sets it; a user who chose nothing then reads ro; B is untouched", async () => {
    // A's second user is neither the installer nor an admin (users.info says so).
    const refused = await say(A, "language workspace ro", A.other);
    expect(refused).toContain(
      "Only whoever installed fleetbot here, or a workspace admin or owner, can set the workspace's default language.",
    );
    expect(await say(A, "language", A.other)).toContain("Your language is *English* (fleetbot's default");

    // A's installer: confirmed in the language they now read (they never chose one: the new default).
    const set = await say(A, "limba workspace ro", A.user);
    expect(set).toContain("Limba implicită a acestui workspace este acum româna");

    // A user who never chose gets the workspace default, and is told where it comes from.
    expect(await say(A, "language", A.other)).toContain(
      "Limba ta este *româna* (cea implicită a acestui workspace: nu ți-ai ales una).",
    );
    // The plain user is still refused, now in Romanian.
    expect(await say(A, "limba workspace en", A.other)).toContain(
      "Doar cine a instalat fleetbot aici, sau un administrator ori proprietar al workspace-ului",
    );

    // Workspace B (same fleetbot, its own settings) still reads fleetbot's default.
    for (const user of [B.user, B.other]) {
      expect(await say(B, "language", user)).toContain("Your language is *English* (fleetbot's default");
    }
  });

  it("a user's own choice wins over the workspace default; the setter is told theirs stays", async () => {
    expect(await say(A, "language en", A.other)).toContain("Your language is now English.");
    expect(await say(A, "language", A.other)).toContain("Your language is *English* (your choice).");
    // B's installer chose English for themselves, then sets B's default to ro: theirs stays.
    await say(B, "language en", B.user);
    const set = await say(B, "language workspace ro", B.user);
    expect(set).toContain("This workspace's default language is now Romanian");
    expect(set).toContain("Yours stays English (your choice).");
    expect(await say(B, "language", B.other)).toContain(
      "Limba ta este *româna* (cea implicită a acestui workspace",
    );
    // A's default is A's own: B's change did not touch it, and A's user ids mean nothing in B.
    expect(await say(A, "language", A.user)).toContain(
      "Limba ta este *româna* (cea implicită a acestui workspace",
    );
  });

  it("an uninstall of A deletes A's settings, B's stay; a reinstall starts from fleetbot's default", async () => {
    const settingsOf = (key: string) => {
      const db = new Database(join(h.dataDir, "fleetbot.sqlite"), { readonly: true, fileMustExist: true });
      try {
        const count = (sql: string) => (db.prepare(sql).get(key) as { n: number }).n;
        return {
          users: count("SELECT count(*) AS n FROM user_settings WHERE workspace = ?"),
          workspace: count("SELECT count(*) AS n FROM workspace_settings WHERE workspace = ?"),
        };
      } finally {
        db.close();
      }
    };
    expect(settingsOf(A.key)).toEqual({ users: 1, workspace: 1 });
    expect(settingsOf(B.key)).toEqual({ users: 1, workspace: 1 });
    expect(h.fake.oauth.uninstall(TEAM_A)).toBeGreaterThan(0);
    expect((await h.driverA.appUninstalled()).status).toBe(200);
    await h.settle();
    await vi.waitFor(() => expect(settingsOf(A.key)).toEqual({ users: 0, workspace: 0 }), {
      timeout: 10_000,
    });
    expect(settingsOf(B.key)).toEqual({ users: 1, workspace: 1 });
    expect((await h.install({ teamId: TEAM_A })).status).toBe(200);
    expect(await say(A, "language", A.other)).toContain("Your language is *English* (fleetbot's default");
  });
});
