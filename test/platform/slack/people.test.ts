import type { WebClient } from "@slack/web-api";
import { describe, expect, it } from "vitest";
import { People } from "../../../src/platform/slack/people.js";
import type { AccountRepository } from "../../../src/platform/store/contract/index.js";
import { WORKSPACE_ACCOUNT_USER } from "../../../src/platform/workspaces/workspace.js";

const TA = "T:TALPHA01";
const TB = "T:TBRAVO02";

/** Links by (workspace, user), as the account store keeps them; only usernameOf is read here. */
function accounts(links: Record<string, string>): AccountRepository {
  return {
    usernameOf: async (workspace: string, slackUser: string) => links[`${workspace}|${slackUser}`],
  } as unknown as AccountRepository;
}

/** A Slack whose users.info answers with each workspace's own zone for the same user id. */
function slack(zones: Record<string, string | undefined>) {
  const asked: string[] = [];
  const client = (name: string) =>
    ({
      users: {
        info: async ({ user }: { user: string }) => {
          asked.push(`${name}:${user}`);
          return { ok: true, user: { id: user, tz: zones[`${name}:${user}`] } };
        },
      },
    }) as unknown as WebClient;
  return { asked, client };
}

describe("People", () => {
  it("caches zones per workspace: the same user id in two workspaces is two people", async () => {
    const people = new People({ accounts: accounts({}), companyTimeZone: "Europe/Bucharest", now: () => 0 });
    const { asked, client } = slack({ "a:U1": "America/New_York", "b:U1": "Asia/Tokyo" });
    expect(await people.settleZone(client("a"), "U1", TA)).toEqual({ zone: "America/New_York" });
    expect(people.zoneAtAck("U1", TA)).toBe("America/New_York");
    expect(people.zoneAtAck("U1", TB)).toBe("Europe/Bucharest");
    expect(people.zoneAtAck("U1")).toBe("Europe/Bucharest");
    expect(await people.timeZoneOf(client("b"), "U1", TB)).toBe("Asia/Tokyo");
    expect(people.zoneAtAck("U1", TA)).toBe("America/New_York");
    // Cached: no second users.info for either.
    await people.settleZone(client("a"), "U1", TA);
    await people.settleZone(client("b"), "U1", TB);
    expect(asked).toEqual(["a:U1", "b:U1"]);
  });

  it("the single workspace is the default, as before workspaces", async () => {
    const people = new People({ accounts: accounts({}), companyTimeZone: "Europe/Bucharest", now: () => 0 });
    const { client } = slack({ "s:U1": "Europe/London" });
    expect(await people.settleZone(client("s"), "U1")).toEqual({ zone: "Europe/London" });
    expect(people.zoneAtAck("U1", "")).toBe("Europe/London");
    expect(people.zoneAtAck("U1", TA)).toBe("Europe/Bucharest");
  });

  it("forgetWorkspace drops that workspace's zones only", async () => {
    const people = new People({ accounts: accounts({}), companyTimeZone: "Europe/Bucharest", now: () => 0 });
    const { asked, client } = slack({
      "a:U1": "America/New_York",
      "b:U1": "Asia/Tokyo",
      "s:U1": "Europe/London",
    });
    await people.settleZone(client("a"), "U1", TA);
    await people.settleZone(client("b"), "U1", TB);
    await people.settleZone(client("s"), "U1");
    people.forgetWorkspace(TA);
    expect(people.zoneAtAck("U1", TA)).toBe("Europe/Bucharest");
    expect(people.zoneAtAck("U1", TB)).toBe("Asia/Tokyo");
    expect(people.zoneAtAck("U1")).toBe("Europe/London");
    // Asked again after being forgotten.
    expect(await people.timeZoneOf(client("a"), "U1", TA)).toBe("America/New_York");
    expect(asked).toEqual(["a:U1", "b:U1", "s:U1", "a:U1"]);
    people.forgetWorkspace("T:TNEVER00");
  });

  it("a late users.info answer for a forgotten workspace does not bring its zone back", async () => {
    let answer: (tz: string) => void = () => {};
    const client = {
      users: {
        info: () =>
          new Promise((resolve) => {
            answer = (tz) => resolve({ ok: true, user: { tz } });
          }),
      },
    } as unknown as WebClient;
    const people = new People({
      accounts: accounts({}),
      companyTimeZone: "Europe/Bucharest",
      now: () => 0,
      zoneWaitMs: 1,
    });
    expect(await people.settleZone(client, "U1", TA)).toMatchObject({ zone: "Europe/Bucharest" });
    people.forgetWorkspace(TA);
    answer("Asia/Tokyo");
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(people.zoneAtAck("U1", TA)).toBe("Europe/Bucharest");
  });

  describe("accountOf", () => {
    const links = accounts({
      "|U1": "own-single@example.ro",
      [`${TA}|U1`]: "own-alpha@example.ro",
      [`${TA}|${WORKSPACE_ACCOUNT_USER}`]: "alpha-ws@example.ro",
    });

    it("an installed workspace: the user's own link there, else that workspace's account, never another's", async () => {
      const people = new People({
        accounts: links,
        workspaceAccount: { username: "configured@example.ro" },
        companyTimeZone: "Europe/Bucharest",
      });
      expect(await people.accountOf("U1", TA)).toEqual({ username: "own-alpha@example.ro", linked: true });
      expect(await people.accountOf("U2", TA)).toEqual({ username: "alpha-ws@example.ro", linked: false });
      // Workspace B set no account: its users must link one (the configured one is single mode's).
      expect(await people.accountOf("U1", TB)).toBeUndefined();
    });

    it("single-workspace mode: the user's own link, else the configured workspace account", async () => {
      const people = new People({
        accounts: links,
        workspaceAccount: { username: "configured@example.ro" },
        companyTimeZone: "Europe/Bucharest",
      });
      expect(await people.accountOf("U1")).toEqual({ username: "own-single@example.ro", linked: true });
      expect(await people.accountOf("U2", "")).toEqual({ username: "configured@example.ro", linked: false });
      const none = new People({ accounts: links, companyTimeZone: "Europe/Bucharest" });
      expect(await none.accountOf("U2")).toBeUndefined();
    });
  });
});
