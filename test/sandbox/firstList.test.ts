/**
 * The sandbox is ready when its page says so: at start the bot fetches the demo account's vehicle
 * list before anything else (its login, then company-vehicles; the first alert check after), and
 * the page says "connecting to the fleet service…" until the list is there, so a newcomer's first
 * vehicle picker is not a surprise. A 2-s slot here stands for the service's 30 s.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxServer, startSandboxServer } from "./browser/harness.js";

const SLOT_MS = 2_000;
let server: SandboxServer;
let firstPage: string;
let firstStatus: unknown;

beforeAll(async () => {
  server = await startSandboxServer({ asStarted: true, minIntervalMs: SLOT_MS });
  // As a newcomer does: the page, as soon as the bot listens.
  [firstPage, firstStatus] = await Promise.all([
    fetch(`${server.url}/`).then((r) => r.text()),
    server.api("/sandbox/fleet-status").then((r) => r.json()),
  ]);
}, 30_000);

afterAll(async () => {
  await server?.close();
});

async function statusNow(): Promise<string> {
  const body = (await (await server.api("/sandbox/fleet-status")).json()) as { ok: boolean; status: string };
  expect(body.ok).toBe(true);
  return body.status;
}

describe("the sandbox's first minute", () => {
  it("says it is connecting to the fleet service until the vehicle list is there", async () => {
    expect(firstStatus).toEqual({ ok: true, status: "connecting" });
    const line = /<div class="fleet-status" id="fleet-status"[^>]*>/.exec(firstPage)?.[0] ?? "";
    expect(line).toContain('data-status="connecting"');
    expect(line).not.toContain("hidden");
    expect(firstPage).toContain("Connecting to the fleet service");

    const deadline = Date.now() + 6 * SLOT_MS;
    while ((await statusNow()) === "connecting" && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(await statusNow()).toBe("ready");
    expect(server.bot.vehicles.peek("demo")?.vehicles.length).toBeGreaterThan(0);
    // Once ready, a page opened anew shows no connecting line.
    const later = await (await fetch(`${server.url}/`)).text();
    expect(/<div class="fleet-status" id="fleet-status"[^>]*>/.exec(later)?.[0]).toContain("hidden");
  }, 30_000);

  it("asks the service for the login, then the vehicle list, then anything else", async () => {
    // The first alert check comes after the list (its cron ticks every 2 s here).
    const sim = server.bot.simulator!;
    const deadline = Date.now() + 6 * SLOT_MS;
    const endpoints = () =>
      sim.control
        .requests()
        .filter((r) => r.username === "demo")
        .map((r) => r.endpoint);
    while (!endpoints().includes("load-transports") && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const seen = endpoints();
    expect(seen.slice(0, 2)).toEqual(["login", "company-vehicles"]);
    // The alert check came, after the list.
    expect(seen.indexOf("load-transports")).toBeGreaterThan(1);
  }, 30_000);
});
