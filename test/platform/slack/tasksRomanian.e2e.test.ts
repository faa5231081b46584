/**
 * A Romanian dispatcher's requests end to end (signed driver, real bot, simulator, fake Slack):
 * after `/fleet limba ro`, the ack's place and estimate, `/fleet queue`, a Cancel and `/fleet
 * whoami` are in Romanian; an English colleague's stay in English.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ACTIONS } from "../../../src/platform/slack/actionIds.js";
import { type BotHarness, lastSeenBy, startBotHarness, textOf } from "../../helpers/botHarness.js";

let h: BotHarness;
const RO = "U0DISPATCH";
const EN = "U0NEWYORK";
const CHANNEL = "C0GENERAL";

beforeAll(async () => {
  h = await startBotHarness();
});
afterAll(async () => {
  await h?.close();
});
afterEach(() => {
  expect(h.fake.violations).toEqual([]);
  h.fake.reset();
});

const fleet = (text: string, userId: string) =>
  h.driver.slashCommand({ command: "/fleet", text, userId, channelId: CHANNEL });
const lastSeen = (userId: string) => lastSeenBy(h.fake, CHANNEL, userId);
const messageAt = (ts: string) => h.fake.messages(CHANNEL).find((m) => m.ts === ts);

/** The values of a message's Cancel buttons. */
function cancelButtons(message: { blocks?: unknown[] } | undefined): string[] {
  const found: string[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") {
      const record = value as Record<string, unknown>;
      if (
        record.type === "button" &&
        record.action_id === ACTIONS.cancelTask &&
        typeof record.value === "string"
      )
        found.push(record.value);
      else Object.values(record).forEach(walk);
    }
  };
  walk(message?.blocks ?? []);
  return found;
}

describe("tasks in Romanian", () => {
  it("the ack, the queue and a cancel speak the asking user's language", async () => {
    await fleet("limba ro", RO);
    expect(textOf(lastSeen(RO))).toContain("Limba ta este acum româna.");

    await fleet("whoami", RO);
    expect(textOf(lastSeen(RO))).toMatch(/Comenzile tale rulează cu contul platformei GPS \*[^*]+\*/);

    await fleet("stops all last 30d", RO);
    const waiting = lastSeen(RO)!;
    const ack = textOf(waiting);
    expect(ack).toMatch(/urmează la rând|locul \d+ în coadă|răspunsul vine acum|\d+\/\d+ (de )?cereri/);
    expect(ack).toContain("Platforma GPS răspunde, pentru un cont");
    expect(ack).toContain("Anulează");
    const [taskId] = cancelButtons(waiting);
    expect(taskId).toBeDefined();

    // An English colleague of the same fleet account reads the same queue in English.
    await fleet("queue", EN);
    expect(textOf(lastSeen(EN))).toMatch(/Queue of .*: \d+ requests?/);
    await fleet("queue", RO);
    const queue = lastSeen(RO)!;
    expect(textOf(queue)).toMatch(/Coada contului .*: \d+ (de )?cereri?/);
    expect(textOf(queue)).toContain("Actualizează");

    await h.driver.blockAction({
      userId: RO,
      channelId: CHANNEL,
      messageTs: waiting.ts,
      actionId: ACTIONS.cancelTask,
      value: taskId!,
    });
    await h.settle();
    expect(textOf(messageAt(waiting.ts))).toContain(`<@${RO}> a anulat cererea.`);
    expect(textOf(messageAt(waiting.ts))).toContain("Apelurile deja trimise au primit răspuns");
  });
});
