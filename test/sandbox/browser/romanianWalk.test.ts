/**
 * A dispatcher's walk through the sandbox page in Romanian, in Chromium (issue 21): the switch
 * sets the user's fleetbot language through the bot itself (`/fleet language ro`, signed like any
 * command), then help, `unde`, a stops and a fuel report, the e-Transport form and a channel alert
 * subscribed with `lang=ro` all read in Romanian, and the page's own words follow.
 *
 * The sandbox runs as `npm start` starts it (no ALERTS_CHANNEL: #alerts is an ordinary
 * subscription the walk sets to Romanian). Each step stands on its own after the switch, so a
 * step still in English fails alone and says what it read.
 *
 * `SANDBOX_SCREENSHOT_TO_DOCS=1` also writes docs/sandbox-ro.png (the README's Romanian screenshot).
 */
import { copyFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { INPUTS } from "../../../src/platform/slack/actionIds.js";
import type { SimVehicle } from "../../../src/simulator/index.js";
import { drivesEveryDay } from "../../helpers/everyDay.js";
import { chromiumAvailable, type SandboxHarness, startSandboxHarness } from "./harness.js";
import { command, field, message, modal, openChannel } from "./screen.js";

const run = chromiumAvailable();
const GENERAL = "C0GENERAL";
const ALERTS = "C0ALERTS";
/** English a Romanian answer must not carry (titles and labels of today's English views). */
const ENGLISH = /\b(Stops report|Fuel report|Last position|Vehicle|Validity|Resolved|Mute)\b/;

let h: SandboxHarness;
let page: Page;
let truck: SimVehicle;
/** Without the switch the other steps prove nothing. */
let switched = false;

beforeAll(async () => {
  if (!run) return;
  h = await startSandboxHarness({ asStarted: true });
  page = h.page;
  // It drove yesterday, whatever day today is: the reports below have distance and litres.
  truck = drivesEveryDay(h.bot.simulator!.vehicles);
  await page.goto(h.url);
  await page.locator(`.nav-item[data-channel="${GENERAL}"].active`).waitFor();
}, 60_000);

afterAll(async () => {
  await h?.close();
});

beforeEach((context) => {
  if (context.task.name.startsWith("switches")) return;
  if (!switched) context.skip("the switch to Română failed");
});

// A step that failed with a form open leaves it closed for the next one (each stands on its own).
afterEach(async () => {
  if (!run) return;
  for (let open = 0; open < 3 && (await modal(page).count()) > 0; open++) {
    await modal(page)
      .locator(".modal-foot button[type=button]")
      .click({ timeout: 2_000 })
      .catch(() => page.keyboard.press("Escape"));
    await page.waitForTimeout(300);
  }
  await page
    .locator("#confirm-layer .modal")
    .waitFor({ state: "detached", timeout: 1_000 })
    .catch(() => undefined);
});

/**
 * Sends `text` in the open conversation and waits for a message that was not there before,
 * no longer waiting (⏳), that matches `shows`: the bot's answer to this command (the help,
 * which names the same plates, cannot stand in for it).
 */
async function ask(text: string, shows: RegExp, timeout = 25_000): Promise<string> {
  const before = new Set(
    await page
      .locator("#messages > .msg")
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-ts"))),
  );
  await command(page, text);
  const fresh = () =>
    page
      .locator("#messages > .msg")
      .evaluateAll((nodes) =>
        nodes.map((n) => ({ ts: n.getAttribute("data-ts"), text: n.textContent ?? "" })),
      )
      .then((all) => all.filter((m) => !before.has(m.ts)).map((m) => m.text));
  const deadline = Date.now() + timeout;
  let seen: string[] = [];
  while (Date.now() < deadline) {
    seen = await fresh();
    const found = seen.find((m) => shows.test(m) && !m.includes("⏳"));
    if (found !== undefined) return found;
    await page.waitForTimeout(250);
  }
  throw new Error(
    `no answer to ${text} showing ${shows}; new messages read: ${seen.map((m) => m.slice(0, 300)).join(" || ") || "none"}`,
  );
}

describe.skipIf(!run)("a dispatcher's walk in Romanian, in Chromium", { timeout: 45_000 }, () => {
  it("switches to Română: the bot confirms in Romanian, and the page's own words follow", async () => {
    const ro = page.locator('#lang-switch button[data-language="ro"]');
    expect(await ro.getAttribute("aria-pressed")).toBe("false");
    expect(await page.locator("#sim-toggle").textContent()).toBe("Simulator panel");
    await ro.click();
    // The bot's own confirmation of `/fleet language ro`, in the open conversation.
    const confirmed = message(page, /Limba ta este acum/);
    await confirmed.waitFor({ timeout: 15_000 });
    expect(await confirmed.textContent()).toContain("român");
    await page.locator('#lang-switch button[data-language="ro"][aria-pressed="true"]').waitFor();
    expect(await page.locator("html").getAttribute("lang")).toBe("ro");
    expect(await page.locator("#sim-toggle").textContent()).toBe("Panoul simulatorului");
    expect(await page.locator(".sim-head h2").textContent()).toBe("Simulator");
    expect(await page.locator(".sim-head p").first().textContent()).toContain("verificare a alertelor");
    expect(await page.locator("#composer-foot").textContent()).toContain("Enter trimite");
    // The panel names transports as fleetbot's Romanian does.
    await page.locator("#simulator .sim-row", { hasText: "În desfășurare" }).first().waitFor();
    expect(await page.locator("#simulator .sim-row button").allTextContents()).toContain("Fără GPS");
    switched = true;
  });

  it("remembers Română across a reload; the command hints are the Romanian help's", async () => {
    await page.reload();
    await page.locator(`.nav-item[data-channel="${GENERAL}"].active`).waitFor();
    expect(await page.locator('#lang-switch button[data-language="ro"]').getAttribute("aria-pressed")).toBe(
      "true",
    );
    expect(await page.locator("#sim-toggle").textContent()).toBe("Panoul simulatorului");
    const input = page.locator("#composer-input");
    await input.click();
    await input.fill("/fleet u");
    const hint = page.locator("#hints .hint", { hasText: "/fleet unde" });
    await hint.waitFor({ timeout: 5_000 });
    expect(await hint.textContent()).toContain("ultima poziție");
    // The English word finds it too (both always work).
    await input.fill("/fleet where");
    await page.locator("#hints .hint", { hasText: "/fleet unde" }).waitFor({ timeout: 5_000 });
    await input.fill("");
    await input.press("Escape");
  });

  it("/fleet ajutor: the help in Romanian, the user's own words first", async () => {
    const help = await ask("/fleet ajutor", /\/fleet ajutor \(help\)/);
    expect(help).toContain("/fleet unde");
    expect(help).toContain("/fleet opriri");
    expect(help).toContain("lista aceasta");
    expect(help).toContain("perioadă");
  });

  it(`/fleet unde <vehicle>: where it is, in Romanian`, async () => {
    const where = await ask(`/fleet unde ${truck.plate}`, new RegExp(truck.plate));
    expect(where).toMatch(/poziți|actualizat|motor (pornit|oprit)/i);
    expect(where).not.toMatch(ENGLISH);
  });

  it("/fleet opriri <vehicle> ieri: the stops report in Romanian", async () => {
    const stops = await ask(`/fleet opriri ${truck.plate} ieri`, new RegExp(truck.plate));
    expect(stops).toMatch(/opriri|oprire/i);
    expect(stops).not.toMatch(ENGLISH);
  });

  it("/fleet combustibil <vehicle> ieri: consumption with a decimal comma, l/100 km", async () => {
    const fuel = await ask(`/fleet combustibil ${truck.plate} ieri`, new RegExp(truck.plate));
    expect(fuel).toMatch(/combustibil|consum/i);
    expect(fuel).toMatch(/\d,\d+\s?l\/100\s?km/);
    expect(fuel).not.toMatch(/\d\.\d+\s?l\/100/);
    expect(fuel).not.toMatch(ENGLISH);
    await h.screenshot("ro-2-reports");
  });

  it("/etransport nou: a Romanian form, and Romanian field errors", async () => {
    await command(page, "/etransport nou");
    const uit = field(page, INPUTS.transportUit.block);
    await uit.waitFor({ timeout: 15_000 });
    const form = (await modal(page).textContent()) ?? "";
    expect(await modal(page).locator(".modal-head h2").textContent()).toMatch(
      /e-Transport nou|Transport nou/,
    );
    expect(form).toContain("Vehicul");
    expect(form).toMatch(/cod UIT/i);
    expect(form).toMatch(/valabil/i);
    expect(form).not.toMatch(/\b(Vehicle|Validity|Carrier)\b/);
    // A short UIT and a wrong VAT number: refused on their fields, in Romanian.
    await uit.fill("SCURT");
    await field(page, INPUTS.transportVat.block).fill("RO16341005");
    await modal(page).locator("button[type=submit]").click();
    const error = modal(page).locator(`[data-block-id="${INPUTS.transportUit.block}"] .bk-error`);
    await error.waitFor({ timeout: 10_000 });
    const said = (await modal(page).locator(".bk-error").allTextContents()).join(" | ");
    expect(said).toMatch(/[ăâîșț]|cod UIT|caracter/i);
    expect(said).not.toMatch(/\b(must|characters|invalid|required)\b/i);
    await h.screenshot("ro-3-etransport-errors");
    await modal(page).locator(".modal-foot button[type=button]").click();
    await modal(page).waitFor({ state: "detached" });
  });

  it("an alert in #alerts subscribed with lang=ro: posted in Romanian, resolved in Romanian", async () => {
    expect(await ask("/fleet alerts subscribe #alerts lang=ro", /alerte în română/)).toContain("#alerts");
    const running = h.bot.simulator!.control.transports().find((t) => t.statusId === 2)!;
    const row = page.locator(`#simulator .sim-row[data-uit="${running.codeUit}"]`);
    await row.waitFor({ timeout: 15_000 });
    await row.locator('button[data-code="Error"]').click();
    await row.locator(".tx.bad", { hasText: "Eroare la transmiterea datelor" }).waitFor({ timeout: 10_000 });
    await openChannel(page, ALERTS);
    const shown = `${running.codeUit.slice(0, 4)}-${running.codeUit.slice(4, 8)}`;
    const alert = page.locator("#messages > .msg").filter({ hasText: shown }).last();
    await alert.waitFor({ timeout: 20_000 });
    const text = (await alert.textContent()) ?? "";
    expect(text).toContain("Transmisie GPS întreruptă");
    expect(text).toMatch(/eroare la transmiterea datelor/i);
    expect(text).toContain("Stare: În desfășurare");
    expect(await alert.locator("button").allTextContents()).toEqual(
      expect.arrayContaining(["Pauză", "Fără alerte 24 h"]),
    );
    expect(text).not.toMatch(ENGLISH);
    await h.screenshot("ro-4-alert");
    const ts = await alert.getAttribute("data-ts");
    await row.locator('button[data-code="Active"]').click();
    await page
      .locator(`#messages > .msg[data-ts="${ts}"]`)
      .filter({ hasText: "Rezolvat" })
      .waitFor({ timeout: 20_000 });
  });

  it("the DM's Home tab is in Romanian; switching to English there writes it again in English", async () => {
    await openChannel(page, "D0DISPATCH");
    await page.locator(".tab", { hasText: "Home" }).click();
    await page
      .locator("#home .bk-blocks")
      .filter({ hasText: /platform(a|ei) GPS/ })
      .waitFor({ timeout: 10_000 });
    await page.locator('#lang-switch button[data-language="en"]').click();
    await page
      .locator("#home .bk-blocks")
      .filter({ hasText: /fleet account/ })
      .waitFor({ timeout: 10_000 });
    expect(await page.locator("#sim-toggle").textContent()).toBe("Simulator panel");
    expect(await page.locator("html").getAttribute("lang")).toBe("en");
    // Back to Română for the rest: the Home follows again.
    await page.locator('#lang-switch button[data-language="ro"]').click();
    await page
      .locator("#home .bk-blocks")
      .filter({ hasText: /platform(a|ei) GPS/ })
      .waitFor({ timeout: 10_000 });
    await page.locator(".tab", { hasText: "Messages" }).click();
    // Both confirmations landed in the DM, each in the language it chose.
    const dm = (await page.locator("#messages").textContent()) ?? "";
    expect(dm).toContain("Your language is now English");
    expect(dm).toContain("Limba ta este acum");
  });

  it("writes the Romanian screenshot (docs/sandbox-ro.png with SANDBOX_SCREENSHOT_TO_DOCS=1)", async () => {
    // #general after the walk: the fuel report (decimal commas, Romanian dates) and the alerts
    // subscription in Romanian, under the switch on Română, beside the Simulator panel in Romanian.
    // (#alerts may still hold the informational alert a fresh sandbox posts before lang=ro.)
    await openChannel(page, GENERAL);
    await page.locator("#toast").waitFor({ state: "hidden", timeout: 10_000 });
    await page.locator("#messages").evaluate((list) => {
      list.scrollTop = list.scrollHeight;
    });
    const path = await h.screenshot("sandbox-ro");
    expect(statSync(path).size).toBeLessThan(300 * 1024);
    if (process.env.SANDBOX_SCREENSHOT_TO_DOCS)
      copyFileSync(path, join(process.cwd(), "docs", "sandbox-ro.png"));
    expect(h.pageErrors).toEqual([]);
    expect(h.bot.fakeSlack!.violations).toEqual([]);
  });
});
