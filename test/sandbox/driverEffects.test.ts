/**
 * What Slack does with the bot's acknowledgements and the user's clicks, driven against a
 * scripted bot (a bare node:http server answering queued bodies) so each rule is isolated.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type ChangeEvent,
  type FakeSlack,
  SlackDriver,
  startFakeSlack,
} from "../../src/sandbox/fakeSlack/index.js";

let fake: FakeSlack;
let server: Server;
let driver: SlackDriver;
const answers: unknown[] = [];
const received: Record<string, unknown>[] = [];

const plain = (text: string) => ({ type: "plain_text", text });
const step = (title: string, over: Record<string, unknown> = {}) => ({
  type: "modal",
  callback_id: "wizard",
  title: plain(title),
  submit: plain("Next"),
  blocks: [
    {
      type: "input",
      block_id: "plate",
      label: plain("Plate"),
      element: { type: "plain_text_input", action_id: "value", initial_value: "B-123-ABC" },
    },
    {
      type: "actions",
      block_id: "tools",
      elements: [{ type: "checkboxes", action_id: "flags", options: [{ text: plain("LPG"), value: "lpg" }] }],
    },
  ],
  ...over,
});

async function openModal(view: Record<string, unknown> = step("Step 1")): Promise<string> {
  const res = await fetch(`${fake.apiUrl}views.open`, {
    method: "POST",
    headers: { authorization: `Bearer ${fake.options.botToken}`, "content-type": "application/json" },
    body: JSON.stringify({ trigger_id: fake.issueTriggerId("U0DISPATCH"), view }),
  });
  const body = (await res.json()) as { ok: boolean; view: { id: string } };
  expect(body.ok).toBe(true);
  return body.view.id;
}

beforeAll(async () => {
  fake = await startFakeSlack();
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => {
      raw += c.toString("utf8");
    });
    req.on("end", () => {
      const form = new URLSearchParams(raw);
      const payload = form.get("payload");
      received.push(payload ? (JSON.parse(payload) as Record<string, unknown>) : Object.fromEntries(form));
      const answer = answers.shift();
      if (answer === undefined) res.end();
      else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(answer));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  driver = new SlackDriver({ botUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, fake });
});

afterAll(async () => {
  server.close();
  await fake.close();
});

beforeEach(() => {
  fake.reset();
  answers.length = 0;
  received.length = 0;
});

describe("view_submission acknowledgements", () => {
  it("push, then an empty ack closes only the top view, then clear closes the modal", async () => {
    const root = await openModal();
    answers.push({ response_action: "push", view: step("Step 2") });
    await driver.viewSubmission({ viewId: root });
    const stack = fake.views.get(root)?.stack ?? [];
    expect(stack).toHaveLength(2);
    const pushed = stack[1] ?? "";
    expect(fake.views.get(pushed)?.view).toMatchObject({ root_view_id: root, previous_view_id: root });
    await expect(driver.viewSubmission({ viewId: root })).rejects.toThrow(/not the visible one/);

    await driver.viewSubmission({ viewId: pushed });
    expect(fake.views.get(pushed)?.open).toBe(false);
    expect(fake.views.get(root)?.stack).toEqual([root]);

    answers.push({ response_action: "clear" });
    await driver.viewSubmission({ viewId: root });
    expect(fake.views.get(root)).toMatchObject({ open: false, stack: [] });
    expect(fake.violations).toEqual([]);
  });

  it("an invalid update, or errors keyed by a non-input block, are refused as violations", async () => {
    const root = await openModal();
    answers.push({ response_action: "update", view: step("A title much longer than 24") });
    const update = await driver.viewSubmission({ viewId: root });
    expect(update.rejected).toBe("invalid_arguments");
    answers.push({ response_action: "errors", errors: { tools: "no" } });
    const errors = await driver.viewSubmission({ viewId: root });
    expect(errors.rejected).toBe("invalid_arguments");
    expect(fake.violations.map((v) => v.source)).toEqual(["ack:view_submission", "ack:view_submission"]);
    expect(fake.views.get(root)?.open).toBe(true);
  });

  it("state.values: initial values, interactions inside the view, submitted values", async () => {
    const root = await openModal();
    answers.push({});
    await driver.blockAction({
      userId: "U0DISPATCH",
      viewId: root,
      actionId: "flags",
      selectedOptions: ["lpg"],
    });
    const action = received[0] ?? {};
    expect(action).toMatchObject({
      type: "block_actions",
      container: { type: "view", view_id: root },
      actions: [
        { type: "checkboxes", action_id: "flags", block_id: "tools", selected_options: [{ value: "lpg" }] },
      ],
    });
    expect(action.response_url).toBeUndefined();
    expect(fake.violations).toEqual([]);

    await driver.viewSubmission({ viewId: root, values: { plate: { value: "CJ-01-XYZ" } } });
    const submission = received[1] as { view: { state: { values: unknown } }; response_urls: unknown[] };
    expect(submission.view.state.values).toEqual({
      plate: { value: { type: "plain_text_input", value: "CJ-01-XYZ" } },
      tools: { flags: { type: "checkboxes", selected_options: [{ text: plain("LPG"), value: "lpg" }] } },
    });
    expect(submission.response_urls).toEqual([]);
  });

  it("response_url_enabled inputs bring one response_url for the chosen conversation", async () => {
    const view = step("Subscribe", {
      blocks: [
        {
          type: "input",
          block_id: "where",
          label: plain("Channel"),
          element: { type: "conversations_select", action_id: "channel", response_url_enabled: true },
        },
      ],
    });
    const root = await openModal(view);
    await driver.viewSubmission({ viewId: root, values: { where: { channel: "C0ALERTS" } } });
    const submission = received[0] as { response_urls: { channel_id: string; response_url: string }[] };
    expect(submission.response_urls).toMatchObject([
      { block_id: "where", action_id: "channel", channel_id: "C0ALERTS" },
    ]);
    const res = await fetch(submission.response_urls[0]?.response_url ?? "", {
      method: "POST",
      body: JSON.stringify({ text: "Subscribed", response_type: "in_channel" }),
    });
    expect(res.status).toBe(200);
    expect(fake.messages("C0ALERTS")).toMatchObject([{ text: "Subscribed", ephemeral: false }]);
  });

  it("view_closed is sent only with notify_on_close; clear_on_close closes the whole stack", async () => {
    const quiet = await openModal();
    const silent = await driver.viewClosed({ viewId: quiet });
    expect(silent.sent).toBe(false);
    expect(received).toEqual([]);

    const loud = await openModal(step("Step 1", { notify_on_close: true, clear_on_close: true }));
    answers.push({ response_action: "push", view: step("Step 2") });
    await driver.viewSubmission({ viewId: loud });
    await driver.viewClosed({ viewId: loud });
    expect(received.at(-1)).toMatchObject({ type: "view_closed", is_cleared: true, view: { id: loud } });
    expect(fake.views.get(loud)?.stack).toEqual([]);
  });
});

describe("message interactions", () => {
  it("actions on an ephemeral message carry no message; an ack body is ignored and flagged", async () => {
    answers.push({
      text: "Pick one",
      blocks: [
        { type: "actions", elements: [{ type: "button", action_id: "ok", value: "1", text: plain("OK") }] },
      ],
    });
    const ack = await driver.slashCommand({ userId: "U0VIEWER", channelId: "C0GENERAL", text: "queue" });
    const ephemeral = ack.posted;
    expect(ephemeral).toMatchObject({ ephemeral: true, visibleTo: "U0VIEWER" });
    await expect(
      driver.blockAction({
        userId: "U0DISPATCH",
        channelId: "C0GENERAL",
        messageTs: ephemeral?.ts,
        actionId: "ok",
      }),
    ).rejects.toThrow(/cannot see/);

    answers.push({ text: "thanks" });
    const click = await driver.blockAction({
      userId: "U0VIEWER",
      channelId: "C0GENERAL",
      messageTs: ephemeral?.ts,
      actionId: "ok",
    });
    expect(received.at(-1)).toMatchObject({ container: { is_ephemeral: true }, actions: [{ value: "1" }] });
    expect(received.at(-1)?.message).toBeUndefined();
    expect(click.rejected).toBe("ignored_ack_body");
    expect(fake.violations.map((v) => v.error)).toEqual(["ignored_ack_body"]);

    // The action's response_url can still replace the ephemeral message.
    const url = String(received.at(-1)?.response_url);
    await fetch(url, { method: "POST", body: JSON.stringify({ replace_original: true, text: "Done" }) });
    expect(fake.messages("C0GENERAL")).toMatchObject([{ ts: ephemeral?.ts, text: "Done", ephemeral: true }]);
  });

  it("a slash command ack beyond the limits is refused and recorded", async () => {
    answers.push({ text: "x", blocks: [{ type: "section", text: { type: "mrkdwn", text: "" } }] });
    const result = await driver.slashCommand({ userId: "U0VIEWER", channelId: "C0GENERAL" });
    expect(result.rejected).toBe("invalid_blocks");
    expect(fake.violations).toMatchObject([{ source: "ack:slash_command" }]);
    expect(fake.messages("C0GENERAL")).toEqual([]);
  });

  it("block_suggestion with too many options is a violation", async () => {
    answers.push({
      options: Array.from({ length: 101 }, (_, i) => ({ text: plain(`o${i}`), value: `${i}` })),
    });
    const result = await driver.blockSuggestion({
      userId: "U0VIEWER",
      actionId: "pick",
      value: "b",
      channelId: "C0GENERAL",
    });
    expect(result.rejected).toBe("invalid_arguments");
    expect(received[0]).toMatchObject({ type: "block_suggestion", action_id: "pick", value: "b" });
  });
});

describe("change feed", () => {
  it("onChange reports calls and messages; waitFor resolves on the change, or times out", async () => {
    const events: ChangeEvent["kind"][] = [];
    const stop = fake.onChange((e) => events.push(e.kind));
    const waiting = fake.waitForMessage("C0GENERAL", (m) => m.text === "later");
    await fetch(`${fake.apiUrl}chat.postMessage`, {
      method: "POST",
      headers: { authorization: `Bearer ${fake.options.botToken}`, "content-type": "application/json" },
      body: JSON.stringify({ channel: "C0GENERAL", text: "later" }),
    });
    await expect(waiting).resolves.toMatchObject({ text: "later" });
    stop();
    expect(events).toEqual(["message", "call"]);
    await expect(fake.waitForCall("views.open", undefined, { timeoutMs: 20 })).rejects.toThrow(
      /nothing matched/,
    );
  });
});
