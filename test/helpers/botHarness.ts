import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/app/config.js";
import { type Fleetbot, type StartOptions, startFleetbot } from "../../src/app/start.js";
import {
  type FakeSlack,
  type FakeSlackOptions,
  SlackDriver,
  startFakeSlack,
} from "../../src/sandbox/fakeSlack/index.js";

/**
 * The whole bot over real HTTP: the fake Slack Web API, the embedded simulator, and
 * fleetbot in HTTP mode between them, with a scaled interval (the simulator enforces it too).
 */
export async function startBotHarness(
  options: {
    intervalMs?: number;
    env?: Record<string, string>;
    start?: StartOptions;
    fakeSlack?: FakeSlackOptions;
    /** A fake Slack to reuse (a restart test): left running by close(). */
    fake?: FakeSlack;
    /** A data directory to reuse (a restart test): left in place by close(). */
    dataDir?: string;
  } = {},
) {
  const intervalMs = options.intervalMs ?? 60;
  const fake = options.fake ?? (await startFakeSlack(options.fakeSlack));
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "fleetbot-e2e-"));
  const config = loadConfig({
    SLACK_BOT_TOKEN: fake.options.botToken,
    SLACK_SIGNING_SECRET: fake.options.signingSecret,
    SLACK_API_URL: fake.apiUrl,
    PORT: "0",
    DATA_DIR: dataDir,
    FLEET_MIN_INTERVAL_MS: String(intervalMs),
    FLEET_SAFETY_MARGIN_MS: "5",
    LOG_LEVEL: "silent",
    CREDENTIALS_KEY: Buffer.alloc(32, 9).toString("base64"),
    ...options.env,
  });
  const bot = await startFleetbot(config, {
    upkeepEveryMs: 0,
    alertPolling: false,
    ...options.start,
    simulator: { drift: false, ...options.start?.simulator },
  });
  const driver = new SlackDriver({ botUrl: `${bot.url}/slack/events`, fake });
  return {
    fake,
    bot,
    driver,
    dataDir,
    /** Waits until every task is finished and its answer delivered. */
    async settle() {
      await bot.slack.idle();
      await bot.runner.idle();
      await bot.delivery.settled();
    },
    async close() {
      await bot.close();
      if (!options.fake) await fake.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type BotHarness = Awaited<ReturnType<typeof startBotHarness>>;

/** All text of a message's blocks, for assertions on what a user reads. */
export function textOf(message: { text?: string; blocks?: unknown[] } | undefined): string {
  if (!message) return "";
  const parts: string[] = [message.text ?? ""];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) {
        if (key === "text" && typeof inner === "string") parts.push(inner);
        else walk(inner);
      }
    }
  };
  walk(message.blocks ?? []);
  return parts.join("\n");
}

/** Alert messages in a channel (not thread replies, not ephemeral) that mention the UIT, in either display form. */
export function alertMessagesFor(fake: FakeSlack, channel: string, uit: string) {
  return fake.messages(channel).filter(
    (m) =>
      !m.ephemeral &&
      !m.threadTs &&
      JSON.stringify(m.blocks ?? [])
        .replace(/-/g, "")
        .includes(uit),
  );
}

/** The last message a user sees in a channel (ephemeral answers to them included). */
export function lastSeenBy(fake: FakeSlack, channel: string, userId: string) {
  return fake
    .messages(channel)
    .filter((m) => !m.ephemeral || m.visibleTo === userId)
    .at(-1);
}

/** A message's buttons with this action id, with their values and blocks. */
export function buttonsOf(
  message: { blocks?: unknown[] } | undefined,
  actionId: string,
): { value: string; block: string }[] {
  const blocks = (message?.blocks ?? []) as {
    block_id: string;
    elements?: { action_id?: string; value?: string }[];
  }[];
  return blocks.flatMap((block) =>
    (block.elements ?? [])
      .filter((e) => e.action_id === actionId && e.value !== undefined)
      .map((e) => ({ value: e.value!, block: block.block_id })),
  );
}

export type { FakeSlack, Fleetbot };
