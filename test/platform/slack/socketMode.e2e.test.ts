import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/app/config.js";
import { type Fleetbot, startFleetbot } from "../../../src/app/start.js";
import { type FakeSlack, SlackDriver, startFakeSlack } from "../../../src/sandbox/fakeSlack/index.js";
import { textOf } from "../../helpers/botHarness.js";

let fake: FakeSlack | undefined;
let bot: Fleetbot | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await bot?.close();
  await fake?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  bot = undefined;
  fake = undefined;
});

describe("Socket Mode", () => {
  it("starts with an app token: opens the connection through apps.connections.open and answers a command over it", async () => {
    fake = await startFakeSlack();
    dataDir = mkdtempSync(join(tmpdir(), "fleetbot-socket-"));
    bot = await startFleetbot(
      loadConfig({
        SLACK_BOT_TOKEN: fake.options.botToken,
        SLACK_APP_TOKEN: fake.options.appToken,
        SLACK_API_URL: fake.apiUrl,
        PORT: "0",
        DATA_DIR: dataDir,
        FLEET_MIN_INTERVAL_MS: "50",
        LOG_LEVEL: "silent",
      }),
      { upkeepEveryMs: 0 },
    );
    expect(fake.calls.some((c) => c.method === "apps.connections.open" && c.ok)).toBe(true);
    const health = await fetch(`${bot.url}/healthz`);
    expect(health.status).toBe(200);
    const driver = new SlackDriver({ fake, transport: "socket" });
    const result = await driver.slashCommand({
      command: "/fleet",
      text: "help",
      userId: "U0DISPATCH",
      channelId: "C0GENERAL",
    });
    expect(result.timedOut).toBe(false);
    expect(textOf(fake.messages("C0GENERAL").at(-1))).toContain("/fleet where");
  });
});
