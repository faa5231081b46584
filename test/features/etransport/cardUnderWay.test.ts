/**
 * A clicked card that waits says where it stands (issue 24, item 8). The views: the card's
 * buttons give way to "⏳ Pausing… next in line, about 30 s"; on an alert, a note to the
 * clicker; "Show transport" says the lookup is under way. And the delivery keeps the waiting
 * card current: each progress update shows the list again with that card's new place.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KnownBlock } from "@slack/types";
import type { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  actionUnderWayNote,
  lookupUnderWayNote,
  withCardUnderWay,
} from "../../../src/features/etransport/slack/views/underWay.js";
import { staleAnswerRefresh, underWayMessage } from "../../../src/features/renderRegistry.js";
import { ACTIONS } from "../../../src/platform/slack/actionIds.js";
import { TaskDelivery } from "../../../src/platform/slack/delivery.js";
import { progressPhrase } from "../../../src/platform/slack/views/progress.js";
import type { TaskRepository } from "../../../src/platform/store/contract/index.js";
import { openDatabase } from "../../../src/platform/store/database.js";
import { promised } from "../../../src/platform/store/promised.js";
import { SqliteTaskStore } from "../../../src/platform/store/taskStore.js";
import type { TaskProgress, TaskRecord } from "../../../src/platform/tasks/task.js";
import { buttonsOf, lastSeenBy, startBotHarness, textOf } from "../../helpers/botHarness.js";

const NOW = Date.UTC(2026, 10, 25, 10, 0, 0);
const UIT = "ABCD1234EFGH5678";
const list = {
  text: "2 transports",
  blocks: [
    { type: "section", block_id: "etransport.card.A", text: { type: "mrkdwn", text: "card A" } },
    { type: "actions", block_id: "etransport.actions.A", elements: [] },
    { type: "section", block_id: "etransport.card.B", text: { type: "mrkdwn", text: "card B" } },
    { type: "actions", block_id: "etransport.actions.B", elements: [] },
  ] as KnownBlock[],
};
const progress = (position: number, expectedInMs: number): TaskProgress => ({
  taskId: "t1",
  state: "queued",
  position,
  done: 0,
  total: 1,
  expectedFinishAt: NOW + expectedInMs,
  slotMs: 30_000,
});

describe("the views", () => {
  it("the clicked card's buttons give way to its place and estimate; other cards keep theirs; again replaces, not repeats", () => {
    const waiting = withCardUnderWay(
      list,
      "etransport.actions.A",
      "pause",
      progressPhrase(progress(0, 30_000), NOW, "en"),
      "en",
    );
    const shown = JSON.stringify(waiting.blocks);
    expect(shown).toContain("Pausing… next in line, about 30 s");
    expect(waiting.blocks.map((b) => b.type)).toEqual(["section", "context", "section", "actions"]);
    const later = withCardUnderWay(
      waiting,
      "etransport.actions.A",
      "pause",
      progressPhrase(progress(2, 95_000), NOW, "en"),
      "en",
    );
    expect(later.blocks).toHaveLength(4);
    expect(JSON.stringify(later.blocks)).toContain("Pausing… position 3 in the queue");
    expect(JSON.stringify(later.blocks)).not.toContain("next in line");
  });

  it("an alert's clicker and a Show transport clicker get a note with the UIT and the wait", () => {
    expect(actionUnderWayNote("end", UIT, "next in line, about 30 s", "en").text).toBe(
      ":hourglass_flowing_sand: Ending… UIT ABCD-1234-EFGH-5678: next in line, about 30 s",
    );
    expect(lookupUnderWayNote(UIT, "under a second", "en").text).toContain(
      "Looking up UIT ABCD-1234-EFGH-5678",
    );
    expect(lookupUnderWayNote("<!channel>", "x", "en").text).not.toContain("<!channel>");
  });
});

describe("the delivery keeps a waiting card current", () => {
  let hooks: Server;
  let base: string;
  const posts: string[] = [];
  let dir: string;
  let store: TaskRepository;

  beforeAll(async () => {
    hooks = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        posts.push(body);
        res.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((resolve) => hooks.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(hooks.address() as { port: number }).port}`;
    dir = mkdtempSync(join(tmpdir(), "fleetbot-underway-"));
    store = promised(new SqliteTaskStore(openDatabase(dir)));
  });
  afterAll(async () => {
    await new Promise((resolve) => hooks.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it("each new place of the card's action shows the list again with that card's wait", async () => {
    let emitProgress: ((p: TaskProgress, t: TaskRecord) => void) | undefined;
    const delivery = new TaskDelivery({
      defaultLanguage: "en",
      clientFor: async () => ({}) as WebClient,
      store,
      runner: {
        on: (l) => {
          emitProgress = l.progress;
          return () => {};
        },
        markDelivered: async () => {},
      },
      render: async () => ({ message: list }),
      describe: () => "Pause",
      underWayMessage,
      staleAnswerRefresh,
      logger: { warn() {}, info() {}, debug() {}, error() {} },
      slackApiUrl: `${base}/api/`,
      progressEveryMs: 0,
      now: () => NOW,
    });
    delivery.attach();
    const listTask = await store.create({
      kind: "transport-list",
      params: { statusIds: [2] },
      account: "demo",
      reply: {},
      priority: "interactive",
    });
    const { task } = await store.create({
      kind: "transport-action",
      params: { action: "pause", uits: [UIT], refresh: true, listTaskId: listTask.task.id },
      account: "demo",
      reply: {
        responseUrl: `${base}/hooks/click`,
        responseUrlIssuedAt: NOW,
        responseUrlUses: 1,
        listStays: true,
        underWay: { blockId: "etransport.actions.A", action: "pause" },
      },
      priority: "interactive",
    });
    emitProgress?.(progress(2, 95_000), task);
    await delivery.settled();
    emitProgress?.(progress(0, 30_000), task);
    await delivery.settled();
    expect(posts).toHaveLength(2);
    expect(posts[0]).toContain("Pausing… position 3 in the queue");
    expect(posts[1]).toContain("Pausing… next in line, about 30 s");
    // The list, not a progress bar: card B keeps its buttons.
    expect(posts[1]).toContain("etransport.actions.B");
    expect(JSON.parse(posts[1]!)).toMatchObject({ replace_original: true });
  });
});

describe("end to end, through the signed driver", () => {
  let h: Awaited<ReturnType<typeof startBotHarness>>;
  const USER = "U0DISPATCH";
  const CHANNEL = "C0GENERAL";
  beforeAll(async () => {
    h = await startBotHarness();
  });
  afterAll(async () => {
    await h.close();
  });
  const responsesWith = (text: string) =>
    h.fake.responses.filter((r) => JSON.stringify(r.body).includes(text));

  it("Pause in a list: the card says Pausing… with its place at once, then shows Paused", async () => {
    const running = h.bot.simulator!.control.transports().find((t) => t.statusId === 2)!;
    await h.driver.slashCommand({
      command: "/etransport",
      text: `list active ${running.codeUit}`,
      userId: USER,
      channelId: CHANNEL,
    });
    await h.settle();
    const message = lastSeenBy(h.fake, CHANNEL, USER)!;
    const pause = buttonsOf(message, ACTIONS.transportPause)[0]!;
    await h.driver.blockAction({
      userId: USER,
      channelId: CHANNEL,
      messageTs: message.ts,
      actionId: ACTIONS.transportPause,
      value: pause.value,
    });
    await h.settle();
    const underWay = responsesWith("Pausing…");
    expect(underWay.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(underWay[0]!.body)).toMatch(
      /Pausing… (next in line|position \d+ in the queue|answering now)/,
    );
    expect(textOf(lastSeenBy(h.fake, CHANNEL, USER))).toContain("Paused");
  });

  it("Show transport on an alert: the clicker is told at once that the lookup is under way", async () => {
    await h.driver.slashCommand({
      command: "/fleet",
      text: "alerts subscribe",
      userId: USER,
      channelId: CHANNEL,
    });
    await h.bot.slack.idle();
    await h.bot.alerts.runOnce();
    const alert = h.fake.messages(CHANNEL).find((m) => buttonsOf(m, ACTIONS.transportShow).length > 0)!;
    expect(alert, "an alert with Show transport").toBeDefined();
    const show = buttonsOf(alert, ACTIONS.transportShow)[0]!;
    await h.driver.blockAction({
      userId: USER,
      channelId: CHANNEL,
      messageTs: alert.ts,
      actionId: ACTIONS.transportShow,
      value: show.value,
    });
    await h.settle();
    const notes = responsesWith("Looking up UIT");
    expect(notes).toHaveLength(1);
    expect(notes[0]!.body).toMatchObject({ response_type: "ephemeral", replace_original: false });
  });
});
