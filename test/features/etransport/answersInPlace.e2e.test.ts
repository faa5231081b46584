/**
 * Issue 14, points 4, 6, 7 and 8: answers land in the right place and the messages a user
 * sees stay current. Through the signed driver, the real bot, the simulator and the fake
 * Slack, which records every state a message went through.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ACTIONS, INPUTS } from "../../../src/platform/slack/actionIds.js";
import type { FakeMessage } from "../../../src/sandbox/fakeSlack/index.js";
import { type BotHarness, lastSeenBy, startBotHarness, textOf } from "../../helpers/botHarness.js";

let h: BotHarness;
const USER = "U0DISPATCH";
const OTHER = "U0NEWYORK";
const CHANNEL = "C0GENERAL";

beforeAll(async () => {
  h = await startBotHarness();
});
afterAll(async () => {
  await h.close();
});
afterEach(() => {
  expect(h.fake.violations).toEqual([]);
  h.fake.reset();
});

const sim = () => h.bot.simulator!;
const fleet = (text: string, userId = USER) =>
  h.driver.slashCommand({ command: "/fleet", text, userId, channelId: CHANNEL });
const et = (text: string, userId = USER) =>
  h.driver.slashCommand({ command: "/etransport", text, userId, channelId: CHANNEL });
const lastSeen = (userId = USER) => lastSeenBy(h.fake, CHANNEL, userId);
const messageAt = (ts: string, channel = CHANNEL) => h.fake.messages(channel).find((m) => m.ts === ts);
const click = (message: FakeMessage, actionId: string, value: string, userId = USER) =>
  h.driver.blockAction({ userId, channelId: message.channel, messageTs: message.ts, actionId, value });

/** Every state one message goes through from now on, as a person would read it. */
function followMessage(ts: string, channel = CHANNEL) {
  const states: { text: string; blocks: unknown[] }[] = [];
  const stop = h.fake.onChange((event) => {
    if (event.kind !== "message" || event.ts !== ts || event.action !== "updated") return;
    const message = messageAt(ts, channel);
    if (message) states.push({ text: textOf(message), blocks: structuredClone(message.blocks ?? []) });
  });
  return { states, stop };
}

/** A message's buttons with this action id, in actions blocks and as section accessories. */
function buttonsIn(message: { blocks?: unknown[] } | undefined, actionId: string): { value: string }[] {
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

/** How many transport cards a message shows. */
const cardCount = (blocks: unknown[] | undefined) =>
  (blocks ?? []).filter((b) => JSON.stringify(b).includes('"block_id":"etransport.card.')).length;

describe("a button in a list keeps the list (point 8)", () => {
  it("Pause in /etransport list: the list never blanks, the card shows ⏳ Pausing…, then its new state", async () => {
    await et("list all");
    await h.settle();
    const list = lastSeen()!;
    const cards = cardCount(list.blocks);
    expect(cards).toBeGreaterThan(1);
    const pauses = buttonsIn(list, ACTIONS.transportPause).length;
    const pause = buttonsIn(list, ACTIONS.transportPause)[0]!;
    expect(pause).toBeDefined();
    const { u: uit } = JSON.parse(pause.value) as { u: string };
    const followed = followMessage(list.ts);
    await click(list, ACTIONS.transportPause, pause.value);
    await h.settle();
    followed.stop();

    expect(
      sim()
        .control.transports()
        .find((t) => t.codeUit === uit)?.statusId,
    ).toBe(6);
    expect(followed.states.length).toBeGreaterThanOrEqual(2);
    // Every state the user saw was the whole list: no progress message, no blank.
    for (const state of followed.states) expect(cardCount(state.blocks)).toBe(cards);
    // First the acted-on card under way, with its place and estimate (issue 24: as commands say
    // it), its buttons gone and the others' kept; then the list with it paused.
    const first = followed.states[0]!;
    expect(first.text).toMatch(/Pausing… (next in line|position \d+ in the queue|answering now)/);
    const firstButtons = buttonsIn({ blocks: first.blocks }, ACTIONS.transportPause).map((b) => b.value);
    expect(firstButtons).not.toContain(pause.value);
    expect(firstButtons.length).toBe(pauses - 1);
    const last = followed.states.at(-1)!;
    expect(last.text).not.toContain("Pausing…");
    expect(last.text).toContain("Paused");
    // No other message was left behind for the user.
    expect(lastSeen()?.ts).toBe(list.ts);
  });

  it("Position in /fleet vehicles: the list stays as it was, the position comes as a new message to the clicker", async () => {
    await fleet("vehicles");
    await h.settle();
    const list = lastSeen()!;
    const before = JSON.stringify(list.blocks);
    const revisions = list.revisions;
    const position = buttonsIn(list, ACTIONS.showPosition)[0]!;
    expect(position).toBeDefined();
    await click(list, ACTIONS.showPosition, position.value);
    await h.settle();
    const after = messageAt(list.ts)!;
    expect(after.revisions).toBe(revisions);
    expect(JSON.stringify(after.blocks)).toBe(before);
    const answer = lastSeen()!;
    expect(answer.ts).not.toBe(list.ts);
    expect(answer.ephemeral).toBe(true);
    expect(answer.visibleTo).toBe(USER);
    expect(textOf(answer)).toContain(position.value);
    // Nothing else was posted between them: no "Looking up…" left behind.
    const since = h.fake.messages(CHANNEL).filter((m) => Number(m.ts) > Number(list.ts));
    expect(since.map((m) => m.ts)).toEqual([answer.ts]);
    // The position card's own Refresh updates that card, and still leaves the list alone.
    const refresh = buttonsIn(answer, ACTIONS.showPosition)[0]!;
    const answerRevisions = answer.revisions;
    await click(answer, ACTIONS.showPosition, refresh.value);
    await h.settle();
    expect(messageAt(answer.ts)!.revisions).toBeGreaterThan(answerRevisions);
    expect(h.fake.messages(CHANNEL).filter((m) => Number(m.ts) > Number(list.ts))).toHaveLength(1);
    expect(JSON.stringify(messageAt(list.ts)!.blocks)).toBe(before);
  });
});

describe("a button on a card the channel sees (points 4 and 8)", () => {
  it("Start on a posted transport card: no progress bar replaces it for everyone, only the result does", async () => {
    const opens = h.fake.calls.filter((c) => c.method === "views.open").length;
    await et("new");
    await h.fake.waitFor(() => h.fake.calls.filter((c) => c.method === "views.open").length > opens);
    const form = [...h.fake.views.values()].at(-1)!;
    const start = Math.floor((Date.now() - 60_000) / 60_000) * 60;
    await h.driver.viewSubmission({
      userId: USER,
      viewId: form.id,
      values: {
        [INPUTS.transportVehicle.block]: { [INPUTS.transportVehicle.action]: sim().vehicles[7]!.vehicleUId },
        [INPUTS.transportUit.block]: { [INPUTS.transportUit.action]: "SHAR-EDCA-RD00-0001" },
        [INPUTS.transportVat.block]: { [INPUTS.transportVat.action]: "RO16341004" },
        [INPUTS.transportValidityStart.block]: { [INPUTS.transportValidityStart.action]: start },
        [INPUTS.transportValidityEnd.block]: { [INPUTS.transportValidityEnd.action]: start + 2 * 86_400 },
        [INPUTS.transportStartLocation.block]: { [INPUTS.transportStartLocation.action]: "București" },
        [INPUTS.transportEndLocation.block]: { [INPUTS.transportEndLocation.action]: "Constanța" },
      },
    });
    await h.settle();
    const card = h.fake
      .messages(CHANNEL)
      .filter((m) => !m.ephemeral)
      .at(-1)!;
    const startButton = buttonsIn(card, ACTIONS.transportStart)[0]!;
    expect(startButton).toBeDefined();
    const followed = followMessage(card.ts);
    await click(card, ACTIONS.transportStart, startButton.value, OTHER);
    await h.settle();
    followed.stop();
    expect(followed.states.length).toBeGreaterThanOrEqual(1);
    for (const state of followed.states) {
      expect(state.text).not.toMatch(/next in line|in the queue/);
      expect(buttonsIn({ blocks: state.blocks }, ACTIONS.cancelTask)).toEqual([]);
    }
    expect(followed.states.at(-1)!.text).toContain("In Progress");
  });
});

describe("a button on a shared alert answers the clicker only (point 4)", () => {
  it("Show transport leaves the alert as everyone sees it and sends the card to the clicker alone", async () => {
    await fleet("alerts subscribe");
    await h.bot.slack.idle(); // the subscription is answered after the ack
    await h.bot.alerts.runOnce(); // the demo fleet's existing problems
    const running = sim()
      .control.transports()
      .find((t) => t.statusId === 2 && !t.pinnedTransmission)!;
    sim().control.setTransport(running.codeUit, { transmissionStatusCode: "Error" });
    await h.bot.alerts.runOnce();
    const alert = h.fake
      .messages(CHANNEL)
      .filter((m) => !m.ephemeral && !m.threadTs)
      .find((m) => JSON.stringify(m.blocks).replace(/-/g, "").includes(running.codeUit))!;
    expect(alert).toBeDefined();
    const before = JSON.stringify(alert.blocks);
    const show = buttonsIn(alert, ACTIONS.transportShow)[0]!;
    await click(alert, ACTIONS.transportShow, show.value, OTHER);
    await h.settle();
    const after = messageAt(alert.ts)!;
    expect(after.revisions).toBe(0);
    expect(JSON.stringify(after.blocks)).toBe(before);
    const seenByOther = h.fake
      .messages(CHANNEL)
      .filter((m) => m.ephemeral && m.visibleTo === OTHER && Number(m.ts) > Number(alert.ts));
    // First, at once, a note that the lookup is under way (issue 24), then the card: both to the clicker alone.
    expect(seenByOther).toHaveLength(2);
    expect(textOf(seenByOther[0])).toMatch(
      /Looking up UIT .*: (next in line|position|answering now|under a second)/,
    );
    expect(textOf(seenByOther[1]).replace(/-/g, "")).toContain(running.codeUit);
    const seenByAll = h.fake.messages(CHANNEL).filter((m) => !m.ephemeral);
    expect(seenByAll.some((m) => textOf(m).includes("Looking up"))).toBe(false);
    await fleet("alerts unsubscribe");
  });
});

describe("a cancel updates the waiting message and the queue (point 7)", () => {
  it("Cancel on the waiting message: it says who cancelled, with no button left", async () => {
    await fleet("stops all last 30d");
    const waiting = lastSeen()!;
    const cancel = buttonsIn(waiting, ACTIONS.cancelTask)[0]!;
    expect(cancel).toBeDefined();
    await click(waiting, ACTIONS.cancelTask, cancel.value);
    await h.settle();
    expect((await h.bot.tasks.get(cancel.value))?.state).toBe("cancelled");
    const after = messageAt(waiting.ts)!;
    expect(textOf(after)).toContain(`cancelled by <@${USER}>`);
    expect(buttonsIn(after, ACTIONS.cancelTask)).toEqual([]);
    // Nothing live-looking is left anywhere: every message with this task's Cancel button is gone.
    expect(h.fake.messages(CHANNEL).filter((m) => buttonsIn(m, ACTIONS.cancelTask).length > 0)).toEqual([]);
  });

  it("Cancel in /fleet queue: the queue is refreshed without it, and the waiting message says who cancelled", async () => {
    await fleet(`where ${sim().vehicles[0]!.plate}`);
    const waitingFirst = lastSeen()!;
    await fleet("stops all last 30d");
    const waiting = lastSeen()!;
    const taskId = buttonsIn(waiting, ACTIONS.cancelTask)[0]!.value;
    await fleet("queue");
    const queue = lastSeen()!;
    expect(buttonsIn(queue, ACTIONS.cancelTask).map((b) => b.value)).toContain(taskId);
    // The driver clicks the button of the block named (the queue lists the other request too).
    await h.driver.blockAction({
      userId: USER,
      channelId: CHANNEL,
      messageTs: queue.ts,
      actionId: ACTIONS.cancelTask,
      blockId: `queue-${taskId.slice(0, 12)}`,
      value: taskId,
    });
    await h.fake.waitFor(() => (messageAt(queue.ts)?.revisions ?? 0) > 0);
    const refreshed = messageAt(queue.ts)!;
    expect(buttonsIn(refreshed, ACTIONS.cancelTask).map((b) => b.value)).not.toContain(taskId);
    await h.settle();
    expect((await h.bot.tasks.get(taskId))?.state).toBe("cancelled");
    expect(textOf(messageAt(waiting.ts))).toContain(`cancelled by <@${USER}>`);
    expect(buttonsIn(messageAt(waiting.ts), ACTIONS.cancelTask)).toEqual([]);
    // The other request was not touched.
    expect(textOf(messageAt(waitingFirst.ts))).not.toContain("cancelled");
  });
});

describe("an edit updates the cards of its transport (point 6)", () => {
  /** The create form's answers, as a person types them. */
  function transportForm(vehicleUId: string, uit: string, startSec: number, endSec: number) {
    return {
      [INPUTS.transportVehicle.block]: { [INPUTS.transportVehicle.action]: vehicleUId },
      [INPUTS.transportUit.block]: { [INPUTS.transportUit.action]: uit },
      [INPUTS.transportVat.block]: { [INPUTS.transportVat.action]: "RO16341004" },
      [INPUTS.transportValidityStart.block]: { [INPUTS.transportValidityStart.action]: startSec },
      [INPUTS.transportValidityEnd.block]: { [INPUTS.transportValidityEnd.action]: endSec },
      [INPUTS.transportStartLocation.block]: { [INPUTS.transportStartLocation.action]: "București" },
      [INPUTS.transportEndLocation.block]: { [INPUTS.transportEndLocation.action]: "Constanța" },
    };
  }
  const viewOpens = () => h.fake.calls.filter((c) => c.method === "views.open").length;
  const viewUpdates = () => h.fake.calls.filter((c) => c.method === "views.update").length;

  it("the public 'created' card and the list show the new validity; the new card goes where asked, and the form says where", async () => {
    const uit = "ED1T-CARD-0000-0001";
    const code = uit.replace(/-/g, "");
    const start = Math.floor((Date.now() + 3_600_000) / 60_000) * 60;
    const oldEnd = start + 2 * 86_400;
    const newEnd = start + 3 * 86_400;
    // Created from the channel: its card is posted there for everyone.
    const opens = viewOpens();
    await et("new");
    await h.fake.waitFor(() => viewOpens() > opens);
    const createForm = [...h.fake.views.values()].at(-1)!;
    await h.driver.viewSubmission({
      userId: USER,
      viewId: createForm.id,
      values: transportForm(sim().vehicles[6]!.vehicleUId, uit, start, oldEnd),
    });
    await h.settle();
    const created = h.fake
      .messages(CHANNEL)
      .filter((m) => !m.ephemeral)
      .at(-1)!;
    expect(textOf(created)).toContain("created");
    expect(JSON.stringify(created.blocks)).toContain(`<!date^${oldEnd}^`);
    // The user's list shows it too.
    await et(`list pending ${code}`);
    await h.settle();
    const list = lastSeen()!;
    expect(JSON.stringify(list.blocks)).toContain(`<!date^${oldEnd}^`);

    // The edit, typed in the channel: a new validity end.
    const updates = viewUpdates();
    await et(`edit ${uit}`);
    await h.fake.waitFor(() => viewUpdates() > updates);
    await h.settle();
    const editForm = [...h.fake.views.values()].at(-1)!;
    const { [INPUTS.transportUit.block]: _uit, ...editValues } = transportForm(
      sim().vehicles[6]!.vehicleUId,
      uit,
      start,
      newEnd,
    );
    const submitted = await h.driver.viewSubmission({
      userId: USER,
      viewId: editForm.id,
      values: editValues,
    });
    expect(JSON.stringify(submitted.body)).toContain(`<#${CHANNEL}>`);
    await h.settle();
    expect(
      sim()
        .control.transports()
        .find((t) => t.codeUit === code)?.validityEndDate,
    ).toBe(newEnd * 1000);

    // Both earlier cards now say what the service has.
    for (const earlier of [messageAt(created.ts)!, messageAt(list.ts)!]) {
      expect(JSON.stringify(earlier.blocks)).toContain(`<!date^${newEnd}^`);
      expect(JSON.stringify(earlier.blocks)).not.toContain(`<!date^${oldEnd}^`);
    }
    // The updated card was posted where the form said: the channel, not a direct message.
    const posted = h.fake
      .messages(CHANNEL)
      .filter((m) => !m.ephemeral)
      .at(-1)!;
    expect(posted.ts).not.toBe(created.ts);
    expect(textOf(posted)).toContain("updated");
    expect(h.fake.messages(USER).some((m) => textOf(m).includes(code) && textOf(m).includes("updated"))).toBe(
      false,
    );
    // And the form says where the result went.
    const closing = JSON.stringify(h.fake.views.get(editForm.id)?.view);
    expect(closing).toContain(`in <#${CHANNEL}>`);
    expect(closing).toContain("Updated in place: 2 earlier cards");
  });
});
