/**
 * The fake Web API against Slack's documented behaviour, through the official client
 * (@slack/web-api) so that request encoding and answer parsing are the real ones.
 */
import { LogLevel, WebClient } from "@slack/web-api";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeSlack, RESPONSE_URL_TTL_MS, startFakeSlack } from "../../src/sandbox/fakeSlack/index.js";

/** 2026-07-01T09:00:00Z: summer time in Bucharest (+3) and New York (-4). */
const START = Date.UTC(2026, 6, 1, 9, 0, 0);
let clock = START;
const silent = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  setName: () => {},
};
let fake: FakeSlack;
let client: WebClient;

function clientFor(token: string): WebClient {
  return new WebClient(token, {
    slackApiUrl: fake.apiUrl,
    // Rejections are asserted here; the client's own error log would only be noise.
    logger: { ...silent, getLevel: () => LogLevel.ERROR },
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  });
}

/** The Slack error code of a failed call (WebClient throws a platform error carrying data.error). */
async function slackError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const data = (error as { data?: { error?: string } }).data;
    return data?.error ?? (error as { code?: string }).code ?? String(error);
  }
  throw new Error("expected the call to fail");
}

const modal = (title = "Report") => ({
  type: "modal" as const,
  callback_id: "report",
  title: { type: "plain_text" as const, text: title },
  blocks: [{ type: "section", text: { type: "mrkdwn", text: "Pick a vehicle" } }],
});

beforeAll(async () => {
  fake = await startFakeSlack({ now: () => clock });
  client = clientFor(fake.options.botToken);
});

afterAll(async () => {
  await fake.close();
});

afterEach(() => {
  clock = START;
  fake.reset();
});

describe("auth", () => {
  it("auth.test answers the bot identity", async () => {
    const res = await client.auth.test();
    expect(res).toMatchObject({ ok: true, team_id: "T0FLEET", user_id: "U0FLEETBOT", bot_id: "B0FLEETBOT" });
    expect(res.response_metadata?.scopes).toContain("chat:write.public");
  });

  it("a wrong token is invalid_auth, no token is not_authed, the app token is only for Socket Mode", async () => {
    expect(await slackError(clientFor("xoxb-wrong").auth.test())).toBe("invalid_auth");
    const raw = await fetch(`${fake.apiUrl}auth.test`, { method: "POST" });
    expect(raw.status).toBe(200);
    expect(await raw.json()).toEqual({ ok: false, error: "not_authed" });
    expect(await slackError(clientFor(fake.options.appToken).auth.test())).toBe("not_allowed_token_type");
    expect(fake.calls.map((c) => c.error)).toEqual(["invalid_auth", "not_authed", "not_allowed_token_type"]);
  });

  it("an unknown method is unknown_method, still HTTP 200", async () => {
    const res = await fetch(`${fake.apiUrl}chat.fly`, {
      method: "POST",
      headers: { authorization: `Bearer ${fake.options.botToken}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: false, error: "unknown_method" });
  });

  it("the token may come in the form body, and is not recorded", async () => {
    const res = await fetch(`${fake.apiUrl}auth.test`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `token=${fake.options.botToken}`,
    });
    expect(await res.json()).toMatchObject({ ok: true });
    expect(fake.calls[0]?.args).toEqual({});
    // A JSON body's token is not read: JSON posts authenticate with the Authorization header only.
    const json = await fetch(`${fake.apiUrl}auth.test`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: fake.options.botToken }),
    });
    expect(await json.json()).toEqual({ ok: false, error: "not_authed" });
  });
});

describe("chat", () => {
  it("posts, updates (keeping blocks when omitted) and replies in a thread", async () => {
    const blocks = [
      { type: "section", block_id: "s1", text: { type: "mrkdwn", text: "*B-123-ABC* moving" } },
    ];
    const posted = await client.chat.postMessage({ channel: "C0GENERAL", text: "B-123-ABC moving", blocks });
    expect(posted).toMatchObject({
      ok: true,
      channel: "C0GENERAL",
      message: { text: "B-123-ABC moving", blocks },
    });
    const ts = posted.ts ?? "";
    expect(ts).toMatch(/^\d{10}\.\d{6}$/);

    await client.chat.update({ channel: "C0GENERAL", ts, text: "B-123-ABC stopped" });
    const reply = await client.chat.postMessage({
      channel: "C0GENERAL",
      thread_ts: ts,
      text: "stopped at 10:02",
    });

    const [parent, threaded] = fake.messages("C0GENERAL");
    expect(parent).toMatchObject({ ts, text: "B-123-ABC stopped", blocks, replyCount: 1, revisions: 1 });
    expect(threaded).toMatchObject({ ts: reply.ts, threadTs: ts, text: "stopped at 10:02" });
    expect(fake.calls.map((c) => c.method)).toEqual(["chat.postMessage", "chat.update", "chat.postMessage"]);
    expect(fake.calls[0]?.args.blocks).toEqual(blocks);
  });

  it("a user id as channel posts into that user's DM", async () => {
    const res = await client.chat.postMessage({ channel: "U0DISPATCH", text: "hi" });
    expect(res.channel).toBe("D0DISPATCH");
    expect(fake.messages("D0DISPATCH")).toHaveLength(1);
    expect(fake.messages("U0DISPATCH")).toHaveLength(1);
    const dm = await client.conversations.open({ users: "U0NEWYORK" });
    expect(dm.channel?.id).toBe("D0NEWYORK");
  });

  it("postEphemeral is seen by one user only, and cannot be updated with chat.update", async () => {
    const res = await client.chat.postEphemeral({
      channel: "C0GENERAL",
      user: "U0NEWYORK",
      text: "only you",
    });
    expect(res.message_ts).toBeDefined();
    const [message] = fake.messages("C0GENERAL");
    expect(message).toMatchObject({ ephemeral: true, visibleTo: "U0NEWYORK", text: "only you" });
    expect(
      await slackError(client.chat.update({ channel: "C0GENERAL", ts: res.message_ts ?? "", text: "x" })),
    ).toBe("message_not_found");
    expect(
      await slackError(client.chat.postEphemeral({ channel: "G0PRIVATE", user: "U0NEWYORK", text: "x" })),
    ).toBe("user_not_in_channel");
  });

  it("chat:write.public: a public channel works without joining, a private one is not_in_channel", async () => {
    await expect(client.chat.postMessage({ channel: "C0ALERTS", text: "alert" })).resolves.toMatchObject({
      ok: true,
    });
    expect(await slackError(client.chat.postMessage({ channel: "G0PRIVATE", text: "alert" }))).toBe(
      "not_in_channel",
    );
    expect(await slackError(client.chat.postMessage({ channel: "C0NOWHERE", text: "x" }))).toBe(
      "channel_not_found",
    );
    expect(await slackError(client.chat.postMessage({ channel: "C0GENERAL", text: "" }))).toBe("no_text");
  });

  it("deletes, gives permalinks, refuses unknown ts", async () => {
    const { ts = "" } = await client.chat.postMessage({ channel: "C0GENERAL", text: "x" });
    const link = await client.chat.getPermalink({ channel: "C0GENERAL", message_ts: ts });
    expect(link.permalink).toBe(`https://fleet-sandbox.slack.com/archives/C0GENERAL/p${ts.replace(".", "")}`);
    await client.chat.delete({ channel: "C0GENERAL", ts });
    expect(fake.messages("C0GENERAL")).toEqual([]);
    expect(await slackError(client.chat.update({ channel: "C0GENERAL", ts, text: "y" }))).toBe(
      "message_not_found",
    );
  });

  it("a payload over a limit is rejected with Slack's error and recorded as a violation", async () => {
    const blocks = Array.from({ length: 51 }, () => ({ type: "divider" }));
    const error = await slackError(client.chat.postMessage({ channel: "C0GENERAL", text: "x", blocks }));
    expect(error).toBe("invalid_blocks");
    const last = fake.calls.at(-1);
    expect(last?.response).toMatchObject({
      ok: false,
      response_metadata: { messages: ["[ERROR] must be less than 51 items [json-pointer:/blocks]"] },
    });
    expect(fake.violations).toHaveLength(1);
    expect(fake.violations[0]).toMatchObject({ source: "chat.postMessage", error: "invalid_blocks" });
    expect(fake.messages("C0GENERAL")).toEqual([]);
  });

  it("simulated rate limit answers 429 with Retry-After", async () => {
    fake.rateLimit("chat.postMessage", { times: 1, retryAfterSeconds: 7 });
    const error = await client.chat.postMessage({ channel: "C0GENERAL", text: "x" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "slack_webapi_rate_limited_error", retryAfter: 7 });
    await expect(client.chat.postMessage({ channel: "C0GENERAL", text: "x" })).resolves.toMatchObject({
      ok: true,
    });
  });
});

describe("views", () => {
  it("views.open needs a fresh, unused trigger issued by Slack", async () => {
    const trigger = fake.issueTriggerId("U0DISPATCH");
    const opened = await client.views.open({ trigger_id: trigger, view: modal() });
    expect(opened.view).toMatchObject({
      type: "modal",
      callback_id: "report",
      root_view_id: opened.view?.id,
    });
    expect(await slackError(client.views.open({ trigger_id: trigger, view: modal() }))).toBe(
      "exchanged_trigger_id",
    );
    expect(await slackError(client.views.open({ trigger_id: "1.2.abc", view: modal() }))).toBe(
      "invalid_trigger_id",
    );

    const late = fake.issueTriggerId("U0DISPATCH");
    clock += 3000;
    expect(await slackError(client.views.open({ trigger_id: late, view: modal() }))).toBe(
      "expired_trigger_id",
    );
  });

  it("views.update checks the hash; views.push stops at three views", async () => {
    const opened = await client.views.open({ trigger_id: fake.issueTriggerId("U0DISPATCH"), view: modal() });
    const id = opened.view?.id ?? "";
    const updated = await client.views.update({
      view_id: id,
      hash: opened.view?.hash ?? "",
      view: modal("Step 2"),
    });
    expect(updated.view).toMatchObject({ id, title: { text: "Step 2" } });
    expect(await slackError(client.views.update({ view_id: id, hash: "stale", view: modal() }))).toBe(
      "hash_conflict",
    );

    for (const title of ["Second", "Third"]) {
      await client.views.push({ trigger_id: fake.issueTriggerId("U0DISPATCH", id), view: modal(title) });
    }
    expect(
      await slackError(
        client.views.push({ trigger_id: fake.issueTriggerId("U0DISPATCH", id), view: modal() }),
      ),
    ).toBe("push_limit_reached");
    const view = fake.views.get(id);
    expect(view?.stack).toHaveLength(3);
    expect(view?.history).toHaveLength(1);
  });

  it("views.publish keeps one home tab per user; an invalid view is invalid_arguments", async () => {
    const home = {
      type: "home" as const,
      blocks: [{ type: "header", text: { type: "plain_text", text: "Fleet" } }],
    };
    const first = await client.views.publish({ user_id: "U0VIEWER", view: home });
    const second = await client.views.publish({ user_id: "U0VIEWER", view: home });
    expect(second.view?.id).toBe(first.view?.id);
    const tooLong = { ...modal("A title far longer than 24 chars"), type: "modal" as const };
    expect(
      await slackError(client.views.open({ trigger_id: fake.issueTriggerId("U0VIEWER"), view: tooLong })),
    ).toBe("invalid_arguments");
  });
});

describe("users and conversations", () => {
  it("users.info gives tz, tz_offset and tz_label at the fake's clock", async () => {
    const bucharest = await client.users.info({ user: "U0DISPATCH" });
    expect(bucharest.user).toMatchObject({ tz: "Europe/Bucharest", tz_offset: 10800 });
    expect(bucharest.user?.tz_label).toContain("Eastern European");
    const ny = await client.users.info({ user: "U0NEWYORK" });
    expect(ny.user).toMatchObject({
      tz: "America/New_York",
      tz_offset: -14400,
      tz_label: "Eastern Daylight Time",
    });
    clock = Date.UTC(2026, 0, 15);
    expect((await client.users.info({ user: "U0NEWYORK" })).user?.tz_offset).toBe(-18000);
    expect(await slackError(client.users.info({ user: "U0NOBODY" }))).toBe("user_not_found");
  });

  it("conversations: info, join (public only), members", async () => {
    const info = await client.conversations.info({ channel: "C0ALERTS" });
    expect(info.channel).toMatchObject({ id: "C0ALERTS", is_member: false, is_private: false });
    await client.conversations.join({ channel: "C0ALERTS" });
    expect((await client.conversations.info({ channel: "C0ALERTS" })).channel?.is_member).toBe(true);
    expect(await slackError(client.conversations.join({ channel: "G0PRIVATE" }))).toBe(
      "method_not_supported_for_channel_type",
    );
    expect(await slackError(client.conversations.info({ channel: "G0PRIVATE" }))).toBe("channel_not_found");
    const members = await client.conversations.members({ channel: "C0GENERAL" });
    expect(members.members).toEqual(["U0DISPATCH", "U0NEWYORK", "U0VIEWER", "U0FLEETBOT"]);
  });
});

describe("files", () => {
  it("files.uploadV2 end to end: getUploadURLExternal, the upload POST, completeUploadExternal", async () => {
    const csv = Buffer.from("plate,stops\nB-123-ABC,4\n");
    const res = await client.files.uploadV2({
      channel_id: "C0GENERAL",
      file: csv,
      filename: "stops.csv",
      title: "Stops",
      initial_comment: "Stops report",
    });
    expect(res.ok).toBe(true);
    expect(fake.calls.map((c) => c.method)).toEqual([
      "files.getUploadURLExternal",
      "files.completeUploadExternal",
    ]);
    const [file] = fake.files;
    expect(file).toMatchObject({
      name: "stops.csv",
      title: "Stops",
      completed: true,
      channels: ["C0GENERAL"],
    });
    expect(file?.bytes?.equals(csv)).toBe(true);
    const [message] = fake.messages("C0GENERAL");
    expect(message).toMatchObject({ text: "Stops report", files: [{ id: file?.id, title: "Stops" }] });
    const info = await client.files.info({ file: file?.id ?? "" });
    expect(info.file).toMatchObject({ name: "stops.csv", mimetype: "text/csv", size: csv.length });
  });

  it("a file needs channel membership; a wrong length is refused at the upload", async () => {
    const error = await client.files
      .uploadV2({ channel_id: "C0ALERTS", file: Buffer.from("x"), filename: "a.csv" })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ data: { error: "not_in_channel" } });

    const ticket = await client.files.getUploadURLExternal({ filename: "b.csv", length: 10 });
    const upload = await fetch(ticket.upload_url ?? "", { method: "POST", body: "short" });
    expect(upload.status).toBe(400);
    expect(fake.violations.at(-1)).toMatchObject({ source: "upload", error: "length_mismatch" });
    expect(
      await slackError(client.files.completeUploadExternal({ files: [{ id: ticket.file_id ?? "" }] })),
    ).toBe("file_not_found");
  });
});

describe("response_url", () => {
  const post = (url: string, body: unknown) =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("is ephemeral by default, in_channel on request, and can be used 5 times only", async () => {
    const url = fake.issueResponseUrl("C0GENERAL", "U0DISPATCH");
    expect((await post(url, { text: "queued" })).status).toBe(200);
    expect((await post(url, { text: "for all", response_type: "in_channel" })).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await post(url, { text: `update ${i}` })).status).toBe(200);
    const sixth = await post(url, { text: "too many" });
    expect(sixth.status).toBe(404);
    expect(await sixth.json()).toMatchObject({ ok: false, error: "used_url" });
    const [first, second] = fake.messages("C0GENERAL");
    expect(first).toMatchObject({ ephemeral: true, visibleTo: "U0DISPATCH", origin: "response_url" });
    expect(second).toMatchObject({ ephemeral: false, text: "for all" });
    expect(fake.responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 404]);
  });

  it("expires after 30 minutes", async () => {
    const url = fake.issueResponseUrl("C0GENERAL", "U0DISPATCH");
    clock += RESPONSE_URL_TTL_MS;
    expect((await post(url, { text: "just in time" })).status).toBe(200);
    clock += 1;
    const late = await post(url, { text: "late" });
    expect(late.status).toBe(404);
    expect(await late.json()).toMatchObject({ error: "expired_url" });
  });

  it("replace_original and delete_original act on the message the action came from", async () => {
    const { ts = "" } = await client.chat.postMessage({ channel: "C0GENERAL", text: "Start transport?" });
    const url = fake.issueResponseUrl("C0GENERAL", "U0DISPATCH", ts);
    await post(url, { replace_original: true, text: "Started" });
    expect(fake.messages("C0GENERAL")).toMatchObject([{ ts, text: "Started", revisions: 1 }]);
    const bad = await post(url, {
      replace_original: true,
      blocks: [{ type: "header", text: { type: "mrkdwn", text: "x" } }],
    });
    expect(bad.status).toBe(400);
    expect(fake.violations.at(-1)).toMatchObject({ source: "response_url", error: "invalid_blocks" });
    await post(url, { delete_original: true });
    expect(fake.messages("C0GENERAL")).toEqual([]);
  });
});
