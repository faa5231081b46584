/**
 * The driver acting in another team (asTeam) and the Events API uninstall deliveries
 * (app_uninstalled, tokens_revoked, team_access_revoked), checked on a bare node:http server
 * that verifies the signature on its own.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { WebClient } from "@slack/web-api";
import { afterEach, describe, expect, it } from "vitest";
import {
  type FakeSlack,
  type FakeSlackOptions,
  SlackDriver,
  startFakeSlack,
} from "../../src/sandbox/fakeSlack/index.js";

const START = Date.UTC(2026, 6, 1, 9, 0, 0);
const REDIRECT = "https://fleetbot.example.ro/slack/oauth_redirect";

interface Seen {
  verified: boolean;
  contentType: string | undefined;
  raw: string;
  /** Slash command fields, an interaction payload, or an event envelope. */
  body: Record<string, unknown>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function readAll(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString("utf8");
    });
    req.on("end", () => resolve(body));
  });
}

/** A fake Slack and a bot stand-in recording every request, its signature checked independently. */
async function setup(options: FakeSlackOptions = {}, answer: unknown = "") {
  const fake = await startFakeSlack({ now: () => START, ...options });
  cleanups.push(() => fake.close());
  const seen: Seen[] = [];
  const server: Server = createServer(async (req, res) => {
    const raw = await readAll(req);
    const ts = String(req.headers["x-slack-request-timestamp"]);
    const expected = `v0=${createHmac("sha256", fake.options.signingSecret).update(`v0:${ts}:${raw}`).digest("hex")}`;
    const given = String(req.headers["x-slack-signature"]);
    const verified =
      given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
    const contentType = req.headers["content-type"];
    let body: Record<string, unknown>;
    if (contentType === "application/json") body = JSON.parse(raw) as Record<string, unknown>;
    else {
      const form = new URLSearchParams(raw);
      const payload = form.get("payload");
      body = payload ? (JSON.parse(payload) as Record<string, unknown>) : Object.fromEntries(form);
    }
    seen.push({ verified, contentType, raw, body });
    res.writeHead(200, { "content-type": "application/json" });
    res.end(typeof answer === "string" ? answer : JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const botUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
  const driver = new SlackDriver({ botUrl, fake, now: () => START });
  return { fake, driver, seen, botUrl };
}

function last(seen: Seen[]): Seen {
  const found = seen.at(-1);
  if (!found) throw new Error("the bot received nothing");
  return found;
}

/** Installs through the fake's authorize page and oauth.v2.access (no bot needed). */
async function install(fake: FakeSlack, query: Record<string, string>): Promise<string> {
  const url = new URL(fake.authorizeUrl);
  url.search = new URLSearchParams({
    client_id: fake.options.oauth.clientId,
    scope: "commands,chat:write",
    redirect_uri: REDIRECT,
    state: "s",
    ...query,
  }).toString();
  const res = await fetch(url, { redirect: "manual" });
  const code = new URL(res.headers.get("location") ?? "").searchParams.get("code") ?? "";
  const answer = await new WebClient(undefined, { slackApiUrl: fake.apiUrl }).oauth.v2.access({
    client_id: fake.options.oauth.clientId,
    client_secret: fake.options.oauth.clientSecret,
    code,
    redirect_uri: REDIRECT,
  });
  return answer.access_token ?? "";
}

const ORG: FakeSlackOptions = {
  teams: [
    {
      teamId: "T0DEPOT",
      teamName: "Depot",
      teamDomain: "depot",
      enterpriseId: "E0GROUP",
      enterpriseName: "Transport Group",
      botUserId: "U0DEPOTBOT",
      users: [{ id: "W0DEPOT", name: "depot" }],
      channels: [{ id: "C0DEPOT", name: "depot", botIsMember: true }],
    },
    {
      teamId: "T0YARD",
      teamName: "Yard",
      teamDomain: "yard",
      enterpriseId: "E0GROUP",
      enterpriseName: "Transport Group",
      botUserId: "U0YARDBOT",
      users: [{ id: "W0YARD", name: "yard" }],
      channels: [{ id: "C0YARD", name: "yard", botIsMember: true }],
    },
  ],
};

describe("without asTeam, the default team exactly as before", () => {
  it("slash command and block_actions carry T0FLEET, no enterprise fields", async () => {
    const { driver, seen, fake } = await setup();
    await driver.slashCommand({ text: "help", userId: "U0DISPATCH", channelId: "C0GENERAL" });
    const fields = last(seen).body;
    expect(Object.keys(fields)).toEqual([
      "token",
      "team_id",
      "team_domain",
      "channel_id",
      "channel_name",
      "user_id",
      "user_name",
      "command",
      "text",
      "api_app_id",
      "is_enterprise_install",
      "response_url",
      "trigger_id",
    ]);
    expect(fields).toMatchObject({
      team_id: "T0FLEET",
      team_domain: "fleet-sandbox",
      is_enterprise_install: "false",
    });

    const message = fake.workspace.postBotMessage(
      "test",
      "chat.postMessage",
      { channel: "C0GENERAL" },
      {
        text: "x",
        blocks: [
          {
            type: "actions",
            block_id: "a",
            elements: [{ type: "button", action_id: "go", text: { type: "plain_text", text: "Go" } }],
          },
        ],
      },
    );
    await driver.blockAction({
      userId: "U0VIEWER",
      channelId: "C0GENERAL",
      messageTs: message.ts,
      actionId: "go",
    });
    const payload = last(seen).body;
    expect(payload).toMatchObject({
      user: { id: "U0VIEWER", username: "viewer", name: "viewer", team_id: "T0FLEET" },
      team: { id: "T0FLEET", domain: "fleet-sandbox" },
      enterprise: null,
      is_enterprise_install: false,
    });
    expect(Object.keys(payload.team as object)).toEqual(["id", "domain"]);
  });

  it("the default team's configured enterprise stays out of the legacy payloads; asTeam puts it in", async () => {
    const { driver, seen } = await setup({ oauth: { enterpriseId: "E0FLEET", enterpriseName: "Fleet Org" } });
    await driver.slashCommand({ userId: "U0DISPATCH", channelId: "C0GENERAL" });
    expect(last(seen).body.enterprise_id).toBeUndefined();
    await driver.asTeam("T0FLEET").slashCommand({ userId: "U0DISPATCH", channelId: "C0GENERAL" });
    expect(last(seen).body).toMatchObject({
      team_id: "T0FLEET",
      enterprise_id: "E0FLEET",
      enterprise_name: "Fleet Org",
    });
  });

  it("asTeam of the default team (no enterprise) sends the same fields as the plain driver", async () => {
    const { driver, seen } = await setup();
    await driver.slashCommand({ text: "a", userId: "U0DISPATCH", channelId: "C0GENERAL" });
    await driver.asTeam("T0FLEET").slashCommand({ text: "a", userId: "U0DISPATCH", channelId: "C0GENERAL" });
    const [plain, as] = seen.map((s) => s.body);
    const stable = (fields: Record<string, unknown> | undefined) => {
      const { response_url: _url, trigger_id: _trigger, ...rest } = fields ?? {};
      return rest;
    };
    expect(stable(as)).toEqual(stable(plain));
    expect(Object.keys(as ?? {})).toEqual(Object.keys(plain ?? {}));
  });
});

describe("asTeam(T0SECOND)", () => {
  it("a slash command carries T0SECOND and its user and channel; the ack lands in T0SECOND", async () => {
    const { driver, seen, fake } = await setup({}, { response_type: "in_channel", text: "Salut" });
    const second = driver.asTeam("T0SECOND");
    const result = await second.slashCommand({
      text: "help",
      userId: "U0SECDISP",
      channelId: "C0SECGENERAL",
    });
    const { body, verified } = last(seen);
    expect(verified).toBe(true);
    expect(body).toMatchObject({
      team_id: "T0SECOND",
      team_domain: "second-carrier",
      channel_id: "C0SECGENERAL",
      channel_name: "general",
      user_id: "U0SECDISP",
      user_name: "dispecer",
      api_app_id: "A0FLEETBOT",
      is_enterprise_install: "false",
    });
    expect(body.enterprise_id).toBeUndefined();
    expect(String(body.response_url)).toContain("/t/T0SECOND/hooks/T0SECOND/");
    expect(result.posted?.channel).toBe("C0SECGENERAL");
    expect(second.workspace).toBe(fake.team("T0SECOND"));
    expect(
      fake
        .team("T0SECOND")
        ?.messages("C0SECGENERAL")
        .map((m) => m.text),
    ).toEqual(["Salut"]);
    expect(fake.messages("C0GENERAL")).toEqual([]);
    // The response_url reaches T0SECOND's workspace.
    await fetch(String(body.response_url), { method: "POST", body: JSON.stringify({ text: "later" }) });
    expect(
      fake
        .team("T0SECOND")
        ?.messages("C0SECGENERAL")
        .map((m) => m.text),
    ).toContain("later");
  });

  it("refuses the default team's users and channels, and an unknown team", async () => {
    const { driver } = await setup();
    const second = driver.asTeam("T0SECOND");
    await expect(second.slashCommand({ userId: "U0DISPATCH", channelId: "C0SECGENERAL" })).rejects.toThrow(
      "unknown user U0DISPATCH",
    );
    await expect(second.slashCommand({ userId: "U0SECDISP", channelId: "C0GENERAL" })).rejects.toThrow(
      "unknown channel C0GENERAL",
    );
    expect(() => driver.asTeam("T0NONE")).toThrow("no team T0NONE");
  });

  it("block_actions, block_suggestion, view_submission, view_closed and app_home_opened: every team field is T0SECOND", async () => {
    const { driver, seen, fake } = await setup();
    const ws = fake.team("T0SECOND");
    if (!ws) throw new Error("no T0SECOND");
    const second = driver.asTeam("T0SECOND");
    const teamFields = {
      team: { id: "T0SECOND", domain: "second-carrier" },
      enterprise: null,
      is_enterprise_install: false,
      api_app_id: "A0FLEETBOT",
    };

    const message = ws.postBotMessage(
      "test",
      "chat.postMessage",
      { channel: "C0SECGENERAL" },
      {
        text: "x",
        blocks: [
          {
            type: "actions",
            block_id: "a",
            elements: [
              { type: "button", action_id: "go", value: "1", text: { type: "plain_text", text: "Go" } },
            ],
          },
        ],
      },
    );
    await second.blockAction({
      userId: "U0SECADMIN",
      channelId: "C0SECGENERAL",
      messageTs: message.ts,
      actionId: "go",
    });
    const action = last(seen).body;
    expect(action).toMatchObject({
      ...teamFields,
      type: "block_actions",
      user: { id: "U0SECADMIN", username: "admin", team_id: "T0SECOND" },
      channel: { id: "C0SECGENERAL", name: "general" },
      message: { ts: message.ts, user: "U0SECONDBOT" },
    });
    expect(String(action.response_url)).toContain("/t/T0SECOND/");

    // A modal opened by T0SECOND's bot, driven from T0SECOND.
    const opened = ws.call(
      "views.open",
      {
        trigger_id: ws.issueTriggerId("U0SECDISP"),
        view: {
          type: "modal",
          callback_id: "pick",
          notify_on_close: true,
          title: { type: "plain_text", text: "Pick" },
          submit: { type: "plain_text", text: "OK" },
          blocks: [
            {
              type: "input",
              block_id: "v",
              label: { type: "plain_text", text: "Vehicle" },
              element: { type: "external_select", action_id: "vehicle" },
            },
          ],
        },
      },
      ws.options.botToken,
    );
    const viewId = String((opened.body.view as { id: string }).id);
    await second.blockSuggestion({ userId: "U0SECDISP", viewId, actionId: "vehicle", value: "b-1" });
    expect(last(seen).body).toMatchObject({
      ...teamFields,
      type: "block_suggestion",
      user: { id: "U0SECDISP", team_id: "T0SECOND" },
      view: { id: viewId, team_id: "T0SECOND", app_installed_team_id: "T0SECOND" },
    });
    await second.viewSubmission({ viewId, values: { v: { vehicle: "b-1" } } });
    expect(last(seen).body).toMatchObject({
      ...teamFields,
      type: "view_submission",
      user: { id: "U0SECDISP", team_id: "T0SECOND" },
      view: {
        id: viewId,
        team_id: "T0SECOND",
        state: { values: { v: { vehicle: { selected_option: { value: "b-1" } } } } },
      },
    });
    // The empty ack closed it in T0SECOND's workspace.
    expect(ws.viewsSnapshot().get(viewId)?.open).toBe(false);

    const again = ws.call(
      "views.open",
      {
        trigger_id: ws.issueTriggerId("U0SECDISP"),
        view: {
          type: "modal",
          notify_on_close: true,
          title: { type: "plain_text", text: "Bye" },
          blocks: [],
        },
      },
      ws.options.botToken,
    );
    await second.viewClosed({ viewId: String((again.body.view as { id: string }).id) });
    expect(last(seen).body).toMatchObject({
      ...teamFields,
      type: "view_closed",
      user: { team_id: "T0SECOND" },
    });

    await second.appHomeOpened({ userId: "U0SECDISP" });
    expect(last(seen).body).toMatchObject({
      team_id: "T0SECOND",
      event: { type: "app_home_opened", user: "U0SECDISP", channel: "D0SECDISP" },
      authorizations: [
        {
          enterprise_id: null,
          team_id: "T0SECOND",
          user_id: "U0SECONDBOT",
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
    });
    expect(last(seen).body.enterprise_id).toBeUndefined();
    expect(seen.every((s) => s.verified)).toBe(true);
    // What Slack would refuse is recorded in T0SECOND (the stand-in answers options with nothing).
    expect(ws.violations.map((v) => v.source)).toEqual(["ack:block_suggestion"]);
    expect(fake.violations).toEqual([]);
  });
});

describe("asTeam inside an Enterprise org", () => {
  it("a workspace install: enterprise_id/enterprise_name, team.enterprise_*, enterprise {id,name}, the org id as user.team_id", async () => {
    const { driver, seen, fake } = await setup(ORG);
    await install(fake, { team: "T0DEPOT" });
    const depot = driver.asTeam("T0DEPOT");
    await depot.slashCommand({ userId: "W0DEPOT", channelId: "C0DEPOT" });
    expect(last(seen).body).toMatchObject({
      team_id: "T0DEPOT",
      team_domain: "depot",
      enterprise_id: "E0GROUP",
      enterprise_name: "Transport Group",
      is_enterprise_install: "false",
    });
    await depot.blockSuggestion({ userId: "W0DEPOT", channelId: "C0DEPOT", actionId: "v", value: "b" });
    expect(last(seen).body).toMatchObject({
      team: { id: "T0DEPOT", domain: "depot", enterprise_id: "E0GROUP", enterprise_name: "Transport Group" },
      user: { id: "W0DEPOT", team_id: "E0GROUP" },
      enterprise: { id: "E0GROUP", name: "Transport Group" },
      is_enterprise_install: false,
    });
    await depot.appHomeOpened({ userId: "W0DEPOT" });
    expect(last(seen).body).toMatchObject({
      team_id: "T0DEPOT",
      enterprise_id: "E0GROUP",
      authorizations: [
        {
          enterprise_id: "E0GROUP",
          team_id: "T0DEPOT",
          user_id: "U0DEPOTBOT",
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
    });
  });

  it("an org-wide install: is_enterprise_install true, and the org's bot in authorizations (team_id null)", async () => {
    const { driver, seen, fake } = await setup(ORG);
    expect(fake.oauth.installationIn("T0YARD")).toBeUndefined();
    await install(fake, { team: "T0YARD", org: "1" });
    expect(fake.oauth.installationIn("T0YARD")).toBe("org");
    const yard = driver.asTeam("T0YARD");
    await yard.slashCommand({ userId: "W0YARD", channelId: "C0YARD" });
    expect(last(seen).body).toMatchObject({
      team_id: "T0YARD",
      enterprise_id: "E0GROUP",
      is_enterprise_install: "true",
    });
    await yard.appHomeOpened({ userId: "W0YARD", tab: "messages" });
    expect(last(seen).body).toMatchObject({
      team_id: "T0YARD",
      enterprise_id: "E0GROUP",
      authorizations: [
        // The org-wide install's bot user is the one oauth.v2.access named: the org's first team's.
        {
          enterprise_id: "E0GROUP",
          team_id: null,
          user_id: "U0DEPOTBOT",
          is_bot: true,
          is_enterprise_install: true,
        },
      ],
    });
    // An explicit choice wins over what the fake knows.
    await driver
      .asTeam("T0YARD", { enterpriseInstall: false })
      .slashCommand({ userId: "W0YARD", channelId: "C0YARD" });
    expect(last(seen).body.is_enterprise_install).toBe("false");
  });
});

describe("uninstall events", () => {
  it("app_uninstalled: a signed JSON event_callback, shaped as Slack's Events API", async () => {
    const { driver, seen, fake } = await setup();
    const result = await driver.appUninstalled();
    expect(result.status).toBe(200);
    const { body, verified, contentType, raw } = last(seen);
    expect(verified).toBe(true);
    expect(contentType).toBe("application/json");
    expect(raw).toBe(JSON.stringify(body));
    expect(body).toEqual({
      token: fake.options.verificationToken,
      team_id: "T0FLEET",
      api_app_id: "A0FLEETBOT",
      event: { type: "app_uninstalled" },
      type: "event_callback",
      event_id: "Ev00000001",
      event_time: Math.floor(START / 1000),
      authorizations: [
        {
          enterprise_id: null,
          team_id: "T0FLEET",
          user_id: "U0FLEETBOT",
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
      is_ext_shared_channel: false,
    });
  });

  it("in T0SECOND, after Slack revoked its tokens; event ids stay unique across asTeam drivers", async () => {
    const { driver, seen, fake } = await setup();
    const token = await install(fake, { team: "T0SECOND" });
    expect(fake.oauth.installationIn("T0SECOND")).toBe("team");
    expect(fake.oauth.uninstall("T0SECOND")).toBe(1);
    expect(fake.oauth.installationIn("T0SECOND")).toBeUndefined();
    await expect(new WebClient(token, { slackApiUrl: fake.apiUrl }).auth.test()).rejects.toThrow(
      "token_revoked",
    );

    const second = driver.asTeam("T0SECOND");
    await second.tokensRevoked({ bot: ["U0SECONDBOT"], oauth: ["U0SECADMIN"], eventTime: 1_700_000_000 });
    await driver.appUninstalled({ teamId: "T0SECOND" });
    const [revoked, uninstalled] = seen.map((s) => s.body);
    expect(revoked).toEqual({
      token: fake.options.verificationToken,
      team_id: "T0SECOND",
      api_app_id: "A0FLEETBOT",
      event: { type: "tokens_revoked", tokens: { oauth: ["U0SECADMIN"], bot: ["U0SECONDBOT"] } },
      type: "event_callback",
      event_id: "Ev00000001",
      event_time: 1_700_000_000,
      authorizations: [
        {
          enterprise_id: null,
          team_id: "T0SECOND",
          user_id: "U0SECONDBOT",
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
      is_ext_shared_channel: false,
    });
    expect(uninstalled).toMatchObject({
      team_id: "T0SECOND",
      event: { type: "app_uninstalled" },
      event_id: "Ev00000002",
    });
    // tokens_revoked without user tokens leaves `oauth` out.
    await second.tokensRevoked({ bot: ["U0SECONDBOT"] });
    expect(last(seen).body.event).toEqual({ type: "tokens_revoked", tokens: { bot: ["U0SECONDBOT"] } });
    expect(seen.every((s) => s.verified)).toBe(true);
  });

  it("org-wide: app_uninstalled and tokens_revoked with team_id null, enterprise_id, an enterprise authorization", async () => {
    const { driver, seen, fake } = await setup(ORG);
    await install(fake, { team: "T0DEPOT", org: "1" });
    expect(fake.oauth.uninstall("E0GROUP")).toBe(1);
    await driver.tokensRevoked({ teamId: "T0YARD", orgWide: true, bot: ["U0DEPOTBOT"] });
    await driver.appUninstalled({ enterpriseId: "E0GROUP", teamId: "T0DEPOT", orgWide: true });
    const orgAuthorization = {
      enterprise_id: "E0GROUP",
      team_id: null,
      user_id: "U0DEPOTBOT",
      is_bot: true,
      is_enterprise_install: true,
    };
    expect(seen.map((s) => s.body)).toMatchObject([
      {
        team_id: null,
        enterprise_id: "E0GROUP",
        event: { type: "tokens_revoked", tokens: { bot: ["U0DEPOTBOT"] } },
        authorizations: [orgAuthorization],
      },
      {
        team_id: null,
        enterprise_id: "E0GROUP",
        event: { type: "app_uninstalled" },
        authorizations: [orgAuthorization],
      },
    ]);
    // A workspace install inside the org names the enterprise too.
    await driver.appUninstalled({ teamId: "T0YARD" });
    expect(last(seen).body).toMatchObject({
      team_id: "T0YARD",
      enterprise_id: "E0GROUP",
      authorizations: [
        { enterprise_id: "E0GROUP", team_id: "T0YARD", user_id: "U0YARDBOT", is_enterprise_install: false },
      ],
    });
    await expect(driver.appUninstalled({ teamId: "T0SECOND", orgWide: true })).rejects.toThrow(
      "no enterprise",
    );
  });

  it("team_access_revoked: Slack stops the org token in those teams, then tells the app", async () => {
    const { driver, seen, fake } = await setup(ORG);
    const token = await install(fake, { team: "T0DEPOT", org: "1" });
    const client = new WebClient(token, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
    fake.oauth.revokeTeamAccess("E0GROUP", ["T0YARD"]);
    expect(fake.oauth.installationIn("T0YARD")).toBeUndefined();
    expect(fake.oauth.installationIn("T0DEPOT")).toBe("org");
    await expect(client.chat.postMessage({ channel: "C0YARD", text: "x" })).rejects.toThrow(
      "channel_not_found",
    );
    await expect(client.conversations.list({ team_id: "T0YARD" })).rejects.toThrow("team_access_not_granted");
    await client.chat.postMessage({ channel: "C0DEPOT", text: "still here" });

    await driver.teamAccessRevoked({ enterpriseId: "E0GROUP", teamIds: ["T0YARD"] });
    const { body, verified } = last(seen);
    expect(verified).toBe(true);
    expect(body).toEqual({
      token: fake.options.verificationToken,
      team_id: null,
      enterprise_id: "E0GROUP",
      api_app_id: "A0FLEETBOT",
      event: {
        type: "team_access_revoked",
        team_ids: ["T0YARD"],
        event_ts: `${Math.floor(START / 1000)}.000000`,
      },
      type: "event_callback",
      event_id: "Ev00000001",
      event_time: Math.floor(START / 1000),
      authorizations: [
        {
          enterprise_id: "E0GROUP",
          team_id: null,
          user_id: "U0DEPOTBOT",
          is_bot: true,
          is_enterprise_install: true,
        },
      ],
      is_ext_shared_channel: false,
    });
    await expect(driver.teamAccessRevoked({ enterpriseId: "E0NONE", teamIds: [] })).rejects.toThrow(
      "no enterprise E0NONE",
    );
    fake.reset();
    expect(fake.oauth.installationIn("T0YARD")).toBeUndefined();
  });
});
