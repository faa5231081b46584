/**
 * Multi-workspace mode before and around installs: /healthz depends on no workspace's token, the
 * public pages are served, /slack/install hands out a signed state, and a signed request from a
 * team that never installed fleetbot has no effect.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type MultiWorkspaceHarness,
  startMultiWorkspaceHarness,
  TEAM_B,
} from "../../helpers/multiWorkspaceHarness.js";

let h: MultiWorkspaceHarness;
beforeAll(async () => {
  h = await startMultiWorkspaceHarness();
});
afterAll(async () => {
  await h.close();
});

describe("multi-workspace mode, its public side", () => {
  it("is healthy with no workspace installed: /healthz depends on no one workspace's token", async () => {
    const res = await fetch(`${h.bot.url}/healthz`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { ok: boolean; slack: string };
    expect(body).toMatchObject({ ok: true, slack: "multi-workspace" });
    // No auth.test was made with anyone's token.
    expect(h.fake.calls.filter((c) => c.method === "auth.test")).toEqual([]);
  });

  it("serves the landing and privacy pages, and no sandbox page", async () => {
    const landing = await fetch(`${h.bot.url}/`);
    expect(landing.status).toBe(200);
    expect(landing.headers.get("content-type")).toMatch(/text\/html/);
    const html = await landing.text();
    expect(html).toContain('href="/slack/install"');
    expect(html).toContain('href="/privacy"');
    const privacy = await (await fetch(`${h.bot.url}/privacy`)).text();
    expect(privacy.replace(/\s+/g, " ")).toMatch(/within a minute/);
    expect((await fetch(`${h.bot.url}/api/state`)).status).toBe(404);
  });

  it("/slack/install redirects to Slack's authorize page with a signed state and the manifest's scopes", async () => {
    const res = await fetch(`${h.bot.url}/slack/install`, { redirect: "manual" });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(h.fake.authorizeUrl);
    expect(location.searchParams.get("state")).toMatch(/\S{20,}/);
    expect(location.searchParams.get("client_id")).toBe(h.fake.options.oauth.clientId);
    expect(res.headers.get("set-cookie")).toMatch(/slack-app-oauth-state=/);
  });

  it("a signed command from a team that never installed fleetbot changes nothing and queues nothing", async () => {
    const before = await h.bot.tasks.countUnfinished();
    const result = await h.driverB.slashCommand({
      command: "/fleet",
      text: "vehicles",
      userId: "U0SECDISP",
      channelId: "C0SECGENERAL",
    });
    expect(result.status).toBe(200);
    await h.settle();
    expect(await h.bot.tasks.countUnfinished()).toBe(before);
    expect(h.driverB.workspace.messages("C0SECGENERAL")).toEqual([]);
    expect(TEAM_B).toBe("T0SECOND");
  });
});
