/**
 * The whole "Add to Slack" flow as production will run it: @slack/oauth's InstallProvider (the
 * one Bolt builds) against the fake Slack, storing into the SQLite installation store; token
 * rotation through InstallProvider.authorize().
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Logger, LogLevel } from "@slack/logger";
import { InstallProvider } from "@slack/oauth";
import { WebClient } from "@slack/web-api";
import { afterEach, describe, expect, it } from "vitest";
import { type Db, openDatabase } from "../../../src/platform/store/database.js";
import { SqliteInstallationStore } from "../../../src/platform/store/installationStore.js";
import {
  type FakeSlack,
  type FakeSlackOptions,
  startFakeSlack,
} from "../../../src/sandbox/fakeSlack/index.js";

const NOW = Date.UTC(2026, 10, 3, 8, 0, 0);
const silent: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  getLevel: () => LogLevel.ERROR,
  setName: () => {},
};

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Harness {
  fake: FakeSlack;
  store: SqliteInstallationStore;
  provider: InstallProvider;
  appUrl: string;
  clock: { now: number };
  db: Db;
}

async function harness(fakeOptions: FakeSlackOptions = {}): Promise<Harness> {
  const fake = await startFakeSlack(fakeOptions);
  cleanups.push(() => fake.close());
  const dir = mkdtempSync(join(tmpdir(), "fleetbot-install-"));
  const db = openDatabase(dir);
  cleanups.push(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const clock = { now: NOW };
  const store = new SqliteInstallationStore(db, randomBytes(32), () => clock.now);
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new InstallProvider({
    clientId: fake.options.oauth.clientId,
    clientSecret: fake.options.oauth.clientSecret,
    stateSecret: "state-secret-for-tests",
    installationStore: store,
    directInstall: true,
    authorizationUrl: fake.authorizeUrl,
    clientOptions: { slackApiUrl: fake.apiUrl },
    installUrlOptions: { scopes: ["commands", "chat:write"], redirectUri: `${appUrl}/slack/oauth_redirect` },
    logger: silent,
  });
  server.on("request", (req, res) => {
    const path = new URL(req.url ?? "/", appUrl).pathname;
    if (path === "/slack/install") void provider.handleInstallPath(req, res);
    else if (path === "/slack/oauth_redirect") void provider.handleCallback(req, res);
    else res.writeHead(404).end();
  });
  return { fake, store, provider, appUrl, clock, db };
}

/** A browser: /slack/install → the fake's authorize page (choice in `extra`) → the callback, cookie kept. */
async function installThroughBrowser(
  h: Harness,
  extra: Record<string, string>,
): Promise<{ status: number; callback: string; cookie: string }> {
  const start = await fetch(`${h.appUrl}/slack/install`, { redirect: "manual" });
  expect(start.status).toBe(302);
  const cookie = (start.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const authorizeUrl = new URL(start.headers.get("location") ?? "");
  expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(h.fake.authorizeUrl);
  for (const [name, value] of Object.entries(extra)) authorizeUrl.searchParams.set(name, value);
  const approved = await fetch(authorizeUrl, { redirect: "manual" });
  expect(approved.status).toBe(302);
  const callback = approved.headers.get("location") ?? "";
  const finished = await fetch(callback, { headers: { cookie }, redirect: "manual" });
  await finished.text();
  return { status: finished.status, callback, cookie };
}

describe("InstallProvider with the fake Slack and the installation store", () => {
  it("installs a workspace: the stored installation's token acts in that team", async () => {
    const h = await harness();
    const { status, callback, cookie } = await installThroughBrowser(h, {
      team: "T0SECOND",
      user: "U0SECADMIN",
    });
    expect(status).toBe(200);
    const query = { teamId: "T0SECOND", enterpriseId: undefined, isEnterpriseInstall: false as const };
    const installation = await h.store.fetchInstallation(query);
    expect(installation).toMatchObject({
      team: { id: "T0SECOND", name: "Second Carrier" },
      user: { id: "U0SECADMIN" },
      bot: { id: "B0SECONDBOT", userId: "U0SECONDBOT", scopes: ["commands", "chat:write"] },
      appId: "A0FLEETBOT",
      isEnterpriseInstall: false,
      authVersion: "v2",
    });
    const auth = await h.provider.authorize(query);
    expect(auth).toMatchObject({ teamId: "T0SECOND", botUserId: "U0SECONDBOT", botId: "B0SECONDBOT" });
    const client = new WebClient(auth.botToken, { slackApiUrl: h.fake.apiUrl, logger: silent });
    await client.chat.postMessage({ channel: "C0SECGENERAL", text: "installed" });
    expect(
      h.fake
        .team("T0SECOND")
        ?.messages("C0SECGENERAL")
        .map((m) => m.text),
    ).toEqual(["installed"]);

    // The same callback again (a replayed code) stores nothing new.
    h.clock.now = NOW + 60_000;
    const replay = await fetch(callback, { headers: { cookie }, redirect: "manual" });
    await replay.text();
    expect(replay.status).toBe(500);
    expect(await h.store.installedAt(query)).toBe(NOW);
    expect(h.db.prepare("SELECT body, secrets FROM slack_installations").all().length).toBe(1);
    expect(JSON.stringify(h.db.prepare("SELECT * FROM slack_installations").all())).not.toContain(
      auth.botToken ?? "-",
    );
  });

  it("an org-wide install serves every workspace of the org", async () => {
    const h = await harness({
      teams: [
        {
          teamId: "T0DEPOT",
          teamName: "Depot",
          enterpriseId: "E0GROUP",
          users: [{ id: "U0DEPOT", name: "depot" }],
        },
        {
          teamId: "T0YARD",
          teamName: "Yard",
          enterpriseId: "E0GROUP",
          users: [{ id: "U0YARD", name: "yard" }],
        },
      ],
    });
    expect((await installThroughBrowser(h, { team: "T0DEPOT", org: "1" })).status).toBe(200);
    expect((await h.store.all()).map((ref) => ref.key)).toEqual(["E:E0GROUP"]);
    const auth = await h.provider.authorize({
      teamId: "T0YARD",
      enterpriseId: "E0GROUP",
      isEnterpriseInstall: true,
    });
    expect(auth).toMatchObject({ teamId: "T0YARD", enterpriseId: "E0GROUP" });
    const viaTeam = await h.store.fetchInstallation({
      teamId: "T0YARD",
      enterpriseId: "E0GROUP",
      isEnterpriseInstall: false,
    });
    expect(viaTeam).toMatchObject({ isEnterpriseInstall: true, enterprise: { id: "E0GROUP" } });
  });

  it("token rotation: authorize() refreshes an expiring token through the store, keeping installedAt", async () => {
    // InstallProvider refreshes tokens expiring within 2 hours: a 1-hour token is refreshed at once.
    const h = await harness({ oauth: { tokenRotation: true, expiresInSeconds: 3600 } });
    expect((await installThroughBrowser(h, { team: "T0SECOND" })).status).toBe(200);
    const query = { teamId: "T0SECOND", enterpriseId: undefined, isEnterpriseInstall: false as const };
    const first = await h.store.fetchInstallation(query);
    expect(first.bot?.refreshToken).toMatch(/^xoxe-1-/);
    h.clock.now = NOW + 5000;
    const auth = await h.provider.authorize(query);
    expect(auth.botToken).toMatch(/^xoxe\.xoxb-1-/);
    expect(auth.botToken).not.toBe(first.bot?.token);
    const after = await h.store.fetchInstallation(query);
    expect(after.bot?.token).toBe(auth.botToken);
    expect(await h.store.installedAt(query)).toBe(NOW);
    const calls = h.fake.calls
      .filter((c) => c.method === "oauth.v2.access")
      .map((c) => c.args.grant_type ?? "code");
    expect(calls).toEqual(["code", "refresh_token"]);
  });
});
