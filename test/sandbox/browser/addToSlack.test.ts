/**
 * "Add to Slack" walked in Chromium, in multi-workspace mode (the issue: "install team A, install
 * team B, and check that a command in one never shows the other's vehicles or alerts"). The
 * browser reads the landing and privacy pages, clicks "Add to Slack", picks the team on the fake
 * Slack's authorize page and lands on the bot's success page; team B does the same in a fresh
 * browser context (its own state cookie). Then each team, through its signed driver, links its
 * own fleet account and asks for its vehicles, and subscribes a channel to alerts: nothing of one
 * carrier's fleet reaches the other team.
 *
 * The simulator has two users with disjoint vehicles: carrier-a (the first 12 vehicles of the
 * seed's fleet) and carrier-b (the next 12).
 */
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { generateFleet } from "../../../src/simulator/fleet.js";
import { textOf } from "../../helpers/botHarness.js";
import {
  type MultiWorkspaceHarness,
  startMultiWorkspaceHarness,
  TEAM_A,
  TEAM_B,
} from "../../helpers/multiWorkspaceHarness.js";
import { realClockEnv } from "../../helpers/realClock.js";
import {
  alertsFor,
  command,
  lastEphemeral,
  lastSeen,
  link,
  mentions,
  type Side,
  sidesOf,
} from "../../platform/workspaces/sides.js";
import { CHROMIUM, chromiumAvailable } from "./harness.js";

const run = chromiumAvailable();

/** The simulator's fleet, known before it starts: vehicle ids are deterministic per seed. */
const SEED = 1;
const VEHICLES = 28;
const FLEET = generateFleet(SEED, VEHICLES);
const FLEET_A = FLEET.slice(0, 12);
const FLEET_B = FLEET.slice(12, 24);

/** Each team's alert channel: public, the bot not a member (it posts with chat:write.public). */
const ALERTS_A = "C0ALERTS";
const ALERTS_B = "C0SECALERTS";

let h: MultiWorkspaceHarness;
let A: Side;
let B: Side;
let browser: Browser;
let profileDir: string;
/** Where the screenshots go: kept when a test fails (the path is printed), else removed. */
let shotsDir: string;
const pageErrors: string[] = [];
/** The walk's steps build on each other: after a failed one the rest would only time out. */
let failedStep: string | undefined;

beforeAll(async () => {
  if (!run) return;
  h = await startMultiWorkspaceHarness({
    start: {
      simulator: {
        seed: SEED,
        vehicleCount: VEHICLES,
        users: [
          { username: "carrier-a", password: "pass-a", vehicleIds: FLEET_A.map((v) => v.vehicleId) },
          { username: "carrier-b", password: "pass-b", vehicleIds: FLEET_B.map((v) => v.vehicleId) },
        ],
      },
    },
  });
  ({ A, B } = sidesOf(h));
  profileDir = mkdtempSync(join(tmpdir(), "fleetbot-chromium-"));
  shotsDir = mkdtempSync(join(tmpdir(), "fleetbot-add-to-slack-"));
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    env: realClockEnv(),
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--disk-cache-dir=${profileDir}`,
    ],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await h?.close();
  if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  if (!shotsDir) return;
  if (failedStep) console.warn(`addToSlack: screenshots kept in ${shotsDir}`);
  else rmSync(shotsDir, { recursive: true, force: true });
});

beforeEach((context) => {
  if (failedStep) context.skip(`the walk stopped at "${failedStep}"`);
  context.onTestFailed(() => {
    failedStep = context.task.name;
  });
});

/** A fresh browser context (its own cookies) with one page, its errors collected. */
async function freshPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 800 }, locale: "en-GB" });
  const page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("console", (message) => {
    const where = message.location().url;
    // Chromium asks every origin for /favicon.ico by itself; neither server has one.
    if (message.type() === "error" && !where.endsWith("/favicon.ico"))
      pageErrors.push(`${message.text()} (${where})`);
  });
  return page;
}

async function screenshot(page: Page, name: string): Promise<void> {
  const path = join(shotsDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  expect(statSync(path).size).toBeGreaterThan(1000);
}

/**
 * From the landing page through "Add to Slack" and the authorize page's link for `teamId` to the
 * bot's success page; returns the page on it.
 */
async function addToSlack(teamId: string, teamName: string, shots?: string): Promise<Page> {
  const page = await freshPage();
  await page.goto(`${h.bot.url}/`);
  const add = page.getByRole("link", { name: "Add to Slack", exact: true });
  expect(await add.getAttribute("href")).toBe("/slack/install");
  if (shots) await screenshot(page, `${shots}-landing`);
  await add.click();

  // The fake Slack's authorize page: one link per team, no team preselected.
  await page.waitForURL((url) => `${url.origin}${url.pathname}` === h.fake.authorizeUrl);
  expect(await page.locator("h1").textContent()).toMatch(/requesting permission/);
  const authorize = new URL(page.url());
  expect(authorize.searchParams.get("team")).toBeNull();
  expect(authorize.searchParams.get("state")).toBeTruthy();
  expect(authorize.searchParams.get("scope")?.split(",")).toContain("chat:write.public");
  const allow = page.getByRole("link", { name: new RegExp(`^Allow in ${teamName} \\(${teamId}\\)`) });
  expect(await allow.count()).toBe(1);
  await allow.click();

  // Back on the bot: the code exchanged, the installation stored, the team named.
  await page.waitForURL((url) => url.href.startsWith(`${h.bot.url}/slack/oauth_redirect?`));
  await page.locator("h1").filter({ hasText: "fleetbot is installed" }).waitFor();
  expect(await page.title()).toBe("fleetbot is installed");
  expect(await page.locator("p.lead").textContent()).toBe(`fleetbot is installed in ${teamName}.`);
  expect(await page.locator("main").textContent()).toContain("/fleet login workspace");
  if (shots) await screenshot(page, `${shots}-installed`);
  return page;
}

/** Every message of a team's channels and DMs, as text, dashes dropped (UITs are shown grouped). */
function everythingIn(side: Side, channels: readonly string[]): string {
  return channels
    .flatMap((channel) => side.driver.workspace.messages(channel).map((m) => textOf(m)))
    .join("\n");
}

describe.skipIf(!run)("Add to Slack in two workspaces, walked in Chromium", { timeout: 60_000 }, () => {
  it("the landing page shows what fleetbot does, Add to Slack and the privacy page, which says what uninstalling deletes", async () => {
    // The simulator runs the fleet the test split before it started.
    expect(h.bot.simulator!.vehicles.map((v) => v.vehicleId)).toEqual(FLEET.map((v) => v.vehicleId));

    const page = await freshPage();
    const landing = await page.goto(`${h.bot.url}/`);
    expect(landing?.status()).toBe(200);
    expect(await page.title()).toBe("fleetbot: vehicles and RO e-Transport transports in Slack");
    expect(await page.locator("h1").textContent()).toBe("fleetbot");
    expect(await page.getByRole("link", { name: "Add to Slack", exact: true }).getAttribute("href")).toBe(
      "/slack/install",
    );
    expect(await page.locator("main").textContent()).toContain("/fleet login workspace");

    await page.getByRole("link", { name: "Privacy", exact: true }).click();
    await page.waitForURL(`${h.bot.url}/privacy`);
    expect(await page.title()).toBe("fleetbot: privacy");
    const deleted = (await page.locator("h2:text-is('How it is deleted') + p").textContent()) ?? "";
    const said = deleted.replace(/\s+/g, " ");
    expect(said).toMatch(/^Uninstalling fleetbot from a workspace/);
    for (const what of [
      "installation",
      "linked accounts and their sealed passwords",
      "subscriptions",
      "incidents",
      "alert posts",
      "mutes",
      "tasks with their results",
      "cached users",
      "within a minute",
    ]) {
      expect(said).toContain(what);
    }
    expect(said).toContain("Other workspaces are not touched.");
    // Back to the landing page by the footer's link.
    await page.getByRole("link", { name: "fleetbot", exact: true }).click();
    await page.waitForURL(`${h.bot.url}/`);
    await page.context().close();
  });

  it("team A installs through Add to Slack: the authorize page, then the bot's page naming the team", async () => {
    const page = await addToSlack(TEAM_A, "Fleet Sandbox", "team-a");
    await page.context().close();
    expect(h.fake.oauth.installs.map((i) => i.teamId)).toEqual([TEAM_A]);
    expect(existsSync(join(shotsDir, "team-a-landing.png"))).toBe(true);
    expect(existsSync(join(shotsDir, "team-a-installed.png"))).toBe(true);
  });

  it("team B installs the same way in a fresh browser context", async () => {
    const page = await addToSlack(TEAM_B, "Second Carrier", "team-b");
    await page.context().close();
    expect(h.fake.oauth.installs.map((i) => i.teamId)).toEqual([TEAM_A, TEAM_B]);
    expect(pageErrors).toEqual([]);
  });

  it("each installer got a DM in their own team that names /fleet login workspace", async () => {
    await h.settle();
    for (const [side, other] of [
      [A, B],
      [B, A],
    ] as const) {
      await vi.waitFor(() => expect(side.driver.workspace.messages(side.user).length).toBeGreaterThan(0));
      const dm = side.driver.workspace.messages(side.user).map((m) => textOf(m));
      expect(dm.join("\n")).toContain("/fleet login workspace");
      // Nothing for the other team's installer landed in this team.
      expect(side.driver.workspace.messages(other.user)).toEqual([]);
    }
  });

  it("each team links its own account; /fleet vehicles shows its own plates and none of the other's", async () => {
    await link(h, A, "carrier-a", "pass-a");
    await link(h, B, "carrier-b", "pass-b");

    await command(h, A, "vehicles");
    await command(h, B, "vehicles");
    await h.settle();
    const answerA = textOf(lastSeen(A));
    const answerB = textOf(lastSeen(B));
    expect(
      FLEET_A.some((v) => mentions(answerA, v.plate)),
      answerA,
    ).toBe(true);
    expect(
      FLEET_B.some((v) => mentions(answerB, v.plate)),
      answerB,
    ).toBe(true);
    for (const v of FLEET_B)
      expect(mentions(answerA, v.plate), `team A's answer shows ${v.plate}`).toBe(false);
    for (const v of FLEET_A)
      expect(mentions(answerB, v.plate), `team B's answer shows ${v.plate}`).toBe(false);
    // Nowhere in either team (channels and both users' DMs) a plate of the other account.
    const allA = everythingIn(A, [A.channel, A.user, A.other]);
    const allB = everythingIn(B, [B.channel, B.user, B.other]);
    for (const v of FLEET_B) expect(mentions(allA, v.plate), `team A shows ${v.plate}`).toBe(false);
    for (const v of FLEET_A) expect(mentions(allB, v.plate), `team B shows ${v.plate}`).toBe(false);
  });

  it("a transmission problem of carrier-a alerts team A's channel only; team B's channel never names the UIT", async () => {
    const subscribe = async (side: Side, channel: string) => {
      await side.driver.slashCommand({
        command: "/fleet",
        text: "alerts subscribe",
        userId: side.user,
        channelId: channel,
      });
      await h.bot.slack.idle();
      await vi.waitFor(() =>
        expect(textOf(lastEphemeral(side, side.user, channel))).toMatch(/now gets alerts/i),
      );
    };
    await subscribe(A, ALERTS_A);
    await subscribe(B, ALERTS_B);

    await h.bot.alerts.runOnce(); // the demo fleet's existing problems
    await h.settle();
    const sim = h.bot.simulator!.control;
    const uidsA = new Set(FLEET_A.map((v) => v.vehicleUId));
    const running = sim
      .transports()
      .find((t) => t.statusId === 2 && !t.pinnedTransmission && uidsA.has(t.vehicleUId));
    expect(running, "a transport in progress on a carrier-a vehicle").toBeDefined();
    const uit = running!.codeUit;
    expect(alertsFor(A, uit, ALERTS_A)).toEqual([]);

    sim.setTransport(uit, { transmissionStatusCode: "NoGPSCoordinates" });
    await h.bot.alerts.runOnce();
    await h.settle();

    const alerts = alertsFor(A, uit, ALERTS_A);
    expect(alerts).toHaveLength(1);
    expect(textOf(alerts[0])).toMatch(/NoGPSCoordinates|No GPS/);
    // Team B: not in its alert channel, nor anywhere else in the team, nor in a call made there.
    expect(alertsFor(B, uit, ALERTS_B)).toEqual([]);
    expect(everythingIn(B, [ALERTS_B, B.channel, B.user, B.other]).replace(/-/g, "")).not.toContain(uit);
    expect(JSON.stringify(h.driverB.workspace.calls).replace(/-/g, "")).not.toContain(uit);

    // Whatever each alert channel shows, it names only its own carrier's transports.
    const uitsOn = (vehicles: typeof FLEET) => {
      const uids = new Set(vehicles.map((v) => v.vehicleUId));
      return sim
        .transports()
        .filter((t) => uids.has(t.vehicleUId))
        .map((t) => t.codeUit);
    };
    const shownA = everythingIn(A, [ALERTS_A]).replace(/-/g, "");
    const shownB = everythingIn(B, [ALERTS_B]).replace(/-/g, "");
    for (const other of uitsOn(FLEET_B)) expect(shownA, `team A shows ${other}`).not.toContain(other);
    for (const other of uitsOn(FLEET_A)) expect(shownB, `team B shows ${other}`).not.toContain(other);

    expect(h.driverA.workspace.violations).toEqual([]);
    expect(h.driverB.workspace.violations).toEqual([]);
  });
});
