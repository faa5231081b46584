/**
 * An answer Slack refuses for good (invalid_blocks, channel_not_found…) is replaced once by a
 * plain short notice with the task id, marked delivered, and not re-sent at the next start;
 * one that keeps failing for other reasons is given up after a few tries, across restarts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/app/config.js";
import { type Fleetbot, startFleetbot } from "../../../src/app/start.js";
import { type FakeSlack, SlackDriver, startFakeSlack } from "../../../src/sandbox/fakeSlack/index.js";

const USER = "U0DISPATCH";
const CHANNEL = "C0GENERAL";

let fake: FakeSlack;
let dataDir: string;
let bot: Fleetbot | undefined;

beforeAll(async () => {
  fake = await startFakeSlack();
});
afterAll(async () => {
  await fake.close();
});
afterEach(async () => {
  await bot?.close();
  bot = undefined;
  fake.reset();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The real bot on `dataDir` (a second call after close() is a restart on the same store). */
async function start(): Promise<{ bot: Fleetbot; driver: SlackDriver; settle(): Promise<void> }> {
  const config = loadConfig({
    SLACK_BOT_TOKEN: fake.options.botToken,
    SLACK_SIGNING_SECRET: fake.options.signingSecret,
    SLACK_API_URL: fake.apiUrl,
    PORT: "0",
    DATA_DIR: dataDir,
    FLEET_MIN_INTERVAL_MS: "60",
    FLEET_SAFETY_MARGIN_MS: "5",
    LOG_LEVEL: "silent",
  });
  const started = await startFleetbot(config, {
    upkeepEveryMs: 0,
    alertPolling: false,
    simulator: { drift: false },
  });
  bot = started;
  return {
    bot: started,
    driver: new SlackDriver({ botUrl: `${started.url}/slack/events`, fake }),
    async settle() {
      await started.slack.idle();
      await started.runner.idle();
      await started.delivery.settled();
    },
  };
}

/** Texts of the bot's accepted chat.postMessage calls, and of its accepted response_url posts. */
const postedTexts = () =>
  fake.calls.filter((c) => c.method === "chat.postMessage" && c.ok).map((c) => String(c.args.text ?? ""));
const answeredThroughUrl = () => fake.responses.filter((r) => r.status === 200);

describe("delivery Slack refuses", () => {
  it("falls back once to a plain notice with the task id, and is not re-sent after a restart", async () => {
    dataDir = mkdtempSync(join(tmpdir(), "fleetbot-delivery-"));
    const first = await start();
    const plate = first.bot.simulator!.vehicles[0]!.plate;
    fake.refuse("response_url", "invalid_blocks", { times: 20 });
    fake.refuse("chat.postMessage", "invalid_blocks", { times: 20 });
    const ack = await first.driver.slashCommand({
      command: "/fleet",
      text: `where ${plate}`,
      userId: USER,
      channelId: CHANNEL,
    });
    expect(ack.status).toBe(200);
    await first.settle();
    const task = (await first.bot.tasks.recent("demo", 1))[0]!;
    expect(task.state).toBe("done");
    expect(task.deliveredAt).toBeDefined();
    const notices = postedTexts();
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain("Slack refused the answer (invalid_blocks)");
    expect(notices[0]).toContain(task.id);

    await first.bot.close();
    fake.reset();
    const second = await start();
    await second.settle();
    expect(postedTexts()).toEqual([]);
    expect(answeredThroughUrl()).toEqual([]);
    expect(await second.bot.tasks.undelivered()).toEqual([]);
  });

  it("an answer that keeps failing for another reason is tried at three starts, then given up", async () => {
    dataDir = mkdtempSync(join(tmpdir(), "fleetbot-delivery-"));
    let run = await start();
    const plate = run.bot.simulator!.vehicles[1]!.plate;
    // Neither a permanent refusal nor a success: Slack answers with an internal error every time.
    fake.refuse("response_url", "internal_error", { times: 1000 });
    fake.refuse("chat.postMessage", "internal_error", { times: 1000 });
    await run.driver.slashCommand({
      command: "/fleet",
      text: `where ${plate}`,
      userId: USER,
      channelId: CHANNEL,
    });
    await run.settle();
    const taskId = (await run.bot.tasks.recent("demo", 1))[0]!.id;
    const postsFor = () => fake.calls.filter((c) => c.method === "chat.postMessage").length;
    expect((await run.bot.tasks.undelivered()).map((t) => t.id)).toEqual([taskId]);
    let posts = postsFor();
    for (const expectedTry of [2, 3]) {
      await run.bot.close();
      run = await start();
      await run.settle();
      expect(postsFor()).toBeGreaterThan(posts);
      posts = postsFor();
      expect((await run.bot.tasks.get(taskId))?.reply.deliveryTries).toBe(expectedTry);
    }
    await run.bot.close();
    run = await start();
    await run.settle();
    // The fourth start gives it up without sending anything.
    expect(postsFor()).toBe(posts);
    expect(await run.bot.tasks.undelivered()).toEqual([]);
  });
});
