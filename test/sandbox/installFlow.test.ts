/**
 * installWorkspace (test/helpers/installFlow.ts) against a real Bolt app whose HTTPReceiver runs
 * @slack/oauth's InstallProvider (`directInstall: true`, the state cookie) with the fake as Slack;
 * then the installed team driven with asTeam, and the uninstall events reaching Bolt.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { App, HTTPReceiver, LogLevel } from "@slack/bolt";
import { type Installation, type InstallationQuery, MemoryInstallationStore } from "@slack/oauth";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type FakeSlack,
  type FakeSlackOptions,
  SlackDriver,
  startFakeSlack,
} from "../../src/sandbox/fakeSlack/index.js";
import { installWorkspace, replayRedirect } from "../helpers/installFlow.js";

const quietLogger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  getLevel: () => LogLevel.ERROR,
  setName: () => {},
};

const ORG: FakeSlackOptions = {
  teams: [
    {
      teamId: "T0DEPOT",
      teamName: "Depot",
      enterpriseId: "E0GROUP",
      enterpriseName: "Transport Group",
      botUserId: "U0DEPOTBOT",
      users: [{ id: "W0DEPOT", name: "depot" }],
      channels: [{ id: "C0DEPOT", name: "depot", botIsMember: true }],
    },
    {
      teamId: "T0YARD",
      teamName: "Yard",
      enterpriseId: "E0GROUP",
      enterpriseName: "Transport Group",
      botUserId: "U0YARDBOT",
      users: [{ id: "W0YARD", name: "yard" }],
      channels: [{ id: "C0YARD", name: "yard", botIsMember: true }],
    },
  ],
};

class RecordingStore extends MemoryInstallationStore {
  readonly deleted: InstallationQuery<boolean>[] = [];
  override async deleteInstallation(query: InstallationQuery<boolean>): Promise<void> {
    this.deleted.push(query);
    await super.deleteInstallation(query);
  }
  installations(): Installation[] {
    return Object.values(this.devDB) as Installation[];
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A Bolt app installed through OAuth (HTTPReceiver + InstallProvider), on a server already listening. */
async function boltApp(fakeOptions: FakeSlackOptions = {}) {
  const fake: FakeSlack = await startFakeSlack(fakeOptions);
  cleanups.push(() => fake.close());
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  const botUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const store = new RecordingStore();
  const receiver = new HTTPReceiver({
    signingSecret: fake.options.signingSecret,
    clientId: fake.options.oauth.clientId,
    clientSecret: fake.options.oauth.clientSecret,
    stateSecret: "state-secret-for-tests",
    scopes: ["commands", "chat:write"],
    installationStore: store,
    redirectUri: `${botUrl}/slack/oauth_redirect`,
    installerOptions: {
      directInstall: true,
      redirectUriPath: "/slack/oauth_redirect",
      authorizationUrl: fake.authorizeUrl,
      clientOptions: { slackApiUrl: fake.apiUrl },
    },
    logger: quietLogger,
  });
  const app = new App({
    receiver,
    clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } },
    logger: quietLogger,
  });
  server.on("request", receiver.requestListener);
  const events: { type: string; body: Record<string, unknown>; context: Record<string, unknown> }[] = [];
  app.command("/fleet", async ({ ack, command, client, context }) => {
    // Posts before the ack, so the driver's result comes after them.
    await client.chat.postMessage({ channel: command.channel_id, text: `hello ${context.teamId ?? ""}` });
    await ack();
  });
  for (const type of ["app_uninstalled", "tokens_revoked", "team_access_revoked"]) {
    app.event(type, async ({ body, context }) => {
      events.push({ type, body, context });
      if (type === "app_uninstalled") {
        await store.deleteInstallation({
          teamId: context.teamId,
          enterpriseId: context.enterpriseId,
          isEnterpriseInstall: context.isEnterpriseInstall,
        });
      }
    });
  }
  const driver = new SlackDriver({ botUrl: `${botUrl}/slack/events`, fake });
  return { fake, botUrl, store, driver, events };
}

describe("installWorkspace through Bolt's InstallProvider", () => {
  it("installs T0SECOND as a browser would; the installed team is then served with its own token", async () => {
    const { fake, botUrl, store, driver, events } = await boltApp();
    const result = await installWorkspace(botUrl, fake, { teamId: "T0SECOND", userId: "U0SECADMIN" });
    expect(result.status).toBe(200);
    expect(result.cookie).toMatch(/^slack-app-oauth-state=\S+$/);
    expect(result.cookie).toBe(`slack-app-oauth-state=${result.state}`);
    expect(new URL(result.authorizeUrl).searchParams.get("redirect_uri")).toBe(
      `${botUrl}/slack/oauth_redirect`,
    );
    expect(result.redirectUrl.startsWith(`${botUrl}/slack/oauth_redirect?`)).toBe(true);
    // InstallProvider clears the state cookie on the callback.
    expect(result.setCookies.join("\n")).toContain("slack-app-oauth-state=deleted");
    expect(fake.oauth.installs).toMatchObject([{ teamId: "T0SECOND", userId: "U0SECADMIN" }]);
    expect(store.installations()).toMatchObject([
      { team: { id: "T0SECOND" }, bot: { userId: "U0SECONDBOT" }, isEnterpriseInstall: false },
    ]);

    const second = driver.asTeam("T0SECOND");
    const command = await second.slashCommand({ userId: "U0SECDISP", channelId: "C0SECGENERAL" });
    expect(command.status).toBe(200);
    expect(
      fake
        .team("T0SECOND")
        ?.messages("C0SECGENERAL")
        .map((m) => m.text),
    ).toEqual(["hello T0SECOND"]);
    expect(fake.messages("C0GENERAL")).toEqual([]);

    // Slack revokes the tokens, then tells the app.
    fake.oauth.uninstall("T0SECOND");
    await second.tokensRevoked({ bot: ["U0SECONDBOT"] });
    await second.appUninstalled();
    await vi.waitFor(() => expect(events.map((e) => e.type)).toEqual(["tokens_revoked", "app_uninstalled"]));
    expect(events[1]?.context).toMatchObject({ teamId: "T0SECOND", isEnterpriseInstall: false });
    expect(store.deleted).toMatchObject([{ teamId: "T0SECOND", isEnterpriseInstall: false }]);
    expect(store.installations()).toEqual([]);
  });

  it("the same state presented twice fails the second time; without the cookie or with another's it is refused", async () => {
    const { fake, botUrl, store } = await boltApp();
    const first = await installWorkspace(botUrl, fake, { teamId: "T0SECOND" });
    expect(first.status).toBe(200);
    // Bolt's ClearStateStore does not remember used states: the code, single use at Slack, fails.
    const again = await replayRedirect(first.redirectUrl, first.cookie);
    expect(again.status).toBe(500);
    expect(fake.calls.filter((c) => c.method === "oauth.v2.access").map((c) => c.error)).toEqual([
      undefined,
      "invalid_code",
    ]);
    expect(store.installations()).toHaveLength(1);

    const other = await installWorkspace(botUrl, fake, { teamId: "T0FLEET" });
    expect(other.status).toBe(200);
    // A callback carrying no state cookie, or another browser's, is a CSRF attempt: 400, and
    // refused before any code exchange.
    const exchanges = fake.calls.filter((c) => c.method === "oauth.v2.access").length;
    expect((await replayRedirect(first.redirectUrl, "")).status).toBe(400);
    expect((await replayRedirect(first.redirectUrl, other.cookie)).status).toBe(400);
    expect(fake.calls.filter((c) => c.method === "oauth.v2.access")).toHaveLength(exchanges);
  });

  it("Cancel on the authorize page: the redirect carries error=access_denied and nothing is installed", async () => {
    const { fake, botUrl, store } = await boltApp();
    const denied = await installWorkspace(botUrl, fake, { teamId: "T0SECOND", deny: true });
    expect(new URL(denied.redirectUrl).searchParams.get("error")).toBe("access_denied");
    expect(denied.status).toBe(500);
    expect(fake.oauth.installs).toEqual([]);
    expect(store.installations()).toEqual([]);
  });

  it("refuses to go on when the bot does not redirect to the fake's authorize page", async () => {
    const { fake } = await boltApp();
    const elsewhere = createServer((_req, res) => res.writeHead(404).end("no install here"));
    await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => elsewhere.close(() => resolve())));
    const url = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
    await expect(installWorkspace(url, fake, { teamId: "T0SECOND" })).rejects.toThrow(
      "GET /slack/install answered 404",
    );
  });

  it("an org-wide install serves the org's teams; team_access_revoked and the org's app_uninstalled reach Bolt", async () => {
    const { fake, botUrl, store, driver, events } = await boltApp(ORG);
    const result = await installWorkspace(`${botUrl}/slack/events`, fake, {
      teamId: "T0DEPOT",
      orgWide: true,
    });
    expect(result.status).toBe(200);
    expect(store.installations()).toMatchObject([
      { enterprise: { id: "E0GROUP" }, isEnterpriseInstall: true, team: undefined },
    ]);

    const yard = driver.asTeam("T0YARD");
    expect((await yard.slashCommand({ userId: "W0YARD", channelId: "C0YARD" })).status).toBe(200);
    expect(
      fake
        .team("T0YARD")
        ?.messages("C0YARD")
        .map((m) => m.text),
    ).toEqual(["hello T0YARD"]);

    fake.oauth.revokeTeamAccess("E0GROUP", ["T0YARD"]);
    await driver.teamAccessRevoked({ enterpriseId: "E0GROUP", teamIds: ["T0YARD"] });
    await vi.waitFor(() => expect(events.map((e) => e.type)).toEqual(["team_access_revoked"]));
    expect(events[0]?.body).toMatchObject({ event: { team_ids: ["T0YARD"] } });
    expect(events[0]?.context).toMatchObject({ enterpriseId: "E0GROUP", isEnterpriseInstall: true });

    fake.oauth.uninstall("E0GROUP");
    await driver.appUninstalled({ teamId: "T0DEPOT", orgWide: true });
    await vi.waitFor(() => expect(events.map((e) => e.type)).toContain("app_uninstalled"));
    expect(store.deleted).toMatchObject([{ enterpriseId: "E0GROUP", isEnterpriseInstall: true }]);
    expect(store.installations()).toEqual([]);
  });
});
