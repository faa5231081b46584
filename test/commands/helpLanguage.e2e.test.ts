/**
 * The help answers in the asker's language, end to end: signed slash commands to the real bot
 * over HTTP, answers read from the fake Slack. `/fleet limba ro` then `/fleet ajutor` gives the
 * Romanian help (Romanian words first); an English user's `/fleet help` stays English.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type BotHarness, lastSeenBy, startBotHarness, textOf } from "../helpers/botHarness.js";

const CHANNEL = "C0GENERAL";

describe("help in the asker's language", () => {
  let h: BotHarness;
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

  const say = async (command: "/fleet" | "/etransport", text: string, userId: string) => {
    const result = await h.driver.slashCommand({ command, text, userId, channelId: CHANNEL });
    expect(result.status).toBe(200);
    const seen = lastSeenBy(h.fake, CHANNEL, userId);
    expect(seen?.ephemeral, text).toBe(true);
    expect(seen?.visibleTo, text).toBe(userId);
    return textOf(seen);
  };

  it("`/fleet limba ro` then `/fleet ajutor` answers the Romanian help; `help` too", async () => {
    const user = "U0DISPATCH";
    await say("/fleet", "limba ro", user);
    for (const text of ["ajutor", "help", "AJUTOR"]) {
      const help = await say("/fleet", text, user);
      expect(help, text).toContain("`/fleet ajutor` (`help`) – lista aceasta. Ex.: `/fleet ajutor`");
      expect(help, text).toContain("`/fleet traseu");
      expect(help, text).toContain("*Perioade*");
      expect(help, text).not.toContain("this list");
    }
    const etransport = await say("/etransport", "ajutor", user);
    expect(etransport).toContain("`/etransport nou` (`new`) – creează un transport");
    expect(etransport).not.toContain("/fleet ");
    // A wrong command's help is in Romanian too.
    const wrong = await say("/fleet", "opriir B-123-ABC", user);
    expect(wrong).toContain("`/fleet opriri");
    expect(wrong).toContain("lista aceasta");
    await say("/fleet", "language en", user);
  });

  it("an English user's `/fleet help` (or `ajutor`) stays English", async () => {
    for (const text of ["help", "ajutor"]) {
      const help = await say("/fleet", text, "U0NEWYORK");
      expect(help, text).toContain("`/fleet help` (`ajutor`) – this list. e.g. `/fleet help`");
      expect(help, text).not.toContain("lista aceasta");
    }
    expect(await say("/etransport", "help", "U0NEWYORK")).toContain(
      "`/etransport new` (`nou`) – create a transport",
    );
  });
});
