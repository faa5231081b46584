/**
 * The request rules of CONTRACT.md (HTTP endpoints), over real HTTP against the real bot:
 * timestamps refused both ways, a charset in the content type accepted, and a Slack retry or
 * an exact resend of one signed request making one task and one upstream call, not two.
 */
import { request } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type BotHarness, startBotHarness } from "../../helpers/botHarness.js";

let h: BotHarness;
const USER = "U0DISPATCH";
const CHANNEL = "C0GENERAL";

beforeAll(async () => {
  h = await startBotHarness();
});
afterAll(async () => {
  await h.close();
});
afterEach(() => {
  expect(h.fake.violations).toEqual([]);
  h.fake.reset();
});

/** A slash command's form body as Slack sends it (a fresh response_url and trigger each time). */
function commandBody(text: string): string {
  const o = h.fake.options;
  return new URLSearchParams({
    token: o.verificationToken,
    team_id: o.teamId,
    team_domain: o.teamDomain,
    channel_id: CHANNEL,
    channel_name: "general",
    user_id: USER,
    user_name: "dispatch",
    command: "/fleet",
    text,
    api_app_id: o.appId,
    response_url: h.fake.issueResponseUrl(CHANNEL, USER),
    trigger_id: h.fake.issueTriggerId(USER),
  }).toString();
}

const nowSec = () => Math.floor(Date.now() / 1000);
const plate = () => h.bot.simulator!.vehicles[3]!.plate;
const tasksSince = async (since: number) =>
  (await h.bot.tasks.recent("demo", 100)).filter((t) => t.createdAt >= since);
/** Upstream stops calls recorded by the simulator since `since` requests had been recorded. */
const stopsCalls = () =>
  h.bot.simulator!.control.requests(500).filter((r) => r.endpoint !== null && /stop/i.test(r.endpoint))
    .length;

/**
 * POST with the path written as given (node:http sends a `path` option as is; a URL string or
 * fetch would normalise it), the way any client can: status of the answer.
 */
function postRaw(path: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const bot = new URL(h.bot.url);
    const req = request(
      {
        host: bot.hostname,
        port: bot.port,
        path,
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("POST /slack/events request rules", () => {
  it("an exact resend of one signed command makes one task and one upstream call", async () => {
    await h.settle();
    const since = Date.now();
    const callsBefore = stopsCalls();
    const body = commandBody(`stops ${plate()} yesterday`);
    const headers = h.driver.sign(body);
    const first = await h.driver.rawPost(body, headers);
    const resent = await h.driver.rawPost(body, headers);
    expect(first.status).toBe(200);
    expect(resent.status).toBe(200);
    // The resend is answered empty: the first ack's message stays what the user sees.
    expect(resent.body).toBeUndefined();
    await h.settle();
    expect(await tasksSince(since)).toHaveLength(1);
    expect(stopsCalls() - callsBefore).toBe(1);
  });

  it("Slack's retry of a command (X-Slack-Retry-Num, new timestamp) makes no second task", async () => {
    await h.settle();
    const since = Date.now();
    const body = commandBody(`stops ${plate()} yesterday`);
    const first = await h.driver.rawPost(body, h.driver.sign(body, nowSec() - 2));
    const retry = await h.driver.rawPost(body, {
      ...h.driver.sign(body, nowSec()),
      "x-slack-retry-num": "1",
      "x-slack-retry-reason": "http_timeout",
    });
    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    await h.settle();
    expect(await tasksSince(since)).toHaveLength(1);
  });

  it("refuses a timestamp 6 minutes ahead with 401, and nothing happens", async () => {
    await h.settle();
    const since = Date.now();
    const body = commandBody(`where ${plate()}`);
    const ahead = await h.driver.rawPost(body, h.driver.sign(body, nowSec() + 6 * 60));
    expect(ahead.status).toBe(401);
    // Refused requests are not remembered: the same body, correctly timed, still runs.
    const onTime = await h.driver.rawPost(body, h.driver.sign(body));
    expect(onTime.status).toBe(200);
    await h.settle();
    expect(await tasksSince(since)).toHaveLength(1);
  });

  it("refuses a bad signature even within the window, and remembers nothing of it", async () => {
    await h.settle();
    const since = Date.now();
    const body = commandBody(`where ${plate()}`);
    const good = h.driver.sign(body);
    const forged = await h.driver.rawPost(body, { ...good, "x-slack-signature": `v0=${"0".repeat(64)}` });
    expect(forged.status).toBe(401);
    expect((await h.driver.rawPost(body, good)).status).toBe(200);
    await h.settle();
    expect(await tasksSince(since)).toHaveLength(1);
  });

  it("holds for every spelling of the path that Bolt reads as /slack/events (dot segments, backslash, fragment, absolute form)", async () => {
    await h.settle();
    const since = Date.now();
    // Bolt routes on new URL(path).pathname: each of these reaches its Slack endpoint.
    const spellings = [
      "/slack/./events",
      "/slack/x/../events",
      "/slack\\events",
      "/slack/events#x",
      "http://elsewhere.example/slack/events",
    ];
    for (const path of spellings) {
      const body = commandBody(`where ${plate()}`);
      // Six minutes ahead: refused whatever the spelling.
      expect(await postRaw(path, body, h.driver.sign(body, nowSec() + 6 * 60))).toBe(401);
    }
    const body = commandBody(`where ${plate()}`);
    const headers = h.driver.sign(body);
    expect(await postRaw("/slack/events", body, headers)).toBe(200);
    // The exact resend under another spelling is still a resend: answered empty, no second task.
    for (const path of spellings) expect(await postRaw(path, body, headers)).toBe(200);
    await h.settle();
    expect(await tasksSince(since)).toHaveLength(1);
  });

  it("accepts application/x-www-form-urlencoded; charset=utf-8", async () => {
    await h.settle();
    const since = Date.now();
    const body = commandBody(`where ${plate()}`);
    const result = await h.driver.rawPost(body, {
      ...h.driver.sign(body),
      "content-type": "application/x-www-form-urlencoded; charset=utf-8",
    });
    expect(result.status).toBe(200);
    expect(JSON.stringify(result.body)).toContain("hourglass");
    await h.settle();
    expect(await tasksSince(since)).toHaveLength(1);
  });

  it("answers identical options requests (block_suggestion) each time", async () => {
    const payload = {
      type: "block_suggestion",
      user: { id: USER, name: "dispatch", team_id: h.fake.options.teamId },
      team: { id: h.fake.options.teamId, domain: h.fake.options.teamDomain },
      api_app_id: h.fake.options.appId,
      token: h.fake.options.verificationToken,
      action_id: "vehicles",
      block_id: "report.vehicles",
      value: "",
      view: {
        id: "V0NONE",
        type: "modal",
        callback_id: "report",
        private_metadata: "",
        state: { values: {} },
      },
    };
    const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    const first = await h.driver.rawPost(body, h.driver.sign(body));
    const second = await h.driver.rawPost(body, h.driver.sign(body));
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(JSON.stringify(second.body)).toContain("options");
  });
});

// The resend memory's own rules (5-minute window, size bound) are in test/platform/store/sharedState.test.ts.
