/**
 * Issue 21's "Done means" walk, in Romanian, through the signed driver (the whole bot between
 * the fake Slack and the simulator): `/fleet limba ro`, then `unde`, `opriri`, `combustibil` and
 * `temperaturi` answered in Romanian with decimal commas; `/etransport nou` with a Romanian form
 * and Romanian field errors; a Romanian channel alert resolved in Romanian; the help in Romanian.
 * Every step asserts real Romanian words, and that the English it replaces is gone.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { INPUTS } from "../../../src/platform/slack/actionIds.js";
import {
  alertMessagesFor,
  type BotHarness,
  lastSeenBy,
  startBotHarness,
  textOf,
} from "../../helpers/botHarness.js";
import { drivesEveryDay } from "../../helpers/everyDay.js";

let h: BotHarness;
const USER = "U0DISPATCH";
const CHANNEL = "C0GENERAL";

beforeAll(async () => {
  h = await startBotHarness();
});
afterAll(async () => {
  await h.close();
});
afterEach(() => {
  // Romanian is longer: every payload still within Slack's limits.
  expect(h.fake.violations).toEqual([]);
});

const sim = () => h.bot.simulator!;
const slash = async (command: "/fleet" | "/etransport", text: string) => {
  const result = await h.driver.slashCommand({ command, text, userId: USER, channelId: CHANNEL });
  expect(result.status, text).toBe(200);
  await h.settle();
  return result;
};
const fleet = (text: string) => slash("/fleet", text);
/** Everything the user was shown after `since` messages in the channel (answers replace in place). */
const seenSince = (since: number): string =>
  h.fake
    .messages(CHANNEL)
    .slice(since)
    .filter((m) => !m.ephemeral || m.visibleTo === USER)
    .map((m) => textOf(m))
    .join("\n");
const shownCount = () => h.fake.messages(CHANNEL).length;
/** The answer to a command: the messages it added, and the last one the user sees (edited in place). */
const answerTo = async (run: () => Promise<unknown>): Promise<string> => {
  const since = shownCount();
  await run();
  const answer = `${seenSince(since)}\n${textOf(lastSeenBy(h.fake, CHANNEL, USER))}`;
  if (process.env.WALK_DUMP) console.log(answer);
  return answer;
};
/** A decimal comma between digits ("7,8 l/100 km"), in the text a user reads (not in links). */
const DECIMAL_COMMA = /\d,\d/;
const withoutLinks = (text: string) => text.replace(/<https?:[^>]*>|https?:\/\/\S+/g, "");

describe("a Romanian dispatcher's walk (issue 21, Done means)", () => {
  it("/fleet limba ro sets Romanian, confirmed in Romanian", async () => {
    const answer = await answerTo(() => fleet("limba ro"));
    expect(answer).toContain("Limba ta este acum româna.");
  });

  it("/fleet unde: the last position in Romanian", async () => {
    const plate = sim().vehicles[0]!.plate;
    const answer = withoutLinks(await answerTo(() => fleet(`unde ${plate}`)));
    expect(answer).toContain(plate);
    for (const words of ["*Poziție*", "*Viteză*", "km/h", "*Ultima poziție GPS*", "Actualizează"]) {
      expect(answer).toContain(words);
    }
    expect(answer).toMatch(/\{date_num\} \{time\}\|(luni|marți|miercuri|joi|vineri|sâmbătă|duminică), \d+ /);
    expect(answer).not.toMatch(/\b(Position|Address|Speed|Engine|Last GPS|Refresh|ago)\b/);
    expect(answer).not.toContain("{date_short_pretty}");
    // Coordinates are the map link's label (dots, as maps write them); no other decimal here.
    expect(answer).not.toMatch(/\d\.\d+ ?(km|l|°C|%)/);
  });

  it("/fleet opriri: the stops report in Romanian", async () => {
    const plate = sim().vehicles[0]!.plate;
    const answer = await answerTo(() => fleet(`opriri ${plate} ieri`));
    expect(answer).toContain("🅿️ Opriri — ieri (");
    expect(answer).toMatch(/\d+ (oprire|opriri|de opriri), \d+ (h|min)[^·\n]* în total/);
    expect(answer).toContain("Toate opririle sunt în fișierul CSV atașat.");
    expect(answer).toMatch(/\{date_num\} \{time\}\|(luni|marți|miercuri|joi|vineri|sâmbătă|duminică), \d+ /);
    expect(answer).not.toContain("{date_short_pretty}");
    expect(answer).not.toMatch(/\b(Stops report|stops? in|Stopped for|Total|yesterday)\b/);
    expect(answer).not.toMatch(/\d\.\d+ ?(km|l|h)\b/);
  });

  it("/fleet combustibil: fuel in Romanian, with decimal commas", async () => {
    // It drove yesterday, whatever day today is.
    const plate = drivesEveryDay(sim().vehicles).plate;
    const answer = withoutLinks(await answerTo(() => fleet(`combustibil ${plate} ieri`)));
    expect(answer).toContain("⛽ Consum de combustibil — ieri (");
    expect(answer).toMatch(/\d+,\d l\/100 km/);
    expect(answer).toMatch(/\d+,\d km/);
    expect(answer).toMatch(/\d+,\d l\b/);
    expect(answer).toMatch(DECIMAL_COMMA);
    expect(answer).not.toMatch(/\b(Fuel report|Fuel used|Distance|Consumption|refuelled)\b/);
    expect(answer).not.toMatch(/\d\.\d+ ?(l|km|l\/100 km)\b/);
  });

  it("/fleet temperaturi: temperatures in Romanian, with decimal commas", async () => {
    const reefer = sim().vehicles.find((v) => v.reefer)!;
    const answer = withoutLinks(await answerTo(() => fleet(`temperaturi ${reefer.plate} ieri`)));
    expect(answer).toContain("🌡️ Temperaturi — ieri (");
    expect(answer).toContain("Senzor de temperatură");
    expect(answer).toMatch(/medie -?\d+,\d °C/);
    expect(answer).toMatch(/\d+ de citiri|\d+ citiri/);
    expect(answer).not.toMatch(/\b(Temperatures report|Temperature sensor|readings)\b/);
    expect(answer).not.toMatch(/\d\.\d+ ?°C/);
    // The chart is drawn before the answer goes out: slow on a busy machine.
  }, 60_000);

  it("/etransport nou: a Romanian form, and Romanian field errors for a bad UIT", async () => {
    const opens = h.fake.calls.filter((c) => c.method === "views.open").length;
    await slash("/etransport", "nou");
    await h.fake.waitFor(() => h.fake.calls.filter((c) => c.method === "views.open").length > opens);
    const view = [...h.fake.views.values()].at(-1)!;
    const form = JSON.stringify(view.view);
    if (process.env.WALK_DUMP) console.log(form);
    expect(form).toContain("e-Transport nou");
    expect(form).toContain("Adaugă transportul");
    expect(form).toMatch(/"Cod UIT"/);
    expect(form).toContain("Vehicul");
    expect(form).not.toMatch(/"(New e-Transport|Create|Cancel|Vehicle|Validity start)"/);

    const vehicle = sim().vehicles[3]!;
    const start = Math.floor(Date.now() / 1000) + 3600;
    const result = await h.driver.viewSubmission({
      userId: USER,
      viewId: view.id,
      values: {
        [INPUTS.transportVehicle.block]: { [INPUTS.transportVehicle.action]: vehicle.vehicleUId },
        [INPUTS.transportUit.block]: { [INPUTS.transportUit.action]: "PREA-SCURT" },
        [INPUTS.transportVat.block]: { [INPUTS.transportVat.action]: "RO16341004" },
        [INPUTS.transportValidityStart.block]: { [INPUTS.transportValidityStart.action]: start },
        [INPUTS.transportValidityEnd.block]: { [INPUTS.transportValidityEnd.action]: start + 86_400 },
        [INPUTS.transportStartLocation.block]: { [INPUTS.transportStartLocation.action]: "București" },
        [INPUTS.transportEndLocation.block]: { [INPUTS.transportEndLocation.action]: "Constanța" },
      },
    });
    const errors = (result.body as { errors?: Record<string, string> }).errors ?? {};
    if (process.env.WALK_DUMP) console.log(JSON.stringify(result.body));
    const uitError = errors[INPUTS.transportUit.block];
    expect(uitError, JSON.stringify(result.body)).toBeDefined();
    expect(uitError).toMatch(/cod(ul)? UIT/i);
    expect(uitError).toContain("16 litere și cifre");
    expect(uitError).not.toMatch(/\b(must|characters|letters|digits|The UIT)\b/);
  });

  it("a Romanian channel alert, resolved in Romanian", async () => {
    const subscribed = await answerTo(() => fleet("alerts subscribe lang=ro"));
    expect(subscribed).toContain("primește acum alertele");
    await h.bot.alerts.runOnce(); // the demo fleet's existing problems
    const broken = sim()
      .control.transports()
      .find((t) => t.statusId === 2 && !t.pinnedTransmission)!.codeUit;
    sim().control.setTransport(broken, { transmissionStatusCode: "Error" });
    await h.bot.alerts.runOnce();
    const [posted] = alertMessagesFor(h.fake, CHANNEL, broken);
    expect(textOf(posted)).toContain("Transmisie GPS întreruptă");
    expect(JSON.stringify(posted?.blocks)).toContain('"text":"Fără alerte 24 h"');
    sim().control.setTransport(broken, { transmissionStatusCode: "Active" });
    await h.bot.alerts.runOnce();
    const resolved = alertMessagesFor(h.fake, CHANNEL, broken)[0]!;
    expect(textOf(resolved)).toContain("✅ *Rezolvat*");
    expect(textOf(resolved)).toContain("a durat");
    expect(textOf(resolved)).not.toMatch(/Resolved|lasted/);
    const reply = h.fake.messages(CHANNEL).find((m) => m.threadTs === resolved.ts);
    expect(textOf(reply)).toContain("transmisia a revenit la normal");
  });

  it("/fleet ajutor: the help in Romanian, the Romanian command words first", async () => {
    const answer = await answerTo(() => fleet("ajutor"));
    expect(answer).toContain("comenzile fleetbot");
    // The Romanian word first, the English one in brackets.
    expect(answer).toMatch(/`\/fleet unde &lt;vehicul&gt;` \(`where`\)/);
    expect(answer).toMatch(/`\/fleet opriri [^`]*` \(`stops`\)/);
    expect(answer).toMatch(/`\/fleet temperaturi [^`]*` \(`temps`\)/);
    expect(answer).not.toMatch(/\blists what is\b|\bEvery command\b/);
  });
});
