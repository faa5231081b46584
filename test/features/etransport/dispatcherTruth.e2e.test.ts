/**
 * Issue 14, points 1, 2 and 9 end to end: signed requests from the fake Slack driver to the
 * real bot, the simulator behind it. What the dispatcher reads must be true: a refused Start
 * is told as refused, stop totals stay inside the period, the list speaks dispatcher words,
 * and remove by command can be cancelled.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ACTIONS, INPUTS } from "../../../src/platform/slack/actionIds.js";
import { type BotHarness, buttonsOf, lastSeenBy, startBotHarness, textOf } from "../../helpers/botHarness.js";

let h: BotHarness;
const USER = "U0DISPATCH";
const CHANNEL = "C0GENERAL";
const HOUR = 3_600_000;

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

const et = (text: string) =>
  h.driver.slashCommand({ command: "/etransport", text, userId: USER, channelId: CHANNEL });
const fleet = (text: string) =>
  h.driver.slashCommand({ command: "/fleet", text, userId: USER, channelId: CHANNEL });
const sim = () => h.bot.simulator!;
const lastSeen = () => lastSeenBy(h.fake, CHANNEL, USER);
/** Requests the service handled (a 429 from the simulator's rate limit is retried: not counted). */
const requestsTo = (endpoint: string) =>
  sim()
    .control.requests(500)
    .filter((r) => r.endpoint === endpoint && r.status !== 429);
const transportsIn = (status: number) =>
  sim()
    .control.transports()
    .filter((t) => t.statusId === status);

/** RFC 4180 rows (quoted fields with commas and doubled quotes), BOM dropped; read independently of the writer. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const body = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (quoted) {
      if (ch === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\r" && body[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += ch;
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** Creates a transport through the form whose validity starts two days from now (Start is refused). */
async function createNotYetValid(uit: string): Promise<void> {
  const before = h.fake.calls.filter((c) => c.method === "views.open").length;
  await et("new");
  await h.fake.waitFor(() => h.fake.calls.filter((c) => c.method === "views.open").length > before);
  const view = [...h.fake.views.values()].at(-1)!;
  const start = Math.floor((Date.now() + 48 * HOUR) / 60_000) * 60;
  await h.driver.viewSubmission({
    userId: USER,
    viewId: view.id,
    values: {
      [INPUTS.transportVehicle.block]: { [INPUTS.transportVehicle.action]: sim().vehicles[6]!.vehicleUId },
      [INPUTS.transportUit.block]: { [INPUTS.transportUit.action]: uit },
      [INPUTS.transportVat.block]: { [INPUTS.transportVat.action]: "RO16341004" },
      [INPUTS.transportValidityStart.block]: { [INPUTS.transportValidityStart.action]: start },
      [INPUTS.transportValidityEnd.block]: { [INPUTS.transportValidityEnd.action]: start + 3 * 86_400 },
      [INPUTS.transportStartLocation.block]: { [INPUTS.transportStartLocation.action]: "București" },
      [INPUTS.transportEndLocation.block]: { [INPUTS.transportEndLocation.action]: "Sibiu" },
    },
  });
  await h.settle();
  expect(
    sim()
      .control.transports()
      .find((t) => t.codeUit === uit.replace(/-/g, ""))?.statusId,
  ).toBe(1);
}

describe("action outcomes (point 1)", () => {
  const FUTURE = "AB12-CD34-EF56-GH78";

  it("a refused Start by command says refused, never started", async () => {
    await createNotYetValid(FUTURE);
    await et(`start ${FUTURE}`);
    await h.settle();
    const start = requestsTo("start-transports").at(-1)!;
    expect(start.status).toBe(200);
    const text = textOf(lastSeen());
    expect(text).toContain("Start refused for 1 of 1.");
    expect(text).toContain("❌ `AB12-CD34-EF56-GH78` not started: UitValidityNotStarted");
    expect(text).not.toMatch(/was started|\bStarted\b/);
  });

  it("a refused Start from the card's button says refused too", async () => {
    await et(`list pending ${FUTURE}`);
    await h.settle();
    const list = lastSeen()!;
    const start = buttonsOf(list, ACTIONS.transportStart)[0]!;
    expect(start).toBeDefined();
    const before = requestsTo("start-transports").length;
    await h.driver.blockAction({
      userId: USER,
      channelId: CHANNEL,
      messageTs: list.ts,
      actionId: ACTIONS.transportStart,
      value: start.value,
    });
    await h.settle();
    expect(requestsTo("start-transports").length).toBe(before + 1);
    const seen = h.fake
      .messages(CHANNEL)
      .filter((m) => !m.ephemeral || m.visibleTo === USER)
      .map((m) => textOf(m))
      .join("\n");
    expect(seen).toContain("Start refused for 1 of 1.");
    expect(seen).not.toMatch(/was started|\bStarted\b/);
  });

  it("a bulk Start counts both: started and refused", async () => {
    const startable = transportsIn(2).slice(0, 2);
    expect(startable).toHaveLength(2);
    for (const t of startable) sim().control.setTransport(t.codeUit, { statusId: 6 });
    await et(`start ${startable.map((t) => t.codeUit).join(" ")} ${FUTURE}`);
    await h.settle();
    const text = textOf(lastSeen());
    expect(text).toContain("Started 2 of 3; 1 refused.");
    expect(text.match(/✅/g)).toHaveLength(2);
    expect(text.match(/❌/g)).toHaveLength(1);
  });

  it("a refused End says refused; a refused Pause (a bare false from the service) is told as failed", async () => {
    const done = transportsIn(3)[0]!;
    await et(`end ${done.codeUit}`);
    await h.settle();
    const end = textOf(lastSeen());
    expect(end).toContain("End refused for 1 of 1.");
    expect(end).toContain("TransportFinalized");
    expect(end).not.toMatch(/\bEnded\b|was ended/);
    await et(`pause ${FUTURE}`);
    await h.settle();
    const pause = lastSeen()!.text ?? "";
    expect(pause).toMatch(/^Pause .* failed: /);
    expect(pause).not.toMatch(/Paused the|was paused/);
  });
});

describe("remove by command (point 9)", () => {
  it("has Cancel next to the confirm button; Cancel keeps the transport and says so", async () => {
    const target = transportsIn(1).find((t) => t.codeUit !== "AB12CD34EF56GH78")!;
    const removes = requestsTo("remove-transports").length;
    await et(`remove ${target.codeUit}`);
    await h.settle();
    const question = lastSeen()!;
    expect(buttonsOf(question, ACTIONS.transportRemove)).toHaveLength(1);
    const cancel = buttonsOf(question, ACTIONS.transportRemoveCancel)[0]!;
    expect(cancel).toBeDefined();
    await h.driver.blockAction({
      userId: USER,
      channelId: CHANNEL,
      messageTs: question.ts,
      actionId: ACTIONS.transportRemoveCancel,
      value: cancel.value,
    });
    await h.settle();
    expect(requestsTo("remove-transports").length).toBe(removes);
    expect(
      sim()
        .control.transports()
        .some((t) => t.codeUit === target.codeUit),
    ).toBe(true);
    const after = lastSeen()!;
    expect(after.ts).toBe(question.ts); // the question itself was replaced
    expect(textOf(after)).toContain("Not removed");
    expect(buttonsOf(after, ACTIONS.transportRemove)).toEqual([]);
  });
});

describe("the transport list (point 9)", () => {
  it("says what it shows in dispatcher words, and a UIT one way", async () => {
    await et("list");
    await h.settle();
    const text = textOf(lastSeen());
    expect(text).toMatch(/e-Transport · \d+ open transports \(pending, in progress or paused\)/);
    expect(text).not.toMatch(/default/i);
    await et("list all ab12cd34ef56gh78");
    await h.settle();
    const search = textOf(lastSeen());
    expect(search).toContain("AB12-CD34-EF56-GH78");
    expect(search).not.toContain("AB12CD34EF56GH78");
  });
});

describe("stops report (point 2)", () => {
  it("a stop that began before the period counts from its start, in the message and the CSV", async () => {
    const plates = sim()
      .vehicles.slice(0, 4)
      .map((v) => v.plate);
    await fleet(`stops ${plates.join(", ")} yesterday`);
    await h.settle();
    const request = requestsTo("stops").at(-1)!;
    expect(request.status).toBe(200);
    const message = textOf(lastSeen());
    const csvFile = h.fake.files.filter((f) => f.name === "stops.csv").at(-1);
    expect(csvFile?.bytes).toBeDefined();
    const [header, ...rows] = parseCsv(csvFile!.bytes!.toString("utf8"));
    const col = (name: string) => header!.indexOf(name);

    // The period as the bot asked the service for it (company local time, no offset).
    const body = request.body as { startDate: string; endDate: string };
    const startWall = body.startDate;
    const clipped = rows.filter((r) => r[col("began_before_period")] === "true");
    expect(clipped.length).toBeGreaterThan(0);
    for (const row of clipped) {
      // An ISO time with offset; the stop began before the period's first instant.
      const begin = Date.parse(row[col("start")]!);
      const end = Date.parse(row[col("end")]!);
      const periodStart = Date.parse(`${startWall}${row[col("start")]!.slice(-6)}`);
      expect(begin).toBeLessThan(periodStart);
      expect(Number(row[col("duration_min")])).toBeCloseTo((end - periodStart) / 60_000, 0);
    }
    // Per vehicle, the stops never total more than the day asked for.
    const perVehicle = new Map<string, number>();
    for (const row of rows) {
      const plate = row[col("plate")]!;
      perVehicle.set(plate, (perVehicle.get(plate) ?? 0) + Number(row[col("duration_min")]));
    }
    for (const total of perVehicle.values()) expect(total).toBeLessThanOrEqual(25 * 60);
    // Said in the message too ("…, still stopped at the period's end" when the stop also outlasts the period,
    // which depends on the simulated day).
    expect(message).toMatch(/_\(since before the period(\)_|, still stopped at the period's end\)_)/);
  });
});

describe("the queue (point 9)", () => {
  it("says when each request was asked, as a time token (not the word UTC)", async () => {
    await fleet("stops all last 30d");
    await fleet("queue");
    const queue = textOf(lastSeen());
    const [task] = await h.bot.tasks.unfinished("demo");
    expect(task).toBeDefined();
    const asked = Math.floor(task!.createdAt / 1000);
    expect(queue).toContain(`asked by <@${USER}> at <!date^${asked}^{time}|`);
    expect(queue).not.toContain("^UTC|");
    await h.bot.runner.cancel(task!.id);
    await h.settle();
  });
});
