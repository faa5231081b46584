/**
 * The sandbox page in a real browser: Chromium types slash commands, clicks buttons and fills
 * the modal; the page reaches the bot only through SlackDriver's signed requests, and what it
 * shows comes from the fake Slack the bot's Web API calls land in.
 */
import { copyFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTIONS, INPUTS } from "../../../src/platform/slack/actionIds.js";
import { chromiumAvailable, type SandboxHarness, startSandboxHarness } from "./harness.js";
import { command, localInput, message, openChannel } from "./screen.js";

const run = chromiumAvailable();
const UIT = "SBOX1234TEST5678";

let h: SandboxHarness;
let page: Page;

beforeAll(async () => {
  if (!run) return;
  h = await startSandboxHarness();
  page = h.page;
  await page.goto(h.url);
  await page.locator('.nav-item[data-channel="C0GENERAL"].active').waitFor();
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const sim = () => h.bot.simulator!;

describe.skipIf(!run)("sandbox page in Chromium", { timeout: 45_000 }, () => {
  it("shows the channels, the DM, the command hints and the Simulator panel", async () => {
    await expect(page.locator(".nav-item").allTextContents()).resolves.toEqual(
      expect.arrayContaining([expect.stringContaining("general"), expect.stringContaining("alerts")]),
    );
    await expect(page.locator('.nav-item[data-channel="D0DISPATCH"]').textContent()).resolves.toContain(
      "fleetbot",
    );
    await page.locator("#composer-input").fill("/fleet wh");
    await page.locator("#hints .hint").first().waitFor();
    expect(await page.locator("#hints").textContent()).toContain("/fleet where <vehicle>");
    await page.locator("#composer-input").fill("");
    await page.locator("#simulator .sim-row").first().waitFor();
    expect(await page.locator("#simulator h2").textContent()).toBe("Simulator");
  });

  it("/fleet where <plate> shows the vehicle card", async () => {
    const vehicle = sim().vehicles[0]!;
    await command(page, `/fleet where ${vehicle.plate}`);
    const card = message(page, vehicle.plate);
    await card.waitFor({ timeout: 15_000 });
    // The final answer replaces the progress message: it carries a map link.
    await card.locator("a[href^='http']").first().waitFor({ timeout: 15_000 });
    await h.screenshot("01-where");
  });

  it("/fleet temps <reefer> yesterday shows the chart PNG inline in the DM", async () => {
    const reefer = sim().vehicles.find((v) => v.reefer)!;
    await command(page, `/fleet temps ${reefer.plate} yesterday`);
    await openChannel(page, "D0DISPATCH");
    const image = page.locator("#messages .file-image img").last();
    await image.waitFor({ timeout: 30_000 });
    await expect
      .poll(
        () =>
          image.evaluate((img) => {
            const loaded = img as unknown as { complete: boolean; naturalWidth: number };
            return loaded.complete ? loaded.naturalWidth : 0;
          }),
        {
          timeout: 10_000,
        },
      )
      .toBeGreaterThan(100);
    await image.scrollIntoViewIfNeeded();
    await h.screenshot("02-temps-chart");
    await openChannel(page, "C0GENERAL");
  });

  it("/etransport new: the modal shows a field error, then the corrected form posts the card", async () => {
    const vehicle = sim().vehicles[2]!;
    await command(page, "/etransport new");
    const modal = page.locator(".modal[data-view-id]");
    await modal.waitFor({ timeout: 15_000 });
    // Vehicle: an external select; options come from the bot (block_suggestion).
    const vehicleBox = modal.locator(`[data-block-id="${INPUTS.transportVehicle.block}"] input`);
    await vehicleBox.click();
    await vehicleBox.fill(vehicle.plate.slice(0, 4));
    await modal.locator(`.menu-item`, { hasText: vehicle.plate }).first().click();
    await modal.locator(`[data-block-id="${INPUTS.transportUit.block}"] input`).fill(UIT);
    // A wrong check digit: the bot answers response_action "errors".
    await modal.locator(`[data-block-id="${INPUTS.transportVat.block}"] input`).fill("RO16341005");
    // Two minutes ago: started (Start is allowed), yet within the form's grace for "now".
    const start = Date.now() - 2 * 60_000;
    await modal
      .locator(`[data-block-id="${INPUTS.transportValidityStart.block}"] input`)
      .fill(localInput(start));
    await modal
      .locator(`[data-block-id="${INPUTS.transportValidityEnd.block}"] input`)
      .fill(localInput(start + 4 * 86_400_000));
    await modal.locator(`[data-block-id="${INPUTS.transportStartLocation.block}"] input`).fill("Ploiești");
    await modal.locator(`[data-block-id="${INPUTS.transportEndLocation.block}"] input`).fill("Cluj-Napoca");
    await modal.locator("button[type=submit]").click();
    const error = page.locator(`[data-block-id="${INPUTS.transportVat.block}"] .bk-error`);
    await error.waitFor({ timeout: 10_000 });
    expect(await error.textContent()).not.toBe("");
    // The other fields kept what was typed.
    expect(await page.locator(`[data-block-id="${INPUTS.transportUit.block}"] input`).inputValue()).toBe(UIT);
    await h.screenshot("03-modal-field-error");

    await page.locator(`[data-block-id="${INPUTS.transportVat.block}"] input`).fill("RO16341004");
    await page.locator(".modal[data-view-id] button[type=submit]").click();
    const card = message(page, /SBOX/);
    await card.locator(`button[data-action-id="${ACTIONS.transportStart}"]`).waitFor({ timeout: 15_000 });
    expect(
      sim()
        .control.transports()
        .some((t) => t.codeUit === UIT),
    ).toBe(true);
    // The bot may leave the modal open with its outcome (response_action "update"): close it.
    const open = page.locator(".modal[data-view-id]");
    if ((await open.count()) > 0) {
      await h.screenshot("04-modal-after-save");
      await open.locator(".modal-foot button[type=button]").click();
      await open.waitFor({ state: "detached", timeout: 10_000 });
    }
    await h.screenshot("04-transport-created");
  });

  it("Start on the card starts the transport and updates the card in place", async () => {
    const card = message(page, /SBOX/);
    const ts = await card.getAttribute("data-ts");
    await card.locator(`button[data-action-id="${ACTIONS.transportStart}"]`).click();
    // Slack's confirm dialog, when the button has one.
    const confirm = page.locator(".confirm .modal");
    if (await confirm.isVisible().catch(() => false)) {
      await confirm.locator("button").last().click();
    }
    await expect
      .poll(
        () =>
          sim()
            .control.transports()
            .find((t) => t.codeUit === UIT)?.statusId,
        { timeout: 15_000 },
      )
      .toBe(2);
    const same = page.locator(`#messages > .msg[data-ts="${ts}"]`);
    await same.filter({ hasText: "In Progress" }).waitFor({ timeout: 15_000 });
    await same.locator(`button[data-action-id="${ACTIONS.transportPause}"]`).waitFor();
    expect(await page.locator(`#messages > .msg[data-ts="${ts}"]`).count()).toBe(1);
    await h.screenshot("05-transport-started");
  });

  it("Escape closes a dialog, the list is where it was, and only a visible update shows (edited)", async () => {
    const client = h.bot.slack.client;
    const channel = (await page.locator(".nav-item.active").getAttribute("data-channel"))!;
    const fillers: string[] = [];
    for (let i = 1; i <= 30; i++) {
      const posted = await client.chat.postMessage({ channel, text: `filler ${i}` });
      fillers.push(posted.ts!);
    }
    await message(page, "filler 30").waitFor();
    const list = page.locator("#messages");
    // The card itself (its Edit button), not the clicker's "⏳ Starting…" note about it.
    const card = page
      .locator("#messages > .msg")
      .filter({ has: page.locator(`button[data-action-id="${ACTIONS.transportEdit}"]`) })
      .filter({ hasText: /SBOX/ })
      .last();
    // The reader scrolls up to the card, away from the bottom.
    await card.evaluate((node) => node.scrollIntoView({ block: "center" }));
    const before = await list.evaluate((node) => ({
      top: node.scrollTop,
      fromBottom: node.scrollHeight - node.scrollTop - node.clientHeight,
    }));
    expect(before.fromBottom).toBeGreaterThan(100);

    await card.locator(`button[data-action-id="${ACTIONS.transportEdit}"]`).click();
    const modal = page.locator(".modal[data-view-id]");
    await modal.waitFor({ timeout: 15_000 });
    const viewId = (await modal.getAttribute("data-view-id"))!;
    await page.keyboard.press("Escape");
    await modal.waitFor({ state: "detached" });
    // Closing reached the bot as Slack's view_closed, and the list did not move.
    await expect.poll(() => h.bot.fakeSlack!.views.get(viewId)?.open).toBe(false);
    expect(await list.evaluate((node) => node.scrollTop)).toBe(before.top);

    // An update that changes nothing visible, then one that does: only the second shows (edited).
    await client.chat.update({ channel, ts: fillers[28]!, text: "filler 29" });
    await client.chat.update({ channel, ts: fillers[29]!, text: "filler 30, corrected" });
    await message(page, "filler 30, corrected").locator(".edited").waitFor();
    expect(await message(page, "filler 29").locator(".edited").count()).toBe(0);
  });

  it("the Simulator panel forces a transmission error: the alert shows in #alerts, then its resolution in place", async () => {
    const row = page.locator(`#simulator .sim-row[data-uit="${UIT}"]`);
    await row.waitFor({ timeout: 15_000 });
    await row.locator('button[data-code="Error"]').click();
    await row.locator(".tx.bad", { hasText: "Error" }).waitFor({ timeout: 10_000 });
    await openChannel(page, "C0ALERTS");
    // Alerts are polled by the bot (every 2 s here); the alert names the transport's UIT.
    const alert = page.locator("#messages > .msg").filter({ hasText: /SBOX/ }).last();
    await alert.waitFor({ timeout: 15_000 });
    await h.screenshot("06-alert");
    const ts = await alert.getAttribute("data-ts");
    const restored = page.locator(`#simulator .sim-row[data-uit="${UIT}"]`);
    await restored.locator('button[data-code="Active"]').click();
    await page
      .locator(`#messages > .msg[data-ts="${ts}"]`)
      .filter({ hasText: /Resolved|resolved/ })
      .waitFor({ timeout: 15_000 });
    await h.screenshot("07-alert-resolved");
  });

  it("the Home tab of the DM shows the app's home view (app_home_opened)", async () => {
    await openChannel(page, "D0DISPATCH");
    await page.locator(".tab", { hasText: "Home" }).click();
    await page.locator("#home .bk-blocks").waitFor({ timeout: 10_000 });
    expect(await page.locator("#home").textContent()).toMatch(/fleet account/);
    await h.screenshot("08-home-tab");
    await page.locator(".tab", { hasText: "Messages" }).click();
  });

  it("renders Block Kit and mrkdwn as Slack does: styles, links, mentions, dates, fields, menus, confirm, threads, edits", async () => {
    const client = h.bot.slack.client;
    const dm = "D0DISPATCH";
    const chart = h.bot.fakeSlack!.files.find((f) => f.name.endsWith(".png"))!;
    const option = (text: string, value: string) => ({ text: { type: "plain_text" as const, text }, value });
    const posted = await client.chat.postMessage({
      channel: dm,
      text: "Block Kit gallery",
      blocks: [
        { type: "header", text: { type: "plain_text", text: "Block Kit gallery :truck:", emoji: true } },
        {
          type: "section",
          block_id: "g.text",
          text: {
            type: "mrkdwn",
            text:
              "*bold* _italic_ ~strike~ `code` <https://example.com|a link> <@U0DISPATCH> <#C0ALERTS|alerts> &amp; &lt;tag&gt;\n" +
              "• first\n• second\n```line 1\nline 2```\n> quoted\n" +
              "At <!date^1700000000^{date_short} {time}|2023-11-14 22:13 UTC>",
          },
          accessory: {
            type: "overflow",
            action_id: "g.overflow",
            options: [option("One", "1"), option("Two", "2")],
          },
        },
        {
          type: "section",
          block_id: "g.fields",
          fields: [
            { type: "mrkdwn", text: "*Plate*\nB-123-ABC" },
            { type: "mrkdwn", text: "*Speed*\n54 km/h" },
          ],
        },
        { type: "context", elements: [{ type: "mrkdwn", text: "context _line_" }] },
        { type: "divider" },
        {
          type: "image",
          // The sandbox's own file route needs the page's token, as the page's images carry it.
          image_url: `${h.url}/sandbox/files?id=${chart.id}&token=${h.token}`,
          alt_text: "chart",
          title: { type: "plain_text", text: "Chart" },
        },
        {
          type: "actions",
          block_id: "g.actions",
          elements: [
            {
              type: "button",
              action_id: "g.danger",
              style: "danger",
              value: "x",
              text: { type: "plain_text", text: "Remove" },
              confirm: {
                title: { type: "plain_text", text: "Remove it?" },
                text: { type: "mrkdwn", text: "This is *irreversible*." },
                confirm: { type: "plain_text", text: "Remove" },
                deny: { type: "plain_text", text: "Keep" },
                style: "danger",
              },
            },
            {
              type: "static_select",
              action_id: "g.select",
              placeholder: { type: "plain_text", text: "Pick" },
              options: [option("Alpha", "a"), option("Beta", "b")],
            },
            { type: "datepicker", action_id: "g.date", initial_date: "2026-01-15" },
            { type: "datetimepicker", action_id: "g.datetime", initial_date_time: 1700000000 },
          ],
        },
      ],
    });
    const ts = posted.ts!;
    await openChannel(page, dm);
    const msg = page.locator(`#messages > .msg[data-ts="${ts}"]`);
    await msg.waitFor();
    const text = msg.locator('[data-block-id="g.text"]');
    expect(await text.locator("strong").first().textContent()).toBe("bold");
    expect(await text.locator("em").first().textContent()).toBe("italic");
    expect(await text.locator("s").first().textContent()).toBe("strike");
    expect(await text.locator("code").first().textContent()).toBe("code");
    expect(await text.locator("pre").textContent()).toBe("line 1\nline 2");
    expect(await text.locator('a[href="https://example.com"]').textContent()).toBe("a link");
    expect(await text.locator(".mention").textContent()).toBe("@Dana Dispatcher");
    expect(await text.locator(".channel-link").textContent()).toBe("#alerts");
    expect(await text.locator("blockquote").textContent()).toBe("quoted");
    const body = (await text.textContent()) ?? "";
    expect(body).toContain("& <tag>");
    expect(body).toContain("• first");
    // 1700000000 is 14 Nov 2023 22:13 UTC: 15 Nov 00:13 in the browser's zone (Europe/Bucharest).
    expect(await text.locator("time").getAttribute("datetime")).toBe("2023-11-14T22:13:20.000Z");
    expect(await text.locator("time").textContent()).toMatch(/^Nov 15, 2023 0?0:13/);
    expect(await msg.locator(".bk-fields > div").count()).toBe(2);
    expect(await msg.locator(".bk-header").textContent()).toContain("🚚");
    await expect
      .poll(() =>
        msg
          .locator(".bk-image img")
          .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      )
      .toBeGreaterThan(100);
    await msg.locator('button[data-action-id="g.overflow"]').click();
    expect(await msg.locator(".bk-overflow .menu-item").allTextContents()).toEqual(["One", "Two"]);
    await msg.locator('button[data-action-id="g.overflow"]').click();
    expect(await msg.locator('select[data-action-id="g.select"] option').allTextContents()).toEqual([
      "Pick",
      "Alpha",
      "Beta",
    ]);
    expect(await msg.locator('input[data-action-id="g.date"]').inputValue()).toBe("2026-01-15");
    expect(await msg.locator('input[data-action-id="g.datetime"]').inputValue()).toBe("2023-11-15T00:13");
    // Slack's confirm dialog; "Keep" sends nothing.
    await msg.locator('button[data-action-id="g.danger"]').click();
    const dialog = page.locator(".confirm .modal");
    await dialog.waitFor();
    expect(await dialog.locator("h2").textContent()).toBe("Remove it?");
    expect(await dialog.locator("strong").textContent()).toBe("irreversible");
    await h.screenshot("09-block-kit-confirm");
    await dialog.locator("button", { hasText: "Keep" }).click();
    await dialog.waitFor({ state: "detached" });

    // A thread reply, then the parent edited in place.
    await client.chat.postMessage({ channel: dm, thread_ts: ts, text: "a reply in the thread" });
    const link = msg.locator(".thread-link");
    await link.filter({ hasText: "1 reply" }).waitFor();
    await link.click();
    await msg.locator(".thread .msg", { hasText: "a reply in the thread" }).waitFor();
    await client.chat.update({ channel: dm, ts, text: "Gallery, edited", blocks: [] });
    await msg.filter({ hasText: "Gallery, edited" }).locator(".edited").waitFor();
    await h.screenshot("10-thread-and-edit");
  });

  it("writes the README screenshot and logs no page errors", async () => {
    // #alerts: the bot's main job, an alert and its resolution in place, beside the Simulator panel.
    await openChannel(page, "C0ALERTS");
    await page.locator("#toast").waitFor({ state: "hidden", timeout: 10_000 });
    await page.locator("#messages").evaluate((list) => {
      list.scrollTop = list.scrollHeight;
    });
    const path = await h.screenshot("sandbox");
    const size = statSync(path).size;
    expect(size).toBeLessThan(300 * 1024);
    if (process.env.SANDBOX_SCREENSHOT_TO_DOCS)
      copyFileSync(path, join(process.cwd(), "docs", "sandbox.png"));
    expect(h.pageErrors).toEqual([]);
    expect(h.bot.fakeSlack!.violations).toEqual([]);
  });
});
