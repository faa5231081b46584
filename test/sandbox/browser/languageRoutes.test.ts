/**
 * The sandbox page's language switch without a browser (issue 21): POST /sandbox/language sends
 * `/fleet language ro|en` as the sandbox user, signed like any command, and the bot itself stores
 * it; the page's state then says which language it chose, its command hints follow, and the
 * Simulator panel names statuses in it. romanianWalk.test.ts walks the page in Chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxState, SandboxTransport } from "../../../src/sandbox/web/index.js";
import { pageHtml } from "../../../src/sandbox/web/page.js";
import { type SandboxServer, startSandboxServer } from "./harness.js";

const USER = "U0DISPATCH";
const GENERAL = "C0GENERAL";

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
/** The newest message in #general meant for the sandbox user, as text and blocks. */
const lastAnswer = async () => JSON.stringify((await state()).messages[GENERAL]?.at(-1) ?? {});

describe("the sandbox's language switch", () => {
  it("starts with no language chosen through the page: English hints, an English page", async () => {
    const current = await state();
    expect(current.language).toBeNull();
    expect(current.commands.map((c) => c.syntax)).toContain("/fleet help");
    const html = await (await fetch(`${s.url}/`)).text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('data-language="ro"');
    expect(html).toContain("Română");
  });

  it("Română sends /fleet language ro as the user, signed: the bot stores it and confirms in Romanian", async () => {
    const before = s.bot.fakeSlack!.messages(GENERAL).length;
    const answer = await post("/sandbox/language", { language: "ro", channel: GENERAL });
    expect(await answer.json()).toMatchObject({ ok: true, status: 200, language: "ro" });
    // The bot's own answer to the command, in the conversation the page had open.
    const confirmation = s.bot.fakeSlack!.messages(GENERAL).slice(before);
    expect(confirmation).toHaveLength(1);
    expect(confirmation[0]).toMatchObject({ ephemeral: true, visibleTo: USER });
    expect(await lastAnswer()).toContain("Limba ta este acum");

    // The bot, asked as anyone asks it, says the choice is the user's own.
    await post("/sandbox/command", { channel: GENERAL, text: "/fleet limba" });
    // ("aleasă de tine" / "alegerea ta": the user's own choice, not a default.)
    expect(await lastAnswer()).toMatch(/Limba ta este \*român\S*\* \((aleasă de tine|alegerea ta)\)/);

    const current = await state();
    expect(current.language).toBe("ro");
    const syntaxes = current.commands.map((c) => c.syntax);
    expect(syntaxes).toContain("/fleet ajutor");
    expect(syntaxes).toContain("/etransport nou");
    expect(current.commands.find((c) => c.syntax === "/fleet ajutor")?.does).toBe("lista aceasta");
    // A reload starts on the language the page chose.
    expect(await (await fetch(`${s.url}/`)).text()).toContain('<html lang="ro" data-language="ro">');
  });

  it("the Simulator panel names statuses as fleetbot's Romanian does, when asked in Romanian", async () => {
    const ro = (await (await s.api("/sandbox/transports?lang=ro")).json()) as {
      transports: SandboxTransport[];
    };
    const running = ro.transports.find((t) => t.status === "InProgress");
    expect(running).toMatchObject({ statusText: "În desfășurare" });
    expect(running?.transmissionText).toMatch(/^Transmisie activă$|^Fără|^Date mai vechi|^Nu se află/);
    const en = (await (await s.api("/sandbox/transports")).json()) as { transports: SandboxTransport[] };
    expect(en.transports[0]).not.toHaveProperty("statusText");
    // A forced status answers with the list in the page's language too.
    const forced = await post("/sandbox/simulate", {
      codeUit: running!.codeUit,
      transmissionStatusCode: "NoGPSCoordinates",
      lang: "ro",
    });
    const after = ((await forced.json()) as { transports: SandboxTransport[] }).transports;
    expect(after.find((t) => t.codeUit === running!.codeUit)?.transmissionText).toBe("Fără semnal GPS");
    await post("/sandbox/simulate", { codeUit: running!.codeUit, transmissionStatusCode: "clear" });
  });

  it("a language command typed in the composer moves the page's language too (limbă, limba, language)", async () => {
    await post("/sandbox/command", { channel: GENERAL, text: "/fleet language en" });
    expect((await state()).language).toBe("en");
    expect(await lastAnswer()).toContain("Your language is now");
    await post("/sandbox/command", { channel: GENERAL, text: "/fleet limbă ro" });
    expect((await state()).language).toBe("ro");
    // Anything else leaves it alone.
    await post("/sandbox/command", { channel: GENERAL, text: "/fleet whoami" });
    expect((await state()).language).toBe("ro");
  });

  it("refuses a language fleetbot does not have, and changes nothing", async () => {
    const refused = await post("/sandbox/language", { language: "de", channel: GENERAL });
    expect(refused.status).toBe(400);
    expect((await state()).language).toBe("ro");
  });

  it("the page's shell names both languages and starts the switch on the server's choice", () => {
    const html = pageHtml("tok");
    expect(html).toContain('aria-pressed="true">English');
    expect(html).toContain('aria-pressed="false">Română');
    // No choice known to the server: the page keeps the one it remembers (no data-language on <html>).
    expect(html).toContain('<html lang="en">');
    const ro = pageHtml("tok", "ro");
    expect(ro).toContain('aria-pressed="true">Română');
  });
});
