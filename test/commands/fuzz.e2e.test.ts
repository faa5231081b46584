/**
 * Fuzzed commands through the whole bot (issue 11, points 5 and 6): arbitrary /fleet and
 * /etransport texts, signed and sent over HTTP by the fake Slack's driver. Every answer (the ack,
 * response_url posts, Web API calls) must pass the fake's Block Kit limits, and no mrkdwn may
 * carry a mention or link that came from the typed text.
 *
 * Seeded: FUZZ_SEED overrides the default; fast-check prints the seed and path of a failure.
 * Each text's ack is checked as it comes; every SAMPLE_EVERY-th text also waits for its answer
 * (tasks, deliveries), and at the end everything the bot sent is checked once more.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BotHarness, startBotHarness } from "../helpers/botHarness.js";
import { echoedMentions, HOSTILE } from "../platform/slack/echoCheck.js";

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_111);
const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const SAMPLE_EVERY = 25;
const USER = "U0DISPATCH";
const CHANNEL = "C0GENERAL";

let h: BotHarness;

beforeAll(async () => {
  h = await startBotHarness({ intervalMs: 5 });
});
afterAll(async () => {
  await h.close();
});

const hostile = fc.constantFrom(...HOSTILE);
const long = fc
  .integer({ min: 2_900, max: 5_000 })
  .chain((n) =>
    fc
      .constantFrom("x", "<", "&", "`", "ă", "🚚", "<!channel>")
      .map((unit) => unit.repeat(n).slice(0, n * 2)),
  );
const junk = fc.string({ unit: "grapheme", maxLength: 40 });
const words = (vocabulary: readonly string[]) =>
  fc.array(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...vocabulary) },
      { weight: 3, arbitrary: hostile },
      { weight: 2, arbitrary: junk },
      { weight: 1, arbitrary: long },
    ),
    { minLength: 0, maxLength: 6 },
  );
const joined = (vocabulary: readonly string[]) =>
  fc
    .tuple(words(vocabulary), fc.constantFrom(" ", ", ", ",", "\n", "  "))
    .map(([parts, separator]) => parts.join(separator));

function plates(): string[] {
  return (h.bot.simulator?.vehicles ?? []).slice(0, 4).map((v) => v.plate);
}

const FLEET_WORDS = [
  "help",
  "where",
  "stops",
  "route",
  "fuel",
  "refills",
  "temperatures",
  "vehicles",
  "queue",
  "whoami",
  "report",
  "alerts",
  "subscribe",
  "unsubscribe",
  "list",
  "today",
  "yesterday",
  "last 3d",
  "last 12h",
  "this week",
  "2026-13-45",
  "2026-03-01..2026-03-02",
  "min=5",
  "min=<!here>",
  "all",
  "#1",
  "#<@UX1>",
  "Error",
  "OldData",
];
const ETRANSPORT_WORDS = [
  "help",
  "list",
  "all",
  "active",
  "pending",
  "paused",
  "completed",
  "start",
  "pause",
  "end",
  "edit",
  "remove",
  "new",
  "Y45R-577U-N544-GY4S",
  "Y45R577UN544GY4S",
  "<@UX1>Y45R577UN544GY4",
];

/** Everything the bot sent since the given marks: Web API calls and response_url posts. */
function sentSince(marks: { calls: number; responses: number }): unknown[] {
  return [
    ...h.fake.calls.slice(marks.calls).map((c) => c.args),
    ...h.fake.responses.slice(marks.responses).map((r) => r.body),
  ];
}

async function fuzz(command: "/fleet" | "/etransport", vocabulary: readonly string[]): Promise<void> {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(joined([...vocabulary, ...plates()]), async (text) => {
      const marks = { calls: h.fake.calls.length, responses: h.fake.responses.length };
      const violations = h.fake.violations.length;
      const result = await h.driver.slashCommand({ command, text, userId: USER, channelId: CHANNEL });
      expect(result.timedOut, "acknowledged within 3 s").toBe(false);
      expect(result.status).toBe(200);
      expect(result.rejected, "Slack would take the ack").toBeUndefined();
      expect(echoedMentions(result.body)).toEqual([]);
      run += 1;
      if (run % SAMPLE_EVERY === 0) await h.settle();
      expect(h.fake.violations.slice(violations)).toEqual([]);
      for (const payload of sentSince(marks)) expect(echoedMentions(payload)).toEqual([]);
    }),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  );
  // Answers still on their way when their text's check ran: all of them, once everything is out.
  await h.settle();
  expect(h.fake.violations).toEqual([]);
  for (const payload of sentSince({ calls: 0, responses: 0 })) expect(echoedMentions(payload)).toEqual([]);
}

describe("fuzzed commands through the signed driver", () => {
  it(`/fleet: ${RUNS} texts, every answer within Slack's limits and no mention echoed`, async () => {
    await fuzz("/fleet", FLEET_WORDS);
  }, 600_000);

  it(`/etransport: ${RUNS} texts, every answer within Slack's limits and no mention echoed`, async () => {
    await fuzz("/etransport", ETRANSPORT_WORDS);
  }, 600_000);
});
