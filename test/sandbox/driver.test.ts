/**
 * The driver sends what Slack sends: checked by an independent HMAC check on a bare
 * node:http server, and by real Bolt apps (HTTPReceiver and Socket Mode) that must
 * accept the payloads and whose answers must land in the fake as they would in Slack.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { App, LogLevel, SocketModeReceiver } from "@slack/bolt";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeSlack, SlackDriver, startFakeSlack } from "../../src/sandbox/fakeSlack/index.js";

const quietLogger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  getLevel: () => LogLevel.ERROR,
  setName: () => {},
};

let fake: FakeSlack;

beforeAll(async () => {
  fake = await startFakeSlack();
});

afterAll(async () => {
  await fake.close();
});

afterEach(() => {
  fake.reset();
});

function readAll(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString("utf8");
    });
    req.on("end", () => resolve(body));
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
}

describe("request signing, checked independently", () => {
  it("signs v0:timestamp:body with HMAC-SHA256 and posts a form body", async () => {
    const seen: { verified: boolean; contentType?: string; fields?: URLSearchParams }[] = [];
    const server = createServer(async (req, res) => {
      const body = await readAll(req);
      const ts = String(req.headers["x-slack-request-timestamp"]);
      const expected = `v0=${createHmac("sha256", fake.options.signingSecret).update(`v0:${ts}:${body}`).digest("hex")}`;
      const given = String(req.headers["x-slack-signature"]);
      const verified =
        given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
      seen.push({ verified, contentType: req.headers["content-type"], fields: new URLSearchParams(body) });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ response_type: "ephemeral", text: "pong" }));
    });
    const botUrl = await listen(server);
    try {
      const driver = new SlackDriver({ botUrl, fake });
      const result = await driver.slashCommand({
        text: "where B-123-ABC",
        userId: "U0DISPATCH",
        channelId: "C0GENERAL",
      });
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ response_type: "ephemeral", text: "pong" });
      const [request] = seen;
      expect(request?.verified).toBe(true);
      expect(request?.contentType).toBe("application/x-www-form-urlencoded");
      expect([...(request?.fields?.keys() ?? [])].sort()).toEqual(
        [
          "api_app_id",
          "channel_id",
          "channel_name",
          "command",
          "is_enterprise_install",
          "response_url",
          "team_domain",
          "team_id",
          "text",
          "token",
          "trigger_id",
          "user_id",
          "user_name",
        ].sort(),
      );
      // The ack body is shown to the user as an ephemeral message, as Slack does.
      expect(fake.messages("C0GENERAL")).toMatchObject([
        { text: "pong", ephemeral: true, visibleTo: "U0DISPATCH", origin: "ack" },
      ]);

      const wrong = new SlackDriver({ botUrl, fake, signingSecret: "not-the-secret" });
      await wrong.slashCommand({ userId: "U0DISPATCH", channelId: "C0GENERAL" });
      expect(seen.at(-1)?.verified).toBe(false);
    } finally {
      server.close();
    }
  });

  it("a bot slower than 3 s is treated as no answer", async () => {
    const server = createServer((_req, res) => {
      setTimeout(() => res.end("late"), 400);
    });
    const botUrl = await listen(server);
    try {
      const driver = new SlackDriver({ botUrl, fake, ackTimeoutMs: 100 });
      const result = await driver.slashCommand({ userId: "U0DISPATCH", channelId: "C0GENERAL" });
      expect(result).toMatchObject({ timedOut: true, status: 0 });
      expect(fake.violations).toMatchObject([{ source: "ack:slash_command", error: "ack_timeout" }]);
      expect(fake.messages("C0GENERAL")).toEqual([]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe("a real Bolt app over HTTP", () => {
  let app: App;
  let driver: SlackDriver;
  let server: Server;
  const seen: Record<string, unknown>[] = [];

  const reportModal = {
    type: "modal" as const,
    callback_id: "report",
    title: { type: "plain_text" as const, text: "Report" },
    submit: { type: "plain_text" as const, text: "Run" },
    private_metadata: "C0GENERAL",
    blocks: [
      {
        type: "input",
        block_id: "vehicle",
        label: { type: "plain_text" as const, text: "Vehicle" },
        element: { type: "external_select", action_id: "pick", min_query_length: 1 },
      },
      {
        type: "input",
        block_id: "day",
        label: { type: "plain_text" as const, text: "Day" },
        element: { type: "datepicker", action_id: "date", initial_date: "2026-11-03" },
      },
      {
        type: "input",
        block_id: "kind",
        label: { type: "plain_text" as const, text: "Report" },
        element: {
          type: "static_select",
          action_id: "kind",
          options: [
            { text: { type: "plain_text" as const, text: "Stops" }, value: "stops" },
            { text: { type: "plain_text" as const, text: "Fuel" }, value: "fuel" },
          ],
        },
      },
    ],
  };

  beforeAll(async () => {
    app = new App({
      token: fake.options.botToken,
      signingSecret: fake.options.signingSecret,
      clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } },
      logger: quietLogger,
    });
    app.command("/fleet", async ({ ack, command, respond, client }) => {
      seen.push({ ...command });
      await ack();
      if (command.text === "report") {
        await client.views.open({ trigger_id: command.trigger_id, view: reportModal });
        return;
      }
      await respond({ text: `Queued: ${command.text}` });
      await client.chat.postMessage({
        channel: command.channel_id,
        text: "Transport 2026RO123",
        blocks: [
          { type: "section", block_id: "t1", text: { type: "mrkdwn", text: "*2026RO123* in progress" } },
          {
            type: "actions",
            block_id: "t1-actions",
            elements: [
              {
                type: "button",
                action_id: "pause",
                value: "2026RO123",
                text: { type: "plain_text", text: "Pause" },
              },
              {
                type: "overflow",
                action_id: "more",
                options: [{ text: { type: "plain_text", text: "End" }, value: "end" }],
              },
            ],
          },
        ],
      });
    });
    app.action("pause", async ({ ack, body, action, respond }) => {
      await ack();
      seen.push({ body, action });
      await respond({ replace_original: true, text: `Paused ${"value" in action ? action.value : ""}` });
    });
    app.options("pick", async ({ ack, options }) => {
      await ack({
        options: [{ text: { type: "plain_text", text: `B-${options.value.toUpperCase()}` }, value: "v-1" }],
      });
    });
    app.view("report", async ({ ack, view, body }) => {
      seen.push({ view, body });
      const values = view.state.values;
      if (values.vehicle?.pick?.selected_option?.value !== "v-1") {
        await ack({ response_action: "errors", errors: { vehicle: "Pick a vehicle" } });
        return;
      }
      await ack({
        response_action: "update",
        view: { ...reportModal, title: { type: "plain_text", text: "Running" } },
      });
    });
    server = (await app.start(0)) as Server;
    driver = new SlackDriver({
      botUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`,
      fake,
    });
  });

  afterAll(async () => {
    await app.stop();
  });

  afterEach(() => {
    seen.length = 0;
    expect(fake.violations).toEqual([]);
  });

  it("slash command: Bolt verifies it, acks, respond() and chat.postMessage reach the fake", async () => {
    const result = await driver.slashCommand({
      text: "list active",
      userId: "U0DISPATCH",
      channelId: "C0GENERAL",
    });
    expect(result.status).toBe(200);
    const posted = await fake.waitForMessage("C0GENERAL", (m) => m.origin === "chat.postMessage");
    await fake.waitForMessage("C0GENERAL", (m) => m.origin === "response_url");
    expect(seen[0]).toMatchObject({
      command: "/fleet",
      text: "list active",
      user_id: "U0DISPATCH",
      team_id: "T0FLEET",
    });
    expect(posted.blocks).toHaveLength(2);

    // Clicking the button: Bolt routes by action_id; respond() replaces the original message.
    const click = await driver.blockAction({
      userId: "U0NEWYORK",
      channelId: "C0GENERAL",
      messageTs: posted.ts,
      actionId: "pause",
    });
    expect(click.status).toBe(200);
    await fake.waitFor(() =>
      fake.messages("C0GENERAL").find((m) => m.ts === posted.ts && m.text === "Paused 2026RO123"),
    );
    expect(seen[1]).toMatchObject({
      body: {
        type: "block_actions",
        user: { id: "U0NEWYORK" },
        channel: { id: "C0GENERAL" },
        container: { type: "message", message_ts: posted.ts, channel_id: "C0GENERAL", is_ephemeral: false },
        message: { ts: posted.ts, text: "Transport 2026RO123" },
      },
      action: { type: "button", action_id: "pause", block_id: "t1-actions", value: "2026RO123" },
    });
  });

  it("a request with an old timestamp or a bad signature is refused with 401", async () => {
    const body = "command=%2Ffleet&text=help";
    const old = await driver.rawPost(body, driver.sign(body, Math.floor(Date.now() / 1000) - 6 * 60));
    expect(old.status).toBe(401);
    const forged = await driver.rawPost(body, {
      ...driver.sign(body),
      "x-slack-signature": `v0=${"0".repeat(64)}`,
    });
    expect(forged.status).toBe(401);
    expect(seen).toEqual([]);
  });

  it("modal: options load, field errors, then an update, all applied to the fake's view", async () => {
    await driver.slashCommand({ text: "report", userId: "U0DISPATCH", channelId: "C0GENERAL" });
    const opened = await fake.waitForCall("views.open");
    expect(opened.ok).toBe(true);
    const viewId = String((opened.response.view as { id: string }).id);

    const suggestion = await driver.blockSuggestion({
      userId: "U0DISPATCH",
      viewId,
      actionId: "pick",
      value: "b1",
    });
    expect(suggestion.body).toEqual({
      options: [{ text: { type: "plain_text", text: "B-B1" }, value: "v-1" }],
    });

    const refused = await driver.viewSubmission({ viewId, values: { kind: { kind: "fuel" } } });
    expect(refused.body).toEqual({ response_action: "errors", errors: { vehicle: "Pick a vehicle" } });
    expect(fake.views.get(viewId)).toMatchObject({ open: true, errors: { vehicle: "Pick a vehicle" } });
    const submitted = seen.find((e) => "view" in e)?.view as { state: { values: Record<string, unknown> } };
    expect(submitted.state.values).toEqual({
      vehicle: { pick: { type: "external_select", selected_option: null } },
      day: { date: { type: "datepicker", selected_date: "2026-11-03" } },
      kind: {
        kind: {
          type: "static_select",
          selected_option: { text: { type: "plain_text", text: "Fuel" }, value: "fuel" },
        },
      },
    });

    await driver.viewSubmission({ viewId, values: { vehicle: { pick: "v-1" } } });
    const view = fake.views.get(viewId);
    expect(view?.view.title).toEqual({ type: "plain_text", text: "Running" });
    expect(view?.history).toHaveLength(1);
    expect(view?.errors).toBeUndefined();
  });
});

describe("a real Bolt app over Socket Mode", () => {
  it("starts (apps.connections.open, hello) and receives a slash command as an envelope", async () => {
    const receiver = new SocketModeReceiver({
      appToken: fake.options.appToken,
      logger: quietLogger,
      installerOptions: { clientOptions: { slackApiUrl: fake.apiUrl } },
    });
    const app = new App({
      token: fake.options.botToken,
      receiver,
      socketMode: true,
      clientOptions: { slackApiUrl: fake.apiUrl },
      logger: quietLogger,
    });
    app.command("/fleet", async ({ ack, command }) => {
      await ack({ response_type: "ephemeral", text: `socket: ${command.text}` });
    });
    await app.start();
    try {
      expect(fake.calls.some((c) => c.method === "apps.connections.open" && c.ok)).toBe(true);
      expect(fake.socketConnections).toBe(1);
      const driver = new SlackDriver({ fake, transport: "socket" });
      const result = await driver.slashCommand({ text: "help", userId: "U0VIEWER", channelId: "C0GENERAL" });
      expect(result.body).toEqual({ response_type: "ephemeral", text: "socket: help" });
      expect(fake.messages("C0GENERAL")).toMatchObject([{ text: "socket: help", visibleTo: "U0VIEWER" }]);
    } finally {
      await app.stop();
    }
  });
});
