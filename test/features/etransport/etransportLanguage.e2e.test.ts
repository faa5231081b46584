/**
 * e-Transport in the reader's language, through the whole bot (signed commands, clicks and form
 * submissions; the fake Slack; the simulator): a Romanian user's list, form and card are
 * Romanian, and a card posted in a channel by an English user, clicked by a Romanian user, is
 * answered in the clicker's language.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ACTIONS, INPUTS } from "../../../src/platform/slack/actionIds.js";
import { type BotHarness, buttonsOf, lastSeenBy, startBotHarness, textOf } from "../../helpers/botHarness.js";

let h: BotHarness;
const ENGLISH = "U0DISPATCH";
const ROMANIAN = "U0VIEWER";
const CHANNEL = "C0GENERAL";

beforeAll(async () => {
  h = await startBotHarness();
});
afterAll(async () => {
  await h.close();
});
afterEach(() => {
  expect(h.fake.violations).toEqual([]);
});

const slash = async (command: "/fleet" | "/etransport", text: string, userId: string) => {
  const result = await h.driver.slashCommand({ command, text, userId, channelId: CHANNEL });
  await h.settle();
  return result;
};
const sim = () => h.bot.simulator!;

/** Opens the create form as `userId` and submits it: a transport valid from this minute. */
async function create(userId: string, uit: string) {
  const before = h.fake.calls.filter((c) => c.method === "views.open").length;
  await slash("/etransport", "nou", userId);
  await h.fake.waitFor(() => h.fake.calls.filter((c) => c.method === "views.open").length > before);
  const view = [...h.fake.views.values()].at(-1)!;
  const start = Math.floor(Date.now() / 60_000) * 60;
  const ack = await h.driver.viewSubmission({
    userId,
    viewId: view.id,
    values: {
      [INPUTS.transportVehicle.block]: { [INPUTS.transportVehicle.action]: sim().vehicles[5]!.vehicleUId },
      [INPUTS.transportUit.block]: { [INPUTS.transportUit.action]: uit },
      [INPUTS.transportVat.block]: { [INPUTS.transportVat.action]: "RO16341004" },
      [INPUTS.transportValidityStart.block]: { [INPUTS.transportValidityStart.action]: start },
      [INPUTS.transportValidityEnd.block]: { [INPUTS.transportValidityEnd.action]: start + 3 * 86_400 },
    },
  });
  await h.settle();
  return ack;
}

describe("e-Transport in the reader's language", () => {
  it("a Romanian user's list is Romanian; an English user's stays English", async () => {
    await slash("/fleet", "limba ro", ROMANIAN);
    await slash("/etransport", "listă all", ROMANIAN);
    const ro = textOf(lastSeenBy(h.fake, CHANNEL, ROMANIAN));
    expect(ro).toMatch(/e-Transport · [\d.]+ (de )?transporturi în orice stare/);
    expect(ro).toContain("din");
    await slash("/etransport", "list all", ENGLISH);
    const en = textOf(lastSeenBy(h.fake, CHANNEL, ENGLISH));
    expect(en).toMatch(/e-Transport · [\d,]+ transports in any state/);
  });

  it("a card an English user posted, clicked by a Romanian user, answers the Romanian user in Romanian", async () => {
    const uit = "RO12-CD34-EF56-GH90";
    await create(ENGLISH, uit);
    const card = h.fake
      .messages(CHANNEL)
      .filter((m) => !m.ephemeral && textOf(m).includes(uit))
      .at(-1);
    expect(card, "the saved transport's card in the channel").toBeDefined();
    expect(textOf(card)).toContain("created");
    const [start] = buttonsOf(card!, ACTIONS.transportStart);
    expect(start).toBeDefined();
    const before = h.fake.messages(CHANNEL).length;
    await h.driver.blockAction({
      userId: ROMANIAN,
      channelId: CHANNEL,
      messageTs: card!.ts,
      actionId: ACTIONS.transportStart,
      value: start!.value,
    });
    await h.settle();
    const outcome = /Transportul a fost pornit\.|Pornire refuzată/;
    await h.fake.waitFor(() => h.fake.messages(CHANNEL).some((m) => outcome.test(textOf(m))));
    const answer = textOf(h.fake.messages(CHANNEL).find((m) => outcome.test(textOf(m))));
    expect(answer).toContain("RO12-CD34-EF56-GH90");
    expect(answer).not.toMatch(/Started the transport|Start refused/);
    // The clicker was told in Romanian while it waited.
    const notes = h.fake
      .messages(CHANNEL)
      .slice(before)
      .filter((m) => m.visibleTo === ROMANIAN)
      .map((m) => textOf(m));
    expect(notes.join("\n")).not.toMatch(/Starting…/);
  });
});
