/**
 * /etransport end to end: the real bot between the fake Slack (signed requests, limit guard)
 * and the simulator, whose request log shows exactly what reached the fleet service.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ACTIONS, INPUTS, VIEWS } from "../../../src/platform/slack/actionIds.js";
import { viewerVehicleIds } from "../../../src/simulator/fleet.js";
import { type BotHarness, buttonsOf, lastSeenBy, startBotHarness, textOf } from "../../helpers/botHarness.js";

let h: BotHarness;
const USER = "U0DISPATCH";
const NEW_YORK = "U0NEWYORK";
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

const et = (text: string, userId = USER) =>
  h.driver.slashCommand({ command: "/etransport", text, userId, channelId: CHANNEL });
const sim = () => h.bot.simulator!;
const lastSeen = (userId = USER) => lastSeenBy(h.fake, CHANNEL, userId);
const requestsTo = (endpoint: string) =>
  sim()
    .control.requests(500)
    .filter((r) => r.endpoint === endpoint);
const transportsIn = (status: number) =>
  sim()
    .control.transports()
    .filter((t) => t.statusId === status);

const buttons = buttonsOf;

async function openCreateModal(userId: string) {
  const before = h.fake.calls.filter((c) => c.method === "views.open").length;
  await et("new", userId);
  await h.fake.waitFor(() => h.fake.calls.filter((c) => c.method === "views.open").length > before);
  return [...h.fake.views.values()].at(-1)!;
}

function formValues(
  vehicleUId: string,
  uit: string,
  startSec: number,
  endSec: number,
  extra: Record<string, string> = {},
) {
  return {
    [INPUTS.transportVehicle.block]: { [INPUTS.transportVehicle.action]: vehicleUId },
    [INPUTS.transportUit.block]: { [INPUTS.transportUit.action]: uit },
    [INPUTS.transportVat.block]: { [INPUTS.transportVat.action]: "RO16341004" },
    [INPUTS.transportValidityStart.block]: { [INPUTS.transportValidityStart.action]: startSec },
    [INPUTS.transportValidityEnd.block]: { [INPUTS.transportValidityEnd.action]: endSec },
    [INPUTS.transportStartLocation.block]: {
      [INPUTS.transportStartLocation.action]: extra.start ?? "București",
    },
    [INPUTS.transportEndLocation.block]: { [INPUTS.transportEndLocation.action]: extra.end ?? "Constanța" },
  };
}

describe("/etransport", () => {
  it("creates a transport from the modal: UTC dates in the exact body the service received, for users in two zones", async () => {
    const vehicle = sim().vehicles[2]!;
    for (const [userId, uit] of [
      [USER, "AB12-CD34-EF56-GH78"],
      [NEW_YORK, "ZX98 YW76 VU54 TS32"],
    ] as const) {
      const view = await openCreateModal(userId);
      // A validity starting in an hour, on a whole minute (the picker's precision), lasting 4 days.
      const start = Math.floor((Date.now() + 3_600_000) / 60_000) * 60;
      const end = start + 4 * 86_400;
      const submitted = await h.driver.viewSubmission({
        userId,
        viewId: view.id,
        values: formValues(vehicle.vehicleUId, uit, start, end),
      });
      expect(submitted.status).toBe(200);
      await h.settle();
      const add = requestsTo("add-transport").at(-1)!;
      const body = add.body as Record<string, string>;
      expect(body.codeUit).toBe(uit.replace(/[\s-]/g, ""));
      expect(body.vehicleUId).toBe(vehicle.vehicleUId);
      expect(body.vatNumber).toBe("RO16341004");
      expect(body.validityStartDate).toBe(new Date(start * 1000).toISOString());
      expect(body.validityEndDate).toBe(new Date(end * 1000).toISOString());
      expect(body.validityStartDate).toMatch(/Z$/);
      // The card is posted in the channel where the form was opened.
      const card = h.fake
        .messages(CHANNEL)
        .filter((m) => !m.ephemeral)
        .at(-1);
      expect(textOf(card)).toContain("created");
    }
  });

  it("a failure from the service (a UIT that already exists) is told in words, with the correlation id for support", async () => {
    const existing = transportsIn(2)[0]!;
    const view = await openCreateModal(USER);
    const start = Math.floor((Date.now() + 3_600_000) / 60_000) * 60;
    await h.driver.viewSubmission({
      userId: USER,
      viewId: view.id,
      values: formValues(sim().vehicles[5]!.vehicleUId, existing.codeUit, start, start + 86_400),
    });
    await h.settle();
    const answer = h.fake
      .messages(USER)
      .filter((m) => m.origin === "chat.postMessage")
      .at(-1);
    expect(textOf(answer)).toMatch(/already/i);
    expect(textOf(answer)).toMatch(/correlation id/i);
  });

  it("answers field errors in the modal and sends nothing upstream until all pass", async () => {
    const view = await openCreateModal(USER);
    const adds = requestsTo("add-transport").length;
    const start = Math.floor(Date.now() / 1000) + 3600;
    const result = await h.driver.viewSubmission({
      userId: USER,
      viewId: view.id,
      values: {
        ...formValues(sim().vehicles[3]!.vehicleUId, "TOO-SHORT", start, start - 60),
        [INPUTS.transportVat.block]: { [INPUTS.transportVat.action]: "RO16341005" },
        // Outside the validity even though its end is wrong too: told now, not on the next submit.
        [INPUTS.transportStart.block]: { [INPUTS.transportStart.action]: start - 3600 },
        [INPUTS.transportTrailer1.block]: { [INPUTS.transportTrailer1.action]: "xyz" },
      },
    });
    const errors = (result.body as { errors: Record<string, string> }).errors;
    expect(Object.keys(errors).sort()).toEqual(
      [
        INPUTS.transportUit.block,
        INPUTS.transportVat.block,
        INPUTS.transportValidityEnd.block,
        INPUTS.transportStart.block,
        INPUTS.transportTrailer1.block,
      ].sort(),
    );
    expect(errors[INPUTS.transportTrailer1.block]).toMatch(/e\.g\. B-123-ABC/);
    await h.settle();
    expect(requestsTo("add-transport").length).toBe(adds);
  });

  it("warns (without blocking) when the validity is longer than the legal span, and saves on the second submit", async () => {
    const view = await openCreateModal(USER);
    const start = Math.floor((Date.now() + 3_600_000) / 60_000) * 60;
    const values = formValues(sim().vehicles[4]!.vehicleUId, "WARN1234WARN5678", start, start + 10 * 86_400);
    const first = await h.driver.viewSubmission({ userId: USER, viewId: view.id, values });
    expect(JSON.stringify(first.body)).toMatch(/Submit again/);
    const second = await h.driver.viewSubmission({ userId: USER, viewId: view.id, values });
    expect((second.body as { response_action: string }).response_action).toBe("update");
    await h.settle();
    expect(
      sim()
        .control.transports()
        .some((t) => t.codeUit === "WARN1234WARN5678"),
    ).toBe(true);
  });

  it("lists transports with pagination and totals", async () => {
    await et("list all");
    await h.settle();
    const first = lastSeen();
    expect(textOf(first)).toMatch(/\d+ transports/);
    const next = buttons(first, ACTIONS.transportListNext)[0];
    expect(next).toBeDefined();
    await h.driver.blockAction({
      userId: USER,
      channelId: CHANNEL,
      messageTs: first!.ts,
      actionId: ACTIONS.transportListNext,
      value: next!.value,
    });
    await h.settle();
    const loads = requestsTo("load-transports").slice(-2);
    expect((loads[1]!.body as { pageIndex: number }).pageIndex).toBe(1);
    expect(textOf(lastSeen())).toMatch(/page 2/);
  });

  it("Start → Pause → Start → End through the buttons, the card updated in place each time; a double click runs once", async () => {
    const pending = transportsIn(1).find((t) => t.validityStartDate <= Date.now())!;
    await et(`list pending ${pending.codeUit}`);
    await h.settle();
    const press = async (actionId: string, twice = false) => {
      const message = lastSeen();
      const button = buttons(message, actionId)[0];
      expect(button, `${actionId} button`).toBeDefined();
      const click = () =>
        h.driver.blockAction({
          userId: USER,
          channelId: CHANNEL,
          messageTs: message!.ts,
          actionId,
          value: button!.value,
        });
      await (twice ? Promise.all([click(), click()]) : click());
      await h.settle();
      return sim()
        .control.transports()
        .find((t) => t.codeUit === pending.codeUit)!;
    };
    const starts = requestsTo("start-transports").length;
    expect((await press(ACTIONS.transportStart, true)).statusId).toBe(2);
    expect(requestsTo("start-transports").length).toBe(starts + 1);
    expect(textOf(lastSeen())).toContain("In Progress");
    expect((await press(ACTIONS.transportPause)).statusId).toBe(6);
    expect(textOf(lastSeen())).toContain("Paused");
    expect((await press(ACTIONS.transportStart)).statusId).toBe(2);
    expect((await press(ACTIONS.transportEnd)).statusId).toBe(3);
    expect(textOf(lastSeen())).toContain("Completed");
    expect(lastSeen()?.revisions).toBeGreaterThan(0);
  });

  it("bulk start of three UITs with one failing shows a result per UIT", async () => {
    // Two running transports paused by the simulator's control: both can be started again.
    const startable = transportsIn(2).slice(0, 2);
    for (const t of startable) sim().control.setTransport(t.codeUit, { statusId: 6 });
    const finished = transportsIn(3)[0]!;
    expect(startable).toHaveLength(2);
    await et(`start ${startable.map((t) => t.codeUit).join(" ")} ${finished.codeUit}`);
    await h.settle();
    const body = requestsTo("start-transports").at(-1)!.body as { transports: { codeUit: string }[] };
    expect(body.transports).toHaveLength(3);
    const text = textOf(lastSeen());
    expect(text).toContain("✅");
    expect(text).toContain("❌");
  });

  it("an unknown UIT is answered with what happened and what to do", async () => {
    await et("remove QQQQ-QQQQ-QQQQ-QQQQ");
    await h.settle();
    expect(textOf(lastSeen())).toMatch(/No transport with UIT QQQQ-QQQQ-QQQQ-QQQQ/);
  });

  it("removes only after the confirmation button", async () => {
    const target = transportsIn(1).at(-1)!;
    const removes = requestsTo("remove-transports").length;
    await et(`remove ${target.codeUit}`);
    await h.settle();
    expect(requestsTo("remove-transports").length).toBe(removes);
    const confirm = buttons(lastSeen(), ACTIONS.transportRemove)[0];
    expect(confirm).toBeDefined();
    expect(JSON.stringify(lastSeen()?.blocks)).toContain("irreversible");
    await h.driver.blockAction({
      userId: USER,
      channelId: CHANNEL,
      messageTs: lastSeen()!.ts,
      actionId: ACTIONS.transportRemove,
      value: confirm!.value,
    });
    await h.settle();
    expect(requestsTo("remove-transports").length).toBe(removes + 1);
    expect(
      sim()
        .control.transports()
        .some((t) => t.codeUit === target.codeUit),
    ).toBe(false);
  });

  it("edit opens the form prefilled and sends update-transport; a finished transport says it cannot be modified", async () => {
    const paused = transportsIn(6)[0] ?? transportsIn(2)[0]!;
    // The service holds the validity end to the second; the picker shows it to the minute.
    const heldEnd = Math.floor(paused.validityEndDate / 60_000) * 60_000 + 17_000;
    sim().control.setTransport(paused.codeUit, { validityEndDate: new Date(heldEnd).toISOString() });
    await et(`edit ${paused.codeUit}`);
    await h.fake.waitForCall("views.update");
    await h.settle();
    const view = [...h.fake.views.values()].at(-1)!;
    expect(view.view.callback_id).toBe(VIEWS.transportEdit);
    expect(JSON.stringify(view.view)).toContain(INPUTS.transportValidityEnd.block);
    const current = view.view as {
      blocks: {
        block_id?: string;
        element?: { initial_date_time?: number; initial_option?: { value: string } };
      }[];
    };
    const initial = (block: string) => current.blocks.find((b) => b.block_id === block)?.element;
    const start = initial(INPUTS.transportValidityStart.block)!.initial_date_time!;
    const end = initial(INPUTS.transportValidityEnd.block)!.initial_date_time!;
    await h.driver.viewSubmission({
      userId: USER,
      viewId: view.id,
      values: {
        [INPUTS.transportVehicle.block]: {
          [INPUTS.transportVehicle.action]: initial(INPUTS.transportVehicle.block)!.initial_option!.value,
        },
        [INPUTS.transportVat.block]: { [INPUTS.transportVat.action]: "RO16341004" },
        [INPUTS.transportValidityStart.block]: { [INPUTS.transportValidityStart.action]: start },
        [INPUTS.transportValidityEnd.block]: { [INPUTS.transportValidityEnd.action]: end },
        [INPUTS.transportNotes.block]: { [INPUTS.transportNotes.action]: "Edited from Slack" },
      },
    });
    await h.settle();
    const update = requestsTo("update-transport").at(-1)!.body as Record<string, string>;
    expect(update.transportUId).toBe(paused.uId);
    expect(update.notes).toBe("Edited from Slack");
    // Pickers left as they were keep what the service holds, not the minute they showed.
    expect(end).toBe(Math.floor(heldEnd / 60_000) * 60);
    expect(Date.parse(update.validityEndDate!)).toBe(heldEnd);
    // (the client writes whole seconds, as the service's dates have)
    expect(Date.parse(update.validityStartDate!)).toBe(Math.floor(paused.validityStartDate / 1000) * 1000);

    const done = transportsIn(3)[0]!;
    const updates = h.fake.calls.filter((c) => c.method === "views.update").length;
    await et(`edit ${done.codeUit}`);
    await h.fake.waitFor(() => h.fake.calls.filter((c) => c.method === "views.update").length > updates);
    await h.settle();
    expect(JSON.stringify([...h.fake.views.values()].at(-1)!.view)).toContain("can no longer be modified");
  });

  it("a button runs as the user who clicks it: a viewer cannot act on a transport outside its vehicles", async () => {
    // U0VIEWER links the viewer account (a subset of the vehicles).
    await h.driver.slashCommand({ command: "/fleet", text: "login", userId: "U0VIEWER", channelId: CHANNEL });
    await h.fake.waitForCall("views.open");
    const login = [...h.fake.views.values()].at(-1)!;
    await h.driver.viewSubmission({
      userId: "U0VIEWER",
      viewId: login.id,
      values: {
        [INPUTS.loginUsername.block]: { [INPUTS.loginUsername.action]: "viewer" },
        [INPUTS.loginPassword.block]: { [INPUTS.loginPassword.action]: "viewer" },
      },
    });
    await h.settle();
    const viewerVehicles = new Set(
      viewerVehicleIds(sim().vehicles).map(
        (id) => sim().vehicles.find((v) => v.vehicleId === id)!.vehicleUId,
      ),
    );
    const foreignVehicle = sim().vehicles.find((v) => !viewerVehicles.has(v.vehicleUId))!;
    // The dispatcher (demo account) creates a transport: its card is posted in the channel for everyone.
    const view = await openCreateModal(USER);
    const start = Math.floor((Date.now() - 60_000) / 60_000) * 60;
    await h.driver.viewSubmission({
      userId: USER,
      viewId: view.id,
      values: formValues(foreignVehicle.vehicleUId, "VIEW-ER00-TEST-0001", start, start + 2 * 86_400),
    });
    await h.settle();
    const card = h.fake
      .messages(CHANNEL)
      .filter((m) => !m.ephemeral)
      .at(-1)!;
    const startButton = buttons(card, ACTIONS.transportStart)[0]!;
    expect(startButton).toBeDefined();
    // The viewer clicks Start on it: the call is made as the viewer, and the service refuses it.
    await h.driver.blockAction({
      userId: "U0VIEWER",
      channelId: CHANNEL,
      messageTs: card.ts,
      actionId: ACTIONS.transportStart,
      value: startButton.value,
    });
    await h.settle();
    const attempt = requestsTo("start-transports").at(-1)!;
    expect(attempt.username).toBe("viewer");
    expect(attempt.status).toBe(401);
    expect(
      sim()
        .control.transports()
        .find((t) => t.codeUit === "VIEWER00TEST0001")?.statusId,
    ).toBe(1);
    const answer = h.fake
      .messages(CHANNEL)
      .filter((m) => m.visibleTo === "U0VIEWER")
      .at(-1);
    expect(textOf(answer)).toMatch(/not accessible|access|rights/i);
  });
});
