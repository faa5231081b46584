/**
 * A newcomer's first minutes on the sandbox page (issue 24): the report form's vehicle picker
 * works on the first try, and reading back in a long channel is not undone by arriving answers.
 */
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INPUTS } from "../../../src/platform/slack/actionIds.js";
import { chromiumAvailable, type SandboxHarness, startSandboxHarness } from "./harness.js";
import { command, field, message, modal, modalOutcome } from "./screen.js";

const run = chromiumAvailable();
const CHANNEL = "C0GENERAL";

let h: SandboxHarness;
let page: Page;

beforeAll(async () => {
  if (!run) return;
  h = await startSandboxHarness();
  page = h.page;
  await page.goto(h.url);
  await page.locator(`.nav-item[data-channel="${CHANNEL}"].active`).waitFor();
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const sim = () => h.bot.simulator!;

/** Where the message list is scrolled, and how far its end is below the visible part. */
function scroll(list: Locator) {
  return list.evaluate((node) => ({
    top: node.scrollTop,
    fromBottom: node.scrollHeight - node.scrollTop - node.clientHeight,
  }));
}

describe.skipIf(!run)("the first ten minutes in the sandbox", { timeout: 45_000 }, () => {
  it("the report form's vehicle picker lists the account's vehicles on the first try", async () => {
    const vehicle = sim().vehicles[0]!;
    await command(page, "/fleet report");
    await modal(page).waitFor({ timeout: 15_000 });
    // The first options answer, before anything else is typed: never an empty "No matches".
    await field(page, INPUTS.reportVehicles.block).click();
    const menu = modal(page).locator(`[data-block-id="${INPUTS.reportVehicles.block}"] .menu`);
    await menu.waitFor({ timeout: 5_000 });
    expect(await menu.locator(".menu-empty").count()).toBe(0);
    await menu.locator(".menu-item", { hasText: vehicle.plate }).click();
    await modal(page).locator(`[data-block-id="${INPUTS.reportKind.block}"] select`).selectOption("where");
    await modal(page).locator("button[type=submit]").click();
    // The form says the report is queued, or, when the lookup was answered first, the answer.
    await modalOutcome(page, /queued|full answer is in your direct messages/);
    await modal(page).locator("button.x").click();
    await modal(page).waitFor({ state: "detached" });
  });

  it("keeps the reader's place when an answer arrives, shows 'new messages below', and goes down on a click", async () => {
    const client = h.bot.slack.client;
    const fillers: string[] = [];
    for (let i = 1; i <= 40; i++) {
      const posted = await client.chat.postMessage({ channel: CHANNEL, text: `filler ${i}` });
      fillers.push(posted.ts!);
    }
    await message(page, "filler 40").waitFor();
    const list = page.locator("#messages");
    const marker = page.locator("#new-below");
    // At the bottom, a new message stays in view without a marker.
    await expect.poll(async () => (await scroll(list)).fromBottom).toBeLessThan(40);

    // The reader scrolls back to an earlier message.
    await message(page, "filler 10").evaluate((node) => node.scrollIntoView({ block: "start" }));
    const reading = await scroll(list);
    expect(reading.fromBottom).toBeGreaterThan(500);

    // A message in view changes (a card's Pause): the list stays where the reader is.
    await client.chat.update({ channel: CHANNEL, ts: fillers[10]!, text: "filler 11, paused" });
    await message(page, "filler 11, paused").locator(".edited").waitFor();
    expect((await scroll(list)).top).toBe(reading.top);
    expect(await marker.isVisible()).toBe(false);

    // An answer arrives below, out of view: the place is kept and the marker says so.
    const vehicle = sim().vehicles[1]!;
    // Sent as the page sends a command, without the composer (sending one's own scrolls down).
    const sent = await page.evaluate(
      async ({ channel, text, token }) =>
        (
          await fetch("/sandbox/command", {
            method: "POST",
            headers: { "content-type": "application/json", "x-sandbox-token": token },
            body: JSON.stringify({ channel, text }),
          })
        ).status,
      { channel: CHANNEL, text: `/fleet where ${vehicle.plate}`, token: h.token },
    );
    expect(sent).toBe(200);
    const answer = message(page, vehicle.plate);
    await answer.locator("a[href^='http']").first().waitFor({ timeout: 15_000 });
    expect((await scroll(list)).top).toBe(reading.top);
    await marker.waitFor({ state: "visible" });
    expect(await answer.evaluate((node) => node.getBoundingClientRect().top)).toBeGreaterThan(
      await list.evaluate((node) => node.getBoundingClientRect().bottom),
    );
    await h.screenshot("first-minutes-new-below");

    // The marker takes the reader to the end, and goes away.
    await marker.click();
    await expect.poll(async () => (await scroll(list)).fromBottom).toBeLessThan(40);
    await marker.waitFor({ state: "hidden" });

    // Scrolling down by hand clears it too.
    await message(page, "filler 10").evaluate((node) => node.scrollIntoView({ block: "start" }));
    await client.chat.postMessage({ channel: CHANNEL, text: "filler 41" });
    await marker.waitFor({ state: "visible" });
    await list.evaluate((node) => {
      node.scrollTop = node.scrollHeight;
    });
    await marker.waitFor({ state: "hidden" });
    expect(h.pageErrors).toEqual([]);
  });
});
