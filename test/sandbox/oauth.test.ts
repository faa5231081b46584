/**
 * The fake Slack's "Add to Slack": the authorize page, oauth.v2.access (code and refresh_token
 * grants) through the official client, and tokens that act in their own team only.
 */
import { LogLevel, WebClient } from "@slack/web-api";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeSlack, type FakeSlackOptions, startFakeSlack } from "../../src/sandbox/fakeSlack/index.js";

const START = Date.UTC(2026, 6, 1, 9, 0, 0);
const REDIRECT = "https://fleetbot.example.ro/slack/oauth_redirect";
const silent = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  setName: () => {},
  getLevel: () => LogLevel.ERROR,
};

let clock = START;
const fakes: FakeSlack[] = [];

async function start(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const fake = await startFakeSlack({ now: () => clock, ...options });
  fakes.push(fake);
  return fake;
}

afterEach(async () => {
  clock = START;
  for (const fake of fakes.splice(0)) await fake.close();
});

function clientFor(fake: FakeSlack, token?: string): WebClient {
  return new WebClient(token, { slackApiUrl: fake.apiUrl, logger: silent, retryConfig: { retries: 0 } });
}

async function slackError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const data = (error as { data?: { error?: string } }).data;
    return data?.error ?? String(error);
  }
  throw new Error("expected the call to fail");
}

/** Follows the authorize page as a browser would (no redirect followed: the app's URL is not served here). */
async function authorize(fake: FakeSlack, extra: Record<string, string>): Promise<URL> {
  const url = new URL(fake.authorizeUrl);
  url.search = new URLSearchParams({
    client_id: "fake-client-id",
    scope: "commands,chat:write",
    redirect_uri: REDIRECT,
    state: "signed-state-123",
    ...extra,
  }).toString();
  const res = await fetch(url, { redirect: "manual" });
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location") ?? "");
}

async function install(fake: FakeSlack, extra: Record<string, string>) {
  const back = await authorize(fake, extra);
  const code = back.searchParams.get("code") ?? "";
  return await clientFor(fake).oauth.v2.access({
    client_id: "fake-client-id",
    client_secret: "fake-client-secret",
    code,
    redirect_uri: REDIRECT,
  });
}

describe("the authorize page", () => {
  it("without a choice, offers every team (the default one and T0SECOND) and a cancel", async () => {
    const fake = await start();
    const url = `${fake.authorizeUrl}?client_id=fake-client-id&scope=commands&redirect_uri=${encodeURIComponent(REDIRECT)}&state=s1`;
    const res = await fetch(url, { redirect: "manual" });
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain("Fleet Sandbox (T0FLEET)");
    expect(page).toContain("Second Carrier (T0SECOND)");
    expect(page).toContain("Cancel");
    // Each choice is a link back to the page with the team picked: following it redirects.
    const link = /href="([^"]*team=T0SECOND[^"]*)"/.exec(page)?.[1]?.replaceAll("&#38;", "&") ?? "";
    const chosen = await fetch(new URL(link, fake.url), { redirect: "manual" });
    expect(chosen.status).toBe(302);
    const back = new URL(chosen.headers.get("location") ?? "");
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get("state")).toBe("s1");
    expect(back.searchParams.get("code")).toMatch(/\S{20,}/);
  });

  it("redirects with the given state and a code; autoApprove chooses without a query; Cancel is access_denied", async () => {
    const fake = await start();
    const back = await authorize(fake, { team: "T0SECOND", user: "U0SECADMIN" });
    expect(back.searchParams.get("state")).toBe("signed-state-123");
    fake.oauth.autoApprove = { teamId: "T0FLEET", userId: "U0VIEWER" };
    expect((await authorize(fake, {})).searchParams.get("code")).toBeTruthy();
    fake.oauth.autoApprove = { teamId: "T0FLEET", deny: true };
    const denied = await authorize(fake, {});
    expect(denied.searchParams.get("error")).toBe("access_denied");
    expect(denied.searchParams.get("code")).toBeNull();
  });

  it("refuses an unknown client id, a missing redirect_uri, an unknown team or user", async () => {
    const fake = await start();
    const base = `${fake.authorizeUrl}?scope=commands&state=s`;
    const bad = async (query: string) =>
      await (await fetch(`${base}&${query}`, { redirect: "manual" })).text();
    expect(await bad(`client_id=nope&redirect_uri=${encodeURIComponent(REDIRECT)}`)).toContain(
      "invalid_client_id",
    );
    expect(await bad("client_id=fake-client-id")).toContain("bad_redirect_uri");
    expect(
      await bad(`client_id=fake-client-id&redirect_uri=${encodeURIComponent(REDIRECT)}&team=T0NONE`),
    ).toContain("invalid_team");
    expect(
      await bad(
        `client_id=fake-client-id&redirect_uri=${encodeURIComponent(REDIRECT)}&team=T0SECOND&user=U0DISPATCH`,
      ),
    ).toContain("invalid_user");
  });
});

describe("oauth.v2.access", () => {
  it("answers like Slack and issues a bot token that acts in its own team only", async () => {
    const fake = await start();
    const res = await install(fake, { team: "T0SECOND", user: "U0SECADMIN" });
    expect(res).toMatchObject({
      ok: true,
      app_id: "A0FLEETBOT",
      token_type: "bot",
      scope: "commands,chat:write",
      bot_user_id: "U0SECONDBOT",
      team: { id: "T0SECOND", name: "Second Carrier" },
      enterprise: null,
      is_enterprise_install: false,
      authed_user: { id: "U0SECADMIN" },
    });
    expect(res.access_token).toMatch(/^xoxb-/);
    expect(res.refresh_token).toBeUndefined();
    expect(fake.oauth.installs).toMatchObject([
      { teamId: "T0SECOND", userId: "U0SECADMIN", isEnterpriseInstall: false },
    ]);

    const second = clientFor(fake, res.access_token);
    expect(await second.auth.test()).toMatchObject({
      team_id: "T0SECOND",
      user_id: "U0SECONDBOT",
      bot_id: "B0SECONDBOT",
    });
    await second.chat.postMessage({ channel: "C0SECGENERAL", text: "salut" });
    expect(
      fake
        .team("T0SECOND")
        ?.messages("C0SECGENERAL")
        .map((m) => m.text),
    ).toEqual(["salut"]);
    // Team A's channels and users do not exist for team B's token, and the reverse.
    expect(await slackError(second.chat.postMessage({ channel: "C0GENERAL", text: "x" }))).toBe(
      "channel_not_found",
    );
    expect(await slackError(second.users.info({ user: "U0DISPATCH" }))).toBe("user_not_found");
    const first = clientFor(fake, fake.options.botToken);
    expect(await slackError(first.chat.postMessage({ channel: "C0SECGENERAL", text: "x" }))).toBe(
      "channel_not_found",
    );
    expect(fake.messages("C0GENERAL")).toEqual([]);
    // The recorded exchange keeps no secret, code or token.
    const recorded = JSON.stringify(fake.calls.filter((c) => c.method === "oauth.v2.access"));
    expect(recorded).not.toContain("fake-client-secret");
    expect(recorded).not.toContain(res.access_token);
  });

  it("takes the client by HTTP Basic auth; refuses a used code, another redirect_uri, a wrong secret", async () => {
    const fake = await start();
    const code = (await authorize(fake, { team: "T0FLEET" })).searchParams.get("code") ?? "";
    const exchange = async (body: Record<string, string>, basic?: string) => {
      const res = await fetch(`${fake.apiUrl}oauth.v2.access`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          ...(basic ? { authorization: `Basic ${Buffer.from(basic).toString("base64")}` } : {}),
        },
        body: new URLSearchParams(body).toString(),
      });
      return (await res.json()) as Record<string, unknown>;
    };
    expect(
      await exchange(
        { code, redirect_uri: "https://elsewhere.example/cb" },
        "fake-client-id:fake-client-secret",
      ),
    ).toEqual({
      ok: false,
      error: "bad_redirect_uri",
    });
    expect(await exchange({ code, redirect_uri: REDIRECT }, "fake-client-id:wrong")).toEqual({
      ok: false,
      error: "bad_client_secret",
    });
    expect(await exchange({ code, redirect_uri: REDIRECT }, "other-id:fake-client-secret")).toEqual({
      ok: false,
      error: "invalid_client_id",
    });
    const ok = await exchange({ code, redirect_uri: REDIRECT }, "fake-client-id:fake-client-secret");
    expect(ok).toMatchObject({ ok: true, team: { id: "T0FLEET" }, authed_user: { id: "U0DISPATCH" } });
    expect(await exchange({ code, redirect_uri: REDIRECT }, "fake-client-id:fake-client-secret")).toEqual({
      ok: false,
      error: "invalid_code",
    });
    // A code is good for 10 minutes.
    const late = (await authorize(fake, { team: "T0FLEET" })).searchParams.get("code") ?? "";
    clock += 10 * 60 * 1000 + 1;
    expect(
      await exchange({
        code: late,
        redirect_uri: REDIRECT,
        client_id: "fake-client-id",
        client_secret: "fake-client-secret",
      }),
    ).toEqual({ ok: false, error: "invalid_code" });
  });

  it("user scopes give the installer's user token in authed_user", async () => {
    const fake = await start();
    const res = await install(fake, { team: "T0SECOND", user_scope: "identify" });
    expect(res.authed_user).toMatchObject({ id: "U0SECDISP", scope: "identify", token_type: "user" });
    expect(res.authed_user?.access_token).toMatch(/^xoxp-/);
  });

  it("an uninstall revokes the team's tokens; the default token keeps working", async () => {
    const fake = await start();
    const res = await install(fake, { team: "T0SECOND" });
    expect(fake.oauth.uninstall("T0SECOND")).toBe(1);
    expect(await slackError(clientFor(fake, res.access_token).auth.test())).toBe("token_revoked");
    expect(await clientFor(fake, fake.options.botToken).auth.test()).toMatchObject({ team_id: "T0FLEET" });
  });

  it("a second team's response_url and uploads reach its own workspace", async () => {
    const fake = await start();
    const second = fake.team("T0SECOND");
    if (!second) throw new Error("no second team");
    const url = second.issueResponseUrl("C0SECGENERAL", "U0SECDISP");
    expect(url).toContain("/t/T0SECOND/hooks/");
    const res = await fetch(url, { method: "POST", body: JSON.stringify({ text: "answer" }) });
    expect(res.status).toBe(200);
    expect(second.messages("C0SECGENERAL").map((m) => m.text)).toEqual(["answer"]);
    expect(fake.responses).toEqual([]);
  });
});

describe("token rotation", () => {
  it("issues expiring tokens with a refresh token; grant_type=refresh_token gives a new one", async () => {
    const fake = await start({ oauth: { tokenRotation: true, expiresInSeconds: 3600 } });
    const res = await install(fake, { team: "T0SECOND" });
    expect(res).toMatchObject({ ok: true, expires_in: 3600, token_type: "bot" });
    expect(res.access_token).toMatch(/^xoxe\.xoxb-1-/);
    expect(res.refresh_token).toMatch(/^xoxe-1-/);
    const client = clientFor(fake, res.access_token);
    expect(await client.auth.test()).toMatchObject({ team_id: "T0SECOND" });
    clock += 3600 * 1000;
    expect(await slackError(client.auth.test())).toBe("token_expired");

    const refreshed = await clientFor(fake).oauth.v2.access({
      client_id: "fake-client-id",
      client_secret: "fake-client-secret",
      grant_type: "refresh_token",
      refresh_token: res.refresh_token ?? "",
    });
    expect(refreshed).toMatchObject({
      ok: true,
      token_type: "bot",
      expires_in: 3600,
      refresh_token: res.refresh_token,
      team: { id: "T0SECOND", name: "Second Carrier" },
      enterprise: null,
      is_enterprise_install: false,
      bot_user_id: "U0SECONDBOT",
    });
    expect(refreshed.access_token).not.toBe(res.access_token);
    expect(await clientFor(fake, refreshed.access_token).auth.test()).toMatchObject({ team_id: "T0SECOND" });
    expect(
      await slackError(
        clientFor(fake).oauth.v2.access({
          client_id: "fake-client-id",
          client_secret: "fake-client-secret",
          grant_type: "refresh_token",
          refresh_token: "never-issued",
        }),
      ),
    ).toBe("invalid_refresh_token");
  });

  it("without rotation, no refresh token and no refresh", async () => {
    const fake = await start();
    const res = await install(fake, { team: "T0SECOND" });
    expect(res.refresh_token).toBeUndefined();
    expect(res.expires_in).toBeUndefined();
  });
});

describe("Enterprise Grid", () => {
  const org = {
    teams: [
      {
        teamId: "T0DEPOT",
        teamName: "Depot",
        enterpriseId: "E0GROUP",
        enterpriseName: "Transport Group",
        users: [{ id: "U0DEPOT", name: "depot" }],
        channels: [{ id: "C0DEPOT", name: "depot", botIsMember: true }],
      },
      {
        teamId: "T0YARD",
        teamName: "Yard",
        enterpriseId: "E0GROUP",
        enterpriseName: "Transport Group",
        users: [{ id: "U0YARD", name: "yard" }],
        channels: [{ id: "C0YARD", name: "yard", botIsMember: true }],
      },
    ],
  };

  it("an org-wide install: team null, the enterprise, and a token that acts in every team of the org", async () => {
    const fake = await start(org);
    const res = await install(fake, { team: "T0DEPOT", org: "1" });
    expect(res).toMatchObject({
      ok: true,
      team: null,
      enterprise: { id: "E0GROUP", name: "Transport Group" },
      is_enterprise_install: true,
      authed_user: { id: "U0DEPOT" },
    });
    const client = clientFor(fake, res.access_token);
    expect(await client.auth.test()).toMatchObject({ enterprise_id: "E0GROUP", is_enterprise_install: true });
    await client.chat.postMessage({ channel: "C0DEPOT", text: "depot" });
    await client.chat.postMessage({ channel: "C0YARD", text: "yard" });
    expect(
      fake
        .team("T0DEPOT")
        ?.messages("C0DEPOT")
        .map((m) => m.text),
    ).toEqual(["depot"]);
    expect(
      fake
        .team("T0YARD")
        ?.messages("C0YARD")
        .map((m) => m.text),
    ).toEqual(["yard"]);
    // Not in a workspace outside the org.
    expect(await slackError(client.chat.postMessage({ channel: "C0GENERAL", text: "x" }))).toBe(
      "channel_not_found",
    );
    expect(fake.oauth.uninstall("E0GROUP")).toBe(1);
    expect(await slackError(client.auth.test())).toBe("token_revoked");
  });

  it("a workspace install inside an org names the enterprise", async () => {
    const fake = await start(org);
    const res = await install(fake, { team: "T0YARD" });
    expect(res).toMatchObject({
      team: { id: "T0YARD", name: "Yard" },
      enterprise: { id: "E0GROUP", name: "Transport Group" },
      is_enterprise_install: false,
    });
  });
});
