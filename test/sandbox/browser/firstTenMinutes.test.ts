/**
 * The first ten minutes of issue 24, walked in Chromium on the sandbox as `npm start` runs it
 * (no ALERTS_CHANNEL set): #alerts is subscribed as an ordinary subscription that the user can
 * remove and make again; a transport broken in the Simulator panel shows its alert in #alerts;
 * Pause on a card says where it stands before it is done; a wrong transport form shows every
 * error at once. (The picker and the scroll position: firstMinutes.test.ts.)
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTIONS, INPUTS } from "../../../src/platform/slack/actionIds.js";
import { chromiumAvailable, type SandboxHarness, startSandboxHarness } from "./harness.js";
import { command, field, localInput, message, modal, openChannel } from "./screen.js";

const run = chromiumAvailable();
let h: SandboxHarness;
let page: Page;

beforeAll(async () => {
  if (!run) return;
  h = await startSandboxHarness({ asStarted: true });
  page = h.page;
  await page.goto(h.url);
  await page.locator('.nav-item[data-channel="C0GENERAL"].active').waitFor();
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const sim = () => h.bot.simulator!;

describe.skipIf(!run)("the first ten minutes, walked", { timeout: 45_000 }, () => {
  it("#alerts is subscribed: listed, removable, and subscribed again, never blaming a setting", async () => {
    await command(page, "/fleet alerts list");
    await message(page, /C0ALERTS|#alerts/).waitFor({ timeout: 10_000 });
    await command(page, "/fleet alerts unsubscribe #alerts");
    await message(page, /no longer gets transport alerts/).waitFor({ timeout: 10_000 });
    await command(page, "/fleet alerts subscribe #alerts");
    await message(page, /now gets alerts/).waitFor({ timeout: 10_000 });
    expect(await page.locator("#messages").textContent()).not.toContain("ALERTS_CHANNEL");
  });

  it("a transport broken in the Simulator panel shows its alert in #alerts", async () => {
    const row = page
      .locator("#simulator .sim-row")
      .filter({ hasText: /In progress/ })
      .first();
    await row.waitFor({ timeout: 15_000 });
    const uit = await row.getAttribute("data-uit");
    expect(uit).toBeTruthy();
    await row.locator('button[data-code="Error"]').click();
    await openChannel(page, "C0ALERTS");
    const shown = `${uit!.slice(0, 4)}-${uit!.slice(4, 8)}`;
    await page.locator("#messages > .msg").filter({ hasText: shown }).last().waitFor({ timeout: 20_000 });
    await openChannel(page, "C0GENERAL");
  });

  it("Pause on a card says where it stands (place and estimate) before the card shows Paused", async () => {
    const running = sim()
      .control.transports()
      .find((t) => t.statusId === 2)!;
    await command(page, `/etransport list active ${running.codeUit}`);
    const list = message(page, new RegExp(running.codeUit.slice(0, 4)));
    const pause = list.locator(`button[data-action-id="${ACTIONS.transportPause}"]`).first();
    await pause.waitFor({ timeout: 15_000 });
    await pause.click();
    await list.filter({ hasText: "Paused" }).waitFor({ timeout: 15_000 });
    // What the card showed in between, as Slack received it (too brief to catch on screen here).
    const underWay = h.bot.fakeSlack!.responses.filter((r) => JSON.stringify(r.body).includes("Pausing…"));
    expect(underWay.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(underWay[0]!.body)).toMatch(
      /Pausing… (next in line|position \d+ in the queue|answering now)/,
    );
  });

  it("a wrong transport form shows every error at once", async () => {
    const vehicle = sim().vehicles[1]!;
    await command(page, "/etransport new");
    await modal(page).waitFor({ timeout: 15_000 });
    const box = field(page, INPUTS.transportVehicle.block);
    await box.click();
    await box.fill(vehicle.plate.slice(0, 4));
    await modal(page).locator(".menu-item", { hasText: vehicle.plate }).first().click();
    await field(page, INPUTS.transportUit.block).fill("SHORT");
    await field(page, INPUTS.transportVat.block).fill("RO16341005");
    const start = Date.now() + 3_600_000;
    await field(page, INPUTS.transportValidityStart.block).fill(localInput(start));
    await field(page, INPUTS.transportValidityEnd.block).fill(localInput(start + 86_400_000));
    await field(page, INPUTS.transportTrailer1.block).fill("xyz");
    await field(page, INPUTS.transportStartLocation.block).fill("Ploiești");
    await field(page, INPUTS.transportEndLocation.block).fill("Cluj-Napoca");
    await modal(page).locator("button[type=submit]").click();
    const errors = modal(page).locator(".bk-error");
    await errors.first().waitFor({ timeout: 10_000 });
    const blocks = await modal(page)
      .locator("[data-block-id]")
      .filter({ has: page.locator(".bk-error") })
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-block-id")));
    // UIT, VAT and trailer are wrong: all three are told on the first submit.
    expect(blocks).toEqual(
      expect.arrayContaining([
        INPUTS.transportUit.block,
        INPUTS.transportVat.block,
        INPUTS.transportTrailer1.block,
      ]),
    );
    await h.screenshot("first-ten-minutes-form-errors");
  });
});
