/**
 * The sandbox page's JSON API without a browser: what the page reads and sends. Runs
 * everywhere (no Chromium needed); sandbox.test.ts covers the page itself.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSandboxAssets } from "../../../src/sandbox/web/assets.js";
import type { SandboxState } from "../../../src/sandbox/web/index.js";
import { type SandboxServer, startSandboxServer } from "./harness.js";

const { appJs: APP_JS, appCss: APP_CSS } = loadSandboxAssets();
let s: SandboxServer;
beforeAll(async () => {
  s = await startSandboxServer();
}, 30_000);
afterAll(async () => {
  await s?.close();
});

const post = (path: string, body: unknown) =>
  s.api(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const state = async () => (await (await s.api("/sandbox/state")).json()) as SandboxState;

describe("sandbox routes", () => {
  it("serve the page and its assets, which are valid JavaScript and fetch nothing from elsewhere", async () => {
    const page = await fetch(`${s.url}/`);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain('<script type="module" src="/sandbox/app.js">');
    expect(html).toContain("SANDBOX");
    expect((await fetch(`${s.url}/sandbox/app.js`)).headers.get("content-type")).toContain("javascript");
    expect(await (await fetch(`${s.url}/sandbox/app.css`)).text()).toBe(APP_CSS);
    expect(() => new Function(APP_JS)).not.toThrow();
    expect(`${html}${APP_JS}${APP_CSS}`).not.toMatch(
      /(src|href)=["']?https?:|url\(\s*["']?https?:|fetch\(["']https?:/,
    );
  });

  it("state lists #general, #alerts and the DM, with the command hints", async () => {
    const current = await state();
    expect(current.channels.map((c) => [c.id, c.name, c.kind])).toEqual([
      ["C0GENERAL", "general", "channel"],
      ["C0ALERTS", "alerts", "channel"],
      ["D0DISPATCH", "fleetbot", "dm"],
    ]);
    expect(current.user.id).toBe("U0DISPATCH");
    expect(current.commands.map((c) => c.syntax)).toContain("/etransport new");
    // Examples name the demo fleet's own vehicles, never a made-up plate (issue 24).
    const plates = s.bot.simulator!.vehicles.map((v) => v.plate);
    expect(plates).toContain(current.examplePlate);
    const examples = current.commands.map((c) => c.example).join("\n");
    expect(examples).not.toContain("B-123-ABC");
    expect(examples).toContain(current.examplePlate);
    expect(current.modals).toEqual([]);
  });

  it("a command reaches the bot as a signed slash command; the answer and an SSE notice follow", async () => {
    const events = await s.api("/sandbox/events");
    const reader = events.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toMatch(/event: version\ndata: \{"version":\d+\}/);
    const answer = await post("/sandbox/command", { channel: "C0GENERAL", text: "/fleet help" });
    expect(await answer.json()).toMatchObject({ ok: true, status: 200 });
    const next = new TextDecoder().decode((await reader.read()).value);
    expect(next).toContain("event: version");
    await reader.cancel();
    const messages = (await state()).messages.C0GENERAL ?? [];
    expect(messages.some((m) => m.ephemeral && JSON.stringify(m).includes("/fleet where"))).toBe(true);
  });

  it("long-polls /sandbox/state?since= until something changes", async () => {
    const { version } = await state();
    const waiting = s.api(`/sandbox/state?since=${version}`).then((r) => r.json() as Promise<SandboxState>);
    await post("/sandbox/command", { channel: "C0GENERAL", text: "/fleet whoami" });
    expect((await waiting).version).toBeGreaterThan(version);
  });

  it("refuses what Slack would refuse, with a reason the page shows", async () => {
    const unknown = await post("/sandbox/command", { channel: "C0GENERAL", text: "/weather today" });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toContain("/weather is not a valid command");
    const noView = await post("/sandbox/submit", { viewId: "V404", values: {} });
    expect(noView.status).toBe(409);
    expect((await s.api("/sandbox/files?id=F404")).status).toBe(404);
    expect((await post("/sandbox/action", {})).status).toBe(400);
  });

  it("the Simulator panel lists transports and forces a transmission status", async () => {
    const list = (await (await s.api("/sandbox/transports")).json()) as {
      simulator: boolean;
      transports: { codeUit: string; status: string; transmission: string; forced?: string }[];
    };
    expect(list.simulator).toBe(true);
    const running = list.transports.find((t) => t.status === "InProgress")!;
    expect(running).toBeDefined();
    const forced = await post("/sandbox/simulate", {
      codeUit: running.codeUit,
      transmissionStatusCode: "NoGPSCoordinates",
    });
    const after = (await forced.json()) as typeof list;
    expect(after.transports.find((t) => t.codeUit === running.codeUit)).toMatchObject({
      transmission: "NoGPSCoordinates",
      forced: "NoGPSCoordinates",
    });
    const released = (await (
      await post("/sandbox/simulate", { codeUit: running.codeUit, transmissionStatusCode: "clear" })
    ).json()) as typeof list;
    expect(released.transports.find((t) => t.codeUit === running.codeUit)?.forced).toBeUndefined();
    expect(
      (await post("/sandbox/simulate", { codeUit: running.codeUit, transmissionStatusCode: "Bogus" })).status,
    ).toBe(400);
    expect(
      (await post("/sandbox/simulate", { codeUit: "NOPE", transmissionStatusCode: "Error" })).status,
    ).toBe(404);
  });

  it("the Simulator panel moves a transport to Error (the service stops listing it) and restores it", async () => {
    const list = (await (await s.api("/sandbox/transports")).json()) as {
      transports: { codeUit: string; status: string }[];
    };
    const running = list.transports.find((t) => t.status === "InProgress")!;
    const hidden = (await (
      await post("/sandbox/simulate", { codeUit: running.codeUit, status: "error" })
    ).json()) as typeof list;
    // Still in the panel (to be restored), shown as Error; load-transports no longer lists it.
    expect(hidden.transports.find((t) => t.codeUit === running.codeUit)?.status).toBe("Error");
    const sim = s.bot.simulator!;
    expect(sim.control.transports().find((t) => t.codeUit === running.codeUit)?.statusId).toBe(5);
    const restored = (await (
      await post("/sandbox/simulate", { codeUit: running.codeUit, status: "restore" })
    ).json()) as typeof list;
    expect(restored.transports.find((t) => t.codeUit === running.codeUit)?.status).toBe("InProgress");
    expect((await post("/sandbox/simulate", { codeUit: running.codeUit, status: "gone" })).status).toBe(400);
    // Restore puts back only what the panel hid: another transport keeps its status.
    expect((await post("/sandbox/simulate", { codeUit: running.codeUit, status: "restore" })).status).toBe(
      409,
    );
  });

  it("the Home tab: app_home_opened reaches the bot, which publishes the home view", async () => {
    const opened = await post("/sandbox/home", {});
    expect(await opened.json()).toMatchObject({ ok: true });
    await s.bot.fakeSlack!.waitForCall("views.publish");
    const home = (await state()).home;
    expect(home?.type).toBe("home");
  });
});
