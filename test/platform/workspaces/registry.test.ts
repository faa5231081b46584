/**
 * The workspaces registry against the fake Slack's real oauth.v2.access and the SQLite
 * installation store: a rotating token is renewed before it expires, once however many readers
 * ask at the same moment; Bolt never sees a refresh token (so it never renews on its own, without
 * the lock); a token Slack refuses for good is reported once, like an uninstall.
 */

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Installation } from "@slack/oauth";
import { WebClient } from "@slack/web-api";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/platform/store/database.js";
import { SqliteInstallationStore } from "../../../src/platform/store/installationStore.js";
import { WorkspaceEvents } from "../../../src/platform/workspaces/events.js";
import {
  InstalledWorkspaces,
  LocalRenewalLock,
  type RenewalLock,
} from "../../../src/platform/workspaces/registry.js";
import { type FakeSlack, startFakeSlack } from "../../../src/sandbox/fakeSlack/index.js";

const START = Date.UTC(2026, 10, 25, 9, 0, 0);
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(options: { expiresInSeconds: number; lock?: RenewalLock }) {
  const clock = { now: START };
  const fake = await startFakeSlack({
    now: () => clock.now,
    oauth: { tokenRotation: true, expiresInSeconds: options.expiresInSeconds },
  });
  cleanups.push(() => fake.close());
  const dir = mkdtempSync(join(tmpdir(), "fleetbot-registry-"));
  const db = openDatabase(dir);
  cleanups.push(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const store = new SqliteInstallationStore(db, randomBytes(32), () => clock.now);
  const dead: string[] = [];
  const events = new WorkspaceEvents();
  events.handleRemovals({ tokenDead: (key) => dead.push(key), installedAnew: async () => {} });
  const registry = new InstalledWorkspaces({
    installations: store,
    clientId: fake.options.oauth.clientId,
    clientSecret: fake.options.oauth.clientSecret,
    slackApiUrl: fake.apiUrl,
    lock: options.lock ?? new LocalRenewalLock(),
    now: () => clock.now,
    logger: { info: () => {}, warn: () => {} },
    events,
  });
  return { clock, fake, store, registry, dead };
}

/** An install of T0FLEET as Slack answers it: the authorize page's code exchanged at oauth.v2.access. */
async function install(fake: FakeSlack, store: SqliteInstallationStore): Promise<Installation> {
  fake.oauth.configuredRedirectUri = "https://fleetbot.example.ro/slack/oauth_redirect";
  const page = fake.oauth.authorize(
    new URLSearchParams({
      client_id: fake.options.oauth.clientId,
      scope: "commands,chat:write",
      state: "s",
      team: "T0FLEET",
    }),
    fake.authorizeUrl,
  );
  const code = new URL(page.headers.location ?? page.headers.Location ?? "").searchParams.get("code") ?? "";
  const answer = await new WebClient(undefined, { slackApiUrl: fake.apiUrl }).oauth.v2.access({
    client_id: fake.options.oauth.clientId,
    client_secret: fake.options.oauth.clientSecret,
    code,
  });
  const installation: Installation = {
    team: { id: "T0FLEET", name: "Fleet Carrier" },
    enterprise: undefined,
    user: { id: "U0DISPATCH", token: undefined, scopes: undefined },
    bot: {
      token: answer.access_token ?? "",
      refreshToken: answer.refresh_token,
      expiresAt: Math.floor(START / 1000) + (answer.expires_in ?? 0),
      scopes: ["commands", "chat:write"],
      id: answer.bot_user_id ?? "",
      userId: answer.bot_user_id ?? "",
    },
    tokenType: "bot",
    isEnterpriseInstall: false,
    appId: answer.app_id,
    authVersion: "v2",
  };
  await store.storeInstallation(installation);
  return installation;
}

const refreshes = (fake: FakeSlack) =>
  fake.calls.filter((c) => c.method === "oauth.v2.access" && String(c.args.grant_type) === "refresh_token");

describe("InstalledWorkspaces", () => {
  it("renews a token about to expire once, however many readers ask at the same moment, and the new one works", async () => {
    const { clock, fake, store, registry } = await setup({ expiresInSeconds: 3600 });
    const installed = await install(fake, store);
    // Far from expiry: no renewal.
    const first = await (await registry.get("T:T0FLEET"))?.client();
    expect((await first?.auth.test())?.ok).toBe(true);
    expect(refreshes(fake)).toHaveLength(0);

    clock.now = START + 50 * 60_000; // 10 minutes left: within the 15-minute margin
    const workspaces = await Promise.all(Array.from({ length: 8 }, () => registry.get("T:T0FLEET")));
    const clients = await Promise.all(workspaces.map((w) => w?.client()));
    expect(refreshes(fake)).toHaveLength(1);
    const tokens = new Set(clients.map((c) => c?.token));
    expect(tokens.size).toBe(1);
    expect([...tokens][0]).not.toBe(installed.bot?.token);
    expect((await clients[0]?.auth.test())?.ok).toBe(true);
    // The renewed token is what the store holds now.
    expect(
      (
        await store.fetchInstallation({
          teamId: "T0FLEET",
          isEnterpriseInstall: false,
          enterpriseId: undefined,
        })
      ).bot?.token,
    ).toBe([...tokens][0]);
  });

  it("hands Bolt the installation without its refresh token, so Bolt's own authorize never renews it", async () => {
    const { fake, store, registry } = await setup({ expiresInSeconds: 3600 });
    await install(fake, store);
    const bolt = registry.boltInstallationStore();
    const seen = await bolt.fetchInstallation({
      teamId: "T0FLEET",
      isEnterpriseInstall: false,
      enterpriseId: undefined,
    });
    expect(seen.bot?.token).toBeTruthy();
    expect(seen.bot?.refreshToken).toBeUndefined();
    expect(seen.bot?.expiresAt).toBeUndefined();
  });

  it("reports a workspace whose token Slack refuses for good, and answers undefined for one never installed", async () => {
    const { fake, store, registry, dead } = await setup({ expiresInSeconds: 3600 });
    await install(fake, store);
    const client = await (await registry.get("T:T0FLEET"))?.client();
    fake.oauth.uninstall("T0FLEET");
    await expect(client?.auth.test()).rejects.toThrow();
    expect(dead).toEqual(["T:T0FLEET"]);
    expect(await registry.get("T:T0NEVER")).toBeUndefined();
  });
});

describe("LocalRenewalLock", () => {
  it("runs one holder of a key at a time, and different keys side by side", async () => {
    const lock = new LocalRenewalLock();
    const log: string[] = [];
    const step = (name: string, ms: number) =>
      lock.run(name.split("-")[0] ?? "", async () => {
        log.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        log.push(`end ${name}`);
      });
    await Promise.all([step("a-1", 20), step("a-2", 1), step("b-1", 5)]);
    expect(log.indexOf("end a-1")).toBeLessThan(log.indexOf("start a-2"));
    expect(log.indexOf("start b-1")).toBeLessThan(log.indexOf("end a-1"));
  });
});
