/**
 * A dispatcher's walk through the sandbox page in Chromium (issue 14): create an e-Transport,
 * start it, edit it, cancel a queued report. After each step the test reads what the screen
 * shows, and checks the fleet service wherever the screen claims a change.
 *
 * The fleet service is the simulator the sandbox embeds, started here behind a pass-through
 * proxy (test/helpers/fleetProxy.ts) so that one report's answer can be held while the next one waits.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ACTIONS, INPUTS } from "../../../src/platform/slack/actionIds.js";
import { type RunningSimulator, type SimVehicle, startSimulator } from "../../../src/simulator/index.js";
import { type FleetProxy, startFleetProxy } from "../../helpers/fleetProxy.js";
import { chromiumAvailable, type SandboxHarness, startSandboxHarness } from "./harness.js";
import {
  command,
  field,
  fieldError,
  localInput,
  message,
  messageAt,
  modal,
  modalOutcome,
  toMinute,
} from "./screen.js";

const run = chromiumAvailable();
const UIT = "SBOX1234TEST5678";
const SHOWN_UIT = "SBOX-1234-TEST-5678";
const VAT = "RO16341004";
const CARD = `[data-block-id="etransport.card.${UIT}"]`;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let h: SandboxHarness;
let page: Page;
let sim: RunningSimulator;
let fleet: FleetProxy;
/** The vehicle of the walk's transport. */
let truck: SimVehicle;
/** The card the walk acts on: posted by the create, updated in place after. */
let cardTs: string;
/** The walk's steps build on each other: after a failed one the rest would only time out. */
let failedStep: string | undefined;

beforeAll(async () => {
  if (!run) return;
  sim = await startSimulator({ minIntervalMs: 50, control: true, drift: false, port: 0 });
  fleet = await startFleetProxy(sim.url);
  h = await startSandboxHarness({ fleetApiUrl: fleet.url });
  page = h.page;
  truck = sim.vehicles[3]!;
  await page.goto(h.url);
  await page.locator('.nav-item[data-channel="C0GENERAL"].active').waitFor();
}, 60_000);

afterAll(async () => {
  await h?.close();
  await fleet?.close();
  await sim?.close();
});

beforeEach((context) => {
  if (failedStep) context.skip(`the walk stopped at "${failedStep}"`);
  context.onTestFailed(() => {
    failedStep = context.task.name;
  });
});

const stored = () => sim.control.transports().find((t) => t.codeUit === UIT);

/** The validity a card shows (its first two <time> elements), as epoch ms. */
async function shownValidity(ts: string): Promise<number[]> {
  const times = messageAt(page, ts).locator(`${CARD} time`);
  const isos = await times.evaluateAll((nodes) => nodes.map((n) => n.getAttribute("datetime") ?? ""));
  return isos.slice(0, 2).map((iso) => Date.parse(iso));
}

async function closeModal(): Promise<void> {
  await modal(page).locator(".modal-foot button[type=button]").click();
  await modal(page).waitFor({ state: "detached" });
}

describe.skipIf(!run)("a dispatcher's walk in Chromium", { timeout: 30_000 }, () => {
  // Picker minutes: two minutes ago (so Start is allowed), valid for the 5 days of high-risk goods.
  const validityStart = toMinute(Date.now() - 2 * 60_000);
  const validityEnd = validityStart + 5 * DAY;

  it("creates an e-Transport: the dialog and the card say what the service now holds", async () => {
    await command(page, "/etransport new");
    await field(page, INPUTS.transportUit.block).waitFor({ timeout: 15_000 });
    // The vehicle select asks the bot for options as the dispatcher types.
    const vehicleBox = field(page, INPUTS.transportVehicle.block);
    await vehicleBox.click();
    // The options come from the account's cached vehicle list, which the modal's opening warms:
    // on a busy machine the first keystrokes may come before it, and a dispatcher types again.
    const option = modal(page).locator(".menu-item", { hasText: truck.plate }).first();
    for (let attempt = 0; attempt < 10; attempt++) {
      await vehicleBox.fill("");
      await vehicleBox.fill(truck.plate.slice(0, 5));
      if (
        await option.waitFor({ timeout: 1_500 }).then(
          () => true,
          () => false,
        )
      )
        break;
    }
    await option.click({ timeout: 5_000 });
    await field(page, INPUTS.transportUit.block).fill(SHOWN_UIT.toLowerCase());
    await field(page, INPUTS.transportVat.block).fill(VAT);
    await field(page, INPUTS.transportValidityStart.block).fill(localInput(validityStart));
    await field(page, INPUTS.transportValidityEnd.block).fill(localInput(validityEnd));
    await field(page, INPUTS.transportStartLocation.block).fill("București");
    await field(page, INPUTS.transportEndLocation.block).fill("Sibiu");
    await modal(page).locator("button[type=submit]").click();

    await modalOutcome(page, /created/);
    expect(await modal(page).textContent()).toContain(SHOWN_UIT);
    const card = message(page, SHOWN_UIT);
    await card.locator(`button[data-action-id="${ACTIONS.transportStart}"]`).waitFor({ timeout: 15_000 });
    cardTs = (await card.getAttribute("data-ts"))!;
    const text = (await card.textContent()) ?? "";
    expect(text).toContain(`Transport ${SHOWN_UIT} created`);
    expect(text).toContain("Pending");
    expect(text).toContain(truck.plate);
    expect(text).toContain("București → Sibiu");
    expect(await shownValidity(cardTs)).toEqual([validityStart, validityEnd]);

    expect(stored()).toMatchObject({
      vehicleUId: truck.vehicleUId,
      statusId: 1,
      validityStartDate: validityStart,
      validityEndDate: validityEnd,
      startLocation: "București",
      endLocation: "Sibiu",
    });
    await closeModal();
    await h.screenshot("walk-1-created");
  });

  it("starts it: the same card turns In Progress with Pause instead of Start, as the service has it", async () => {
    const card = messageAt(page, cardTs);
    await card.locator(`button[data-action-id="${ACTIONS.transportStart}"]`).click();
    await card.filter({ hasText: "In Progress" }).waitFor({ timeout: 15_000 });
    await card.locator(`button[data-action-id="${ACTIONS.transportPause}"]`).waitFor();
    expect(await card.locator(`button[data-action-id="${ACTIONS.transportStart}"]`).count()).toBe(0);
    expect(await card.textContent()).toContain("Active");

    const started = stored()!;
    expect(started.statusId).toBe(2);
    expect(started.startDate).not.toBeNull();
    await h.screenshot("walk-2-started");
  });

  it("edits it: a refused Save says why on its field; the saved validity end is the one every card shows", async () => {
    const before = stored()!;
    await messageAt(page, cardTs).locator(`button[data-action-id="${ACTIONS.transportEdit}"]`).click();
    // The form, once the transport is looked up, holds what the service has.
    const end = field(page, INPUTS.transportValidityEnd.block);
    await end.waitFor({ timeout: 15_000 });
    expect(await end.inputValue()).toBe(localInput(validityEnd));
    expect(await field(page, INPUTS.transportValidityStart.block).inputValue()).toBe(
      localInput(validityStart),
    );
    expect(await field(page, INPUTS.transportVehicle.block).inputValue()).toContain(truck.plate);
    expect(await field(page, INPUTS.transportStartLocation.block).inputValue()).toBe("București");
    expect(await field(page, INPUTS.transportVat.block).inputValue()).toBe("");

    const newEnd = validityEnd + 12 * HOUR;
    await end.fill(localInput(newEnd));
    const save = modal(page).locator("button[type=submit]");
    // The service never gives the VAT number back, so the form cannot hold it: without it the
    // Save is refused on the VAT field, and the form keeps what was typed.
    await save.click();
    expect(await fieldError(page, INPUTS.transportVat.block, /VAT/)).toContain("VAT");
    expect(await end.inputValue()).toBe(localInput(newEnd));
    expect(stored()!.validityEndDate).toBe(validityEnd);

    // 5 days 12 h is longer than high-risk goods may have: a warning, saved by a second Save.
    await field(page, INPUTS.transportVat.block).fill(VAT);
    await save.click();
    // The one duration form (src/i18n/format.ts): hours do not roll into days.
    expect(await fieldError(page, INPUTS.transportValidityEnd.block, /Submit again/)).toContain("132 h");
    expect(stored()!.validityEndDate).toBe(validityEnd);
    await h.screenshot("walk-3-edit-warning");
    await save.click();

    await modalOutcome(page, /updated/);
    const outcome = (await modal(page).textContent()) ?? "";
    expect(outcome).toContain(SHOWN_UIT);
    expect(outcome).toContain("#general");
    // The card the dispatcher clicked is updated in place, and the edit posts the new card beside it.
    await expect.poll(() => shownValidity(cardTs), { timeout: 15_000 }).toEqual([validityStart, newEnd]);
    const updated = message(page, `Transport ${SHOWN_UIT} updated`);
    await updated.locator(CARD).waitFor();
    const updatedTs = (await updated.getAttribute("data-ts"))!;
    expect(updatedTs).not.toBe(cardTs);
    expect(await shownValidity(updatedTs)).toEqual([validityStart, newEnd]);

    expect(stored()).toMatchObject({
      validityStartDate: before.validityStartDate,
      validityEndDate: newEnd,
      vehicleUId: truck.vehicleUId,
      statusId: 2,
      startLocation: "București",
      endLocation: "Sibiu",
    });
    await closeModal();
    await h.screenshot("walk-4-edited");
  });

  it("cancels a queued report: the waiting message says who cancelled, and the service is never asked", async () => {
    const [first, second] = sim.vehicles.filter((v) => v.plate !== truck.plate);
    // The first report's call reaches the service and gets no answer until the test lets it go:
    // the account's one call in flight, so the next report waits its turn.
    fleet.hold("stops", "request");
    await command(page, `/fleet stops ${first!.plate} yesterday`);
    await expect.poll(() => fleet.held()).toBe(1);
    const running = message(page, `Stops report for ${first!.plate}`);
    const runningTs = (await running.getAttribute("data-ts"))!;
    await command(page, `/fleet fuel ${second!.plate} yesterday`);
    const queued = message(page, `Fuel report for ${second!.plate}`);
    const cancel = queued.locator(`button[data-action-id="${ACTIONS.cancelTask}"]`);
    await cancel.waitFor({ timeout: 15_000 });
    const queuedTs = (await queued.getAttribute("data-ts"))!;
    expect(await queued.textContent()).toMatch(/⏳.*(next in line|position \d+ in the queue)/);
    await h.screenshot("walk-5-queued");
    await cancel.click();

    // The waiting message itself says who cancelled it, with no button left to press.
    const cancelled = messageAt(page, queuedTs);
    await cancelled.filter({ hasText: "cancelled by @Dana Dispatcher" }).waitFor({ timeout: 15_000 });
    expect(await cancelled.locator("button").count()).toBe(0);
    // The account's queue holds the first report only.
    await command(page, "/fleet queue");
    const queue = message(page, /Queue of/);
    await queue.waitFor({ timeout: 15_000 });
    const listed = (await queue.textContent()) ?? "";
    expect(listed).toContain(`Stops report for ${first!.plate}`);
    expect(listed).not.toContain("Fuel report");
    await h.screenshot("walk-6-cancelled");

    // The held answer arrives: the first report's message turns into its answer, and once the
    // account has nothing left to run, the service has still never been asked for fuel.
    fleet.release();
    await messageAt(page, runningTs).filter({ hasNotText: "⏳" }).filter({ hasText: first!.plate }).waitFor({
      timeout: 15_000,
    });
    await h.bot.runner.idle();
    const asked = sim.control.requests(500).map((r) => r.endpoint);
    expect(asked).toContain("stops");
    expect(asked).not.toContain("consumption");
    expect(await cancelled.textContent()).toContain("cancelled by @Dana Dispatcher");

    expect(h.pageErrors).toEqual([]);
    expect(h.bot.fakeSlack!.violations).toEqual([]);
  });
});
