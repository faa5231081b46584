/**
 * fleetbot posts only to response_urls on Slack's hosts (or SLACK_API_URL's host): the rule
 * itself, a correctly signed request carrying a stranger's URL (nothing posted there, no task),
 * and a stored task whose URL is a stranger's (its answer goes to the user's DM instead).
 */
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { responseUrlAllowed, responseUrlsOf } from "../../../src/platform/slack/responseUrlPolicy.js";
import { type BotHarness, startBotHarness } from "../../helpers/botHarness.js";

describe("responseUrlAllowed", () => {
  const api = "http://127.0.0.1:4545/api/";
  it.each([
    ["https://hooks.slack.com/commands/T1/1/abc", undefined, true],
    ["https://hooks.slack-gov.com/actions/T1/1/abc", undefined, true],
    ["http://hooks.slack.com/commands/T1/1/abc", undefined, false],
    ["https://hooks.slack.com.evil.example/x", undefined, false],
    ["https://evilslack.com/x", undefined, false],
    ["https://hooks.slack.com@evil.example/x", undefined, false],
    ["https://user:pw@hooks.slack.com/x", undefined, false],
    ["not a url", undefined, false],
    ["http://127.0.0.1:4545/hooks/T1/1/abc", api, true],
    ["http://127.0.0.1:4546/hooks/T1/1/abc", api, false],
    ["https://127.0.0.1:4545/hooks/T1/1/abc", api, false],
    ["http://localhost:4545/hooks/x", api, false],
  ])("%s (api %s) → %s", (url, apiUrl, allowed) => {
    expect(responseUrlAllowed(url, apiUrl)).toBe(allowed);
  });

  it("reads a command's, an action's and a view submission's URLs", () => {
    expect(responseUrlsOf({ response_url: "a" })).toEqual(["a"]);
    expect(responseUrlsOf({ response_urls: [{ response_url: "b" }, { channel_id: "C" }] })).toEqual(["b"]);
    expect(responseUrlsOf({ type: "block_suggestion" })).toEqual([]);
    expect(responseUrlsOf(null)).toEqual([]);
  });
});

describe("a stranger's response_url, end to end", () => {
  let h: BotHarness;
  let stranger: Server;
  let strangerUrl: string;
  const received: string[] = [];
  const USER = "U0DISPATCH";
  const CHANNEL = "C0GENERAL";

  beforeAll(async () => {
    h = await startBotHarness();
    stranger = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        received.push(body);
        res.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((resolve) => stranger.listen(0, "127.0.0.1", resolve));
    strangerUrl = `http://127.0.0.1:${(stranger.address() as { port: number }).port}/hooks/steal`;
  });
  afterAll(async () => {
    await h.close();
    await new Promise((resolve) => stranger.close(resolve));
  });

  it("a signed command whose response_url is a stranger's runs nothing and posts nothing there", async () => {
    await h.settle();
    const since = Date.now();
    const o = h.fake.options;
    const plate = h.bot.simulator!.vehicles[1]!.plate;
    const body = new URLSearchParams({
      token: o.verificationToken,
      team_id: o.teamId,
      team_domain: o.teamDomain,
      channel_id: CHANNEL,
      channel_name: "general",
      user_id: USER,
      user_name: "dispatch",
      command: "/fleet",
      text: `where ${plate}`,
      api_app_id: o.appId,
      response_url: strangerUrl,
      trigger_id: h.fake.issueTriggerId(USER),
    }).toString();
    const result = await h.driver.rawPost(body, h.driver.sign(body));
    expect(result.status).toBe(200);
    expect(result.body ?? "").toBe("");
    await h.settle();
    expect((await h.bot.tasks.recent("demo", 50)).filter((t) => t.createdAt >= since)).toEqual([]);
    expect(received).toEqual([]);
  });

  it("a stored task whose response_url is a stranger's is answered by DM, never there", async () => {
    const plate = h.bot.simulator!.vehicles[1]!.plate;
    await h.driver.slashCommand({ userId: USER, channelId: CHANNEL, text: `where ${plate}` });
    await h.settle();
    const [task] = await h.bot.tasks.recent("demo", 1);
    expect(task).toBeDefined();
    const forged = {
      ...task!,
      id: `${task!.id}-forged`,
      reply: { ...task!.reply, responseUrl: strangerUrl },
    };
    const dms = h.fake.calls.filter((c) => c.method === "chat.postMessage").length;
    const where = await h.bot.delivery.send(forged, { text: "the answer", blocks: [] });
    expect(where).toBe("dm");
    expect(h.fake.calls.filter((c) => c.method === "chat.postMessage").length).toBe(dms + 1);
    expect(received).toEqual([]);
  });
});
