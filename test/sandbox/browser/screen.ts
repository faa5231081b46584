/**
 * What a dispatcher does and reads on the sandbox page, for the Chromium tests: type a
 * command, open a conversation, find a message, fill a date-time picker.
 */
import type { Locator, Page } from "playwright-core";

/** The browser context's zone (harness.ts): date-time pickers show and take local times in it. */
export const BROWSER_ZONE = "Europe/Bucharest";

/** Types a slash command into the composer and sends it. */
export async function command(page: Page, text: string): Promise<void> {
  const input = page.locator("#composer-input");
  await input.fill(text);
  await input.press("Enter");
}

export async function openChannel(page: Page, id: string): Promise<void> {
  await page.locator(`.nav-item[data-channel="${id}"]`).click();
  await page.locator(`.nav-item[data-channel="${id}"].active`).waitFor();
}

/** The newest top-level message of the open conversation containing `text`. */
export function message(page: Page, text: string | RegExp): Locator {
  return page.locator("#messages > .msg").filter({ hasText: text }).last();
}

/** One message by its ts: the same message before and after an update in place. */
export function messageAt(page: Page, ts: string): Locator {
  return page.locator(`#messages > .msg[data-ts="${ts}"]`);
}

/** The open modal (the top of the stack). */
export function modal(page: Page): Locator {
  return page.locator(".modal[data-view-id]");
}

/** The control of an input block of the open modal. */
export function field(page: Page, block: string): Locator {
  return modal(page).locator(`[data-block-id="${block}"] input`);
}

/** A datetime-local value ("2026-11-23T14:05") for an instant, in the browser's zone. */
export function localInput(ms: number): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: BROWSER_ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}T${get("hour")}:${get("minute")}`;
}

/** The instant a picker minute stands for: `ms` cut to its minute (pickers have no seconds). */
export function toMinute(ms: number): number {
  return Math.floor(ms / 60_000) * 60_000;
}

/** What the open modal shows, for a failure message: its field errors, else its text. */
async function modalReport(page: Page): Promise<string> {
  if ((await modal(page).count()) === 0) return "no modal is open";
  const errors = await modal(page).locator(".bk-error").allTextContents();
  if (errors.length > 0) return `its field errors: ${errors.join(" | ")}`;
  return `no field error; it reads: ${((await modal(page).textContent()) ?? "").slice(0, 300)}`;
}

/**
 * Waits for the open modal to show `outcome`. A submission the bot refuses leaves the form open
 * with field errors (or warnings to confirm): the failure then says what the dispatcher reads.
 */
export async function modalOutcome(page: Page, outcome: RegExp, timeout = 15_000): Promise<void> {
  try {
    await modal(page).filter({ hasText: outcome }).waitFor({ timeout });
  } catch (error) {
    throw new Error(`the modal did not show ${outcome}: ${await modalReport(page)}`, { cause: error });
  }
}

/** The text of an input block's error in the open modal, once one matching `text` is shown. */
export async function fieldError(page: Page, block: string, text: string | RegExp): Promise<string> {
  const error = modal(page).locator(`[data-block-id="${block}"] .bk-error`).filter({ hasText: text });
  try {
    await error.waitFor({ timeout: 10_000 });
  } catch (cause) {
    throw new Error(`no error ${text} on ${block}: ${await modalReport(page)}`, { cause });
  }
  return (await error.textContent()) ?? "";
}
