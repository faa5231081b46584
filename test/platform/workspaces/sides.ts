/**
 * Shared by the multi-workspace e2e tests (SQLite and Redis): the two teams of the fake Slack as a
 * test acts in them, through the signed driver of each, and what each team's users see.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { expect, vi } from "vitest";
import { INPUTS } from "../../../src/platform/slack/actionIds.js";
import type { FakeMessage, SlackDriver } from "../../../src/sandbox/fakeSlack/index.js";
import type { SimVehicle } from "../../../src/simulator/index.js";
import { textOf } from "../../helpers/botHarness.js";
import { type MultiWorkspaceHarness, TEAM_A, TEAM_B } from "../../helpers/multiWorkspaceHarness.js";

export const KEY_A = `T:${TEAM_A}`;
export const KEY_B = `T:${TEAM_B}`;
export const FOREIGN = /belongs to someone else/i;

/** One team as a test acts in it: its driver (signed requests, its fake workspace), a user and a channel. */
export interface Side {
  name: "A" | "B";
  key: string;
  driver: SlackDriver;
  user: string;
  /** A second user of the team. */
  other: string;
  channel: string;
  /** The bot user of the team (tokens_revoked names it). */
  botUser: string;
}

export function sidesOf(h: MultiWorkspaceHarness): { A: Side; B: Side } {
  return {
    A: {
      name: "A",
      key: KEY_A,
      driver: h.driverA,
      user: "U0DISPATCH",
      other: "U0NEWYORK",
      channel: "C0GENERAL",
      botUser: h.fake.options.botUserId,
    },
    B: {
      name: "B",
      key: KEY_B,
      driver: h.driverB,
      user: "U0SECDISP",
      other: "U0SECADMIN",
      channel: "C0SECGENERAL",
      botUser: h.driverB.workspace.options.botUserId,
    },
  };
}

// ------------------------------------------------------------------------------------ helpers

/** A slash command in a team, and whatever its listener said after the ack. */
export async function command(h: MultiWorkspaceHarness, side: Side, text: string, userId = side.user) {
  const result = await side.driver.slashCommand({ command: "/fleet", text, userId, channelId: side.channel });
  await h.bot.slack.idle();
  return result;
}

/** What a user sees in a channel of the team: public messages and the ephemeral ones to them. */
export function seenBy(side: Side, userId = side.user, channel = side.channel): FakeMessage[] {
  return side.driver.workspace.messages(channel).filter((m) => !m.ephemeral || m.visibleTo === userId);
}
export const lastSeen = (side: Side, userId = side.user, channel = side.channel) =>
  seenBy(side, userId, channel).at(-1);
export const lastEphemeral = (side: Side, userId = side.user, channel = side.channel) =>
  side.driver.workspace
    .messages(channel)
    .filter((m) => m.ephemeral && m.visibleTo === userId)
    .at(-1);

export const callsOf = (side: Side, method: string) =>
  side.driver.workspace.calls.filter((c) => c.method === method);

/**
 * The Web API calls made in a team's workspace, as text. oauth.v2.access is left out: the fake
 * records every team's token exchange with the default team (it carries no team token).
 */
export const apiCallsText = (side: Side) =>
  JSON.stringify(side.driver.workspace.calls.filter((c) => c.method !== "oauth.v2.access"));

/** Every button of a message with this action id, in action blocks and section accessories. */
export function buttonsIn(
  message: { blocks?: unknown[] } | undefined,
  actionId: string,
): { value: string }[] {
  const found: { value: string }[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") {
      const record = value as Record<string, unknown>;
      if (record.type === "button" && record.action_id === actionId && typeof record.value === "string")
        found.push({ value: record.value });
      else Object.values(record).forEach(walk);
    }
  };
  walk(message?.blocks ?? []);
  return found;
}

/** `/fleet login` in the team, then the form submitted; waits for the answer in the user's DM. */
export async function link(
  h: MultiWorkspaceHarness,
  side: Side,
  username: string,
  password: string,
  userId = side.user,
) {
  const ws = side.driver.workspace;
  const opens = callsOf(side, "views.open").filter((c) => c.ok).length;
  const dmBefore = ws.messages(userId).length;
  await command(h, side, "login", userId);
  await vi.waitFor(() =>
    expect(callsOf(side, "views.open").filter((c) => c.ok).length).toBeGreaterThan(opens),
  );
  const view = [...ws.viewsSnapshot().values()]
    .filter((v) => v.user === userId && v.type === "modal")
    .at(-1)!;
  await side.driver.viewSubmission({
    userId,
    viewId: view.id,
    values: {
      [INPUTS.loginUsername.block]: { [INPUTS.loginUsername.action]: username },
      [INPUTS.loginPassword.block]: { [INPUTS.loginPassword.action]: password },
    },
  });
  await h.settle();
  await vi.waitFor(() => {
    const answers = ws.messages(userId).slice(dmBefore);
    expect(answers.map((m) => textOf(m)).join("\n")).toMatch(
      /Linked: your commands now run as the fleet account/,
    );
  });
}

/**
 * A click on a button whose value was edited (what a copy of the message with another value
 * would send): the stored message's buttons of that action get the forged value, or, when the
 * message has none, a button of that action is added to it first.
 */
export async function forgedClick(
  side: Side,
  input: { userId: string; channelId: string; messageTs: string; actionId: string; value: string },
) {
  const message = side.driver.workspace.findMessage(input.channelId, input.messageTs);
  if (!message) throw new Error(`no message ${input.messageTs} in ${input.channelId}`);
  type Element = { action_id?: string; value?: string };
  type Block = { elements?: Element[]; accessory?: Element };
  const blocks = (message.blocks ?? []) as unknown as Block[];
  const buttons = blocks
    .flatMap((b) => [...(b.elements ?? []), ...(b.accessory ? [b.accessory] : [])])
    .filter((e) => e.action_id === input.actionId);
  if (buttons.length === 0) {
    message.blocks = [
      ...(message.blocks ?? []),
      {
        type: "actions",
        block_id: "forged",
        elements: [
          {
            type: "button",
            action_id: input.actionId,
            text: { type: "plain_text", text: "Forged" },
            value: input.value,
          },
        ],
      },
    ];
  }
  for (const button of buttons) button.value = input.value;
  return side.driver.blockAction(input);
}

/** Whether the text names the plate as a whole (B-88-AFH is not B-88-AF). */
export function mentions(text: string, plate: string): boolean {
  const escaped = plate.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^A-Za-z0-9-])${escaped}($|[^A-Za-z0-9-])`).test(text);
}

/** Alert messages (not thread replies, not ephemeral) of a channel that mention the UIT. */
export function alertsFor(side: Side, uit: string, channel = side.channel): FakeMessage[] {
  return side.driver.workspace.messages(channel).filter(
    (m) =>
      !m.ephemeral &&
      !m.threadTs &&
      JSON.stringify(m.blocks ?? [])
        .replace(/-/g, "")
        .includes(uit),
  );
}

/** The fleet: half of the vehicles for carrier-a, the other half for carrier-b. */
export function splitFleet(vehicles: readonly SimVehicle[]) {
  const a = vehicles.slice(0, 12);
  const b = vehicles.slice(12, 24);
  return { a, b };
}

/** A transport In Progress that transmits normally, on one of these vehicles. */
export function runningOn(h: MultiWorkspaceHarness, vehicles: readonly SimVehicle[]) {
  const uids = new Set(vehicles.map((v) => v.vehicleUId));
  return h.bot
    .simulator!.control.transports()
    .find((t) => t.statusId === 2 && !t.pinnedTransmission && uids.has(t.vehicleUId));
}

/** Row counts of one workspace key in the SQLite store, read from the file (read-only). */
export function rowsOf(h: MultiWorkspaceHarness, key: string) {
  const db = new Database(join(h.dataDir, "fleetbot.sqlite"), { readonly: true, fileMustExist: true });
  try {
    const count = (sql: string) => (db.prepare(sql).get(key) as { n: number }).n;
    return {
      tasks: count("SELECT count(*) AS n FROM tasks WHERE workspace = ?"),
      linked_accounts: count("SELECT count(*) AS n FROM linked_accounts WHERE workspace = ?"),
      alert_subscriptions: count("SELECT count(*) AS n FROM alert_subscriptions WHERE workspace = ?"),
      alert_posts: count("SELECT count(*) AS n FROM alert_posts WHERE workspace = ?"),
      alert_mutes: count("SELECT count(*) AS n FROM alert_mutes WHERE workspace = ?"),
      alert_groups: count("SELECT count(*) AS n FROM alert_groups WHERE workspace = ?"),
      user_settings: count("SELECT count(*) AS n FROM user_settings WHERE workspace = ?"),
      workspace_settings: count("SELECT count(*) AS n FROM workspace_settings WHERE workspace = ?"),
      slack_installations: count("SELECT count(*) AS n FROM slack_installations WHERE key = ?"),
      zones: count("SELECT count(*) AS n FROM zones WHERE workspace = ?"),
      report_schedules: count("SELECT count(*) AS n FROM report_schedules WHERE workspace = ?"),
    };
  } finally {
    db.close();
  }
}

/** No row of a workspace left (after its uninstall). */
export const ZERO: ReturnType<typeof rowsOf> = {
  tasks: 0,
  linked_accounts: 0,
  alert_subscriptions: 0,
  alert_posts: 0,
  alert_mutes: 0,
  alert_groups: 0,
  user_settings: 0,
  workspace_settings: 0,
  slack_installations: 0,
  zones: 0,
  report_schedules: 0,
};
