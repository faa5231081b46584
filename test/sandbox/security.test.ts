/**
 * The sandbox page drives a fleet account with no Slack sign-in (issue 11, point 1): its API
 * answers only the page it served, it listens on 127.0.0.1, and it runs on a real fleet
 * service only when asked for by name. Everything through real HTTP against the real bot.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/app/config.js";
import { type Fleetbot, startFleetbot } from "../../src/app/start.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/index.js";
import { tokenOf } from "./browser/harness.js";

interface Reply {
  status: number;
  body: string;
}

/** One HTTP request with exactly these headers (fetch would add or refuse some, e.g. Host). */
function call(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? "GET", headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

const COMMAND = JSON.stringify({ channel: "C0GENERAL", text: "/etransport list" });
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "fleetbot-sandbox-security-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the sandbox API answers only its own page", async () => {
  let bot: Fleetbot;
  let token: string;
  const tasks = async () => (await bot.tasks.recent("demo", 1000)).length;

  beforeAll(async () => {
    bot = await startFleetbot(loadConfig({ PORT: "0", DATA_DIR: tempDir(), LOG_LEVEL: "silent" }), {
      upkeepEveryMs: 0,
      alertPolling: false,
    });
    token = tokenOf((await call(`${bot.url}/`)).body);
  }, 30_000);
  afterAll(async () => {
    await bot?.close();
  });

  it("a cross-origin text/plain POST /sandbox/command (a 'simple' request, no preflight) gets 403 and queues nothing", async () => {
    const before = await tasks();
    const reply = await call(`${bot.url}/sandbox/command`, {
      method: "POST",
      headers: { "content-type": "text/plain", origin: "http://attacker.example" },
      body: COMMAND,
    });
    expect(reply.status).toBe(403);
    await bot.slack.idle();
    expect(await tasks()).toBe(before);
  });

  it("every API route refuses a request without the page's token, and a wrong token", async () => {
    const posts = ["command", "action", "submit", "suggest", "close", "home", "timezone", "simulate"];
    const gets = ["state", "events", "files?id=F1", "transports"];
    const before = await tasks();
    for (const wrong of [undefined, "not-the-token"]) {
      const headers: Record<string, string> = {
        "content-type": "application/json",
        ...(wrong ? { "x-sandbox-token": wrong } : {}),
      };
      for (const path of posts) {
        const reply = await call(`${bot.url}/sandbox/${path}`, { method: "POST", headers, body: COMMAND });
        expect(reply.status, `POST /sandbox/${path}`).toBe(403);
      }
      for (const path of gets) {
        const reply = await call(`${bot.url}/sandbox/${path}`, { headers });
        expect(reply.status, `GET /sandbox/${path}`).toBe(403);
      }
    }
    expect(await tasks()).toBe(before);
  });

  it("the page's token works: in the header for the API, in ?token= for what cannot send headers", async () => {
    const before = await tasks();
    const reply = await call(`${bot.url}/sandbox/command`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-sandbox-token": token },
      body: COMMAND,
    });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ ok: true });
    await bot.slack.idle();
    expect(await tasks()).toBe(before + 1);
    const state = await call(`${bot.url}/sandbox/state?token=${encodeURIComponent(token)}`);
    expect(state.status).toBe(200);
    // A POST never takes the token from the URL: a form could put it there.
    const viaQuery = await call(`${bot.url}/sandbox/home?token=${encodeURIComponent(token)}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
    });
    expect(viaQuery.status).toBe(403);
  });

  it("with the token, a POST that is not JSON or comes from another origin is still refused", async () => {
    const before = await tasks();
    const plain = await call(`${bot.url}/sandbox/command`, {
      method: "POST",
      headers: { "content-type": "text/plain", "x-sandbox-token": token },
      body: COMMAND,
    });
    expect(plain.status).toBe(415);
    const foreign = await call(`${bot.url}/sandbox/command`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-sandbox-token": token, origin: "http://evil.test" },
      body: COMMAND,
    });
    expect(foreign.status).toBe(403);
    await bot.slack.idle();
    expect(await tasks()).toBe(before);
  });

  it("a name that is not loopback (a rebound DNS name) gets neither the page nor its token", async () => {
    const port = new URL(bot.url).port;
    const page = await call(`${bot.url}/`, { headers: { host: `rebound.attacker.example:${port}` } });
    expect(page.status).toBe(403);
    expect(page.body).not.toContain(token);
    const api = await call(`${bot.url}/sandbox/state`, {
      headers: { host: `rebound.attacker.example:${port}`, "x-sandbox-token": token },
    });
    expect(api.status).toBe(403);
    expect((await call(`${bot.url}/`, { headers: { host: `localhost:${port}` } })).status).toBe(200);
  });
});

describe("the sandbox runs on a real fleet service only when asked for by name", () => {
  it("a start with FLEET_API_URL and no Slack stops with one line that says what to set", () => {
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith("SLACK_") && name !== "SANDBOX"),
    );
    const result = spawnSync(process.execPath, ["--import", "tsx", "src/main.ts"], {
      env: {
        ...env,
        FLEET_API_URL: "http://127.0.0.1:9",
        PORT: "0",
        DATA_DIR: tempDir(),
        LOG_LEVEL: "silent",
      },
      encoding: "utf8",
      timeout: 15_000,
    });
    expect(result.status).toBe(1);
    const lines = result.stderr.split("\n").filter((line) => line.includes("SANDBOX"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("SLACK_BOT_TOKEN");
    expect(lines[0]).toContain("SANDBOX=1");
  });

  it("SANDBOX=0 with no Slack, and SANDBOX=1 beside a Slack token, are refused too", () => {
    expect(() => loadConfig({ SANDBOX: "0" })).toThrow(
      /SANDBOX: is 0 and no Slack is configured: set SLACK_BOT_TOKEN/,
    );
    expect(() => loadConfig({ SANDBOX: "1", SLACK_BOT_TOKEN: "xoxb-1", SLACK_SIGNING_SECRET: "s" })).toThrow(
      /SANDBOX: =1 runs the local sandbox page instead of Slack/,
    );
    expect(() => loadConfig({ SANDBOX: "yes" })).toThrow(/SANDBOX: must be 1/);
    expect(loadConfig({}).slack.mode).toBe("sandbox");
  });

  describe("SANDBOX=1 against a real FLEET_API_URL", () => {
    let fleet: RunningSimulator;
    let bot: Fleetbot;
    beforeAll(async () => {
      // A fleet service of its own, reached over HTTP like a real one.
      fleet = await startSimulator({ port: 0, minIntervalMs: 0 });
      bot = await startFleetbot(
        loadConfig({
          PORT: "0",
          DATA_DIR: tempDir(),
          LOG_LEVEL: "silent",
          SANDBOX: "1",
          FLEET_API_URL: fleet.url,
          FLEET_MIN_INTERVAL_MS: "0",
        }),
        { upkeepEveryMs: 0, alertPolling: false },
      );
    }, 30_000);
    afterAll(async () => {
      await bot?.close();
      await fleet?.close();
    });

    it("runs the sandbox page on the configured service, not the embedded simulator", async () => {
      expect(bot.fakeSlack).toBeDefined();
      expect(bot.simulator).toBeUndefined();
      expect(bot.fleetUrl).toBe(fleet.url);
      expect((await call(`${bot.url}/`)).status).toBe(200);
    });

    const external = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && !address.internal && address.family === "IPv4")?.address;
    it.skipIf(!external)("listens on 127.0.0.1 only: this machine's other address is refused", async () => {
      const port = new URL(bot.url).port;
      await expect(call(`http://${external}:${port}/healthz`)).rejects.toMatchObject({
        code: "ECONNREFUSED",
      });
      expect((await call(`http://127.0.0.1:${port}/healthz`)).status).toBeLessThan(600);
    });
  });
});
