import { describe, expect, it } from "vitest";
import {
  FleetAccounts,
  type FleetCredentials,
  type LinkedCredentials,
} from "../../../src/platform/accounts/fleetAccounts.js";
import type { FleetClient } from "../../../src/platform/fleet/client.js";
import { LinkedAccountUnreadableError } from "../../../src/platform/store/contract/index.js";
import { WORKSPACE_ACCOUNT_USER } from "../../../src/platform/workspaces/workspace.js";

const TA = "T:TALPHA01";
const TB = "T:TBRAVO02";

/** Links by "workspace|user"; credentialsOf: any link of the username (the store's rule). */
function linked(links: Record<string, FleetCredentials | "unreadable">): LinkedCredentials {
  return {
    get: async (workspace, slackUser) => {
      const link = links[`${workspace}|${slackUser}`];
      if (link === "unreadable") throw new LinkedAccountUnreadableError(slackUser, "?", workspace);
      return link;
    },
    credentialsOf: async (username) =>
      Object.values(links).find((l): l is FleetCredentials => l !== "unreadable" && l.username === username),
    isLinked: async (username) =>
      Object.values(links).some((l) => l !== "unreadable" && l.username === username),
  };
}

/** A client whose sessions say which credentials opened them. */
const client = {
  session: (credentials: FleetCredentials) => ({
    account: credentials.username,
    credentials,
    tokens: { passwordSuperseded: async () => false },
  }),
} as unknown as FleetClient;

const passwordOf = async (fleet: FleetAccounts, actor: Parameters<FleetAccounts["sessionFor"]>[0]) =>
  ((await fleet.sessionFor(actor)) as unknown as { credentials: FleetCredentials }).credentials.password;

describe("FleetAccounts.sessionFor", () => {
  const links = linked({
    "|U1": { username: "own@example.ro", password: "single-own" },
    [`${TA}|U1`]: { username: "own@example.ro", password: "alpha-own" },
    [`${TA}|${WORKSPACE_ACCOUNT_USER}`]: { username: "alpha-ws@example.ro", password: "alpha-ws" },
    [`${TB}|U9`]: { username: "bravo@example.ro", password: "bravo-U9" },
  });
  const fleet = new FleetAccounts({
    client,
    linked: links,
    workspaceAccount: { username: "configured@example.ro", password: "configured" },
    vehicleCacheTtlMs: 60_000,
  });

  it("uses the actor's own link in their workspace (default: the single workspace)", async () => {
    expect(await passwordOf(fleet, { account: "own@example.ro", slackUser: "U1" })).toBe("single-own");
    expect(await passwordOf(fleet, { account: "own@example.ro", slackUser: "U1", workspace: "" })).toBe(
      "single-own",
    );
    expect(await passwordOf(fleet, { account: "own@example.ro", slackUser: "U1", workspace: TA })).toBe(
      "alpha-own",
    );
  });

  it("falls back to the workspace account: configured in single mode, the workspace's link otherwise", async () => {
    expect(await passwordOf(fleet, { account: "configured@example.ro", slackUser: "U2" })).toBe("configured");
    expect(await passwordOf(fleet, { account: "alpha-ws@example.ro", slackUser: "U2", workspace: TA })).toBe(
      "alpha-ws",
    );
    // An installed workspace never acts as the configured account, nor as another workspace's.
    await expect(
      fleet.sessionFor({ account: "configured@example.ro", slackUser: "U2", workspace: TA }),
    ).rejects.toThrow(/No credentials for fleet account configured@example.ro/);
    await expect(
      fleet.sessionFor({ account: "alpha-ws@example.ro", slackUser: "U2", workspace: TB }),
    ).rejects.toThrow(/No credentials/);
    // A user acts only as their own link, not someone else's in the workspace.
    await expect(
      fleet.sessionFor({ account: "bravo@example.ro", slackUser: "U2", workspace: TB }),
    ).rejects.toThrow(/No credentials/);
  });

  it("an actor with no Slack user (an alert sweep) may use any readable link of the account", async () => {
    expect(await passwordOf(fleet, { account: "configured@example.ro" })).toBe("configured");
    expect(await passwordOf(fleet, { account: "bravo@example.ro" })).toBe("bravo-U9");
    expect(await passwordOf(fleet, { account: "alpha-ws@example.ro", workspace: TA })).toBe("alpha-ws");
    expect(await passwordOf(fleet, { account: "bravo@example.ro", workspace: TA })).toBe("bravo-U9");
    await expect(fleet.sessionFor({ account: "nobody@example.ro" })).rejects.toThrow(/No credentials/);
  });

  it("a workspace account the key cannot open is said as such", async () => {
    const broken = new FleetAccounts({
      client,
      linked: linked({ [`${TA}|${WORKSPACE_ACCOUNT_USER}`]: "unreadable" }),
      vehicleCacheTtlMs: 60_000,
    });
    await expect(broken.sessionFor({ account: "x", slackUser: "U2", workspace: TA })).rejects.toThrow(
      LinkedAccountUnreadableError,
    );
  });
});
