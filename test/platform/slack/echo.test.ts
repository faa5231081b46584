/**
 * Point 5 of issue 11: user text reaches mrkdwn only through userText (escaped, cut), so no
 * answer echoes a mention, and no view or grammar message bypasses it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type GrammarContext, parseCommandLine } from "../../../src/commands/index.js";
import { grammarErrorMessage } from "../../../src/commands/views/grammarError.js";
import { helpMessage } from "../../../src/commands/views/help.js";
import { transportCard } from "../../../src/features/etransport/slack/views/card.js";
import { transportListMessage } from "../../../src/features/etransport/slack/views/list.js";
import { userCode, userText } from "../../../src/platform/slack/views/text.js";
import { vehicleProblemsMrkdwn } from "../../../src/platform/slack/views/vehicleProblems.js";
import { validateMessagePayload } from "../../../src/sandbox/fakeSlack/limits.js";
import { NOW, transport } from "../../features/etransport/slack/views/etransportFixtures.js";
import { echoedMentions, HOSTILE } from "./echoCheck.js";

const ctx: GrammarContext = { timeZone: "Europe/Bucharest", now: new Date("2026-11-22T10:00:00Z") };
const decode = (s: string) => s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
const hostileText = fc
  .array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ unit: "grapheme", maxLength: 30 })), {
    maxLength: 8,
  })
  .chain((parts) =>
    fc
      .integer({ min: 0, max: 5000 })
      .map((n) => `${parts.join(" ")}${n > 4000 ? "<!channel>".repeat(n / 10) : ""}`),
  );

describe("userText", () => {
  it("escapes &, < and >, never splits an entity or a surrogate pair, and keeps within max", () => {
    fc.assert(
      fc.property(hostileText, fc.integer({ min: 1, max: 400 }), (text, max) => {
        const out = userText(text, max);
        expect(out.length).toBeLessThanOrEqual(max);
        expect(out).not.toMatch(/[<>]/);
        expect(out).not.toMatch(/&(?!amp;|lt;|gt;)/);
        const cut = out.endsWith("…") && decode(out) !== text;
        const kept = cut ? decode(out.slice(0, -1)) : decode(out);
        expect(text.startsWith(kept)).toBe(true);
        expect(kept).not.toMatch(/[\uD800-\uDBFF]$/);
      }),
      { seed: 511, numRuns: 2000 },
    );
  });

  it("a text that fits and has nothing to escape is itself; one character more is cut", () => {
    expect(userText("B-123-ABC", 9)).toBe("B-123-ABC");
    expect(userText("B-123-ABCD", 9)).toBe("B-123-AB…");
    // The length counts the output: an escape can push a short text over its budget.
    expect(userText("B&123", 7)).toBe("B&amp;…");
  });

  it("code spans cannot end early", () => {
    expect(userCode("a`<!here>`b")).toBe("`a'&lt;!here&gt;'b`");
  });
});

describe("no builder echoes a mention", () => {
  it("grammar errors of arbitrary commands: escaped echoes, within Slack's limits", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("/fleet", "/etransport"),
        fc.constantFrom("", "where ", "stops ", "route ", "alerts subscribe ", "list all ", "start ", "zzz"),
        hostileText,
        (command, sub, text) => {
          const { result } = parseCommandLine(`${command} ${sub}${text}`, ctx);
          if (result.ok) return;
          for (const language of ["en", "ro"] as const) {
            const message = grammarErrorMessage(result, "help", language);
            expect(echoedMentions(message)).toEqual([]);
            expect(validateMessagePayload(message)).toEqual([]);
          }
        },
      ),
      { seed: 1111, numRuns: 1500 },
    );
  });

  it("transport card and list: outside fields and the search escaped and cut", () => {
    fc.assert(
      fc.property(hostileText, hostileText, (a, b) => {
        const t = transport({ carrierCode: a, carrierName: b, notes: a, startLocation: b, endLocation: a });
        const card = {
          text: "card",
          blocks: transportCard(t, { language: "en", timeZone: "Europe/Bucharest", nowMs: NOW }),
        };
        const list = transportListMessage({
          language: "en",
          transports: [t],
          totalRecords: 1,
          pageIndex: 0,
          pageSize: 8,
          filterLabel: "all",
          search: b,
        });
        const empty = {
          ...list,
          ...transportListMessage({
            language: "en",
            transports: [],
            totalRecords: 0,
            pageIndex: 0,
            pageSize: 8,
            filterLabel: "all",
            search: a,
          }),
        };
        for (const message of [card, list, empty]) {
          expect(echoedMentions(message)).toEqual([]);
          expect(validateMessagePayload(message)).toEqual([]);
        }
      }),
      { seed: 2222, numRuns: 300 },
    );
  });

  it("vehicle problems: any number of them, escaped, in one section", () => {
    fc.assert(
      fc.property(fc.array(hostileText, { maxLength: 40 }), (problems) => {
        const message = helpMessage(vehicleProblemsMrkdwn(problems, "ro"), undefined, "fleetbot");
        expect(echoedMentions(message)).toEqual([]);
        expect(validateMessagePayload(message)).toEqual([]);
      }),
      { seed: 3333, numRuns: 300 },
    );
  });

  it("no other escaping in the Slack side: one entity table, in views/text.ts", () => {
    const root = join(import.meta.dirname, "../../../src");
    // The Slack side: every slack/ folder (the platform's and each feature's) and the commands.
    // files/ writes attachments (GPX is XML, with XML's own five entities), never Slack text.
    const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter(
      (f) =>
        f.endsWith(".ts") &&
        /(^|\/)slack\/|^commands\//.test(f) &&
        !f.includes("/files/") &&
        !f.startsWith("sandbox/"),
    );
    const escaping = files.filter((f) =>
      /"&lt;"|'&lt;'|replace\(\/\[&<>\]/.test(readFileSync(join(root, f), "utf8")),
    );
    expect(escaping).toEqual(["platform/slack/views/text.ts"]);
  });
});
