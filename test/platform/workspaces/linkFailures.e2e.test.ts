/**
 * Issue 30, point 4: one workspace must not spend another tenant's fleet account. Workspace A
 * links the fleet user name X; users of workspace B try wrong passwords for X. Every link attempt
 * is a real login as X through X's gate, so without a cap per user name each one reaches the
 * service (the repro counted 9 logins as X from 3 users of B, and A's next command waited behind
 * all of them). Now: failed attempts are capped per user name across workspaces
 * (LINK_FAILURE_LIMIT per LINK_FAILURE_WINDOW_MS, short here), past the cap nothing is sent and
 * whoever tried is told in their language, and the logins of link attempts wait behind the
 * account's own work. All through real HTTP: signed requests, the fake Slack, the simulator.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { INPUTS } from "../../../src/platform/slack/actionIds.js";
import { SECOND_TEAM } from "../../../src/sandbox/fakeSlack/oauth.js";
import { textOf } from "../../helpers/botHarness.js";
import {
  type MultiWorkspaceHarness,
  startMultiWorkspaceHarness,
  TEAM_A,
  TEAM_B,
} from "../../helpers/multiWorkspaceHarness.js";
import {
  apiCallsText,
  callsOf,
  command,
  lastEphemeral,
  link,
  type Side,
  sidesOf,
  splitFleet,
} from "./sides.js";

const X = "carrier-x";
const X_PASSWORD = "pass-x";
const LIMIT = 5;
const WINDOW_MS = 8_000;
const B_THIRD = "U0SECTHREE";
const B_FOUR = "U0SECFOUR";
const B_FIVE = "U0SECFIVE";

describe("failed link attempts are capped per fleet user name, across workspaces", () => {
  let h: MultiWorkspaceHarness;
  let A: Side;
  let B: Side;
  /** When the first failed attempt counted was sent (the window runs from it). */
  let firstFailureAt = 0;
  /** The form's words, in English, once X's cap was full. */
  let tooManyForX = "";

  const requestsAsX = () => h.bot.simulator!.control.requests(1_000_000).filter((r) => r.username === X);
  /** Logins as X the service judged (a 429, sent again by the gate, checked no password). */
  const loginsAsX = () => requestsAsX().filter((r) => r.endpoint === "login" && r.status !== 429);

  /** `/fleet login` by the user: the form's view id. */
  async function openForm(side: Side, userId: string): Promise<string> {
    const opens = callsOf(side, "views.open").filter((c) => c.ok).length;
    await command(h, side, "login", userId);
    await vi.waitFor(() =>
      expect(callsOf(side, "views.open").filter((c) => c.ok).length).toBeGreaterThan(opens),
    );
    return [...side.driver.workspace.viewsSnapshot().values()]
      .filter((v) => v.user === userId && v.type === "modal")
      .at(-1)!.id;
  }

  function submit(side: Side, userId: string, viewId: string, password: string) {
    return side.driver.viewSubmission({
      userId,
      viewId,
      values: {
        [INPUTS.loginUsername.block]: { [INPUTS.loginUsername.action]: X },
        [INPUTS.loginPassword.block]: { [INPUTS.loginPassword.action]: password },
      },
    });
  }

  /** One attempt, to its end: what the form then says. */
  async function attempt(side: Side, userId: string, password: string): Promise<string> {
    const viewId = await openForm(side, userId);
    await submit(side, userId, viewId, password);
    await h.settle();
    return JSON.stringify(side.driver.workspace.viewsSnapshot().get(viewId)?.view ?? {});
  }

  beforeAll(async () => {
    h = await startMultiWorkspaceHarness({
      intervalMs: 250,
      env: {
        // Every command fetches the vehicle list: A's own work is a call in X's gate.
        VEHICLE_CACHE_TTL_MS: "0",
        LINK_FAILURE_LIMIT: String(LIMIT),
        LINK_FAILURE_WINDOW_MS: String(WINDOW_MS),
      },
      fakeSlack: {
        teams: [
          {
            ...SECOND_TEAM,
            users: [
              ...(SECOND_TEAM.users ?? []),
              { id: B_THIRD, name: "trei", realName: "Toma Trei", tz: "Europe/Bucharest" },
              { id: B_FOUR, name: "patru", realName: "Petra Patru", tz: "Europe/Bucharest" },
              { id: B_FIVE, name: "cinci", realName: "Cici Cinci", tz: "Europe/Bucharest" },
            ],
          },
        ],
      },
    });
    ({ A, B } = sidesOf(h));
    h.bot.simulator!.control.upsertUser({
      username: X,
      password: X_PASSWORD,
      vehicleIds: splitFleet(h.bot.simulator!.vehicles).a.map((v) => v.vehicleId),
    });
    expect((await h.install({ teamId: TEAM_A })).status).toBe(200);
    expect((await h.install({ teamId: TEAM_B })).status).toBe(200);
    // A's dispatcher works as X; B's dispatcher reads Romanian.
    await link(h, A, X, X_PASSWORD);
    await command(h, B, "limba ro", B.user);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });
  afterEach(() => {
    expect(h.driverA.workspace.violations).toEqual([]);
    expect(h.driverB.workspace.violations).toEqual([]);
  });

  it("B's users spend the cap: exactly LIMIT logins as X reach the service, and A's own command goes before the ones still waiting", async () => {
    const loginsBefore = loginsAsX().length;
    const xBefore = requestsAsX().length;
    // Three users of B (each may try 3 times in 10 minutes), five wrong passwords in one burst.
    const tries = [B.user, B.user, B.other, B.other, B_THIRD];
    const forms = new Map<string, string>();
    for (const user of new Set(tries)) forms.set(user, await openForm(B, user));
    await Promise.all(tries.map((user, i) => submit(B, user, forms.get(user)!, `wrong-${i}`)));
    // A's dispatcher asks for the vehicle list while B's logins wait in X's gate.
    const asked = await A.driver.slashCommand({
      command: "/fleet",
      text: "vehicles",
      userId: A.user,
      channelId: A.channel,
    });
    expect(asked.status).toBe(200);
    await h.settle();

    const logins = loginsAsX().slice(loginsBefore);
    expect(logins.map((r) => r.status)).toEqual(Array(LIMIT).fill(401));
    firstFailureAt = Date.parse(logins[0]!.at);
    // X's requests in arrival order: A's company-vehicles went after at most the one login
    // already in flight (or about to be sent) when it asked, not after the whole burst.
    const order = requestsAsX()
      .slice(xBefore)
      .filter((r) => r.status !== 429)
      .map((r) => r.endpoint);
    const asA = order.indexOf("company-vehicles");
    expect(asA, order.join(",")).toBeGreaterThanOrEqual(0);
    expect(asA, order.join(",")).toBeLessThanOrEqual(2);
    expect(order.slice(asA).filter((e) => e === "login").length).toBeGreaterThanOrEqual(LIMIT - 2);
    // A's dispatcher got the list.
    await vi.waitFor(() =>
      expect(JSON.stringify(h.driverA.workspace.messages(A.channel))).toMatch(/B-\d{3}-/),
    );
  });

  it("past the cap no login is sent as X, for B's users or A's, and each is told so in their language", async () => {
    const before = loginsAsX().length;

    // B's dispatcher reads Romanian (ș ț with the comma below); B's third user English.
    const ro = await attempt(B, B.user, "wrong-again");
    expect(ro).toMatch(/Au fost încercate prea multe parole greșite pentru acest cont în ultima vreme/);
    expect(ro).toMatch(/Încearcă din nou peste \d+ s/);
    expect(ro).not.toMatch(/[\u015f\u0163]/);
    const en = await attempt(B, B_THIRD, "wrong-again");
    expect(en).toMatch(/Too many wrong passwords were tried for this account recently/);
    expect(en).toMatch(/Try again in \d+ s\./);
    tooManyForX = en;

    // Another user of A, even with the right password: nothing is sent while the cap is full.
    const other = await attempt(A, A.other, X_PASSWORD);
    expect(other).toMatch(/Too many wrong passwords were tried for this account recently/);
    expect(loginsAsX().length).toBe(before);
    // (All of the above while X's window was still full.)
    expect(Date.now()).toBeLessThan(firstFailureAt + WINDOW_MS);
    // No password reached anything fleetbot sent to either workspace.
    for (const side of [A, B]) {
      const sent = apiCallsText(side);
      expect(sent).not.toMatch(/wrong-\d|wrong-again/);
      expect(sent).not.toContain(X_PASSWORD);
    }
  });

  it("the words say nothing about whether the user name exists: a name nobody has reads the same once its cap is full", async () => {
    const nobody = "nobody-has-this-name";
    const sim = h.bot.simulator!.control;
    const asNobody = () =>
      sim
        .requests(1_000_000)
        .filter((r) => r.username === nobody && r.endpoint === "login" && r.status !== 429);
    const words = (view: string) => {
      const text =
        (JSON.parse(view) as { blocks: { text?: { text?: string } }[] }).blocks[0]?.text?.text ?? "";
      return text.replace(/\d+ (s|min)\b/, "…");
    };
    const tries: string[] = [];
    for (const user of [B_FOUR, B_FOUR, B_FOUR, B_FIVE, B_FIVE, B_FIVE]) {
      const viewId = await openForm(B, user);
      await B.driver.viewSubmission({
        userId: user,
        viewId,
        values: {
          [INPUTS.loginUsername.block]: { [INPUTS.loginUsername.action]: nobody },
          [INPUTS.loginPassword.block]: { [INPUTS.loginPassword.action]: "guess" },
        },
      });
      await h.settle();
      tries.push(JSON.stringify(B.driver.workspace.viewsSnapshot().get(viewId)?.view ?? {}));
    }
    // Five refused logins as that name, then the cap, exactly as for X.
    expect(asNobody().map((r) => r.status)).toEqual(Array(LIMIT).fill(401));
    const last = tries.at(-1)!;
    expect(last).toMatch(/Too many wrong passwords were tried for this account recently/);
    expect(words(last)).toBe(words(tooManyForX));
  });

  it("A's linked users keep working while the cap is full", async () => {
    const before = requestsAsX().length;
    await command(h, A, "whoami", A.user);
    expect(textOf(lastEphemeral(A, A.user))).toMatch(/\*carrier-x\* \(linked by you\)/);
    const asked = await A.driver.slashCommand({
      command: "/fleet",
      text: "vehicles",
      userId: A.user,
      channelId: A.channel,
    });
    expect(asked.status).toBe(200);
    await h.settle();
    const sent = requestsAsX().slice(before);
    expect(sent.map((r) => `${r.endpoint}:${r.status}`)).toContain("company-vehicles:200");
    expect(sent.filter((r) => r.endpoint === "login" && r.status !== 200)).toEqual([]);
  });

  it("once the window has passed, a correct password links at once, with one login", async () => {
    const waitMs = firstFailureAt + WINDOW_MS + 50 - Date.now();
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
    const before = loginsAsX().length;
    const started = Date.now();
    await link(h, A, X, X_PASSWORD, A.other);
    const logins = loginsAsX().slice(before);
    expect(logins.map((r) => r.status)).toEqual([200]);
    // The account was idle: the background-priority login went out in the first free slot.
    expect(Date.now() - started).toBeLessThan(5_000);
    await command(h, A, "whoami", A.other);
    expect(textOf(lastEphemeral(A, A.other))).toMatch(/\*carrier-x\* \(linked by you\)/);
  });
});
