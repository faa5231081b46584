import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../src/app/config.js";
import { type Fleetbot, startFleetbot } from "../src/app/start.js";

const dirs: string[] = [];
let bot: Fleetbot | undefined;
afterEach(async () => {
  await bot?.close();
  bot = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("startFleetbot", () => {
  it("runs with no configuration on the embedded simulator and serves health and metrics", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "fleetbot-main-"));
    dirs.push(dataDir);
    bot = await startFleetbot(loadConfig({ PORT: "0", DATA_DIR: dataDir, LOG_LEVEL: "silent" }));
    expect(bot.simulator).toBeDefined();
    const health = await fetch(`${bot.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true, fleet: "simulator" });
    const metrics = await fetch(`${bot.url}/metrics`);
    expect(await metrics.text()).toContain("fleetbot_upstream_calls_total");
    expect((await fetch(`${bot.url}/nope`)).status).toBe(404);
  });

  it("stops at start with one line per configuration problem, naming no secret", () => {
    const result = spawnSync(process.execPath, ["--import", "tsx", "src/main.ts"], {
      env: { ...process.env, PORT: "abc", SLACK_BOT_TOKEN: "xoxp-secret", LOG_LEVEL: "silent" },
      encoding: "utf8",
      timeout: 15_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("PORT: must be a whole number");
    expect(result.stderr).toContain("SLACK_BOT_TOKEN: must be a bot token starting with xoxb-");
    expect(result.stderr).not.toContain("xoxp-secret");
  });
});
