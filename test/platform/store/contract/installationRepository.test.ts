import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Installation } from "@slack/bolt";
import { describe, expect, it } from "vitest";
import {
  CredentialsKeyMissingError,
  InstallationNotFoundError,
  InstallationUnreadableError,
} from "../../../../src/platform/store/contract/index.js";
import { openDatabase } from "../../../../src/platform/store/database.js";
import {
  readSealedInstallations,
  SqliteInstallationStore,
} from "../../../../src/platform/store/installationStore.js";
import { describeContract, NOW } from "./backends.js";

/** What InstallProvider.handleCallback builds from oauth.v2.access for a workspace install. */
function teamInstall(
  teamId: string,
  options: { token?: string; rotation?: boolean; enterpriseId?: string; user?: string } = {},
): Installation<"v2", false> {
  const token = options.token ?? `bot:${teamId}-bot-token-0001`;
  return {
    team: { id: teamId, name: `Carrier ${teamId}` },
    enterprise: options.enterpriseId ? { id: options.enterpriseId, name: "Org" } : undefined,
    user: { id: options.user ?? "U0INSTALLER", token: undefined, scopes: undefined },
    bot: {
      id: `B${teamId}`,
      userId: `U${teamId}BOT`,
      scopes: ["commands", "chat:write"],
      token,
      ...(options.rotation
        ? { refreshToken: `refresh:1-${teamId}-refresh-0001`, expiresAt: 1_800_000_000 }
        : {}),
    },
    tokenType: "bot",
    isEnterpriseInstall: false,
    appId: "A0FLEETBOT",
    authVersion: "v2",
  };
}

function orgInstall(
  enterpriseId: string,
  token = `bot:${enterpriseId}-org-token-0001`,
): Installation<"v2", true> {
  return {
    team: undefined,
    enterprise: { id: enterpriseId, name: "Transport Group" },
    user: { id: "U0ORGADMIN", token: `user:${enterpriseId}-user-token-0001`, scopes: ["identify"] },
    bot: { id: `B${enterpriseId}`, userId: `U${enterpriseId}BOT`, scopes: ["commands"], token },
    tokenType: "bot",
    isEnterpriseInstall: true,
    enterpriseUrl: "https://transport-group.enterprise.slack.com/",
    appId: "A0FLEETBOT",
    authVersion: "v2",
  };
}

const teamQuery = (teamId: string, enterpriseId?: string) => ({
  teamId,
  enterpriseId,
  isEnterpriseInstall: false as const,
});
const orgQuery = (enterpriseId: string) => ({
  teamId: undefined,
  enterpriseId,
  isEnterpriseInstall: true as const,
});

describeContract("InstallationRepository", (backend, name) => {
  describe("storing and fetching", () => {
    it("gives a workspace install back as stored, its tokens sealed at rest", async () => {
      const s = await backend.open();
      expect(s.installations.canStore).toBe(true);
      const installation = teamInstall("T0CARRIER", { rotation: true });
      await s.installations.storeInstallation(installation);
      expect(await s.installations.fetchInstallation(teamQuery("T0CARRIER"))).toEqual(installation);
      expect(await s.installations.installedAt(teamQuery("T0CARRIER"))).toBe(NOW);
      expect(await s.rawContains("T0CARRIER")).toBe(true);
      expect(await s.rawContains("bot:T0CARRIER-bot-token-0001")).toBe(false);
      expect(await s.rawContains("refresh:1-T0CARRIER-refresh-0001")).toBe(false);
      expect(await s.rawContains("-bot-token-")).toBe(false);
      // Another connection (replica, or the process after a restart) reads the same.
      expect(await s.replica().installations.fetchInstallation(teamQuery("T0CARRIER"))).toEqual(installation);
    });

    it("an unknown workspace is InstallationNotFoundError", async () => {
      const s = await backend.open();
      await s.installations.storeInstallation(teamInstall("T0CARRIER"));
      await expect(s.installations.fetchInstallation(teamQuery("T0OTHER"))).rejects.toThrow(
        InstallationNotFoundError,
      );
      await expect(s.installations.fetchInstallation(orgQuery("E0NONE"))).rejects.toThrow(
        InstallationNotFoundError,
      );
      expect(await s.installations.installedAt(teamQuery("T0OTHER"))).toBeUndefined();
    });

    it("an org-wide install is keyed by its enterprise and serves every workspace of the org", async () => {
      const s = await backend.open();
      const org = orgInstall("E0GROUP");
      await s.installations.storeInstallation(org);
      expect(await s.installations.fetchInstallation(orgQuery("E0GROUP"))).toEqual(org);
      // An event from a workspace of the org (Bolt passes both ids).
      expect(await s.installations.fetchInstallation(teamQuery("T0DEPOT", "E0GROUP"))).toEqual(org);
      expect(await s.installations.installedAt(teamQuery("T0DEPOT", "E0GROUP"))).toBe(NOW);
      // Not a workspace outside the org.
      await expect(s.installations.fetchInstallation(teamQuery("T0DEPOT"))).rejects.toThrow(
        InstallationNotFoundError,
      );
      await expect(s.installations.fetchInstallation(teamQuery("T0DEPOT", "E0ELSE"))).rejects.toThrow(
        InstallationNotFoundError,
      );
      expect(await s.rawContains("bot:E0GROUP-org-token-0001")).toBe(false);
      expect(await s.rawContains("user:E0GROUP-user-token-0001")).toBe(false);
    });

    it("a workspace of the org with its own install is served by its own", async () => {
      const s = await backend.open();
      await s.installations.storeInstallation(orgInstall("E0GROUP"));
      await s.installations.storeInstallation(teamInstall("T0DEPOT", { enterpriseId: "E0GROUP" }));
      const own = await s.installations.fetchInstallation(teamQuery("T0DEPOT", "E0GROUP"));
      expect(own.bot?.token).toBe("bot:T0DEPOT-bot-token-0001");
      expect(own.enterprise).toEqual({ id: "E0GROUP", name: "Org" });
      const other = await s.installations.fetchInstallation(teamQuery("T0YARD", "E0GROUP"));
      expect(other.bot?.token).toBe("bot:E0GROUP-org-token-0001");
      expect((await s.installations.all()).map((ref) => ref.key)).toEqual(["E:E0GROUP", "T:T0DEPOT"]);
    });

    it("a re-authorization replaces the tokens but keeps who installed first, and when; the last one is recorded", async () => {
      const s = await backend.open();
      await s.installations.storeInstallation(teamInstall("T0CARRIER", { rotation: true }));
      expect(await s.installations.record(teamQuery("T0CARRIER"))).toEqual({
        installedAt: NOW,
        installedBy: "U0INSTALLER",
        authorizedAt: NOW,
        authorizedBy: "U0INSTALLER",
      });
      s.clock.now = NOW + 60_000;
      // A plain member runs "Add to Slack" again.
      const again = teamInstall("T0CARRIER", { token: "bot:T0CARRIER-second-token", user: "U0MEMBER" });
      await s.installations.storeInstallation(again);
      const fetched = await s.installations.fetchInstallation(teamQuery("T0CARRIER"));
      expect(fetched).toEqual(again);
      expect(fetched.bot?.refreshToken).toBeUndefined();
      expect(await s.installations.installedAt(teamQuery("T0CARRIER"))).toBe(NOW);
      expect(await s.installations.record(teamQuery("T0CARRIER"))).toEqual({
        installedAt: NOW,
        installedBy: "U0INSTALLER",
        authorizedAt: NOW + 60_000,
        authorizedBy: "U0MEMBER",
      });
      // Another replica (or process) reads the same.
      expect(await s.replica().installations.record(teamQuery("T0CARRIER"))).toMatchObject({
        installedBy: "U0INSTALLER",
        authorizedBy: "U0MEMBER",
      });
      // And a third run by someone else again keeps the first install.
      s.clock.now = NOW + 120_000;
      await s.installations.storeInstallation(teamInstall("T0CARRIER", { user: "U0OTHER" }));
      expect(await s.installations.record(teamQuery("T0CARRIER"))).toEqual({
        installedAt: NOW,
        installedBy: "U0INSTALLER",
        authorizedAt: NOW + 120_000,
        authorizedBy: "U0OTHER",
      });
      expect(await s.installations.all()).toEqual([
        {
          key: "T:T0CARRIER",
          teamId: "T0CARRIER",
          enterpriseId: undefined,
          isEnterpriseInstall: false,
          installedAt: NOW,
        },
      ]);
    });

    it("an install after an uninstall is a first install again: its installer and time", async () => {
      const s = await backend.open();
      await s.installations.storeInstallation(teamInstall("T0CARRIER"));
      await s.installations.deleteInstallation(teamQuery("T0CARRIER"));
      s.clock.now = NOW + 60_000;
      await s.installations.storeInstallation(teamInstall("T0CARRIER", { user: "U0NEWOWNER" }));
      expect(await s.installations.record(teamQuery("T0CARRIER"))).toEqual({
        installedAt: NOW + 60_000,
        installedBy: "U0NEWOWNER",
        authorizedAt: NOW + 60_000,
        authorizedBy: "U0NEWOWNER",
      });
      expect(await s.installations.record(teamQuery("T0NONE"))).toBeUndefined();
    });

    it("all() lists every installation by key, without tokens", async () => {
      const s = await backend.open();
      await s.installations.storeInstallation(teamInstall("T0B"));
      s.clock.now = NOW + 1;
      await s.installations.storeInstallation(orgInstall("E0A"));
      await s.installations.storeInstallation(teamInstall("T0A"));
      expect(await s.installations.all()).toEqual([
        {
          key: "E:E0A",
          teamId: undefined,
          enterpriseId: "E0A",
          isEnterpriseInstall: true,
          installedAt: NOW + 1,
        },
        {
          key: "T:T0A",
          teamId: "T0A",
          enterpriseId: undefined,
          isEnterpriseInstall: false,
          installedAt: NOW + 1,
        },
        {
          key: "T:T0B",
          teamId: "T0B",
          enterpriseId: undefined,
          isEnterpriseInstall: false,
          installedAt: NOW,
        },
      ]);
    });
  });

  describe("uninstalling", () => {
    it("deleteInstallation removes exactly the query's own installation, idempotently", async () => {
      const s = await backend.open();
      await s.installations.storeInstallation(orgInstall("E0GROUP"));
      await s.installations.storeInstallation(teamInstall("T0CARRIER"));
      await s.installations.deleteInstallation(teamQuery("T0CARRIER"));
      await s.installations.deleteInstallation(teamQuery("T0CARRIER"));
      await expect(s.installations.fetchInstallation(teamQuery("T0CARRIER"))).rejects.toThrow(
        InstallationNotFoundError,
      );
      // A workspace-level query never deletes its org's org-wide install.
      await s.installations.deleteInstallation(teamQuery("T0DEPOT", "E0GROUP"));
      expect((await s.installations.all()).map((ref) => ref.key)).toEqual(["E:E0GROUP"]);
      await s.installations.deleteInstallation(orgQuery("E0GROUP"));
      expect(await s.installations.all()).toEqual([]);
    });

    it("an uninstall event older than a reinstall keeps the new installation", async () => {
      const s = await backend.open();
      await s.installations.storeInstallation(teamInstall("T0CARRIER"));
      s.clock.now = NOW + 60_000;
      await s.installations.storeInstallation(teamInstall("T0CARRIER", { token: "bot:T0CARRIER-new" }));
      // The uninstall happened at NOW + 30 s but is delivered after the reinstall.
      expect(await s.installations.deleteIfInstalledBefore(teamQuery("T0CARRIER"), NOW + 30_000)).toBe(false);
      expect((await s.installations.fetchInstallation(teamQuery("T0CARRIER"))).bot?.token).toBe(
        "bot:T0CARRIER-new",
      );
      // An uninstall of the current installation deletes it, once.
      expect(await s.installations.deleteIfInstalledBefore(teamQuery("T0CARRIER"), NOW + 90_000)).toBe(true);
      expect(await s.installations.deleteIfInstalledBefore(teamQuery("T0CARRIER"), NOW + 90_000)).toBe(false);
      expect(await s.installations.all()).toEqual([]);
    });

    it("an uninstall event older than a re-authorization keeps it, though the first install is older", async () => {
      const s = await backend.open();
      await s.installations.storeInstallation(teamInstall("T0CARRIER"));
      s.clock.now = NOW + 60_000;
      await s.installations.storeInstallation(
        teamInstall("T0CARRIER", { token: "bot:T0CARRIER-new", user: "U0B" }),
      );
      expect(await s.installations.deleteIfInstalledBefore(teamQuery("T0CARRIER"), NOW + 30_000)).toBe(false);
      expect(await s.installations.installedAt(teamQuery("T0CARRIER"))).toBe(NOW);
      expect(await s.installations.deleteIfInstalledBefore(teamQuery("T0CARRIER"), NOW + 60_000)).toBe(true);
    });

    it("deleteIfInstalledBefore: the same instant deletes; an org-wide uninstall needs the org query", async () => {
      const s = await backend.open();
      await s.installations.storeInstallation(orgInstall("E0GROUP"));
      expect(await s.installations.deleteIfInstalledBefore(teamQuery("T0DEPOT", "E0GROUP"), NOW + 1000)).toBe(
        false,
      );
      expect(await s.installations.deleteIfInstalledBefore(orgQuery("E0GROUP"), NOW - 1)).toBe(false);
      expect(await s.installations.deleteIfInstalledBefore(orgQuery("E0GROUP"), NOW)).toBe(true);
      expect(await s.installations.installedAt(orgQuery("E0GROUP"))).toBeUndefined();
    });
  });

  describe("token rotation", () => {
    it("updateBotToken replaces the bot token, keeps the installation time and the rest", async () => {
      const s = await backend.open();
      const installation = teamInstall("T0CARRIER", { rotation: true });
      await s.installations.storeInstallation(installation);
      s.clock.now = NOW + 3_600_000;
      const rotated = {
        token: "rotating-bot:1-rotated-0002",
        refreshToken: "refresh:1-refresh-0002",
        expiresAt: 1_800_043_200,
      };
      expect(await s.installations.updateBotToken("T:T0CARRIER", rotated, { authorizedAt: NOW })).toBe(true);
      const fetched = await s.installations.fetchInstallation(teamQuery("T0CARRIER"));
      expect(fetched).toEqual({
        ...installation,
        bot: {
          ...installation.bot,
          token: rotated.token,
          refreshToken: rotated.refreshToken,
          expiresAt: rotated.expiresAt,
        },
      });
      expect(await s.installations.installedAt(teamQuery("T0CARRIER"))).toBe(NOW);
      expect(await s.rawContains("rotated-0002")).toBe(false);
      expect(await s.rawContains("refresh-0002")).toBe(false);
      // Not for another installation than the one read, nor for none.
      expect(await s.installations.updateBotToken("T:T0CARRIER", rotated, { authorizedAt: NOW - 5 })).toBe(
        false,
      );
      expect(await s.installations.updateBotToken("T:T0NONE", rotated)).toBe(false);
    });

    it("InstallProvider's refresh (the fetched installation stored with new tokens) keeps installedAt", async () => {
      const s = await backend.open();
      await s.installations.storeInstallation(teamInstall("T0CARRIER", { rotation: true }));
      s.clock.now = NOW + 3_600_000;
      // What InstallProvider.authorize() does: a shallow copy whose `bot` it changed in place.
      const fetched = await s.installations.fetchInstallation(teamQuery("T0CARRIER"));
      const updates = { ...fetched };
      if (!updates.bot) throw new Error("no bot");
      updates.bot.token = "rotating-bot:1-refreshed";
      updates.bot.refreshToken = "refresh:1-refreshed";
      updates.bot.expiresAt = 1_800_050_000;
      await s.installations.storeInstallation(updates);
      const after = await s.installations.fetchInstallation(teamQuery("T0CARRIER"));
      expect(after.bot).toMatchObject({
        token: "rotating-bot:1-refreshed",
        refreshToken: "refresh:1-refreshed",
      });
      expect(await s.installations.installedAt(teamQuery("T0CARRIER"))).toBe(NOW);
      // So an uninstall that happened before the refresh still deletes it.
      expect(await s.installations.deleteIfInstalledBefore(teamQuery("T0CARRIER"), NOW + 1000)).toBe(true);
    });

    it("a refresh that lands after an uninstall or a reinstall changes nothing", async () => {
      const s = await backend.open();
      await s.installations.storeInstallation(teamInstall("T0CARRIER", { rotation: true }));
      const stale = { ...(await s.installations.fetchInstallation(teamQuery("T0CARRIER"))) };
      if (!stale.bot) throw new Error("no bot");
      stale.bot.token = "rotating-bot:stale";
      await s.installations.deleteInstallation(teamQuery("T0CARRIER"));
      await s.installations.storeInstallation(stale);
      expect(await s.installations.all()).toEqual([]);

      s.clock.now = NOW + 1000;
      await s.installations.storeInstallation(
        teamInstall("T0CARRIER", { token: "bot:T0CARRIER-reinstalled" }),
      );
      await s.installations.storeInstallation(stale);
      expect((await s.installations.fetchInstallation(teamQuery("T0CARRIER"))).bot?.token).toBe(
        "bot:T0CARRIER-reinstalled",
      );
    });

    it("a refresh or rotation of the tokens read before a re-authorization changes nothing", async () => {
      const s = await backend.open();
      await s.installations.storeInstallation(teamInstall("T0CARRIER", { rotation: true }));
      const stale = { ...(await s.installations.fetchInstallation(teamQuery("T0CARRIER"))) };
      if (!stale.bot) throw new Error("no bot");
      stale.bot.token = "rotating-bot:stale";
      s.clock.now = NOW + 1000;
      await s.installations.storeInstallation(
        teamInstall("T0CARRIER", { token: "bot:T0CARRIER-reauthorized", user: "U0MEMBER" }),
      );
      await s.installations.storeInstallation(stale);
      const rotated = { token: "rotating-bot:late", refreshToken: "refresh:late", expiresAt: 1_800_000_001 };
      expect(await s.installations.updateBotToken("T:T0CARRIER", rotated, { authorizedAt: NOW })).toBe(false);
      expect((await s.installations.fetchInstallation(teamQuery("T0CARRIER"))).bot?.token).toBe(
        "bot:T0CARRIER-reauthorized",
      );
      // A rotation of the current authorization keeps the four.
      expect(await s.installations.updateBotToken("T:T0CARRIER", rotated, { authorizedAt: NOW + 1000 })).toBe(
        true,
      );
      expect(await s.installations.record(teamQuery("T0CARRIER"))).toEqual({
        installedAt: NOW,
        installedBy: "U0INSTALLER",
        authorizedAt: NOW + 1000,
        authorizedBy: "U0MEMBER",
      });
    });
  });

  describe("the key", () => {
    it("another CREDENTIALS_KEY cannot open the tokens; without one nothing is stored", async () => {
      const s = await backend.open();
      await s.installations.storeInstallation(teamInstall("T0CARRIER"));
      await s.installations.storeInstallation(orgInstall("E0GROUP"));
      const changed = s.replica({ key: randomBytes(32) });
      await expect(changed.installations.fetchInstallation(teamQuery("T0CARRIER"))).rejects.toThrow(
        InstallationUnreadableError,
      );
      await expect(changed.installations.fetchInstallation(orgQuery("E0GROUP"))).rejects.toThrow(
        InstallationUnreadableError,
      );
      expect((await changed.installations.unreadable()).map((ref) => ref.key)).toEqual([
        "E:E0GROUP",
        "T:T0CARRIER",
      ]);
      expect(await s.installations.unreadable()).toEqual([]);
      // Who is installed is still known without the key (uninstall and cleanup work).
      expect(await changed.installations.installedAt(teamQuery("T0CARRIER"))).toBe(NOW);

      const none = s.replica({ key: undefined });
      expect(none.installations.canStore).toBe(false);
      await expect(none.installations.storeInstallation(teamInstall("T0NEW"))).rejects.toThrow(
        CredentialsKeyMissingError,
      );
      await expect(none.installations.fetchInstallation(teamQuery("T0CARRIER"))).rejects.toThrow(
        InstallationUnreadableError,
      );
      expect(await s.installations.installedAt(teamQuery("T0NEW"))).toBeUndefined();
    });
  });

  describe.runIf(name === "redis")("the migration from SQLite", () => {
    it("copies sealed installations without the key; one already in Redis is kept", async () => {
      const key = randomBytes(32);
      const s = await backend.open({ key });
      const dir = mkdtempSync(join(tmpdir(), "fleetbot-install-migrate-"));
      const db = openDatabase(dir);
      try {
        const sqlite = new SqliteInstallationStore(db, key, () => NOW - 1000);
        await sqlite.storeInstallation(teamInstall("T0OLD", { rotation: true }));
        await sqlite.storeInstallation(orgInstall("E0GROUP"));
        await s.installations.storeInstallation(
          teamInstall("T0OLD", { token: "bot:T0OLD-already-in-redis" }),
        );
        const target = s.migrationTarget;
        if (!target) throw new Error("not the Redis store");
        const copied: boolean[] = [];
        for (const sealed of readSealedInstallations(db))
          copied.push(await target.importInstallation(sealed));
        expect(copied).toEqual([true, false]);
        expect(await s.installations.fetchInstallation(orgQuery("E0GROUP"))).toEqual(orgInstall("E0GROUP"));
        expect(await s.installations.installedAt(orgQuery("E0GROUP"))).toBe(NOW - 1000);
        expect((await s.installations.fetchInstallation(teamQuery("T0OLD"))).bot?.token).toBe(
          "bot:T0OLD-already-in-redis",
        );
      } finally {
        db.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
