/**
 * The Simulator panel says when fleetbot checks alerts next (issue 24, item 6), so a newcomer
 * who forces a break knows how long to wait. The harness checks every 2 seconds.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, type SandboxHarness, startSandboxHarness } from "./harness.js";

const run = chromiumAvailable();

let h: SandboxHarness;
let page: Page;

beforeAll(async () => {
  if (!run) return;
  h = await startSandboxHarness();
  page = h.page;
  await page.goto(h.url);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe.skipIf(!run)("the Simulator panel's next alert check", { timeout: 45_000 }, () => {
  it("shows the seconds to the bot's next check, read from its schedule", async () => {
    const line = page.locator("#sim-next");
    await line.filter({ hasText: /^Next alert check in [12] s$/ }).waitFor({ timeout: 10_000 });
    expect(await line.isVisible()).toBe(true);
    expect(h.pageErrors).toEqual([]);
  });
});
